// SPDX-License-Identifier: GPL-2.0
/*
 * test_layout.c - host tests of libisgx's enclave builder, the
 * deterministic layout, the error names and the isgx command; nothing here
 * needs the module.
 *
 * The builder's MRENCLAVE is checked against the spec's vectors
 * (encls-spec.md §8, the same digests as test_libisgx) and against a
 * measurement assembled here by hand with the measure.h primitives from
 * pages built here; names against the spec's code table.
 *
 *	test_layout --key=PATH/signing_key.pem --isgx=PATH/isgx
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "enclave.h"
#include "isgx.h"
#include "layout.h"
#include "measure.h"
#include "sgx_error.h"
#include "sign.h"
#include "testkey.h"

#define PAGE SGX_PAGE_SIZE

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

ISGX_TEST(ret_names, 10)
{
	static const struct { int64_t ret; const char *want; } cases[] = {
		{ 0, "success" },
		{ -EEXIST, "EEXIST" },
		{ -ENOENT, "ENOENT" },
		{ -EINVAL, "EINVAL" },
		{ -ENOTTY, "ENOTTY" },
		{ 1, "SGX_INVALID_SIG_STRUCT (1)" },
		{ 2, "SGX_INVALID_ATTRIBUTE (2)" },
		{ 4, "SGX_INVALID_MEASUREMENT (4)" },
		{ 8, "SGX_INVALID_SIGNATURE (8)" },
		{ 16, "SGX_INVALID_EINITTOKEN (16)" },
		{ 128, "SGX_UNMASKED_EVENT (128)" },
		{ 0xc0000002, "SGX_POWER_LOST_ENCLAVE (0xc0000002)" },
		{ 0xc0000003, "SGX_LE_ROLLBACK (0xc0000003)" },
		{ 77, "SGX code 77" },
		{ -9999, "errno 9999" },
	};
	char buf[ISGX_RET_NAME_LEN];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		isgx_ret_name(cases[i].ret, buf);
		ISGX_EXPECT(!strcmp(buf, cases[i].want), "%lld: '%s', want '%s'",
			    (long long)cases[i].ret, buf, cases[i].want);
	}
	ISGX_EXPECT(isgx_sgx_code_name(13) && !strcmp(isgx_sgx_code_name(13), "SGX_CHILD_PRESENT"),
		    "code 13");
	ISGX_EXPECT(!isgx_sgx_code_name(0), "code 0 has no SGX error name");
	ISGX_EXPECT(!isgx_sgx_code_name(19), "code 19 is SGX2, not in the uAPI");
}

ISGX_TEST(ioctl_convention, 10)
{
	int fd = open("/dev/null", O_RDWR);

	ISGX_ASSERT_GE(fd, 0, "open /dev/null");
	ISGX_EXPECT_EQ(isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, NULL), -ENOTTY,
		       "an ioctl /dev/null does not know must give -ENOTTY");
	ISGX_EXPECT_EQ(isgx_ioctl(-1, SGX_IOC_ENCLAVE_CREATE, NULL), -EBADF, "bad fd: -EBADF");
	close(fd);
}

ISGX_TEST(layout_size_and_checks, 10)
{
	static const struct { unsigned int pages; uint64_t size; } cases[] = {
		{ 2, 0x2000 }, { 3, 0x4000 }, { 4, 0x4000 }, { 6, 0x8000 }, { 8, 0x8000 },
		{ 9, 0x10000 }, { 1024, 0x400000 }, { 1025, 0x800000 },
	};
	struct isgx_layout l = { .nr_tcs = 1 };
	char err[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		l.nr_pages = cases[i].pages;
		ISGX_EXPECT_EQ(isgx_layout_size(&l), cases[i].size,
			       "%u pages: SIZE %#llx, want %#llx",
			       cases[i].pages, (unsigned long long)isgx_layout_size(&l),
			       (unsigned long long)cases[i].size);
		ISGX_EXPECT(!isgx_layout_check(&l, err), "%u pages refused: %s", l.nr_pages, err);
	}
	l = (struct isgx_layout){ .nr_pages = 4, .nr_tcs = 0 };
	ISGX_EXPECT_EQ(isgx_layout_check(&l, err), -EINVAL, "no TCS accepted");
	l = (struct isgx_layout){ .nr_pages = 3, .nr_tcs = 2 };
	ISGX_EXPECT_EQ(isgx_layout_check(&l, err), -EINVAL, "2 TCS in 3 pages accepted");
	l = (struct isgx_layout){ .nr_pages = 4, .nr_tcs = 2 };
	ISGX_EXPECT(!isgx_layout_check(&l, err), "2 TCS in 4 pages refused: %s", err);
	l = (struct isgx_layout){ .nr_pages = (1U << 19) + 1, .nr_tcs = 1, .mode32 = true };
	ISGX_EXPECT_EQ(isgx_layout_check(&l, err), -EINVAL, "a 4 GiB 32-bit enclave accepted");
	l = (struct isgx_layout){ .nr_pages = ISGX_LAYOUT_MAX_PAGES + 1, .nr_tcs = 1 };
	ISGX_EXPECT_EQ(isgx_layout_check(&l, err), -EINVAL, "too many pages accepted");
}

ISGX_TEST(layout_secs, 10)
{
	static const uint8_t zero[4096];
	struct isgx_layout l = { .nr_pages = 6, .nr_tcs = 1 };
	struct sgx_secs s;

	isgx_layout_secs(&l, &s);
	ISGX_EXPECT(s.size == 0x8000 && s.base == 0 && s.ssa_frame_size == 1 && s.miscselect == 0,
		    "SIZE/BASE/SSAFRAMESIZE/MISCSELECT");
	ISGX_EXPECT(s.attributes == SGX_ATTR_MODE64BIT && s.xfrm == 3, "ATTRIBUTES %#llx XFRM %#llx",
		    (unsigned long long)s.attributes, (unsigned long long)s.xfrm);
	ISGX_EXPECT(!memcmp(s.reserved1, zero, sizeof(s.reserved1)) &&
		    !memcmp(s.reserved4, zero, sizeof(s.reserved4)), "reserved bytes set");
	l.debug = true;
	isgx_layout_secs(&l, &s);
	ISGX_EXPECT_EQ(s.attributes, (SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG), "debug attributes");
	l.mode32 = true;
	isgx_layout_secs(&l, &s);
	ISGX_EXPECT_EQ(s.attributes, SGX_ATTR_DEBUG, "32-bit debug attributes");
}

ISGX_TEST(layout_pages, 10)
{
	static uint8_t page[PAGE], other[PAGE];
	const struct isgx_layout l = { .nr_pages = 9, .nr_tcs = 2 };
	static const uint64_t want_secinfo[9] = {
		0x100, 0x100, 0x203, 0x203, 0x203, 0x201, 0x205, 0x203, 0x201,
	};
	struct sgx_tcs *tcs = (struct sgx_tcs *)page;
	struct isgx_layout_page lp;

	for (unsigned int i = 0; i < l.nr_pages; i++) {
		isgx_layout_page(&l, i, &lp, page);
		ISGX_EXPECT_EQ(lp.offset, i * 0x1000ULL, "page %u offset %#llx", i,
			       (unsigned long long)lp.offset);
		ISGX_EXPECT_EQ(lp.secinfo, want_secinfo[i], "page %u SECINFO %#llx, want %#llx", i,
			       (unsigned long long)lp.secinfo, (unsigned long long)want_secinfo[i]);
		ISGX_EXPECT_EQ(lp.add_flags, 0, "page %u flags %#x", i, lp.add_flags);
	}
	/* A valid TCS, as the README's ADD_PAGE row demands. */
	for (unsigned int i = 0; i < 2; i++) {
		static const uint8_t zero[4024];

		isgx_layout_page(&l, i, &lp, page);
		ISGX_EXPECT(tcs->flags == 0 && tcs->state == 0 && tcs->cssa == 0 && tcs->aep == 0,
			    "TCS %u: FLAGS/STATE/CSSA/AEP", i);
		ISGX_EXPECT(tcs->ossa == (2 + i) * 0x1000ULL && tcs->nssa == 1, "TCS %u: OSSA %#llx",
			    i, (unsigned long long)tcs->ossa);
		ISGX_EXPECT(tcs->ofsbase % PAGE == 0 && tcs->ogsbase % PAGE == 0 &&
			    tcs->ofsbase < 0x10000 && tcs->oentry < 0x10000, "TCS %u: offsets", i);
		ISGX_EXPECT(tcs->fslimit == 0xfff && tcs->gslimit == 0xfff, "TCS %u: limits", i);
		ISGX_EXPECT(!memcmp(tcs->reserved, zero, sizeof(zero)), "TCS %u: reserved", i);
	}
	/* SSA pages are zero; data pages differ from each other. */
	isgx_layout_page(&l, 3, &lp, page);
	for (unsigned int j = 0; j < PAGE; j++)
		if (page[j]) {
			ISGX_EXPECT(0, "SSA page byte %u is %#x", j, page[j]);
			break;
		}
	isgx_layout_page(&l, 4, &lp, page);
	isgx_layout_page(&l, 7, &lp, other);
	ISGX_EXPECT(memcmp(page, other, PAGE), "two data pages have the same bytes");
	ISGX_EXPECT_NE(((uint64_t *)page)[0], ((uint64_t *)page)[1], "adjacent words equal");
	ISGX_EXPECT_EQ(isgx_layout_find(&l, SGX_SECINFO_R | SGX_SECINFO_X), 6, "the RX page");
	ISGX_EXPECT_EQ(isgx_layout_find(&l, SGX_SECINFO_X), -1, "an X-only page");

	/* SKIP_EEXTEND on every page, when asked. */
	{
		const struct isgx_layout ls = { .nr_pages = 4, .nr_tcs = 1, .skip_eextend = true };

		for (unsigned int i = 0; i < ls.nr_pages; i++) {
			isgx_layout_page(&ls, i, &lp, page);
			ISGX_EXPECT_EQ(lp.add_flags, SGX_ADD_SKIP_EEXTEND, "page %u flags", i);
		}
	}
}

