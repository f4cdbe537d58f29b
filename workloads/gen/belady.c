// SPDX-License-Identifier: GPL-2.0
/* belady.c - Belady's MIN, the lower bound for the faults of a trace. */
#include "wsgen.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

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

unsigned long belady_min(const unsigned int *trace, unsigned long n, unsigned int nr_pages,
			 unsigned int cap, unsigned long count_from)
{
	unsigned long *next = malloc(n * sizeof(*next)), *last = malloc(nr_pages * sizeof(*last));
	unsigned long *cur_next = calloc(nr_pages, sizeof(*cur_next));
	unsigned char *in = calloc(nr_pages, 1);
	struct heap_ent *h = malloc((n + 1) * sizeof(*h));
	unsigned long hn = 0, faults = 0, resident = 0;

	if (!next || !last || !cur_next || !in || !h) {
		fprintf(stderr, "wsgen: out of memory for Belady's MIN of %lu accesses\n", n);
		exit(1);
	}
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

long va_pages_needed(long total, unsigned long nr_encl, unsigned int nr_pages)
{
	long v = 0;

	while ((long)nr_pages - (total - (long)nr_encl - v - ISGX_EPC_RESERVE) > v * VA_SLOTS)
		v++;
	return v;
}
