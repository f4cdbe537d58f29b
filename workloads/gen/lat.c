// SPDX-License-Identifier: GPL-2.0
/*
 * lat.c - user-side latency of wsgen's accesses: percentiles, histogram.
 *
 * An access "faulted" when it took longer than --slow-ns (default 50 µs):
 * a load from a resident EPC page takes well under a microsecond even
 * under TCG, an ELDU at least the gcm decrypt of the page (about 150 µs
 * there).  wsgen prints the count next to the pager's own fault count so
 * that a threshold that misclassifies shows.
 */
#include "wsgen.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Nearest rank: the smallest value with at least @permille / 1000 of the
 * sorted @v at or below it.
 */
static uint64_t pctl(const uint64_t *v, unsigned long n, unsigned int permille)
{
	unsigned long rank = (n * permille + 999) / 1000;

	return v[rank ? rank - 1 : 0];
}

static void print_set(const char *prefix, const uint64_t *v, unsigned long n,
		      const char *factors)
{
	static const struct {
		const char *name;
		unsigned int permille;
	} pcts[] = { { "p50", 500 }, { "p90", 900 }, { "p99", 990 }, { "p999", 999 } };

	for (unsigned int i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		printf("metric=%s_%s factors=%s value=%llu unit=ns\n", prefix, pcts[i].name,
		       factors, (unsigned long long)pctl(v, n, pcts[i].permille));
	printf("metric=%s_max factors=%s value=%llu unit=ns\n", prefix, factors,
	       (unsigned long long)v[n - 1]);
}

void lat_report(uint64_t *lat, unsigned long n, uint64_t slow_ns, const char *factors,
		const char *unit)
{
	unsigned long first_slow = n;
	char f[512];

	if (!n)
		return;
	qsort(lat, n, sizeof(*lat), cmp_u64);
	print_set("lat", lat, n, factors);
	while (first_slow > 0 && lat[first_slow - 1] > slow_ns)
		first_slow--;
	snprintf(f, sizeof(f), "%s,slow_ns=%llu", factors, (unsigned long long)slow_ns);
	printf("metric=lat_fault_count factors=%s value=%lu unit=%s\n", f, n - first_slow, unit);
	/* No faulting access: no percentiles rather than made-up zeros. */
	if (first_slow < n)
		print_set("lat_fault", lat + first_slow, n - first_slow, f);
}

/*
 * Bucket of @ns: 8 sub-buckets per power of two (each at most 12.5 %
 * wide); bucket b < 8 holds b ns, bucket 8 * e + s (e >= 1) holds
 * [(8 + s) << (e - 1), (9 + s) << (e - 1)).
 */
unsigned int lat_bucket(uint64_t ns)
{
	unsigned int e;

	if (ns < 8)
		return ns;
	e = 63 - __builtin_clzll(ns) - 2;		/* ns >> (e - 1) is in [8, 16) */
	return 8 * e + (unsigned int)((ns >> (e - 1)) - 8);
}

/* The exclusive upper bound of bucket @b (saturating). */
uint64_t lat_bucket_end(unsigned int b)
{
	unsigned int e = b / 8, s = b % 8;

	if (!e)
		return b + 1;
	if (e - 1 >= 60)
		return UINT64_MAX;
	return (uint64_t)(9 + s) << (e - 1);
}

int lat_hist_write(const char *path, const uint64_t *lat, unsigned long n, uint64_t slow_ns)
{
	enum { NR = 8 * 62 };
	unsigned long all[NR] = { 0 }, slow[NR] = { 0 };
	unsigned int b, lo = NR, hi = 0;
	FILE *f;

	for (unsigned long i = 0; i < n; i++) {
		b = lat_bucket(lat[i]);
		b = b < NR ? b : NR - 1;
		all[b]++;
		slow[b] += lat[i] > slow_ns;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# lt_ns all faulting: accesses of the measured pass below lt_ns and at or\n"
		   "# above the previous line's bound (8 buckets per power of two; faulting:\n"
		   "# above slow_ns=%llu); empty buckets are left out\n",
		(unsigned long long)slow_ns);
	for (b = lo; n && b <= hi; b++)
		if (all[b])
			fprintf(f, "%llu %lu %lu\n", (unsigned long long)lat_bucket_end(b), all[b],
				slow[b]);
	if (fclose(f))
		return -errno;
	return 0;
}