static void expect_builder_digest(struct isgx_enclave *e, const char *want, const char *name)
{
	uint8_t d[32];
	char got[65];

	ISGX_ASSERT(!isgx_enclave_mrenclave(e, d), "%s: %s", name, isgx_enclave_error(e));
	hex(d, got);
	ISGX_EXPECT(!strcmp(got, want), "%s: MRENCLAVE %s, want %s", name, got, want);
}

/* The builder against the spec's vectors C and D (encls-spec.md §8). */
ISGX_TEST(builder_spec_vectors, 10)
{
	static uint8_t zero[PAGE], pattern[PAGE];
	struct isgx_enclave e;
	struct sgx_secs secs;

	isgx_secs_init(&secs, 0x2000, SGX_ATTR_MODE64BIT);
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "create");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0, zero, SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W,
				      SGX_ADD_SKIP_EEXTEND), "add");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0x1000, zero,
				      SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_X, 0), "add");
	expect_builder_digest(&e, "c6d695350dca63406562d0e067640f7b7d972bc86943e619f9b4b0ee72f0bb62",
			      "C");
	ISGX_EXPECT_EQ(isgx_enclave_add(&e, 0, zero, SGX_SECINFO_REG | SGX_SECINFO_R, 0), -EBUSY,
		       "an add after the final MRENCLAVE must be refused");

	for (int i = 0; i < PAGE; i++)
		pattern[i] = (7 * i + 3) % 256;
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "create");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0x1000, pattern, SGX_SECINFO_REG | SGX_SECINFO_R, 0),
		    "add");
	expect_builder_digest(&e, "aaddb3f82a446a5b21764b73de062d4f419c516df84031290ccf24055d27b74a",
			      "D");
}

