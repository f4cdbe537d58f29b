// SPDX-License-Identifier: GPL-2.0
/*
 * wsgen - working-set generator: builds one or more enclaves whose pages
 * add up to a given multiple of the EPC, runs a seeded access stream over
 * them and reports what the pager did, next to Belady's MIN for the same
 * page trace.
 *
 *	wsgen --pattern=zipf|loop|uniform|hotcold|scan|seq|kv --ratio=2.0
 *	      --accesses=N [--seed=S] [--theta=0.99] [--run=P]
 *	      [--ycsb=a|b|c] [--value-size=B] [--threads=N] [--enclaves=N]
 *	      [--slow-ns=NS] [--lat-hist=FILE] [--key=PEM] [--trace=FILE]
 *	      [--tag=K=V,...]
 *
 * Patterns (the pages of the working set numbered 0 .. W-1):
 *	zipf	Zipf(theta) ranks scattered over the pages
 *	loop	0, 1, ..., W-1, 0, 1, ... (a cyclic scan)
 *	uniform	uniformly random pages
 *	hotcold	90 % of the accesses to 10 % of the pages
 *	scan	75 % to a hot quarter of the EPC, the rest a sequential sweep
 *	seq	sequential runs of --run pages (default W: each run one whole
 *		sequential pass), each from a seeded random page
 *	kv	a key-value store of fixed-size records (--value-size, default
 *		1024 bytes) in an open-addressing table spread over the pages,
 *		loaded first, then driven by YCSB workload --ycsb (a: 50 %
 *		reads / 50 % updates, b: 95/5, c: reads only) with scrambled
 *		Zipf(theta) keys; --accesses counts requests; reads check each
 *		record and a bad one is an error (exit 1).  kv-a, kv-b, kv-c
 *		are short for --pattern=kv --ycsb=a (b, c).
 * The page patterns read one word of each page touched and check it
 * against what was added.  Each thread's seeded generator draws 2 x
 * --accesses: the first half is the warm-up pass, the second the measured
 * one, so the measured pass is a fresh draw of the same distribution (a
 * policy cannot learn the sample it is measured on) and the positional
 * patterns (loop, scan, seq) go on where the warm-up ended.  --accesses
 * defaults to 10 x the working set in pages (kv: requests), so that the
 * measured pass touches what the ratio names; footprint (distinct pages
 * of the measured pass) and footprint_ratio (÷ the usable EPC) say what
 * it did touch.
 *
 * --threads=N: N threads share the stream, each its own seeded sub-stream
 * of accesses/N (thread 0's is the single-thread stream's start).  Every
 * page touch takes a ticket from a global counter just before it touches
 * the page; MIN runs on the touches in ticket order: exact for one thread,
 * an approximation for several (a thread can be delayed between its ticket
 * and its touch).
 * --enclaves=N: the working set is split evenly over N enclaves, its pages
 * dealt round-robin (page g is page g/N of enclave g%N), so every pattern
 * spreads over all of them; the trace is of (enclave, page) pairs.
 *
 * Belady's MIN of the trace (warm-up as history, faults of the measured
 * pass counted), at two capacities:
 *	min_faults_usable  what the hardware leaves: the EPC less the SECS
 *			   pages, the VA pages the working set's evicted
 *			   pages need (512 slots each) and the pager's fixed
 *			   reserve of 2; faults_over_min is judged on this
 *	min_faults_steady  also less the free pages kisgxswapd keeps (the
 *			   middle of low_mark and high_mark): secondary, since
 *			   a pager improves it by keeping more pages free
 *
 * MIN's cache starts empty at the warm-up while the pager's EPC holds what
 * the build left: a working set that fits (at the steady capacity) has
 * MIN 0, and when the warm-up touches fewer distinct pages than MIN can
 * keep, no MIN is printed (it would count cold misses the pager never
 * has).
 *
 * The module's debugfs counters (nr_*, ns_*) are read around the measured
 * pass only: their differences are printed as they are named, with
 * etrack_per_evicted, ipi_rounds_per_evicted and ipi_cpus_per_evicted,
 * and swap_rate ((evicted + loaded) / s).
 *
 * Every access (kv: every request) of the measured pass is timed with
 * clock_gettime: lat_p50/p90/p99/p999/max over all of them, and
 * lat_fault_* over those above --slow-ns (default 50000: the ones that
 * faulted; lat_fault_count next to faults shows the split is right);
 * --lat-hist=FILE writes their histogram, 8 buckets per power of two,
 * "lt_ns all faulting" lines.
 *
 * Run as root in the guest with isgx loaded.  One line per measurement:
 *	metric=NAME factors=K=V,... value=NUMBER unit=UNIT
 * --trace=FILE writes the measured pass's page trace, one page a line
 * ("enclave page" with several enclaves).
 */
