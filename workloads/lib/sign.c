// SPDX-License-Identifier: GPL-2.0
/* sign.c - SIGSTRUCT signing and checking with OpenSSL (see sign.h). */
#include "sign.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#define ERRLEN 256

static const uint8_t sigstruct_header[16] = {
	0x06, 0x00, 0x00, 0x00, 0xe1, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00 };
static const uint8_t sigstruct_header2[16] = {
	0x01, 0x01, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00,
	0x60, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 };
/* DER prefix of a SHA-256 DigestInfo (PKCS#1 v1.5). */
static const uint8_t sha256_digest_info[19] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
	0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20 };

static int fail(char *err, int ret, const char *what)
{
	unsigned long e = ERR_get_error();

	snprintf(err, ERRLEN, "%s%s%s", what, e ? ": " : "",
		 e ? ERR_reason_error_string(e) ? ERR_reason_error_string(e) : "openssl error" : "");
	return ret;
}

/* The signed bytes: SIGSTRUCT 0-127 followed by 900-1027. */
static void signed_bytes(const struct sgx_sigstruct *ss, uint8_t msg[256])
{
	memcpy(msg, ss, 128);
	memcpy(msg + 128, (const uint8_t *)ss + 900, 128);
}

EVP_PKEY *isgx_key_load(const char *path, char *err)
{
	EVP_PKEY *key = NULL;
	BIGNUM *e = NULL;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, ERRLEN, "cannot open key %s: %s", path, strerror(errno));
		return NULL;
	}
	key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	if (!key) {
		fail(err, 0, "not a PEM private key");
		return NULL;
	}
	if (EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA || EVP_PKEY_get_bits(key) != 3072 ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) || !BN_is_word(e, 3)) {
		snprintf(err, ERRLEN, "key %s is not RSA-3072 with exponent 3", path);
		BN_free(e);
		EVP_PKEY_free(key);
		return NULL;
	}
	BN_free(e);
	return key;
}

void isgx_sigstruct_init(struct sgx_sigstruct *ss)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(ss, 0, sizeof(*ss));
	memcpy(ss->header, sigstruct_header, sizeof(sigstruct_header));
	memcpy(ss->header2, sigstruct_header2, sizeof(sigstruct_header2));
	gmtime_r(&now, &tm);
	/* yyyymmdd written as hex digits, as the SDK does. */
	ss->date = ((tm.tm_year + 1900) / 1000 % 10) << 28 | ((tm.tm_year + 1900) / 100 % 10) << 24 |
		   ((tm.tm_year + 1900) / 10 % 10) << 20 | ((tm.tm_year + 1900) % 10) << 16 |
		   ((tm.tm_mon + 1) / 10) << 12 | ((tm.tm_mon + 1) % 10) << 8 |
		   (tm.tm_mday / 10) << 4 | (tm.tm_mday % 10);
	ss->exponent = 3;
}

static void reverse(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[n - 1 - i];
}

int isgx_sigstruct_sign(struct sgx_sigstruct *ss, EVP_PKEY *key, char *err)
{
	uint8_t msg[256], sig_be[SGX_MODULUS_SIZE];
	BIGNUM *n = NULL, *s, *t, *q1, *q2, *r1, *unused;
	EVP_MD_CTX *md = NULL;
	size_t siglen = sizeof(sig_be);
	BN_CTX *bn = NULL;
	int ret = -EIO;

	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) || BN_num_bytes(n) != 384)
		return fail(err, -EINVAL, "the key has no 3072-bit modulus");
	ss->exponent = 3;
	BN_bn2lebinpad(n, ss->modulus, SGX_MODULUS_SIZE);

	signed_bytes(ss, msg);
	md = EVP_MD_CTX_new();
	if (!md || !EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) ||
	    !EVP_DigestSign(md, sig_be, &siglen, msg, sizeof(msg)) || siglen != sizeof(sig_be)) {
		ret = fail(err, -EIO, "RSA signing failed");
		goto out;
	}
	reverse(ss->signature, sig_be, sizeof(sig_be));

	/* Q1 = floor(S^2 / N), Q2 = floor(S * (S^2 mod N) / N). */
	bn = BN_CTX_new();
	if (!bn)
		goto out;
	BN_CTX_start(bn);
	s = BN_CTX_get(bn);
	t = BN_CTX_get(bn);
	q1 = BN_CTX_get(bn);
	q2 = BN_CTX_get(bn);
	r1 = BN_CTX_get(bn);
	unused = BN_CTX_get(bn);
	if (!unused || !BN_bin2bn(sig_be, sizeof(sig_be), s) || !BN_sqr(t, s, bn) ||
	    !BN_div(q1, r1, t, n, bn) || !BN_mul(t, s, r1, bn) || !BN_div(q2, unused, t, n, bn) ||
	    BN_bn2lebinpad(q1, ss->q1, SGX_MODULUS_SIZE) < 0 ||
	    BN_bn2lebinpad(q2, ss->q2, SGX_MODULUS_SIZE) < 0) {
		ret = fail(err, -EIO, "computing Q1/Q2 failed");
		goto out;
	}
	ret = 0;