/* The layout's data word, from its definition in layout.h (splitmix64). */
static uint64_t word(uint64_t offset)
{
	uint64_t z = offset + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* MRENCLAVE of {pages, tcs} built and measured here, record by record. */
static void hand_measure(unsigned int pages, unsigned int tcs, bool skip, uint8_t mr[32])
{
	static const uint64_t perms[3] = { 0x203, 0x201, 0x205 };
	static uint8_t page[PAGE];
	struct isgx_measure m;
	uint64_t size = 0x2000;

	while (size < pages * 0x1000ULL)
		size <<= 1;
	ISGX_ASSERT(!isgx_measure_ecreate(&m, 1, size), "ecreate");
	for (unsigned int i = 0; i < pages; i++) {
		uint64_t off = i * 0x1000ULL, flags;

		memset(page, 0, sizeof(page));
		if (i < tcs) {
			struct sgx_tcs *t = (struct sgx_tcs *)page;

			t->ossa = (tcs + i) * 0x1000ULL;
			t->nssa = 1;
			t->oentry = t->ofsbase = t->ogsbase = 2 * tcs * 0x1000ULL;
			t->fslimit = t->gslimit = 0xfff;
			flags = 0x100;		/* TCS, R/W/X cleared */
		} else if (i < 2 * tcs) {
			flags = 0x203;
		} else {
			for (unsigned int j = 0; j < PAGE / 8; j++)
				((uint64_t *)page)[j] = word(off + 8 * j);
			flags = perms[(i - 2 * tcs) % 3];
		}
		isgx_measure_eadd(&m, off, flags);
		if (!skip)
			isgx_measure_page(&m, off, page);
	}
	ISGX_ASSERT(!isgx_measure_final(&m, mr), "final");
}

static void builder_measure(const struct isgx_layout *l, uint8_t mr[32])
{
	struct isgx_enclave e;
	struct sgx_secs secs;

	isgx_layout_secs(l, &secs);
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "%s", isgx_enclave_error(&e));
	ISGX_ASSERT(!isgx_enclave_add_layout(&e, l), "%s", isgx_enclave_error(&e));
	ISGX_ASSERT(!isgx_enclave_mrenclave(&e, mr), "%s", isgx_enclave_error(&e));
}