#define _GNU_SOURCE
#include "wsgen.h"
#include "sign.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ISGX_DEFAULT_KEY
#define ISGX_DEFAULT_KEY "signing_key.pem"
#endif

#define MAX_THREADS	64
#define MAX_ENCLAVES	64

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

/* Is the loaded policy one of the baselines (fixed marks 32/64)? */
static bool baseline_policy(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/module/isgx/parameters/policy", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return !strncmp(buf, "fifo16", 6) || !strncmp(buf, "seed", 4);
}

struct run {
	struct ws ws;
	struct kv kv;
	bool is_kv;
};

struct worker {
	pthread_t tid;
	struct run *run;
	unsigned int *pages;		/* page patterns: both passes' accesses */
	struct kv_req *req;		/* kv: both passes' requests */
	unsigned long n;		/* accesses per pass */
	unsigned long off;		/* of this pass in pages or req: 0 or n */
	struct recorder rc;
	uint64_t *lat;			/* of each access or request, last pass */
	unsigned long bad;		/* page words other than the ones added */
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct ws *ws = &w->run->ws;
	uint64_t t0, v;
	unsigned int g;

	for (unsigned long i = 0; i < w->n; i++) {
		if (w->req) {
			t0 = now_ns();
			kv_op(&w->run->kv, &w->rc, &w->req[w->off + i]);
			w->lat[i] = now_ns() - t0;
			continue;
		}
		g = w->pages[w->off + i];
		rec_touch(&w->rc, g);
		t0 = now_ns();
		v = *(volatile uint64_t *)ws_page(ws, g);	/* every data page is readable */
		w->lat[i] = now_ns() - t0;
		if (v != isgx_layout_word(ws_offset(g / ws->nr_encl)))
			w->bad++;
	}
	return NULL;
}

/* Pass @pass (0: warm-up, 1: measured) of every thread's stream. */
static int run_pass(struct worker *w, unsigned int nr, int pass)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr; i++)
		w[i].off = pass ? w[i].n : 0;
	if (nr == 1) {
		worker_run(w);
		return 0;
	}
	for (i = 0; i < nr; i++) {
		ret = pthread_create(&w[i].tid, NULL, worker_run, &w[i]);
		if (ret) {
			fprintf(stderr, "wsgen: pthread_create: %s\n", strerror(ret));
			break;
		}
	}
	while (i-- > 0)
		pthread_join(w[i].tid, NULL);
	return ret ? -1 : 0;
}

static int parse_ul(const char *opt, const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-') {
		fprintf(stderr, "wsgen: --%s: '%s' is not a non-negative integer\n", opt, s);
		return -1;
	}
	return 0;
}

