// SPDX-License-Identifier: GPL-2.0
/*
 * test_lifecycle.c - guest tests of the /dev/sgx ioctls against the README
 * contract ("The /dev/sgx ioctls and their errors"): the enclave life
 * cycle, the kernel's MRENCLAVE against libisgx's, every validation error,
 * the EPCM permissions of the mapping, fork, munmap and exit, ptrace of
 * debug enclaves, emulated power loss and 32-bit processes.
 *
 * Expected contents and measurements come from libisgx (layout.c,
 * measure.c), written against the spec and checked on the host by
 * test_layout; the kernel is the code under test.  After every refused
 * call the EPC free count must be unchanged, and after every teardown all
 * EPC pages must be free again (debugfs isgx/nr_free_pages).
 *
 * Run as root inside the guest:
 *	test_lifecycle --ko=PATH/isgx.ko --key=PATH/signing_key.pem
 *		[--compat32=PATH/test_compat32] [--isgx=PATH/isgx]
 */
#define _GNU_SOURCE
#include "sgx_guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmodule.h"
#include "sign.h"

#define PAGE SGX_PAGE_SIZE

/* TCS, SSA, then data pages RW, R, RX, RW: SIZE 8 pages, 2 left free. */
static const struct isgx_layout std_layout = { .nr_pages = 6, .nr_tcs = 1 };

/* The 4096 bytes that @l puts at page @i. */
static void expected_page(const struct isgx_layout *l, unsigned int i, void *buf)
{
	struct isgx_layout_page lp;

	isgx_layout_page(l, i, &lp, buf);
}

/* Compare the enclave's page @i, read through the mapping, with @l's. */
static void expect_page_contents(const struct isgx_enclave *e, const struct isgx_layout *l,
				 unsigned int i)
{
	static uint8_t want[PAGE];
	const uint64_t *w = (const uint64_t *)want;
	uint8_t *p = isgx_enclave_ptr(e, (uint64_t)i * PAGE);
	uint64_t v;
	int sig;

	expected_page(l, i, want);
	for (unsigned int j = 0; j < PAGE / 8; j++) {
		sig = isgx_probe_read(p + 8 * j, &v);
		ISGX_ASSERT(!sig, "page %u: reading +%#x raised signal %d (%s)", i, 8 * j, sig,
			    strsignal(sig));
		if (v != w[j]) {
			isgx_test_failed(__FILE__, __LINE__,
					 "page %u +%#x reads %#" PRIx64 ", added %#" PRIx64,
					 i, 8 * j, v, w[j]);
			return;
		}
	}
}

static void expect_write_read(const struct isgx_enclave *e, unsigned int i)
{
	uint8_t *p = isgx_enclave_ptr(e, (uint64_t)i * PAGE);
	uint64_t v = 0;
	int sig;

	for (unsigned int off = 0; off < PAGE; off += 1024) {
		sig = isgx_probe_write(p + off, 0x5eed0000ULL + off);
		ISGX_ASSERT(!sig, "page %u: writing +%#x raised signal %d", i, off, sig);
	}
	for (unsigned int off = 0; off < PAGE; off += 1024) {
		sig = isgx_probe_read(p + off, &v);
		ISGX_EXPECT(!sig && v == 0x5eed0000ULL + off,
			    "page %u +%#x: wrote %#llx, read %#" PRIx64 " (signal %d)", i, off,
			    0x5eed0000ULL + off, v, sig);
	}
}

ISGX_TEST(lifecycle_full, 300)
{
	const struct isgx_layout *l = &std_layout;
	uint64_t size = isgx_layout_size(l);
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	long before, during;
	int fd = isgx_test_start(NULL);

	before = isgx_epc_nr_free();
	isgx_build(&e, fd, l, &ss);
	ISGX_EXPECT(e.base && e.base % size == 0,
		    "base %#" PRIx64 " is not naturally aligned to SIZE %#" PRIx64, e.base, size);
	during = isgx_epc_nr_free();
	if (before >= 0)
		ISGX_EXPECT_GE(before - during, l->nr_pages + 1,
			       "EPC free went from %ld to %ld for %u pages + SECS", before, during,
			       l->nr_pages);

	/* Data pages: 2 RW, 3 R, 4 RX, 5 RW. */
	for (unsigned int i = 2; i < l->nr_pages; i++)
		expect_page_contents(&e, l, i);
	expect_write_read(&e, 2);
	expect_write_read(&e, 5);
	/* The SSA page (REG RW, added zero) is ordinary enclave memory too. */
	expect_page_contents(&e, l, 1);

	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	/* The seed driver's DESTROY unmaps the enclave. */
	ISGX_EXPECT(!isgx_mapped(isgx_enclave_ptr(&e, 0), size),
		    "the enclave range is still mapped after DESTROY");
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

ISGX_TEST(lifecycle_many_pages_two_tcs, 600)
{
	/* 64 pages with two threads: SIZE 64 pages, every page kind, page 40's data. */
	const struct isgx_layout l = { .nr_pages = 64, .nr_tcs = 2 };
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	int fd = isgx_test_start(NULL);

	isgx_build(&e, fd, &l, &ss);
	isgx_note("64 pages: create %.0f us, add %.0f us (%.0f us/page), init %.0f us",
		  e.create_ns / 1e3, e.add_ns / 1e3, e.add_ns / 1e3 / 64, e.init_ns / 1e3);
	for (unsigned int i = 4; i < l.nr_pages; i += 9)
		expect_page_contents(&e, &l, i);
	expect_page_contents(&e, &l, l.nr_pages - 1);
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

/* Re-sign @ss after flipping one byte of ENCLAVEHASH. */
static void resign_flipped_hash(struct sgx_sigstruct *ss, const struct isgx_enclave *e)
{
	uint8_t mr[SGX_HASH_SIZE];
	char err[256];

	memcpy(mr, e->mrenclave, sizeof(mr));
	mr[17] ^= 0x01;
	ISGX_ASSERT(!isgx_sigstruct_make(ss, &e->secs, mr, isgx_test_key(), err), "%s", err);
}

ISGX_TEST(measurement_matches_kernel, 300)
{
	const struct isgx_layout *l = &std_layout;
	struct sgx_sigstruct good, bad;
	struct isgx_enclave e;
	char err[256];
	int fd = isgx_test_start(NULL);

	isgx_build_uninit(&e, fd, l);
	ISGX_ASSERT(!isgx_enclave_sign(&e, isgx_test_key(), &good), "%s", isgx_enclave_error(&e));
	ISGX_ASSERT(!isgx_sigstruct_verify(&good, err), "libisgx's own SIGSTRUCT: %s", err);

	/* A well-signed SIGSTRUCT for another MRENCLAVE. */
	resign_flipped_hash(&bad, &e);
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &bad), SGX_INVALID_MEASUREMENT,
			"INIT with ENCLAVEHASH one byte off");
	/* A signature that does not verify: a flipped signature byte ... */
	bad = good;
	bad.signature[100] ^= 0x01;
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &bad), SGX_INVALID_SIGNATURE,
			"INIT with a flipped signature byte");
	/* ... or a signed field changed after signing. */
	bad = good;
	bad.isv_svn ^= 1;
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &bad), SGX_INVALID_SIGNATURE,
			"INIT with ISVSVN changed after signing");
	/* A refused EINIT changes nothing: the right SIGSTRUCT still works. */
	ISGX_EXPECT_RET(isgx_enclave_init(&e, &good, NULL), 0, "%s", isgx_enclave_error(&e));
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));

	/* SGX_ADD_SKIP_EEXTEND pages are measured by their EADD record alone. */
	{
		const struct isgx_layout ls = { .nr_pages = 7, .nr_tcs = 2, .skip_eextend = true };

		isgx_build(&e, fd, &ls, &good);
		ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	}
	/* A debug enclave: DEBUG is in ATTRIBUTES, not in MRENCLAVE. */
	{
		const struct isgx_layout ld = { .nr_pages = 5, .nr_tcs = 1, .debug = true };

		isgx_build(&e, fd, &ld, &good);
		ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	}
	isgx_expect_epc_all_free("after the enclaves", 2000);
	isgx_test_finish(fd);
}

