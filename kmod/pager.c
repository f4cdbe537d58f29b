// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: the EPC pager.
 *
 * The EPC is small and cannot be swapped by the kernel's own reclaim: a
 * page leaves it only through EWB, which seals it with AES-GCM into normal
 * memory (the enclave's shmem backing file), and comes back only through
 * ELDU, which checks the seal against a version kept in a VA slot.  This
 * file decides which pages leave, and when.
 *
 * Which pages.  Every resident REG/TCS page is on one of two lists of
 * its process, hot or cold, oldest first; lru.c says how a page moves
 * between them and keeps, in the descriptor of every evicted page, the
 * history that lets a refault at short distance come back hot (a
 * CLOCK-Pro / LIRS-class policy, driven only by young bits harvested
 * here and by refaults).  A pass first moves the hot hand over a few hot
 * pages (isgx_pager_age()), then takes its victims from the cold head: so
 * victims are found in O(batch), never by walking pages that are skipped.
 * isgx_pager.lock, which protects every process's lists, is given up every
 * ISGX_LRU_LOCK_CHUNK pages, so its longest hold does not grow with the
 * batch or the EPC.
 *
 * Whose pages.  Each process has an EPC account and lists (proc.c).  A
 * pass takes its victims from one process: the next, round robin, of
 * those holding at least their fair share (resident pages / processes
 * with any), so that a large working set churns its own pages and not a
 * small one's; a process at max_pages_per_process evicts its own pages
 * before it gets another.
 *
 * The policy before non-resident history stays as policy=twolist (a page
 * is promoted when found young twice; the active list is aged when it
 * holds more than twice the inactive one).  Two baselines keep older
 * algorithms for comparison, with their own constants (batches of 16,
 * marks of 32/64 pages, no fault-around, no reclaim in the fault path)
 * whatever the parameters say: policy=fifo16 is the upstream reclaimer
 * (one list, a second chance for a young page), policy=seed the 2016
 * driver (the same, but each pass takes the pages of one enclave of the
 * next process, round robin).  Both take each pass's victims from the
 * next process holding pages, round robin.
 *
 * How.  One pass of isgx_pager_reclaim() isolates up to @batch victims
 * (isgx_reclaim_isolate(); kisgxswapd's passes more, to fill the batch:
 * below) and takes them through the SGX eviction
 * protocol in phases, a function each, so that the expensive
 * synchronisation is paid once per enclave per batch instead of once per
 * page:
 *
 *   1. For the victims of each enclave: check and clear their young
 *      bits under its mm and encl->lock (isgx_reclaim_select(); a page
 *      just made resident is not spared by it: lru.c).  Under the default
 *      and twolist policies a kisgxswapd pass whose young checks spared
 *      victims takes as many more from the cold list in their place, so
 *      that its ETRACK pays for a full batch (isgx_reclaim_fill(); within
 *      two batches in all).  The VA slots of victims that are no
 *      candidates go back at once.
 *      Then read the backing pages of the others without encl->lock
 *      (isgx_reclaim_backing()); then, under both locks again
 *      (isgx_reclaim_block()), spare those used meanwhile, zap the PTEs
 *      of the rest and EBLOCK them.  From here no new TLB entry can be
 *      made.  Backing before EBLOCK: nothing unblocks a page but EWB, so
 *      a victim whose backing cannot be had must never be blocked (it
 *      would fault on every access).  What was read for victims not
 *      blocked leaves the file again.  The loops over victims under
 *      encl->lock (these and the hot hand's) give it up every
 *      ISGX_ENCL_LOCK_CHUNK victims, so that a fault waits for a few
 *      young checks, not a batch of them.
 *   2. For each enclave in the batch (isgx_reclaim_write()): one ETRACK,
 *      under encl->lock, then, without it, one IPI round that is the AEX
 *      of the CPUs inside it and flushes the TLB entries of the PTEs
 *      phase 1 cleared.  It goes only to the CPUs running the enclave's
 *      mm (none, when its threads do not run); the mm's TLB generation
 *      is moved first, so that any other CPU holding stale entries
 *      flushes them before it uses the mm again.
 *   3. For each victim: EWB into its backing page, its PCMD and a VA slot
 *      from the shared pool, without encl->lock (isgx_victim_ewb()):
 *      the page is blocked and flagged, and EWB does not lock the SECS,
 *      so the enclave's faults load other pages meanwhile and wait for
 *      no EWB but their own page's, which is written next.  The outcome
 *      is committed under encl->lock (isgx_victim_commit()), and the
 *      freed EPC page goes to the free list, where a waiting fault takes
 *      it: at once when the lock is free or a fault waits for the page,
 *      else after the next EWB, at most commit_defer EWBs late
 *      (isgx_reclaim_commit_now()): kisgxswapd writes rather than wait
 *      for the ELDU a fault runs under the lock.  SGX_NOT_TRACKED climbs
 *      a ladder (ETRACK and IPI again, then retry)
 *      instead of being fatal; any other failure gives the page back to
 *      the policy, counted, never BUG.
 *   4. Victims not evicted go back to the policy (isgx_reclaim_putback()).
 *
 * When.  kisgxswapd sleeps until the free count drops below the low
 * watermark, then reclaims in batches until it is above the high one; the
 * marks rise so that the drawdown of its recent rounds (how far below the
 * low mark the free count fell before its passes caught up), and a
 * quarter more, stays above the min mark (isgx_swapd_drawdown()), so
 * that faults find free pages while it works, and by no more: a free
 * page is one the policy cannot use.  An ioctl's allocation that
 * finds no free page reclaims directly, a bounded number of times.  A
 * fault that finds none, or leaves fewer than the min mark, reclaims at
 * most once, and little: one pass of ISGX_FAULT_BATCH victims (its time
 * is that of 16 EWBs, one ETRACK and IPI round, and the young checks of
 * at most three times as many pages: the hot hand's two batches and its
 * own; faults' passes do not fill), and one thread at a time; one at
 * its process's limit does at most four such passes.  A fault that still
 * finds none gives its mmap_lock up and sleeps until a page is freed (by
 * the commit of every EWB), then retries, unless kisgxswapd has evicted
 * nothing for fault_stall_ms: then it fails with SIGBUS rather than
 * retry forever (isgx_pager_fault_stalled()).  A kisgxswapd round that
 * finds nothing evictable (only SECS pages of enclaves not yet
 * initialised, whose number proc.c bounds) sleeps until a page is made
 * resident, or for a second, instead of spinning below the low mark.
 * Two pages are kept in reserve for the VA pool, so that an eviction can
 * always find a slot.
 *
 * What else leaves.  When a batch leaves an initialised enclave without a
 * resident page, its SECS is evicted too, and loaded again before the
 * next page of that enclave (isgx_pager_load_secs()).  VA pages are
 * evicted by the pool itself (va.c), from kisgxswapd, when more than
 * va_max_pages are resident.
 *
 * Coming back.  A fault loads its page with ELDU.  With fault_around set
 * (0, off, by default), when the two pages before it were the last ones
 * faults loaded (a sequential run), it also loads up to fault_around
 * evicted pages after it, into spare pages only (never below the low
 * mark, never reclaiming), and maps them.  Off by default because those
 * ELDUs run inside the fault and under encl->lock: a faulting access that
 * loads 9 pages waits for 9 decrypts, which made the p99 of sequential
 * patterns two to three times that of the others, while the pass time on
 * a loop moved within the noise (README, Fault latency).
 *
 * The backing.  Sealed copies and PCMDs live in the enclave's shmem
 * file, charged to the memory cgroup of the enclave's creator whichever
 * thread writes them (kisgxswapd has no group; a process that reclaims
 * is not the owner).  A load frees what it spent: the page's sealed
 * copy, and its PCMD page once no page of that PCMD page is evicted or
 * being evicted (isgx_backing_free()).  So the backing holds the evicted
 * pages only, and a group's limit bounds its enclaves' evicted memory.
 *
 * Locks, outside in: mmap_lock of an enclave's mm (try-locked here but
 * by kisgxswapd, since a faulting thread may reclaim while holding its
 * own), then encl->track_sem (ETRACK write, EWB read: an EWB racing an
 * ETRACK of its enclave fails), then encl->lock, then isgx_pager.lock
 * (the LRU).  Backing pages are read (shmem, maybe from swap) before
 * encl->lock is taken, both for EWB and for ELDU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/freezer.h>
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait_bit.h>

#include "encl.h"
#include "encls.h"
#include "lru.h"
#include "pager.h"
#include "proc.h"
#include "stats.h"
#include "trace.h"
#include "tlb.h"
#include "va.h"

/* Pages the ordinary allocator leaves for the VA pool. */
#define ISGX_EPC_RESERVE		2
/* Direct reclaim passes before an allocation gives up (all but two forced). */
#define ISGX_DIRECT_RECLAIM_TRIES	64
/* Pages a faulting thread evicts in one direct reclaim pass at most. */
#define ISGX_FAULT_BATCH		16UL
/* EWB tries on SGX_NOT_TRACKED, each after a new ETRACK and IPI. */
#define ISGX_EWB_TRIES			3

static unsigned int batch;
static unsigned int min_mark;
static unsigned int low_mark;
static unsigned int high_mark;
static unsigned int fault_around;
static unsigned int fault_stall_ms = 10000;
static unsigned int commit_defer = 8;

enum isgx_policy {
	ISGX_POLICY_DEFAULT,
	ISGX_POLICY_TWOLIST,
	ISGX_POLICY_FIFO16,
	ISGX_POLICY_SEED,
};

static const char * const isgx_policy_names[] = {
	[ISGX_POLICY_DEFAULT] = "default",
	[ISGX_POLICY_TWOLIST] = "twolist",
	[ISGX_POLICY_FIFO16] = "fifo16",
	[ISGX_POLICY_SEED] = "seed",
};

static int policy = ISGX_POLICY_DEFAULT;

static int isgx_policy_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(isgx_policy_names, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(policy, i);
	return 0;
}

static int isgx_policy_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", isgx_policy_names[READ_ONCE(policy)]);
}

static const struct kernel_param_ops isgx_policy_ops = {
	.set = isgx_policy_set,
	.get = isgx_policy_get,
};
module_param_cb(policy, &isgx_policy_ops, NULL, 0644);
MODULE_PARM_DESC(policy, "Eviction policy: default (hot/cold with non-resident history), twolist (two-list aging), fifo16 (upstream baseline) or seed (2016 driver baseline)");

/* The baselines are the upstream and 2016 reclaimers: their constants. */
static bool isgx_policy_baseline(void)
{
	int p = READ_ONCE(policy);

	return p == ISGX_POLICY_FIFO16 || p == ISGX_POLICY_SEED;
}

/* How the policy uses a process's lists (lru.c). */
static enum isgx_lru_mode isgx_lru_mode(void)
{
	switch (READ_ONCE(policy)) {
	case ISGX_POLICY_DEFAULT:
		return ISGX_LRU_HISTORY;
	case ISGX_POLICY_TWOLIST:
		return ISGX_LRU_TWOLIST;
	default:
		return ISGX_LRU_FIFO;
	}
}

static unsigned int isgx_batch(void)
{
	return isgx_policy_baseline() ? 16 : READ_ONCE(batch);
}

/* low_mark or high_mark was written by a user: the marks do not adapt. */
static bool isgx_marks_user;

/* kisgxswapd's raise of both marks (isgx_swapd_drawdown()). */
static unsigned int isgx_marks_extra;

static unsigned int isgx_low_mark(void)
{
	if (isgx_policy_baseline())
		return 32;
	return READ_ONCE(low_mark) + (READ_ONCE(isgx_marks_user) ? 0 : READ_ONCE(isgx_marks_extra));
}

static unsigned int isgx_high_mark(void)
{
	if (isgx_policy_baseline())
		return 64;
	return READ_ONCE(high_mark) + (READ_ONCE(isgx_marks_user) ? 0 : READ_ONCE(isgx_marks_extra));
}

/*
 * Pages a kisgxswapd round evicts: the batches that take the free count
 * from just below the low mark to the high one.  The policy keeps that
 * many cold pages (lru.c).
 */
static unsigned long isgx_round_pages(void)
{
	unsigned long b = isgx_batch();
	unsigned int low = READ_ONCE(low_mark), high = READ_ONCE(high_mark);
	/* The raise moves both marks: the gap is the one written. */
	unsigned int gap = isgx_policy_baseline() ? 64 - 32 : (high > low ? high - low : 0);

	return b * DIV_ROUND_UP(gap + 1, b);
}

/* Below this many free pages an allocation also reclaims itself. */
static unsigned int isgx_min_mark(void)
{
	return isgx_policy_baseline() ? 0 : READ_ONCE(min_mark);
}

/* Evicted neighbours a sequential fault loads with its page. */
static unsigned int isgx_fault_around(void)
{
	return isgx_policy_baseline() ? 0 : READ_ONCE(fault_around);
}

/**
 * struct isgx_pager - state of the pager
 * @lock:		protects every process's lists (isgx_proc.lru) and
 *			every page's isgx_encl_page.lru
 * @lock_since:		when @lock was last taken (local_clock()), for its
 *			hold statistics; @lock
 * @nr_tracked:		pages ever made resident (isgx_pager_track());
 *			written under @lock, read locklessly
 * @nr_untracked:	pages ever freed while resident
 *			(isgx_pager_untrack()) or evicted; @lock
 * @swapd:		the kisgxswapd thread
 * @swapd_wq:		kisgxswapd sleeps here
 * @stuck_since:	jiffies (never 0) since which every kisgxswapd round
 *			freed nothing, 0 after a round that evicted a page;
 *			written by kisgxswapd only, read locklessly
 * @stuck_rounds:	kisgxswapd rounds since @stuck_since, each of them
 *			at least ISGX_SWAPD_STUCK_RETRY apart unless a page
 *			was made resident meanwhile
 * @drawdown:		how far below the low mark the free count fell in
 *			kisgxswapd's recent rounds, a decaying maximum
 *			(isgx_swapd_drawdown()); kisgxswapd only
 */
struct isgx_pager {
	spinlock_t lock;
	u64 lock_since;
	unsigned long nr_tracked;
	unsigned long nr_untracked;
	struct task_struct *swapd;
	wait_queue_head_t swapd_wq;
	unsigned long stuck_since;
	unsigned long stuck_rounds;
	unsigned long drawdown;
};

static struct isgx_pager isgx_pager;

/*
 * isgx_pager.lock, every hold timed (debugfs nr_lru_lock_holds,
 * ns_lru_lock_held, ns_lru_lock_max).  The clock is read inside the
 * critical section, so a hold is measured from just after the lock is
 * taken to just before it is given up: the spinning before it is not in
 * the figure.  local_clock(), as lock_stat uses: a hold does not leave
 * its CPU, and it is a TSC read where ktime_get_ns() may read the HPET
 * (a guest whose TSCs are not synchronised, as under TCG), which would
 * cost more than most holds.
 */
static void isgx_pager_lock(void)
	__acquires(&isgx_pager.lock)
{
	spin_lock(&isgx_pager.lock);
	isgx_pager.lock_since = local_clock();
}

static void isgx_pager_unlock(void)
	__releases(&isgx_pager.lock)
{
	isgx_stats_lru_lock_held(local_clock() - isgx_pager.lock_since);
	spin_unlock(&isgx_pager.lock);
}

/* Pages a pass moves on or off the lists under one hold of the lock. */
#define ISGX_LRU_LOCK_CHUNK	32

/*
 * Between two pages of a loop over a batch under isgx_pager.lock: every
 * ISGX_LRU_LOCK_CHUNK pages, give the lock up for a moment, so that the
 * longest hold is the same whatever the batch (and the EPC) size.
 */
static void isgx_pager_lock_break(unsigned long i)
	__must_hold(&isgx_pager.lock)
{
	if (i % ISGX_LRU_LOCK_CHUNK == ISGX_LRU_LOCK_CHUNK - 1) {
		isgx_pager_unlock();
		isgx_pager_lock();
	}
}

/*
 * Watermarks must keep min <= low <= high <= the EPC size.  At load time
 * the EPC is not known yet: isgx_pager_init() checks then.  Writes are serialised
 * by the module's parameter lock.  A change wakes kisgxswapd so that it
 * acts on the new marks at once.
 */
static int isgx_pager_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned long total = isgx_epc_nr_total();
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (kp->arg == &batch && (v < 1 || v > 512))
		return -EINVAL;
	if ((kp->arg == &fault_around || kp->arg == &commit_defer) && v > 64)
		return -EINVAL;
	if (total && kp->arg == &min_mark && v > low_mark)
		return -EINVAL;
	if (total && kp->arg == &low_mark && (v > total || v > high_mark || v < min_mark))
		return -EINVAL;
	if (total && kp->arg == &high_mark && (v > total || v < low_mark))
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	/* 0 at load asks for the default, which adapts. */
	if ((kp->arg == &low_mark || kp->arg == &high_mark) && (v || total))
		WRITE_ONCE(isgx_marks_user, true);
	if (total)
		wake_up(&isgx_pager.swapd_wq);
	return 0;
}

