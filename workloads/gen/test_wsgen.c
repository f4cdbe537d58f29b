// SPDX-License-Identifier: GPL-2.0
/*
 * test_wsgen.c - host tests of wsgen's parts: Belady's MIN against a
 * brute-force MIN, the generators' reproducibility and shapes, the trace
 * merge, and the key-value store over plain memory standing in for the
 * enclaves' pages (loaded, driven, then corrupted and rolled back: the
 * checks must catch both).
 */
#define _GNU_SOURCE
#include "harness.h"
#include "wsgen.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* MIN the slow way: on a miss, evict the resident page used farthest ahead. */
static unsigned long naive_min(const unsigned int *t, unsigned long n, unsigned int cap,
			       unsigned long from)
{
	unsigned int res[64];
	unsigned long misses = 0;
	unsigned int nr = 0;

	for (unsigned long i = 0; i < n; i++) {
		unsigned int k, victim = 0;
		unsigned long far = 0;

		for (k = 0; k < nr && res[k] != t[i]; k++)
			;
		if (k < nr)
			continue;
		misses += i >= from;
		if (nr < cap) {
			res[nr++] = t[i];
			continue;
		}
		for (k = 0; k < nr; k++) {
			unsigned long j;

			for (j = i + 1; j < n && t[j] != res[k]; j++)
				;
			if (j >= far) {
				far = j;
				victim = k;
			}
		}
		res[victim] = t[i];
	}
	return misses;
}

ISGX_TEST(belady_matches_brute_force, 60)
{
	struct rng r;
	unsigned int t[400];

	rng_seed(&r, 7, 0);
	for (unsigned int round = 0; round < 300; round++) {
		unsigned int pages = 2 + rng_next(&r) % 20, cap = 1 + rng_next(&r) % 12;
		unsigned long n = 1 + rng_next(&r) % 400, from = rng_next(&r) % n;
		unsigned long fast, slow;

		for (unsigned long i = 0; i < n; i++)
			t[i] = rng_next(&r) % pages;
		fast = belady_min(t, n, pages, cap, from);
		slow = naive_min(t, n, cap, from);
		ISGX_ASSERT(fast == slow, "round %u (pages %u cap %u n %lu from %lu): %lu, brute force %lu",
			    round, pages, cap, n, from, fast, slow);
	}
	/* A loop of cap + 1 pages: MIN misses once per cap accesses after the first pass. */
	for (unsigned int i = 0; i < 400; i++)
		t[i] = i % 11;
	ISGX_EXPECT(belady_min(t, 400, 11, 10, 0) == naive_min(t, 400, 10, 0),
		    "loop of 11 pages in 10 frames");
}

static void gen(const char *name, unsigned int nr_pages, unsigned int stream, unsigned long seed,
		unsigned int *t, unsigned long n)
{
	struct pattern p = { .name = name, .nr_pages = nr_pages, .hot = nr_pages / 8,
			     .run = 16 };
	struct rng r;

	if (!strcmp(name, "zipf"))
		ISGX_ASSERT(!zipf_init(&p.zipf, nr_pages, 0.99), "zipf table");
	rng_seed(&r, seed, stream);
	pattern_gen(&p, stream, 4, &r, t, n);
	zipf_free(&p.zipf);
}