ISGX_TEST(init_attribute_mismatch, 300)
{
	const struct isgx_layout *l = &std_layout;
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	uint8_t mr[SGX_HASH_SIZE];
	struct sgx_secs other;
	char err[256];
	int fd = isgx_test_start(NULL);

	isgx_build_uninit(&e, fd, l);
	ISGX_ASSERT(!isgx_enclave_mrenclave(&e, mr), "%s", isgx_enclave_error(&e));
	/* Signed for a DEBUG enclave, but this one is not: SGX_INVALID_ATTRIBUTE. */
	other = e.secs;
	other.attributes |= SGX_ATTR_DEBUG;
	ISGX_ASSERT(!isgx_sigstruct_make(&ss, &other, mr, isgx_test_key(), err), "%s", err);
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &ss), SGX_INVALID_ATTRIBUTE,
			"INIT with SIGSTRUCT.ATTRIBUTES.DEBUG set for a non-debug enclave");
	/* A bad SIGSTRUCT header: SGX_INVALID_SIG_STRUCT. */
	ISGX_ASSERT(!isgx_sigstruct_make(&ss, &e.secs, mr, isgx_test_key(), err), "%s", err);
	ss.header[0] ^= 0x01;
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &ss), SGX_INVALID_SIG_STRUCT,
			"INIT with a wrong SIGSTRUCT header");
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

/* A CREATE that must fail with -EINVAL and change nothing. */
static void expect_create_einval(int fd, const struct sgx_secs *secs, const char *what)
{
	long before = isgx_epc_nr_free();
	uint64_t addr = 0;
	int64_t ret = isgx_ioc_create(fd, secs, &addr);

	ISGX_EXPECT_RET(ret, -EINVAL, "CREATE with %s", what);
	if (!ret)
		isgx_ioc_destroy(fd, addr);
	else if (before >= 0)
		ISGX_EXPECT_EQ(isgx_epc_nr_free(), before,
			       "CREATE with %s: EPC free %ld -> %ld", what,
			       before, isgx_epc_nr_free());
}

ISGX_TEST(create_invalid_secs, 300)
{
	static struct sgx_secs valid, s;
	uint64_t addr;
	int fd = isgx_test_start(NULL);

	isgx_secs_init(&valid, 8 * PAGE, SGX_ATTR_MODE64BIT);

#define CASE(what, change) do { s = valid; change; expect_create_einval(fd, &s, what); } while (0)
	CASE("SIZE 3 pages (not a power of two)", s.size = 3 * PAGE);
	CASE("SIZE 6 pages (not a power of two)", s.size = 6 * PAGE);
	CASE("SIZE one page", s.size = PAGE);
	CASE("SIZE 0", s.size = 0);
	CASE("SIZE 2^40 (above the CPUID maximum)", s.size = 1ULL << 40);
	CASE("reserved attribute bit 3", s.attributes |= 1ULL << 3);
	CASE("reserved attribute bit 8", s.attributes |= 1ULL << 8);
	CASE("reserved attribute bit 63", s.attributes |= 1ULL << 63);
	CASE("unsupported attribute KSS", s.attributes |= SGX_ATTR_KSS);
	CASE("ATTRIBUTES.INIT set", s.attributes |= SGX_ATTR_INIT);
	CASE("MODE64BIT clear from a 64-bit task", s.attributes &= ~SGX_ATTR_MODE64BIT);
	CASE("XFRM 1 (no SSE)", s.xfrm = 1);
	CASE("XFRM 2 (no x87)", s.xfrm = 2);
	CASE("XFRM 0", s.xfrm = 0);
	CASE("XFRM bit 62 (outside the CPU's mask)", s.xfrm |= 1ULL << 62);
	CASE("SSAFRAMESIZE 0", s.ssa_frame_size = 0);
	CASE("MISCSELECT bit 31 (unsupported)", s.miscselect = 1U << 31);
	CASE("reserved byte 24 non-zero", s.reserved1[0] = 1);
	CASE("reserved byte 47 non-zero", s.reserved1[23] = 0x80);
	CASE("reserved byte 96 non-zero", s.reserved2[0] = 1);
	CASE("reserved byte 160 non-zero", s.reserved3[0] = 1);
	CASE("reserved byte 4095 non-zero", s.reserved4[sizeof(s.reserved4) - 1] = 1);
	CASE("CONFIGID without KSS", s.config_id[0] = 1);
#undef CASE

	/* After all that, the same fd still creates a valid enclave. */
	ISGX_EXPECT_RET(isgx_ioc_create(fd, &valid, &addr), 0, "CREATE of a valid SECS");
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, addr), 0, "DESTROY");
	isgx_expect_epc_all_free("after the refused CREATEs", 2000);
	isgx_test_finish(fd);
}

/* An address nothing is mapped at. */
static void *unmapped_page(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ISGX_ASSERT(p != MAP_FAILED, "mmap: %s", strerror(errno));
	munmap(p, PAGE);
	return p;
}