static int parse_d(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end) {
		fprintf(stderr, "wsgen: --%s: '%s' is not a number\n", opt, s);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: wsgen --pattern=zipf|loop|uniform|hotcold|scan|seq|kv|kv-a|kv-b|kv-c\n"
		   "             --ratio=R --accesses=N [--seed=S] [--theta=T] [--run=P]\n"
		   "             [--ycsb=a|b|c] [--value-size=B] [--threads=N] [--enclaves=N]\n"
		   "             [--slow-ns=NS] [--lat-hist=FILE] [--key=PEM] [--trace=FILE]\n"
		   "             [--tag=K=V,...]\n"
		   "  --ratio       working set / EPC, in (0, 16]\n"
		   "  --accesses    page accesses (kv: requests) per pass, shared by the threads\n"
		   "                (default: 10 x the working set in pages)\n"
		   "  --run         seq: pages per sequential run (default: the working set)\n"
		   "  --ycsb        kv: YCSB workload a (50/50 read/update), b (95/5), c (reads)\n"
		   "  --value-size  kv: value bytes per record, a multiple of 8 (default 1024)\n"
		   "  --threads     threads sharing the stream, 1..%d (default 1)\n"
		   "  --enclaves    enclaves the working set is split over, 1..%d (default 1)\n"
		   "  --slow-ns     accesses above this faulted (default 50000)\n"
		   "  --lat-hist    write the latency histogram (lt_ns all faulting) to FILE\n"
		   "  --trace       write the measured pass's page trace to FILE\n",
		MAX_THREADS, MAX_ENCLAVES);
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
		{ "run", required_argument, NULL, 'R' },
		{ "ycsb", required_argument, NULL, 'y' },
		{ "value-size", required_argument, NULL, 'V' },
		{ "threads", required_argument, NULL, 'j' },
		{ "enclaves", required_argument, NULL, 'E' },
		{ "slow-ns", required_argument, NULL, 'S' },
		{ "lat-hist", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *pattern = "zipf", *key_path = ISGX_DEFAULT_KEY, *trace_path = NULL, *tag = "";
	const char *hist_path = NULL, *ycsb_arg = NULL;
	double ratio = 2.0, theta = 0.99, t0 = 0, t1, load_time = 0;
	unsigned long accesses = 0, seed = 1, run_len = 0, value_size = 1024, threads = 1;
	unsigned long enclaves = 1, slow_ns = 50000, i, seq_measured, nr_seq, nr_lat, bad = 0;
	unsigned long min_usable, min_steady, min_bound, kv_errors = 0, footprint, warm;
	bool min_valid, fits;
	long total, hw, lw, loaded, evicted, usable, steady, bound, nr_va;
	unsigned int nr_pages, per, *all;
	struct counters before = { 0 }, after = { 0 };
	struct recorder **rcs;
	struct pattern pat = { 0 };
	struct worker *w;
	struct run run = { 0 };
	char err[256], factors[384], pname[16], ycsb = 0, extra[96] = "";
	uint64_t *lat;
	EVP_PKEY *key;
	int c, fd, status = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int bad_arg = 0;

		switch (c) {
		case 'p': pattern = optarg; break;
		case 'r': bad_arg = parse_d("ratio", optarg, &ratio); break;
		case 'n': bad_arg = parse_ul("accesses", optarg, &accesses); break;
		case 's': bad_arg = parse_ul("seed", optarg, &seed); break;
		case 't': bad_arg = parse_d("theta", optarg, &theta); break;
		case 'k': key_path = optarg; break;
		case 'T': trace_path = optarg; break;
		case 'g': tag = optarg; break;
		case 'R': bad_arg = parse_ul("run", optarg, &run_len); break;
		case 'y': ycsb_arg = optarg; break;
		case 'V': bad_arg = parse_ul("value-size", optarg, &value_size); break;
		case 'j': bad_arg = parse_ul("threads", optarg, &threads); break;
		case 'E': bad_arg = parse_ul("enclaves", optarg, &enclaves); break;
		case 'S': bad_arg = parse_ul("slow-ns", optarg, &slow_ns); break;
		case 'L': hist_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
		if (bad_arg)
			return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "wsgen: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	/* Options first: a bad command line is an error even without isgx. */
	if (!strcmp(pattern, "kv") || (!strncmp(pattern, "kv-", 3) && strlen(pattern) == 4)) {
		run.is_kv = true;
		ycsb = pattern[2] ? pattern[3] : 'a';
		if (ycsb_arg) {
			if (pattern[2] && strcmp(ycsb_arg, pattern + 3)) {
				fprintf(stderr, "wsgen: --pattern=%s and --ycsb=%s disagree\n", pattern,
					ycsb_arg);
				return 2;
			}
			ycsb = ycsb_arg[0];
			if (strlen(ycsb_arg) != 1)
				ycsb = '?';
		}
		if (ycsb != 'a' && ycsb != 'b' && ycsb != 'c') {
			fprintf(stderr, "wsgen: --ycsb must be a, b or c\n");
			return 2;
		}
		snprintf(pname, sizeof(pname), "kv-%c", ycsb);
	} else if (pattern_known(pattern)) {
		if (ycsb_arg) {
			fprintf(stderr, "wsgen: --ycsb is for --pattern=kv only\n");
			return 2;
		}
		snprintf(pname, sizeof(pname), "%s", pattern);
	} else {
		fprintf(stderr, "wsgen: unknown pattern '%s'\n", pattern);
		usage(stderr);
		return 2;
	}
	if (ratio <= 0 || ratio > 16) {
		fprintf(stderr, "wsgen: --ratio must be in (0, 16]\n");
		return 2;
	}
	if (run_len && strcmp(pattern, "seq")) {
		fprintf(stderr, "wsgen: --run is for --pattern=seq only\n");
		return 2;
	}
	if (value_size != 1024 && !run.is_kv) {
		fprintf(stderr, "wsgen: --value-size is for --pattern=kv only\n");
		return 2;
	}
	if (threads < 1 || threads > MAX_THREADS || enclaves < 1 || enclaves > MAX_ENCLAVES) {
		fprintf(stderr, "wsgen: --threads and --enclaves must be in 1..%d and 1..%d\n",
			MAX_THREADS, MAX_ENCLAVES);
		return 2;
	}
	if (accesses && accesses < threads) {
		fprintf(stderr, "wsgen: --accesses must be at least --threads\n");
		return 2;
	}
	if (theta < 0 || (run.is_kv && (value_size < 8 || value_size % 8 ||
					value_size > (1U << 20)))) {
		fprintf(stderr, "wsgen: --theta must be >= 0, --value-size a multiple of 8 in [8, 1048576]\n");
		return 2;
	}

	total = counter("nr_total_pages");
	hw = param("high_mark");
	lw = param("low_mark");
	if (baseline_policy()) {
		/* The baselines keep their own marks whatever the parameters say. */
		lw = 32;
		hw = 64;
	}
	if (total <= 0) {
		fprintf(stderr, "wsgen: isgx is not loaded (no /sys/kernel/debug/isgx)\n");
		return 1;
	}
	per = (unsigned int)(ratio * total) / enclaves;
	if (per < 1) {
		fprintf(stderr, "wsgen: %.0f pages cannot be split over %lu enclaves\n",
			ratio * total, enclaves);
		return 2;
	}
	/* A multiple of the enclaves: the same ratio to a page or two. */
	nr_pages = per * enclaves;
	run.ws.nr_encl = enclaves;
	run.ws.per = per;
	if (!accesses)
		accesses = 10UL * nr_pages;
	if (accesses < threads)
		accesses = threads;

	w = calloc(threads, sizeof(*w));
	if (!w)
		goto oom;
	if (run.is_kv) {
		if (kv_init(&run.kv, &run.ws, ycsb, value_size, theta, seed, err)) {
			fprintf(stderr, "wsgen: kv: %s\n", err);
			return 1;
		}
	} else {
		pat.name = pattern;
		pat.nr_pages = nr_pages;
		pat.hot = total / 4 < nr_pages ? total / 4 : nr_pages;
		pat.run = run_len ? run_len : nr_pages;
		if (!strcmp(pattern, "zipf") && zipf_init(&pat.zipf, nr_pages, theta))
			goto oom;
	}
	for (unsigned int t = 0; t < threads; t++) {
		struct rng r;

		w[t].run = &run;
		w[t].n = accesses / threads + (t < accesses % threads);
		w[t].lat = malloc(w[t].n * sizeof(*w[t].lat));
		rng_seed(&r, seed, t);
		/* Warm-up and measured pass: one stream, drawn on. */
		if (run.is_kv) {
			w[t].req = malloc(2 * w[t].n * sizeof(*w[t].req));
			if (!w[t].lat || !w[t].req)
				goto oom;
			kv_gen(&run.kv, &r, w[t].req, 2 * w[t].n);
		} else {
			w[t].pages = malloc(2 * w[t].n * sizeof(*w[t].pages));
			if (!w[t].lat || !w[t].pages)
				goto oom;
			pattern_gen(&pat, t, threads, &r, w[t].pages, 2 * w[t].n);
		}
	}
	zipf_free(&pat.zipf);

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
	t0 = now_ns() / 1e9;
	if (ws_build(&run.ws, fd, enclaves, per, run.is_kv, key, err)) {
		fprintf(stderr, "wsgen: %s\n", err);
		return 1;
	}
	t1 = now_ns() / 1e9;
	if (threads > 1 || enclaves > 1)
		snprintf(extra, sizeof(extra), ",threads=%lu,enclaves=%lu", threads, enclaves);
	if (run.is_kv && value_size != 1024)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), ",value_size=%lu",
			 value_size);
	snprintf(factors, sizeof(factors), "pattern=%s,ratio=%.2f,epc=%ld,accesses=%lu,seed=%lu%s%s%s",
		 pname, ratio, total, accesses, seed, extra, *tag ? "," : "", tag);
	printf("metric=build_time factors=%s value=%.3f unit=s\n", factors, t1 - t0);
	/* Every page added (data, TCS, SSA) went through EADD and EEXTEND. */
	printf("metric=build_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       (per + 2.0) * enclaves / (t1 - t0));
	fflush(stdout);

	/* kv: YCSB's load phase, one thread; its touches are in the trace. */
	if (run.is_kv) {
		t0 = now_ns() / 1e9;
		kv_load(&run.kv, &w[0].rc);
		load_time = now_ns() / 1e9 - t0;
	}
	/* The warm-up pass, then the measured one with the counters around it. */
	seq_measured = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			seq_measured = atomic_load(&trace_seq);
			if (counters_read(&before))
				return 1;
			t0 = now_ns() / 1e9;
		}
		if (run_pass(w, threads, pass))
			return 1;
	}
	t1 = now_ns() / 1e9;
	if (counters_read(&after))
		return 1;
	loaded = counters_diff(&before, &after, "nr_loaded");
	evicted = counters_diff(&before, &after, "nr_evicted");

	/* The page touches in ticket order: the trace the pager saw. */
	rcs = malloc(threads * sizeof(*rcs));
	if (!rcs)
		goto oom;
	for (unsigned int t = 0; t < threads; t++) {
		rcs[t] = &w[t].rc;
		bad += w[t].bad;
	}
	all = trace_merge(rcs, threads, nr_pages, &nr_seq);
	free(rcs);
	if (!all)
		return 1;
	/* Every enclave's TCS and SSA page is evictable too and takes a slot. */
	nr_va = va_pages_needed(total, enclaves, nr_pages + 2 * enclaves);
	/* What the hardware leaves for data pages (see the top of the file). */
	bound = total - (long)enclaves - nr_va;
	usable = bound - ISGX_EPC_RESERVE;
	steady = usable - (hw > 0 ? (hw + lw) / 2 : 0);
	min_usable = belady_min(all, nr_seq, nr_pages, usable > 0 ? usable : 1, seq_measured);
	min_steady = belady_min(all, nr_seq, nr_pages, steady > 0 ? steady : 1, seq_measured);
	/*
	 * No pager can fault less than MIN with every EPC page but the SECSs
	 * and the VA pages: fewer means accesses reached pages through
	 * mappings that should have been gone (stale TLB entries, for one).
	 */
	min_bound = belady_min(all, nr_seq, nr_pages, bound > 0 ? bound : 1, seq_measured);
	/*
	 * MIN starts with an empty cache at the warm-up; the pager starts
	 * with the EPC full of the pages the build left.  A warm-up that
	 * touches fewer distinct pages than MIN can keep leaves MIN's cache
	 * part empty: its count is then no bound and is not printed.
	 */
	warm = trace_distinct(all, seq_measured, nr_pages);
	min_valid = warm >= (unsigned long)(usable < (long)nr_pages ? usable : (long)nr_pages);
	/* A working set that fits stays resident from the build on: MIN is 0. */
	fits = (long)nr_pages <= steady;
	if (fits)
		min_usable = min_steady = min_bound = 0;
	min_valid |= fits;
	if (!min_valid)
		fprintf(stderr, "wsgen: note: the warm-up touched %lu distinct pages, fewer than the %ld MIN can keep: no MIN for this run (more --accesses)\n",
			warm, usable);
	if (min_valid && loaded < (long)min_bound)
		fprintf(stderr, "wsgen: warning: %ld faults is below MIN (%lu) at the whole EPC: stale mappings?%s\n",
			loaded, min_bound,
			threads > 1 ? " (the multi-thread trace is an approximation)" : "");
	footprint = trace_distinct(all + seq_measured, nr_seq - seq_measured, nr_pages);
	printf("metric=footprint factors=%s value=%lu unit=pages\n", factors, footprint);
	printf("metric=footprint_ratio factors=%s,usable=%ld value=%.4f unit=ratio\n", factors,
	       usable, usable > 0 ? (double)footprint / usable : 0.0);
	if (min_valid)
		printf("metric=min_faults_bound factors=%s value=%lu unit=pages\n", factors,
		       min_bound);
	printf("metric=faults factors=%s value=%ld unit=pages\n", factors, loaded);
	printf("metric=evictions factors=%s value=%ld unit=pages\n", factors, evicted);
	if (min_valid) {
		printf("metric=min_faults_usable factors=%s,capacity=%ld value=%lu unit=pages\n",
		       factors, usable, min_usable);
		printf("metric=min_faults_steady factors=%s,capacity=%ld value=%lu unit=pages\n",
		       factors, steady, min_steady);
	}
	printf("metric=access_time factors=%s value=%.3f unit=s\n", factors, t1 - t0);
	printf("metric=swap_in_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       loaded / (t1 - t0));
	printf("metric=swap_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       (loaded + evicted) / (t1 - t0));
	counters_report(&before, &after, factors);
	if (run.is_kv) {
		printf("metric=load_time factors=%s value=%.3f unit=s\n", factors, load_time);
		printf("metric=kv_ops_rate factors=%s value=%.1f unit=ops/s\n", factors,
		       accesses / (t1 - t0));
		printf("metric=page_touches factors=%s value=%lu unit=pages\n", factors,
		       nr_seq - seq_measured);
	}

	/* Latencies of the measured pass, all threads together. */
	lat = malloc(accesses * sizeof(*lat));
	if (!lat)
		goto oom;
	nr_lat = 0;
	for (unsigned int t = 0; t < threads; t++) {
		memcpy(lat + nr_lat, w[t].lat, w[t].n * sizeof(*lat));
		nr_lat += w[t].n;
	}
	if (hist_path) {
		int ret = lat_hist_write(hist_path, lat, nr_lat, slow_ns);

		if (ret) {
			fprintf(stderr, "wsgen: %s: %s\n", hist_path, strerror(-ret));
			status = 1;
		}
	}
	lat_report(lat, nr_lat, slow_ns, factors, run.is_kv ? "ops" : "accesses");
	fflush(stdout);

	if (trace_path) {
		FILE *f = fopen(trace_path, "w");

		for (i = seq_measured; f && i < nr_seq; i++) {
			if (enclaves > 1)
				fprintf(f, "%lu %lu\n", all[i] % enclaves, all[i] / enclaves);
			else
				fprintf(f, "%u\n", all[i]);
		}
		if (!f || fclose(f)) {
			fprintf(stderr, "wsgen: %s: %s\n", trace_path, strerror(errno));
			status = 1;
		}
	}
	if (bad) {
		fprintf(stderr, "wsgen: %lu page reads returned other data than was added\n", bad);
		status = 1;
	}
	if (run.is_kv) {
		kv_errors = atomic_load(&run.kv.errors);
		if (kv_errors) {
			fprintf(stderr, "wsgen: kv: %lu bad records (lost, stale or corrupted)\n",
				kv_errors);
			status = 1;
		}
		kv_free(&run.kv);
	}
	ws_destroy(&run.ws);
	close(fd);
	for (unsigned int t = 0; t < threads; t++) {
		free(w[t].pages);
		free(w[t].req);
		free(w[t].lat);
		free(w[t].rc.r);
	}
	free(w);
	free(all);
	free(lat);
	return status;
oom:
	fprintf(stderr, "wsgen: out of memory\n");
	return 1;
}