ISGX_TEST(layout_measurement_by_hand, 30)
{
	static const struct isgx_layout cases[] = {
		{ .nr_pages = 2, .nr_tcs = 1 },
		{ .nr_pages = 6, .nr_tcs = 1 },
		{ .nr_pages = 6, .nr_tcs = 1, .debug = true, .mode32 = true },
		{ .nr_pages = 11, .nr_tcs = 3 },
		{ .nr_pages = 7, .nr_tcs = 2, .skip_eextend = true },
		{ .nr_pages = 100, .nr_tcs = 1 },
	};
	uint8_t a[32], b[32];
	char ha[65], hb[65];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct isgx_layout *l = &cases[i];

		builder_measure(l, a);
		hand_measure(l->nr_pages, l->nr_tcs, l->skip_eextend, b);
		hex(a, ha);
		hex(b, hb);
		ISGX_EXPECT(!memcmp(a, b, 32), "%u pages, %u TCS%s: builder %s, by hand %s",
			    l->nr_pages, l->nr_tcs, l->skip_eextend ? ", skip" : "", ha, hb);
	}
	/* And the options that are not measured really are not. */
	builder_measure(&cases[1], a);
	builder_measure(&cases[2], b);
	ISGX_EXPECT(!memcmp(a, b, 32), "DEBUG or MODE64BIT changed MRENCLAVE");
}

/* EADD clears a TCS's R/W/X and STATE, FLAGS.DBGOPTIN, CSSA, AEP before measuring. */
ISGX_TEST(builder_measures_tcs_as_eadd, 10)
{
	static uint8_t clean[PAGE], dirty[PAGE];
	struct sgx_tcs *t = (struct sgx_tcs *)dirty;
	struct isgx_enclave e;
	struct sgx_secs secs;
	uint8_t a[32], b[32];

	((struct sgx_tcs *)clean)->ossa = 0x1000;
	((struct sgx_tcs *)clean)->nssa = 1;
	memcpy(dirty, clean, PAGE);
	t->state = 5;
	t->flags = SGX_TCS_DBGOPTIN;
	t->cssa = 3;
	t->aep = 0x1234;
	isgx_secs_init(&secs, 0x2000, SGX_ATTR_MODE64BIT);
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "create");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0, clean, SGX_SECINFO_TCS, 0), "add");
	ISGX_ASSERT(!isgx_enclave_mrenclave(&e, a), "final");
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "create");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0, dirty,
				      SGX_SECINFO_TCS | SGX_SECINFO_R | SGX_SECINFO_W, 0), "add");
	ISGX_ASSERT(!isgx_enclave_mrenclave(&e, b), "final");
	ISGX_EXPECT(!memcmp(a, b, 32), "a TCS's R/W, STATE, DBGOPTIN, CSSA or AEP was measured");
	/* The OSSA is measured. */
	t->ossa = 0x2000;
	ISGX_ASSERT(!isgx_enclave_create(&e, -1, &secs), "create");
	ISGX_ASSERT(!isgx_enclave_add(&e, 0, dirty, SGX_SECINFO_TCS, 0), "add");
	ISGX_ASSERT(!isgx_enclave_mrenclave(&e, b), "final");
	ISGX_EXPECT(memcmp(a, b, 32), "a TCS's OSSA was not measured");
}