static const struct kernel_param_ops isgx_pager_param_ops = {
	.set = isgx_pager_param_set,
	.get = param_get_uint,
};
module_param_cb(batch, &isgx_pager_param_ops, &batch, 0644);
MODULE_PARM_DESC(batch, "Pages evicted per reclaim pass (1..512; default EPC/32 within 64..512, at most EPC/8)");
module_param_cb(low_mark, &isgx_pager_param_ops, &low_mark, 0644);
MODULE_PARM_DESC(low_mark, "kisgxswapd wakes below this many free EPC pages (default: 1/64 of the EPC, at least 32, raised so that how far the free count falls below it, and a quarter more, stays above min_mark; written: fixed)");
module_param_cb(high_mark, &isgx_pager_param_ops, &high_mark, 0644);
MODULE_PARM_DESC(high_mark, "kisgxswapd sleeps above this many free EPC pages (default: twice low_mark, raised with it; written: fixed)");

static int isgx_wake_mark_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", isgx_epc_nr_total() ? isgx_low_mark() : 0);
}

static const struct kernel_param_ops isgx_wake_mark_ops = {
	.get = isgx_wake_mark_get,
};
module_param_cb(wake_mark, &isgx_wake_mark_ops, NULL, 0444);
MODULE_PARM_DESC(wake_mark, "The low mark in use now: low_mark, plus what kisgxswapd added for the drawdown it measured");
module_param_cb(min_mark, &isgx_pager_param_ops, &min_mark, 0644);
MODULE_PARM_DESC(min_mark, "Below this many free EPC pages an allocation reclaims itself too (0 at load: low_mark / 2)");
module_param_cb(fault_around, &isgx_pager_param_ops, &fault_around, 0644);
MODULE_PARM_DESC(fault_around, "Evicted pages after a sequential fault loaded with it (0..64, default 0: off)");
module_param_cb(commit_defer, &isgx_pager_param_ops, &commit_defer, 0644);
MODULE_PARM_DESC(commit_defer, "EWBs whose outcome may wait for a free encl->lock while a fault holds it (0..64, default 8; 0: each waits)");


/* One victim on its way through the phases of a batch. */
struct isgx_victim {
	struct isgx_epc_page *epc;
	struct isgx_encl_page *page;
	struct isgx_encl *encl;		/* a reference is held */
	struct isgx_va_slot slot;
	struct isgx_backing backing;
	bool candidate;		/* has a VA slot, not spared by the young check (1a) */
	bool has_backing;
	bool blocked;
	bool young;		/* found young, and the policy counts it */
	bool written;		/* EWB done, its outcome not yet committed */
	bool evicted;		/* that outcome: EWB wrote the page out */
};

/*
 * Where a reclaim pass spends its time (debugfs ns_reclaim_*).  The clock
 * is read only at the boundaries of phases, and each lap is charged to
 * the phase that ends there: so the phases never overlap and add up to
 * the pass, but for what a skip leaves out.  The pass adds its sums to
 * the counters once, at its end.
 */
struct isgx_reclaim_clock {
	u64 start;
	u64 last;
	u64 ns[ISGX_RECLAIM_NR_PHASES];
	unsigned int nr_tracks;		/* ETRACK rounds of the pass */
};

/* The time since the last boundary was spent in @phase. */
static void isgx_clock_lap(struct isgx_reclaim_clock *c, enum isgx_reclaim_phase phase)
{
	u64 now = ktime_get_ns();

	c->ns[phase] += now - c->last;
	c->last = now;
}

/* The time since the last boundary belongs to no phase. */
static void isgx_clock_skip(struct isgx_reclaim_clock *c)
{
	c->last = ktime_get_ns();
}

/*
 * encl->lock for a reclaim pass.  Only a contended lock reads the clock:
 * the time so far goes to @phase, the wait for the lock to
 * ISGX_RECLAIM_WAIT.
 */
static void isgx_reclaim_encl_lock(struct isgx_encl *encl, struct isgx_reclaim_clock *c,
				   enum isgx_reclaim_phase phase)
{
	if (mutex_trylock(&encl->lock))
		return;
	isgx_clock_lap(c, phase);
	mutex_lock(&encl->lock);
	isgx_clock_lap(c, ISGX_RECLAIM_WAIT);
}

/*
 * A reclaim phase that loops over victims under encl->lock gives it up
 * after this many, so that a fault of the enclave waits for a few young
 * checks (or EBLOCKs), never for a batch of them.
 */
#define ISGX_ENCL_LOCK_CHUNK	16

/*
 * In a loop over victims under encl->lock, before the one @nr_done after
 * the first: every ISGX_ENCL_LOCK_CHUNK, let a waiter have the lock (a
 * sleeping waiter that loses it once is handed it at the next break).
 */
static void isgx_reclaim_encl_lock_break(struct isgx_encl *encl, unsigned long nr_done,
					 struct isgx_reclaim_clock *c,
					 enum isgx_reclaim_phase phase)
{
	if (!nr_done || nr_done % ISGX_ENCL_LOCK_CHUNK)
		return;
	mutex_unlock(&encl->lock);
	cond_resched();
	isgx_reclaim_encl_lock(encl, c, phase);
}

static bool isgx_pager_below_low(void)
{
	return isgx_epc_nr_free() < isgx_low_mark();
}

/**
 * isgx_pager_track() - put a newly resident enclave page on its process's lists
 * @epc:	its EPC page, owner set to the isgx_encl_page
 *
 * Context: encl->lock held, the page charged to its process
 * (isgx_pager_charge()); takes isgx_pager.lock.
 */
void isgx_pager_track(struct isgx_epc_page *epc)
{
	struct isgx_encl_page *page = epc->owner;
	struct isgx_proc *proc = page->encl->proc;
	enum isgx_lru_verdict verdict;

	page->encl->nr_resident++;
	isgx_pager_lock();
	verdict = isgx_lru_add(&proc->lru, &page->lru, isgx_lru_mode(), isgx_round_pages());
	isgx_pager.nr_tracked++;
	isgx_pager_unlock();
	switch (verdict) {
	case ISGX_LRU_REFAULT_HOT:
		isgx_stat_inc(nr_refault_hot);
		break;
	case ISGX_LRU_REFAULT_NO_ROOM:
		isgx_stat_inc(nr_refault_no_room);
		break;
	case ISGX_LRU_REFAULT_FAR:
		isgx_stat_inc(nr_refault_far);
		break;
	default:
		break;
	}
	/*
	 * Something evictable, maybe, for a kisgxswapd that found nothing.
	 * wq_has_sleeper() orders the count above before its look at the
	 * queue, as prepare_to_wait() orders kisgxswapd's.
	 */
	if (isgx_pager_below_low() && wq_has_sleeper(&isgx_pager.swapd_wq))
		wake_up(&isgx_pager.swapd_wq);
}

