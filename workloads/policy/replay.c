// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - the pager's replacement policy (kmod/lru.c, compiled here
 * as it is in the module) replayed on a page trace, on the host.
 *
 *	policy-replay --pattern=P --ratio=R [--seed=S] [--accesses=N]
 *		      [--capacity=C] [--batch=B] [--low=L] [--high=H]
 *		      [--policy=default|twolist|fifo] [--trace-out=FILE]
 *
 * The trace is wsgen's (workloads/gen/patterns.c): a working set of
 * R x 2048 pages, a warm-up of N accesses (default 10 x the working set)
 * and a fresh measured stream of N more.  The model of the pager around
 * the policy is the module's, without time: C usable EPC pages; a fault
 * takes a free page (a reclaim pass first when none is free, and a forced
 * one when that evicts nothing) and makes its page resident with its
 * young bit set (the access); when fewer than L pages are free, passes of
 * B victims run until H are free.  A pass moves the hot hand as the
 * policy asks, takes victims from the cold list (then the hot one),
 * evicts every victim whose young bit the policy does not count or that
 * is not young, in a round's passes takes more from the cold list for
 * those spared (default and twolist: up to what the batch lacks, 8
 * rounds and two batches taken), and hands the spared back.  Every harvest clears the bit.
 *
 * Prints one line: policy=, faults= (measured pass), min= (Belady's MIN
 * at C with the warm-up as history), ratio=.  --trace-out writes the trace
 * (one page number a line, the warm-up first) for bench/policy-model.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lru.h"
#include "wsgen.h"

struct model_page {
	struct isgx_lru_page lru;
	bool resident;
	bool young;
};

struct model {
	struct model_page *pages;
	struct isgx_lru lru;
	enum isgx_lru_mode mode;
	unsigned long batch, cold_min, nr_free;
	struct isgx_lru_page **v;
	bool *v_young;
	unsigned long nr_aged;		/* hot pages the hand passed, measured half */
	unsigned long nr_demoted;	/* by the hot hand, in the measured half */
	unsigned long nr_second_chance;	/* victims spared young, measured half */
	unsigned long nr_victims_hot;	/* taken from the hot list, measured half */
	bool measuring;
};

static struct model_page *to_page(struct isgx_lru_page *p)
{
	return container_of(p, struct model_page, lru);
}

/* Harvest: the young bit, cleared as it is read. */
static bool harvest(struct model_page *pg)
{
	bool young = pg->young;

	pg->young = false;
	return young;
}

/*
 * Up to @nr victims into m->v[@n..], cold first, then hot when @hot_too;
 * returns how many.
 */
static unsigned long take(struct model *m, unsigned long n, unsigned long nr, bool hot_too)
{
	unsigned long end = n + nr, first = n;
	struct isgx_lru_page *p;

	while (n < end && (p = isgx_lru_isolate(&m->lru, false)))
		m->v[n++] = p;
	while (hot_too && n < end && (p = isgx_lru_isolate(&m->lru, true))) {
		m->v[n++] = p;
		m->nr_victims_hot += m->measuring;
	}
	return n - first;
}

/*
 * The young check of victims m->v[@first..@last): each one spared is kept
 * (its entry stays), every other one evicted (its entry NULL).  Returns
 * the pages evicted.
 */
static unsigned long judge(struct model *m, unsigned long first, unsigned long last, bool force)
{
	unsigned long i, evicted = 0;

	for (i = first; i < last; i++) {
		struct model_page *pg = to_page(m->v[i]);
		bool young = harvest(pg);

		m->v_young[i] = young && !force && isgx_lru_young_counts(m->v[i], m->mode);
		m->nr_second_chance += m->measuring && m->v_young[i];
		if (!m->v_young[i]) {
			/* Every page here was made resident by an access: used. */
			isgx_lru_evicted(&m->lru, m->v[i], true);
			pg->resident = false;
			m->nr_free++;
			evicted++;
			m->v[i] = NULL;
		}
	}
	return evicted;
}

/* Rounds a pass takes to fill its batch, at most (ISGX_FILL_TRIES). */
#define FILL_TRIES	8

