/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wsgen.h - what wsgen's files share: the seeded generators (patterns.c),
 * the working set of one or more enclaves (ws.c), the recorded page trace,
 * Belady's MIN (belady.c), the latency statistics (lat.c) and the
 * key-value store (kv.c).
 *
 * Pages of the working set are numbered globally, 0 .. nr_encl * per - 1;
 * global page g is data page g / nr_encl of enclave g % nr_encl (the pages
 * are dealt round-robin, so every pattern spreads over every enclave).
 */
#ifndef WSGEN_H
#define WSGEN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "enclave.h"

/* ---- patterns.c: seeded generators ---- */

/* xorshift64*: small, seeded, reproducible everywhere. */
struct rng {
	uint64_t s;
};

/* Stream 0 of a seed is the one wsgen has always used for that seed. */
void rng_seed(struct rng *r, unsigned long seed, unsigned int stream);
uint64_t rng_next(struct rng *r);
double rng_unit(struct rng *r);

/* Zipf(theta) over [0, n) by inverse CDF on a precomputed table. */
struct zipf {
	unsigned int n;
	double *cdf;
};

int zipf_init(struct zipf *z, unsigned int n, double theta);
unsigned int zipf_next(const struct zipf *z, struct rng *r);
void zipf_free(struct zipf *z);

struct pattern {
	const char *name;	/* zipf, loop, uniform, hotcold, scan, seq */
	unsigned int nr_pages;	/* global pages of the working set */
	unsigned int hot;	/* scan: pages of the hot set */
	unsigned int run;	/* seq: pages per sequential run */
	struct zipf zipf;	/* zipf: the table (shared, read only) */
};

/* Is @name a page pattern (not kv)? */
bool pattern_known(const char *name);
/* Fill @trace with @n accesses of sub-stream @stream of @nr_streams. */
void pattern_gen(const struct pattern *p, unsigned int stream, unsigned int nr_streams,
		 struct rng *r, unsigned int *trace, unsigned long n);

/* ---- ws.c: the enclaves holding the working set ---- */

struct ws {
	unsigned int nr_encl;		/* enclaves */
	unsigned int per;		/* data pages of each */
	struct isgx_enclave *e;
};

/*
 * Build @nr_encl enclaves of @per data pages each (after one TCS and one
 * SSA page).  @rw_zero: every data page REG RW and zero-filled (the kv
 * store writes); otherwise the libisgx layout (R, RW, RX pages filled
 * with isgx_layout_word()).  0, or -1 with the reason in @err (256 bytes).
 */
int ws_build(struct ws *w, int fd, unsigned int nr_encl, unsigned int per, bool rw_zero,
	     EVP_PKEY *key, char *err);
void ws_destroy(struct ws *w);

static inline unsigned int ws_pages(const struct ws *w)
{
	return w->nr_encl * w->per;
}

/* Enclave offset of data page @local. */
static inline uint64_t ws_offset(unsigned int local)
{
	return (uint64_t)(local + 2) * SGX_PAGE_SIZE;
}

/* The mapping of global page @g. */
static inline void *ws_page(const struct ws *w, unsigned int g)
{
	return isgx_enclave_ptr(&w->e[g % w->nr_encl], ws_offset(g / w->nr_encl));
}

/* ---- trace.c: the recorded trace ---- */

/*
 * Every page touch takes a ticket from one global counter just before it
 * touches the page and records (ticket, page) in its thread's buffer;
 * sorted by ticket the buffers give the order the pager saw, exactly for
 * one thread and up to the races between taking a ticket and touching the
 * page for several.
 */
struct rec {
	uint64_t seq;
	unsigned int page;
};

struct recorder {
	struct rec *r;
	unsigned long n, cap;
};

extern atomic_ulong trace_seq;

void rec_grow(struct recorder *rc);
/*
 * Every ticket taken so far (*@n of them) in ticket order, from the @nr
 * recorders @rc; NULL (and a message) if one is missing or out of memory.
 */
unsigned int *trace_merge(struct recorder *const *rc, unsigned int nr, unsigned int nr_pages,
			  unsigned long *n);

static inline void rec_touch(struct recorder *rc, unsigned int page)
{
	if (rc->n == rc->cap)
		rec_grow(rc);
	rc->r[rc->n].seq = atomic_fetch_add_explicit(&trace_seq, 1, memory_order_relaxed);
	rc->r[rc->n++].page = page;
}

