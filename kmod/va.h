/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: the Version Array pool. */
#ifndef _ISGX_VA_H
#define _ISGX_VA_H

#include <linux/types.h>

struct isgx_va_page;

/**
 * struct isgx_va_slot - one 8-byte VA slot holding an evicted page's version
 * @page:	the VA page, NULL when no slot is held
 * @index:	slot number in the page
 * @pinned:	its VA page must stay resident: the slot is new (until the
 *		EWB that fills it is done) or pinned for an ELDU
 */
struct isgx_va_slot {
	struct isgx_va_page *page;
	unsigned int index;
	bool pinned;
};

int isgx_va_slot_get(struct isgx_va_slot *slot);
void isgx_va_slot_put(struct isgx_va_slot *slot);
int isgx_va_slot_pin(struct isgx_va_slot *slot);
void isgx_va_slot_unpin(struct isgx_va_slot *slot);
void isgx_va_reclaim(void);
void *isgx_va_slot_addr(const struct isgx_va_slot *slot);
unsigned long isgx_va_nr_pages(void);
void isgx_va_exit(void);

#endif /* _ISGX_VA_H */