ISGX_TEST(bad_pointers_efault, 300)
{
	const struct isgx_layout *l = &std_layout;
	static uint8_t page[PAGE];
	struct sgx_secinfo si = { .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
	struct sgx_create_param cp = { 0 };
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	struct sgx_secs secs;
	void *hole = unmapped_page();
	long before;
	int fd = isgx_test_start(NULL);

	before = isgx_epc_nr_free();
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, NULL), -EFAULT,
			"CREATE with a NULL argument");
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, hole), -EFAULT,
			"CREATE with an unmapped argument");
	cp.secs = (uintptr_t)hole;
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, &cp), -EFAULT,
			"CREATE with an unmapped SECS");
	cp.secs = 0xffffffffff600000ULL;	/* a kernel address */
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, &cp), -EFAULT,
			"CREATE with a kernel-address SECS");
	if (before >= 0)
		ISGX_EXPECT_EQ(isgx_epc_nr_free(), before, "EPC pages leaked by refused CREATEs");

	isgx_layout_secs(l, &secs);
	ISGX_ASSERT_RET(isgx_enclave_create(&e, fd, &secs), 0, "%s", isgx_enclave_error(&e));
	before = isgx_epc_nr_free();
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_ADD_PAGE, NULL), -EFAULT,
			"ADD_PAGE with a NULL argument");
	ISGX_EXPECT_RET(isgx_ioc_add(fd, e.base + 2 * PAGE, hole, &si, 0), -EFAULT,
			"ADD_PAGE from an unmapped source");
	ISGX_EXPECT_RET(isgx_ioc_add(fd, e.base + 2 * PAGE, page, hole, 0), -EFAULT,
			"ADD_PAGE with an unmapped SECINFO");
	ISGX_EXPECT_RET(isgx_ioc_add(fd, e.base + 2 * PAGE, NULL, &si, 0), -EFAULT,
			"ADD_PAGE from source NULL");
	if (before >= 0)
		ISGX_EXPECT_EQ(isgx_epc_nr_free(), before, "EPC pages leaked by refused ADD_PAGEs");

	ISGX_ASSERT_RET(isgx_enclave_add_layout(&e, l), 0, "%s", isgx_enclave_error(&e));
	ISGX_ASSERT(!isgx_enclave_sign(&e, isgx_test_key(), &ss), "%s", isgx_enclave_error(&e));
	{
		struct sgx_init_param ip = {
			.addr = e.base, .sigstruct = (uintptr_t)hole, .einittoken = (uintptr_t)page,
		};

		ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, NULL), -EFAULT,
				"INIT with a NULL argument");
		ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, &ip), -EFAULT,
				"INIT with an unmapped SIGSTRUCT");
		ip.sigstruct = (uintptr_t)&ss;
		ip.einittoken = (uintptr_t)hole;
		ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_INIT, &ip), -EFAULT,
				"INIT with an unmapped EINITTOKEN");
	}
	ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_DESTROY, NULL), -EFAULT,
			"DESTROY with a NULL argument");
	ISGX_EXPECT_RET(isgx_enclave_init(&e, &ss, NULL), 0, "after the EFAULTs: %s",
			isgx_enclave_error(&e));
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

/* An ADD_PAGE that must fail with @want and change nothing. */
static void expect_add(int fd, uint64_t addr, const void *src, const struct sgx_secinfo *si,
		       uint32_t flags, int64_t want, const char *what)
{
	long before = isgx_epc_nr_free();

	ISGX_EXPECT_RET(isgx_ioc_add(fd, addr, src, si, flags), want, "ADD_PAGE %s", what);
	if (before >= 0)
		ISGX_EXPECT_EQ(isgx_epc_nr_free(), before, "ADD_PAGE %s: EPC free %ld -> %ld", what,
			       before, isgx_epc_nr_free());
}

ISGX_TEST(add_page_invalid, 300)
{
	const struct isgx_layout *l = &std_layout;
	static uint8_t page[PAGE], tcs_page[PAGE];
	struct sgx_tcs *tcs = (struct sgx_tcs *)tcs_page;
	struct sgx_secinfo si, si_tcs = { .flags = SGX_SECINFO_TCS };
	struct isgx_layout_page lp;
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	struct sgx_secs secs;
	uint64_t base, free_slot, size = isgx_layout_size(l);
	int64_t ret;
	int fd = isgx_test_start(NULL);

	isgx_layout_secs(l, &secs);
	ISGX_ASSERT_RET(isgx_enclave_create(&e, fd, &secs), 0, "%s", isgx_enclave_error(&e));
	base = e.base;
	free_slot = base + (uint64_t)l->nr_pages * PAGE;	/* inside, never added */
	memset(page, 0xa5, sizeof(page));

#define SI(f) (si = (struct sgx_secinfo){ .flags = (f) }, &si)
	expect_add(fd, free_slot + 1, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0, -EINVAL,
		   "at an address not page aligned");
	expect_add(fd, free_slot + 0x800, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0, -EINVAL,
		   "at base + page + 0x800");
	/*
	 * Outside the enclave: EINVAL by the table's ADD_PAGE row, but no
	 * enclave starts there either (ENOENT row); accept both, say which.
	 */
	for (int k = 0; k < 2; k++) {
		uint64_t a = k ? base + size : base - PAGE;

		ret = isgx_ioc_add(fd, a, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0);
		ISGX_EXPECT(ret == -EINVAL || ret == -ENOENT,
			    "ADD_PAGE at base%s: got %" PRId64 ", want EINVAL (or ENOENT)",
			    k ? "+SIZE" : "-0x1000", ret);
		isgx_note("ADD_PAGE at base%s (outside): %s", k ? "+SIZE" : "-0x1000",
			  ret == -EINVAL ? "EINVAL" : ret == -ENOENT ? "ENOENT" : "other");
	}
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_W), 0, -EINVAL,
		   "REG with W but not R");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_W | SGX_SECINFO_X), 0,
		   -EINVAL, "REG with WX but not R");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_SECS | SGX_SECINFO_R), 0, -EINVAL,
		   "of type SECS");
	expect_add(fd, free_slot, page, SI(0x300 | SGX_SECINFO_R), 0, -EINVAL, "of type VA");
	expect_add(fd, free_slot, page, SI(0x400 | SGX_SECINFO_R), 0, -EINVAL, "of type TRIM");
	expect_add(fd, free_slot, page, SI(0xff00 | SGX_SECINFO_R), 0, -EINVAL, "of type 0xff");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R | (1ULL << 3)), 0,
		   -EINVAL, "with SECINFO bit 3 (PENDING)");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R | (1ULL << 6)), 0,
		   -EINVAL, "with reserved SECINFO bit 6");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R | (1ULL << 16)), 0,
		   -EINVAL, "with reserved SECINFO bit 16");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R | (1ULL << 63)), 0,
		   -EINVAL, "with reserved SECINFO bit 63");
	si = (struct sgx_secinfo){ .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
	si.reserved[55] = 1;
	expect_add(fd, free_slot, page, &si, 0, -EINVAL, "with a non-zero SECINFO reserved byte");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0x2, -EINVAL,
		   "with unknown flag 0x2");
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0x80000000, -EINVAL,
		   "with unknown flag 0x80000000");
	{
		struct sgx_add_param p = {
			.addr = free_slot, .user_addr = (uintptr_t)page,
			.secinfo = (uintptr_t)SI(SGX_SECINFO_REG | SGX_SECINFO_R), .reserved = 1,
		};

		ISGX_EXPECT_RET(isgx_ioctl(fd, SGX_IOC_ENCLAVE_ADD_PAGE, &p), -EINVAL,
				"ADD_PAGE with non-zero reserved");
	}

	/* TCS pages: start from the layout's valid TCS and break one field. */
	isgx_layout_page(l, 0, &lp, tcs_page);