/*
 * One reclaim pass; returns the pages evicted.  With @fill (a pass of a
 * round, kisgxswapd's in the module) under default and twolist the pass
 * fills its batch: while fewer than a batch are evicted, it takes as many
 * victims from the cold list as the last round spared young, at most
 * FILL_TRIES times and two batches in all (isgx_reclaim_fill()).
 */
static unsigned long reclaim(struct model *m, bool force, bool fill)
{
	unsigned long nr_age = isgx_lru_nr_to_age(&m->lru, m->mode, m->batch);
	unsigned long n = 0, i, evicted, more, want, spared;
	struct isgx_lru_page *p;
	int tries;

	/* The hot hand: isolate, harvest, hand back, in that order. */
	while (n < nr_age && (p = isgx_lru_isolate(&m->lru, true)))
		m->v[n++] = p;
	for (i = 0; i < n; i++)
		m->v_young[i] = harvest(to_page(m->v[i]));
	for (i = 0; i < n; i++) {
		isgx_lru_aged(&m->lru, m->v[i], m->v_young[i]);
		m->nr_aged += m->measuring;
		m->nr_demoted += m->measuring && !m->v_young[i];
	}

	n = take(m, 0, m->batch, true);
	evicted = judge(m, 0, n, force);
	spared = n - evicted;
	for (tries = 0; fill && m->mode != ISGX_LRU_FIFO && tries < FILL_TRIES; tries++) {
		want = m->batch - evicted;
		if (want > spared)
			want = spared;
		if (want > 2 * m->batch - n)
			want = 2 * m->batch - n;
		more = want ? take(m, n, want, false) : 0;
		if (!more)
			break;
		spared = more - judge(m, n, n + more, force);
		evicted += more - spared;
		n += more;
	}
	for (i = 0; i < n; i++)
		if (m->v[i])
			isgx_lru_putback(&m->lru, m->v[i], true, m->mode);
	return evicted;
}

static int parse_mode(const char *s, enum isgx_lru_mode *mode)
{
	if (!strcmp(s, "default"))
		*mode = ISGX_LRU_HISTORY;
	else if (!strcmp(s, "twolist"))
		*mode = ISGX_LRU_TWOLIST;
	else if (!strcmp(s, "fifo"))
		*mode = ISGX_LRU_FIFO;
	else
		return -1;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: policy-replay --pattern=zipf|loop|uniform|hotcold|scan|seq --ratio=R\n"
		   "                     [--seed=S] [--accesses=N] [--capacity=C] [--batch=B]\n"
		   "                     [--low=L] [--high=H] [--policy=default|twolist|fifo]\n"
		   "                     [--trace-out=FILE]\n");
}