ISGX_TEST(patterns, 60)
{
	static const char *const names[] = { "zipf", "loop", "uniform", "hotcold", "scan", "seq" };
	enum { N = 20000, PAGES = 1000 };
	unsigned int *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b));
	unsigned long hot = 0, runs = 0;

	ISGX_ASSERT(a && b, "malloc");
	ISGX_EXPECT(!pattern_known("kv") && !pattern_known("") && pattern_known("seq"),
		    "pattern_known");
	for (unsigned int k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		gen(names[k], PAGES, 0, 5, a, N);
		gen(names[k], PAGES, 0, 5, b, N);
		ISGX_EXPECT(!memcmp(a, b, N * sizeof(*a)), "%s: same seed, other trace", names[k]);
		for (unsigned int i = 0; i < N; i++)
			ISGX_ASSERT(a[i] < PAGES, "%s: page %u out of range", names[k], a[i]);
		gen(names[k], PAGES, 1, 5, b, N);
		ISGX_EXPECT(memcmp(a, b, N * sizeof(*a)), "%s: streams 0 and 1 are the same",
			    names[k]);
	}
	gen("hotcold", PAGES, 0, 5, a, N);
	for (unsigned int i = 0; i < N; i++)
		hot += a[i] < PAGES / 10;
	ISGX_EXPECT(hot > N * 0.88 && hot < N * 0.92, "hotcold: %lu of %u in the hot tenth", hot,
		    N);
	gen("seq", PAGES, 0, 5, a, N);
	for (unsigned int i = 1; i < N; i++)
		runs += a[i] != (a[i - 1] + 1) % PAGES;
	/* Runs of 16: a new start every 16 accesses (rarely the next page by chance). */
	ISGX_EXPECT(runs <= N / 16 && runs > N / 16 - 20, "seq: %lu breaks in %u accesses", runs,
		    N);
	gen("loop", PAGES, 2, 5, a, N);
	ISGX_EXPECT(a[0] == PAGES / 2 && a[1] == PAGES / 2 + 1, "loop: stream 2 of 4 starts at %u",
		    a[0]);
	free(a);
	free(b);
}

ISGX_TEST(trace_merge_orders_tickets, 30)
{
	struct recorder r0 = { 0 }, r1 = { 0 }, *rcs[] = { &r0, &r1 };
	unsigned int *all;
	unsigned long n;

	atomic_store(&trace_seq, 0);
	rec_touch(&r0, 3);
	rec_touch(&r1, 4);
	rec_touch(&r1, 5);
	rec_touch(&r0, 6);
	all = trace_merge(rcs, 2, 10, &n);
	ISGX_ASSERT(all && n == 4, "merge");
	ISGX_EXPECT(all[0] == 3 && all[1] == 4 && all[2] == 5 && all[3] == 6,
		    "order %u %u %u %u", all[0], all[1], all[2], all[3]);
	free(all);
	/* A ticket without its touch is an error, not a hole. */
	atomic_fetch_add(&trace_seq, 1);
	ISGX_EXPECT(!trace_merge(rcs, 2, 10, &n), "a missing entry went unnoticed");
	free(r0.r);
	free(r1.r);
}

/* Plain memory in place of @nr enclaves of @per data pages. */
static void fake_ws(struct ws *w, unsigned int nr, unsigned int per)
{
	w->nr_encl = nr;
	w->per = per;
	w->e = calloc(nr, sizeof(*w->e));
	ISGX_ASSERT(w->e, "calloc");
	for (unsigned int i = 0; i < nr; i++) {
		void *p = aligned_alloc(SGX_PAGE_SIZE, (size_t)(per + 2) * SGX_PAGE_SIZE);

		ISGX_ASSERT(p, "aligned_alloc");
		memset(p, 0, (size_t)(per + 2) * SGX_PAGE_SIZE);
		w->e[i].base = (uintptr_t)p;
	}
}

/* Records (occupied slots) with a byte on global page @g. */
static unsigned long records_on(const struct kv *kv, const struct ws *w, unsigned int g)
{
	unsigned long n = 0;

	for (uint64_t s = (uint64_t)g * SGX_PAGE_SIZE / kv->slot_size;
	     s <= ((uint64_t)(g + 1) * SGX_PAGE_SIZE - 1) / kv->slot_size; s++) {
		uint64_t a = s * kv->slot_size;

		n += *(uint64_t *)((char *)ws_page(w, a / SGX_PAGE_SIZE) + a % SGX_PAGE_SIZE) != 0;
	}
	return n;
}

struct kv_thread {
	pthread_t tid;
	struct kv *kv;
	struct kv_req req[3000];
	struct recorder rc;
};

static void *kv_thread(void *arg)
{
	struct kv_thread *t = arg;

	for (unsigned int i = 0; i < 3000; i++)
		kv_op(t->kv, &t->rc, &t->req[i]);
	return NULL;
}

/*
 * How many of 3000 requests of YCSB workload @ycsb (seed 2) are updates;
 * @kv is set up for it and freed again.
 */