#define TCS_CASE(what, change) do {						\
		isgx_layout_page(l, 0, &lp, tcs_page);				\
		change;								\
		expect_add(fd, free_slot, tcs_page, &si_tcs, 0, -EINVAL, "of a TCS with " what); \
	} while (0)
	TCS_CASE("FLAGS 1 (DBGOPTIN)", tcs->flags = 1);
	TCS_CASE("FLAGS bit 7", tcs->flags = 0x80);
	TCS_CASE("OSSA not page aligned", tcs->ossa += 0x10);
	TCS_CASE("OFSBASE not page aligned", tcs->ofsbase += 0x800);
	TCS_CASE("OGSBASE not page aligned", tcs->ogsbase += 8);
	TCS_CASE("FSLIMIT 0xffe", tcs->fslimit = 0xffe);
	TCS_CASE("GSLIMIT 0", tcs->gslimit = 0);
	TCS_CASE("reserved byte 72 non-zero", tcs->reserved[0] = 1);
	TCS_CASE("reserved byte 4095 non-zero", tcs->reserved[sizeof(tcs->reserved) - 1] = 1);
#undef TCS_CASE
	/* SECINFO of a TCS with permissions: EADD clears them, so it is valid. */

	/* The first half of the layout, then each of those again: EEXIST. */
	for (unsigned int i = 0; i < 3; i++) {
		isgx_layout_page(l, i, &lp, page);
		ISGX_ASSERT_RET(isgx_enclave_add(&e, lp.offset, page, lp.secinfo, lp.add_flags), 0,
				"%s", isgx_enclave_error(&e));
	}
	for (unsigned int i = 0; i < 3; i++) {
		isgx_layout_page(l, i, &lp, page);
		expect_add(fd, base + lp.offset, page, SI(lp.secinfo), lp.add_flags, -EEXIST,
			   "of an address added already");
		expect_add(fd, base + lp.offset, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0,
			   -EEXIST, "of an added address, as another page kind");
	}
	/* The rest; INIT proves that no refused page reached the measurement. */
	for (unsigned int i = 3; i < l->nr_pages; i++) {
		isgx_layout_page(l, i, &lp, page);
		ISGX_ASSERT_RET(isgx_enclave_add(&e, lp.offset, page, lp.secinfo, lp.add_flags), 0,
				"%s", isgx_enclave_error(&e));
	}
	ISGX_ASSERT(!isgx_enclave_sign(&e, isgx_test_key(), &ss), "%s", isgx_enclave_error(&e));
	ISGX_ASSERT_RET(isgx_enclave_init(&e, &ss, NULL), 0, "%s", isgx_enclave_error(&e));
	expect_page_contents(&e, l, 2);

	/* Initialised: no more pages, no second INIT. */
	memset(page, 0, sizeof(page));
	expect_add(fd, free_slot, page, SI(SGX_SECINFO_REG | SGX_SECINFO_R), 0, -EPERM,
		   "after INIT");
	ISGX_EXPECT_RET(isgx_ioc_init(fd, base, &ss), -EPERM, "INIT twice");

	/* No enclave starts at these addresses. */
	ISGX_EXPECT_RET(isgx_ioc_init(fd, base + PAGE, &ss), -ENOENT, "INIT at base+0x1000");
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, base + PAGE), -ENOENT, "DESTROY at base+0x1000");
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, 0x12345000), -ENOENT, "DESTROY at 0x12345000");
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, 0), -ENOENT, "DESTROY at 0");

	/* Unknown ioctl numbers, also the right magic with a wrong size. */
	ISGX_EXPECT_RET(isgx_ioctl(fd, _IO(SGX_MAGIC, 0x7f), NULL), -ENOTTY, "ioctl 'p' 0x7f");
	ISGX_EXPECT_RET(isgx_ioctl(fd, _IO(SGX_MAGIC, 0x05), NULL), -ENOTTY, "ioctl 'p' 0x05");
	ISGX_EXPECT_RET(isgx_ioctl(fd, _IOW(SGX_MAGIC, 0x03, uint32_t), page), -ENOTTY,
			"ADD_PAGE's number with a 4-byte size");
	ISGX_EXPECT_RET(isgx_ioctl(fd, _IOWR('q', 0x02, struct sgx_create_param), page), -ENOTTY,
			"CREATE's number with another magic");

	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, base), -ENOENT, "DESTROY twice");
	ISGX_EXPECT_RET(isgx_ioc_init(fd, base, &ss), -ENOENT, "INIT after DESTROY");
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
#undef SI
}

/*
 * The EPCM permissions bound every PTE, whatever path makes or changes it.
 * A read leaves a read-only PTE on an R or RX page, and a later write
 * would go through do_wp_page(); a page added without any permission
 * would get a PROT_NONE PTE, which the next access rebuilds from the
 * VMA's protection (do_numa_page()).  Both are SIGBUS, and the pages keep
 * what was added.  mprotect() cannot widen them either (EACCES).
 */
ISGX_TEST(epcm_permissions_bound_ptes, 300)
{
	const struct isgx_layout *l = &std_layout;
	static uint8_t none[PAGE], want[PAGE];
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	uint64_t v;
	int fd = isgx_test_start(NULL), sig;

	/* std_layout plus page 6: REG with neither R, W nor X. */
	isgx_build_uninit(&e, fd, l);
	memset(none, 0x6e, sizeof(none));
	ISGX_ASSERT_EQ(isgx_enclave_add(&e, 6 * PAGE, none, SGX_SECINFO_REG, 0), 0, "%s",
		       isgx_enclave_error(&e));
	ISGX_ASSERT(!isgx_enclave_sign(&e, isgx_test_key(), &ss) && !isgx_enclave_init(&e, &ss, NULL),
		    "%s", isgx_enclave_error(&e));

	/* Pages 3 (R) and 4 (RX): read, then write. */
	for (unsigned int i = 3; i <= 4; i++) {
		uint64_t *p = isgx_enclave_ptr(&e, (uint64_t)i * PAGE);

		expected_page(l, i, want);
		sig = isgx_probe_read(p, &v);
		ISGX_EXPECT(!sig && v == *(uint64_t *)want, "page %u: read %#" PRIx64 ", signal %d",
			    i, v, sig);
		for (int k = 0; k < 2; k++) {
			sig = isgx_probe_write(p + k, 0xbadULL);
			ISGX_EXPECT_EQ(sig, SIGBUS,
				       "page %u: write %d after a read: signal %d (%s), want SIGBUS",
				       i, k + 1, sig, sig ? strsignal(sig) : "none: written");
		}
		expect_page_contents(&e, l, i);
		ISGX_EXPECT(mprotect(p, PAGE, PROT_READ | PROT_WRITE) < 0 && errno == EACCES,
			    "mprotect(PROT_READ | PROT_WRITE) of page %u: %s, want EACCES", i,
			    strerror(errno));
	}

	/* Page 6: every access, the first and the next, is SIGBUS. */
	for (int k = 0; k < 2; k++) {
		sig = isgx_probe_read(isgx_enclave_ptr(&e, 6 * PAGE), &v);
		ISGX_EXPECT_EQ(sig, SIGBUS,
			       "page without permissions: read %d: signal %d, value %#" PRIx64
			       ", want SIGBUS", k + 1, sig, sig ? 0 : v);
	}
	sig = isgx_probe_write(isgx_enclave_ptr(&e, 6 * PAGE), 0xbadULL);
	ISGX_EXPECT_EQ(sig, SIGBUS, "page without permissions: write: signal %d, want SIGBUS", sig);

	/* The RW pages are still readable and writable. */
	expect_write_read(&e, 2);
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

/* Failures of a forked child, reported through its exit status. */
static int child_failures;

#define CHILD_EXPECT(cond, ...) do {						\
		if (!(cond)) {							\
			printf("# child: " __VA_ARGS__);			\
			putchar('\n');						\
			child_failures++;					\
		}								\
	} while (0)

