// SPDX-License-Identifier: GPL-2.0
/* sgx_error.c - the ioctl return convention and names of its codes. */
#define _GNU_SOURCE
#include "sgx_error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "isgx.h"

int64_t isgx_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	if (ret == -1)
		return -errno;
	/* The kernel's long reaches us truncated to 32 bits: widen unsigned. */
	return (int64_t)(uint32_t)ret;
}

#define CODE(c) { c, #c }
static const struct {
	uint32_t code;
	const char *name;
} sgx_codes[] = {
	CODE(SGX_INVALID_SIG_STRUCT),
	CODE(SGX_INVALID_ATTRIBUTE),
	CODE(SGX_BLKSTATE),
	CODE(SGX_INVALID_MEASUREMENT),
	CODE(SGX_NOTBLOCKABLE),
	CODE(SGX_PG_INVLD),
	CODE(SGX_LOCKFAIL),
	CODE(SGX_INVALID_SIGNATURE),
	CODE(SGX_MAC_COMPARE_FAIL),
	CODE(SGX_PAGE_NOT_BLOCKED),
	CODE(SGX_NOT_TRACKED),
	CODE(SGX_VA_SLOT_OCCUPIED),
	CODE(SGX_CHILD_PRESENT),
	CODE(SGX_ENCLAVE_ACT),
	CODE(SGX_ENTRYEPOCH_LOCKED),
	CODE(SGX_INVALID_EINITTOKEN),
	CODE(SGX_PREV_TRK_INCMPL),
	CODE(SGX_PG_IS_SECS),
	CODE(SGX_INVALID_CPUSVN),
	CODE(SGX_INVALID_ISVSVN),
	CODE(SGX_UNMASKED_EVENT),
	CODE(SGX_INVALID_KEYNAME),
	CODE(SGX_POWER_LOST_ENCLAVE),
	CODE(SGX_LE_ROLLBACK),
};
#undef CODE

const char *isgx_sgx_code_name(uint32_t code)
{
	for (size_t i = 0; i < sizeof(sgx_codes) / sizeof(sgx_codes[0]); i++)
		if (sgx_codes[i].code == code)
			return sgx_codes[i].name;
	return NULL;
}

const char *isgx_errno_name(int err)
{
	return err > 0 ? strerrorname_np(err) : NULL;
}

const char *isgx_ret_name(int64_t ret, char *buf)
{
	const char *name;

	if (ret == 0) {
		snprintf(buf, ISGX_RET_NAME_LEN, "success");
	} else if (ret < 0) {
		name = ret >= -4095 ? isgx_errno_name((int)-ret) : NULL;
		if (name)
			snprintf(buf, ISGX_RET_NAME_LEN, "%s", name);
		else
			snprintf(buf, ISGX_RET_NAME_LEN, "errno %" PRId64, -ret);
	} else {
		name = ret <= UINT32_MAX ? isgx_sgx_code_name((uint32_t)ret) : NULL;
		/* Driver codes read better in hex, ENCLS codes in decimal. */
		if (name && ret >= 0x10000)
			snprintf(buf, ISGX_RET_NAME_LEN, "%s (%#" PRIx64 ")", name, ret);
		else if (name)
			snprintf(buf, ISGX_RET_NAME_LEN, "%s (%" PRId64 ")", name, ret);
		else
			snprintf(buf, ISGX_RET_NAME_LEN, "SGX code %" PRId64, ret);
	}
	return buf;
}
