/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sgx_error.h - the return convention of the /dev/sgx ioctls and names for
 * its codes.  No OpenSSL here: the 32-bit compat test builds this file too.
 *
 * An ioctl returns 0, a negative errno or a positive SGX code (README, "The
 * /dev/sgx ioctls and their errors").  SGX_POWER_LOST_ENCLAVE (0xc0000002)
 * does not fit a positive int, so the library carries results as int64_t.
 */
#ifndef ISGX_SGX_ERROR_H
#define ISGX_SGX_ERROR_H

#include <stddef.h>
#include <stdint.h>

/* Longest string isgx_ret_name() writes, with its NUL. */
#define ISGX_RET_NAME_LEN	64

/*
 * ioctl(@fd, @cmd, @arg) in the library's convention: 0, -errno, or the
 * positive SGX code.  glibc's ioctl() sets errno only for -4095..-1; any
 * other non-zero value is the driver's SGX code as a 32-bit quantity
 * (also for a 32-bit process).
 */
int64_t isgx_ioctl(int fd, unsigned long cmd, void *arg);

/* "SGX_INVALID_MEASUREMENT" for 4, or NULL for a code with no name. */
const char *isgx_sgx_code_name(uint32_t code);

/* "EEXIST" for EEXIST, or NULL. */
const char *isgx_errno_name(int err);

/*
 * Name a result of isgx_ioctl() in @buf (ISGX_RET_NAME_LEN bytes):
 * "success", "EEXIST", "SGX_INVALID_MEASUREMENT (4)",
 * "SGX_POWER_LOST_ENCLAVE (0xc0000002)", "SGX code 77", "errno 999".
 * Returns @buf.
 */
const char *isgx_ret_name(int64_t ret, char *buf);

#endif /* ISGX_SGX_ERROR_H */