static unsigned long parse_ul(const char *opt, const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "policy-replay: --%s: '%s' is not a number\n", opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long verdicts[ISGX_LRU_REFAULT_FAR + 1] = {};
	static const struct option opts[] = {
		{ "pattern", required_argument, NULL, 'p' },
		{ "ratio", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "accesses", required_argument, NULL, 'n' },
		{ "capacity", required_argument, NULL, 'c' },
		{ "batch", required_argument, NULL, 'b' },
		{ "low", required_argument, NULL, 'l' },
		{ "high", required_argument, NULL, 'H' },
		{ "policy", required_argument, NULL, 'P' },
		{ "trace-out", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *pattern = NULL, *trace_out = NULL, *policy = "default";
	unsigned long seed = 1, n = 0, cap = 2040, low = 32, high = 64, faults = 0, min;
	struct model m = { .batch = 64 };
	struct pattern pat = {};
	double ratio = 0;
	unsigned int *trace;
	struct rng r;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': pattern = optarg; break;
		case 'r': ratio = atof(optarg); break;
		case 's': seed = parse_ul("seed", optarg); break;
		case 'n': n = parse_ul("accesses", optarg); break;
		case 'c': cap = parse_ul("capacity", optarg); break;
		case 'b': m.batch = parse_ul("batch", optarg); break;
		case 'l': low = parse_ul("low", optarg); break;
		case 'H': high = parse_ul("high", optarg); break;
		case 'P': policy = optarg; break;
		case 'T': trace_out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!pattern || !pattern_known(pattern) || ratio <= 0 || ratio > 16) {
		fprintf(stderr, "policy-replay: --pattern must be a wsgen page pattern and --ratio in (0, 16]\n");
		return 2;
	}
	if (parse_mode(policy, &m.mode)) {
		fprintf(stderr, "policy-replay: --policy must be default, twolist or fifo\n");
		return 2;
	}
	if (!m.batch || !cap || low > high || high >= cap) {
		fprintf(stderr, "policy-replay: need --batch > 0 and --low <= --high < --capacity\n");
		return 2;
	}
	/* What a round from below low to high evicts, as the module counts it. */
	m.cold_min = m.batch * ((high - low + 1 + m.batch - 1) / m.batch);
	pat.name = pattern;
	pat.nr_pages = (unsigned int)(ratio * 2048);
	pat.hot = 2048 / 4;
	pat.run = pat.nr_pages;
	if (!n)
		n = 10UL * pat.nr_pages;
	if (!strcmp(pattern, "zipf") && zipf_init(&pat.zipf, pat.nr_pages, 0.99)) {
		fprintf(stderr, "policy-replay: out of memory\n");
		return 1;
	}
	trace = malloc(2 * n * sizeof(*trace));
	m.pages = calloc(pat.nr_pages, sizeof(*m.pages));
	m.v = calloc(2 * m.batch, sizeof(*m.v));
	m.v_young = calloc(2 * m.batch, sizeof(*m.v_young));
	if (!trace || !m.pages || !m.v || !m.v_young) {
		fprintf(stderr, "policy-replay: out of memory\n");
		return 1;
	}
	rng_seed(&r, seed, 0);
	pattern_gen(&pat, 0, 1, &r, trace, 2 * n);
	if (trace_out) {
		FILE *f = fopen(trace_out, "w");

		if (!f) {
			perror(trace_out);
			return 1;
		}
		for (unsigned long i = 0; i < 2 * n; i++)
			fprintf(f, "%u\n", trace[i]);
		if (fclose(f)) {
			perror(trace_out);
			return 1;
		}
	}

	isgx_lru_init(&m.lru);
	for (unsigned int i = 0; i < pat.nr_pages; i++)
		INIT_LIST_HEAD(&m.pages[i].lru.link);
	m.nr_free = cap;
	for (unsigned long i = 0; i < 2 * n; i++) {
		struct model_page *pg = &m.pages[trace[i]];

		m.measuring = i >= n;
		if (pg->resident) {
			pg->young = true;
			continue;
		}
		if (i >= n)
			faults++;
		if (!m.nr_free && !reclaim(&m, false, false))
			reclaim(&m, true, false);
		m.nr_free--;
		pg->resident = true;
		pg->young = true;
		verdicts[isgx_lru_add(&m.lru, &pg->lru, m.mode, m.cold_min)] += i >= n;
		if (m.nr_free >= low)
			continue;
		while (m.nr_free < high)
			if (!reclaim(&m, false, true) && !reclaim(&m, true, true))
				break;
	}
	min = belady_min(trace, 2 * n, pat.nr_pages, cap, n);
	printf("policy=%s pattern=%s ratio=%.2f seed=%lu capacity=%lu batch=%lu low=%lu high=%lu faults=%lu min=%lu ratio_min=%.4f\n",
	       policy, pattern, ratio, seed, cap, m.batch, low, high, faults, min,
	       min ? (double)faults / min : 0.0);
	/*
	 * The measured half's first loads (new: pages the warm-up never
	 * touched; in the guest the enclave's build evicted them, so they
	 * count as far refaults there) and refaults by verdict, the hot pages the hand
	 * passed and those it demoted, the victims taken from the hot list and
	 * those spared young (debugfs nr_aged, nr_demoted, nr_victims_hot,
	 * nr_second_chance).
	 */
	printf("new=%lu refault_hot=%lu refault_no_room=%lu refault_far=%lu aged=%lu demoted=%lu victims_hot=%lu second_chance=%lu\n",
	       verdicts[ISGX_LRU_NEW], verdicts[ISGX_LRU_REFAULT_HOT],
	       verdicts[ISGX_LRU_REFAULT_NO_ROOM], verdicts[ISGX_LRU_REFAULT_FAR], m.nr_aged, m.nr_demoted, m.nr_victims_hot,
	       m.nr_second_chance);
	return 0;
}