/* Reap @pid; true when it exited 0, else how it ended in @how (64 bytes). */
static bool wait_child(pid_t pid, char *how)
{
	int status;

	ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status))
		snprintf(how, 64, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(how, 64, "exit status %d", WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

ISGX_TEST(fork_child_cannot_use_enclave, 300)
{
	const struct isgx_layout *l = &std_layout;
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	uint64_t v;
	pid_t pid;
	char how[64];
	int fd = isgx_test_start(NULL), sig;

	isgx_build(&e, fd, l, &ss);
	fflush(stdout);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		static uint8_t page[PAGE];
		struct sgx_secinfo si = { .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
		int64_t r;

		r = isgx_ioc_destroy(fd, e.base);
		CHILD_EXPECT(r == -ENOENT, "DESTROY of the parent's enclave: %" PRId64 ", want ENOENT", r);
		r = isgx_ioc_init(fd, e.base, &ss);
		CHILD_EXPECT(r == -ENOENT, "INIT of the parent's enclave: %" PRId64 ", want ENOENT", r);
		r = isgx_ioc_add(fd, e.base + 6 * PAGE, page, &si, 0);
		CHILD_EXPECT(r == -ENOENT, "ADD_PAGE to the parent's enclave: %" PRId64 ", want ENOENT", r);
		/*
		 * The mapping is VM_DONTCOPY: a copied VM_PFNMAP mapping would
		 * carry the parent's PTEs to its EPC pages into the child, so
		 * the child gets no mapping at all and an access is SIGSEGV.
		 */
		CHILD_EXPECT(!isgx_mapped(isgx_enclave_ptr(&e, 0), isgx_layout_size(l)),
			     "the enclave range is mapped in the child");
		sig = isgx_probe_read(isgx_enclave_ptr(&e, 2 * PAGE), &v);
		CHILD_EXPECT(sig == SIGSEGV, "reading the enclave range: signal %d (%s), want SIGSEGV",
			     sig, sig ? strsignal(sig) : "none");
		sig = isgx_probe_write(isgx_enclave_ptr(&e, 2 * PAGE), 1);
		CHILD_EXPECT(sig == SIGSEGV, "writing the enclave range: signal %d, want SIGSEGV", sig);
		fflush(stdout);
		_exit(child_failures);
	}
	ISGX_EXPECT(wait_child(pid, how), "the child failed: %s (its failures above)", how);

	/* The parent's enclave survived the child and its exit. */
	expect_page_contents(&e, l, 2);
	expect_write_read(&e, 5);
	ISGX_EXPECT_RET(isgx_ioc_init(fd, e.base, &ss), -EPERM, "INIT after the child (initialised)");
	ISGX_EXPECT_RET(isgx_enclave_destroy(&e), 0, "%s", isgx_enclave_error(&e));
	isgx_expect_epc_all_free("after DESTROY", 2000);
	isgx_test_finish(fd);
}

/*
 * DESTROY unmaps the enclave's own mappings only: a mapping the process
 * later placed in a hole it punched into the enclave's range survives,
 * with its contents.
 */
ISGX_TEST(destroy_spares_mappings_in_a_hole, 300)
{
	const struct isgx_layout *l = &std_layout;
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	int fd = isgx_test_start(NULL);
	uint64_t *hole, v = 0;
	int sig;

	isgx_build(&e, fd, l, &ss);
	hole = isgx_enclave_ptr(&e, 2 * PAGE);
	ISGX_ASSERT(!munmap(hole, PAGE), "munmap of page 2: %s", strerror(errno));
	ISGX_ASSERT(mmap(hole, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == hole,
		    "an anonymous page in the hole: %s", strerror(errno));
	*hole = 0x5eed;
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, e.base), 0, "DESTROY of the holed enclave");
	sig = isgx_probe_read(hole, &v);
	ISGX_EXPECT(sig == 0 && v == 0x5eed,
		    "the anonymous page in the hole after DESTROY: signal %d, value %#llx, want 0x5eed",
		    sig, (unsigned long long)v);
	ISGX_EXPECT(!isgx_mapped(isgx_enclave_ptr(&e, 0), PAGE), "page 0 still mapped after DESTROY");
	isgx_expect_epc_all_free("after DESTROY", 2000);
	munmap(hole, PAGE);
	isgx_enclave_forget(&e);
	isgx_test_finish(fd);
}

ISGX_TEST(munmap_and_exit_release_epc, 300)
{
	const struct isgx_layout *l = &std_layout;
	uint64_t size = isgx_layout_size(l);
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	pid_t pid;
	char how[64];
	int fd = isgx_test_start(NULL);

	/* Part of the range, then the rest. */
	isgx_build(&e, fd, l, &ss);
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, 0), size / 2), "munmap of the first half: %s",
		    strerror(errno));
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, size / 2), size / 2),
		    "munmap of the second half: %s", strerror(errno));
	isgx_expect_epc_all_free("after munmap of both halves", 2000);
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, e.base), -ENOENT, "DESTROY after munmap");
	isgx_enclave_forget(&e);

	/* The middle pages first, then the rest around them. */
	isgx_build(&e, fd, l, &ss);
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, 2 * PAGE), 2 * PAGE), "munmap of pages 2-3: %s",
		    strerror(errno));
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, 0), size), "munmap of the whole range: %s",
		    strerror(errno));
	isgx_expect_epc_all_free("after munmap of the middle, then all", 2000);
	isgx_enclave_forget(&e);

	/* The whole range at once. */
	isgx_build(&e, fd, l, &ss);
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, 0), size), "munmap: %s", strerror(errno));
	isgx_expect_epc_all_free("after munmap", 2000);
	ISGX_EXPECT_RET(isgx_ioc_destroy(fd, e.base), -ENOENT, "DESTROY after munmap");
	isgx_enclave_forget(&e);

	/* An enclave never initialised. */
	isgx_build_uninit(&e, fd, l);
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&e, 0), size), "munmap: %s", strerror(errno));
	isgx_expect_epc_all_free("after munmap of an uninitialised enclave", 2000);
	isgx_enclave_forget(&e);

	/* A process that exits without DESTROY, one enclave initialised, one not. */
	fflush(stdout);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int cfd = open("/dev/sgx", O_RDWR);
		struct isgx_enclave e2;

		if (cfd < 0 || isgx_enclave_build(&e, cfd, l, isgx_test_key(), &ss) ||
		    isgx_enclave_create(&e2, cfd, &e.secs)) {
			printf("# child: %s\n", cfd < 0 ? strerror(errno) : isgx_enclave_error(&e));
			_exit(1);
		}
		_exit(0);	/* no DESTROY, no close */
	}
	ISGX_EXPECT(wait_child(pid, how), "the child failed: %s", how);
	isgx_expect_epc_all_free("after a process exited without DESTROY", 2000);
	isgx_test_finish(fd);
}