/* The number of distinct pages among the @n entries of @trace. */
unsigned long trace_distinct(const unsigned int *trace, unsigned long n, unsigned int nr_pages);

/* ---- counters.c: the module's debugfs counters ---- */

#define COUNTERS_MAX		96
#define COUNTER_NAME_MAX	48

struct counter {
	char name[COUNTER_NAME_MAX];
	long long value;
};

struct counters {
	unsigned int n;
	struct counter c[COUNTERS_MAX];
};

/* Every counter (nr_*, ns_*; not the gauges) of isgx's debugfs: 0 or -1. */
int counters_read(struct counters *c);
/* @name's growth from @before to @after (0 when either lacks it). */
long long counters_diff(const struct counters *before, const struct counters *after,
			const char *name);
/* One metric line per counter's growth, and the per-evicted-page ratios. */
void counters_report(const struct counters *before, const struct counters *after,
		     const char *factors);

/* ---- belady.c ---- */

/*
 * Misses of Belady's MIN with @cap frames over @trace (pages < @nr_pages),
 * counted from @count_from on: the accesses before warm the cache up.
 */
unsigned long belady_min(const unsigned int *trace, unsigned long n, unsigned int nr_pages,
			 unsigned int cap, unsigned long count_from);

/* EPC pages the pager keeps free for its VA pool (kmod/pager.c). */
#define ISGX_EPC_RESERVE	2
/* Versions one VA page holds. */
#define VA_SLOTS		512

/*
 * VA pages needed when the @nr_pages of @nr_encl enclaves share an EPC of
 * @total pages with as many of them resident as fit: the smallest v that
 * holds a slot for every page that the rest (total - SECSs - v - reserve)
 * leaves out.
 */
long va_pages_needed(long total, unsigned long nr_encl, unsigned int nr_pages);

/* ---- lat.c: latencies ---- */

uint64_t now_ns(void);

/*
 * Print lat_p50, lat_p90, lat_p99, lat_p999, lat_max of @lat (sorted in
 * place) and lat_fault_count plus the same percentiles of the ones over
 * @slow_ns (lat_fault_*); @unit names what was timed ("accesses", "ops").
 */
void lat_report(uint64_t *lat, unsigned long n, uint64_t slow_ns, const char *factors,
		const char *unit);
/*
 * The histogram of @lat, 8 buckets per power of two: "lt_ns all faulting"
 * lines (faulting: above @slow_ns).  0 or -errno.
 */
int lat_hist_write(const char *path, const uint64_t *lat, unsigned long n, uint64_t slow_ns);
/* Histogram bucket of @ns and the exclusive upper bound of bucket @b. */
unsigned int lat_bucket(uint64_t ns);
uint64_t lat_bucket_end(unsigned int b);

/* ---- kv.c: the key-value store ---- */

#define KV_STRIPES	256

struct kv_req {
	uint32_t key;
	uint32_t update;
};

struct kv {
	const struct ws *ws;
	unsigned int value_size;	/* bytes, a multiple of 8 */
	unsigned int slot_size;		/* header (key + 1, version) + value */
	uint64_t nr_slots, nr_keys, hash_seed;
	double update_frac;		/* YCSB workload: share of updates */
	uint64_t *ver;			/* each key's version, outside the enclave */
	pthread_mutex_t lock[KV_STRIPES];
	atomic_ulong errors;
	struct zipf zipf;		/* request ranks */
};

/* 0, or -1 with the reason in @err (256 bytes). */
int kv_init(struct kv *kv, const struct ws *ws, char ycsb, unsigned int value_size,
	    double theta, unsigned long seed, char *err);
/* Insert every key with version 0: YCSB's load phase, one thread. */
void kv_load(struct kv *kv, struct recorder *rc);
/* @n requests of YCSB workload kv->update_frac, keys scrambled Zipf. */
void kv_gen(const struct kv *kv, struct rng *r, struct kv_req *req, unsigned long n);
/* One request: a read checks the record, an update rewrites it. */
void kv_op(struct kv *kv, struct recorder *rc, const struct kv_req *q);
void kv_free(struct kv *kv);

#endif /* WSGEN_H */
