// SPDX-License-Identifier: GPL-2.0
/*
 * test_compat32.c - the /dev/sgx ioctls from a 32-bit process (built with
 * -m32).  It creates, adds, initialises and destroys the 32-bit enclave of
 * layout.h with raw ioctls; there is no 32-bit OpenSSL, so the SIGSTRUCT
 * comes from a file that the 64-bit `isgx sign --mode32` wrote for the
 * same layout.  Also: a 32-bit process may not create a 64-bit enclave,
 * and refused calls are refused as for a 64-bit caller.
 *
 *	test_compat32 --sigstruct=FILE [--pages=N] [--tcs=N]
 *
 * Run by test_lifecycle (compat32_process) with the module loaded.  Prints
 * "# " diagnostics; exit status 0 when every check passed, 1 when one
 * failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isgx.h"
#include "layout.h"
#include "sgx_error.h"

#define PAGE SGX_PAGE_SIZE

static int failures;

static void check_ret(int64_t got, int64_t want, const char *what)
{
	char g[ISGX_RET_NAME_LEN], w[ISGX_RET_NAME_LEN];

	if (got != want) {
		printf("# compat32: %s: got %s, want %s\n", what, isgx_ret_name(got, g),
		       isgx_ret_name(want, w));
		failures++;
	}
}

#define CHECK(cond, ...) do {							\
		if (!(cond)) {							\
			printf("# compat32: " __VA_ARGS__);			\
			putchar('\n');						\
			failures++;						\
		}								\
	} while (0)

static int64_t create(int fd, const struct sgx_secs *secs, uint64_t *addr)
{
	struct sgx_create_param p = { .secs = (uintptr_t)secs };
	int64_t ret = isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, &p);

	*addr = p.addr;
	return ret;
}

static int64_t add(int fd, uint64_t addr, const void *src, uint64_t flags, uint32_t add_flags)
{
	struct sgx_secinfo si = { .flags = flags };
	struct sgx_add_param p = {
		.addr = addr, .user_addr = (uintptr_t)src, .secinfo = (uintptr_t)&si,
		.flags = add_flags,
	};

	return isgx_ioctl(fd, SGX_IOC_ENCLAVE_ADD_PAGE, &p);
}

static int64_t destroy(int fd, uint64_t addr)
{
	struct sgx_destroy_param p = { .addr = addr };

	return isgx_ioctl(fd, SGX_IOC_ENCLAVE_DESTROY, &p);
}

static sigjmp_buf env;

static void on_fault(int sig)
{
	siglongjmp(env, sig);
}

/* Read the 8 bytes at @p: 0, or the signal it raised. */
static int probe_read(const void *p, uint64_t *v)
{
	struct sigaction sa = { .sa_handler = on_fault };
	int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sig = sigsetjmp(env, 1);
	if (!sig)
		*v = *(const volatile uint64_t *)p;
	signal(SIGBUS, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	return sig;
}

static const char *option(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
		    argv[i][2 + n] == '=')
			return argv[i] + 3 + n;
	return NULL;
}