/* A child holding an initialised enclave of @l until told to check and go. */
struct holder {
	pid_t pid;
	uint64_t base;
	int go;		/* write end: the parent's written words follow */
};

static void holder_start(struct holder *h, const struct isgx_layout *l)
{
	int up[2], down[2];

	ISGX_ASSERT(!pipe(up) && !pipe(down), "pipe: %s", strerror(errno));
	fflush(stdout);
	h->pid = fork();
	ISGX_ASSERT_GE(h->pid, 0, "fork: %s", strerror(errno));
	if (h->pid == 0) {
		struct sgx_sigstruct ss;
		struct isgx_enclave e;
		uint64_t want[2], *p;
		int cfd = open("/dev/sgx", O_RDWR);

		close(up[0]);
		close(down[1]);
		if (cfd < 0 || isgx_enclave_build(&e, cfd, l, isgx_test_key(), &ss)) {
			printf("# holder: %s\n", cfd < 0 ? strerror(errno) : isgx_enclave_error(&e));
			_exit(1);
		}
		if (write(up[1], &e.base, sizeof(e.base)) != sizeof(e.base))
			_exit(1);
		/* The parent sends what it wrote at RW page +0x10 and +0x100. */
		if (read(down[0], want, sizeof(want)) != sizeof(want))
			_exit(0);	/* nothing written: nothing to check */
		p = isgx_enclave_ptr(&e, 2 * PAGE);
		CHILD_EXPECT(p[2] == want[0], "RW page +0x10 holds %#" PRIx64 ", debugger wrote %#" PRIx64,
			     p[2], want[0]);
		CHILD_EXPECT(p[32] == want[1], "RW page +0x100 holds %#" PRIx64 ", debugger wrote %#" PRIx64,
			     p[32], want[1]);
		fflush(stdout);
		_exit(child_failures);
	}
	close(up[1]);
	close(down[0]);
	h->go = down[1];
	ISGX_ASSERT_EQ(read(up[0], &h->base, sizeof(h->base)), sizeof(h->base),
		       "the child could not build its enclave");
	close(up[0]);
}

static bool holder_finish(struct holder *h, const uint64_t *written, char *how)
{
	if (written)
		ISGX_EXPECT_EQ(write(h->go, written, 2 * sizeof(uint64_t)), 2 * sizeof(uint64_t),
			       "pipe write");
	close(h->go);
	return wait_child(h->pid, how);
}

static int open_mem(pid_t pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDWR);
	ISGX_ASSERT_GE(fd, 0, "open %s: %s", path, strerror(errno));
	return fd;
}

static void attach(pid_t pid)
{
	int st;

	ISGX_ASSERT(!ptrace(PTRACE_ATTACH, pid, 0, 0), "PTRACE_ATTACH: %s", strerror(errno));
	ISGX_ASSERT(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st), "the tracee did not stop");
}

static void detach(pid_t pid)
{
	ISGX_EXPECT(!ptrace(PTRACE_DETACH, pid, 0, 0), "PTRACE_DETACH: %s", strerror(errno));
}