/**
 * isgx_pager_untrack() - take a page off its process's lists, if it is on one
 * @epc:	its EPC page, about to be freed
 *
 * A page isolated by a reclaim pass is on no list; the pass holds a
 * reference to the enclave, so the page cannot be freed under it.
 *
 * Context: encl->lock held, or the enclave is being released; takes
 * isgx_pager.lock.
 */
void isgx_pager_untrack(struct isgx_epc_page *epc)
{
	struct isgx_encl_page *page = epc->owner;

	isgx_proc_charge(page->encl->proc, -1);
	page->encl->nr_resident--;
	isgx_pager_lock();
	isgx_lru_del(&page->encl->proc->lru, &page->lru);
	isgx_pager.nr_untracked++;
	isgx_pager_unlock();
}

/* One attempt: a page above the reserve, and kisgxswapd woken when low. */
static struct isgx_epc_page *isgx_epc_try_alloc(void *owner)
{
	struct isgx_epc_page *epc = __isgx_epc_alloc(owner, ISGX_EPC_RESERVE);

	if (!IS_ERR(epc) && isgx_pager_below_low())
		wake_up(&isgx_pager.swapd_wq);
	return epc;
}

/* Bit 0: a faulting thread is reclaiming (min mark, or nothing free). */
static unsigned long isgx_min_reclaimer;

/*
 * Reclaim directly, counted as a stall.  A fault pays for its pass in
 * latency: it evicts a small batch (@fault), kisgxswapd the large ones.
 */
static unsigned long isgx_alloc_stall(bool force, bool fault)
{
	unsigned long nr = isgx_batch();

	trace_isgx_alloc_stall(isgx_epc_nr_free());
	isgx_stat_inc(nr_alloc_stalls);
	return isgx_pager_reclaim(fault ? min(nr, ISGX_FAULT_BATCH) : nr, force);
}

/**
 * isgx_epc_alloc_or_wait() - an EPC page for a fault that can be retried
 * @owner:	stored in the descriptor
 *
 * A faulting thread holds its mmap_lock, which reclaim needs for the
 * PTEs of that mm (it only try-locks it), and a writer queued on it would
 * stop every reclaim of this mm: so at most one faulting thread at a
 * time evicts a small batch, and the others let kisgxswapd work.
 *
 * Context: process context, mmap_lock held, no enclave lock held.
 * Return: the page, or ERR_PTR(-EAGAIN): wake kisgxswapd, give the
 * mmap_lock up, isgx_pager_wait_free(), and retry the fault.
 */
struct isgx_epc_page *isgx_epc_alloc_or_wait(void *owner)
{
	struct isgx_epc_page *epc = isgx_epc_try_alloc(owner);

	/*
	 * The baselines never reclaim in a fault, as the drivers they
	 * model.  The default policy lets one faulting thread at a time
	 * evict a small batch when the free count is below the min mark (or
	 * nothing is free); the others, and it when that freed nothing for
	 * it, wait for kisgxswapd.
	 */
	if (!isgx_policy_baseline() &&
	    (IS_ERR(epc) || isgx_epc_nr_free() < isgx_min_mark()) &&
	    !test_and_set_bit(0, &isgx_min_reclaimer)) {
		isgx_alloc_stall(false, true);
		clear_bit_unlock(0, &isgx_min_reclaimer);
		if (IS_ERR(epc))
			epc = isgx_epc_try_alloc(owner);
	}
	if (IS_ERR(epc)) {
		wake_up(&isgx_pager.swapd_wq);
		return ERR_PTR(-EAGAIN);
	}
	return epc;
}

module_param(fault_stall_ms, uint, 0644);
MODULE_PARM_DESC(fault_stall_ms,
		 "A fault gets SIGBUS when its enclave got no EPC page and kisgxswapd evicted nothing for this long (0: wait forever)");

/**
 * isgx_pager_fault_stalled() - has a fault waited for EPC long enough to fail
 * @encl:	the enclave of a fault that found no free page
 *
 * Waiting is right while the pager makes progress, or might: pages are
 * evicted, even if other faults take them first, or kisgxswapd is blocked
 * (on an mmap_lock, say) rather than finding nothing.  When every
 * kisgxswapd round for fault_stall_ms, and at least one per second of
 * it, evicted nothing, and the enclave's faults have found no page for
 * as long, nothing will come (every resident page is unevictable): the
 * fault fails with SIGBUS instead of retrying forever, so that the
 * process sees an error, as upstream fails an allocation that reclaim
 * cannot satisfy.  Counting rounds as well as time keeps a paused guest,
 * whose jiffies jump, from failing faults before kisgxswapd ran again.
 * The clock is per enclave (its threads share a stall);
 * isgx_pager_fault_unstalled() stops it.
 *
 * Context: any; lockless (the clocks are hints).
 * Return: true when the fault should fail.
 */
bool isgx_pager_fault_stalled(struct isgx_encl *encl)
{
	unsigned int ms = READ_ONCE(fault_stall_ms);
	unsigned long limit = msecs_to_jiffies(ms);
	unsigned long since = READ_ONCE(encl->stall_since);
	unsigned long stuck = READ_ONCE(isgx_pager.stuck_since);

	if (!since) {
		WRITE_ONCE(encl->stall_since, jiffies | 1);
		return false;
	}
	if (!ms || !stuck || time_before(jiffies, since + limit) ||
	    time_before(jiffies, stuck + limit) ||
	    READ_ONCE(isgx_pager.stuck_rounds) < max(2U, ms / 1000))
		return false;
	isgx_stat_inc(nr_fault_stalled);
	return true;
}

/**
 * isgx_pager_fault_unstalled() - a fault of @encl got its page
 * @encl:	the enclave
 *
 * Context: any; lockless.
 */
void isgx_pager_fault_unstalled(struct isgx_encl *encl)
{
	if (READ_ONCE(encl->stall_since))
		WRITE_ONCE(encl->stall_since, 0);
}

/**
 * isgx_pager_wait_free() - wait a little for kisgxswapd to free pages
 *
 * Context: process context, no locks held.
 */
void isgx_pager_wait_free(void)
{
	wake_up(&isgx_pager.swapd_wq);
	isgx_epc_wait_free(ISGX_EPC_RESERVE, HZ / 10);
}

/**
 * isgx_epc_alloc() - an EPC page, reclaiming when none is free
 * @owner:	stored in the descriptor
 *
 * The first passes respect the young bits; if they free nothing, later
 * ones evict regardless, and wait a tick for passes of other threads that
 * hold pages isolated.
 *
 * Context: process context, may sleep; no enclave lock held (the
 * reclaimer takes enclave locks).
 * Return: the page, or ERR_PTR(-ENOMEM) after bounded direct reclaim.
 */
struct isgx_epc_page *isgx_epc_alloc(void *owner)
{
	struct isgx_epc_page *epc = isgx_epc_try_alloc(owner);
	int i;

	for (i = 0; IS_ERR(epc) && i < ISGX_DIRECT_RECLAIM_TRIES; i++) {
		if (fatal_signal_pending(current))
			break;
		if (!isgx_alloc_stall(i >= 2, false) && i >= 2)
			schedule_timeout_uninterruptible(1);
		epc = isgx_epc_try_alloc(owner);
	}
	return IS_ERR(epc) ? ERR_PTR(-ENOMEM) : epc;
}

/**
 * isgx_epc_alloc_around() - an EPC page for fault-around, if one is spare
 * @owner:	stored in the descriptor
 *
 * Never below the low mark and never reclaiming: a guess about the
 * future must not evict the present.
 *
 * Context: any.
 * Return: the page, or ERR_PTR(-ENOMEM).
 */
struct isgx_epc_page *isgx_epc_alloc_around(void *owner)
{
	return __isgx_epc_alloc(owner, max_t(unsigned int, isgx_low_mark(), ISGX_EPC_RESERVE));
}

/**
 * isgx_pager_fault_around() - how many evicted neighbours a sequential
 * fault loads with its page (the fault_around parameter; 0 under the
 * baseline policies)
 *
 * Context: any.
 */
unsigned int isgx_pager_fault_around(void)
{
	return isgx_fault_around();
}

/* Backing layout: page i at i * PAGE_SIZE, its PCMD at size + i * 128. */
static pgoff_t isgx_backing_index(struct isgx_encl *encl, struct isgx_encl_page *page)
{
	return PFN_DOWN(page->addr - encl->base);
}

static loff_t isgx_pcmd_offset(struct isgx_encl *encl, struct isgx_encl_page *page)
{
	return encl->size + isgx_backing_index(encl, page) * sizeof(struct isgx_pcmd);
}

#define ISGX_PCMDS_PER_PAGE	(PAGE_SIZE / sizeof(struct isgx_pcmd))

/*
 * Read in backing pages of @encl, charging any page shmem allocates to
 * the enclave creator's memory cgroup: the reader may be kisgxswapd (no
 * group of its own) or a process that reclaims another's pages.
 *
 * Not for an enclave whose process has exited (-ESRCH): only its
 * creator's mm maps it, so none of its pages is loaded again, and the
 * charge would only meet the group's OOM killer with nobody left to kill
 * (the process may have been its victim).
 */
static int isgx_encl_backing_read(struct isgx_encl *encl, pgoff_t index, loff_t pcmd,
				  struct isgx_backing *b)
{
	struct mem_cgroup *old;
	int ret;

	if (!atomic_read(&encl->mm->mm_users))
		return -ESRCH;
	old = set_active_memcg(encl->memcg);
	ret = isgx_backing_read(encl->backing, index, pcmd, b);
	set_active_memcg(old);
	return ret;
}

/**
 * isgx_backing_get() - the backing pages of an enclave page, read in
 * @encl:	the enclave
 * @page:	one of its pages
 * @b:		filled with references to the contents and PCMD pages
 *
 * Pages shmem allocates are charged to @encl->memcg.  A load may free
 * them again (isgx_backing_free()) until the page is ISGX_PAGE_RECLAIMING:
 * a reclaimer reads a victim's backing first, then, under encl->lock,
 * checks that it is not stale (isgx_backing_stale()) and sets the flag.
 *
 * Context: process context, may sleep (shmem may read from swap); no
 * lock needed: the backing file and the page's address are fixed.
 * Return: 0, -ESRCH when the enclave's process has exited, or the shmem
 * error (-ENOMEM when the group is at its limit).
 */
int isgx_backing_get(struct isgx_encl *encl, struct isgx_encl_page *page,
		     struct isgx_backing *b)
{
	return isgx_encl_backing_read(encl, isgx_backing_index(encl, page),
				      isgx_pcmd_offset(encl, page), b);
}

/* Free @nr backing pages from @index: a hole reads back as zeroes. */
static void isgx_backing_truncate(struct isgx_encl *encl, pgoff_t index, pgoff_t nr)
{
	shmem_truncate_range(file_inode(encl->backing), (loff_t)index << PAGE_SHIFT,
			     ((loff_t)(index + nr) << PAGE_SHIFT) - 1);
}

/*
 * Does a page other than @page still need the PCMD page @page's PCMD is
 * in: one that is evicted (its PCMD is there) or being evicted (from
 * EBLOCK, which its reclaimer does only if the backing it read is not
 * stale, until its EWB wrote the PCMD: ISGX_PAGE_RECLAIMING)?  encl->lock
 * held.
 */