static unsigned long kv_updates_in(struct kv *kv, const struct ws *w, struct kv_req *req,
				   char ycsb, char *err)
{
	unsigned long updates = 0;
	struct rng r;

	ISGX_ASSERT(!kv_init(kv, w, ycsb, 1024, 0.99, 1, err), "%s", err);
	rng_seed(&r, 2, 0);
	kv_gen(kv, &r, req, 3000);
	for (unsigned int i = 0; i < 3000; i++)
		updates += req[i].update;
	kv_free(kv);
	return updates;
}

ISGX_TEST(kv_store, 120)
{
	static struct kv_thread th[4];
	struct recorder rc = { 0 };
	struct kv_req all = { 0 };
	unsigned long updates = 0, top = 0;
	struct ws w;
	struct kv kv;
	char err[256];
	unsigned char *page, *copy;

	fake_ws(&w, 3, 100);
	ISGX_EXPECT(kv_init(&kv, &w, 'x', 1024, 0.99, 1, err), "--ycsb=x accepted");
	ISGX_EXPECT(kv_init(&kv, &w, 'a', 1020, 0.99, 1, err), "--value-size=1020 accepted");
	ISGX_ASSERT(!kv_init(&kv, &w, 'a', 1024, 0.99, 1, err), "%s", err);
	ISGX_EXPECT(kv.nr_slots == 300 * 4096 / 1040 && kv.nr_keys == kv.nr_slots * 3 / 4,
		    "%lu slots, %lu keys", (unsigned long)kv.nr_slots, (unsigned long)kv.nr_keys);
	kv_load(&kv, &rc);
	ISGX_ASSERT(atomic_load(&kv.errors) == 0, "load: %lu errors", atomic_load(&kv.errors));
	/* Every page holds part of some record: the load touched them all. */
	ISGX_EXPECT(rc.n >= 300, "load touched %lu pages", rc.n);

	/* Workload A over four threads: mixes and skew as YCSB's. */
	for (unsigned int t = 0; t < 4; t++) {
		struct rng r;

		rng_seed(&r, 1, t);
		th[t].kv = &kv;
		kv_gen(&kv, &r, th[t].req, 3000);
		for (unsigned int i = 0; i < 3000; i++) {
			updates += th[t].req[i].update;
			top += th[t].req[i].key == th[0].req[0].key;
		}
	}
	ISGX_EXPECT(updates > 5600 && updates < 6400, "A: %lu updates in 12000", updates);
	for (unsigned int t = 0; t < 4; t++)
		ISGX_ASSERT(!pthread_create(&th[t].tid, NULL, kv_thread, &th[t]), "pthread_create");
	for (unsigned int t = 0; t < 4; t++)
		pthread_join(th[t].tid, NULL);
	ISGX_EXPECT(atomic_load(&kv.errors) == 0, "A, 4 threads: %lu errors",
		    atomic_load(&kv.errors));

	/* Every key readable and right. */
	for (all.key = 0; all.key < kv.nr_keys; all.key++)
		kv_op(&kv, &rc, &all);
	ISGX_EXPECT(atomic_load(&kv.errors) == 0, "read-all: %lu errors", atomic_load(&kv.errors));

	/* A flipped bit in a value is caught by reading every key. */
	page = ws_page(&w, 150);
	page[2000] ^= 4;
	for (all.key = 0; all.key < kv.nr_keys; all.key++)
		kv_op(&kv, &rc, &all);
	ISGX_EXPECT(atomic_load(&kv.errors) == 1, "flipped bit: %lu errors, want 1",
		    atomic_load(&kv.errors));
	page[2000] ^= 4;

	/* A page rolled back to an older version (a lost write) is caught too. */
	copy = malloc(SGX_PAGE_SIZE);
	ISGX_ASSERT(copy, "malloc");
	page = ws_page(&w, 77);
	memcpy(copy, page, SGX_PAGE_SIZE);
	all.update = 1;
	for (all.key = 0; all.key < kv.nr_keys; all.key++)
		kv_op(&kv, &rc, &all);
	memcpy(page, copy, SGX_PAGE_SIZE);
	atomic_store(&kv.errors, 0);
	all.update = 0;
	for (all.key = 0; all.key < kv.nr_keys; all.key++)
		kv_op(&kv, &rc, &all);
	ISGX_EXPECT(atomic_load(&kv.errors) == records_on(&kv, &w, 77),
		    "rolled-back page: %lu errors, want one per record on it (%lu)",
		    atomic_load(&kv.errors), records_on(&kv, &w, 77));
	free(copy);

	/* Workloads B and C: their update shares. */
	kv_free(&kv);
	updates = kv_updates_in(&kv, &w, th[0].req, 'b', err);
	ISGX_EXPECT(updates > 100 && updates < 200, "B: %lu updates in 3000", updates);
	updates = kv_updates_in(&kv, &w, th[0].req, 'c', err);
	ISGX_EXPECT(updates == 0, "C: %lu updates", updates);
	for (unsigned int t = 0; t < 4; t++)
		free(th[t].rc.r);
	free(rc.r);
}

