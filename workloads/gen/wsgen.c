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
#include "counters.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ISGX_DEFAULT_KEY
#define ISGX_DEFAULT_KEY "signing_key.pem"
#endif

#define MAX_THREADS	64
#define MAX_ENCLAVES	64

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

/* A stage that went well: main() goes on to the next (else: the exit status). */
#define GO_ON	(-1)

/*
 * One run of wsgen: its command line, then what it learns from the module,
 * builds and measures, stage by stage (main() at the bottom).
 */
struct run {
	/* The command line. */
	const char *pattern, *key_path, *trace_path, *tag, *hist_path, *ycsb_arg;
	double ratio, theta;
	unsigned long accesses, seed, run_len, value_size, threads, enclaves, slow_ns;
	char pname[16];			/* the pattern in factors: kv-a, not kv */
	char ycsb;			/* kv: a, b or c */
	bool is_kv;
	/* The module, and the working set sized to it. */
	long total, hw, lw;		/* EPC pages; kisgxswapd's marks (<= 0: none) */
	unsigned int nr_pages, per;	/* pages of the working set; of each enclave */
	struct ws ws;
	struct kv kv;
	struct worker *w;		/* one per thread */
	int fd;				/* /dev/sgx */
	char factors[384];
	/* The passes and their trace. */
	double load_time;		/* s, kv's load phase */
	double access_time;		/* s, the measured pass */
	unsigned long seq_measured;	/* the measured pass's first ticket */
	struct counters before, after;	/* around the measured pass */
	unsigned int *all;		/* every page touch, in ticket order */
	unsigned long nr_seq;		/* of them */
	uint64_t *lat;			/* the measured pass's latencies, all threads */
	int status;			/* 1 once an output or check failed */
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

static int oom(void)
{
	fprintf(stderr, "wsgen: out of memory\n");
	return 1;
}

/* The pattern and the options that depend on it: GO_ON or 2. */
static int check_options(struct run *r)
{
	const char *pattern = r->pattern, *ycsb_arg = r->ycsb_arg;

	if (!strcmp(pattern, "kv") || (!strncmp(pattern, "kv-", 3) && strlen(pattern) == 4)) {
		r->is_kv = true;
		r->ycsb = pattern[2] ? pattern[3] : 'a';
		if (ycsb_arg) {
			if (pattern[2] && strcmp(ycsb_arg, pattern + 3)) {
				fprintf(stderr, "wsgen: --pattern=%s and --ycsb=%s disagree\n", pattern,
					ycsb_arg);
				return 2;
			}
			r->ycsb = ycsb_arg[0];
			if (strlen(ycsb_arg) != 1)
				r->ycsb = '?';
		}
		if (r->ycsb != 'a' && r->ycsb != 'b' && r->ycsb != 'c') {
			fprintf(stderr, "wsgen: --ycsb must be a, b or c\n");
			return 2;
		}
		snprintf(r->pname, sizeof(r->pname), "kv-%c", r->ycsb);
	} else if (pattern_known(pattern)) {
		if (ycsb_arg) {
			fprintf(stderr, "wsgen: --ycsb is for --pattern=kv only\n");
			return 2;
		}
		snprintf(r->pname, sizeof(r->pname), "%s", pattern);
	} else {
		fprintf(stderr, "wsgen: unknown pattern '%s'\n", pattern);
		usage(stderr);
		return 2;
	}
	if (r->ratio <= 0 || r->ratio > 16) {
		fprintf(stderr, "wsgen: --ratio must be in (0, 16]\n");
		return 2;
	}
	if (r->run_len && strcmp(pattern, "seq")) {
		fprintf(stderr, "wsgen: --run is for --pattern=seq only\n");
		return 2;
	}
	if (r->value_size != 1024 && !r->is_kv) {
		fprintf(stderr, "wsgen: --value-size is for --pattern=kv only\n");
		return 2;
	}
	if (r->threads < 1 || r->threads > MAX_THREADS || r->enclaves < 1 ||
	    r->enclaves > MAX_ENCLAVES) {
		fprintf(stderr, "wsgen: --threads and --enclaves must be in 1..%d and 1..%d\n",
			MAX_THREADS, MAX_ENCLAVES);
		return 2;
	}
	if (r->accesses && r->accesses < r->threads) {
		fprintf(stderr, "wsgen: --accesses must be at least --threads\n");
		return 2;
	}
	if (r->theta < 0 || (r->is_kv && (r->value_size < 8 || r->value_size % 8 ||
					  r->value_size > (1U << 20)))) {
		fprintf(stderr, "wsgen: --theta must be >= 0, --value-size a multiple of 8 in [8, 1048576]\n");
		return 2;
	}
	return GO_ON;
}

/* The options that take a value: where it goes in struct run, and its kind. */
static const struct opt_field {
	const char *name;
	enum { OPT_STR, OPT_UL, OPT_D } kind;
	size_t off;
} opt_fields[] = {
	{ "pattern", OPT_STR, offsetof(struct run, pattern) },
	{ "ratio", OPT_D, offsetof(struct run, ratio) },
	{ "accesses", OPT_UL, offsetof(struct run, accesses) },
	{ "seed", OPT_UL, offsetof(struct run, seed) },
	{ "theta", OPT_D, offsetof(struct run, theta) },
	{ "key", OPT_STR, offsetof(struct run, key_path) },
	{ "trace", OPT_STR, offsetof(struct run, trace_path) },
	{ "tag", OPT_STR, offsetof(struct run, tag) },
	{ "run", OPT_UL, offsetof(struct run, run_len) },
	{ "ycsb", OPT_STR, offsetof(struct run, ycsb_arg) },
	{ "value-size", OPT_UL, offsetof(struct run, value_size) },
	{ "threads", OPT_UL, offsetof(struct run, threads) },
	{ "enclaves", OPT_UL, offsetof(struct run, enclaves) },
	{ "slow-ns", OPT_UL, offsetof(struct run, slow_ns) },
	{ "lat-hist", OPT_STR, offsetof(struct run, hist_path) },
};

#define NR_OPT_FIELDS	(sizeof(opt_fields) / sizeof(opt_fields[0]))
/* getopt_long's value for opt_fields[i]: OPT_FIELD + i, beyond every char. */
#define OPT_FIELD	256

/* @arg into @o's field of @r: 0, or -1 (and a message) when it is no number. */
static int set_option(struct run *r, const struct opt_field *o, const char *arg)
{
	void *field = (char *)r + o->off;

	if (o->kind == OPT_UL)
		return parse_ul(o->name, arg, field);
	if (o->kind == OPT_D)
		return parse_d(o->name, arg, field);
	*(const char **)field = arg;
	return 0;
}

/*
 * The command line into @r, checked before anything else: a bad command
 * line is an error even without isgx.  GO_ON, 0 after --help, or 2.
 */
static int parse_options(struct run *r, int argc, char **argv)
{
	struct option opts[NR_OPT_FIELDS + 2] = { 0 };
	int c;

	for (unsigned int i = 0; i < NR_OPT_FIELDS; i++)
		opts[i] = (struct option){ opt_fields[i].name, required_argument, NULL,
					   OPT_FIELD + i };
	opts[NR_OPT_FIELDS] = (struct option){ "help", no_argument, NULL, 'h' };
	r->pattern = "zipf";
	r->key_path = ISGX_DEFAULT_KEY;
	r->tag = "";
	r->ratio = 2.0;
	r->theta = 0.99;
	r->seed = 1;
	r->value_size = 1024;
	r->threads = 1;
	r->enclaves = 1;
	r->slow_ns = 50000;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c < OPT_FIELD) {
			usage(stderr);
			return 2;
		}
		if (set_option(r, &opt_fields[c - OPT_FIELD], optarg))
			return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "wsgen: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return check_options(r);
}