static bool isgx_pcmd_page_in_use(struct isgx_encl *encl, struct isgx_encl_page *page)
{
	unsigned long first = rounddown(isgx_backing_index(encl, page), ISGX_PCMDS_PER_PAGE);
	struct isgx_encl_page *p;
	unsigned long idx;

	xa_for_each_range(&encl->pages, idx, p, first, first + ISGX_PCMDS_PER_PAGE - 1)
		if (p != page && (!p->epc_page || (p->flags & ISGX_PAGE_RECLAIMING)))
			return true;
	return false;
}

/**
 * isgx_backing_free() - free the backing of a resident page
 * @encl:	the enclave
 * @page:	one of its pages, resident
 *
 * A resident page needs no sealed copy: its contents page goes, and so
 * does its PCMD page when no other page needs it (isgx_pcmd_page_in_use()).
 * Called after ELDU, and where a read of the backing may have made the
 * pages again after another thread loaded the page (shmem fills a hole
 * it is asked to read).  Nothing when the page is evicted or being
 * evicted: then its reclaimer may hold the backing pages.
 *
 * encl->lock orders this against EWB: a reclaimer that read a victim's
 * backing sets ISGX_PAGE_RECLAIMING under it only if what it read is still
 * in the file (isgx_backing_stale()), and clears it under it after the
 * EWB wrote the PCMD; so a sibling's EWB either is seen here (the PCMD
 * page stays) or finds its pages truncated and gives the victim up for
 * this pass.
 *
 * Context: encl->lock held; may sleep.
 */
void isgx_backing_free(struct isgx_encl *encl, struct isgx_encl_page *page)
{
	if (!page->epc_page || (page->flags & ISGX_PAGE_RECLAIMING))
		return;
	isgx_backing_truncate(encl, isgx_backing_index(encl, page), 1);
	if (!isgx_pcmd_page_in_use(encl, page))
		isgx_backing_truncate(encl, isgx_pcmd_offset(encl, page) >> PAGE_SHIFT, 1);
}

/*
 * Were @b's pages freed from @file since they were read: the page was
 * loaded by another thread meanwhile (and maybe evicted again, into new
 * pages)?  A shmem page with a reference held is neither swapped out nor
 * migrated, so it leaves the file only by a truncation, under encl->lock.
 */
static bool isgx_backing_stale(struct file *file, struct isgx_backing *b)
{
	return b->contents->mapping != file->f_mapping || b->pcmd->mapping != file->f_mapping;
}

/**
 * isgx_backing_read() - read in a sealed page and its PCMD from shmem
 * @file:	a shmem backing file
 * @index:	page index of the sealed contents
 * @pcmd:	byte offset of the PCMD
 * @b:		filled with references to both pages
 *
 * Context: process context, may sleep (shmem may read from swap).
 * Return: 0 or the shmem error.
 */
int isgx_backing_read(struct file *file, pgoff_t index, loff_t pcmd, struct isgx_backing *b)
{
	struct address_space *mapping = file->f_mapping;

	b->contents = shmem_read_mapping_page_gfp(mapping, index, mapping_gfp_mask(mapping));
	if (IS_ERR(b->contents))
		return PTR_ERR(b->contents);
	b->pcmd = shmem_read_mapping_page_gfp(mapping, pcmd >> PAGE_SHIFT,
					      mapping_gfp_mask(mapping));
	if (IS_ERR(b->pcmd)) {
		put_page(b->contents);
		return PTR_ERR(b->pcmd);
	}
	b->pcmd_offset = pcmd & ~PAGE_MASK;
	return 0;
}

/**
 * isgx_backing_put() - drop what isgx_backing_get() took
 * @b:		the backing pages
 * @dirty:	they were written
 *
 * Context: any that may sleep.
 */
void isgx_backing_put(struct isgx_backing *b, bool dirty)
{
	if (dirty) {
		set_page_dirty(b->contents);
		set_page_dirty(b->pcmd);
	}
	put_page(b->contents);
	put_page(b->pcmd);
}

/**
 * isgx_pager_load() - bring an evicted page back with ELDU
 * @encl:	its enclave
 * @page:	the evicted page
 * @epc:	a free EPC page for it
 * @b:		its backing pages, from isgx_backing_get() (the caller puts
 *		them)
 *
 * On success the sealed copy is spent: its PCMD is zeroed and its
 * backing freed (isgx_backing_free()).
 *
 * Context: encl->lock held; may sleep.
 * Return: 0 (the page is resident and on the LRU), -EAGAIN when its VA
 * page is evicted and no page was spare to load it (retry after an
 * allocation) or when @b was freed by a load of another thread after it
 * was read (read it again), -EIO when ELDU faults, or -EBADMSG when ELDU
 * refuses the sealed copy.
 */
int isgx_pager_load(struct isgx_encl *encl, struct isgx_encl_page *page,
		    struct isgx_epc_page *epc, struct isgx_backing *b)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN);
	int ret;

	if (isgx_backing_stale(encl->backing, b))
		return -EAGAIN;
	memcpy(&pcmd, page_address(b->pcmd) + b->pcmd_offset, sizeof(pcmd));
	pginfo.addr = page->addr;
	pginfo.contents = (unsigned long)page_address(b->contents);
	pginfo.metadata = (unsigned long)&pcmd;
	pginfo.secs = (unsigned long)encl->secs->va;
	ret = isgx_va_slot_pin(&page->va_slot);
	if (ret)
		return ret;
	ret = __eldu(&pginfo, epc->va, isgx_va_slot_addr(&page->va_slot));
	isgx_va_slot_unpin(&page->va_slot);
	trace_isgx_eldu(page->addr, ret);
	if (ret) {
		isgx_stat_inc(nr_eldu_failed);
		return encls_faulted(ret) ? -EIO : -EBADMSG;
	}
	isgx_stat_inc(nr_loaded);
	/* ELDU zeroed the slot: it is free again. */
	isgx_va_slot_put(&page->va_slot);
	epc->owner = page;
	page->epc_page = epc;
	isgx_pager_track(epc);
	/* An empty slot, so that a PCMD page of empty slots is all zeroes. */
	memset(page_address(b->pcmd) + b->pcmd_offset, 0, sizeof(pcmd));
	set_page_dirty(b->pcmd);
	isgx_backing_free(encl, page);
	return 0;
}

/*
 * Clear the PTE unless it is young (then only age it); with @clear unset,
 * only age it (active-list aging).  The mapping is
 * VM_PFNMAP: no struct page behind the PTE is referenced or counted, so
 * clearing it is the whole unmap.
 *
 * The TLB is flushed once per enclave per batch, by the kick round
 * (isgx_encl_kick()): the CPUs running the mm now flush in the IPI, the
 * others when they next switch to it.
 */
struct isgx_pte_clear {
	struct mm_struct *mm;
	bool force;		/* clear even a young PTE */
	bool clear;		/* clear an old PTE (else leave it mapped) */
};

static int isgx_pte_clear_old_fn(pte_t *ptep, unsigned long addr, void *data)
{
	struct isgx_pte_clear *c = data;
	pte_t pte = *ptep;

	if (pte_none(pte))
		return 0;
	if (pte_young(pte) && !c->force) {
		set_pte_at(c->mm, addr, ptep, pte_mkold(pte));
		return -EAGAIN;
	}
	if (c->clear)
		pte_clear(c->mm, addr, ptep);
	return 0;
}

/*
 * The young check of one victim, and with @clear->clear its PTE zapped.
 * With @clear->force the young bit is ignored: a pass that found every
 * victim young made no progress, and an allocation is waiting.  Return:
 * true when the victim is spared (young, or no longer this EPC page of a
 * live enclave).  encl->lock held.
 */
static bool isgx_victim_spared(struct isgx_victim *v, struct isgx_pte_clear *clear)
{
	struct isgx_encl *encl = v->encl;
	struct vm_area_struct *vma;

	if ((encl->flags & ISGX_ENCL_DEAD) || v->page->epc_page != v->epc)
		return true;
	vma = vma_lookup(clear->mm, v->page->addr);
	if (vma && vma->vm_private_data == encl &&
	    apply_to_existing_page_range(clear->mm, v->page->addr, PAGE_SIZE,
					 isgx_pte_clear_old_fn, clear)) {
		isgx_stat_inc(nr_second_chance);
		v->young = true;
		return true;
	}
	return false;
}

/*
 * Phase 1c for one victim: young check, PTE clear, EBLOCK.  encl->lock
 * held.
 */
static bool isgx_victim_block(struct isgx_victim *v, struct isgx_pte_clear *clear)
{
	int ret;

	if (isgx_victim_spared(v, clear))
		return false;
	ret = __eblock(v->epc->va);
	/* Already blocked by an earlier pass whose EWB failed: fine. */
	if (ret && ret != SGX_BLKSTATE) {
		if (encls_faulted_unexpectedly(ret))
			ENCLS_WARN(ret, "EBLOCK");
		return false;
	}
	/*
	 * From here until EWB the page must not be mapped again: a PTE made
	 * now would outlive the page's eviction.  Faults wait for the flag.
	 */
	v->page->flags |= ISGX_PAGE_RECLAIMING;
	return true;
}

/* What one kick round needs: counted on the sending CPU. */
struct isgx_kick {
	unsigned int nr_cpus;
};

/*
 * A CPU in lazy TLB mode runs a kernel thread or idles with the mm still
 * loaded: it is not inside (switching to it was an interrupt, an AEX),
 * and it checks the mm's TLB generation before it uses the mm again.
 */
static bool isgx_kick_cond(int cpu, void *info)
{
	struct isgx_kick *k = info;

	if (isgx_cpu_tlb_lazy(cpu))
		return false;
	if (cpu != smp_processor_id())
		k->nr_cpus++;
	return true;
}

static void isgx_kick_fn(void *info)
{
	isgx_encls_kick(info);
	/* The PTEs cleared by this batch: see isgx_pte_clear_old_fn(). */
	__flush_tlb_all();
}

/*
 * The IPI that makes CPUs leave the enclave (the interrupt is the AEX)
 * and drop their TLB entries of the pages this batch unmapped.
 *
 * Only the CPUs that run the enclave's mm now are sent it: they are the
 * ones that may be inside, and the only ones whose TLB may be used with
 * the mm before they next switch to it.  Every other CPU that may still
 * hold entries of the mm under its PCID (it ran the mm earlier, or holds
 * it lazily) compares its copy of the mm's TLB generation with the mm's
 * when it switches back, and flushes if it is behind: so the generation
 * is moved first.  The increment is a full barrier against a CPU setting
 * its bit in mm_cpumask() and then reading the generation: either it sees
 * the new generation, or this round sees its bit.  No CPU runs the mm, no
 * IPI.  encl->track_sem held for write; encl->lock is not needed (the mm
 * is pinned for the enclave's life, and a thread that enters after the
 * ETRACK is not in its tracking set): a pass's round runs without it.
 */
static void isgx_encl_kick(struct isgx_encl *encl)
{
	struct isgx_kick k = {};

	/* Before EINIT nothing is mapped and nobody can enter. */
	if (!(READ_ONCE(encl->flags) & ISGX_ENCL_INITIALIZED)) {
		trace_isgx_ipi(encl->base, 0);
		return;
	}
	isgx_mm_tlb_gen_inc(encl->mm);
	preempt_disable();
	on_each_cpu_cond_mask(isgx_kick_cond, isgx_kick_fn, &k, true, mm_cpumask(encl->mm));
	if (k.nr_cpus) {
		isgx_stat_inc(nr_ipi_rounds);
		isgx_stat_add(nr_ipi_cpus, k.nr_cpus);
	}
	/* This CPU may be a faulting thread of the mm itself. */
	__flush_tlb_all();
	preempt_enable();
	trace_isgx_ipi(encl->base, k.nr_cpus);
}

