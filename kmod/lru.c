// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: which resident enclave page leaves the EPC next.
 *
 * The pager (pager.c) sees only what the hardware gives it: the PTE young
 * bit, harvested when a page is looked at, and refaults (ELDU of a page
 * evicted after the program could use it).  Every enclave page has a
 * descriptor whether it is resident or not, so the policy keeps a little
 * history of evicted pages there for free: when it was evicted, counted in
 * evictions.
 *
 * The policy (policy=default) is of the CLOCK-Pro / LIRS class: it tells
 * pages that are reused at short distances (hot) from the rest (cold), and
 * evicts only cold pages.  Each process has two lists:
 *
 *	hot:  H H H H H H H H H H H H H H H H      the hot hand ages from the
 *	      ^ hot hand                           head: young -> tail,
 *	                                           old -> cold tail (demoted)
 *	cold: c c c c c c                          victims from the head
 *	      ^ cold hand (reclaim pass)
 *
 *	evicted pages: history (evicted_at) in their descriptors
 *
 *   - A page made resident goes to the cold tail, FRESH: the access that
 *     loaded it set its young bit, which therefore proves nothing.
 *   - The cold hand evicts what it finds, young or not, if FRESH (the
 *     paper's reference bit of a new page is clear); a page that is not
 *     FRESH (demoted from hot) and young was reused: it goes back to hot.
 *   - A refault goes straight to hot when its history says it was evicted
 *     less than 2 x (the process's resident pages) evictions ago (its
 *     "test period", bounded as CLOCK-Pro bounds its non-resident pages:
 *     a loop of twice the memory needs more than one memory of history)
 *     and the cold list holds more than a round of reclaim evicts (the
 *     batches that take the free count from below the low mark to above
 *     the high one), so that the victims of a round are cold.  Otherwise
 *     it is cold.
 *   - A page evicted before the program could use it (never mapped since
 *     the enclave's build added it: a build larger than the EPC evicts
 *     its first pages before the enclave runs) leaves no history: its
 *     first load is a first use, not a reuse, and counts as new.  With
 *     that history, the first touches of the warm-up would look like
 *     refaults, many at short distance, and fill the hot list with pages
 *     used once.  A page that fault-around mapped counts as used: it was
 *     loaded because the program was reading its way towards it.
 *   - The hot hand moves at a steady pace, batch / 2 pages a pass, plus
 *     what the cold list lacks of a batch: a hot page not used since the
 *     hand last passed it is demoted, which makes room for a refault.
 *
 * Invariants: a page is on at most one list, and on none while a reclaim
 * pass holds it (isolated) or while it is evicted; nr_hot and nr_cold
 * count the lists; the hot list grows only into room (more cold pages
 * than a round evicts) or by a young demoted page coming back.
 *
 * Why the room rule and the steady hand, not CLOCK-Pro's adaptive cold
 * target: with victims taken a batch at a time, a loop keeps a fixed hot
 * set only if promotions stop when the hot set is full.  Promotions into
 * room made only by pages the hand found unused give exactly that: on a
 * loop the hand (batch / 2 a pass) comes back to a hot page long after the
 * loop has touched it again, so nothing is demoted and the hot set stays;
 * on a trace whose hot pages change, the unused ones are demoted and the
 * refaults at short distance take their place.  Like mm/workingset.c, a
 * refault is judged by its distance; unlike it, a short distance alone
 * does not activate: the loop's refaults all have short distances, and
 * activating them all is what makes refault distance thrash on loops.
 *
 * What a batch costs.  A reclaim pass evicts a batch (one ETRACK for it),
 * and the free pages a round of passes leaves plus the cold pages that
 * refill them before the next round (together about low_mark + the
 * round's evictions, R = batch x ceil((high_mark - low_mark + 1) / batch))
 * hold nothing useful: so on a loop of N pages over a usable EPC of C
 * this policy's rounds cost about (N - C + low_mark + R) / (N - C) times
 * Belady's MIN.  That is not a floor for every policy that evicts in
 * rounds: one whose passes take hot victims and spare the young ones
 * keeps some of those pages useful (README, The replacement policy).
 *
 * policy=twolist keeps the two-list aging this policy replaced (a page is
 * promoted when found young twice; the active list is aged when it holds
 * more than twice the inactive one); policy=fifo16 and seed use the cold
 * list alone, first in first out with a second chance for a young page.
 */
#include "lru.h"

/**
 * isgx_lru_init() - empty lists
 * @lru:	the lists of one process
 */
void isgx_lru_init(struct isgx_lru *lru)
{
	INIT_LIST_HEAD(&lru->hot);
	INIT_LIST_HEAD(&lru->cold);
	lru->nr_hot = 0;
	lru->nr_cold = 0;
	lru->nr_evicted = 0;
}

static void isgx_lru_add_hot(struct isgx_lru *lru, struct isgx_lru_page *p)
{
	p->flags = (p->flags & ~ISGX_LRU_FRESH) | ISGX_LRU_HOT;
	list_add_tail(&p->link, &lru->hot);
	lru->nr_hot++;
}

static void isgx_lru_add_cold(struct isgx_lru *lru, struct isgx_lru_page *p)
{
	p->flags &= ~ISGX_LRU_HOT;
	list_add_tail(&p->link, &lru->cold);
	lru->nr_cold++;
}

/* Evicted recently enough that its refault is a reuse at short distance. */
static bool isgx_lru_in_test(const struct isgx_lru *lru, const struct isgx_lru_page *p)
{
	u32 distance = lru->nr_evicted - p->evicted_at;

	return (p->flags & ISGX_LRU_EVICTED) &&
	       distance <= 2 * (lru->nr_hot + lru->nr_cold + 1);
}

/**
 * isgx_lru_add() - a page was made resident (added or loaded)
 * @lru:	its process's lists
 * @p:		the page, on no list
 * @mode:	the policy
 * @cold_min:	the cold pages to keep: what a round of reclaim passes
 *		evicts (the batches from below the low mark to above the high)
 *
 * Context: the caller serialises every call on @lru.
 * Return: what the policy made of the page (a refault's verdict is the
 * same under every policy; only policy=default acts on it).
 */
enum isgx_lru_verdict isgx_lru_add(struct isgx_lru *lru, struct isgx_lru_page *p,
				   enum isgx_lru_mode mode, unsigned long cold_min)
{
	enum isgx_lru_verdict verdict = ISGX_LRU_NEW;

	if (p->flags & ISGX_LRU_EVICTED) {
		if (!isgx_lru_in_test(lru, p))
			verdict = ISGX_LRU_REFAULT_FAR;
		else if (lru->nr_cold > cold_min)
			verdict = ISGX_LRU_REFAULT_HOT;
		else
			verdict = ISGX_LRU_REFAULT_NO_ROOM;
	}
	p->flags &= ~(ISGX_LRU_EVICTED | ISGX_LRU_REFERENCED);
	if (mode == ISGX_LRU_HISTORY && verdict == ISGX_LRU_REFAULT_HOT) {
		isgx_lru_add_hot(lru, p);
		return verdict;
	}
	p->flags |= ISGX_LRU_FRESH;
	isgx_lru_add_cold(lru, p);
	return verdict;
}

/**
 * isgx_lru_del() - a resident page is freed
 * @lru:	its process's lists
 * @p:		the page, on a list or isolated
 */
void isgx_lru_del(struct isgx_lru *lru, struct isgx_lru_page *p)
{
	if (!list_empty(&p->link)) {
		list_del_init(&p->link);
		if (p->flags & ISGX_LRU_HOT)
			lru->nr_hot--;
		else
			lru->nr_cold--;
	}
	p->flags = 0;
}

/**
 * isgx_lru_isolate() - take the page at the head of a list
 * @lru:	the lists
 * @hot:	from the hot list (the hot hand, or victims when no page is
 *		cold), else from the cold list (victims)
 *
 * Return: the page, off its list (ISGX_LRU_HOT tells which), or NULL when
 * that list is empty.
 */
struct isgx_lru_page *isgx_lru_isolate(struct isgx_lru *lru, bool hot)
{
	struct list_head *list = hot ? &lru->hot : &lru->cold;
	struct isgx_lru_page *p;

	if (list_empty(list))
		return NULL;
	p = list_first_entry(list, struct isgx_lru_page, link);
	list_del_init(&p->link);
	if (hot)
		lru->nr_hot--;
	else
		lru->nr_cold--;
	return p;
}

/**
 * isgx_lru_unisolate() - give an isolated page back its place at the head
 * @lru:	the lists
 * @p:		the page isgx_lru_isolate() just returned
 */
void isgx_lru_unisolate(struct isgx_lru *lru, struct isgx_lru_page *p)
{
	if (p->flags & ISGX_LRU_HOT) {
		list_add(&p->link, &lru->hot);
		lru->nr_hot++;
	} else {
		list_add(&p->link, &lru->cold);
		lru->nr_cold++;
	}
}

/**
 * isgx_lru_nr_to_age() - how far the hot hand moves before a pass
 * @lru:	the lists
 * @mode:	the policy
 * @batch:	the pass's batch
 *
 * Return: the number of hot pages to isolate, harvest and hand back to
 * isgx_lru_aged(): at most @batch * 2, never more than the hot list holds.
 */
unsigned long isgx_lru_nr_to_age(const struct isgx_lru *lru, enum isgx_lru_mode mode,
				 unsigned long batch)
{
	unsigned long nr;

	switch (mode) {
	case ISGX_LRU_HISTORY:
		nr = batch / 2;
		if (lru->nr_cold < batch)
			nr += batch - lru->nr_cold;
		break;
	case ISGX_LRU_TWOLIST:
		nr = 2 * lru->nr_cold < lru->nr_hot ? batch : 0;
		break;
	default:
		nr = 0;
	}
	return nr < lru->nr_hot ? nr : lru->nr_hot;
}

/**
 * isgx_lru_aged() - the hot hand's verdict on a page it isolated
 * @lru:	the lists
 * @p:		the page, isolated from the hot list
 * @young:	its young bit (now cleared)
 *
 * A young page goes to the hot tail, an old one is demoted to the cold tail.
 */
void isgx_lru_aged(struct isgx_lru *lru, struct isgx_lru_page *p, bool young)
{
	p->flags &= ~(ISGX_LRU_FRESH | ISGX_LRU_REFERENCED);
	if (young)
		isgx_lru_add_hot(lru, p);
	else
		isgx_lru_add_cold(lru, p);
}

/**
 * isgx_lru_young_counts() - is a victim's young bit a reuse?
 * @p:		the victim
 * @mode:	the policy
 *
 * Return: false for a FRESH page under the default policy (its young bit
 * is the access that made it resident: the victim is evicted anyway).
 */
bool isgx_lru_young_counts(const struct isgx_lru_page *p, enum isgx_lru_mode mode)
{
	return mode != ISGX_LRU_HISTORY || !(p->flags & ISGX_LRU_FRESH);
}

/**
 * isgx_lru_putback() - a victim that was not evicted goes back
 * @lru:	the lists
 * @p:		the victim, isolated
 * @young:	it was found young and isgx_lru_young_counts() said so counts
 * @mode:	the policy
 *
 * history: a young page was reused: hot; else cold tail.  twolist: a
 * young page is promoted if it was found young before too, else gets
 * another round on the inactive (cold) list.  fifo: the cold tail.
 */
void isgx_lru_putback(struct isgx_lru *lru, struct isgx_lru_page *p, bool young,
		      enum isgx_lru_mode mode)
{
	p->flags &= ~ISGX_LRU_FRESH;
	switch (mode) {
	case ISGX_LRU_HISTORY:
		if (young) {
			isgx_lru_add_hot(lru, p);
			return;
		}
		break;
	case ISGX_LRU_TWOLIST:
		if (young && (p->flags & ISGX_LRU_REFERENCED)) {
			p->flags &= ~ISGX_LRU_REFERENCED;
			isgx_lru_add_hot(lru, p);
			return;
		}
		if (young)
			p->flags |= ISGX_LRU_REFERENCED;
		break;
	default:
		break;
	}
	isgx_lru_add_cold(lru, p);
}

/**
 * isgx_lru_evicted() - a victim was evicted: keep its history, if it was used
 * @lru:	the lists
 * @p:		the victim, isolated
 * @used:	the program could ever use it: something mapped it since it
 *		was added; if not, it leaves no history and its next load is
 *		new, not a refault
 */
void isgx_lru_evicted(struct isgx_lru *lru, struct isgx_lru_page *p, bool used)
{
	p->evicted_at = ++lru->nr_evicted;
	p->flags = used ? ISGX_LRU_EVICTED : 0;
}
