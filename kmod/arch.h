/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: hardware-defined SGX1 structures and constants, and nothing else.
 *
 * Everything here is fixed by the architecture (see encls-spec.md §1-§2):
 * ENCLS leaf numbers, return codes, page types, attribute bits and the
 * layouts of SECS, TCS, SECINFO, PAGEINFO, PCMD, SIGSTRUCT and EINITTOKEN.
 * Every structure carries a static_assert on its size.
 *
 * The constants use the SDM names (SGX_*), like the kernel's own
 * <asm/sgx.h>; the two headers must not be included together.
 */
#ifndef _ISGX_ARCH_H
#define _ISGX_ARCH_H

#ifdef _ASM_X86_SGX_H
#error "this header and <asm/sgx.h> define the same SGX_* names"
#endif

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

/* ENCLS leaf numbers (EAX), spec §1.1. */
enum isgx_encls_leaf {
	ECREATE	= 0x00,
	EADD	= 0x01,
	EINIT	= 0x02,
	EREMOVE	= 0x03,
	EDBGRD	= 0x04,
	EDBGWR	= 0x05,
	EEXTEND	= 0x06,
	ELDB	= 0x07,
	ELDU	= 0x08,
	EBLOCK	= 0x09,
	EPA	= 0x0A,
	EWB	= 0x0B,
	ETRACK	= 0x0C,
	EAUG	= 0x0D,
	EMODPR	= 0x0E,
	EMODT	= 0x0F,
};

/* Linux encoding of a fault taken by ENCLS: flag | trap number. */
#define SGX_ENCLS_FAULT_FLAG	0x40000000
#define ISGX_TRAP_GP		13
#define ISGX_TRAP_PF		14

/* ENCLS return codes, spec §1.3 (SDM Table 41-3). */
enum isgx_return_code {
	SGX_SUCCESS			= 0,
	SGX_INVALID_SIG_STRUCT		= 1,
	SGX_INVALID_ATTRIBUTE		= 2,
	SGX_BLKSTATE			= 3,
	SGX_INVALID_MEASUREMENT		= 4,
	SGX_NOTBLOCKABLE		= 5,
	SGX_PG_INVLD			= 6,
	SGX_EPC_PAGE_CONFLICT		= 7,
	SGX_INVALID_SIGNATURE		= 8,
	SGX_MAC_COMPARE_FAIL		= 9,
	SGX_PAGE_NOT_BLOCKED		= 10,
	SGX_NOT_TRACKED			= 11,
	SGX_VA_SLOT_OCCUPIED		= 12,
	SGX_CHILD_PRESENT		= 13,
	SGX_ENCLAVE_ACT			= 14,
	SGX_ENTRYEPOCH_LOCKED		= 15,
	SGX_INVALID_EINITTOKEN		= 16,
	SGX_PREV_TRK_INCMPL		= 17,
	SGX_PG_IS_SECS			= 18,
	SGX_PAGE_ATTRIBUTES_MISMATCH	= 19,
	SGX_PAGE_NOT_MODIFIABLE		= 20,
	SGX_PAGE_NOT_DEBUGGABLE		= 21,
	SGX_INVALID_COUNTER		= 25,
	SGX_PG_NONEPC			= 26,
	SGX_TRACK_NOT_REQUIRED		= 27,
	SGX_INVALID_CPUSVN		= 32,
	SGX_INVALID_ISVSVN		= 64,
	SGX_UNMASKED_EVENT		= 128,
	SGX_INVALID_KEYNAME		= 256,
};

/* EPCM.PT and SECINFO.FLAGS[15:8], spec §1.2. */
enum isgx_page_type {
	SGX_PT_SECS	= 0,
	SGX_PT_TCS	= 1,
	SGX_PT_REG	= 2,
	SGX_PT_VA	= 3,
	SGX_PT_TRIM	= 4,
};

/* SECINFO.FLAGS bits, spec §2.6. */
#define SGX_SECINFO_R			BIT_ULL(0)
#define SGX_SECINFO_W			BIT_ULL(1)
#define SGX_SECINFO_X			BIT_ULL(2)
#define SGX_SECINFO_PENDING		BIT_ULL(3)
#define SGX_SECINFO_MODIFIED		BIT_ULL(4)
#define SGX_SECINFO_PR			BIT_ULL(5)
#define SGX_SECINFO_PERM_MASK		GENMASK_ULL(2, 0)
#define SGX_SECINFO_STATE_MASK		GENMASK_ULL(5, 3)
#define SGX_SECINFO_PT_SHIFT		8
#define SGX_SECINFO_PT_MASK		GENMASK_ULL(15, 8)
#define SGX_SECINFO_RESERVED_MASK	(GENMASK_ULL(7, 6) | GENMASK_ULL(63, 16))