/* The EPC and the marks from the module, the working set sized to them. */
static int size_run(struct run *r)
{
	r->total = isgx_counter("nr_total_pages");
	r->hw = isgx_param("high_mark");
	r->lw = isgx_param("low_mark");
	if (baseline_policy()) {
		/* The baselines keep their own marks whatever the parameters say. */
		r->lw = 32;
		r->hw = 64;
	}
	if (r->total <= 0) {
		fprintf(stderr, "wsgen: isgx is not loaded (no /sys/kernel/debug/isgx)\n");
		return 1;
	}
	r->per = (unsigned int)(r->ratio * r->total) / r->enclaves;
	if (r->per < 1) {
		fprintf(stderr, "wsgen: %.0f pages cannot be split over %lu enclaves\n",
			r->ratio * r->total, r->enclaves);
		return 2;
	}
	/* A multiple of the enclaves: the same ratio to a page or two. */
	r->nr_pages = r->per * r->enclaves;
	r->ws.nr_encl = r->enclaves;
	r->ws.per = r->per;
	if (!r->accesses)
		r->accesses = 10UL * r->nr_pages;
	if (r->accesses < r->threads)
		r->accesses = r->threads;
	return GO_ON;
}

/* Every thread's stream, both passes, drawn before the enclaves exist. */
static int draw_streams(struct run *r)
{
	struct pattern pat = { 0 };
	char err[256];

	r->w = calloc(r->threads, sizeof(*r->w));
	if (!r->w)
		return oom();
	if (r->is_kv) {
		if (kv_init(&r->kv, &r->ws, r->ycsb, r->value_size, r->theta, r->seed, err)) {
			fprintf(stderr, "wsgen: kv: %s\n", err);
			return 1;
		}
	} else {
		pat.name = r->pattern;
		pat.nr_pages = r->nr_pages;
		pat.hot = r->total / 4 < r->nr_pages ? r->total / 4 : r->nr_pages;
		pat.run = r->run_len ? r->run_len : r->nr_pages;
		if (!strcmp(r->pattern, "zipf") && zipf_init(&pat.zipf, r->nr_pages, r->theta))
			return oom();
	}
	for (unsigned int t = 0; t < r->threads; t++) {
		struct worker *w = &r->w[t];
		struct rng rng;

		w->run = r;
		w->n = r->accesses / r->threads + (t < r->accesses % r->threads);
		w->lat = malloc(w->n * sizeof(*w->lat));
		rng_seed(&rng, r->seed, t);
		/* Warm-up and measured pass: one stream, drawn on. */
		if (r->is_kv) {
			w->req = malloc(2 * w->n * sizeof(*w->req));
			if (!w->lat || !w->req)
				return oom();
			kv_gen(&r->kv, &rng, w->req, 2 * w->n);
		} else {
			w->pages = malloc(2 * w->n * sizeof(*w->pages));
			if (!w->lat || !w->pages)
				return oom();
			pattern_gen(&pat, t, r->threads, &rng, w->pages, 2 * w->n);
		}
	}
	zipf_free(&pat.zipf);
	return GO_ON;
}