ISGX_TEST(ptrace_debug_enclave, 300)
{
	const struct isgx_layout l = { .nr_pages = 6, .nr_tcs = 1, .debug = true };
	static uint8_t want[PAGE], got[PAGE];
	uint64_t written[2] = { 0x0123456789abcdefULL, 0xfeedfacecafebeefULL }, v, rw, one = 1;
	struct holder h;
	ssize_t n;
	long word;
	char how[64];
	int fd = isgx_test_start(NULL), mem;

	holder_start(&h, &l);
	mem = open_mem(h.pid);
	rw = h.base + 2 * PAGE;

	/* /proc/PID/mem: the data pages read back as added, whatever their permissions. */
	for (unsigned int i = 2; i < 5; i++) {
		expected_page(&l, i, want);
		n = pread(mem, got, PAGE, h.base + (uint64_t)i * PAGE);
		ISGX_EXPECT_EQ(n, PAGE,
			       "pread of page %u: %zd (%s)", i, n, n < 0 ? strerror(errno) : "");
		ISGX_EXPECT(n != PAGE || !memcmp(got, want, PAGE), "pread of page %u: wrong bytes", i);
	}
	/* An unaligned, odd-sized read crossing words. */
	expected_page(&l, 3, want);
	n = pread(mem, got, 13, h.base + 3 * PAGE + 5);
	ISGX_EXPECT(n == 13 && !memcmp(got, want + 5, 13), "pread of 13 bytes at +5: %zd", n);

	n = pwrite(mem, &written[1], 8, rw + 0x100);
	ISGX_EXPECT_EQ(n, 8, "pwrite to the RW page: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	n = pread(mem, &v, 8, rw + 0x100);
	ISGX_EXPECT(n == 8 && v == written[1], "pread after pwrite: %#" PRIx64, v);

	/* PTRACE_PEEKDATA / POKEDATA on a stopped tracee. */
	attach(h.pid);
	expected_page(&l, 2, want);
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, h.pid, (void *)(uintptr_t)(rw + 8), 0);
	ISGX_EXPECT(!errno && (uint64_t)word == ((uint64_t *)want)[1],
		    "PEEKDATA of RW +8: %#lx (%s), want %#" PRIx64, word,
		    errno ? strerror(errno) : "ok", ((uint64_t *)want)[1]);
	ISGX_EXPECT(!ptrace(PTRACE_POKEDATA, h.pid, (void *)(uintptr_t)(rw + 0x10),
			    (void *)(uintptr_t)written[0]), "POKEDATA: %s", strerror(errno));
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, h.pid, (void *)(uintptr_t)(rw + 0x10), 0);
	ISGX_EXPECT(!errno && (uint64_t)word == written[0], "PEEKDATA after POKEDATA: %#lx", word);
	expected_page(&l, 4, want);
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, h.pid, (void *)(uintptr_t)(h.base + 4 * PAGE + 0xff8), 0);
	ISGX_EXPECT(!errno && (uint64_t)word == ((uint64_t *)want)[511],
		    "PEEKDATA of the RX page's last word: %#lx", word);

	/* TCS: the first 72 bytes read; only FLAGS may be written. */
	expected_page(&l, 0, want);
	n = pread(mem, got, SGX_TCS_DEBUG_READ_SIZE, h.base);
	ISGX_EXPECT(n == SGX_TCS_DEBUG_READ_SIZE && !memcmp(got, want, SGX_TCS_DEBUG_READ_SIZE),
		    "pread of TCS bytes 0-71: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	n = pwrite(mem, &one, 8, h.base + 8);
	ISGX_EXPECT_EQ(n, 8, "pwrite of TCS.FLAGS: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	n = pread(mem, &v, 8, h.base + 8);
	ISGX_EXPECT(n == 8 && v == 1, "TCS.FLAGS after writing DBGOPTIN: %#" PRIx64, v);
	for (unsigned int off = 0; off < SGX_TCS_DEBUG_READ_SIZE; off += 8) {
		if (off == 8)
			continue;
		n = pwrite(mem, &one, 8, h.base + off);
		ISGX_EXPECT(n < 0, "pwrite to TCS +%u succeeded; only FLAGS (+8) may be written", off);
	}
	errno = 0;
	ISGX_EXPECT(ptrace(PTRACE_POKEDATA, h.pid, (void *)(uintptr_t)(h.base + 16), 0) < 0,
		    "POKEDATA of TCS.OSSA succeeded");
	n = pread(mem, &v, 8, h.base + SGX_TCS_DEBUG_READ_SIZE);
	isgx_note("pread of TCS bytes 72-79: %s", n == 8 ? "allowed" : strerror(errno));
	detach(h.pid);

	close(mem);
	ISGX_EXPECT(holder_finish(&h, written, how), "the tracee failed: %s (its failures above)",
		    how);
	isgx_expect_epc_all_free("after the tracee exited", 2000);
	isgx_test_finish(fd);
}

ISGX_TEST(ptrace_nondebug_enclave_refused, 300)
{
	const struct isgx_layout l = { .nr_pages = 6, .nr_tcs = 1 };
	uint8_t buf[64];
	struct holder h;
	ssize_t n;
	char how[64];
	int fd = isgx_test_start(NULL), mem;

	holder_start(&h, &l);
	mem = open_mem(h.pid);
	n = pread(mem, buf, sizeof(buf), h.base + 2 * PAGE);
	ISGX_EXPECT(n < 0 && (errno == EIO || errno == EFAULT),
		    "pread of a non-debug enclave: %zd (%s), want EIO or EFAULT", n,
		    n < 0 ? strerror(errno) : "data");
	isgx_note("pread of a non-debug enclave: %s", n < 0 ? strerrorname_np(errno) : "allowed");
	memset(buf, 0, sizeof(buf));
	n = pwrite(mem, buf, 8, h.base + 2 * PAGE);
	ISGX_EXPECT(n < 0 && (errno == EIO || errno == EFAULT),
		    "pwrite to a non-debug enclave: %zd (%s), want EIO or EFAULT", n,
		    n < 0 ? strerror(errno) : "written");
	attach(h.pid);
	errno = 0;
	ptrace(PTRACE_PEEKDATA, h.pid, (void *)(uintptr_t)(h.base + 2 * PAGE), 0);
	ISGX_EXPECT(errno == EIO || errno == EFAULT, "PEEKDATA of a non-debug enclave: %s",
		    errno ? strerror(errno) : "allowed");
	isgx_note("PEEKDATA of a non-debug enclave: %s", errno ? strerrorname_np(errno) : "allowed");
	detach(h.pid);
	close(mem);
	ISGX_EXPECT(holder_finish(&h, NULL, how), "the holder failed: %s", how);
	isgx_expect_epc_all_free("after the holder exited", 2000);
	isgx_test_finish(fd);
}

static bool power_loss(void)
{
	int fd = open("/sys/module/isgx/parameters/power_loss", O_WRONLY);
	bool ok;

	if (fd < 0 && errno == ENOENT)
		isgx_skip("no power_loss parameter (not the emu backend)");
	ISGX_ASSERT_GE(fd, 0, "open power_loss: %s", strerror(errno));
	ok = write(fd, "1", 1) == 1;
	if (!ok && errno == ENODEV)
		isgx_skip("power_loss: ENODEV (hw backend)");
	ISGX_ASSERT(ok, "writing power_loss: %s", strerror(errno));
	close(fd);
	return ok;
}

ISGX_TEST(power_loss_kills_enclaves, 300)
{
	const struct isgx_layout *l = &std_layout;
	uint64_t size = isgx_layout_size(l), v;
	static uint8_t page[PAGE];
	struct sgx_secinfo si = { .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
	struct isgx_enclave live, open_, unmapped;
	struct sgx_sigstruct ss, ss_open;
	char name[ISGX_RET_NAME_LEN];
	int64_t r;
	int fd = isgx_test_start(NULL), sig;

	isgx_build(&live, fd, l, &ss);
	expect_page_contents(&live, l, 2);	/* mapped before the loss */
	isgx_build_uninit(&open_, fd, l);
	ISGX_ASSERT(!isgx_enclave_sign(&open_, isgx_test_key(), &ss_open), "%s",
		    isgx_enclave_error(&open_));
	isgx_build(&unmapped, fd, l, &ss);

	power_loss();

	ISGX_EXPECT_RET(isgx_ioc_add(fd, open_.base + 6 * PAGE, page, &si, 0), SGX_POWER_LOST_ENCLAVE,
			"ADD_PAGE after power loss");
	ISGX_EXPECT_RET(isgx_ioc_init(fd, open_.base, &ss_open), SGX_POWER_LOST_ENCLAVE,
			"INIT after power loss");
	/* An initialised enclave: EPERM or the loss; the table allows both. */
	r = isgx_ioc_init(fd, live.base, &ss);
	ISGX_EXPECT(r == SGX_POWER_LOST_ENCLAVE || r == -EPERM,
		    "INIT of an initialised enclave after power loss: %s",
		    isgx_ret_name(r, name));
	isgx_note("INIT of an initialised enclave after power loss: %s", isgx_ret_name(r, name));
	sig = isgx_probe_read(isgx_enclave_ptr(&live, 2 * PAGE), &v);
	ISGX_EXPECT_EQ(sig, SIGBUS, "reading a lost enclave: signal %d (%s), value %#" PRIx64
		       ", want SIGBUS", sig, sig ? strsignal(sig) : "none", sig ? 0 : v);
	sig = isgx_probe_write(isgx_enclave_ptr(&live, 5 * PAGE), 7);
	ISGX_EXPECT_EQ(sig, SIGBUS, "writing a lost enclave: signal %d, want SIGBUS", sig);
	sig = isgx_probe_read(isgx_enclave_ptr(&open_, 2 * PAGE), &v);
	ISGX_EXPECT_EQ(sig, SIGBUS, "reading a lost uninitialised enclave: signal %d, want SIGBUS",
		       sig);

	/* "The enclave is dead; destroy it": DESTROY and munmap free everything. */
	for (int k = 0; k < 2; k++) {
		struct isgx_enclave *e = k ? &open_ : &live;

		r = isgx_ioc_destroy(fd, e->base);
		ISGX_EXPECT(r == 0 || r == SGX_POWER_LOST_ENCLAVE, "DESTROY of a lost enclave: %s",
			    isgx_ret_name(r, name));
		if (r)
			isgx_note("DESTROY of a lost enclave returned %s", isgx_ret_name(r, name));
		ISGX_EXPECT_RET(isgx_ioc_destroy(fd, e->base), -ENOENT, "DESTROY of a lost enclave twice");
		isgx_enclave_forget(e);
	}
	ISGX_EXPECT(!munmap(isgx_enclave_ptr(&unmapped, 0), size), "munmap: %s", strerror(errno));
	isgx_enclave_forget(&unmapped);
	isgx_expect_epc_all_free("after power loss and teardown", 2000);

	/* Life goes on: a new enclave builds, initialises and reads back. */
	isgx_build(&live, fd, l, &ss);
	expect_page_contents(&live, l, 2);
	ISGX_EXPECT_RET(isgx_enclave_destroy(&live), 0, "%s", isgx_enclave_error(&live));
	isgx_expect_epc_all_free("after the new enclave", 2000);
	isgx_test_finish(fd);
}

ISGX_TEST(cli_build, 300)
{
	const struct isgx_layout l = { .nr_pages = 12, .nr_tcs = 2, .debug = true };
	const char *cli = isgx_option("isgx"), *key = isgx_option("key");
	char cmd[4096], out[4096], want[80], *line;
	struct isgx_enclave e;
	struct sgx_secs secs;
	uint8_t mr[SGX_HASH_SIZE];
	size_t n;
	FILE *p;
	int fd, st;

	if (!cli)
		isgx_skip("no isgx command given (--isgx=PATH)");
	fd = isgx_test_start(NULL);
	/* What the CLI must report: libisgx's offline measurement of the layout. */
	isgx_layout_secs(&l, &secs);
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs) && !isgx_enclave_add_layout(&e, &l) &&
		    !isgx_enclave_mrenclave(&e, mr), "%s", isgx_enclave_error(&e));
	n = snprintf(want, sizeof(want), "mrenclave  ");
	for (int i = 0; i < SGX_HASH_SIZE; i++)
		n += snprintf(want + n, sizeof(want) - n, "%02x", mr[i]);

	snprintf(cmd, sizeof(cmd), "'%s' build --pages %u --tcs %u --debug --key '%s' 2>&1", cli,
		 l.nr_pages, l.nr_tcs, key ? key : "");
	p = popen(cmd, "r");
	ISGX_ASSERT(p, "popen: %s", strerror(errno));
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		isgx_note("isgx: %s", line);
	ISGX_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "'%s' failed", cmd);
	snprintf(cmd, sizeof(cmd), "'%s' build --pages %u --tcs %u --debug --key '%s' | grep -qx '%s'",
		 cli, l.nr_pages, l.nr_tcs, key ? key : "", want);
	ISGX_EXPECT_EQ(system(cmd), 0, "isgx build did not print '%s'", want);
	isgx_expect_epc_all_free("after isgx build", 2000);
	isgx_test_finish(fd);
}