out:
	if (bn) {
		BN_CTX_end(bn);
		BN_CTX_free(bn);
	}
	EVP_MD_CTX_free(md);
	BN_free(n);
	return ret;
}

int isgx_sigstruct_verify(const struct sgx_sigstruct *ss, char *err)
{
	uint8_t msg[256], digest[32], be[SGX_MODULUS_SIZE], want[SGX_MODULUS_SIZE];
	BIGNUM *n, *s, *m, *e, *t, *r, *q;
	int ret = -EBADMSG;
	BN_CTX *bn;

	if (memcmp(ss->header, sigstruct_header, 16) || memcmp(ss->header2, sigstruct_header2, 16))
		return fail(err, -EBADMSG, "SIGSTRUCT header mismatch");
	if (ss->exponent != 3)
		return fail(err, -EBADMSG, "SIGSTRUCT exponent is not 3");
	bn = BN_CTX_new();
	if (!bn)
		return -ENOMEM;
	BN_CTX_start(bn);
	n = BN_CTX_get(bn);
	s = BN_CTX_get(bn);
	m = BN_CTX_get(bn);
	e = BN_CTX_get(bn);
	t = BN_CTX_get(bn);
	r = BN_CTX_get(bn);
	q = BN_CTX_get(bn);
	if (!q || !BN_lebin2bn(ss->modulus, SGX_MODULUS_SIZE, n) ||
	    !BN_lebin2bn(ss->signature, SGX_MODULUS_SIZE, s) || !BN_set_word(e, 3) ||
	    !BN_mod_exp(m, s, e, n, bn) || BN_bn2binpad(m, be, sizeof(be)) < 0) {
		fail(err, -EIO, "big-number arithmetic failed");
		goto out;
	}
	signed_bytes(ss, msg);
	if (!EVP_Digest(msg, sizeof(msg), digest, NULL, EVP_sha256(), NULL)) {
		fail(err, -EIO, "SHA-256 failed");
		goto out;
	}
	want[0] = 0x00;
	want[1] = 0x01;
	memset(want + 2, 0xff, 330);
	want[332] = 0x00;
	memcpy(want + 333, sha256_digest_info, sizeof(sha256_digest_info));
	memcpy(want + 352, digest, sizeof(digest));
	if (memcmp(be, want, sizeof(want))) {
		fail(err, -EBADMSG, "S^3 mod N is not the PKCS#1 v1.5 encoding of the digest");
		goto out;
	}
	/* S^2 = Q1*N + R1 with R1 < N, and S*R1 = Q2*N + R2 with R2 < N. */
	if (!BN_sqr(t, s, bn) || !BN_div(q, r, t, n, bn) ||
	    !BN_lebin2bn(ss->q1, SGX_MODULUS_SIZE, t) || BN_cmp(q, t)) {
		fail(err, -EBADMSG, "Q1 is wrong");
		goto out;
	}
	if (!BN_mul(t, s, r, bn) || !BN_div(q, r, t, n, bn) ||
	    !BN_lebin2bn(ss->q2, SGX_MODULUS_SIZE, t) || BN_cmp(q, t)) {
		fail(err, -EBADMSG, "Q2 is wrong");
		goto out;
	}
	ret = 0;
out:
	BN_CTX_end(bn);
	BN_CTX_free(bn);
	return ret;
}

int isgx_mrsigner(const struct sgx_sigstruct *ss, uint8_t mrsigner[SGX_HASH_SIZE])
{
	return EVP_Digest(ss->modulus, SGX_MODULUS_SIZE, mrsigner, NULL, EVP_sha256(), NULL) ?
	       0 : -EIO;
}
