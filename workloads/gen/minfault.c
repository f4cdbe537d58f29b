// SPDX-License-Identifier: GPL-2.0
/*
 * minfault - the minor-fault floor: the cost of a first touch of an
 * anonymous page (fault, allocation, zeroing, PTE install) in this boot,
 * next to which an enclave fault (ELDU: decrypt, MAC check, map) is read.
 *
 *	minfault [--pages=N] [--rounds=R] [--tag=K=V,...]
 *
 * Maps N anonymous pages R times, touches each page once and unmaps;
 * prints the median over rounds of the time per first touch:
 *	metric=minor_fault factors=source=floor,pages=N,rounds=R[,tag] value=NS unit=ns
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: minfault [--pages=N] [--rounds=R] [--tag=K=V,...]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pages", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "tag", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long pages = 2048, rounds = 9, i, r;
	const char *tag = "";
	long psize = sysconf(_SC_PAGESIZE);
	double *per_page;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pages = strtoul(optarg, &end, 0);
			if (*end || !pages || pages > (1UL << 20)) {
				fprintf(stderr, "minfault: --pages must be in 1..1048576\n");
				return 2;
			}
			break;
		case 'r':
			rounds = strtoul(optarg, &end, 0);
			if (*end || !rounds || rounds > 1000) {
				fprintf(stderr, "minfault: --rounds must be in 1..1000\n");
				return 2;
			}
			break;
		case 'g': tag = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	per_page = calloc(rounds, sizeof(*per_page));
	if (!per_page) {
		perror("minfault: calloc");
		return 1;
	}
	/* Round 0 warms up the allocator and is not counted. */
	for (r = 0; r <= rounds; r++) {
		volatile char *p = mmap(NULL, pages * psize, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		double t0;

		if (p == MAP_FAILED) {
			perror("minfault: mmap");
			return 1;
		}
		/* 4 KiB faults, not one transparent huge page per 512 of them. */
		madvise((void *)p, pages * psize, MADV_NOHUGEPAGE);
		t0 = now_ns();
		for (i = 0; i < pages; i++)
			p[i * psize] = 1;	/* a write: a zeroed page, not the zero page */
		if (r)
			per_page[r - 1] = (now_ns() - t0) / pages;
		munmap((void *)p, pages * psize);
	}
	qsort(per_page, rounds, sizeof(*per_page), cmp_double);
	printf("metric=minor_fault factors=source=floor,pages=%lu,rounds=%lu%s%s value=%.1f unit=ns\n",
	       pages, rounds, *tag ? "," : "", tag, per_page[rounds / 2]);
	free(per_page);
	return 0;
}