/* The compat test's layout: a 32-bit enclave, same on both sides. */
static const struct isgx_layout compat_layout = { .nr_pages = 6, .nr_tcs = 1, .mode32 = true };

/* The SIGSTRUCT for compat_layout, by the CLI (--isgx=PATH) or libisgx. */
static void write_compat_sigstruct(const char *path)
{
	const char *cli = isgx_option("isgx"), *key = isgx_option("key");
	char cmd[4096];

	if (cli) {
		snprintf(cmd, sizeof(cmd), "'%s' sign --pages %u --tcs %u --mode32 --key '%s' --out '%s'",
			 cli, compat_layout.nr_pages, compat_layout.nr_tcs, key ? key : "", path);
		ISGX_ASSERT_EQ(system(cmd), 0, "'%s' failed", cmd);
	} else {
		struct sgx_sigstruct ss;
		struct isgx_enclave e;
		struct sgx_secs secs;
		FILE *f;

		isgx_layout_secs(&compat_layout, &secs);
		ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs) &&
			    !isgx_enclave_add_layout(&e, &compat_layout) &&
			    !isgx_enclave_sign(&e, isgx_test_key(), &ss), "%s", isgx_enclave_error(&e));
		f = fopen(path, "wb");
		ISGX_ASSERT(f && fwrite(&ss, sizeof(ss), 1, f) == 1 && !fclose(f), "writing %s: %s",
			    path, strerror(errno));
	}
}

ISGX_TEST(compat32_process, 300)
{
	const char *prog = isgx_option("compat32");
	char ss_path[] = "/tmp/isgx-compat32-XXXXXX", pages[32], arg[64], how[64];
	int fd, tmp, report[2], exec_err = 0;
	pid_t pid;

	if (!prog)
		isgx_skip("no 32-bit test program given (--compat32=PATH)");
	isgx_test_key();
	fd = isgx_test_start(NULL);
	tmp = mkstemp(ss_path);
	ISGX_ASSERT_GE(tmp, 0, "mkstemp: %s", strerror(errno));
	close(tmp);
	write_compat_sigstruct(ss_path);

	snprintf(arg, sizeof(arg), "--sigstruct=%s", ss_path);
	snprintf(pages, sizeof(pages), "--pages=%u", compat_layout.nr_pages);
	/* A close-on-exec pipe carries exec's errno back, if exec fails. */
	ISGX_ASSERT(!pipe2(report, O_CLOEXEC), "pipe2: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		execl(prog, prog, arg, pages, (char *)NULL);
		exec_err = errno;
		if (write(report[1], &exec_err, sizeof(exec_err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(report[1]);
	if (read(report[0], &exec_err, sizeof(exec_err)) != sizeof(exec_err))
		exec_err = 0;
	close(report[0]);
	if (!wait_child(pid, how)) {
		unlink(ss_path);
		/* A kernel without IA32_EMULATION cannot run the program at all. */
		if (exec_err == ENOEXEC) {
			isgx_test_finish(fd);
			isgx_skip("this kernel cannot run 32-bit programs (ENOEXEC: no IA32_EMULATION?)");
		}
		ISGX_ASSERT(!exec_err, "exec %s: %s", prog, strerror(exec_err));
		ISGX_EXPECT(0, "%s failed: %s (its failures above)", prog, how);
	}
	unlink(ss_path);
	isgx_expect_epc_all_free("after the 32-bit process", 2000);
	isgx_test_finish(fd);
}

int main(int argc, char **argv)
{
	int ret = isgx_harness_main(argc, argv);

	/* Leave no module behind, whatever a failed test did. */
	if (isgx_in_guest() && isgx_module_loaded("isgx"))
		isgx_module_unload("isgx");
	return ret;
}
