// SPDX-License-Identifier: GPL-2.0
/* patterns.c - wsgen's seeded generators and page access patterns. */
#include "wsgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rng_seed(struct rng *r, unsigned long seed, unsigned int stream)
{
	r->s = (seed * 0x9e3779b97f4a7c15ULL + 1) ^ (stream * 0xd1b54a32d192ed03ULL);
	if (!r->s)
		r->s = 1;
}

uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

double rng_unit(struct rng *r)
{
	return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

int zipf_init(struct zipf *z, unsigned int n, double theta)
{
	double acc = 0;

	z->n = n;
	z->cdf = malloc(n * sizeof(*z->cdf));
	if (!z->cdf)
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		acc += 1.0 / pow(i + 1, theta);
		z->cdf[i] = acc;
	}
	for (unsigned int i = 0; i < n; i++)
		z->cdf[i] /= acc;
	return 0;
}

unsigned int zipf_next(const struct zipf *z, struct rng *r)
{
	double u = rng_unit(r);
	unsigned int lo = 0, hi = z->n - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void zipf_free(struct zipf *z)
{
	free(z->cdf);
	z->cdf = NULL;
}

static const char *const names[] = { "zipf", "loop", "uniform", "hotcold", "scan", "seq" };

bool pattern_known(const char *name)
{
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * Stream 0 is the trace wsgen has always generated for a seed; the other
 * streams (one per thread) use their own seeds, and the positional
 * patterns (loop, scan) start stream k at k / @nr_streams of the range.
 */
void pattern_gen(const struct pattern *p, unsigned int stream, unsigned int nr_streams,
		 struct rng *r, unsigned int *trace, unsigned long n)
{
	unsigned int nr = p->nr_pages;
	unsigned long pos = (unsigned long)stream * nr / nr_streams, left = 0;

	for (unsigned long i = 0; i < n; i++) {
		if (!strcmp(p->name, "zipf")) {
			/* Hot ranks scattered over the range, not all at its start. */
			trace[i] = (uint32_t)((zipf_next(&p->zipf, r) * 2654435761ULL) % nr);
		} else if (!strcmp(p->name, "loop")) {
			trace[i] = (pos + i) % nr;
		} else if (!strcmp(p->name, "scan")) {
			/*
			 * A hot set of a quarter of the EPC takes 75 % of the
			 * accesses; the rest sweep the whole range in order.
			 * A scan-resistant pager keeps the hot set.
			 */
			trace[i] = rng_unit(r) < 0.75 ? rng_next(r) % p->hot : pos++ % nr;
		} else if (!strcmp(p->name, "uniform")) {
			trace[i] = rng_next(r) % nr;
		} else if (!strcmp(p->name, "hotcold")) {
			/* 90 % of the accesses go to 10 % of the pages. */
			unsigned int hot = nr / 10 ? nr / 10 : 1;

			trace[i] = rng_unit(r) < 0.9 || hot == nr ? rng_next(r) % hot :
								    hot + rng_next(r) % (nr - hot);
		} else {
			/*
			 * seq: sequential runs of p->run pages, each from a
			 * seeded random page, wrapping at the end; with the
			 * default run (the whole working set) every run is one
			 * full sequential pass.
			 */
			if (!left) {
				pos = rng_next(r) % nr;
				left = p->run;
			}
			trace[i] = pos;
			pos = (pos + 1) % nr;
			left--;
		}
	}
}
