/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: EPC sections, page descriptors and the free list.
 */
#ifndef _ISGX_EPC_H
#define _ISGX_EPC_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/types.h>

/**
 * struct isgx_epc_page - descriptor of one EPC page
 * @va:		kernel virtual address of the page (fixed at init)
 * @pfn:	page frame number, for mapping it into an enclave (fixed)
 * @list:	free list entry while free (isgx_epc.lock)
 * @owner:	the enclave page (or VA page) using it; set by the allocator's
 *		caller, cleared on free
 */
struct isgx_epc_page {
	void *va;
	unsigned long pfn;
	struct list_head list;
	void *owner;
};

int isgx_epc_init(void);
void isgx_epc_exit(void);
struct isgx_epc_page *__isgx_epc_alloc(void *owner, unsigned long reserve);
void isgx_epc_free(struct isgx_epc_page *page);
void isgx_epc_release_evicted(struct isgx_epc_page *page);
void isgx_epc_wait_free(unsigned long reserve, long timeout);
unsigned long isgx_epc_nr_free(void);
unsigned long isgx_epc_low_water_reset(void);
unsigned long isgx_epc_nr_total(void);

#endif /* _ISGX_EPC_H */
