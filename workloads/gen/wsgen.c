// SPDX-License-Identifier: GPL-2.0
/*
 * wsgen - working-set generator: builds an enclave of a given size
 * relative to the EPC, runs a seeded access pattern over its pages and
 * reports what the pager did, next to Belady's MIN for the same trace.
 *
 *	wsgen --pattern=zipf|loop|uniform|hotcold|scan --ratio=2.0
 *	      --accesses=N [--seed=S] [--theta=0.99] [--key=PEM] [--trace=FILE]
 *
 * Run as root in the guest with isgx loaded.  One line per measurement:
 *	metric=NAME factors=K=V,... value=NUMBER unit=UNIT
 */
#define _GNU_SOURCE
#include "enclave.h"
#include "sign.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef ISGX_DEFAULT_KEY
#define ISGX_DEFAULT_KEY "signing_key.pem"
#endif

/* A decimal number from a sysfs or debugfs file, or -1. */
static long read_long(const char *dir, const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static long counter(const char *name)
{
	return read_long("/sys/kernel/debug/isgx", name);
}

static long param(const char *name)
{
	return read_long("/sys/module/isgx/parameters", name);
}

/* xorshift64*: small, seeded, reproducible everywhere. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static double rng_unit(void)
{
	return (rng() >> 11) * (1.0 / 9007199254740992.0);
}

/* Zipf(theta) over [0, n) by inverse CDF on a precomputed table. */
static double *zipf_cdf;

static void zipf_init(unsigned int n, double theta)
{
	double acc = 0;

	zipf_cdf = malloc(n * sizeof(*zipf_cdf));
	for (unsigned int i = 0; i < n; i++) {
		acc += 1.0 / pow(i + 1, theta);
		zipf_cdf[i] = acc;
	}
	for (unsigned int i = 0; i < n; i++)
		zipf_cdf[i] /= acc;
}

static unsigned int zipf_next(unsigned int n)
{
	double u = rng_unit();
	unsigned int lo = 0, hi = n - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (zipf_cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Belady's MIN: on a miss with a full cache, evict the page whose next use
 * is farthest.  O(n log C) with a max-heap keyed by next use.  Misses are
 * counted from @count_from on: the accesses before it warm the cache up,
 * as the warm-up pass does for the pager.
 */
struct heap_ent {
	unsigned long next;
	unsigned int page;
};

static unsigned long belady_min(const unsigned int *trace, unsigned long n,
				unsigned int nr_pages, unsigned int cap, unsigned long count_from)
{
	unsigned long *next = malloc(n * sizeof(*next)), *last = malloc(nr_pages * sizeof(*last));
	unsigned long *cur_next = calloc(nr_pages, sizeof(*cur_next));
	unsigned char *in = calloc(nr_pages, 1);
	struct heap_ent *h = malloc((n + 1) * sizeof(*h));
	unsigned long hn = 0, faults = 0, resident = 0;

	for (unsigned int p = 0; p < nr_pages; p++)
		last[p] = ULONG_MAX;
	for (unsigned long i = n; i-- > 0;) {
		next[i] = last[trace[i]];
		last[trace[i]] = i;
	}
	for (unsigned long i = 0; i < n; i++) {
		unsigned int p = trace[i];

		if (!in[p]) {
			faults += i >= count_from;
			if (resident == cap) {
				/* Pop until an entry that is current (lazy deletion). */
				for (;;) {
					struct heap_ent top = h[0];
					unsigned long k = 0;

					h[0] = h[--hn];
					for (;;) {
						unsigned long l = 2 * k + 1, r = l + 1, m = k;

						if (l < hn && h[l].next > h[m].next)
							m = l;
						if (r < hn && h[r].next > h[m].next)
							m = r;
						if (m == k)
							break;
						struct heap_ent t = h[k];

						h[k] = h[m];
						h[m] = t;
						k = m;
					}
					if (in[top.page] && cur_next[top.page] == top.next) {
						in[top.page] = 0;
						resident--;
						break;
					}
				}
			}
			in[p] = 1;
			resident++;
		}
		cur_next[p] = next[i];
		/* Push (next use, page). */
		unsigned long k = hn++;

		h[k] = (struct heap_ent){ next[i], p };
		while (k && h[(k - 1) / 2].next < h[k].next) {
			struct heap_ent t = h[k];

			h[k] = h[(k - 1) / 2];
			h[(k - 1) / 2] = t;
			k = (k - 1) / 2;
		}
	}
	free(next);
	free(last);
	free(cur_next);
	free(in);
	free(h);
	return faults;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: wsgen --pattern=zipf|loop|uniform|hotcold|scan --ratio=R --accesses=N\n"
		   "             [--seed=S] [--theta=T] [--key=PEM] [--trace=FILE] [--tag=K=V,...]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pattern", required_argument, NULL, 'p' },
		{ "ratio", required_argument, NULL, 'r' },
		{ "accesses", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "theta", required_argument, NULL, 't' },
		{ "key", required_argument, NULL, 'k' },
		{ "trace", required_argument, NULL, 'T' },
		{ "tag", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *pattern = "zipf", *key_path = ISGX_DEFAULT_KEY, *trace_path = NULL, *tag = "";
	double ratio = 2.0, theta = 0.99, t0 = 0, t1;
	unsigned long accesses = 20000, seed = 1, i, scan_pos = 0;
	long total, hw, lw, loaded0 = 0, evicted0 = 0, loaded, evicted;
	unsigned int nr_pages, *trace, *doubled, cap;
	unsigned long min, min_bound;
	struct isgx_layout l = { .nr_tcs = 1, .debug = true, .skip_eextend = true };
	struct sgx_sigstruct ss;
	struct isgx_enclave e;
	char err[256], factors[256];
	EVP_PKEY *key;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': pattern = optarg; break;
		case 'r': ratio = atof(optarg); break;
		case 'n': accesses = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 't': theta = atof(optarg); break;
		case 'k': key_path = optarg; break;
		case 'T': trace_path = optarg; break;
		case 'g': tag = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	total = counter("nr_total_pages");
	hw = param("high_mark");
	lw = param("low_mark");
	if (total <= 0) {
		fprintf(stderr, "wsgen: isgx is not loaded (no /sys/kernel/debug/isgx)\n");
		return 1;
	}
	if (ratio <= 0 || ratio > 16 || !accesses) {
		fprintf(stderr, "wsgen: --ratio must be in (0, 16] and --accesses > 0\n");
		return 2;
	}
	nr_pages = (unsigned int)(ratio * total);
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	trace = malloc(accesses * sizeof(*trace));
	if (!strcmp(pattern, "zipf"))
		zipf_init(nr_pages, theta);
	for (i = 0; i < accesses; i++) {
		if (!strcmp(pattern, "zipf")) {
			/* Hot ranks scattered over the range, not all at its start. */
			trace[i] = (uint32_t)((zipf_next(nr_pages) * 2654435761ULL) % nr_pages);
		} else if (!strcmp(pattern, "loop")) {
			trace[i] = i % nr_pages;
		} else if (!strcmp(pattern, "scan")) {
			/*
			 * A hot set of a quarter of the EPC takes 75 % of the
			 * accesses; the rest sweep the whole range in order.
			 * A scan-resistant pager keeps the hot set.
			 */
			unsigned int hot = total / 4 < nr_pages ? total / 4 : nr_pages;

			trace[i] = rng_unit() < 0.75 ? rng() % hot : scan_pos++ % nr_pages;
		} else if (!strcmp(pattern, "uniform")) {
			trace[i] = rng() % nr_pages;
		} else if (!strcmp(pattern, "hotcold")) {
			/* 90 % of the accesses go to 10 % of the pages. */
			unsigned int hot = nr_pages / 10 ? nr_pages / 10 : 1;

			trace[i] = rng_unit() < 0.9 ? rng() % hot : hot + rng() % (nr_pages - hot);
		} else {
			fprintf(stderr, "wsgen: unknown pattern '%s'\n", pattern);
			return 2;
		}
	}

	key = isgx_key_load(key_path, err);
	if (!key) {
		fprintf(stderr, "wsgen: %s\n", err);
		return 1;
	}
	fd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wsgen: open /dev/sgx: %s\n", strerror(errno));
		return 1;
	}
	/* TCS + SSA + data pages; data page k is layout page k + 2. */
	l.nr_pages = nr_pages + 2;
	t0 = now_s();
	if (isgx_enclave_build(&e, fd, &l, key, &ss)) {
		fprintf(stderr, "wsgen: %s\n", isgx_enclave_error(&e));
		return 1;
	}
	t1 = now_s();
	snprintf(factors, sizeof(factors), "pattern=%s,ratio=%.2f,epc=%ld,accesses=%lu,seed=%lu%s%s",
		 pattern, ratio, total, accesses, seed, *tag ? "," : "", tag);
	printf("metric=build_time factors=%s value=%.3f unit=s\n", factors, t1 - t0);

	/* A warm-up pass of the same trace, then the measured one. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			loaded0 = counter("nr_loaded");
			evicted0 = counter("nr_evicted");
			t0 = now_s();
		}
		for (i = 0; i < accesses; i++) {
			volatile uint64_t *p = isgx_enclave_ptr(&e, (uint64_t)(trace[i] + 2) *
								SGX_PAGE_SIZE);

			(void)*p;	/* every data page is readable */
		}
	}
	t1 = now_s();
	loaded = counter("nr_loaded") - loaded0;
	evicted = counter("nr_evicted") - evicted0;
	/*
	 * Pages the pager can keep: the EPC less the SECS, the VA pages and
	 * the free pages kisgxswapd keeps (between the marks: their middle).
	 */
	cap = total - 1 - (nr_pages + 511) / 512 - (hw > 0 ? (hw + lw) / 2 : 0);
	doubled = malloc(2 * accesses * sizeof(*doubled));
	memcpy(doubled, trace, accesses * sizeof(*trace));
	memcpy(doubled + accesses, trace, accesses * sizeof(*trace));
	min = belady_min(doubled, 2 * accesses, nr_pages, cap, accesses);
	/*
	 * No pager can fault less than MIN with every EPC page but the SECS
	 * and the VA pages: fewer means accesses reached pages through
	 * mappings that should have been gone (stale TLB entries, for one).
	 */
	min_bound = belady_min(doubled, 2 * accesses, nr_pages,
			       total - 1 - (nr_pages + 511) / 512, accesses);
	if (loaded < (long)min_bound)
		fprintf(stderr, "wsgen: warning: %ld faults is below MIN (%lu) at the whole EPC: stale mappings?\n",
			loaded, min_bound);
	printf("metric=min_faults_bound factors=%s value=%lu unit=pages\n", factors, min_bound);
	printf("metric=faults factors=%s value=%ld unit=pages\n", factors, loaded);
	printf("metric=evictions factors=%s value=%ld unit=pages\n", factors, evicted);
	printf("metric=min_faults factors=%s,capacity=%u value=%lu unit=pages\n", factors, cap,
	       min);
	printf("metric=access_time factors=%s value=%.3f unit=s\n", factors, t1 - t0);
	printf("metric=swap_in_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       loaded / (t1 - t0));
	if (trace_path) {
		FILE *f = fopen(trace_path, "w");

		for (i = 0; f && i < accesses; i++)
			fprintf(f, "%u\n", trace[i]);
		if (f)
			fclose(f);
	}
	isgx_enclave_destroy(&e);
	close(fd);
	free(doubled);
	free(trace);
	return 0;
}