/*
 * One ETRACK for @encl, the CPUs of the previous cycle kicked out first
 * when they are still inside.  ETRACK locks the SECS, as ELDU does:
 * encl->lock held.  The caller keeps the task on one CPU from here to its
 * kick (isgx_reclaim_track()).
 */
static void isgx_encl_track(struct isgx_encl *encl)
{
	int ret;

	ret = __etrack(encl->secs->va);
	trace_isgx_etrack(encl->base, ret);
	isgx_stat_inc(nr_etrack);
	if (ret == SGX_PREV_TRK_INCMPL) {
		/* CPUs of the previous cycle are still inside: kick, then retry. */
		isgx_encl_kick(encl);
		ret = __etrack(encl->secs->va);
		trace_isgx_etrack(encl->base, ret);
		isgx_stat_inc(nr_etrack);
	}
	if (encls_faulted_unexpectedly(ret))
		ENCLS_WARN(ret, "ETRACK");
}

/*
 * Phase 2: ETRACK and kick for a pass, with no EWB of the enclave in
 * flight (it would answer SGX_NOT_TRACKED): encl->track_sem for write,
 * taken before encl->lock, so that the enclave's faults do not wait on
 * encl->lock while this waits for another pass's EWB.  Only the ETRACK
 * (with its rare retry) runs under encl->lock: the kick is an IPI round
 * that waits for every CPU it is sent to, and no fault should wait for it.  The task stays on
 * one CPU from ETRACK to the kick, so that the CPU it runs on is the one
 * ETRACK left out of the tracking set.
 */
static void isgx_reclaim_track(struct isgx_encl *encl, struct isgx_reclaim_clock *c)
{
	down_write(&encl->track_sem);
	isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_TRACK);
	migrate_disable();
	isgx_encl_track(encl);
	c->nr_tracks++;
	mutex_unlock(&encl->lock);
	isgx_encl_kick(encl);
	migrate_enable();
	up_write(&encl->track_sem);
}

/*
 * The blocked victim of @v[first..last) to write next: one a fault waits
 * for, else the first.  Without encl->lock: ISGX_PAGE_WANTED is a hint
 * (a fault that sets it just after this look waits for one more EWB).
 */
static unsigned long isgx_victim_next(struct isgx_victim *v, unsigned long first,
				      unsigned long last)
{
	unsigned long i, next = last;

	for (i = first; i < last; i++) {
		if (!v[i].blocked)
			continue;
		if (READ_ONCE(v[i].page->flags) & ISGX_PAGE_WANTED)
			return i;
		if (next == last)
			next = i;
	}
	return next;
}

/* The victim's EWB is done or given up: let waiting faults go on. */
static void isgx_victim_done(struct isgx_victim *v)
{
	v->page->flags &= ~(ISGX_PAGE_RECLAIMING | ISGX_PAGE_WANTED);
	/* Pairs with the waiter's flag check after it queued itself. */
	smp_mb();
	wake_up_var(v->page);
}

/*
 * An evicted victim leaves its history with the policy, unless nothing
 * mapped it since it was added.  encl->lock held.
 */
static void isgx_victim_evicted(struct isgx_victim *v)
{
	struct isgx_encl *encl = v->encl;

	isgx_proc_charge(encl->proc, -1);
	encl->nr_resident--;
	isgx_epc_release_evicted(v->epc);
	v->epc = NULL;
	/* Before encl->lock goes: a fault may load it again at once. */
	isgx_pager_lock();
	isgx_lru_evicted(&encl->proc->lru, &v->page->lru,
			 !(v->page->flags & ISGX_PAGE_NEVER_MAPPED));
	isgx_pager.nr_untracked++;
	isgx_pager_unlock();
}

/*
 * Phase 3 for one victim: EWB, without encl->lock; isgx_victim_commit()
 * records the outcome under it later.  The page is blocked and unmapped,
 * and ISGX_PAGE_RECLAIMING keeps faults, fault-around and debugger
 * accesses off it and its PCMD page in the backing (isgx_backing_free())
 * until then; EWB takes no lock on the SECS, so faults of the enclave
 * load other pages meanwhile.  It must not race an ETRACK of the enclave
 * (SGX_NOT_TRACKED), which another pass may run: encl->track_sem, read
 * here, written by isgx_reclaim_track().  The ladder's ETRACK locks the
 * SECS, as ELDU does: it runs under encl->lock, and its time goes to
 * ISGX_RECLAIM_TRACK on @c.
 */
static void isgx_victim_ewb(struct isgx_victim *v, struct isgx_reclaim_clock *c)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN) = {};
	struct isgx_backing *b = &v->backing;
	struct isgx_encl *encl = v->encl;
	int ret = 0, i;

	for (i = 0; i < ISGX_EWB_TRIES; i++) {
		pginfo.addr = 0;
		pginfo.contents = (unsigned long)page_address(b->contents);
		pginfo.metadata = (unsigned long)&pcmd;
		pginfo.secs = 0;
		down_read(&encl->track_sem);
		ret = __ewb(&pginfo, v->epc->va, isgx_va_slot_addr(&v->slot));
		up_read(&encl->track_sem);
		trace_isgx_ewb(v->page->addr, ret, i);
		if (ret != SGX_NOT_TRACKED)
			break;
		isgx_stat_inc(nr_ewb_not_tracked);
		/* Somebody was still inside: a new tracking cycle, kick again. */
		isgx_clock_lap(c, ISGX_RECLAIM_EWB);
		isgx_reclaim_track(encl, c);
		isgx_clock_lap(c, ISGX_RECLAIM_TRACK);
	}
	v->evicted = !ret || ret == SGX_VA_SLOT_OCCUPIED;
	v->written = true;
	v->has_backing = false;
	if (v->evicted) {
		memcpy(page_address(b->pcmd) + b->pcmd_offset, &pcmd, sizeof(pcmd));
		isgx_backing_put(b, true);
		isgx_va_slot_unpin(&v->slot);
		isgx_emu_inject_point(ISGX_EMU_POINT_WRITTEN);	/* tests */
	} else {
		isgx_backing_put(b, false);
		if (encls_faulted_unexpectedly(ret))
			ENCLS_WARN(ret, "EWB");
	}
}

/*
 * The outcome of a written victim: an evicted page frees its EPC page and
 * leaves its history with the policy (if it was ever mapped), a failed one
 * stays resident; faults waiting for it go on.  encl->lock held.
 * Return: true when the page was evicted.
 */
static bool isgx_victim_commit(struct isgx_victim *v)
{
	v->written = false;
	if (v->evicted) {
		v->page->va_slot = v->slot;
		v->slot.page = NULL;
		v->page->epc_page = NULL;
		isgx_victim_done(v);
		isgx_stat_inc(nr_evicted);
		isgx_victim_evicted(v);
	} else {
		isgx_stat_inc(nr_ewb_failed);
		isgx_victim_done(v);
		/* Reading it in made the pages: the page stays resident. */
		isgx_backing_free(v->encl, v->page);
	}
	return v->evicted;
}

/* The backing pages of an evicted SECS: see isgx_encl_secs_backing_index(). */
static int isgx_secs_backing_get(struct isgx_encl *encl, struct isgx_backing *b)
{
	pgoff_t index = isgx_encl_secs_backing_index(encl);

	return isgx_encl_backing_read(encl, index, (loff_t)(index + 1) << PAGE_SHIFT, b);
}

/*
 * The last resident page of an initialised enclave is gone: evict its
 * SECS too (EWB needs neither EBLOCK nor tracking for a SECS, only no
 * child in the EPC).  Its threads cannot be inside it any more, so the
 * model forgets its mm until the SECS is back.  Failures leave it
 * resident.  encl->lock held.
 */
static void isgx_encl_secs_evict(struct isgx_encl *encl)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN) = {};
	struct isgx_va_slot slot = {};
	struct isgx_backing b;
	int ret;

	if (encl->nr_resident || !encl->secs || (encl->flags & ISGX_ENCL_DEAD) ||
	    !(encl->flags & ISGX_ENCL_INITIALIZED) || isgx_encl_power_lost(encl))
		return;
	if (isgx_va_slot_get(&slot))
		return;
	if (isgx_secs_backing_get(encl, &b)) {
		isgx_va_slot_put(&slot);
		return;
	}
	if (!isgx_encls_hw)
		isgx_emu_encl_del_mm(encl->secs->va, encl->mm);
	pginfo.contents = (unsigned long)page_address(b.contents);
	pginfo.metadata = (unsigned long)&pcmd;
	ret = __ewb(&pginfo, encl->secs->va, isgx_va_slot_addr(&slot));
	trace_isgx_ewb(encl->base, ret, 0);
	if (ret && ret != SGX_VA_SLOT_OCCUPIED) {
		if (encls_faulted_unexpectedly(ret))
			ENCLS_WARN(ret, "EWB of a SECS");
		isgx_stat_inc(nr_ewb_failed);
		if (!isgx_encls_hw)
			isgx_emu_encl_add_mm(encl->secs->va, encl->mm);
		isgx_backing_put(&b, false);
		isgx_va_slot_put(&slot);
		return;
	}
	memcpy(page_address(b.pcmd), &pcmd, sizeof(pcmd));
	isgx_backing_put(&b, true);
	isgx_va_slot_unpin(&slot);
	isgx_epc_release_evicted(encl->secs);
	isgx_proc_charge(encl->proc, -1);
	encl->secs = NULL;
	encl->secs_slot = slot;
	isgx_stat_inc(nr_secs_evicted);
}

/**
 * isgx_pager_load_secs() - bring an evicted SECS back before a child
 * @encl:	the enclave, its SECS evicted
 * @epc:	a free EPC page for it
 *
 * Reads the backing under encl->lock: it happens once per enclave that
 * was wholly evicted.  After the load the SECS's backing pages are freed.
 *
 * Context: encl->lock held; may sleep.
 * Return: 0, -EAGAIN (as isgx_pager_load()), -ENOMEM (backing), -EIO
 * (ELDU faulted) or -EBADMSG (ELDU refused the sealed copy).
 */
int isgx_pager_load_secs(struct isgx_encl *encl, struct isgx_epc_page *epc)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct isgx_pcmd pcmd __aligned(SGX_PCMD_ALIGN);
	struct isgx_backing b;
	int ret;

	ret = isgx_secs_backing_get(encl, &b);
	if (ret)
		return ret;
	memcpy(&pcmd, page_address(b.pcmd), sizeof(pcmd));
	pginfo.contents = (unsigned long)page_address(b.contents);
	pginfo.metadata = (unsigned long)&pcmd;
	ret = isgx_va_slot_pin(&encl->secs_slot);
	if (ret) {
		isgx_backing_put(&b, false);
		return ret;
	}
	ret = __eldu(&pginfo, epc->va, isgx_va_slot_addr(&encl->secs_slot));
	isgx_va_slot_unpin(&encl->secs_slot);
	isgx_backing_put(&b, false);
	trace_isgx_eldu(encl->base, ret);
	if (ret) {
		isgx_stat_inc(nr_eldu_failed);
		return encls_faulted(ret) ? -EIO : -EBADMSG;
	}
	isgx_va_slot_put(&encl->secs_slot);
	/* Its sealed copy and PCMD pages are spent: nothing else is there. */
	isgx_backing_truncate(encl, isgx_encl_secs_backing_index(encl), 2);
	epc->owner = encl;
	encl->secs = epc;
	isgx_proc_charge(encl->proc, 1);
	isgx_stat_inc(nr_secs_loaded);
	/* Without it the model would see nobody inside: then EWB is lax. */
	if (!isgx_encls_hw && isgx_emu_encl_add_mm(encl->secs->va, encl->mm))
		pr_warn_ratelimited("enclave at %#lx: its threads are not tracked\n", encl->base);
	return 0;
}