/* The run's factors: pattern, ratio, EPC, accesses, seed, and the tag. */
static void set_factors(struct run *r)
{
	char extra[96] = "";

	if (r->threads > 1 || r->enclaves > 1)
		snprintf(extra, sizeof(extra), ",threads=%lu,enclaves=%lu", r->threads, r->enclaves);
	if (r->is_kv && r->value_size != 1024)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), ",value_size=%lu",
			 r->value_size);
	snprintf(r->factors, sizeof(r->factors),
		 "pattern=%s,ratio=%.2f,epc=%ld,accesses=%lu,seed=%lu%s%s%s", r->pname, r->ratio,
		 r->total, r->accesses, r->seed, extra, *r->tag ? "," : "", r->tag);
}

/* The enclaves, timed: build_time and build_rate. */
static int build(struct run *r)
{
	char err[256];
	EVP_PKEY *key;
	double t0, t1;

	key = isgx_key_load(r->key_path, err);
	if (!key) {
		fprintf(stderr, "wsgen: %s\n", err);
		return 1;
	}
	r->fd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
	if (r->fd < 0) {
		fprintf(stderr, "wsgen: open /dev/sgx: %s\n", strerror(errno));
		return 1;
	}
	t0 = now_ns() / 1e9;
	if (ws_build(&r->ws, r->fd, r->enclaves, r->per, r->is_kv, key, err)) {
		fprintf(stderr, "wsgen: %s\n", err);
		return 1;
	}
	t1 = now_ns() / 1e9;
	set_factors(r);
	printf("metric=build_time factors=%s value=%.3f unit=s\n", r->factors, t1 - t0);
	/* Every page added (data, TCS, SSA) went through EADD and EEXTEND. */
	printf("metric=build_rate factors=%s value=%.1f unit=pages/s\n", r->factors,
	       (r->per + 2.0) * r->enclaves / (t1 - t0));
	fflush(stdout);
	return GO_ON;
}

/* kv: YCSB's load phase, one thread, its touches in the trace; then the warm-up pass. */
static int warm_up(struct run *r)
{
	double t0;

	if (r->is_kv) {
		t0 = now_ns() / 1e9;
		kv_load(&r->kv, &r->w[0].rc);
		r->load_time = now_ns() / 1e9 - t0;
	}
	return run_pass(r->w, r->threads, 0) ? 1 : GO_ON;
}

/* The measured pass, with the counters around it. */
static int measure(struct run *r)
{
	double t0, t1;

	r->seq_measured = atomic_load(&trace_seq);
	if (counters_read(&r->before))
		return 1;
	t0 = now_ns() / 1e9;
	if (run_pass(r->w, r->threads, 1))
		return 1;
	t1 = now_ns() / 1e9;
	if (counters_read(&r->after))
		return 1;
	r->access_time = t1 - t0;
	return GO_ON;
}

