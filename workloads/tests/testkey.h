/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testkey.h - the signing key of a test program's --key=PATH, for the host
 * tests and the guest tests alike.
 */
#ifndef ISGX_TESTKEY_H
#define ISGX_TESTKEY_H

#include <openssl/evp.h>

/*
 * The key of --key=PATH, loaded once per process and kept (do not free
 * it); skips the test without --key, fails it if the key does not load.
 */
EVP_PKEY *isgx_test_key(void);

#endif /* ISGX_TESTKEY_H */