/* ATTRIBUTES.FLAGS bits, spec §2.2. */
#define SGX_ATTR_INIT			BIT_ULL(0)
#define SGX_ATTR_DEBUG			BIT_ULL(1)
#define SGX_ATTR_MODE64BIT		BIT_ULL(2)
#define SGX_ATTR_PROVISIONKEY		BIT_ULL(4)
#define SGX_ATTR_EINITTOKENKEY		BIT_ULL(5)
#define SGX_ATTR_CET			BIT_ULL(6)
#define SGX_ATTR_KSS			BIT_ULL(7)
#define SGX_ATTR_RESERVED_MASK		(BIT_ULL(3) | GENMASK_ULL(63, 8))

/* MISCSELECT bits. */
#define SGX_MISC_EXINFO			BIT(0)

#define SGX_SSA_GPRS_SIZE		184
#define SGX_SSA_MISC_EXINFO_SIZE	16

#define SGX_PAGE_SIZE			4096
#define SGX_CHUNK_SIZE			256	/* EEXTEND granule */
#define SGX_VA_SLOT_SIZE		8
#define SGX_VA_SLOT_COUNT		(SGX_PAGE_SIZE / SGX_VA_SLOT_SIZE)
#define SGX_MODULUS_SIZE		384
#define SGX_HASH_SIZE			32

/* Alignments that ENCLS checks (#GP when violated), spec §2. */
#define SGX_PAGEINFO_ALIGN		32
#define SGX_SECINFO_ALIGN		64
#define SGX_PCMD_ALIGN			128
#define SGX_EINITTOKEN_ALIGN		512

/* IA32_SGXLEPUBKEYHASH0..3 and IA32_FEATURE_CONTROL bits, spec §5.4. */
#define MSR_ISGX_LEPUBKEYHASH0		0x8C
#define ISGX_FEAT_CTL_LOCKED		BIT_ULL(0)
#define ISGX_FEAT_CTL_SGX_LC		BIT_ULL(17)
#define ISGX_FEAT_CTL_SGX_ENABLED	BIT_ULL(18)

/* CPUID leaf 12H. */
#define ISGX_CPUID			0x12
#define ISGX_CPUID_EPC			2	/* first EPC section sub-leaf */
#define ISGX_CPUID_EPC_INVALID		0x0
#define ISGX_CPUID_EPC_SECTION		0x1
#define ISGX_CPUID_EPC_MASK		GENMASK(3, 0)
#define ISGX_CPUID_SGX1			BIT(0)

/**
 * struct isgx_secs - SGX Enclave Control Structure, spec §2.1
 * @size:		enclave size in bytes (power of two, >= 8192)
 * @base:		base linear address, naturally aligned to @size
 * @ssa_frame_size:	SSA frame size in pages
 * @miscselect:		MISCSELECT
 * @reserved1:		must be zero
 * @attributes:		ATTRIBUTES.FLAGS
 * @xfrm:		ATTRIBUTES.XFRM
 * @mrenclave:		measurement
 * @reserved2:		must be zero
 * @mrsigner:		SHA-256 of the signer's modulus (written by EINIT)
 * @reserved3:		must be zero
 * @config_id:		KSS only
 * @isv_prod_id:	set by EINIT
 * @isv_svn:		set by EINIT
 * @config_svn:		KSS only
 * @reserved4:		must be zero; holds processor-private state
 */
struct isgx_secs {
	u64 size;
	u64 base;
	u32 ssa_frame_size;
	u32 miscselect;
	u8  reserved1[24];
	u64 attributes;
	u64 xfrm;
	u8  mrenclave[32];
	u8  reserved2[32];
	u8  mrsigner[32];
	u8  reserved3[32];
	u8  config_id[64];
	u16 isv_prod_id;
	u16 isv_svn;
	u16 config_svn;
	u8  reserved4[3834];
} __packed;
static_assert(sizeof(struct isgx_secs) == 4096);

#define SGX_TCS_DBGOPTIN		BIT_ULL(0)
#define SGX_TCS_RESERVED_OFFSET		72