/* Belady's MIN of the trace at the capacities of the top of the file. */
struct min {
	long bound, usable, steady;		/* capacities */
	unsigned long min_bound, min_usable, min_steady;
	bool valid;				/* printed: a bound for this run */
};

/* The MINs, with a note when there is none and a warning when @loaded is below. */
static void compute_min(const struct run *r, long loaded, struct min *m)
{
	unsigned long warm;
	long nr_va;
	bool fits;

	/* Every enclave's TCS and SSA page is evictable too and takes a slot. */
	nr_va = va_pages_needed(r->total, r->enclaves, r->nr_pages + 2 * r->enclaves);
	/* What the hardware leaves for data pages (see the top of the file). */
	m->bound = r->total - (long)r->enclaves - nr_va;
	m->usable = m->bound - ISGX_EPC_RESERVE;
	m->steady = m->usable - (r->hw > 0 ? (r->hw + r->lw) / 2 : 0);
	m->min_usable = belady_min(r->all, r->nr_seq, r->nr_pages, m->usable > 0 ? m->usable : 1,
				   r->seq_measured);
	m->min_steady = belady_min(r->all, r->nr_seq, r->nr_pages, m->steady > 0 ? m->steady : 1,
				   r->seq_measured);
	/*
	 * No pager can fault less than MIN with every EPC page but the SECSs
	 * and the VA pages: fewer means accesses reached pages through
	 * mappings that should have been gone (stale TLB entries, for one).
	 */
	m->min_bound = belady_min(r->all, r->nr_seq, r->nr_pages, m->bound > 0 ? m->bound : 1,
				  r->seq_measured);
	/*
	 * MIN starts with an empty cache at the warm-up; the pager starts
	 * with the EPC full of the pages the build left.  A warm-up that
	 * touches fewer distinct pages than MIN can keep leaves MIN's cache
	 * part empty: its count is then no bound and is not printed.
	 */
	warm = trace_distinct(r->all, r->seq_measured, r->nr_pages);
	m->valid = warm >= (unsigned long)(m->usable < (long)r->nr_pages ? m->usable :
					   (long)r->nr_pages);
	/* A working set that fits stays resident from the build on: MIN is 0. */
	fits = (long)r->nr_pages <= m->steady;
	if (fits)
		m->min_usable = m->min_steady = m->min_bound = 0;
	m->valid |= fits;
	if (!m->valid)
		fprintf(stderr, "wsgen: note: the warm-up touched %lu distinct pages, fewer than the %ld MIN can keep: no MIN for this run (more --accesses)\n",
			warm, m->usable);
	if (m->valid && loaded < (long)m->min_bound)
		fprintf(stderr, "wsgen: warning: %ld faults is below MIN (%lu) at the whole EPC: stale mappings?%s\n",
			loaded, m->min_bound,
			r->threads > 1 ? " (the multi-thread trace is an approximation)" : "");
}