/*
 * Take up to @nr pages from the head of @proc's hot or cold list, with
 * enclave references: O(@nr), plus the pages of dead enclaves it drops on
 * the way.  With @one_encl (seed), only pages of the enclave of the first
 * one: the first page of another enclave ends the isolation and stays at
 * the head.
 */
static unsigned long isgx_pager_isolate(struct isgx_proc *proc, bool hot,
					struct isgx_victim *victims, unsigned long nr,
					bool one_encl)
{
	unsigned long n = 0, scanned = 0;
	struct isgx_lru_page *p;

	isgx_pager_lock();
	while (n < nr) {
		struct isgx_encl_page *page;
		struct isgx_encl *encl;

		/*
		 * Here, with every page taken so far referenced: dropped pages
		 * count too (a dead enclave's are many).
		 */
		isgx_pager_lock_break(scanned++);
		p = isgx_lru_isolate(&proc->lru, hot);
		if (!p)
			break;
		page = container_of(p, struct isgx_encl_page, lru);
		encl = page->encl;

		/*
		 * Pages of a destroyed enclave (isgx_victim_spared() refuses
		 * them) or of one the EPC was lost under (EBLOCK would fault)
		 * are never evicted: off the lists for good, freed with their
		 * enclave.  (The hw backend cannot tell a lost enclave: its
		 * pages stay, and kisgxswapd's stuck rounds bound the cost.)
		 */
		if ((READ_ONCE(encl->flags) & ISGX_ENCL_DEAD) || isgx_encl_power_lost(encl))
			continue;
		if (one_encl && n && encl != victims[0].encl) {
			isgx_lru_unisolate(&proc->lru, p);
			break;
		}
		/* An enclave on its way out frees its own pages. */
		if (!kref_get_unless_zero(&encl->refcount))
			continue;
		victims[n++] = (struct isgx_victim){
			.epc = READ_ONCE(page->epc_page),
			.page = page,
			.encl = encl,
		};
	}
	isgx_pager_unlock();
	return n;
}

/*
 * Victims of one enclave are adjacent after this (a stable insertion
 * sort: a batch or two, mostly of one enclave, so nearly in order).
 */
static void isgx_victims_group(struct isgx_victim *v, unsigned long n)
{
	unsigned long i, j;

	for (i = 1; i < n; i++) {
		struct isgx_victim tmp = v[i];

		for (j = i; j > 0 && (unsigned long)v[j - 1].encl > (unsigned long)tmp.encl; j--)
			v[j] = v[j - 1];
		v[j] = tmp;
	}
}

/* The end of the group of v[@first]'s enclave (isgx_victims_group()). */
static unsigned long isgx_victims_group_end(const struct isgx_victim *v, unsigned long n,
					    unsigned long first)
{
	unsigned long last = first;

	while (last < n && v[last].encl == v[first].encl)
		last++;
	return last;
}

#define for_each_victim_group(v, n, first, last)				\
	for ((first) = 0; (first) < (n) && ((last) = isgx_victims_group_end(v, n, first), 1); \
	     (first) = (last))

/*
 * Lock the mm of @encl for reading.  Only kisgxswapd waits for it: a
 * thread that reclaims from its own fault handler already holds its own,
 * and a writer queued behind that would deadlock a blocking read lock.
 */
static bool isgx_encl_mm_trylock(struct isgx_encl *encl)
{
	if (!mmget_not_zero(encl->mm))
		return false;
	/* kisgxswapd holds no mmap_lock: it may wait for this one. */
	if (current == isgx_pager.swapd) {
		mmap_read_lock(encl->mm);
		return true;
	}
	if (mmap_read_trylock(encl->mm))
		return true;
	mmput_async(encl->mm);
	return false;
}

/*
 * mmput_async(): the reference may be the last one, and tearing an mm
 * down here could take its mmap_lock while a faulting thread that
 * reclaims holds its own.
 */
static void isgx_encl_mm_unlock(struct isgx_encl *encl)
{
	mmap_read_unlock(encl->mm);
	mmput_async(encl->mm);
}

/* Drop the victims' enclave references: the last one frees an enclave. */
static void isgx_victims_put(struct isgx_victim *v, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		isgx_encl_put(v[i].encl);
}

/*
 * The hot hand: move it over the oldest @nr hot pages of @proc, harvesting
 * their young bits (one mm lock round per enclave, encl->lock given up
 * every ISGX_ENCL_LOCK_CHUNK pages),
 * and let the policy keep or demote each (isgx_lru_aged()).  Waits for an
 * enclave lock are charged to ISGX_RECLAIM_WAIT on @c, the rest to
 * ISGX_RECLAIM_AGE.
 */
static void isgx_pager_age(struct isgx_proc *proc, struct isgx_victim *v, unsigned long nr,
			   struct isgx_reclaim_clock *c)
{
	unsigned long n = isgx_pager_isolate(proc, true, v, nr, false);
	unsigned long first, last, i, nr_demoted = 0;

	isgx_victims_group(v, n);
	for_each_victim_group(v, n, first, last) {
		struct isgx_encl *encl = v[first].encl;
		struct isgx_pte_clear age = { .mm = encl->mm };

		if (!isgx_encl_mm_trylock(encl)) {
			/* No information: keep them hot. */
			for (i = first; i < last; i++)
				v[i].young = true;
			continue;
		}
		isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_AGE);
		for (i = first; i < last; i++) {
			struct vm_area_struct *vma;

			isgx_reclaim_encl_lock_break(encl, i - first, c, ISGX_RECLAIM_AGE);
			vma = vma_lookup(encl->mm, v[i].page->addr);
			v[i].young = vma && vma->vm_private_data == encl &&
				     apply_to_existing_page_range(encl->mm, v[i].page->addr,
								  PAGE_SIZE, isgx_pte_clear_old_fn,
								  &age);
		}
		mutex_unlock(&encl->lock);
		isgx_encl_mm_unlock(encl);
	}
	isgx_pager_lock();
	for (i = 0; i < n; i++) {
		isgx_lru_aged(&proc->lru, &v[i].page->lru, v[i].young);
		nr_demoted += !v[i].young;
		isgx_pager_lock_break(i);
	}
	isgx_pager_unlock();
	isgx_stat_add(nr_demoted, nr_demoted);
	isgx_stat_add(nr_aged, n);
	isgx_clock_lap(c, ISGX_RECLAIM_AGE);
	/* A last reference frees an enclave: no phase of the pass. */
	isgx_victims_put(v, n);
	isgx_clock_skip(c);
}

/*
 * The hot hand moves at most this many batches in one pass
 * (isgx_lru_nr_to_age()); a pass's victim array holds that many batches,
 * or ISGX_FILL_MAX if more.
 */
#define ISGX_HOT_HAND_MAX	2

/*
 * Up to @nr victims from the cold list, topped up from the hot one when
 * the cold list runs short and @hot_too.  Return: the number taken.
 */
static unsigned long isgx_reclaim_take(struct isgx_proc *proc, struct isgx_victim *v,
				       unsigned long nr, bool hot_too,
				       struct isgx_reclaim_clock *c)
{
	bool one_encl = READ_ONCE(policy) == ISGX_POLICY_SEED;
	unsigned long n = isgx_pager_isolate(proc, false, v, nr, one_encl);

	if (hot_too && n < nr && !(one_encl && n)) {
		unsigned long hot = isgx_pager_isolate(proc, true, v + n, nr - n, one_encl);

		isgx_stat_add(nr_victims_hot, hot);
		n += hot;
	}
	isgx_stat_add(nr_scanned, n);
	isgx_victims_group(v, n);
	isgx_clock_lap(c, ISGX_RECLAIM_ISOLATE);
	return n;
}

/*
 * Phase 0, isolate: the hot hand moves as the policy asks, then up to @nr
 * victims are taken (isgx_reclaim_take()), grouped by enclave.
 */
static unsigned long isgx_reclaim_isolate(struct isgx_proc *proc, struct isgx_victim *v,
					  unsigned long nr, struct isgx_reclaim_clock *c)
{
	enum isgx_lru_mode mode = isgx_lru_mode();
	unsigned long nr_age;

	isgx_pager_lock();
	nr_age = min(isgx_lru_nr_to_age(&proc->lru, mode, nr), ISGX_HOT_HAND_MAX * nr);
	isgx_pager_unlock();
	if (nr_age)
		isgx_pager_age(proc, v, nr_age, c);
	return isgx_reclaim_take(proc, v, nr, true, c);
}

/*
 * VA slots for v[0..@n), under no enclave lock: taking one may sleep and
 * allocate (never reclaims).  A victim without one is never a candidate.
 */
static void isgx_reclaim_slots(struct isgx_victim *v, unsigned long n,
			       struct isgx_reclaim_clock *c)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (isgx_va_slot_get(&v[i].slot))
			break;
	isgx_clock_lap(c, ISGX_RECLAIM_EWB);
}

/*
 * Phase 1a for the victims v[@first..@last) of one enclave: the young
 * check, under the enclave's mm and encl->lock, PTEs left in place; the
 * victims that are not spared and have a VA slot are candidates.  A
 * young bit the policy does not count (a page just made resident) is no
 * reprieve.  Return: the number of candidates.
 */
static unsigned long isgx_reclaim_select(struct isgx_victim *v, unsigned long first,
					 unsigned long last, bool force,
					 struct isgx_reclaim_clock *c)
{
	struct isgx_encl *encl = v[first].encl;
	enum isgx_lru_mode mode = isgx_lru_mode();
	unsigned long i, nr = 0;

	if (!isgx_encl_mm_trylock(encl))
		return 0;
	isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_BLOCK);
	for (i = first; i < last; i++) {
		struct isgx_pte_clear check = {
			.mm = encl->mm,
			.force = force || !isgx_lru_young_counts(&v[i].page->lru, mode),
		};

		isgx_reclaim_encl_lock_break(encl, i - first, c, ISGX_RECLAIM_BLOCK);
		v[i].candidate = v[i].slot.page && !isgx_victim_spared(&v[i], &check);
		nr += v[i].candidate;
	}
	mutex_unlock(&encl->lock);
	isgx_encl_mm_unlock(encl);
	isgx_clock_lap(c, ISGX_RECLAIM_BLOCK);
	return nr;
}

/* The candidates among v[@first..@last). */
static unsigned long isgx_victims_candidates(const struct isgx_victim *v, unsigned long first,
					     unsigned long last)
{
	unsigned long i, nr = 0;

	for (i = first; i < last; i++)
		nr += v[i].candidate;
	return nr;
}

/*
 * Phase 1a for v[0..@n), enclave by enclave; the VA slots of those that
 * are not candidates go back at once.  Return: the candidates, and in
 * *@nr_young the victims spared because they were young.
 */
static unsigned long isgx_reclaim_select_all(struct isgx_victim *v, unsigned long n,
					     bool force, unsigned long *nr_young,
					     struct isgx_reclaim_clock *c)
{
	unsigned long first, last, i, nr = 0;

	for_each_victim_group(v, n, first, last)
		nr += isgx_reclaim_select(v, first, last, force, c);
	*nr_young = 0;
	for (i = 0; i < n; i++) {
		if (v[i].candidate)
			continue;
		*nr_young += v[i].young;
		isgx_va_slot_put(&v[i].slot);
	}
	isgx_clock_lap(c, ISGX_RECLAIM_EWB);
	return nr;
}

/* Victims a pass may take, in batches: room to fill its batch. */
#define ISGX_FILL_MAX		2

/*
 * Rounds of victims a pass takes to fill its batch, at most.  Each round
 * takes as many as the young check spared in the one before, so the
 * rounds shrink as fast as it spares: with half spared, a batch of 64
 * lacks a page or none after six (512 a page or two after eight).  ISGX_FILL_MAX
 * bounds the victims; this bounds the lock rounds.
 */