static int read_sigstruct(const char *path, struct sgx_sigstruct *ss)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "test_compat32: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = fread(ss, 1, sizeof(*ss), f);
	if (n != sizeof(*ss) || fgetc(f) != EOF) {
		fprintf(stderr, "test_compat32: %s is not a %zu-byte SIGSTRUCT\n", path, sizeof(*ss));
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t page[PAGE] __attribute__((aligned(PAGE))), want[PAGE];
	static const struct sgx_einittoken token;
	struct isgx_layout l = { .nr_pages = 6, .nr_tcs = 1, .mode32 = true };
	const char *path = option(argc, argv, "sigstruct"), *s;
	struct sgx_sigstruct ss;
	struct isgx_layout_page lp;
	struct sgx_secs secs;
	uint64_t base, size, v;
	char err[128];
	int64_t ret;
	int fd, sig;

	if (!path) {
		fprintf(stderr, "usage: test_compat32 --sigstruct=FILE [--pages=N] [--tcs=N]\n");
		return 2;
	}
	s = option(argc, argv, "pages");
	if (s)
		l.nr_pages = strtoul(s, NULL, 0);
	s = option(argc, argv, "tcs");
	if (s)
		l.nr_tcs = strtoul(s, NULL, 0);
	if (isgx_layout_check(&l, err)) {
		fprintf(stderr, "test_compat32: %s\n", err);
		return 2;
	}
	if (read_sigstruct(path, &ss))
		return 2;
	printf("# compat32: a %zu-bit process\n", sizeof(void *) * 8);
	fd = open("/dev/sgx", O_RDWR);
	if (fd < 0) {
		printf("# compat32: open /dev/sgx: %s\n", strerror(errno));
		return 1;
	}
	size = isgx_layout_size(&l);

	/* A 64-bit enclave is for 64-bit processes only. */
	isgx_layout_secs(&l, &secs);
	secs.attributes |= SGX_ATTR_MODE64BIT;
	ret = create(fd, &secs, &base);
	check_ret(ret, -EINVAL, "CREATE of a MODE64BIT enclave from a 32-bit process");
	if (!ret)
		destroy(fd, base);

	isgx_layout_secs(&l, &secs);
	ret = create(fd, &secs, &base);
	check_ret(ret, 0, "CREATE of a 32-bit enclave");
	if (ret)
		return 1;
	CHECK(base && base + size <= (1ULL << 32) && base % size == 0,
	      "base %#" PRIx64 " + SIZE %#" PRIx64 " is not a naturally aligned range below 4 GiB",
	      base, size);

	/* The same refusals as for a 64-bit caller. */
	memset(page, 0, sizeof(page));
	check_ret(add(fd, base + 2 * PAGE + 8, page, SGX_SECINFO_REG | SGX_SECINFO_R, 0), -EINVAL,
		  "ADD_PAGE at an unaligned address");
	check_ret(add(fd, base + 2 * PAGE, page, SGX_SECINFO_REG | SGX_SECINFO_W, 0), -EINVAL,
		  "ADD_PAGE of REG W without R");
	check_ret(add(fd, base + 2 * PAGE, (void *)16, SGX_SECINFO_REG | SGX_SECINFO_R, 0), -EFAULT,
		  "ADD_PAGE from a bad source pointer");

	for (unsigned int i = 0; i < l.nr_pages; i++) {
		char what[64];

		isgx_layout_page(&l, i, &lp, page);
		snprintf(what, sizeof(what), "ADD_PAGE at base+%#" PRIx64, lp.offset);
		check_ret(add(fd, base + lp.offset, page, lp.secinfo, lp.add_flags), 0, what);
	}
	{
		struct sgx_init_param p = {
			.addr = base, .sigstruct = (uintptr_t)&ss, .einittoken = (uintptr_t)&token,
		};

		check_ret(isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, &p), 0,
			  "INIT with the 64-bit signer's SIGSTRUCT");
		check_ret(isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, &p), -EPERM, "INIT twice");
	}

	/* The data page reads back through the mapping. */
	isgx_layout_page(&l, 2, &lp, want);
	for (unsigned int off = 0; off < PAGE; off += 512) {
		sig = probe_read((const uint8_t *)(uintptr_t)base + 2 * PAGE + off, &v);
		CHECK(!sig && v == *(uint64_t *)(want + off),
		      "RW page +%#x: %#" PRIx64 " (signal %d), added %#" PRIx64, off, v, sig,
		      *(uint64_t *)(want + off));
	}
	*(volatile uint64_t *)(uintptr_t)(base + 2 * PAGE) = 0x32323232;
	CHECK(*(volatile uint64_t *)(uintptr_t)(base + 2 * PAGE) == 0x32323232,
	      "a write to the RW page did not read back");

	check_ret(destroy(fd, base), 0, "DESTROY");
	check_ret(destroy(fd, base), -ENOENT, "DESTROY twice");
	close(fd);
	printf("# compat32: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