/* The measured pass against MIN: footprint, faults, MIN, rates, counters. */
static int report(struct run *r)
{
	const char *factors = r->factors;
	unsigned long footprint;
	struct recorder **rcs;
	long loaded, evicted;
	struct min m;

	loaded = counters_diff(&r->before, &r->after, "nr_loaded");
	evicted = counters_diff(&r->before, &r->after, "nr_evicted");
	/* The page touches in ticket order: the trace the pager saw. */
	rcs = malloc(r->threads * sizeof(*rcs));
	if (!rcs)
		return oom();
	for (unsigned int t = 0; t < r->threads; t++)
		rcs[t] = &r->w[t].rc;
	r->all = trace_merge(rcs, r->threads, r->nr_pages, &r->nr_seq);
	free(rcs);
	if (!r->all)
		return 1;
	compute_min(r, loaded, &m);
	footprint = trace_distinct(r->all + r->seq_measured, r->nr_seq - r->seq_measured,
				   r->nr_pages);
	printf("metric=footprint factors=%s value=%lu unit=pages\n", factors, footprint);
	printf("metric=footprint_ratio factors=%s,usable=%ld value=%.4f unit=ratio\n", factors,
	       m.usable, m.usable > 0 ? (double)footprint / m.usable : 0.0);
	if (m.valid)
		printf("metric=min_faults_bound factors=%s value=%lu unit=pages\n", factors,
		       m.min_bound);
	printf("metric=faults factors=%s value=%ld unit=pages\n", factors, loaded);
	printf("metric=evictions factors=%s value=%ld unit=pages\n", factors, evicted);
	if (m.valid) {
		printf("metric=min_faults_usable factors=%s,capacity=%ld value=%lu unit=pages\n",
		       factors, m.usable, m.min_usable);
		printf("metric=min_faults_steady factors=%s,capacity=%ld value=%lu unit=pages\n",
		       factors, m.steady, m.min_steady);
	}
	printf("metric=access_time factors=%s value=%.3f unit=s\n", factors, r->access_time);
	printf("metric=swap_in_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       loaded / r->access_time);
	printf("metric=swap_rate factors=%s value=%.1f unit=pages/s\n", factors,
	       (loaded + evicted) / r->access_time);
	counters_report(&r->before, &r->after, factors);
	if (r->is_kv) {
		printf("metric=load_time factors=%s value=%.3f unit=s\n", factors, r->load_time);
		printf("metric=kv_ops_rate factors=%s value=%.1f unit=ops/s\n", factors,
		       r->accesses / r->access_time);
		printf("metric=page_touches factors=%s value=%lu unit=pages\n", factors,
		       r->nr_seq - r->seq_measured);
	}
	return GO_ON;
}

/* Latencies of the measured pass, all threads together (and --lat-hist). */
static int report_latency(struct run *r)
{
	unsigned long nr_lat = 0;

	r->lat = malloc(r->accesses * sizeof(*r->lat));
	if (!r->lat)
		return oom();
	for (unsigned int t = 0; t < r->threads; t++) {
		memcpy(r->lat + nr_lat, r->w[t].lat, r->w[t].n * sizeof(*r->lat));
		nr_lat += r->w[t].n;
	}
	if (r->hist_path) {
		int ret = lat_hist_write(r->hist_path, r->lat, nr_lat, r->slow_ns);

		if (ret) {
			fprintf(stderr, "wsgen: %s: %s\n", r->hist_path, strerror(-ret));
			r->status = 1;
		}
	}
	lat_report(r->lat, nr_lat, r->slow_ns, r->factors, r->is_kv ? "ops" : "accesses");
	fflush(stdout);
	return GO_ON;
}

/* --trace: the measured pass's page trace, one page ("enclave page") a line. */
static void write_trace(struct run *r)
{
	FILE *f = fopen(r->trace_path, "w");

	for (unsigned long i = r->seq_measured; f && i < r->nr_seq; i++) {
		if (r->enclaves > 1)
			fprintf(f, "%lu %lu\n", r->all[i] % r->enclaves, r->all[i] / r->enclaves);
		else
			fprintf(f, "%u\n", r->all[i]);
	}
	if (!f || fclose(f)) {
		fprintf(stderr, "wsgen: %s: %s\n", r->trace_path, strerror(errno));
		r->status = 1;
	}
}

/* The trace, the page and record checks, and the teardown: the exit status. */
static int finish(struct run *r)
{
	unsigned long bad = 0, kv_errors;

	if (r->trace_path)
		write_trace(r);
	for (unsigned int t = 0; t < r->threads; t++)
		bad += r->w[t].bad;
	if (bad) {
		fprintf(stderr, "wsgen: %lu page reads returned other data than was added\n", bad);
		r->status = 1;
	}
	if (r->is_kv) {
		kv_errors = atomic_load(&r->kv.errors);
		if (kv_errors) {
			fprintf(stderr, "wsgen: kv: %lu bad records (lost, stale or corrupted)\n",
				kv_errors);
			r->status = 1;
		}
		kv_free(&r->kv);
	}
	ws_destroy(&r->ws);
	close(r->fd);
	for (unsigned int t = 0; t < r->threads; t++) {
		free(r->w[t].pages);
		free(r->w[t].req);
		free(r->w[t].lat);
		free(r->w[t].rc.r);
	}
	free(r->w);
	free(r->all);
	free(r->lat);
	return r->status;
}

/*
 * The stages in order, each to GO_ON or the exit status: options, module
 * and size, streams, build, warm-up, measured pass, report, teardown.
 */
int main(int argc, char **argv)
{
	static int (*const stages[])(struct run *) = {
		size_run, draw_streams, build, warm_up, measure, report, report_latency, finish,
	};
	static struct run run;
	int status = parse_options(&run, argc, argv);

	for (unsigned int i = 0; status == GO_ON && i < sizeof(stages) / sizeof(stages[0]); i++)
		status = stages[i](&run);
	return status;
}
