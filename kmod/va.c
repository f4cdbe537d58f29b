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
 *
 * When more than va_max_pages VA pages are resident, kisgxswapd evicts
 * full ones (isgx_va_reclaim()): EWB seals a VA page like any other, its
 * own version going into a slot of another VA page, and its contents
 * into a shmem file of the pool.  A full page only loses slots (its pages
 * come back), so it is a cold one.  ELDU of a page whose version is in an
 * evicted VA page loads that VA page first (isgx_va_slot_pin()), from the
 * pages the allocator keeps in reserve for the pool.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "encls.h"
#include "epc.h"
#include "pager.h"
#include "stats.h"
#include "trace.h"
#include "va.h"

static unsigned int va_max_pages;
module_param(va_max_pages, uint, 0644);
MODULE_PARM_DESC(va_max_pages, "VA pages kept in the EPC before full ones are evicted (0: EPC/16, at least 4)");

/**
 * struct isgx_va_page - a VA page of the pool
 * @epc_page:	the EPC page holding the 512 slots
 * @used:	slots in use; isgx_va_lock
 * @nr_used:	bits set in @used; isgx_va_lock
 * @list:	isgx_va_list entry while resident, else isgx_va_evicted;
 *		isgx_va_lock
 * @power_gen:	isgx_emu_power_gen() at EPA; a page from before a power loss
 *		is gone from the EPC and hands out no more slots
 * @nr_pinned:	ELDUs in flight with a slot of it; isgx_va_lock
 * @busy:	being evicted or loaded; isgx_va_lock (waited on with
 *		wait_var_event())
 * @id:		its place in the pool's backing file while evicted, else -1
 * @own:	the slot holding its version while evicted
 * @nr_versions: slots holding versions of evicted VA pages; such a page
 *		is never evicted, so loading a VA page never needs another
 *		loaded first; isgx_va_lock
 *
 * @epc_page is NULL while the page is evicted; isgx_va_lock.
 */
struct isgx_va_page {
	struct isgx_epc_page *epc_page;
	DECLARE_BITMAP(used, SGX_VA_SLOT_COUNT);
	unsigned int nr_used;
	struct list_head list;
	u64 power_gen;
	unsigned int nr_pinned;
	bool busy;
	int id;
	struct isgx_va_slot own;
	unsigned int nr_versions;
};

static u64 isgx_va_power_gen(void)
{
	return isgx_encls_hw ? 0 : isgx_emu_power_gen();
}

/* Can @va give a slot: resident, not full, not lost in a power loss. */
static bool isgx_va_page_usable(struct isgx_va_page *va)
{
	return va->epc_page && !va->busy && va->nr_used < SGX_VA_SLOT_COUNT &&
	       va->power_gen == isgx_va_power_gen();
}

/* Resident pages with a free slot first, full ones after them. */
static LIST_HEAD(isgx_va_list);
static LIST_HEAD(isgx_va_evicted);
static DEFINE_MUTEX(isgx_va_lock);
static unsigned long isgx_va_pages;	/* all of them; isgx_va_lock */
static unsigned long isgx_va_resident;	/* isgx_va_lock */

/* The pool's backing file: evicted VA page id at page 2 * id, its PCMD after. */
static struct file *isgx_va_backing;	/* made once, under isgx_va_lock */
static DEFINE_IDA(isgx_va_ids);

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
	if (ENCLS_WARN(ret, "EPA")) {
		isgx_epc_free(epc);
		kfree(va);
		return ERR_PTR(-EIO);
	}
	va->epc_page = epc;
	va->power_gen = isgx_va_power_gen();
	va->id = -1;
	return va;
}

/**
 * isgx_va_slot_get() - take a free VA slot, making a VA page if needed
 * @slot:	filled in on success, pinned: isgx_va_slot_unpin() once the
 *		EWB that fills it is done
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
		isgx_va_resident++;
	}
	slot->page = va;
	slot->index = find_first_zero_bit(va->used, SGX_VA_SLOT_COUNT);
	slot->pinned = true;
	__set_bit(slot->index, va->used);
	va->nr_used++;
	va->nr_pinned++;
	if (!isgx_va_page_usable(va))
		list_move_tail(&va->list, &isgx_va_list);
	mutex_unlock(&isgx_va_lock);
	return 0;
}

/*
 * The sealed copy of evicted VA page @id is spent (loaded) or garbage
 * (the page is freed): free its backing pages, then the id.
 */
static void isgx_va_backing_free(int id)
{
	shmem_truncate_range(file_inode(isgx_va_backing), (loff_t)(2 * id) << PAGE_SHIFT,
			     ((loff_t)(2 * id + 2) << PAGE_SHIFT) - 1);
	ida_free(&isgx_va_ids, id);
}