/**
 * struct isgx_tcs - Thread Control Structure, spec §2.3
 * @state:		busy flag (hardware)
 * @flags:		bit 0 DBGOPTIN
 * @ssa_offset:		OSSA
 * @ssa_index:		CSSA
 * @nr_ssa_frames:	NSSA
 * @entry_offset:	OENTRY
 * @exit_addr:		AEP
 * @fs_offset:		OFSBASGX
 * @gs_offset:		OGSBASGX
 * @fs_limit:		32-bit enclaves only
 * @gs_limit:		32-bit enclaves only
 * @reserved:		must be zero at EADD
 */
struct isgx_tcs {
	u64 state;
	u64 flags;
	u64 ssa_offset;
	u32 ssa_index;
	u32 nr_ssa_frames;
	u64 entry_offset;
	u64 exit_addr;
	u64 fs_offset;
	u64 gs_offset;
	u32 fs_limit;
	u32 gs_limit;
	u8  reserved[4024];
} __packed;
static_assert(sizeof(struct isgx_tcs) == 4096);

/**
 * struct isgx_pageinfo - operand of ECREATE, EADD, EWB, ELDB, ELDU, spec §2.5
 * @addr:	LINADDR: enclave linear address of the page
 * @contents:	SRCPGE: source or destination of the page contents
 * @metadata:	SECINFO (ECREATE, EADD) or PCMD (EWB, ELDB, ELDU)
 * @secs:	the SECS EPC page (EADD, ELDB/ELDU of children)
 */
struct isgx_pageinfo {
	u64 addr;
	u64 contents;
	u64 metadata;
	u64 secs;
} __packed __aligned(32);
static_assert(sizeof(struct isgx_pageinfo) == 32);

/**
 * struct isgx_secinfo - security attributes of a page, spec §2.6
 * @flags:	R/W/X, state bits and PAGE_TYPE
 * @reserved:	must be zero
 */
struct isgx_secinfo {
	u64 flags;
	u8  reserved[56];
} __packed __aligned(64);
static_assert(sizeof(struct isgx_secinfo) == 64);

/**
 * struct isgx_pcmd - Paging Crypto MetaData, spec §2.7
 * @secinfo:	page type and permissions of the evicted page (MACed)
 * @enclave_id:	EID of the owner; informational, not MACed
 * @reserved:	zero when written by EWB; MACed
 * @mac:	AES-GCM tag
 */
struct isgx_pcmd {
	struct isgx_secinfo secinfo;
	u64 enclave_id;
	u8  reserved[40];
	u8  mac[16];
} __packed __aligned(128);
static_assert(sizeof(struct isgx_pcmd) == 128);

#define SGX_SIGSTRUCT_HEADER_SIZE	16

/**
 * struct isgx_sigstruct - enclave signature structure, spec §2.8
 * @header:		fixed bytes 06 00 00 00 E1 00 00 00 00 00 01 00 00 00 00 00
 * @vendor:		0 or 0x8086
 * @date:		yyyymmdd, not checked
 * @header2:		fixed bytes 01 01 00 00 60 00 00 00 60 00 00 00 01 00 00 00
 * @swdefined:		free
 * @reserved1:		must be zero
 * @modulus:		RSA-3072 modulus, little-endian
 * @exponent:		must be 3
 * @signature:		little-endian
 * @miscselect:		expected MISCSELECT
 * @miscmask:		MISCSELECT mask
 * @reserved2:		must be zero
 * @isv_family_id:	KSS only, must be zero otherwise
 * @attributes:		expected ATTRIBUTES.FLAGS
 * @xfrm:		expected ATTRIBUTES.XFRM
 * @attributes_mask:	mask for @attributes
 * @xfrm_mask:		mask for @xfrm
 * @enclave_hash:	expected MRENCLAVE
 * @reserved3:		must be zero
 * @isv_ext_prod_id:	KSS only, must be zero otherwise
 * @isv_prod_id:	product id
 * @isv_svn:		security version
 * @reserved4:		must be zero
 * @q1:			floor(S^2 / N), little-endian
 * @q2:			floor((S^3 - q1 * S * N) / N), little-endian
 */