ISGX_TEST(sigstruct_for_secs, 30)
{
	struct sgx_sigstruct ss;
	struct sgx_secs secs;
	uint8_t mr[32];
	char err[256];
	EVP_PKEY *key = isgx_test_key();

	memset(mr, 0x3c, sizeof(mr));
	isgx_secs_init(&secs, 0x4000, SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG | SGX_ATTR_INIT);
	secs.miscselect = 1;
	ISGX_ASSERT(!isgx_sigstruct_make(&ss, &secs, mr, key, err), "%s", err);
	ISGX_EXPECT(!isgx_sigstruct_verify(&ss, err), "verify: %s", err);
	ISGX_EXPECT_EQ(ss.attributes, (SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG), "ATTRIBUTES %#llx",
		       (unsigned long long)ss.attributes);
	ISGX_EXPECT(ss.xfrm == 3 && ss.attributes_mask == ~0ULL && ss.xfrm_mask == ~0ULL,
		    "XFRM and masks");
	ISGX_EXPECT(ss.miscselect == 1 && ss.misc_mask == ~0U, "MISCSELECT and mask");
	ISGX_EXPECT(!memcmp(ss.enclave_hash, mr, 32), "ENCLAVEHASH");
}

/* Run the isgx command with @args; its stdout in @out; returns the exit status. */
static int run_cli(const char *args, char *out, size_t len)
{
	const char *cli = isgx_option("isgx");
	char cmd[4096];
	size_t n;
	FILE *p;
	int st;

	if (!cli)
		isgx_skip("no isgx command given (--isgx=PATH)");
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", cli, args);
	p = popen(cmd, "r");
	ISGX_ASSERT(p, "popen: %s", strerror(errno));
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

ISGX_TEST(cli_measure_and_sign, 60)
{
	const struct isgx_layout l = { .nr_pages = 6, .nr_tcs = 1, .mode32 = true };
	char out[4096], want[65], args[512], path[] = "/tmp/isgx-test-layout-XXXXXX";
	struct sgx_sigstruct ss;
	uint8_t mr[32];
	char err[256];
	FILE *f;
	int fd;

	builder_measure(&l, mr);
	hex(mr, want);
	ISGX_ASSERT_EQ(run_cli("measure --pages 6", out, sizeof(out)), 0, "isgx measure failed");
	ISGX_EXPECT(!strncmp(out, want, 64) && out[64] == '\n', "isgx measure: '%s', want %s",
		    out, want);
	ISGX_EXPECT(run_cli("measure --pages 6 --tcs 2", out, sizeof(out)) == 0 &&
		    strncmp(out, want, 64), "--tcs 2 measured the same as --tcs 1");

	fd = mkstemp(path);
	ISGX_ASSERT_GE(fd, 0, "mkstemp");
	close(fd);
	snprintf(args, sizeof(args), "sign --pages 6 --mode32 --key '%s' --out %s",
		 isgx_option("key") ? isgx_option("key") : "", path);
	ISGX_ASSERT_EQ(run_cli(args, out, sizeof(out)), 0, "isgx %s failed", args);
	f = fopen(path, "rb");
	ISGX_ASSERT(f && fread(&ss, 1, sizeof(ss), f) == sizeof(ss) && fgetc(f) == EOF,
		    "%s is not 1808 bytes", path);
	fclose(f);
	unlink(path);
	ISGX_EXPECT(!isgx_sigstruct_verify(&ss, err), "the CLI's SIGSTRUCT: %s", err);
	ISGX_EXPECT(!memcmp(ss.enclave_hash, mr, 32), "the CLI signed another MRENCLAVE");
	ISGX_EXPECT(ss.attributes == 0 && ss.xfrm == 3, "--mode32: ATTRIBUTES %#llx",
		    (unsigned long long)ss.attributes);

	ISGX_EXPECT_EQ(run_cli("measure --pages 1", out, sizeof(out)), 1, "1 page accepted");
	ISGX_EXPECT_EQ(run_cli("measure", out, sizeof(out)), 2, "no --pages: want usage error");
	ISGX_EXPECT_EQ(run_cli("frobnicate --pages 4", out, sizeof(out)), 2, "unknown command");
	ISGX_EXPECT_EQ(run_cli("measure --pages 4 --bogus", out, sizeof(out)), 2, "unknown option");
	ISGX_EXPECT_EQ(run_cli("sign --pages 4", out, sizeof(out)), 2, "sign without --out");
	ISGX_EXPECT_EQ(run_cli("build --pages 4 --key /nonexistent", out, sizeof(out)), 1,
		       "build with a missing key");
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