/* @va is off every list and has no slot in use: let it go. */
static void isgx_va_page_free(struct isgx_va_page *va)
{
	if (va->epc_page)
		isgx_epc_free(va->epc_page);
	/* Evicted: its sealed copy is garbage now, only its version goes. */
	if (va->own.page) {
		mutex_lock(&isgx_va_lock);
		va->own.page->nr_versions--;
		mutex_unlock(&isgx_va_lock);
	}
	isgx_va_slot_put(&va->own);
	if (va->id >= 0)
		isgx_va_backing_free(va->id);
	kfree(va);
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
	if (slot->pinned)
		va->nr_pinned--;
	slot->pinned = false;
	__clear_bit(slot->index, va->used);
	/* A busy page is freed by whoever made it busy, when it is done. */
	empty = --va->nr_used == 0 && !va->busy && !va->nr_pinned;
	if (empty) {
		list_del(&va->list);
		isgx_va_pages--;
		if (va->epc_page)
			isgx_va_resident--;
	} else if (isgx_va_page_usable(va)) {
		list_move(&va->list, &isgx_va_list);
	}
	mutex_unlock(&isgx_va_lock);
	slot->page = NULL;
	if (empty)
		isgx_va_page_free(va);
}

/* The backing pages of evicted VA page @id, made on first use. */
static int isgx_va_backing_get(int id, struct isgx_backing *b)
{

	mutex_lock(&isgx_va_lock);
	if (!isgx_va_backing) {
		loff_t size = (loff_t)(2 * isgx_epc_nr_total() + 2) << PAGE_SHIFT;
		struct file *f = shmem_file_setup("isgx-va-backing", size, VM_NORESERVE);

		if (IS_ERR(f)) {
			mutex_unlock(&isgx_va_lock);
			return PTR_ERR(f);
		}
		isgx_va_backing = f;
	}
	mutex_unlock(&isgx_va_lock);
	return isgx_backing_read(isgx_va_backing, 2 * id, (loff_t)(2 * id + 1) << PAGE_SHIFT, b);
}

/* EWB of a full VA page; @va is busy, so nobody else touches it. */
static int isgx_va_page_evict(struct isgx_va_page *va)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN) = {};
	struct isgx_va_slot own = {};
	struct isgx_epc_page *epc;
	struct isgx_backing b;
	int id, ret;

	id = ida_alloc_max(&isgx_va_ids, isgx_epc_nr_total(), GFP_KERNEL);
	if (id < 0)
		return id;
	/* Another page's slot: this one is busy, so not usable. */
	ret = isgx_va_slot_get(&own);
	if (ret)
		goto err_id;
	ret = isgx_va_backing_get(id, &b);
	if (ret)
		goto err_slot;
	pginfo.contents = (unsigned long)page_address(b.contents);
	pginfo.metadata = (unsigned long)&pcmd;
	ret = __ewb(&pginfo, va->epc_page->va, isgx_va_slot_addr(&own));
	trace_isgx_ewb(0, ret, 0);
	if (ret && ret != SGX_VA_SLOT_OCCUPIED) {
		isgx_stat_inc(nr_ewb_failed);
		isgx_backing_put(&b, false);
		ret = -EIO;
		goto err_slot;
	}
	memcpy(page_address(b.pcmd), &pcmd, sizeof(pcmd));
	isgx_backing_put(&b, true);
	isgx_va_slot_unpin(&own);
	epc = va->epc_page;
	mutex_lock(&isgx_va_lock);
	va->epc_page = NULL;
	/* Its version's page is never evicted while it holds one: depth 1. */
	own.page->nr_versions++;
	mutex_unlock(&isgx_va_lock);
	isgx_epc_release_evicted(epc);
	va->own = own;
	va->id = id;
	isgx_stat_inc(nr_va_evicted);
	return 0;

err_slot:
	isgx_va_slot_put(&own);
err_id:
	ida_free(&isgx_va_ids, id);
	return ret;
}

/* ELDU of an evicted VA page; @va is busy, so nobody else touches it. */
static int isgx_va_page_load(struct isgx_va_page *va)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN);
	struct isgx_epc_page *epc;
	struct isgx_backing b;
	int ret;

	/* The reserve the allocator keeps for the pool: never reclaim here. */
	epc = __isgx_epc_alloc(va, 0);
	if (IS_ERR(epc))
		return -EAGAIN;
	ret = isgx_va_backing_get(va->id, &b);
	if (ret)
		goto err_epc;
	/* Its version's page is resident: it holds one (nr_versions). */
	ret = isgx_va_slot_pin(&va->own);
	if (ret) {
		isgx_backing_put(&b, false);
		goto err_epc;
	}
	memcpy(&pcmd, page_address(b.pcmd), sizeof(pcmd));
	pginfo.contents = (unsigned long)page_address(b.contents);
	pginfo.metadata = (unsigned long)&pcmd;
	ret = __eldu(&pginfo, epc->va, isgx_va_slot_addr(&va->own));
	isgx_va_slot_unpin(&va->own);
	isgx_backing_put(&b, false);
	trace_isgx_eldu(0, ret);
	if (ret) {
		isgx_stat_inc(nr_eldu_failed);
		ret = -EIO;
		goto err_epc;
	}
	mutex_lock(&isgx_va_lock);
	va->epc_page = epc;
	va->own.page->nr_versions--;
	mutex_unlock(&isgx_va_lock);
	isgx_va_slot_put(&va->own);
	isgx_va_backing_free(va->id);
	va->id = -1;
	isgx_stat_inc(nr_va_loaded);
	return 0;

