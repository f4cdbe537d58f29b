// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: EPC sections, page descriptors and the free list.
 *
 * The sections come from CPUID leaf 12H, sub-leaves 2 and up, real or
 * emulated (isgx_encls_cpuid()).  With the emu backend the model already
 * holds each section at a kernel address; on hardware the section is
 * mapped here with memremap().  Every page gets a descriptor at load time
 * and lives on one free list until allocated.  Freeing a page runs
 * EREMOVE first, so a page on the free list is always invalid in the EPCM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/io.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "encls.h"
#include "epc.h"

/*
 * Hardware reports a few sections; the emulated EPC has one per 4 MiB
 * chunk that did not merge with its neighbour (up to 256, see emu/).
 */
#define ISGX_EPC_MAX_SECTIONS	256

/* Threads waiting for a free page (faults that gave their locks up). */
static DECLARE_WAIT_QUEUE_HEAD(isgx_epc_free_wq);

struct isgx_epc_section {
	phys_addr_t phys;
	unsigned long nr_pages;
	void *va;
	bool mapped;		/* va from memremap(), to undo at exit */
	struct isgx_epc_page *pages;
};

/**
 * struct isgx_epc - the EPC as the driver sees it
 * @sections:		sections found in CPUID; fixed after init
 * @nr_sections:	entries used in @sections
 * @nr_total:		pages in all sections; fixed after init
 * @lock:		protects @free_list and @nr_free
 * @free_list:		free pages (invalid in the EPCM)
 * @nr_free:		pages on @free_list; also read locklessly for stats
 * @low_water:		the fewest pages @free_list held since
 *			isgx_epc_low_water_reset(); @lock
 */
static struct isgx_epc {
	struct isgx_epc_section sections[ISGX_EPC_MAX_SECTIONS];
	unsigned int nr_sections;
	unsigned long nr_total;
	spinlock_t lock;
	struct list_head free_list;
	unsigned long nr_free;
	unsigned long low_water;
} isgx_epc;

/**
 * __isgx_epc_alloc() - take a free EPC page, never reclaiming
 * @owner:	stored in the descriptor
 * @reserve:	pages that must stay free after this allocation
 *
 * The reserve is checked under the lock, so concurrent allocations
 * cannot eat into it together.
 *
 * Context: any; takes isgx_epc.lock.
 * Return: the page, or ERR_PTR(-ENOMEM) when no page above the reserve is free.
 */
struct isgx_epc_page *__isgx_epc_alloc(void *owner, unsigned long reserve)
{
	struct isgx_epc_page *page = NULL;

	spin_lock(&isgx_epc.lock);
	if (isgx_epc.nr_free > reserve) {
		page = list_first_entry(&isgx_epc.free_list, struct isgx_epc_page, list);
		list_del_init(&page->list);
		isgx_epc.nr_free--;
	}
	isgx_epc.low_water = min(isgx_epc.low_water, isgx_epc.nr_free);
	spin_unlock(&isgx_epc.lock);
	if (!page)
		return ERR_PTR(-ENOMEM);
	page->owner = owner;
	return page;
}

/**
 * isgx_epc_free() - EREMOVE a page and return it to the free list
 * @page:	an allocated page whose children (for a SECS) are gone
 *
 * EREMOVE of a page that is already invalid (never used, or lost in a
 * power loss) succeeds, so this is safe on any allocated page.  A page
 * that EREMOVE refuses is kept off the free list: handing it out again
 * would make the next ECREATE/EADD fault.
 *
 * Context: process context, may sleep (EREMOVE in the emu backend).
 */
void isgx_epc_free(struct isgx_epc_page *page)
{
	int ret = __eremove(page->va);

	/* The page cannot be trusted to be free: leak it. */
	if (ENCLS_WARN(ret, "EREMOVE"))
		return;
	isgx_epc_release_evicted(page);
}

/**
 * isgx_epc_release_evicted() - return a page that EWB already invalidated
 * @page:	an allocated page, invalid in the EPCM
 *
 * Context: any; takes isgx_epc.lock.
 */
void isgx_epc_release_evicted(struct isgx_epc_page *page)
{
	page->owner = NULL;
	spin_lock(&isgx_epc.lock);
	list_add(&page->list, &isgx_epc.free_list);
	isgx_epc.nr_free++;
	spin_unlock(&isgx_epc.lock);
	if (wq_has_sleeper(&isgx_epc_free_wq))
		wake_up(&isgx_epc_free_wq);
}

/**
 * isgx_epc_wait_free() - sleep until more than @reserve pages are free
 * @reserve:	the threshold
 * @timeout:	in jiffies
 *
 * Context: process context, no locks held; sleeps killably.
 */
void isgx_epc_wait_free(unsigned long reserve, long timeout)
{
	wait_event_killable_timeout(isgx_epc_free_wq,
				    READ_ONCE(isgx_epc.nr_free) > reserve, timeout);
}

/**
 * isgx_epc_low_water_reset() - how low the free count went, and start again
 *
 * Context: any; takes isgx_epc.lock.
 * Return: the fewest free pages an allocation left (or found) since the
 * last call (allocations are the only way the count falls, so it is never
 * above the count; the first call may return 0).
 */
