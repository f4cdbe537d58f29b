/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: the EPC pager. */
#ifndef _ISGX_PAGER_H
#define _ISGX_PAGER_H

#include <linux/types.h>

#include "epc.h"

struct isgx_encl;
struct isgx_encl_page;

struct isgx_epc_page *isgx_epc_alloc(void *owner);
struct isgx_epc_page *isgx_epc_alloc_or_wait(void *owner);
void isgx_pager_wait_free(void);
void isgx_pager_track(struct isgx_epc_page *epc);
void isgx_pager_untrack(struct isgx_epc_page *epc);
int isgx_pager_load(struct isgx_encl *encl, struct isgx_encl_page *page,
		    struct isgx_epc_page *epc);
unsigned long isgx_pager_reclaim(unsigned long nr_to_scan, bool force);
int isgx_pager_init(void);
void isgx_pager_exit(void);

#endif /* _ISGX_PAGER_H */