err_epc:
	isgx_epc_release_evicted(epc);
	return ret;
}

/*
 * @va is no longer busy: put it where it belongs, and free it if its last
 * slot went meanwhile.  isgx_va_lock held; returns true when the caller
 * must isgx_va_page_free() it after unlocking.
 */
static bool isgx_va_page_settle(struct isgx_va_page *va)
{
	va->busy = false;
	if (!va->nr_used && !va->nr_pinned) {
		list_del(&va->list);
		isgx_va_pages--;
		if (va->epc_page)
			isgx_va_resident--;
		return true;
	}
	if (!va->epc_page)
		list_move(&va->list, &isgx_va_evicted);
	else if (isgx_va_page_usable(va))
		list_move(&va->list, &isgx_va_list);
	else
		list_move_tail(&va->list, &isgx_va_list);
	return false;
}

static void isgx_va_page_wake(struct isgx_va_page *va, bool free)
{
	/* Pairs with the waiter's check after it queued itself. */
	smp_mb();
	wake_up_var(va);
	if (free)
		isgx_va_page_free(va);
}

/**
 * isgx_va_slot_pin() - make the VA page of @slot resident for an ELDU
 * @slot:	a held slot
 *
 * An evicted VA page is loaded first, into a page of the reserve the
 * allocator keeps for the pool.
 *
 * Context: process context, may sleep; never reclaims, so callers may
 * hold enclave locks.
 * Return: 0 (then isgx_va_slot_unpin() after the ELDU), -EAGAIN when no
 * EPC page was spare, -EIO or a shmem error.
 */
int isgx_va_slot_pin(struct isgx_va_slot *slot)
{
	struct isgx_va_page *va = slot->page;
	bool free;
	int ret;

	mutex_lock(&isgx_va_lock);
	while (va->busy) {
		mutex_unlock(&isgx_va_lock);
		wait_var_event(va, !READ_ONCE(va->busy));
		mutex_lock(&isgx_va_lock);
	}
	va->nr_pinned++;
	slot->pinned = true;
	if (va->epc_page) {
		mutex_unlock(&isgx_va_lock);
		return 0;
	}
	va->busy = true;
	mutex_unlock(&isgx_va_lock);
	ret = isgx_va_page_load(va);
	mutex_lock(&isgx_va_lock);
	if (ret) {
		va->nr_pinned--;
		slot->pinned = false;
	} else {
		isgx_va_resident++;
	}
	free = isgx_va_page_settle(va);
	mutex_unlock(&isgx_va_lock);
	isgx_va_page_wake(va, free);
	return ret;
}

/**
 * isgx_va_slot_unpin() - the ELDU that pinned @slot, or the EWB that
 * filled a new slot, is done
 * @slot:	a slot from isgx_va_slot_pin() or isgx_va_slot_get()
 *
 * Context: process context, may sleep; takes isgx_va_lock.
 */
void isgx_va_slot_unpin(struct isgx_va_slot *slot)
{
	mutex_lock(&isgx_va_lock);
	if (slot->pinned)
		slot->page->nr_pinned--;
	slot->pinned = false;
	mutex_unlock(&isgx_va_lock);
}

/**
 * isgx_va_reclaim() - evict full VA pages while too many are resident
 *
 * Only kisgxswapd calls it, so only one eviction is ever in flight.
 *
 * Context: process context, may sleep; no enclave lock held.
 */
void isgx_va_reclaim(void)
{
	unsigned long max = READ_ONCE(va_max_pages);
	struct isgx_va_page *va;
	bool free;
	int ret;

	if (!max)
		max = max(4UL, isgx_epc_nr_total() / 16);
	for (;;) {
		struct isgx_va_page *found = NULL;

		mutex_lock(&isgx_va_lock);
		if (isgx_va_resident > max) {
			/* The full ones are at the tail; few pages: scan them all. */
			list_for_each_entry_reverse(va, &isgx_va_list, list) {
				if (va->nr_used == SGX_VA_SLOT_COUNT && !va->busy &&
				    !va->nr_pinned && !va->nr_versions &&
				    va->power_gen == isgx_va_power_gen()) {
					found = va;
					break;
				}
			}
		}
		if (found)
			found->busy = true;
		mutex_unlock(&isgx_va_lock);
		if (!found)
			return;
		ret = isgx_va_page_evict(found);
		mutex_lock(&isgx_va_lock);
		if (!ret)
			isgx_va_resident--;
		free = isgx_va_page_settle(found);
		mutex_unlock(&isgx_va_lock);
		isgx_va_page_wake(found, free);
		if (ret)
			return;
	}
}

/**
 * isgx_va_slot_addr() - kernel address of a slot, the RDX of EWB/ELDU
 * @slot:	a held slot in a resident VA page: a new one, or a pinned one
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
	WARN_ONCE(!list_empty(&isgx_va_list) || !list_empty(&isgx_va_evicted),
		  "VA pages left at exit\n");
	if (isgx_va_backing)
		fput(isgx_va_backing);
}
