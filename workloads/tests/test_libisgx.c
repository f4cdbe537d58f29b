// SPDX-License-Identifier: GPL-2.0
/*
 * test_libisgx.c - host tests of libisgx: MRENCLAVE against the vectors of
 * encls-spec.md §8 (the expected digests are the spec's, not this code's),
 * and SIGSTRUCT signing checked by an independent S^3 mod N computation.
 *
 *	test_libisgx --key=PATH/signing_key.pem
 */
#include "harness.h"
#include "measure.h"
#include "sign.h"
#include "testkey.h"

#include <stdio.h>
#include <string.h>

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < 32; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void expect_digest(struct isgx_measure *m, const char *want, const char *name)
{
	uint8_t d[32];
	char got[65];

	ISGX_ASSERT_EQ(isgx_measure_final(m, d), 0, "%s: final failed", name);
	hex(d, got);
	ISGX_EXPECT(!strcmp(got, want), "%s: MRENCLAVE %s, want %s", name, got, want);
}

ISGX_TEST(mrenclave_vector_a_ecreate_only, 10)
{
	struct isgx_measure m;

	ISGX_ASSERT(!isgx_measure_ecreate(&m, 1, 0x2000), "ecreate");
	expect_digest(&m, "9e197c8837c6d65632dbdd59cd7df4f1a25b68d8e4e5eb6ca3b20b05311fecb8", "A");
}

ISGX_TEST(mrenclave_vector_b_eadd, 10)
{
	struct isgx_measure m;

	ISGX_ASSERT(!isgx_measure_ecreate(&m, 1, 0x2000), "ecreate");
	isgx_measure_eadd(&m, 0, SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W);
	expect_digest(&m, "995c454650d39811c9c53e1af534aa6c34a496ce9302c34e0ced2c7a7e2c4103", "B");
}

ISGX_TEST(mrenclave_vector_c_zero_page, 10)
{
	static const uint8_t zero[SGX_PAGE_SIZE];
	struct isgx_measure m;

	ISGX_ASSERT(!isgx_measure_ecreate(&m, 1, 0x2000), "ecreate");
	isgx_measure_eadd(&m, 0, SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W);
	isgx_measure_eadd(&m, 0x1000, SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_X);
	isgx_measure_page(&m, 0x1000, zero);
	expect_digest(&m, "c6d695350dca63406562d0e067640f7b7d972bc86943e619f9b4b0ee72f0bb62", "C");
}

ISGX_TEST(mrenclave_vector_d_pattern_page, 10)
{
	uint8_t page[SGX_PAGE_SIZE];
	struct isgx_measure m;

	for (int i = 0; i < SGX_PAGE_SIZE; i++)
		page[i] = (7 * i + 3) % 256;
	ISGX_ASSERT(!isgx_measure_ecreate(&m, 1, 0x2000), "ecreate");
	isgx_measure_eadd(&m, 0x1000, SGX_SECINFO_REG | SGX_SECINFO_R);
	isgx_measure_page(&m, 0x1000, page);
	expect_digest(&m, "aaddb3f82a446a5b21764b73de062d4f419c516df84031290ccf24055d27b74a", "D");
}

static void signed_sigstruct(struct sgx_sigstruct *ss)
{
	EVP_PKEY *key = isgx_test_key();
	char err[256];

	isgx_sigstruct_init(ss);
	ss->attributes = SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG;
	ss->xfrm = 3;
	ss->attributes_mask = ~0ULL;
	ss->xfrm_mask = ~0ULL;
	memset(ss->enclave_hash, 0x5a, sizeof(ss->enclave_hash));
	ss->isv_prod_id = 7;
	ss->isv_svn = 2;
	ISGX_ASSERT(!isgx_sigstruct_sign(ss, key, err), "sign: %s", err);
}

ISGX_TEST(sigstruct_signs_and_verifies, 30)
{
	struct sgx_sigstruct ss;
	char err[256] = "";

	signed_sigstruct(&ss);
	ISGX_EXPECT(!isgx_sigstruct_verify(&ss, err), "verify: %s", err);
	ISGX_EXPECT_EQ(ss.exponent, 3, "exponent %u", ss.exponent);
	ISGX_EXPECT(ss.modulus[SGX_MODULUS_SIZE - 1] & 0x80, "modulus is not 3072 bits (LE top byte)");
}

ISGX_TEST(sigstruct_tamper_refused, 30)
{
	static const size_t offsets[] = { 0, 20, 127, 900, 960, 1027 };
	struct sgx_sigstruct ss, bad;
	char err[256];

	signed_sigstruct(&ss);
	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		bad = ss;
		((uint8_t *)&bad)[offsets[i]] ^= 0x01;
		ISGX_EXPECT(isgx_sigstruct_verify(&bad, err), "flip at %zu accepted", offsets[i]);
	}
	bad = ss;
	bad.q1[0] ^= 1;
	ISGX_EXPECT(isgx_sigstruct_verify(&bad, err), "wrong Q1 accepted");
	bad = ss;
	bad.q2[5] ^= 1;
	ISGX_EXPECT(isgx_sigstruct_verify(&bad, err), "wrong Q2 accepted");
	bad = ss;
	bad.signature[100] ^= 1;
	ISGX_EXPECT(isgx_sigstruct_verify(&bad, err), "flipped signature accepted");
}

ISGX_TEST(mrsigner_is_sha256_of_modulus, 30)
{
	struct sgx_sigstruct ss;
	uint8_t a[32], b[32];

	signed_sigstruct(&ss);
	ISGX_ASSERT(!isgx_mrsigner(&ss, a), "mrsigner");
	ISGX_ASSERT(EVP_Digest(ss.modulus, sizeof(ss.modulus), b, NULL, EVP_sha256(), NULL), "sha");
	ISGX_EXPECT(!memcmp(a, b, 32), "MRSIGNER differs from SHA-256(modulus)");
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
