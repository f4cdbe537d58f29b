// SPDX-License-Identifier: GPL-2.0
/*
 * isgx-fio - an fio external ioengine whose "file" is the memory of an
 * enclave: every read is a memcpy out of the enclave's mapping at fio's
 * offset, every write a memcpy into it.  Under the emu backend the EPC is
 * plain memory mapped into the process, so the copies touch enclave pages
 * exactly as enclave code would, and a page the pager evicted is loaded
 * back (ELDU) by the fault the copy takes.
 *
 *	fio --ioengine=external:/path/to/isgx-fio.so --size=8m --rw=randread ...
 *
 * Options (all optional):
 *	isgx_key=PEM	   RSA-3072 e=3 signing key (default: the build's key)
 *	isgx_device=PATH   the SGX device (default /dev/sgx)
 *
 * setup (in fio's parent process) and init give every file its size
 * (size= / nrfiles) and its place in the enclave; init (in the job's own
 * process, which must own the enclave) builds one enclave whose data
 * pages hold every file, all REG RW, added without EEXTEND, signed and
 * initialised; cleanup destroys it.  Compiled against the source of the fio that runs it:
 * init refuses to run under another fio version.
 */
#include "fio.h"
#include "optgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enclave.h"
#include "isgx.h"
#include "layout.h"
#include "sign.h"

#ifndef ISGX_DEFAULT_KEY
#define ISGX_DEFAULT_KEY "signing_key.pem"
#endif
#ifndef ISGX_FIO_VERSION
#error "ISGX_FIO_VERSION (fio's version string, e.g. \"fio-3.33\") must be defined"
#endif

#define PAGE_ROUND(x)	(((x) + SGX_PAGE_SIZE - 1) & ~(uint64_t)(SGX_PAGE_SIZE - 1))

struct isgx_fio_options {
	void *pad;	/* fio: no option may sit at offset 0 */
	char *key;
	char *device;
};

static struct fio_option options[] = {
	{
		.name	= "isgx_key",
		.lname	= "isgx signing key",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct isgx_fio_options, key),
		.help	= "RSA-3072 e=3 PEM key that signs the enclave",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "isgx_device",
		.lname	= "isgx device",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct isgx_fio_options, device),
		.help	= "SGX device node (default /dev/sgx)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= NULL,
	},
};

struct isgx_fio {
	int fd;
	struct isgx_enclave e;
	uint64_t data_off;	/* enclave offset of the first data page */
	uint64_t data_size;	/* bytes of data pages */
};

/* Data page k sits after the TCS and its SSA page. */
#define NR_TCS		1
#define DATA_OFFSET	((uint64_t)2 * NR_TCS * SGX_PAGE_SIZE)

/*
 * Every file gets size= / nrfiles (fio's own split) and the data pages
 * from engine_pos on; nothing is opened.
 */
static int isgx_fio_setup(struct thread_data *td)
{
	struct fio_file *f;
	uint64_t per_file, pos = 0;
	unsigned int i;

	if (!td->o.size) {
		log_err("isgx-fio: %s: size= is required (the enclave's data size)\n", td->o.name);
		td_verror(td, EINVAL, "isgx_fio_setup");
		return 1;
	}
	if (td->o.file_size_low) {
		log_err("isgx-fio: %s: filesize= is not supported, use size= and nrfiles=\n",
			td->o.name);
		td_verror(td, EINVAL, "isgx_fio_setup");
		return 1;
	}
	per_file = td->o.size / (td->o.nr_files ? td->o.nr_files : 1);
	for_each_file(td, f, i) {
		f->real_file_size = per_file;
		f->engine_pos = pos;
		pos += PAGE_ROUND(per_file);
		fio_file_set_size_known(f);
	}
	if (pos / SGX_PAGE_SIZE + 2 * NR_TCS > ISGX_LAYOUT_MAX_PAGES) {
		log_err("isgx-fio: %s: %llu bytes do not fit one enclave (at most %u pages)\n",
			td->o.name, (unsigned long long)pos, ISGX_LAYOUT_MAX_PAGES);
		td_verror(td, EINVAL, "isgx_fio_setup");
		return 1;
	}
	return 0;
}

