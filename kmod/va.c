// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: the Version Array pool.
 *
 * Every evicted page needs one VA slot for its version.  The staging
 * driver reserved a slot per page at add time and kept VA pages per
 * enclave for the enclave's life; here one pool serves all enclaves and
 * is sized to the evicted set: a slot is taken at eviction and given back
 * when the page is loaded again, a VA page is created (EPA) only when
 * every existing one is full, and a VA page whose last slot is released
 * is removed and its EPC page freed.
 *
 * Pages with free slots are kept at the head of the list so that a slot
 * is found in O(1) and full pages are never scanned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "encls.h"
#include "epc.h"
#include "pager.h"
#include "va.h"

/**
 * struct isgx_va_page - a VA page of the pool
 * @epc_page:	the EPC page holding the 512 slots
 * @used:	slots in use; isgx_va_lock
 * @nr_used:	bits set in @used; isgx_va_lock
 * @list:	isgx_va_list entry; isgx_va_lock
 * @power_gen:	isgx_emu_power_gen() at EPA; a page from before a power loss
 *		is gone from the EPC and hands out no more slots
 */
struct isgx_va_page {
	struct isgx_epc_page *epc_page;
	DECLARE_BITMAP(used, SGX_VA_SLOT_COUNT);
	unsigned int nr_used;
	struct list_head list;
	u64 power_gen;
};

static u64 isgx_va_power_gen(void)
{
	return isgx_encls_hw ? 0 : isgx_emu_power_gen();
}

/* Can @va give a slot: not full, and not lost in a power loss. */
static bool isgx_va_page_usable(struct isgx_va_page *va)
{
	return va->nr_used < SGX_VA_SLOT_COUNT && va->power_gen == isgx_va_power_gen();
}

/* Pages with a free slot first, full ones after them. */
static LIST_HEAD(isgx_va_list);
static DEFINE_MUTEX(isgx_va_lock);
static unsigned long isgx_va_pages;	/* isgx_va_lock */

static struct isgx_va_page *isgx_va_page_new(void)
{
	struct isgx_va_page *va = kzalloc(sizeof(*va), GFP_KERNEL);
	struct isgx_epc_page *epc;
	int ret;

	if (!va)
		return ERR_PTR(-ENOMEM);
	/*
	 * Never reclaim here: the caller is a reclaim pass, and reclaiming
	 * needs VA slots.  Other allocations leave a reserve for this.
	 */
	epc = __isgx_epc_alloc(va, 0);
	if (IS_ERR(epc)) {
		kfree(va);
		return ERR_CAST(epc);
	}
	ret = __epa(epc->va);
	if (WARN_ONCE(ret, "EPA returned %#x\n", ret)) {
		isgx_epc_free(epc);
		kfree(va);
		return ERR_PTR(-EIO);
	}
	va->epc_page = epc;
	va->power_gen = isgx_va_power_gen();
	return va;
}

/**
 * isgx_va_slot_get() - take a free VA slot, making a VA page if needed
 * @slot:	filled in on success
 *
 * Context: process context, may sleep; takes isgx_va_lock.  Never
 * reclaims EPC.
 * Return: 0, or -ENOMEM when no EPC page can be had for a new VA page.
 */
int isgx_va_slot_get(struct isgx_va_slot *slot)
{
	struct isgx_va_page *va;

	mutex_lock(&isgx_va_lock);
	va = list_first_entry_or_null(&isgx_va_list, struct isgx_va_page, list);
	if (!va || !isgx_va_page_usable(va)) {
		/* A page lost in a power loss moves behind the others for good. */
		if (va && va->nr_used < SGX_VA_SLOT_COUNT)
			list_move_tail(&va->list, &isgx_va_list);
		mutex_unlock(&isgx_va_lock);
		va = isgx_va_page_new();
		if (IS_ERR(va))
			return PTR_ERR(va);
		mutex_lock(&isgx_va_lock);
		list_add(&va->list, &isgx_va_list);
		isgx_va_pages++;
	}
	slot->page = va;
	slot->index = find_first_zero_bit(va->used, SGX_VA_SLOT_COUNT);
	__set_bit(slot->index, va->used);
	va->nr_used++;
	if (!isgx_va_page_usable(va))
		list_move_tail(&va->list, &isgx_va_list);
	mutex_unlock(&isgx_va_lock);
	return 0;
}

/**
 * isgx_va_slot_put() - give a slot back; free its VA page when empty
 * @slot:	a slot from isgx_va_slot_get(), or an empty one (no-op)
 *
 * The slot's version must already be consumed (ELDU zeroes it) or be
 * worthless (the page it versioned is being dropped).
 *
 * Context: process context, may sleep (EREMOVE); takes isgx_va_lock.
 */
void isgx_va_slot_put(struct isgx_va_slot *slot)
{
	struct isgx_va_page *va = slot->page;
	bool empty;

	if (!va)
		return;
	mutex_lock(&isgx_va_lock);
	__clear_bit(slot->index, va->used);
	empty = --va->nr_used == 0;
	if (empty) {
		list_del(&va->list);
		isgx_va_pages--;
	} else if (isgx_va_page_usable(va)) {
		list_move(&va->list, &isgx_va_list);
	}
	mutex_unlock(&isgx_va_lock);
	slot->page = NULL;
	if (empty) {
		isgx_epc_free(va->epc_page);
		kfree(va);
	}
}

/**
 * isgx_va_slot_addr() - kernel address of a slot, the RDX of EWB/ELDU
 * @slot:	a held slot
 *
 * Context: any.
 * Return: the address.
 */
void *isgx_va_slot_addr(const struct isgx_va_slot *slot)
{
	return slot->page->epc_page->va + slot->index * SGX_VA_SLOT_SIZE;
}

/**
 * isgx_va_nr_pages() - VA pages in the pool now
 *
 * Context: any.
 * Return: a snapshot of the count.
 */
unsigned long isgx_va_nr_pages(void)
{
	return READ_ONCE(isgx_va_pages);
}

/**
 * isgx_va_exit() - check that the pool is empty at unload
 *
 * Context: module exit, after every enclave is gone.
 */
void isgx_va_exit(void)
{
	WARN_ONCE(!list_empty(&isgx_va_list), "VA pages left at exit\n");
}
