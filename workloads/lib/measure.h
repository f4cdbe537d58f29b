/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measure.h - MRENCLAVE computed in user space, independently of the
 * kernel, with OpenSSL's SHA-256 over the 64-byte records of
 * encls-spec.md §5.1.
 */
#ifndef ISGX_MEASURE_H
#define ISGX_MEASURE_H

#include <stdint.h>

#include "sgx_arch.h"

struct isgx_measure {
	void *md_ctx;		/* EVP_MD_CTX */
};

/* Start with the ECREATE record.  Returns 0 or -ENOMEM. */
int isgx_measure_ecreate(struct isgx_measure *m, uint32_t ssa_frame_size, uint64_t size);
/* The EADD record of the page at @offset with SECINFO.FLAGS @flags (R/W/X
 * already cleared for a TCS, as EADD clears them). */
void isgx_measure_eadd(struct isgx_measure *m, uint64_t offset, uint64_t flags);
/* One EEXTEND: the header record and the 256 bytes at @chunk_offset. */
void isgx_measure_eextend(struct isgx_measure *m, uint64_t chunk_offset, const void *chunk);
/* The 16 EEXTENDs of a whole page. */
void isgx_measure_page(struct isgx_measure *m, uint64_t offset, const void *page);
/* Finish and free: writes the digest to @mrenclave.  Returns 0 or -EIO. */
int isgx_measure_final(struct isgx_measure *m, uint8_t mrenclave[SGX_HASH_SIZE]);

#endif /* ISGX_MEASURE_H */
