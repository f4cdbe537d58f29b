// SPDX-License-Identifier: GPL-2.0
/* sgx_guest.c - helpers for the /dev/sgx guest tests (see sgx_guest.h). */
#define _GNU_SOURCE
#include "sgx_guest.h"
#include "kmodule.h"
#include "counters.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sign.h"

#define DEBUGFS		"/sys/kernel/debug"
#define NR_FREE		DEBUGFS "/isgx/nr_free_pages"
#define NR_TOTAL	DEBUGFS "/isgx/nr_total_pages"

int isgx_test_start(const char *params)
{
	const char *ko = isgx_ko_path();
	struct stat st;
	int ret, fd;

	if (!ko)
		isgx_skip("no module given (--ko=PATH or ISGX_KO)");
	if (!isgx_in_guest())
		isgx_skip("not inside a qemu/run guest: never load modules on the host");
	if (isgx_module_loaded("isgx"))
		ISGX_ASSERT(isgx_module_unload("isgx") == 0, "a stale isgx could not be unloaded");
	ret = isgx_module_load(ko, params);
	ISGX_ASSERT(ret == 0, "loading %s failed: %s", ko, strerror(-ret));
	/* The counters live in debugfs, which the guest's init does not mount. */
	if (stat(DEBUGFS "/isgx", &st))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	fd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
	ISGX_ASSERT(fd >= 0, "open /dev/sgx: %s", strerror(errno));
	return fd;
}

void isgx_test_finish(int fd)
{
	int ret;

	if (fd >= 0)
		close(fd);
	/* A released enclave may still hold the file for a moment (deferred work). */
	for (int i = 0; i < 100; i++) {
		ret = isgx_module_unload("isgx");
		if (ret != -EWOULDBLOCK && ret != -EBUSY)
			break;
		usleep(20000);
	}
	ISGX_EXPECT(ret == 0, "unload failed: %s", strerror(-ret));
}

static bool read_long(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok;
}

bool isgx_epc_counts(long *nr_free, long *nr_total)
{
	static bool noted;

	if (read_long(NR_FREE, nr_free) && read_long(NR_TOTAL, nr_total))
		return true;
	if (!noted)
		isgx_note("no %s or %s: EPC leak checks skipped", NR_FREE, NR_TOTAL);
	noted = true;
	return false;
}

long isgx_epc_nr_free(void)
{
	long f, t;

	return isgx_epc_counts(&f, &t) ? f : -1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

void isgx_expect_epc_all_free(const char *when, unsigned int ms)
{
	long deadline = now_ms() + ms, f, t;

	if (!isgx_epc_counts(&f, &t))
		return;
	/* Release can be deferred (mm teardown, workers): poll, briefly. */
	while (f != t && now_ms() < deadline) {
		usleep(10000);
		isgx_epc_counts(&f, &t);
	}
	ISGX_EXPECT(f == t, "%s: %ld of %ld EPC pages free, want all", when, f, t);
}

int64_t isgx_ioc_create(int fd, const struct sgx_secs *secs, uint64_t *addr)
{
	struct sgx_create_param p = { .secs = (uintptr_t)secs };
	int64_t ret = isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, &p);

	if (addr)
		*addr = p.addr;
	return ret;
}

int64_t isgx_ioc_add(int fd, uint64_t addr, const void *src, const struct sgx_secinfo *si,
		     uint32_t flags)
{
	struct sgx_add_param p = {
		.addr = addr,
		.user_addr = (uintptr_t)src,
		.secinfo = (uintptr_t)si,
		.flags = flags,
	};

	return isgx_ioctl(fd, SGX_IOC_ENCLAVE_ADD_PAGE, &p);
}

int64_t isgx_ioc_init(int fd, uint64_t addr, const struct sgx_sigstruct *ss)
{
	static const struct sgx_einittoken token;
	struct sgx_init_param p = {
		.addr = addr,
		.sigstruct = (uintptr_t)ss,
		.einittoken = (uintptr_t)&token,
	};

	return isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, &p);
}

int64_t isgx_ioc_destroy(int fd, uint64_t addr)
{
	struct sgx_destroy_param p = { .addr = addr };

	return isgx_ioctl(fd, SGX_IOC_ENCLAVE_DESTROY, &p);
}

void isgx_build(struct isgx_enclave *e, int fd, const struct isgx_layout *l,
		struct sgx_sigstruct *ss)
{
	int64_t ret = isgx_enclave_build(e, fd, l, isgx_test_key(), ss);

	ISGX_ASSERT(ret == 0, "building a %u-page enclave: %s", l->nr_pages,
		    isgx_enclave_error(e));
}

void isgx_build_uninit(struct isgx_enclave *e, int fd, const struct isgx_layout *l)
{
	struct sgx_secs secs;
	int64_t ret;

	isgx_layout_secs(l, &secs);
	ret = isgx_enclave_create(e, fd, &secs);
	if (!ret)
		ret = isgx_enclave_add_layout(e, l);
	ISGX_ASSERT(ret == 0, "%s", isgx_enclave_error(e));
}

static sigjmp_buf probe_env;
static volatile sig_atomic_t probe_sig;

static void probe_handler(int sig)
{
	probe_sig = sig;
	siglongjmp(probe_env, 1);
}

/* Run the access with SIGBUS and SIGSEGV turned into a return value. */
static int probe(const void *rp, void *wp, uint64_t *val)
{
	struct sigaction sa = { .sa_handler = probe_handler }, old_bus, old_segv;
	int sig = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	probe_sig = 0;
	if (!sigsetjmp(probe_env, 1)) {
		if (rp)
			*val = *(const volatile uint64_t *)rp;
		else
			*(volatile uint64_t *)wp = *val;
	} else {
		sig = probe_sig;
	}
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

int isgx_probe_read(const void *p, uint64_t *val)
{
	return probe(p, NULL, val);
}

int isgx_probe_write(void *p, uint64_t val)
{
	return probe(NULL, p, &val);
}

bool isgx_mapped(const void *p, size_t len)
{
	unsigned char vec[64];
	long pg = sysconf(_SC_PAGESIZE);

	/* mincore fails with ENOMEM exactly when part of the range is unmapped. */
	for (size_t off = 0; off < len; off += 64 * pg) {
		size_t n = len - off < 64 * (size_t)pg ? len - off : 64 * (size_t)pg;

		if (mincore((char *)p + off, n, vec) && errno == ENOMEM)
			return false;
	}
	return true;
}

long isgx_debugfs_counter(const char *name)
{
	return isgx_counter(name);
}

long isgx_param_long(const char *name)
{
	char path[128];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/isgx/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

int isgx_param_write(const char *name, const char *val)
{
	char path[128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/sys/module/isgx/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