/*
 * The measured pass is the second half of one stream of 2n: a fresh draw
 * (not a replay of the warm-up), and a loop goes on without a seam.
 */
ISGX_TEST(measured_pass_is_fresh, 30)
{
	static const char *const names[] = { "zipf", "uniform", "hotcold", "scan", "loop" };
	const unsigned long n = 3000;
	unsigned int *t = malloc(2 * n * sizeof(*t));

	ISGX_ASSERT(t, "out of memory");
	for (unsigned int k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct pattern p = { .name = names[k], .nr_pages = 640, .hot = 128, .run = 640 };
		unsigned long same = 0;
		struct rng r;

		if (!strcmp(names[k], "zipf"))
			ISGX_ASSERT(!zipf_init(&p.zipf, 640, 0.99), "zipf_init");
		rng_seed(&r, 7, 0);
		pattern_gen(&p, 0, 1, &r, t, 2 * n);
		for (unsigned long i = 0; i < n; i++)
			same += t[i] == t[n + i];
		if (!strcmp(names[k], "loop")) {
			/* 3000 mod 640 != 0: a replay would restart at page 0. */
			ISGX_EXPECT(t[n] == (t[n - 1] + 1) % 640, "loop: seam %u -> %u",
				    t[n - 1], t[n]);
		} else {
			ISGX_EXPECT(same < n / 2, "%s: %lu of %lu accesses replayed", names[k],
				    same, n);
		}
		zipf_free(&p.zipf);
	}
	free(t);
}

ISGX_TEST(footprint_and_va_capacity, 30)
{
	unsigned int t[] = { 3, 1, 3, 3, 0, 1 };

	ISGX_EXPECT(trace_distinct(t, 6, 4) == 3, "distinct %lu", trace_distinct(t, 6, 4));
	ISGX_EXPECT(trace_distinct(t, 0, 4) == 0, "empty");
	/* The smallest v with a slot for every page that does not fit. */
	for (long total = 64; total <= 8192; total *= 2) {
		for (unsigned int pages = 1; pages < 5 * total; pages += total / 3) {
			long v = va_pages_needed(total, 2, pages), cap;

			cap = total - 2 - v - ISGX_EPC_RESERVE;
			ISGX_EXPECT((long)pages - cap <= v * VA_SLOTS, "total %ld pages %u: v %ld too small",
				    total, pages, v);
			cap++;
			ISGX_EXPECT(!v || (long)pages - cap > (v - 1) * VA_SLOTS,
				    "total %ld pages %u: v %ld not the smallest", total, pages, v);
		}
	}
}

ISGX_TEST(latency_buckets, 30)
{
	unsigned int prev = 0;

	for (uint64_t ns = 0; ns < (1ULL << 40); ns = ns < 64 ? ns + 1 : ns + ns / 7 + 3) {
		unsigned int b = lat_bucket(ns);
		uint64_t end = lat_bucket_end(b), start = b ? lat_bucket_end(b - 1) : 0;

		ISGX_ASSERT(b >= prev, "bucket of %llu went down", (unsigned long long)ns);
		ISGX_ASSERT(start <= ns && ns < end, "%llu not in bucket %u [%llu, %llu)",
			    (unsigned long long)ns, b, (unsigned long long)start,
			    (unsigned long long)end);
		/* At most 12.5 % wide above the first eight exact ones. */
		ISGX_ASSERT(b < 8 || (end - start) * 8 <= start, "bucket %u [%llu, %llu) too wide",
			    b, (unsigned long long)start, (unsigned long long)end);
		prev = b;
	}
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