#define ISGX_FILL_TRIES		8

/*
 * Phase 1a, continued, in kisgxswapd's passes: the young check spared
 * @nr_young of the @n victims in @v, leaving @nr_candidates of a batch of
 * @nr, and a pass that blocks fewer than its batch pays the same ETRACK
 * and IPI round for fewer pages.  So, while the batch is short, as many
 * victims as were spared young are taken from the cold list in their
 * place and checked in turn, within the @cap entries of @v and
 * ISGX_FILL_TRIES rounds.  Victims that are no candidates for other
 * reasons (no VA slot, the mm busy) are not replaced, nor are hot pages
 * taken: the cold list running out ends the fill.  (Not the baselines:
 * the drivers they model did not.)  Victims are grouped by enclave
 * again, so that each enclave has one group and one ETRACK.  Return: the
 * number of victims in @v (@n and those added).
 */
static unsigned long isgx_reclaim_fill(struct isgx_proc *proc, struct isgx_victim *v,
				       unsigned long n, unsigned long nr_candidates,
				       unsigned long nr_young, unsigned long nr,
				       unsigned long cap, bool force,
				       struct isgx_reclaim_clock *c)
{
	unsigned long want, more;
	int tries;

	for (tries = 0; tries < ISGX_FILL_TRIES; tries++) {
		want = min3(nr > nr_candidates ? nr - nr_candidates : 0, nr_young, cap - n);
		if (!want)
			break;
		more = isgx_reclaim_take(proc, v + n, want, false, c);
		if (!more)
			break;
		isgx_stat_add(nr_fill_victims, more);
		isgx_reclaim_slots(v + n, more, c);
		nr_candidates += isgx_reclaim_select_all(v + n, more, force, &nr_young, c);
		n += more;
	}
	if (tries)
		isgx_victims_group(v, n);
	return n;
}

/*
 * Phase 1b: read in the backing pages of each candidate, without
 * encl->lock (shmem may allocate, or read from swap), and before any is
 * blocked: a victim whose backing cannot be had (its group at its memory
 * limit, say) is never blocked, so it stays usable.  A blocked page
 * leaves the EPCM only through EWB: there is no unblocking it, and a new
 * translation of it would fault.  Return: the number with backing.
 */
static unsigned long isgx_reclaim_backing(struct isgx_victim *v, unsigned long first,
					  unsigned long last, struct isgx_reclaim_clock *c)
{
	unsigned long i, nr = 0;

	for (i = first; i < last; i++) {
		int ret;

		if (!v[i].candidate)
			continue;
		ret = isgx_backing_get(v[i].encl, v[i].page, &v[i].backing);
		v[i].has_backing = !ret;
		nr += !ret;
		/* -ESRCH: the process is gone, nothing was read. */
		if (ret && ret != -ESRCH)
			isgx_stat_inc(nr_backing_failed);
	}
	isgx_clock_lap(c, ISGX_RECLAIM_BACKING);
	return nr;
}

/*
 * Phase 1c for the @nr_backing candidates of v[@first..@last) with
 * backing: young check again (a page used since 1a is spared), PTE clear,
 * EBLOCK, under the enclave's mm and encl->lock.  A backing read before a load of a
 * sibling freed its PCMD page (or of this page, by fault-around) is
 * stale: that victim waits for another pass.  From ISGX_PAGE_RECLAIMING
 * on, no load frees a victim's backing.  Then, once every victim that
 * will be is blocked (so that their PCMD pages stay), what was read in
 * for the others goes from the file again: they stay resident, and a
 * read that failed half-way may have made the contents page.
 * Return: the number blocked.
 */
static unsigned long isgx_reclaim_block(struct isgx_victim *v, unsigned long first,
					unsigned long last, unsigned long nr_backing, bool force,
					struct isgx_reclaim_clock *c)
{
	struct isgx_encl *encl = v[first].encl;
	bool locked = nr_backing && isgx_encl_mm_trylock(encl);
	enum isgx_lru_mode mode = isgx_lru_mode();
	unsigned long i, nr_blocked = 0;

	isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_BLOCK);
	for (i = first; locked && i < last; i++) {
		struct isgx_pte_clear clear = {
			.mm = encl->mm,
			.force = force || !isgx_lru_young_counts(&v[i].page->lru, mode),
			.clear = true,
		};

		isgx_reclaim_encl_lock_break(encl, i - first, c, ISGX_RECLAIM_BLOCK);
		if (v[i].has_backing &&
		    !isgx_backing_stale(encl->backing, &v[i].backing) &&
		    isgx_victim_block(&v[i], &clear)) {
			v[i].blocked = true;
			nr_blocked++;
		}
	}
	for (i = first; i < last; i++) {
		isgx_reclaim_encl_lock_break(encl, i - first, c, ISGX_RECLAIM_BLOCK);
		if (v[i].blocked)
			continue;
		if (v[i].has_backing) {
			v[i].has_backing = false;
			isgx_backing_put(&v[i].backing, false);
		}
		if (v[i].candidate)
			isgx_backing_free(encl, v[i].page);
	}
	mutex_unlock(&encl->lock);
	if (locked)
		isgx_encl_mm_unlock(encl);
	isgx_clock_lap(c, ISGX_RECLAIM_BLOCK);
	return nr_blocked;
}

/*
 * Commit the written victims now, waiting for encl->lock if a fault holds
 * it?  Yes when a fault waits for one of them, or when more than
 * commit_defer are waiting for their commit (their EPC pages are not
 * free until then).  Else the commit waits for a moment when the lock
 * is free, so that kisgxswapd writes its next victim instead of waiting
 * for the ELDU of a fault.  ISGX_PAGE_WANTED is read without the lock: a
 * fault that sets it just after this look waits for one more EWB.
 */
static bool isgx_reclaim_commit_now(const struct isgx_victim *v, unsigned long first,
				    unsigned long last, unsigned long nr_written)
{
	unsigned long i;

	/* The baselines commit each EWB at once, as the drivers they model. */
	if (isgx_policy_baseline() || nr_written > READ_ONCE(commit_defer))
		return true;
	for (i = first; i < last; i++)
		if (v[i].written && (READ_ONCE(v[i].page->flags) & ISGX_PAGE_WANTED))
			return true;
	return false;
}

/* Commit the written victims of @v[first..last).  encl->lock held. */
static unsigned long isgx_reclaim_commit(struct isgx_victim *v, unsigned long first,
					 unsigned long last)
{
	unsigned long i, nr_evicted = 0;

	for (i = first; i < last; i++)
		if (v[i].written)
			nr_evicted += isgx_victim_commit(&v[i]);
	return nr_evicted;
}

/*
 * Phases 2 and 3 for the @nr_blocked blocked victims of v[@first..@last):
 * one ETRACK and kick (isgx_reclaim_track()), then their EWBs, each
 * without encl->lock (isgx_victim_ewb()): a fault of the enclave waits for no EWB but that
 * of its own page, which is written next (the tracking cycle stays
 * valid).  The written victims are committed whenever encl->lock is free
 * after an EWB, or waited for when isgx_reclaim_commit_now() says so;
 * the rest at the end.  Then the SECS, if the enclave has no resident
 * page left.  Return: the number evicted.
 */
static unsigned long isgx_reclaim_write(struct isgx_victim *v, unsigned long first,
					unsigned long last, unsigned long nr_blocked,
					struct isgx_reclaim_clock *c)
{
	struct isgx_encl *encl = v[first].encl;
	unsigned long i, k, nr_written = 0, nr_evicted = 0;

	isgx_reclaim_track(encl, c);
	isgx_clock_lap(c, ISGX_RECLAIM_TRACK);
	for (k = 0; k < nr_blocked; k++) {
		i = isgx_victim_next(v, first, last);
		v[i].blocked = false;
		isgx_victim_ewb(&v[i], c);
		nr_written++;
		if (isgx_reclaim_commit_now(v, first, last, nr_written)) {
			isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_EWB);
		} else if (!mutex_trylock(&encl->lock)) {
			cond_resched();
			continue;
		}
		nr_evicted += isgx_reclaim_commit(v, first, last);
		nr_written = 0;
		mutex_unlock(&encl->lock);
		cond_resched();
	}
	isgx_reclaim_encl_lock(encl, c, ISGX_RECLAIM_EWB);
	nr_evicted += isgx_reclaim_commit(v, first, last);
	isgx_encl_secs_evict(encl);
	mutex_unlock(&encl->lock);
	isgx_clock_lap(c, ISGX_RECLAIM_EWB);
	return nr_evicted;
}

/*
 * Phase 4: victims not evicted go back to the policy (a young one may be
 * promoted, a failure goes to the cold tail), the VA slots of the pass go
 * back to the pool, and only then the enclave references are dropped:
 * the last one releases the enclave, which frees every page it has,
 * including later victims of this pass, so none may be touched after it.
 */
static void isgx_reclaim_putback(struct isgx_proc *proc, struct isgx_victim *v,
				 unsigned long n, struct isgx_reclaim_clock *c)
{
	enum isgx_lru_mode mode = isgx_lru_mode();
	unsigned long i;

	isgx_pager_lock();
	for (i = 0; i < n; i++) {
		if (v[i].epc)
			isgx_lru_putback(&proc->lru, &v[i].page->lru, v[i].young, mode);
		isgx_pager_lock_break(i);
	}
	isgx_pager_unlock();
	isgx_clock_lap(c, ISGX_RECLAIM_ISOLATE);
	for (i = 0; i < n; i++)
		isgx_va_slot_put(&v[i].slot);
	isgx_clock_lap(c, ISGX_RECLAIM_EWB);
	isgx_victims_put(v, n);
}

/*
 * One pass over @proc's lists: isolate up to @nr_to_scan victims (up to
 * twice as many in kisgxswapd's, to fill the batch) and evict up to
 * @nr_to_scan of them, phase by phase (see the top of this file).  Its time goes
 * to the phases of debugfs ns_reclaim_* (struct isgx_reclaim_clock).
 * Context: process context, may sleep; no enclave lock held.  Returns the
 * number evicted.
 */
static unsigned long isgx_pager_reclaim_proc(struct isgx_proc *proc, unsigned long nr_to_scan,
					     bool force)
{
	/* Room for the hot hand's move and for filling the batch. */
	unsigned long cap = max(ISGX_HOT_HAND_MAX, ISGX_FILL_MAX) * nr_to_scan;
	unsigned long n, first, last, nr_candidates, nr_young, nr_evicted = 0;
	bool swapd = current == isgx_pager.swapd;
	struct isgx_reclaim_clock c = {};
	struct isgx_victim *v;

	c.start = ktime_get_ns();
	v = kvmalloc_array(cap, sizeof(*v), GFP_KERNEL);
	if (!v)
		return 0;
	trace_isgx_reclaim_begin(nr_to_scan, isgx_epc_nr_free());
	isgx_stat_inc(nr_reclaim_passes);
	isgx_clock_skip(&c);

	n = isgx_reclaim_isolate(proc, v, nr_to_scan, &c);
	isgx_reclaim_slots(v, n, &c);
	nr_candidates = isgx_reclaim_select_all(v, n, force, &nr_young, &c);
	/* A fault's or an ioctl's own pass stays short: it is waited for. */
	if (swapd && !isgx_policy_baseline())
		n = isgx_reclaim_fill(proc, v, n, nr_candidates, nr_young, nr_to_scan, cap,
				      force, &c);

	for_each_victim_group(v, n, first, last) {
		unsigned long nr_blocked;

		if (!isgx_victims_candidates(v, first, last))
			continue;
		nr_blocked = isgx_reclaim_block(v, first, last,
						isgx_reclaim_backing(v, first, last, &c), force, &c);
		if (!nr_blocked)
			continue;
		isgx_emu_inject_point(ISGX_EMU_POINT_BLOCKED);	/* tests: power_loss_at */
		nr_evicted += isgx_reclaim_write(v, first, last, nr_blocked, &c);
	}

	isgx_reclaim_putback(proc, v, n, &c);
	kvfree(v);
	if (swapd) {
		isgx_stat_add(nr_swapd_evicted, nr_evicted);
		isgx_stat_add(nr_swapd_tracks, c.nr_tracks);
	}
	trace_isgx_reclaim_end(n, nr_evicted);
	isgx_stats_reclaim_pass(c.ns, ktime_get_ns() - c.start);
	return nr_evicted;
}

