// SPDX-License-Identifier: GPL-2.0
/* lat.c - user-side latency of wsgen's accesses: percentiles, histogram. */
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

/* Nearest rank: the smallest value with at least @pct % of @v at or below it. */
static uint64_t pctl(const uint64_t *v, unsigned long n, unsigned int pct)
{
	unsigned long rank = (n * pct + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

static void print_set(const char *prefix, const uint64_t *v, unsigned long n,
		      const char *factors)
{
	static const unsigned int pcts[] = { 50, 90, 99 };

	for (unsigned int i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		printf("metric=%s_p%u factors=%s value=%llu unit=ns\n", prefix, pcts[i], factors,
		       (unsigned long long)pctl(v, n, pcts[i]));
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
	printf("metric=lat_slow_count factors=%s value=%lu unit=%s\n", f, n - first_slow, unit);
	/* No slow access: no percentiles rather than made-up zeros. */
	if (first_slow < n)
		print_set("lat_slow", lat + first_slow, n - first_slow, f);
}

int lat_hist_write(const char *path, const uint64_t *lat, unsigned long n)
{
	unsigned long count[65] = { 0 };
	unsigned int b, lo = 64, hi = 0;
	FILE *f;

	for (unsigned long i = 0; i < n; i++) {
		/* Bucket b holds [2^(b-1), 2^b) ns; bucket 0 holds 0. */
		b = lat[i] ? 64 - __builtin_clzll(lat[i]) : 0;
		count[b]++;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# bucket_ns count: accesses of the measured pass that took less than\n"
		   "# bucket_ns and at least half of it (log2 buckets)\n");
	for (b = lo; n && b <= hi; b++)
		fprintf(f, "%llu %lu\n", b < 64 ? 1ULL << b : ~0ULL, count[b]);
	if (fclose(f))
		return -errno;
	return 0;
}
