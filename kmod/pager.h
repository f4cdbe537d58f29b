/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: the EPC pager. */
#ifndef _ISGX_PAGER_H
#define _ISGX_PAGER_H

#include <linux/types.h>

#include "epc.h"

struct isgx_encl;
struct isgx_encl_page;
struct file;
struct page;

/**
 * struct isgx_backing - the shmem pages behind one evicted enclave page
 * @contents:	its sealed contents
 * @pcmd:	the page holding its PCMD
 * @pcmd_offset: where in @pcmd
 */
struct isgx_backing {
	struct page *contents;
	struct page *pcmd;
	unsigned int pcmd_offset;
};

int isgx_backing_get(struct isgx_encl *encl, struct isgx_encl_page *page,
		     struct isgx_backing *b);
int isgx_backing_read(struct file *file, pgoff_t index, loff_t pcmd, struct isgx_backing *b);
void isgx_backing_put(struct isgx_backing *b, bool dirty);
void isgx_backing_free(struct isgx_encl *encl, struct isgx_encl_page *page);

struct isgx_epc_page *isgx_epc_alloc(void *owner);
struct isgx_epc_page *isgx_epc_alloc_or_wait(void *owner);
void isgx_pager_wait_free(void);
bool isgx_pager_fault_stalled(struct isgx_encl *encl);
void isgx_pager_fault_unstalled(struct isgx_encl *encl);
void isgx_pager_track(struct isgx_epc_page *epc);
void isgx_pager_untrack(struct isgx_epc_page *epc);
int isgx_pager_load(struct isgx_encl *encl, struct isgx_encl_page *page,
		    struct isgx_epc_page *epc, struct isgx_backing *b);
int isgx_pager_load_secs(struct isgx_encl *encl, struct isgx_epc_page *epc);
struct isgx_epc_page *isgx_epc_alloc_around(void *owner);
unsigned int isgx_pager_fault_around(void);
unsigned long isgx_pager_reclaim(unsigned long nr_to_scan, bool force);
int isgx_pager_make_room(struct isgx_encl *encl);
int isgx_pager_charge(struct isgx_encl *encl);
int isgx_pager_init(void);
void isgx_pager_exit(void);

#endif /* _ISGX_PAGER_H */
