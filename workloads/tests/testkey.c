// SPDX-License-Identifier: GPL-2.0
/* testkey.c - the signing key of --key=PATH (testkey.h). */
#include "testkey.h"

#include "harness.h"
#include "sign.h"

EVP_PKEY *isgx_test_key(void)
{
	static EVP_PKEY *key;
	const char *path = isgx_option("key");
	char err[256];

	if (key)
		return key;
	if (!path)
		isgx_skip("no signing key given (--key=PATH)");
	key = isgx_key_load(path, err);
	ISGX_ASSERT(key, "%s", err);
	return key;
}
