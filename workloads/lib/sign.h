/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sign.h - SIGSTRUCT signing and checking with OpenSSL: RSA-3072 with
 * public exponent 3, PKCS#1 v1.5 over SHA-256 of the signed bytes
 * (SIGSTRUCT 0-127 and 900-1027), modulus, signature, Q1 and Q2 stored
 * little-endian (encls-spec.md §2.8, §5.3).
 */
#ifndef ISGX_SIGN_H
#define ISGX_SIGN_H

#include <openssl/evp.h>

#include "sgx_arch.h"

/* Read an RSA-3072, e = 3 private key from a PEM file.  NULL on error,
 * with the reason in @err (at least 256 bytes). */
EVP_PKEY *isgx_key_load(const char *path, char *err);

/* Fill the fixed SIGSTRUCT fields (headers, vendor 0, date, exponent). */
void isgx_sigstruct_init(struct sgx_sigstruct *ss);

/* Sign @ss in place: modulus, signature, Q1, Q2.  Returns 0 or -EINVAL /
 * -EIO with the reason in @err. */
int isgx_sigstruct_sign(struct sgx_sigstruct *ss, EVP_PKEY *key, char *err);

/* Check @ss as EINIT does (headers, exponent, S^3 mod N against the
 * PKCS#1 encoding, Q1 and Q2).  Returns 0 or -EBADMSG with the reason. */
int isgx_sigstruct_verify(const struct sgx_sigstruct *ss, char *err);

/* MRSIGNER: SHA-256 of the modulus as stored. */
int isgx_mrsigner(const struct sgx_sigstruct *ss, uint8_t mrsigner[SGX_HASH_SIZE]);

#endif /* ISGX_SIGN_H */
