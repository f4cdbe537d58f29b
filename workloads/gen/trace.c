// SPDX-License-Identifier: GPL-2.0
/* trace.c - the page trace as the threads touched the pages (see wsgen.h). */
#include "wsgen.h"

#include <stdlib.h>
#include <string.h>

atomic_ulong trace_seq;

void rec_grow(struct recorder *rc)
{
	unsigned long cap = rc->cap ? 2 * rc->cap : 4096;
	struct rec *r = realloc(rc->r, cap * sizeof(*r));

	if (!r) {
		fprintf(stderr, "wsgen: out of memory for the page trace\n");
		exit(1);
	}
	rc->r = r;
	rc->cap = cap;
}

unsigned int *trace_merge(struct recorder *const *rc, unsigned int nr, unsigned int nr_pages,
			  unsigned long *n)
{
	unsigned long total = atomic_load(&trace_seq), i;
	unsigned int *all = malloc((total ? total : 1) * sizeof(*all));

	if (!all)
		return NULL;
	memset(all, 0xff, total * sizeof(*all));
	for (unsigned int t = 0; t < nr; t++)
		for (i = 0; i < rc[t]->n; i++)
			if (rc[t]->r[i].seq < total)
				all[rc[t]->r[i].seq] = rc[t]->r[i].page;
	for (i = 0; i < total; i++) {
		if (all[i] >= nr_pages) {
			fprintf(stderr, "wsgen: internal error: trace entry %lu missing\n", i);
			free(all);
			return NULL;
		}
	}
	*n = total;
	return all;
}

unsigned long trace_distinct(const unsigned int *trace, unsigned long n, unsigned int nr_pages)
{
	unsigned char *seen = calloc(nr_pages ? nr_pages : 1, 1);
	unsigned long distinct = 0;

	if (!seen) {
		fprintf(stderr, "wsgen: out of memory for the footprint\n");
		exit(1);
	}
	for (unsigned long i = 0; i < n; i++) {
		if (trace[i] < nr_pages && !seen[trace[i]]) {
			seen[trace[i]] = 1;
			distinct++;
		}
	}
	free(seen);
	return distinct;
}
