/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * isgx user ABI: the ioctls of the 2016 SGX staging driver on /dev/sgx.
 *
 * The numbers and meanings are the staging driver's.  The structures use
 * fixed-width fields (pointers travel as __u64) and explicit padding, so a
 * 32-bit process uses the same layout and the same ioctl numbers as a
 * 64-bit one.
 *
 * Return values: 0, a negative errno (see README "Errors"), or a positive
 * SGX code: one of the ENCLS codes below, SGX_POWER_LOST_ENCLAVE or
 * SGX_LE_ROLLBACK.
 */
#ifndef _UAPI_ISGX_H
#define _UAPI_ISGX_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SGX_MAGIC 'p'

#define SGX_IOC_ENCLAVE_CREATE \
	_IOWR(SGX_MAGIC, 0x02, struct sgx_create_param)
#define SGX_IOC_ENCLAVE_ADD_PAGE \
	_IOW(SGX_MAGIC, 0x03, struct sgx_add_param)
#define SGX_IOC_ENCLAVE_INIT \
	_IOW(SGX_MAGIC, 0x04, struct sgx_init_param)
#define SGX_IOC_ENCLAVE_DESTROY \
	_IOW(SGX_MAGIC, 0x06, struct sgx_destroy_param)

/*
 * SGX leaf return codes passed through to user space.  The kernel has them
 * as enum isgx_return_code in kmod/arch.h.
 */
#ifndef __KERNEL__
#define SGX_SUCCESS			0
#define SGX_INVALID_SIG_STRUCT		1
#define SGX_INVALID_ATTRIBUTE		2
#define SGX_BLKSTATE			3
#define SGX_INVALID_MEASUREMENT		4
#define SGX_NOTBLOCKABLE		5
#define SGX_PG_INVLD			6
#define SGX_LOCKFAIL			7
#define SGX_INVALID_SIGNATURE		8
#define SGX_MAC_COMPARE_FAIL		9
#define SGX_PAGE_NOT_BLOCKED		10
#define SGX_NOT_TRACKED			11
#define SGX_VA_SLOT_OCCUPIED		12
#define SGX_CHILD_PRESENT		13
#define SGX_ENCLAVE_ACT			14
#define SGX_ENTRYEPOCH_LOCKED		15
#define SGX_INVALID_EINITTOKEN		16
#define SGX_PREV_TRK_INCMPL		17
#define SGX_PG_IS_SECS			18
#define SGX_INVALID_CPUSVN		32
#define SGX_INVALID_ISVSVN		64
#define SGX_UNMASKED_EVENT		128
#define SGX_INVALID_KEYNAME		256
#endif

/* Driver codes of the staging driver. */
#define SGX_POWER_LOST_ENCLAVE		0xc0000002
#define SGX_LE_ROLLBACK			0xc0000003

/* SGX_IOC_ENCLAVE_ADD_PAGE flags */
#define SGX_ADD_SKIP_EEXTEND		0x1

/**
 * struct sgx_create_param - SGX_IOC_ENCLAVE_CREATE
 * @secs:	in: user address of a 4096-byte SECS
 * @addr:	out: base address of the enclave
 */
struct sgx_create_param {
	__u64 secs;
	__u64 addr;
};

/**
 * struct sgx_add_param - SGX_IOC_ENCLAVE_ADD_PAGE
 * @addr:	in: enclave address of the page (page aligned, inside the enclave)
 * @user_addr:	in: user address of the 4096 source bytes
 * @secinfo:	in: user address of a 64-byte SECINFO
 * @flags:	in: SGX_ADD_SKIP_EEXTEND or 0
 * @reserved:	must be 0
 */
struct sgx_add_param {
	__u64 addr;
	__u64 user_addr;
	__u64 secinfo;
	__u32 flags;
	__u32 reserved;
};

/**
 * struct sgx_init_param - SGX_IOC_ENCLAVE_INIT
 * @addr:	in: enclave base address
 * @sigstruct:	in: user address of a 1808-byte SIGSTRUCT
 * @einittoken:	in: user address of a 304-byte EINITTOKEN (all zero under
 *		owner launch control)
 */
struct sgx_init_param {
	__u64 addr;
	__u64 sigstruct;
	__u64 einittoken;
};

/**
 * struct sgx_destroy_param - SGX_IOC_ENCLAVE_DESTROY
 * @addr:	in: enclave base address
 */
struct sgx_destroy_param {
	__u64 addr;
};

#endif /* _UAPI_ISGX_H */
