/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: the replacement policy's core, on one process's lists (lru.c).
 * No locking and no kernel service but <linux/list.h>: the pager calls it
 * under isgx_pager.lock, and tests/host compiles it into a user-space
 * replay of page traces.
 */
#ifndef _ISGX_LRU_H
#define _ISGX_LRU_H

#include <linux/list.h>
#include <linux/types.h>

/**
 * enum isgx_lru_mode - how the lists are used (the pager's policy= parameter)
 * @ISGX_LRU_HISTORY:	hot and cold pages, non-resident history (default)
 * @ISGX_LRU_TWOLIST:	active and inactive lists, promoted on two young
 *			looks (the default before non-resident history)
 * @ISGX_LRU_FIFO:	one list, a second chance for a young page (fifo16, seed)
 */
enum isgx_lru_mode {
	ISGX_LRU_HISTORY,
	ISGX_LRU_TWOLIST,
	ISGX_LRU_FIFO,
};

/**
 * struct isgx_lru_page - what the policy knows of one enclave page
 * @link:	on its process's hot or cold list while resident and not
 *		isolated by a reclaim pass; empty otherwise
 * @evicted_at:	the lists' eviction count when it was evicted
 *		(ISGX_LRU_EVICTED set): its refault distance is counted from it
 * @flags:	ISGX_LRU_*
 *
 * It lives in the enclave page, resident or not: keeping the history of an
 * evicted page costs no allocation.
 */
struct isgx_lru_page {
	struct list_head link;
	u32 evicted_at;
	u32 flags;
};

#define ISGX_LRU_HOT		0x1	/* on (or isolated from) the hot list */
/* Made resident, not looked at since: its young bit is the loading access. */
#define ISGX_LRU_FRESH		0x2
#define ISGX_LRU_REFERENCED	0x4	/* twolist: found young once */
#define ISGX_LRU_EVICTED	0x8	/* evicted, @evicted_at valid */

/**
 * struct isgx_lru - the lists of one process's resident enclave pages
 * @hot:	pages that proved reuse, oldest (next for the hot hand) first
 * @cold:	the others, oldest (next victim) first
 * @nr_hot:	pages on @hot
 * @nr_cold:	pages on @cold
 * @nr_evicted:	pages evicted from these lists, ever (wraps)
 */
struct isgx_lru {
	struct list_head hot;
	struct list_head cold;
	unsigned long nr_hot;
	unsigned long nr_cold;
	u32 nr_evicted;
};

void isgx_lru_init(struct isgx_lru *lru);
/* What isgx_lru_add() made of a page (counted by debugfs and the replay). */
enum isgx_lru_verdict {
	/* never evicted, evicted before anything mapped it, or history lost */
	ISGX_LRU_NEW,
	ISGX_LRU_REFAULT_HOT,	/* a refault in its test period, with room: hot */
	ISGX_LRU_REFAULT_NO_ROOM,	/* in its test period, too few cold pages: cold */
	ISGX_LRU_REFAULT_FAR,	/* evicted too long ago: cold */
};

enum isgx_lru_verdict isgx_lru_add(struct isgx_lru *lru, struct isgx_lru_page *p,
				   enum isgx_lru_mode mode, unsigned long cold_min);
void isgx_lru_del(struct isgx_lru *lru, struct isgx_lru_page *p);
struct isgx_lru_page *isgx_lru_isolate(struct isgx_lru *lru, bool hot);
void isgx_lru_unisolate(struct isgx_lru *lru, struct isgx_lru_page *p);
unsigned long isgx_lru_nr_to_age(const struct isgx_lru *lru, enum isgx_lru_mode mode,
				 unsigned long batch);
void isgx_lru_aged(struct isgx_lru *lru, struct isgx_lru_page *p, bool young);
bool isgx_lru_young_counts(const struct isgx_lru_page *p, enum isgx_lru_mode mode);
void isgx_lru_putback(struct isgx_lru *lru, struct isgx_lru_page *p, bool young,
		      enum isgx_lru_mode mode);
void isgx_lru_evicted(struct isgx_lru *lru, struct isgx_lru_page *p, bool used);

#endif /* _ISGX_LRU_H */