static int isgx_fio_build(struct thread_data *td, struct isgx_fio *d)
{
	struct isgx_fio_options *o = td->eo;
	const char *key_path = o && o->key ? o->key : ISGX_DEFAULT_KEY;
	const char *device = o && o->device ? o->device : "/dev/sgx";
	uint8_t page[SGX_PAGE_SIZE] __attribute__((aligned(SGX_PAGE_SIZE)));
	struct isgx_layout l = { .nr_tcs = NR_TCS, .debug = true, .skip_eextend = true };
	struct isgx_layout_page lp;
	struct sgx_sigstruct ss;
	struct sgx_secs secs;
	char err[256];
	EVP_PKEY *key;
	uint64_t off;
	int64_t ret;

	key = isgx_key_load(key_path, err);
	if (!key) {
		log_err("isgx-fio: %s\n", err);
		return EINVAL;
	}
	d->fd = open(device, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		ret = errno;
		log_err("isgx-fio: open %s: %s (is isgx loaded?)\n", device, strerror(errno));
		EVP_PKEY_free(key);
		return ret;
	}
	l.nr_pages = 2 * NR_TCS + d->data_size / SGX_PAGE_SIZE;
	if (isgx_layout_check(&l, err)) {
		log_err("isgx-fio: layout: %s\n", err);
		ret = EINVAL;
		goto out;
	}
	/* The TCS and its SSA page as layout.h has them, then all data RW. */
	isgx_layout_secs(&l, &secs);
	ret = isgx_enclave_create(&d->e, d->fd, &secs);
	for (unsigned int i = 0; !ret && i < 2 * NR_TCS; i++) {
		isgx_layout_page(&l, i, &lp, page);
		ret = isgx_enclave_add(&d->e, lp.offset, page, lp.secinfo, lp.add_flags);
	}
	memset(page, 0, sizeof(page));
	for (off = 0; !ret && off < d->data_size; off += SGX_PAGE_SIZE)
		ret = isgx_enclave_add(&d->e, d->data_off + off, page,
				       SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W,
				       SGX_ADD_SKIP_EEXTEND);
	if (!ret)
		ret = isgx_enclave_sign(&d->e, key, &ss);
	if (!ret)
		ret = isgx_enclave_init(&d->e, &ss, NULL);
	if (ret) {
		log_err("isgx-fio: %s\n", isgx_enclave_error(&d->e));
		isgx_enclave_destroy(&d->e);	/* also when CREATE failed */
		ret = ret < 0 ? -ret : EIO;
	}
out:
	EVP_PKEY_free(key);
	if (ret) {
		close(d->fd);
		d->fd = -1;
	}
	return ret;
}

static int isgx_fio_init(struct thread_data *td)
{
	struct isgx_fio *d;
	struct fio_file *f;
	unsigned int i;
	int ret;

	if (strcmp(fio_version_string, ISGX_FIO_VERSION)) {
		log_err("isgx-fio: built against %s, running under %s: rebuild against this fio's source\n",
			ISGX_FIO_VERSION, fio_version_string);
		td_verror(td, EINVAL, "isgx_fio_init");
		return 1;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		td_verror(td, ENOMEM, "isgx_fio_init");
		return 1;
	}
	d->fd = -1;
	d->data_off = DATA_OFFSET;
	/*
	 * With create_serialize=0 fio calls init before setup: give the
	 * files their sizes here too (setup does the same again later).
	 */
	if (isgx_fio_setup(td)) {
		free(d);
		return 1;
	}
	for_each_file(td, f, i)
		if (f->engine_pos + PAGE_ROUND(f->real_file_size) > d->data_size)
			d->data_size = f->engine_pos + PAGE_ROUND(f->real_file_size);
	if (!d->data_size) {
		log_err("isgx-fio: %s: no file has a size (size= missing?)\n", td->o.name);
		free(d);
		td_verror(td, EINVAL, "isgx_fio_init");
		return 1;
	}
	ret = isgx_fio_build(td, d);
	if (ret) {
		free(d);
		td_verror(td, ret, "isgx_fio_init");
		return 1;
	}
	td->io_ops_data = d;
	return 0;
}

static void isgx_fio_cleanup(struct thread_data *td)
{
	struct isgx_fio *d = td->io_ops_data;

	if (!d)
		return;
	isgx_enclave_destroy(&d->e);
	close(d->fd);
	free(d);
	td->io_ops_data = NULL;
}

static enum fio_q_status isgx_fio_queue(struct thread_data *td, struct io_u *io_u)
{
	struct isgx_fio *d = td->io_ops_data;
	struct fio_file *f = io_u->file;
	unsigned long long len = io_u->xfer_buflen;
	void *p;

	fio_ro_check(td, io_u);
	if (!ddir_rw(io_u->ddir)) {
		/* sync, datasync, sync_file_range: memory, nothing to flush */
		if (io_u->ddir == DDIR_TRIM)
			io_u->error = EOPNOTSUPP;
		return FIO_Q_COMPLETED;
	}
	if (io_u->offset > f->real_file_size || len > f->real_file_size - io_u->offset) {
		io_u->error = EINVAL;
		return FIO_Q_COMPLETED;
	}
	p = isgx_enclave_ptr(&d->e, d->data_off + f->engine_pos + io_u->offset);
	if (io_u->ddir == DDIR_READ)
		memcpy(io_u->xfer_buf, p, len);
	else
		memcpy(p, io_u->xfer_buf, len);
	io_u->resid = 0;
	return FIO_Q_COMPLETED;
}

static int isgx_fio_open_file(struct thread_data fio_unused *td, struct fio_file fio_unused *f)
{
	return 0;
}

static int isgx_fio_close_file(struct thread_data fio_unused *td, struct fio_file *f)
{
	f->fd = -1;
	return 0;
}

/* fio looks this symbol up with dlsym(). */
struct ioengine_ops ioengine = {
	.name		= "isgx",
	.version	= FIO_IOOPS_VERSION,
	.flags		= FIO_SYNCIO | FIO_DISKLESSIO | FIO_NOEXTEND | FIO_NODISKUTIL,
	.setup		= isgx_fio_setup,
	.init		= isgx_fio_init,
	.queue		= isgx_fio_queue,
	.cleanup	= isgx_fio_cleanup,
	.open_file	= isgx_fio_open_file,
	.close_file	= isgx_fio_close_file,
	.options	= options,
	.option_struct_size = sizeof(struct isgx_fio_options),
};