unsigned long isgx_epc_low_water_reset(void)
{
	unsigned long low;

	spin_lock(&isgx_epc.lock);
	low = isgx_epc.low_water;
	isgx_epc.low_water = isgx_epc.nr_free;
	spin_unlock(&isgx_epc.lock);
	return low;
}

/**
 * isgx_epc_nr_free() - free EPC pages now
 *
 * Context: any.
 * Return: the number of pages on the free list (a snapshot).
 */
unsigned long isgx_epc_nr_free(void)
{
	return READ_ONCE(isgx_epc.nr_free);
}

/**
 * isgx_epc_nr_total() - EPC pages in all sections
 *
 * Context: any.
 * Return: the total, fixed after isgx_epc_init().
 */
unsigned long isgx_epc_nr_total(void)
{
	return isgx_epc.nr_total;
}

static int isgx_epc_section_init(struct isgx_epc_section *s, unsigned int i)
{
	unsigned long j;

	if (isgx_encls_hw) {
		s->va = memremap(s->phys, s->nr_pages << PAGE_SHIFT, MEMREMAP_WB);
		s->mapped = true;
	} else {
		const struct isgx_emu_section *es = isgx_emu_section_get(i);

		s->va = es && es->phys == s->phys ? es->base : NULL;
	}
	if (!s->va)
		return -ENOMEM;

	s->pages = vmalloc(array_size(s->nr_pages, sizeof(*s->pages)));
	if (!s->pages)
		return -ENOMEM;
	for (j = 0; j < s->nr_pages; j++) {
		struct isgx_epc_page *page = &s->pages[j];

		page->va = s->va + (j << PAGE_SHIFT);
		page->pfn = PHYS_PFN(s->phys) + j;
		page->owner = NULL;
		list_add_tail(&page->list, &isgx_epc.free_list);
	}
	isgx_epc.nr_total += s->nr_pages;
	isgx_epc.nr_free += s->nr_pages;
	return 0;
}

static void isgx_epc_sections_free(void)
{
	unsigned int i;

	for (i = 0; i < isgx_epc.nr_sections; i++) {
		struct isgx_epc_section *s = &isgx_epc.sections[i];

		vfree(s->pages);
		if (s->mapped && s->va)
			memunmap(s->va);
	}
	memset(&isgx_epc, 0, sizeof(isgx_epc));
}

/* CPUID leaf 12H, EPC sub-leaf @i, into @r: does it describe a section? */
static bool isgx_epc_cpuid_section(unsigned int i, u32 *r)
{
	isgx_encls_cpuid(ISGX_CPUID_EPC + i, r);
	return (r[0] & ISGX_CPUID_EPC_MASK) == ISGX_CPUID_EPC_SECTION;
}

/**
 * isgx_epc_init() - find the EPC sections and put every page on the free list
 *
 * Context: module init, after the ENCLS backend is up.
 * Return: 0, -ENODEV when CPUID reports no section, -ENOMEM.
 */
int isgx_epc_init(void)
{
	unsigned int i;
	int ret;

	spin_lock_init(&isgx_epc.lock);
	INIT_LIST_HEAD(&isgx_epc.free_list);
	for (i = 0; i < ISGX_EPC_MAX_SECTIONS; i++) {
		struct isgx_epc_section *s = &isgx_epc.sections[i];
		u32 r[4];

		if (!isgx_epc_cpuid_section(i, r))
			break;
		s->phys = ((u64)(r[1] & 0xfffff) << 32) | (r[0] & 0xfffff000);
		s->nr_pages = (((u64)(r[3] & 0xfffff) << 32) | (r[2] & 0xfffff000)) >> PAGE_SHIFT;
		isgx_epc.nr_sections++;
		ret = isgx_epc_section_init(s, i);
		if (ret)
			goto err_sections;
	}
	if (i == ISGX_EPC_MAX_SECTIONS) {
		u32 r[4];

		if (isgx_epc_cpuid_section(i, r))
			pr_warn("more than %d EPC sections: only the first %d are used\n",
				ISGX_EPC_MAX_SECTIONS, ISGX_EPC_MAX_SECTIONS);
	}
	if (!isgx_epc.nr_total) {
		pr_err("no EPC section in CPUID leaf 12H\n");
		ret = -ENODEV;
		goto err_sections;
	}
	pr_info("EPC: %u section(s), %lu pages\n", isgx_epc.nr_sections, isgx_epc.nr_total);
	return 0;

err_sections:
	isgx_epc_sections_free();
	return ret;
}

/**
 * isgx_epc_exit() - forget the sections
 *
 * Context: module exit, after every enclave is gone.
 */
void isgx_epc_exit(void)
{
	WARN_ONCE(isgx_epc.nr_free != isgx_epc.nr_total,
		  "%lu EPC pages still allocated at exit\n",
		  isgx_epc.nr_total - isgx_epc.nr_free);
	isgx_epc_sections_free();
}