struct isgx_sigstruct {
	u8  header[16];
	u32 vendor;
	u32 date;
	u8  header2[16];
	u32 swdefined;
	u8  reserved1[84];
	u8  modulus[SGX_MODULUS_SIZE];
	u32 exponent;
	u8  signature[SGX_MODULUS_SIZE];
	u32 miscselect;
	u32 miscmask;
	u8  reserved2[4];
	u8  isv_family_id[16];
	u64 attributes;
	u64 xfrm;
	u64 attributes_mask;
	u64 xfrm_mask;
	u8  enclave_hash[32];
	u8  reserved3[16];
	u8  isv_ext_prod_id[16];
	u16 isv_prod_id;
	u16 isv_svn;
	u8  reserved4[12];
	u8  q1[SGX_MODULUS_SIZE];
	u8  q2[SGX_MODULUS_SIZE];
} __packed;
static_assert(sizeof(struct isgx_sigstruct) == 1808);

/* The signed message is bytes 0..127 followed by bytes 900..1027. */
#define SGX_SIGSTRUCT_SIGNED1_OFFSET	0
#define SGX_SIGSTRUCT_SIGNED1_SIZE	128
#define SGX_SIGSTRUCT_SIGNED2_OFFSET	900
#define SGX_SIGSTRUCT_SIGNED2_SIZE	128

#define SGX_EINITTOKEN_VALID		BIT(0)

/**
 * struct isgx_einittoken - launch token, spec §2.9 (EINIT wants it 512-byte aligned)
 * @valid:			bit 0 VALID
 * @reserved1:			must be zero
 * @attributes:			ATTRIBUTES.FLAGS of the enclave
 * @xfrm:			ATTRIBUTES.XFRM of the enclave
 * @mrenclave:			MRENCLAVE of the enclave
 * @reserved2:			must be zero
 * @mrsigner:			MRSIGNER of the enclave
 * @reserved3:			must be zero
 * @cpusvn_le:			CPUSVN of the launch enclave
 * @isv_prod_id_le:		ISVPRODID of the launch enclave
 * @isv_svn_le:			ISVSVN of the launch enclave
 * @reserved4:			must be zero
 * @masked_miscselect_le:	MISCSELECT of the launch enclave, masked
 * @masked_attributes_le:	ATTRIBUTES.FLAGS of the launch enclave, masked
 * @masked_xfrm_le:		ATTRIBUTES.XFRM of the launch enclave, masked
 * @key_id:			key derivation nonce
 * @mac:			AES-CMAC over bytes 0..191 with the launch key
 */
struct isgx_einittoken {
	u32 valid;
	u8  reserved1[44];
	u64 attributes;
	u64 xfrm;
	u8  mrenclave[32];
	u8  reserved2[32];
	u8  mrsigner[32];
	u8  reserved3[32];
	u8  cpusvn_le[16];
	u16 isv_prod_id_le;
	u16 isv_svn_le;
	u8  reserved4[24];
	u32 masked_miscselect_le;
	u64 masked_attributes_le;
	u64 masked_xfrm_le;
	u8  key_id[32];
	u8  mac[16];
} __packed;
static_assert(sizeof(struct isgx_einittoken) == 304);

static_assert(offsetof(struct isgx_secs, attributes) == 48);
static_assert(offsetof(struct isgx_secs, mrsigner) == 128);
static_assert(offsetof(struct isgx_secs, config_id) == 192);
static_assert(offsetof(struct isgx_secs, isv_prod_id) == 256);
static_assert(offsetof(struct isgx_secs, reserved4) == 262);
static_assert(offsetof(struct isgx_sigstruct, modulus) == 128);
static_assert(offsetof(struct isgx_sigstruct, exponent) == 512);
static_assert(offsetof(struct isgx_sigstruct, miscselect) == 900);
static_assert(offsetof(struct isgx_sigstruct, isv_family_id) == 912);
static_assert(offsetof(struct isgx_sigstruct, attributes) == 928);
static_assert(offsetof(struct isgx_sigstruct, enclave_hash) == 960);
static_assert(offsetof(struct isgx_sigstruct, isv_ext_prod_id) == 1008);
static_assert(offsetof(struct isgx_sigstruct, isv_prod_id) == 1024);
static_assert(offsetof(struct isgx_sigstruct, q1) == 1040);
static_assert(offsetof(struct isgx_sigstruct, q2) == 1424);
static_assert(offsetof(struct isgx_einittoken, cpusvn_le) == 192);
static_assert(offsetof(struct isgx_einittoken, masked_miscselect_le) == 236);
static_assert(offsetof(struct isgx_einittoken, key_id) == 256);
static_assert(offsetof(struct isgx_pcmd, enclave_id) == 64);
static_assert(offsetof(struct isgx_pcmd, mac) == 112);

#endif /* _ISGX_ARCH_H */