/**
 * isgx_pager_reclaim() - one reclaim pass: evict up to @nr_to_scan pages
 * @nr_to_scan:	the batch size
 * @force:	evict victims even when their young bit is set
 *
 * The victims come from one process: under the default and twolist
 * policies the next, round robin, of those holding at least their fair
 * share of evictable pages (isgx_proc_fair_share()), so that a large
 * working set churns its own pages and not a small one's; under fifo16
 * and seed the next of those holding any.  (A pass that evicts nothing
 * does not try another process: the big one's pages are often isolated
 * by its own faults' passes, and the small one would pay.)
 *
 * Context: process context, may sleep; no enclave lock held.
 * Return: the number of pages evicted.
 */
unsigned long isgx_pager_reclaim(unsigned long nr_to_scan, bool force)
{
	unsigned long min_pages = isgx_policy_baseline() ? 1 : isgx_proc_fair_share();
	struct isgx_proc *proc = isgx_proc_next(min_pages);
	unsigned long nr;

	if (!proc)
		return 0;
	nr = isgx_pager_reclaim_proc(proc, nr_to_scan, force);
	isgx_proc_put(proc);
	return nr;
}

/**
 * isgx_pager_charge() - charge a page about to be made resident to its process
 * @encl:	the enclave that gets the page
 *
 * Within max_pages_per_process, checked and charged in one step
 * (isgx_proc_try_charge()); a process at its limit evicts its own pages
 * first, in a bounded number of passes (forced after the first: its
 * limit, not the age of its pages, decides).
 *
 * Context: process context, may sleep; no enclave lock held.  A fault may
 * call it with its mmap_lock held: reclaim only try-locks that mm.
 * Return: 0 (charged: the page is tracked by isgx_pager_track(), or the
 * charge given back with isgx_proc_charge(proc, -1)), or -EBUSY when the
 * process is still at its limit.
 */
int isgx_pager_charge(struct isgx_encl *encl)
{
	int i;

	for (i = 0; isgx_proc_try_charge(encl->proc); i++) {
		if (i == 4)
			return -EBUSY;
		/* Small passes: a fault may be waiting here, its mmap_lock held. */
		isgx_pager_reclaim_proc(encl->proc, min_t(unsigned long, isgx_batch(),
							  ISGX_FAULT_BATCH), i > 0);
	}
	return 0;
}

/**
 * isgx_pager_make_room() - keep a process within max_pages_per_process
 * @encl:	an enclave of the process, about to get a page
 *
 * A process at its limit evicts its own pages first, in a bounded number
 * of passes (forced after the first: its limit, not the age of its
 * pages, decides).
 *
 * Context: process context, may sleep; no enclave lock held.  A fault may
 * call it with its mmap_lock held: reclaim only try-locks that mm.
 * Return: 0, or -EBUSY when the process is still at its limit (its pages
 * are held by other passes, or its mm is locked by a writer).
 */
int isgx_pager_make_room(struct isgx_encl *encl)
{
	int i;

	for (i = 0; i < 4 && isgx_proc_over_limit(encl->proc); i++)
		isgx_pager_reclaim_proc(encl->proc, isgx_batch(), i > 0);
	return isgx_proc_over_limit(encl->proc) ? -EBUSY : 0;
}

/* A kisgxswapd that found nothing evictable tries again this often anyway. */
#define ISGX_SWAPD_STUCK_RETRY	HZ

/* Below the low mark, with pages made resident since @tracked. */
static bool isgx_swapd_unstuck(unsigned long tracked)
{
	return isgx_pager_below_low() && READ_ONCE(isgx_pager.nr_tracked) != tracked;
}

/* The raise of the marks stays within this many batches. */
#define ISGX_MARKS_EXTRA_BATCHES	2

/*
 * The raise of the marks: at most ISGX_MARKS_EXTRA_BATCHES batches and an
 * eighth of the EPC (beyond, demand outruns any single kisgxswapd and
 * faults reclaim themselves), and the high mark within the EPC.
 */
static unsigned long isgx_marks_extra_cap(void)
{
	unsigned long total = isgx_epc_nr_total(), high = READ_ONCE(high_mark);
	unsigned long cap = min_t(unsigned long, ISGX_MARKS_EXTRA_BATCHES * isgx_batch(),
				  total / 8);

	return min_t(unsigned long, cap, total - min_t(unsigned long, total, high));
}

/*
 * The adaptive wake mark, at the end of each kisgxswapd round.  From the
 * moment the free count drops below the low mark to the first page
 * kisgxswapd's pass frees (its wake-up, the hot hand, isolation, VA
 * slots, the young checks and the fill, backing, EBLOCK, ETRACK, the
 * first EWB and its commit), and between its passes, faults go on taking
 * free pages; below the min mark one of them reclaims ISGX_FAULT_BATCH
 * pages itself, in its own latency.  So kisgxswapd measures, in pages,
 * how far the free count fell below the low mark it woke at, from the end
 * of the round before (so the fall before it woke counts) to the end of
 * this one (the allocator's low water, isgx_epc_low_water_reset(), which
 * sees every allocation, whoever frees pages), keeps the largest of its
 * recent rounds (a maximum that decays by an eighth a round, so its
 * memory is counted in rounds, not time), and raises both marks so that
 * this drawdown and a quarter more stay above the min mark.  No more than
 * that: every free page is an EPC page the policy cannot use.  (When the
 * free count reaches the allocator's floor, demand outruns kisgxswapd and
 * the drawdown grows with the marks: a few such rounds take the raise to
 * its cap, as the rule before it did.)  A round that found nothing
 * evictable (debugfs nr_swapd_stuck), or that followed one, measures only
 * kisgxswapd's trouble: it leaves the drawdown to decay.  The baselines
 * keep their fixed marks (isgx_low_mark()) and measure nothing, so a
 * switch back to the default starts afresh.  Marks a user wrote are left
 * alone.
 */
static void isgx_swapd_drawdown(unsigned long low, unsigned long low_water, bool measured)
{
	unsigned long d, kept, need, base = READ_ONCE(low_mark);

	if (isgx_policy_baseline()) {
		isgx_pager.drawdown = 0;
		WRITE_ONCE(isgx_marks_extra, 0);
		return;
	}
	d = measured && low > low_water ? low - low_water : 0;
	kept = isgx_pager.drawdown - DIV_ROUND_UP(isgx_pager.drawdown, 8);
	isgx_pager.drawdown = max(d, kept);
	need = isgx_pager.drawdown + isgx_pager.drawdown / 4 + isgx_min_mark();
	need = need > base ? need - base : 0;
	WRITE_ONCE(isgx_marks_extra, min(need, isgx_marks_extra_cap()));
}

/*
 * kisgxswapd: wakes below the low mark, reclaims up to the high one.  When
 * a round frees nothing (every resident page is a SECS of an enclave not
 * yet initialised, or belongs to a lost or dying enclave), being below the
 * low mark is no reason to try again at once: it sleeps until a page is
 * made resident, which may be evictable, or for a second, so that a
 * transient failure (a backing page that could not be allocated) is
 * retried, but never spins.
 */
static int isgx_swapd(void *unused)
{
	unsigned long tracked = 0, low;
	bool stuck = false, was_stuck;

	set_freezable();
	isgx_epc_low_water_reset();	/* measure from now, not from 0 */
	while (!kthread_should_stop()) {
		if (stuck)
			wait_event_freezable_timeout(isgx_pager.swapd_wq,
						     kthread_should_stop() ||
						     isgx_swapd_unstuck(tracked),
						     ISGX_SWAPD_STUCK_RETRY);
		else
			wait_event_freezable(isgx_pager.swapd_wq,
					     kthread_should_stop() || isgx_pager_below_low());
		was_stuck = stuck;
		stuck = false;
		/* The low water runs from the last round's end: the fall before waking counts. */
		low = isgx_low_mark();
		trace_isgx_swapd_wake(isgx_epc_nr_free());
		while (!kthread_should_stop() &&
		       isgx_epc_nr_free() < isgx_high_mark()) {
			unsigned long nr;

			tracked = READ_ONCE(isgx_pager.nr_tracked);
			/* A pass that found only young pages is followed by a forced one. */
			nr = isgx_pager_reclaim(isgx_batch(), false);
			if (!nr)
				nr = isgx_pager_reclaim(isgx_batch(), true);
			if (!nr) {
				/* Nothing evictable now. */
				stuck = true;
				if (!isgx_pager.stuck_since)
					WRITE_ONCE(isgx_pager.stuck_since, jiffies | 1);
				WRITE_ONCE(isgx_pager.stuck_rounds, isgx_pager.stuck_rounds + 1);
				isgx_stat_inc(nr_swapd_stuck);
				break;
			}
			WRITE_ONCE(isgx_pager.stuck_since, 0);
			WRITE_ONCE(isgx_pager.stuck_rounds, 0);
			cond_resched();
		}
		isgx_swapd_drawdown(low, isgx_epc_low_water_reset(), !was_stuck && !stuck);
		isgx_va_reclaim();
		trace_isgx_swapd_sleep(isgx_epc_nr_free());
	}
	return 0;
}

/**
 * isgx_pager_init() - default watermarks and start kisgxswapd
 *
 * Context: module init, after isgx_epc_init().
 * Return: 0, or the kthread_run() error.
 */
int isgx_pager_init(void)
{
	unsigned long total = isgx_epc_nr_total();

	spin_lock_init(&isgx_pager.lock);
	init_waitqueue_head(&isgx_pager.swapd_wq);
	/*
	 * One ETRACK and one IPI round per enclave per batch: the larger the
	 * batch, the cheaper each eviction, but the free pages a batch leaves
	 * and the cold pages that refill them hold nothing useful (lru.c): 64
	 * pages (one ETRACK per 64 evictions) up to 64 k pages of EPC, 1/32 of
	 * it beyond, and at most 1/8 of a small EPC.
	 */
	if (!batch)
		batch = min(clamp(total / 32, 64UL, 512UL), max(16UL, total / 8));
	if (!low_mark)
		low_mark = min(total / 2, max(32UL, total / 64));
	if (!high_mark)
		high_mark = min_t(unsigned long, total, 2 * low_mark);
	if (!min_mark)
		min_mark = low_mark / 2;
	if (min_mark > low_mark || low_mark > high_mark || high_mark > total) {
		pr_err("watermarks min_mark=%u low_mark=%u high_mark=%u do not fit %lu EPC pages\n",
		       min_mark, low_mark, high_mark, total);
		return -EINVAL;
	}
	isgx_pager.swapd = kthread_run(isgx_swapd, NULL, "kisgxswapd");
	if (IS_ERR(isgx_pager.swapd))
		return PTR_ERR(isgx_pager.swapd);
	return 0;
}

/**
 * isgx_pager_exit() - stop kisgxswapd
 *
 * Context: module exit, after every enclave is gone.
 */
void isgx_pager_exit(void)
{
	kthread_stop(isgx_pager.swapd);
	WARN_ONCE(isgx_pager.nr_tracked != isgx_pager.nr_untracked,
		  "%lu pages left on the pager's lists at exit\n",
		  isgx_pager.nr_tracked - isgx_pager.nr_untracked);
}
