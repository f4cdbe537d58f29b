/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sgx_arch.h - the hardware-defined SGX1 layouts that user space builds:
 * SECS, TCS, SECINFO, SIGSTRUCT and EINITTOKEN (encls-spec.md §2).  The kernel has its
 * own copy in kmod/arch.h; both are checked against the spec's sizes and
 * offsets, not against each other.
 */
#ifndef ISGX_SGX_ARCH_H
#define ISGX_SGX_ARCH_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#define SGX_PAGE_SIZE		4096
#define SGX_HASH_SIZE		32
#define SGX_MODULUS_SIZE	384

/* SECINFO.FLAGS */
#define SGX_SECINFO_R		0x001ULL
#define SGX_SECINFO_W		0x002ULL
#define SGX_SECINFO_X		0x004ULL
#define SGX_SECINFO_SECS	0x000ULL
#define SGX_SECINFO_TCS		0x100ULL
#define SGX_SECINFO_REG		0x200ULL

/* ATTRIBUTES.FLAGS */
#define SGX_ATTR_INIT		0x01ULL
#define SGX_ATTR_DEBUG		0x02ULL
#define SGX_ATTR_MODE64BIT	0x04ULL
#define SGX_ATTR_PROVISIONKEY	0x10ULL
#define SGX_ATTR_EINITTOKENKEY	0x20ULL
#define SGX_ATTR_KSS		0x80ULL
/* Bit 3 and bits 63:8 are reserved (spec §2.2). */
#define SGX_ATTR_RESERVED_MASK	0xffffffffffffff08ULL

/* TCS.FLAGS: the only defined bit; EADD clears it, EDBGWR may set it. */
#define SGX_TCS_DBGOPTIN	0x1ULL
/* The bytes of a TCS that the debugger may read (spec §4.6, seed driver). */
#define SGX_TCS_DEBUG_READ_SIZE	72

struct sgx_secs {
	uint64_t size;
	uint64_t base;
	uint32_t ssa_frame_size;
	uint32_t miscselect;
	uint8_t reserved1[24];
	uint64_t attributes;
	uint64_t xfrm;
	uint8_t mrenclave[32];
	uint8_t reserved2[32];
	uint8_t mrsigner[32];
	uint8_t reserved3[32];
	uint8_t config_id[64];
	uint16_t isv_prod_id;
	uint16_t isv_svn;
	uint16_t config_svn;
	uint8_t reserved4[3834];
};
static_assert(sizeof(struct sgx_secs) == 4096, "SECS is 4096 bytes");
static_assert(offsetof(struct sgx_secs, attributes) == 48, "SECS.ATTRIBUTES at 48");
static_assert(offsetof(struct sgx_secs, isv_prod_id) == 256, "SECS.ISVPRODID at 256");

struct sgx_tcs {
	uint64_t state;
	uint64_t flags;
	uint64_t ossa;
	uint32_t cssa;
	uint32_t nssa;
	uint64_t oentry;
	uint64_t aep;
	uint64_t ofsbase;
	uint64_t ogsbase;
	uint32_t fslimit;
	uint32_t gslimit;
	uint8_t reserved[4024];
};
static_assert(sizeof(struct sgx_tcs) == 4096, "TCS is 4096 bytes");
static_assert(offsetof(struct sgx_tcs, fslimit) == 64, "TCS.FSLIMIT at 64");

struct sgx_secinfo {
	uint64_t flags;
	uint8_t reserved[56];
} __attribute__((aligned(64)));
static_assert(sizeof(struct sgx_secinfo) == 64, "SECINFO is 64 bytes");

struct sgx_sigstruct {
	uint8_t header[16];
	uint32_t vendor;
	uint32_t date;
	uint8_t header2[16];
	uint32_t swdefined;
	uint8_t reserved1[84];
	uint8_t modulus[SGX_MODULUS_SIZE];
	uint32_t exponent;
	uint8_t signature[SGX_MODULUS_SIZE];
	uint32_t miscselect;
	uint32_t misc_mask;
	uint8_t reserved2[4];
	uint8_t isv_family_id[16];
	uint64_t attributes;
	uint64_t xfrm;
	uint64_t attributes_mask;
	uint64_t xfrm_mask;
	uint8_t enclave_hash[32];
	uint8_t reserved3[16];
	uint8_t isv_ext_prod_id[16];
	uint16_t isv_prod_id;
	uint16_t isv_svn;
	uint8_t reserved4[12];
	uint8_t q1[SGX_MODULUS_SIZE];
	uint8_t q2[SGX_MODULUS_SIZE];
} __attribute__((packed));
static_assert(sizeof(struct sgx_sigstruct) == 1808, "SIGSTRUCT is 1808 bytes");
static_assert(offsetof(struct sgx_sigstruct, modulus) == 128, "SIGSTRUCT.MODULUS at 128");
static_assert(offsetof(struct sgx_sigstruct, miscselect) == 900, "SIGSTRUCT.MISCSELECT at 900");
static_assert(offsetof(struct sgx_sigstruct, enclave_hash) == 960, "SIGSTRUCT.ENCLAVEHASH at 960");
static_assert(offsetof(struct sgx_sigstruct, isv_svn) == 1026, "SIGSTRUCT.ISVSVN at 1026");
static_assert(offsetof(struct sgx_sigstruct, q1) == 1040, "SIGSTRUCT.Q1 at 1040");

/*
 * EINITTOKEN (spec §2.9).  Under owner launch control the driver is given
 * an all-zero token (VALID = 0): EINIT then checks MRSIGNER against the
 * launch-key hash, which the driver sets to the enclave's own signer.
 */
struct sgx_einittoken {
	uint32_t valid;
	uint8_t reserved1[44];
	uint64_t attributes;
	uint64_t xfrm;
	uint8_t mrenclave[32];
	uint8_t reserved2[32];
	uint8_t mrsigner[32];
	uint8_t reserved3[32];
	uint8_t cpusvnle[16];
	uint16_t isv_prod_id_le;
	uint16_t isv_svn_le;
	uint8_t reserved4[24];
	uint32_t masked_miscselect_le;
	uint64_t masked_attributes_le;
	uint64_t masked_xfrm_le;
	uint8_t keyid[32];
	uint8_t mac[16];
} __attribute__((packed));
static_assert(sizeof(struct sgx_einittoken) == 304, "EINITTOKEN is 304 bytes");
static_assert(offsetof(struct sgx_einittoken, attributes) == 48, "EINITTOKEN.ATTRIBUTES at 48");
static_assert(offsetof(struct sgx_einittoken, isv_svn_le) == 210, "EINITTOKEN.ISVSVNLE at 210");
static_assert(offsetof(struct sgx_einittoken, masked_attributes_le) == 240,
	      "EINITTOKEN.MASKEDATTRIBUTESLE at 240");
static_assert(offsetof(struct sgx_einittoken, mac) == 288, "EINITTOKEN.MAC at 288");

#endif /* ISGX_SGX_ARCH_H */
