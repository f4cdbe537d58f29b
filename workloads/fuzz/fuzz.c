// SPDX-License-Identifier: GPL-2.0
/*
 * isgx_fuzz - a seeded, reproducible fuzzer of /dev/sgx and of the memory
 * operations on enclave ranges, run inside a qemu/run guest.
 *
 *	isgx_fuzz --ko=PATH/isgx.ko --key=PATH/signing_key.pem
 *		  [--seed=S] [--ops=N | --seconds=S] [--procs=P]
 *		  [--epc-pages=N] [--params="NAME=VALUE ..."] [--skip=OP,...]
 *		  [--trace] [--no-unpriv]
 *
 * P worker processes (the last one unprivileged, uid 1000, when P >= 2)
 * each draw operations from their own generator (seeded from S and their
 * index): CREATE/ADD_PAGE/INIT/DESTROY with valid arguments (enclaves of
 * libisgx's layout, signed once at start, so INIT succeeds and the
 * enclaves are really used) and mutated ones, raw ioctl numbers, bad,
 * unmapped and kernel pointers, reads and writes of enclave memory,
 * munmap/mprotect/mremap/madvise/mincore on enclave ranges, fork (the child
 * touches, tries the parent's enclaves, may build its own and exits), a
 * second thread touching pages while the first destroys.
 *
 * Judged: every ioctl result must be success or an errno/SGX code that the
 * README's errno table documents for that ioctl (EIO counts too: the table
 * says it is a driver bug); a valid INIT of a correctly built enclave must
 * succeed; an intact enclave's data pages must read what was added; a fork
 * child must not reach the parent's enclaves.  SIGSEGV and SIGBUS while
 * touching are expected.  At the end, with every worker gone, the EPC free
 * count must be back at its total (debugfs).  The runner (qemu/run) checks
 * the kernel log.  Exit status 0 when all of that held.
 *
 * With --ko the module is loaded (epc_pages=--epc-pages, dev_mode=0666 and
 * --params) and unloaded at the end; without it the loaded module is used.
 *
 * --skip takes operation names and the names of paths that hit a known
 * kernel bug (destroy-holed, mprotect-early: README, "The fuzzer").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include "enclave.h"
#include "isgx.h"
#include "kmodule.h"
#include "layout.h"
#include "sgx_error.h"
#include "sign.h"

#define PAGE		SGX_PAGE_SIZE
#define MAX_PROCS	16
#define MAX_ENCL	6	/* live enclaves per worker */
#define SHARED_BASES	64	/* recent enclave bases of every worker */
#define DEBUGFS		"/sys/kernel/debug"
#define ISGX_DBG	DEBUGFS "/isgx/"
#define UNPRIV_UID	1000

/* ---- operations ------------------------------------------------------- */

enum op {
	OP_CREATE, OP_ADD, OP_INIT, OP_DESTROY, OP_BUILD, OP_IOCTL, OP_BADPTR,
	OP_TOUCH, OP_MUNMAP, OP_MPROTECT, OP_MREMAP, OP_MADVISE, OP_MINCORE,
	OP_FORK, OP_THREAD, OP_REOPEN, NR_OPS
};

static const struct {
	const char *name;
	unsigned int weight;
} ops[NR_OPS] = {
	[OP_CREATE] = { "create", 12 },
	[OP_ADD] = { "add", 30 },
	[OP_INIT] = { "init", 10 },
	[OP_DESTROY] = { "destroy", 8 },
	[OP_BUILD] = { "build", 3 },
	[OP_IOCTL] = { "ioctl", 8 },
	[OP_BADPTR] = { "badptr", 8 },
	[OP_TOUCH] = { "touch", 25 },
	[OP_MUNMAP] = { "munmap", 2 },
	[OP_MPROTECT] = { "mprotect", 4 },
	[OP_MREMAP] = { "mremap", 2 },
	[OP_MADVISE] = { "madvise", 4 },
	[OP_MINCORE] = { "mincore", 3 },
	[OP_FORK] = { "fork", 1 },
	[OP_THREAD] = { "thread", 1 },
	[OP_REOPEN] = { "reopen", 1 },
};

/* The ioctl a result belongs to (for the errno table). */
enum ioc { IOC_CREATE, IOC_ADD, IOC_INIT, IOC_DESTROY, IOC_UNKNOWN };
static const char *const ioc_names[] = { "CREATE", "ADD_PAGE", "INIT", "DESTROY", "unknown" };

/*
 * Result buckets: 0 success, 1..NR_ERRNO-1 an errno, then the SGX codes
 * in sgx_codes[] order, another SGX code, SIGSEGV, SIGBUS.
 */
#define NR_ERRNO	160
static const uint32_t sgx_codes[] = {
	SGX_INVALID_SIG_STRUCT, SGX_INVALID_ATTRIBUTE, SGX_INVALID_MEASUREMENT,
	SGX_INVALID_SIGNATURE, SGX_INVALID_EINITTOKEN, SGX_INVALID_CPUSVN, SGX_UNMASKED_EVENT,
	SGX_LE_ROLLBACK, SGX_POWER_LOST_ENCLAVE,
};
#define NR_SGX		(sizeof(sgx_codes) / sizeof(sgx_codes[0]))
#define RES_SGX_OTHER	(NR_ERRNO + NR_SGX)
#define RES_SIGSEGV	(RES_SGX_OTHER + 1)
#define RES_SIGBUS	(RES_SGX_OTHER + 2)
#define NR_RES		(RES_SGX_OTHER + 3)

/* ---- state shared by every process (MAP_SHARED) ---------------------- */

struct shared {
	uint64_t nr_ops;			/* executed, all workers */
	uint64_t nr_unexpected;
	uint64_t nr_extra_encls[2];		/* clean ones that got an extra page: [1] by
						 * add_next() of another */
	uint64_t nr_judged_inits[2];		/* of clean enclaves, of extra ones */
	uint64_t count[NR_OPS];
	uint64_t unexpected[NR_OPS];
	uint64_t res[NR_OPS][NR_RES];
	uint64_t bases[SHARED_BASES];		/* for "another process's enclave" */
	int owner[SHARED_BASES];		/* the worker that created it */
	int cur_op[MAX_PROCS];
	uint64_t cur_opno[MAX_PROCS];
	uint64_t cur_addr[MAX_PROCS];		/* the address a probe is at */
	pid_t pid[MAX_PROCS];
	int done[MAX_PROCS];
	volatile int stop;
};

static struct shared *sh;

/* ---- options ---------------------------------------------------------- */

static uint64_t opt_seed;
static uint64_t opt_ops;
static unsigned int opt_seconds;
static unsigned int opt_procs = 1;
static unsigned int opt_epc = 256;
static const char *opt_ko, *opt_key, *opt_params = "", *opt_skip;
static bool opt_trace, opt_unpriv = true;
/* The INIT oracles hold only when no parameter makes EINIT fail otherwise. */
static bool init_oracles = true;
static bool skip[NR_OPS];

/*
 * Narrower than an operation: paths that hit a known kernel bug, so that a
 * run can leave just them out (--skip=NAME, README "The fuzzer").
 */
enum quirk { Q_DESTROY_HOLED, Q_MPROTECT_EARLY, NR_QUIRKS };
static const char *const quirk_names[NR_QUIRKS] = {
	/* DESTROY of an enclave that was partly unmapped or moved. */
	[Q_DESTROY_HOLED] = "destroy-holed",
	/* mprotect of an enclave before INIT (pages may be added after it). */
	[Q_MPROTECT_EARLY] = "mprotect-early",
};
static bool skip_quirk[NR_QUIRKS];

/* ---- per worker --------------------------------------------------------- */

struct encl {
	bool used;
	uint64_t base, size;
	int layout;		/* index in layouts[], -1: a mutated SECS */
	unsigned int next;	/* next layout page to add */
	bool init;		/* INIT succeeded */
	bool clean;		/* exactly the layout's pages, in order, all accepted */
	bool extra;		/* clean but for extra pages added (note_added()) */
	bool intact;		/* contents and mapping as built: no munmap/mremap/mprotect/zap */
	bool whole;		/* [base, base + size) is still all this enclave's mapping */
};

static int widx;		/* worker index */
static bool unpriv;
static uint64_t rng;
static int dev_fd = -1;
static uint64_t opno;
static struct encl encls[MAX_ENCL];
static uint8_t *scratch;	/* MREMAP_FIXED targets: our own reserved range */
#define SCRATCH_SIZE	(64UL << 20)
static uint8_t *hole;		/* an unmapped page */
static uint8_t *noaccess;	/* a PROT_NONE page */
static uint8_t *rdonly;		/* a read-only page */
static uint8_t *edge;		/* the last 8 bytes before a hole */
static uint8_t srcpage[PAGE] __attribute__((aligned(PAGE)));
static uint8_t tmppage[PAGE] __attribute__((aligned(PAGE)));

/* ---- layouts, signed once --------------------------------------------- */

static const struct isgx_layout layouts[] = {
	{ .nr_pages = 4, .nr_tcs = 1 },
	{ .nr_pages = 8, .nr_tcs = 1, .debug = true },
	{ .nr_pages = 16, .nr_tcs = 2 },
	{ .nr_pages = 33, .nr_tcs = 1, .debug = true },
	{ .nr_pages = 64, .nr_tcs = 2 },
	{ .nr_pages = 100, .nr_tcs = 1, .skip_eextend = true },
	{ .nr_pages = 128, .nr_tcs = 4, .debug = true },
};
#define NR_LAYOUTS	(sizeof(layouts) / sizeof(layouts[0]))
static struct sgx_sigstruct sigs[NR_LAYOUTS];
static const struct sgx_einittoken zero_token;
static struct sgx_secs rdonly_secs __attribute__((aligned(PAGE)));

static int64_t do_create(struct sgx_secs *secs, uint64_t *base, const char *what);
static void op_add(void);
static void op_init(void);
struct encl;
static void destroy_slot(struct encl *e, const char *what);
static void count_sys(int op, int ret);

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "isgx_fuzz: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* One line to stdout in one write, so that workers do not interleave. */
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* splitmix64 */
static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* true with probability 1/@n */
static bool one_in(unsigned int n)
{
	return below(n) == 0;
}

/* ---- results ------------------------------------------------------------ */

static int res_bucket(int64_t r)
{
	if (r == 0)
		return 0;
	if (r < 0)
		return -r < NR_ERRNO ? (int)-r : NR_ERRNO - 1;
	for (unsigned int i = 0; i < NR_SGX; i++)
		if ((uint32_t)r == sgx_codes[i])
			return NR_ERRNO + i;
	return RES_SGX_OTHER;
}

static const char *res_name(int b, char *buf)
{
	const char *n;

	if (b == 0)
		return "success";
	if (b < NR_ERRNO) {
		n = isgx_errno_name(b);
		if (n)
			return n;
		snprintf(buf, ISGX_RET_NAME_LEN, "errno %d", b);
		return buf;
	}
	if (b < (int)(NR_ERRNO + NR_SGX))
		return isgx_sgx_code_name(sgx_codes[b - NR_ERRNO]);
	if (b == RES_SGX_OTHER)
		return "other SGX code";
	return b == RES_SIGSEGV ? "SIGSEGV" : "SIGBUS";
}

static int sig_bucket(int sig)
{
	return sig == SIGSEGV ? RES_SIGSEGV : sig == SIGBUS ? RES_SIGBUS : 0;
}

static void count_res(enum op op, int bucket)
{
	__atomic_fetch_add(&sh->res[op][bucket], 1, __ATOMIC_RELAXED);
}

/* The README's table: is @r a documented result of @ioc? */
static bool documented(enum ioc ioc, int64_t r)
{
	if (r == 0)
		return ioc != IOC_UNKNOWN;
	if (ioc == IOC_UNKNOWN)
		return r == -ENOTTY;
	/* The "any" rows. */
	if (r == -EFAULT || r == -ENOENT)
		return true;
	switch (ioc) {
	case IOC_CREATE:
		return r == -EINVAL || r == -ENOMEM || r == -EACCES || r == -EPERM ||
		       r == -EBUSY;
	case IOC_ADD:
		/* EIO is in the table, as a driver bug: never accepted here. */
		return r == -EINVAL || r == -EEXIST || r == -EPERM || r == -ENOMEM ||
		       r == -EBUSY || r == SGX_POWER_LOST_ENCLAVE;
	case IOC_INIT:
		return r == -EPERM || r == -EINTR || r == SGX_INVALID_SIG_STRUCT ||
		       r == SGX_INVALID_CPUSVN ||
		       r == SGX_INVALID_SIGNATURE || r == SGX_INVALID_MEASUREMENT ||
		       r == SGX_INVALID_ATTRIBUTE || r == SGX_INVALID_EINITTOKEN ||
		       r == SGX_UNMASKED_EVENT || r == SGX_LE_ROLLBACK ||
		       r == SGX_POWER_LOST_ENCLAVE;
	case IOC_DESTROY:
	default:
		return false;
	}
}

static void unexpected(enum op op, const char *fmt, ...)
{
	char buf[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&sh->nr_unexpected, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->unexpected[op], 1, __ATOMIC_RELAXED);
	say("UNEXPECTED worker %d%s (seed %#" PRIx64 ") op #%" PRIu64 " %s: %s", widx,
	    unpriv ? " (uid 1000)" : "", opt_seed, opno, ops[op].name, buf);
}

/* Issue @cmd, record the result under @op and judge it as @ioc. */
static int64_t call(enum op op, enum ioc ioc, unsigned long cmd, void *arg, const char *what)
{
	int64_t r = isgx_ioctl(dev_fd, cmd, arg);
	char nb[ISGX_RET_NAME_LEN];

	count_res(op, res_bucket(r));
	if (opt_trace)
		say("  w%d #%" PRIu64 " %s %s -> %s", widx, opno, ioc_names[ioc], what,
		    isgx_ret_name(r, nb));
	if (!documented(ioc, r))
		unexpected(op, "%s %s (cmd %#lx) returned %s: not documented for %s", ioc_names[ioc],
			   what, cmd, isgx_ret_name(r, nb), ioc_names[ioc]);
	return r;
}

/* The ioctl that @cmd is, if any. */
static enum ioc ioc_of(unsigned long cmd)
{
	switch (cmd) {
	case SGX_IOC_ENCLAVE_CREATE: return IOC_CREATE;
	case SGX_IOC_ENCLAVE_ADD_PAGE: return IOC_ADD;
	case SGX_IOC_ENCLAVE_INIT: return IOC_INIT;
	case SGX_IOC_ENCLAVE_DESTROY: return IOC_DESTROY;
	default: return IOC_UNKNOWN;
	}
}

/* ---- memory probes -------------------------------------------------------- */

static __thread sigjmp_buf probe_env;
static __thread volatile sig_atomic_t in_probe;

static void fault_handler(int sig)
{
	if (in_probe)
		siglongjmp(probe_env, sig);
	/* A fault outside a probe is a fuzzer (or kernel) bug: die of it. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = fault_handler, .sa_flags = SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* Read (@write false) or write 8 bytes at @p: 0, SIGSEGV or SIGBUS. */
static int probe(volatile uint64_t *p, bool write, uint64_t *val)
{
	int sig;

	sh->cur_addr[widx] = (uintptr_t)p;
	sig = sigsetjmp(probe_env, 1);
	if (!sig) {
		in_probe = 1;
		if (write)
			*p = *val;
		else
			*val = *p;
	}
	in_probe = 0;
	return sig;
}

/* ---- pointers ------------------------------------------------------------ */

/* A pointer that cannot be used as an argument: each kind in turn. */
static uint64_t bad_ptr(void)
{
	static const uint64_t kernel[] = {
		0xffffffff81000000ULL, 0xffff888000000000ULL, 0xffffffffff600000ULL,
		0xfffffe0000000000ULL, 0x0000800000000000ULL, 0xdead000000000000ULL,
		0xfffffffffffff000ULL, ~0ULL,
	};

	switch (below(9)) {
	case 0: return 0;
	case 1: return 1 + below(PAGE);
	case 2: return (uintptr_t)hole + below(PAGE);
	case 3: return (uintptr_t)noaccess;
	case 4: return kernel[below(sizeof(kernel) / sizeof(kernel[0]))];
	case 5: return (uintptr_t)edge;		/* a structure running into the hole */
	case 6: return rnd();
	case 7: {	/* an enclave's own memory */
		const struct encl *e = &encls[below(MAX_ENCL)];

		return e->used ? e->base + below(e->size / PAGE) * PAGE : (uintptr_t)hole;
	}
	default: return (uintptr_t)rdonly;	/* fine to read, not to write */
	}
}

/* ---- enclave slots ------------------------------------------------------- */

static struct encl *free_slot(void)
{
	for (int i = 0; i < MAX_ENCL; i++)
		if (!encls[i].used)
			return &encls[i];
	return NULL;
}

/* A random used slot, or NULL; @pred filters. */
static struct encl *pick(bool (*pred)(const struct encl *))
{
	int start = (int)below(MAX_ENCL);

	for (int k = 0; k < MAX_ENCL; k++) {
		struct encl *e = &encls[(start + k) % MAX_ENCL];

		if (e->used && (!pred || pred(e)))
			return e;
	}
	return NULL;
}

static bool is_building(const struct encl *e)
{
	return !e->init;
}

static bool is_init(const struct encl *e)
{
	return e->init;
}

/* Mapping operations only on ranges that are still all enclave: never ours. */
static bool is_whole(const struct encl *e)
{
	return e->whole;
}

static void publish_base(uint64_t base)
{
	unsigned int i = (unsigned int)below(SHARED_BASES);

	sh->bases[i] = base;
	sh->owner[i] = widx;
}

/* ---- CREATE ------------------------------------------------------------- */

static int64_t do_create(struct sgx_secs *secs, uint64_t *base, const char *what)
{
	struct sgx_create_param p = { .secs = (uintptr_t)secs };
	int64_t r = call(OP_CREATE, IOC_CREATE, SGX_IOC_ENCLAVE_CREATE, &p, what);

	*base = p.addr;
	return r;
}

static void mutate_secs(struct sgx_secs *s)
{
	uint8_t *b = (uint8_t *)s;
	unsigned int n = 1 + below(3);

	while (n--) {
		switch (below(10)) {
		case 0: s->size = one_in(2) ? 1ULL << below(48) : rnd() & 0xffffffffffULL; break;
		case 1: s->attributes ^= 1ULL << below(64); break;
		case 2: s->xfrm = one_in(2) ? below(8) : rnd(); break;
		case 3: s->ssa_frame_size = one_in(2) ? below(4) : (uint32_t)rnd(); break;
		case 4: s->miscselect = (uint32_t)rnd(); break;
		case 5: s->reserved1[below(sizeof(s->reserved1))] = 1 + below(255); break;
		case 6: s->reserved4[below(sizeof(s->reserved4))] = 1 + below(255); break;
		case 7: s->base = rnd() & ~0xfffULL; break;
		case 8: s->size = PAGE * (1 + below(3)); break;
		default: b[below(sizeof(*s))] ^= 1 << below(8); break;
		}
	}
}

static void op_create(void)
{
	static struct sgx_secs secs __attribute__((aligned(PAGE)));
	struct encl *e = free_slot();
	int li = (int)below(NR_LAYOUTS);
	bool valid = one_in(2);
	uint64_t base = 0;
	int64_t r;

	if (!e) {
		/* Full: CREATE with a bad pointer, which must change nothing. */
		struct sgx_create_param p = { .secs = bad_ptr() };

		call(OP_CREATE, IOC_CREATE, SGX_IOC_ENCLAVE_CREATE, &p, "bad SECS pointer");
		return;
	}
	isgx_layout_secs(&layouts[li], &secs);
	if (!valid)
		mutate_secs(&secs);
	r = do_create(&secs, &base, valid ? "valid" : "mutated SECS");
	if (r)
		return;
	if (opt_trace)
		say("  w%d #%" PRIu64 " created %#" PRIx64 "+%#" PRIx64, widx, opno, base, secs.size);
	*e = (struct encl){ .used = true, .base = base, .size = secs.size, .layout = li,
			    .clean = valid, .intact = true, .whole = true };
	if (!valid) {
		/* A mutated SECS that passed: its size rules, no layout. */
		e->layout = -1;
		e->size = secs.size;
	}
	publish_base(base);
}

/* ---- ADD_PAGE ----------------------------------------------------------- */

/*
 * An ADD_PAGE succeeded at @addr: it added a page to the enclave mapped
 * there.  That is a tracked enclave whose range holds @addr only when the
 * whole range is still its mapping and it is not initialised (@to below):
 * enclave VMAs never move or grow, so the page is then in it.  It may be
 * another of ours than the one the address was meant for: one page below
 * an enclave is the last page of the neighbour the kernel often maps
 * right there, and a layout page of a partly unmapped enclave still being
 * built lands in the enclave the kernel placed in its hole.  Unless the
 * page is @layout_of's own (add_next()), the receiving enclave is no
 * longer built exactly by its layout: an extra EADD is in its
 * measurement, so a valid INIT of it must fail with
 * SGX_INVALID_MEASUREMENT (op_init()).  Every other tracked enclave
 * holding @addr, and @layout_of when the page went elsewhere, is not
 * judged any more.
 */
static void note_added(uint64_t addr, struct encl *layout_of)
{
	struct encl *to = NULL;

	for (int i = 0; i < MAX_ENCL; i++) {
		struct encl *o = &encls[i];

		if (o->used && o->whole && !o->init && addr - o->base < o->size)
			to = o;
	}
	for (int i = 0; i < MAX_ENCL; i++) {
		struct encl *o = &encls[i];

		if (o->used && o != to && addr - o->base < o->size)
			o->clean = false;
	}
	if (layout_of && to != layout_of)
		layout_of->clean = layout_of->extra = false;
	if (!to || to == layout_of)
		return;
	if (to->clean) {
		__atomic_add_fetch(&sh->nr_extra_encls[!!layout_of], 1, __ATOMIC_RELAXED);
		if (opt_trace)
			say("  w%d #%" PRIu64 " extra page at %#" PRIx64 " in our enclave at %#" PRIx64,
			    widx, opno, addr, to->base);
		to->extra = true;
	}
	to->clean = false;
}

static int64_t do_add(uint64_t addr, uint64_t src, uint64_t secinfo_ptr, uint32_t flags,
		      uint32_t reserved, const char *what)
{
	struct sgx_add_param p = { .addr = addr, .user_addr = src, .secinfo = secinfo_ptr,
				   .flags = flags, .reserved = reserved };

	return call(OP_ADD, IOC_ADD, SGX_IOC_ENCLAVE_ADD_PAGE, &p, what);
}

/* The layout's next page, valid. */
static void add_next(struct encl *e)
{
	static struct sgx_secinfo si;
	const struct isgx_layout *l = &layouts[e->layout];
	struct isgx_layout_page lp;
	int64_t r;

	isgx_layout_page(l, e->next, &lp, srcpage);
	si = (struct sgx_secinfo){ .flags = lp.secinfo };
	r = do_add(e->base + lp.offset, (uintptr_t)srcpage, (uintptr_t)&si, lp.add_flags, 0,
		   "valid");
	if (r)	/* a page is missing or was there already */
		e->clean = e->extra = false;
	else
		note_added(e->base + lp.offset, e);
	e->next++;
}

static void add_mutated(struct encl *e)
{
	static struct sgx_secinfo si;
	static const uint64_t kinds[] = {
		SGX_SECINFO_REG | SGX_SECINFO_R, SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W,
		SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_X, SGX_SECINFO_TCS,
		SGX_SECINFO_REG | SGX_SECINFO_W, SGX_SECINFO_SECS, 0x300, 0x400,
	};
	uint64_t npages = e->size / PAGE, addr, src, sip;
	uint32_t flags = 0, reserved = 0;
	int64_t r;

	addr = e->base + below(npages + 2) * PAGE - (one_in(8) ? PAGE : 0);
	if (one_in(6))
		addr += 1 + below(PAGE - 1);
	if (one_in(10))
		addr = one_in(2) ? sh->bases[below(SHARED_BASES)] : rnd();
	si = (struct sgx_secinfo){ .flags = kinds[below(sizeof(kinds) / sizeof(kinds[0]))] };
	if (one_in(5))
		si.flags ^= 1ULL << below(64);
	if (one_in(8))
		si.reserved[below(sizeof(si.reserved))] = 1;
	memcpy(tmppage, srcpage, PAGE);
	if ((si.flags & 0xff00) == SGX_SECINFO_TCS) {
		struct isgx_layout_page lp;
		const struct isgx_layout *l = &layouts[e->layout >= 0 ? e->layout : 0];

		isgx_layout_page(l, 0, &lp, tmppage);
	}
	if (one_in(3))
		tmppage[below(PAGE)] ^= 1 << below(8);
	src = (uintptr_t)tmppage;
	sip = (uintptr_t)&si;
	switch (below(8)) {
	case 0: src = bad_ptr(); break;
	case 1: sip = bad_ptr(); break;
	case 2: flags = one_in(2) ? SGX_ADD_SKIP_EEXTEND : (uint32_t)rnd(); break;
	case 3: reserved = (uint32_t)rnd(); break;
	default: break;
	}
	r = do_add(addr, src, sip, flags, reserved, "mutated");
	if (r == 0)
		note_added(addr, NULL);
}

static void op_add(void)
{
	struct encl *e = pick(is_building);
	unsigned int n;

	if (!e) {
		struct sgx_add_param p = { .addr = rnd() & ~0xfffULL, .user_addr = bad_ptr(),
					   .secinfo = bad_ptr() };

		call(OP_ADD, IOC_ADD, SGX_IOC_ENCLAVE_ADD_PAGE, &p, "no enclave");
		return;
	}
	if (e->layout < 0 || one_in(4)) {
		add_mutated(e);
		return;
	}
	/* A run of the layout's pages, as a builder adds them. */
	n = 1 + below(24);
	while (n-- && e->next < layouts[e->layout].nr_pages)
		add_next(e);
}

/* ---- INIT --------------------------------------------------------------- */

static int64_t do_init(uint64_t addr, uint64_t ss, uint64_t token, const char *what)
{
	struct sgx_init_param p = { .addr = addr, .sigstruct = ss, .einittoken = token };
	int64_t r = call(OP_INIT, IOC_INIT, SGX_IOC_ENCLAVE_INIT, &p, what);

	for (int i = 0; r == 0 && i < MAX_ENCL; i++)
		if (encls[i].used && encls[i].base == addr)
			encls[i].init = true;
	return r;
}

static void op_init(void)
{
	static struct sgx_sigstruct ss;
	static struct sgx_einittoken token;
	struct encl *e = pick(NULL);
	bool complete, valid, judged;
	char nb[ISGX_RET_NAME_LEN];
	uint64_t addr, ssp, tp;
	int64_t r;

	if (!e) {
		do_init(rnd() & ~0xfffULL, (uintptr_t)&sigs[0], bad_ptr(), "no enclave");
		return;
	}
	complete = e->layout >= 0 && e->next >= layouts[e->layout].nr_pages;
	valid = complete && !one_in(4);
	ss = sigs[e->layout >= 0 ? (uint64_t)e->layout : below(NR_LAYOUTS)];
	memset(&token, 0, sizeof(token));
	ssp = (uintptr_t)&ss;
	tp = (uintptr_t)&token;
	if (!valid) {
		switch (below(7)) {
		case 0: ss = sigs[below(NR_LAYOUTS)]; break;
		case 1: ((uint8_t *)&ss)[below(sizeof(ss))] ^= 1 << below(8); break;
		case 2: ss.attributes ^= 1ULL << below(64); break;
		case 3: ((uint8_t *)&token)[below(sizeof(token))] = (uint8_t)rnd(); token.valid = 1;
			break;
		case 4: ssp = bad_ptr(); break;
		case 5: tp = bad_ptr(); break;
		default: break;	/* an enclave still being built, or a mutated one */
		}
	}
	addr = e->base + (one_in(20) ? PAGE : 0);
	judged = init_oracles && valid && e->intact && !e->init && addr == e->base;
	r = do_init(addr, ssp, tp, valid ? "valid" : "mutated");
	if (r == 0 && addr == e->base)
		e->init = true;
	if (judged && (e->clean || e->extra))
		__atomic_add_fetch(&sh->nr_judged_inits[e->extra], 1, __ATOMIC_RELAXED);
	/*
	 * The layout's SIGSTRUCT for an enclave built exactly by the layout
	 * must initialise it (nothing else can make EINIT fail: no token is
	 * needed, and init_oracles is off when --params could inject an
	 * event or a power loss).  Errnos are not judged here.
	 */
	if (judged && e->clean && r > 0)
		unexpected(OP_INIT, "valid INIT of a correctly built %u-page enclave at %#" PRIx64
			   " refused: %s", layouts[e->layout].nr_pages, e->base,
			   isgx_ret_name(r, nb));
	/* With an extra page in its measurement, it must be refused for that. */
	if (judged && e->extra && r >= 0 && r != SGX_INVALID_MEASUREMENT)
		unexpected(OP_INIT, "valid INIT of a %u-page enclave at %#" PRIx64
			   " with an extra page returned %s, not SGX_INVALID_MEASUREMENT",
			   layouts[e->layout].nr_pages, e->base, isgx_ret_name(r, nb));
}

/* ---- DESTROY -------------------------------------------------------------- */

static int64_t do_destroy(uint64_t addr, const char *what)
{
	struct sgx_destroy_param p = { .addr = addr };
	int64_t r = call(OP_DESTROY, IOC_DESTROY, SGX_IOC_ENCLAVE_DESTROY, &p, what);

	/* Whichever of ours started there is gone (a neighbour, too). */
	for (int i = 0; r == 0 && i < MAX_ENCL; i++)
		if (encls[i].used && encls[i].base == addr)
			encls[i].used = false;
	return r;
}

static void op_destroy(void)
{
	struct encl *e = pick(NULL);

	switch (below(6)) {
	case 0: {
		unsigned int k = (unsigned int)below(SHARED_BASES);
		uint64_t b = sh->owner[k] != widx ? sh->bases[k] : 0;

		/* Another worker's (or a gone) enclave: never ours to destroy. */
		for (int i = 0; i < MAX_ENCL; i++)
			if (encls[i].used && encls[i].base == b)
				b = 0;
		/*
		 * Not judged: forked workers share their address-space layout,
		 * so one of our own untracked enclaves (the rest of a partly
		 * unmapped one) may start there too.  The fork child checks
		 * that another process's enclave is out of reach.
		 */
		if (b)
			do_destroy(b, "another process's enclave");
		return;
	}
	case 1:
		do_destroy(e ? e->base + PAGE * (1 + below(4)) : rnd(), "not a base");
		return;
	case 2: {
		struct sgx_destroy_param *p = (void *)bad_ptr();

		call(OP_DESTROY, IOC_DESTROY, SGX_IOC_ENCLAVE_DESTROY, p, "bad pointer");
		return;
	}
	default:
		break;
	}
	if (!e)
		return;
	destroy_slot(e, "valid");
}

/*
 * Unmap what is left of @e's own mapping: the /dev/sgx VMAs in its range
 * whose file offset says they are its pages (another enclave placed in a
 * hole has its own offsets), so that its last VMA frees it.
 */
static void release_pieces(const struct encl *e)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, pgoff;

		if (!strstr(line, "/dev/sgx") ||
		    sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) != 3)
			continue;
		if (start < e->base || start >= e->base + e->size || pgoff != start - e->base)
			continue;
		/* Another enclave of ours placed at the same base has the same offsets. */
		for (int i = 0; i < MAX_ENCL; i++) {
			const struct encl *o = &encls[i];

			if (o != e && o->used && start < o->base + o->size && end > o->base)
				start = end;
		}
		if (start < end)
			count_sys(OP_DESTROY, munmap((void *)start, end - start));
	}
	fclose(f);
}

/*
 * DESTROY of our enclave @e.  DESTROY unmaps [base, base + SIZE): when
 * part of it was unmapped or moved before, the kernel may have put
 * another of our enclaves there, which must survive.  With
 * --skip=destroy-holed such an enclave is left for exit instead.
 */
static void destroy_slot(struct encl *e, const char *what)
{
	struct encl victims[MAX_ENCL];
	int nv = 0;

	if (!e->whole && skip_quirk[Q_DESTROY_HOLED]) {
		release_pieces(e);
		e->used = false;
		return;
	}
	/*
	 * DESTROY names the enclave mapped at its base: when another of ours
	 * now starts where this one's unmapped first page was, DESTROY of
	 * that address is that one's, as documented.  This one goes by
	 * munmap of what is left of it.
	 */
	for (int i = 0; !e->whole && i < MAX_ENCL; i++) {
		if (&encls[i] != e && encls[i].used && encls[i].base == e->base) {
			release_pieces(e);
			e->used = false;
			return;
		}
	}
	for (int i = 0; !e->whole && i < MAX_ENCL; i++) {
		struct encl *o = &encls[i];

		if (o != e && o->used && o->whole && o->base >= e->base &&
		    o->base < e->base + e->size)
			victims[nv++] = *o;
	}
	do_destroy(e->base, what);
	e->used = false;
	for (int i = 0; i < nv; i++) {
		unsigned char vec;

		if (mincore((void *)(uintptr_t)victims[i].base, PAGE, &vec) && errno == ENOMEM)
			unexpected(OP_DESTROY, "DESTROY of the enclave at %#" PRIx64 " (%#" PRIx64
				   " bytes, partly unmapped or moved before) unmapped our enclave at %#"
				   PRIx64 ", which the kernel had placed in that range",
				   e->base, e->size, victims[i].base);
	}
	/* Whatever was in the range is gone for us too. */
	for (int i = 0; !e->whole && i < MAX_ENCL; i++) {
		struct encl *o = &encls[i];

		if (o->used && o->base >= e->base && o->base < e->base + e->size)
			o->intact = o->whole = false;
	}
}

/* ---- BUILD: a whole valid enclave in one go ----------------------------- */

static void op_build(void)
{
	struct encl *e = free_slot();

	if (!e) {
		e = pick(NULL);
		destroy_slot(e, "valid, to make room");
	}
	op_create();
	for (int i = 0; i < MAX_ENCL; i++) {
		e = &encls[i];
		if (e->used && !e->init && e->layout >= 0 && e->next == 0 && e->clean) {
			while (e->next < layouts[e->layout].nr_pages)
				add_next(e);
			if (do_init(e->base, (uintptr_t)&sigs[e->layout], (uintptr_t)&zero_token,
				    "valid") == 0)
				e->init = true;
			return;
		}
	}
}

/* ---- raw ioctl numbers and bad pointers --------------------------------- */

/* Numbers the VFS answers before the driver sees them (fs/ioctl.c). */
static bool vfs_ioctl_cmd(unsigned long cmd)
{
	static const unsigned long vfs[] = {
		FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC, FIOQSIZE, FIFREEZE, FITHAW,
		FS_IOC_FIEMAP, FIGETBSZ, FICLONE, FICLONERANGE, FIDEDUPERANGE,
		FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR,
		FIONREAD,
	};

	for (size_t i = 0; i < sizeof(vfs) / sizeof(vfs[0]); i++)
		if ((uint32_t)cmd == (uint32_t)vfs[i])
			return true;
	return false;
}

static void op_ioctl(void)
{
	static const unsigned long real[] = {
		SGX_IOC_ENCLAVE_CREATE, SGX_IOC_ENCLAVE_ADD_PAGE, SGX_IOC_ENCLAVE_INIT,
		SGX_IOC_ENCLAVE_DESTROY,
	};
	static uint8_t buf[2 * PAGE] __attribute__((aligned(PAGE)));
	unsigned long cmd;
	void *arg;
	char what[64];

	switch (below(4)) {
	case 0:	/* the driver's magic, any number, direction and size */
		cmd = _IOC(below(4), SGX_MAGIC, below(16), below(1 << 14));
		break;
	case 1: /* a real number with its size or direction changed */
		cmd = real[below(4)];
		cmd = one_in(2) ? (cmd & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
				  ((unsigned long)below(1 << 14) << _IOC_SIZESHIFT)
				: cmd ^ ((1UL + below(3)) << _IOC_DIRSHIFT);
		break;
	case 2:
		cmd = (uint32_t)rnd();
		break;
	default:
		cmd = rnd();	/* 64 bits: the kernel takes the low 32 */
		break;
	}
	if (vfs_ioctl_cmd(cmd))
		return;
	memset(buf, 0, sizeof(buf));
	arg = one_in(2) ? (void *)buf : (void *)bad_ptr();
	snprintf(what, sizeof(what), "raw number %#lx", cmd);
	call(OP_IOCTL, ioc_of((uint32_t)cmd), cmd, arg, what);
}

/* One of the four with a bad pointer somewhere. */
static void op_badptr(void)
{
	static struct sgx_secinfo si;
	struct encl *e = pick(NULL);
	uint64_t base = e ? e->base : rnd() & ~0xfffULL;

	switch (below(8)) {
	case 0:
		call(OP_BADPTR, IOC_CREATE, SGX_IOC_ENCLAVE_CREATE, (void *)bad_ptr(), "bad arg");
		break;
	case 1: {
		struct sgx_create_param p = { .secs = bad_ptr() };

		call(OP_BADPTR, IOC_CREATE, SGX_IOC_ENCLAVE_CREATE, &p, "bad SECS");
		break;
	}
	case 2:
		/*
		 * A valid SECS in a read-only argument: the base cannot be
		 * written back, so the enclave must not stay either.
		 */
		if (call(OP_BADPTR, IOC_CREATE, SGX_IOC_ENCLAVE_CREATE, rdonly, "read-only arg") == 0)
			unexpected(OP_BADPTR, "CREATE with a read-only argument succeeded");
		break;
	case 3:
		/* Where a page went, if one did, is not ours to read. */
		if (call(OP_BADPTR, IOC_ADD, SGX_IOC_ENCLAVE_ADD_PAGE, (void *)bad_ptr(),
			 "bad arg") == 0)
			for (int i = 0; i < MAX_ENCL; i++)
				if (!encls[i].init)
					encls[i].clean = encls[i].extra = false;
		break;
	case 4: {
		struct sgx_add_param p = { .addr = base + below(8) * PAGE, .user_addr = bad_ptr(),
					   .secinfo = (uintptr_t)&si };

		si = (struct sgx_secinfo){ .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
		if (one_in(2)) {
			p.user_addr = (uintptr_t)srcpage;
			p.secinfo = bad_ptr();
		}
		if (call(OP_BADPTR, IOC_ADD, SGX_IOC_ENCLAVE_ADD_PAGE, &p, "bad source/SECINFO") == 0)
			note_added(p.addr, NULL);
		break;
	}
	case 5:
		call(OP_BADPTR, IOC_INIT, SGX_IOC_ENCLAVE_INIT, (void *)bad_ptr(), "bad arg");
		break;
	case 6:
		do_init(base, bad_ptr(), one_in(2) ? bad_ptr() : (uintptr_t)srcpage, "bad SIGSTRUCT");
		break;
	default:
		call(OP_BADPTR, IOC_DESTROY, SGX_IOC_ENCLAVE_DESTROY, (void *)bad_ptr(), "bad arg");
		break;
	}
}

/* ---- touching -------------------------------------------------------------- */

static bool layout_page_rw(const struct isgx_layout *l, unsigned int i)
{
	struct isgx_layout_page lp;

	isgx_layout_page(l, i, &lp, tmppage);
	return (lp.secinfo & (SGX_SECINFO_W | SGX_SECINFO_TCS)) == SGX_SECINFO_W;
}

static void op_touch(void)
{
	struct encl *e = pick(NULL);
	unsigned int n = 1 + below(32);

	if (!e)
		return;
	while (n--) {
		uint64_t pg = below(e->size / PAGE), v = 0, want;
		uint64_t *p = (uint64_t *)(uintptr_t)(e->base + pg * PAGE);
		const struct isgx_layout *l = e->layout >= 0 ? &layouts[e->layout] : NULL;
		bool checked = l && e->init && e->clean && e->intact && pg >= 2 * l->nr_tcs &&
			       pg < l->nr_pages;
		bool wr = checked && layout_page_rw(l, pg) && one_in(2);
		int sig;

		if (wr) {
			/* The last word, read back: the first stays as added. */
			p += PAGE / 8 - 1;
			want = v = rnd();
			sig = probe(p, true, &v);
			if (!sig)
				sig = probe(p, false, &v);
		} else {
			want = isgx_layout_word(pg * PAGE);
			sig = probe(p, false, &v);
		}
		count_res(OP_TOUCH, sig_bucket(sig));
		if (!checked)
			continue;
		if (sig)
			unexpected(OP_TOUCH, "%s at page %" PRIu64 " of an intact initialised enclave "
				   "at %#" PRIx64, strsignal(sig), pg, e->base);
		else if (v != want)
			unexpected(OP_TOUCH, "page %" PRIu64 "%s of the enclave at %#" PRIx64
				   " reads %#" PRIx64 ", want %#" PRIx64, pg, wr ? " (last word, written)" : "",
				   e->base, v, want);
	}
}

/* ---- mapping operations ---------------------------------------------------- */

/* A page range inside @e: [*start, *start + *len). */
static void pick_range(const struct encl *e, uint64_t *start, uint64_t *len)
{
	uint64_t n = e->size / PAGE, a = below(n), b = a + 1 + below(n - a);

	if (one_in(3)) {
		a = 0;
		b = n;
	}
	*start = e->base + a * PAGE;
	*len = (b - a) * PAGE;
}

static void count_sys(int op, int ret)
{
	if (opt_trace)
		say("  w%d #%" PRIu64 " %s -> %s", widx, opno, ops[op].name, ret ? strerror(errno) : "success");
	count_res(op, ret ? (errno < NR_ERRNO ? errno : NR_ERRNO - 1) : 0);
}

static void op_munmap(void)
{
	struct encl *e = pick(is_whole);
	uint64_t a, len;

	if (!e)
		return;
	pick_range(e, &a, &len);
	if (opt_trace)
		say("  w%d #%" PRIu64 " munmap %#" PRIx64 "+%#" PRIx64 " of the enclave at %#" PRIx64,
		    widx, opno, a, len, e->base);
	count_sys(OP_MUNMAP, munmap((void *)(uintptr_t)a, len));
	e->intact = e->whole = false;
}

static bool is_whole_init(const struct encl *e)
{
	return e->whole && e->init;
}

static void op_mprotect(void)
{
	static const int prots[] = {
		PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC, PROT_WRITE, PROT_EXEC,
	};
	struct encl *e = pick(skip_quirk[Q_MPROTECT_EARLY] ? is_whole_init : is_whole);
	uint64_t a, len;
	int r;

	if (!e)
		return;
	pick_range(e, &a, &len);
	if (opt_trace)
		say("  w%d #%" PRIu64 " mprotect %#" PRIx64 "+%#" PRIx64, widx, opno, a, len);
	r = mprotect((void *)(uintptr_t)a, len, prots[below(sizeof(prots) / sizeof(prots[0]))]);
	count_sys(OP_MPROTECT, r);
	/* Even a refused mprotect may have changed the VMAs before the refusal. */
	e->intact = false;
}

static void op_mremap(void)
{
	struct encl *e = pick(is_whole);
	uint64_t a, len, nlen, target;
	void *r;
	int flags = 0;

	if (!e)
		return;
	pick_range(e, &a, &len);
	nlen = one_in(2) ? len : PAGE * (1 + below(2 * len / PAGE));
	switch (below(4)) {
	case 0: flags = 0; break;
	case 1: flags = MREMAP_MAYMOVE; break;
	case 2: flags = MREMAP_MAYMOVE | MREMAP_FIXED; break;
	default: flags = MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP; break;
	}
	/* A fixed target only inside our own scratch range, which it may replace. */
	if (nlen > SCRATCH_SIZE)
		flags &= ~(MREMAP_FIXED | MREMAP_DONTUNMAP);
	target = (uintptr_t)scratch + below((SCRATCH_SIZE - (nlen > SCRATCH_SIZE ? 0 : nlen)) / PAGE) * PAGE;
	/* Growing in place could run into our own mappings: shrink or keep. */
	if (!(flags & MREMAP_MAYMOVE) && nlen > len)
		nlen = len / 2 >= PAGE ? len / 2 : len;
	if (opt_trace)
		say("  w%d #%" PRIu64 " mremap %#" PRIx64 "+%#" PRIx64 " -> %#" PRIx64 " flags %#x target %#" PRIx64,
		    widx, opno, a, len, nlen, flags, target);
	r = mremap((void *)(uintptr_t)a, len, nlen, flags, (void *)(uintptr_t)target);
	count_sys(OP_MREMAP, r == MAP_FAILED);
	/*
	 * Even a failed mremap may have unmapped part of the old range (a
	 * shrinking move unmaps the tail before it tries the move).
	 */
	e->intact = e->whole = false;
	if (r == MAP_FAILED) {
		/*
		 * A fixed move unmaps its target before it checks anything
		 * else: a failed one leaves a hole in the scratch range, where
		 * the kernel may place a new enclave that a later fixed move
		 * would then unmap.  Fill it again.
		 */
		if ((flags & MREMAP_FIXED) &&
		    mmap((void *)(uintptr_t)target, nlen, PROT_NONE,
			 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED)
			die("worker %d: restoring the scratch range: %s", widx, strerror(errno));
		return;
	}
	if ((uintptr_t)r == a)
		return;	/* resized in place */
	/*
	 * Moved: touch the moved part, then unmap it (under MREMAP_FIXED by
	 * putting the scratch range back over it).  A moved part left in
	 * scratch would leave a hole there when the enclave goes, where the
	 * kernel may place a new enclave that a later MREMAP_FIXED would hit;
	 * one left anywhere keeps an enclave alive that no slot knows, whose
	 * DESTROY by another path would unmap its old range (destroy-holed).
	 */
	for (unsigned int i = 0; i < 4; i++) {
		uint64_t v;

		count_res(OP_MREMAP, sig_bucket(probe((uint64_t *)((uint8_t *)r +
						      below(nlen / PAGE) * PAGE), false, &v)));
	}
	if (flags & MREMAP_FIXED) {
		if (mmap(r, nlen, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0) == MAP_FAILED)
			die("worker %d: restoring the scratch range: %s", widx, strerror(errno));
	} else {
		count_sys(OP_MREMAP, munmap(r, nlen));
	}
}

static void op_madvise(void)
{
	static const int advice[] = {
		MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED,
		MADV_FREE, MADV_REMOVE, MADV_DONTFORK, MADV_DOFORK, MADV_MERGEABLE,
		MADV_UNMERGEABLE, MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_DONTDUMP, MADV_DODUMP,
		MADV_WIPEONFORK, MADV_KEEPONFORK, MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ,
		MADV_POPULATE_WRITE,
	};
	struct encl *e = pick(is_whole);
	uint64_t a, len;
	int adv = advice[below(sizeof(advice) / sizeof(advice[0]))], r;

	if (!e)
		return;
	pick_range(e, &a, &len);
	if (opt_trace)
		say("  w%d #%" PRIu64 " madvise %#" PRIx64 "+%#" PRIx64 " %d", widx, opno, a, len, adv);
	r = madvise((void *)(uintptr_t)a, len, adv);
	count_sys(OP_MADVISE, r);
	/* DOFORK on the enclave's VM_IO mapping must be refused. */
	if (r == 0 && adv == MADV_DOFORK)
		unexpected(OP_MADVISE, "MADV_DOFORK on an enclave range succeeded");
	/* Zapping is allowed (the pages come back by faults), but be conservative. */
	if (adv == MADV_DONTNEED || adv == MADV_FREE || adv == MADV_REMOVE)
		e->intact = false;
}

static void op_mincore(void)
{
	struct encl *e = pick(is_whole);
	static unsigned char vec[1 << 16];
	uint64_t a, len;

	if (!e)
		return;
	pick_range(e, &a, &len);
	if (len / PAGE > sizeof(vec))
		len = sizeof(vec) * PAGE;
	count_sys(OP_MINCORE, mincore((void *)(uintptr_t)a, len, one_in(10) ? (void *)hole : vec));
}

/* ---- fork, threads, reopen ------------------------------------------------- */

static void op_fork(void)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		count_res(OP_FORK, errno);
		return;
	}
	if (pid == 0) {
		/* The child: touch the parent's enclaves, try them, maybe build one, exit. */
		rng ^= 0x5bd1e995;
		for (int i = 0; i < MAX_ENCL; i++) {
			struct encl *e = &encls[i];
			uint64_t v;
			int sig;

			if (!e->used)
				continue;
			sig = probe((uint64_t *)(uintptr_t)(e->base + below(e->size / PAGE) * PAGE),
				    false, &v);
			count_res(OP_FORK, sig_bucket(sig));
			if (!sig && e->whole)
				unexpected(OP_FORK, "a fork child read the parent's enclave at %#" PRIx64,
					   e->base);
			if (do_destroy(e->base, "the parent's enclave, in a fork child") == 0)
				unexpected(OP_FORK, "a fork child destroyed the parent's enclave at %#" PRIx64,
					   e->base);
			e->used = false;
		}
		if (one_in(2)) {
			/* An enclave of its own, left for exit to free. */
			op_build();
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		unexpected(OP_FORK, "the fork child ended with status %#x", status);
}

struct toucher {
	uint64_t base, size;
	volatile int stop;
	unsigned long touches;
};

static void *toucher_main(void *arg)
{
	struct toucher *t = arg;
	uint64_t x = t->base, v;

	while (!t->stop) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		probe((uint64_t *)(uintptr_t)(t->base + (x >> 20) % (t->size / PAGE) * PAGE),
		      false, &v);
		t->touches++;
	}
	return NULL;
}

static void op_thread(void)
{
	struct encl *e = pick(is_init);
	struct toucher t;
	pthread_t th;
	int r;

	if (!e)
		return;
	t = (struct toucher){ .base = e->base, .size = e->size };
	r = pthread_create(&th, NULL, toucher_main, &t);
	if (r) {
		count_res(OP_THREAD, r);
		return;
	}
	usleep(below(3000));
	if (one_in(4) && e->whole)
		count_sys(OP_THREAD, munmap((void *)(uintptr_t)e->base, e->size));
	destroy_slot(e, "while another thread touches it");
	usleep(below(2000));
	t.stop = 1;
	pthread_join(th, NULL);
	count_res(OP_THREAD, 0);
}

static int open_dev(bool rdonly_fd)
{
	int fd = open("/dev/sgx", (rdonly_fd ? O_RDONLY : O_RDWR) | O_CLOEXEC);

	if (fd < 0)
		die("worker %d: open /dev/sgx: %s", widx, strerror(errno));
	return fd;
}

static void op_reopen(void)
{
	/* The enclaves belong to the process, not to the file. */
	close(dev_fd);
	if (one_in(2)) {
		/* Read-only: CREATE cannot map the enclave (EACCES or EPERM). */
		uint64_t base;

		dev_fd = open_dev(true);
		isgx_layout_secs(&layouts[below(NR_LAYOUTS)], &rdonly_secs);
		if (do_create(&rdonly_secs, &base, "through a read-only fd") == 0)
			unexpected(OP_REOPEN, "CREATE through a read-only /dev/sgx succeeded");
		op_add();
		op_init();
		close(dev_fd);
	}
	dev_fd = open_dev(false);
	count_res(OP_REOPEN, 0);
}

/* ---- the worker ------------------------------------------------------------ */

static void (*const op_fn[NR_OPS])(void) = {
	[OP_CREATE] = op_create, [OP_ADD] = op_add, [OP_INIT] = op_init,
	[OP_DESTROY] = op_destroy, [OP_BUILD] = op_build, [OP_IOCTL] = op_ioctl,
	[OP_BADPTR] = op_badptr, [OP_TOUCH] = op_touch, [OP_MUNMAP] = op_munmap,
	[OP_MPROTECT] = op_mprotect, [OP_MREMAP] = op_mremap, [OP_MADVISE] = op_madvise,
	[OP_MINCORE] = op_mincore, [OP_FORK] = op_fork, [OP_THREAD] = op_thread,
	[OP_REOPEN] = op_reopen,
};

static enum op draw_op(void)
{
	unsigned int total = 0, x;

	for (int i = 0; i < NR_OPS; i++)
		total += skip[i] ? 0 : ops[i].weight;
	x = (unsigned int)below(total);
	for (int i = 0; i < NR_OPS; i++) {
		if (skip[i])
			continue;
		if (x < ops[i].weight)
			return (enum op)i;
		x -= ops[i].weight;
	}
	return OP_TOUCH;
}

static void setup_memory(void)
{
	uint8_t *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (p == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memset(p, 0, 4 * PAGE);
	hole = p + PAGE;
	munmap(hole, PAGE);
	edge = hole - 8;
	noaccess = p + 2 * PAGE;
	mprotect(noaccess, PAGE, PROT_NONE);
	rdonly = p + 3 * PAGE;
	isgx_layout_secs(&layouts[0], &rdonly_secs);
	((struct sgx_create_param *)rdonly)->secs = (uintptr_t)&rdonly_secs;
	mprotect(rdonly, PAGE, PROT_READ);
	scratch = mmap(NULL, SCRATCH_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (scratch == MAP_FAILED)
		die("mmap scratch: %s", strerror(errno));
}

static void worker(int idx, uint64_t nr_ops, double deadline)
{
	widx = idx;
	rng = opt_seed ^ (0x100000001b3ULL * (uint64_t)(idx + 1));
	rnd();
	install_handlers();
	if (unpriv) {
		if (setgroups(0, NULL) || setgid(UNPRIV_UID) || setuid(UNPRIV_UID))
			die("worker %d: dropping to uid %d: %s", idx, UNPRIV_UID, strerror(errno));
	}
	setup_memory();
	dev_fd = open_dev(false);
	for (opno = 0; !sh->stop; opno++) {
		enum op op;

		if (nr_ops ? opno >= nr_ops : now_s() >= deadline)
			break;
		op = draw_op();
		sh->cur_op[idx] = op;
		sh->cur_opno[idx] = opno;
		if (opt_trace)
			say("w%d #%" PRIu64 " %s", idx, opno, ops[op].name);
		op_fn[op]();
		__atomic_fetch_add(&sh->count[op], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&sh->nr_ops, 1, __ATOMIC_RELAXED);
	}
	sh->cur_op[idx] = -1;
	/* Tear down: DESTROY what is left, or let exit free it. */
	for (int i = 0; i < MAX_ENCL; i++)
		if (encls[i].used && one_in(2))
			destroy_slot(&encls[i], "valid, at the end");
	sh->done[idx] = 1;
	exit(0);
}

/* ---- the parent: module, workers, progress, the final checks ------------- */

static long dbg_read(const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), ISGX_DBG "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void cat(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
}

/* What a stuck worker is doing: its last probe, state and kernel stacks. */
static void dump_worker(unsigned int i, pid_t pid)
{
	char path[128];

	printf("worker %u (pid %d): last probe at %#" PRIx64 ", faults %ld, retries %ld\n", i,
	       (int)pid, sh->cur_addr[i], dbg_read("nr_faults"), dbg_read("nr_fault_retries"));
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	cat(path);
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	printf("kernel stack:\n");
	cat(path);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	printf("maps:\n");
	cat(path);
	sleep(2);
	printf("faults %ld, retries %ld two seconds later\n", dbg_read("nr_faults"),
	       dbg_read("nr_fault_retries"));
	fflush(stdout);
}

static void sign_layouts(void)
{
	char err[256];
	EVP_PKEY *key = isgx_key_load(opt_key, err);

	if (!key)
		die("%s", err);
	for (unsigned int i = 0; i < NR_LAYOUTS; i++) {
		struct isgx_enclave e;
		struct sgx_secs secs;

		if (isgx_layout_check(&layouts[i], err))
			die("layout %u: %s", i, err);
		isgx_layout_secs(&layouts[i], &secs);
		if (isgx_enclave_create(&e, -1, &secs) || isgx_enclave_add_layout(&e, &layouts[i]) ||
		    isgx_enclave_sign(&e, key, &sigs[i]))
			die("signing layout %u: %s", i, isgx_enclave_error(&e));
		isgx_enclave_forget(&e);
	}
	EVP_PKEY_free(key);
}

static void parse_skip(const char *list)
{
	char *copy = strdup(list), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < NR_QUIRKS; i++)
			if (!strcmp(tok, quirk_names[i]))
				break;
		if (i < NR_QUIRKS) {
			skip_quirk[i] = true;
			continue;
		}
		for (i = 0; i < NR_OPS; i++)
			if (!strcmp(tok, ops[i].name))
				break;
		if (i == NR_OPS)
			die("--skip: no operation '%s'", tok);
		skip[i] = true;
	}
	free(copy);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: isgx_fuzz [--ko=PATH] --key=PEM [--seed=S] [--ops=N | --seconds=S]\n"
"                 [--procs=P] [--epc-pages=N] [--params='NAME=VALUE ...']\n"
"                 [--skip=OP,...] [--no-unpriv] [--trace]\n"
"  --seed=S      0 or absent: from the clock (printed either way)\n"
"  --ops=N       operations in all, split over the workers (default: --seconds)\n"
"  --seconds=S   run for S seconds (default 60 when --ops is absent)\n"
"  --procs=P     worker processes (1..%d, default 1); with P >= 2 the last\n"
"                one runs as uid %d (the module is loaded with dev_mode=0666)\n"
"  --epc-pages=N the EPC when --ko loads the module (default 256: the pager evicts)\n"
"  --skip=OP,... operations not to draw; OP is one of:\n"
"               ", MAX_PROCS, UNPRIV_UID);
	for (int i = 0; i < NR_OPS; i++)
		fprintf(f, " %s", ops[i].name);
	fprintf(f, "\n                or a path that hits a known kernel bug:");
	for (int i = 0; i < NR_QUIRKS; i++)
		fprintf(f, " %s", quirk_names[i]);
	fprintf(f, "\n  --trace       print every operation and ioctl result\n");
}

static void print_report(double elapsed)
{
	char nb[ISGX_RET_NAME_LEN];

	printf("ops executed: %" PRIu64 " in %.0f s (%.0f/s)\n", sh->nr_ops, elapsed,
	       elapsed > 0 ? sh->nr_ops / elapsed : 0.0);
	for (int i = 0; i < NR_OPS; i++) {
		int shown = 0;

		printf("  %-9s %8" PRIu64 "%s", ops[i].name, sh->count[i], skip[i] ? " (skipped)" : "");
		if (sh->unexpected[i])
			printf(" UNEXPECTED %" PRIu64, sh->unexpected[i]);
		for (int b = 0; b < (int)NR_RES; b++) {
			if (!sh->res[i][b])
				continue;
			printf("%s%s %" PRIu64, shown++ ? ", " : "  [", res_name(b, nb), sh->res[i][b]);
		}
		printf("%s\n", shown ? "]" : "");
	}
	printf("enclaves built by their layout that got an extra page: %" PRIu64
	       " by a mutated address, %" PRIu64 " by a layout page of another enclave\n",
	       sh->nr_extra_encls[0], sh->nr_extra_encls[1]);
	printf("valid INITs judged: %" PRIu64 " of enclaves built by their layout (must succeed), %"
	       PRIu64 " of ones with an extra page (must fail on the measurement)%s\n",
	       sh->nr_judged_inits[0], sh->nr_judged_inits[1],
	       init_oracles ? "" : " (off: --params may inject)");
	printf("unexpected results: %" PRIu64 "\n", sh->nr_unexpected);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "key", required_argument, NULL, 'K' },
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "epc-pages", required_argument, NULL, 'e' },
		{ "params", required_argument, NULL, 'P' },
		{ "skip", required_argument, NULL, 'x' },
		{ "no-unpriv", no_argument, NULL, 'u' },
		{ "trace", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pid_t pids[MAX_PROCS];
	double start, deadline, last_progress;
	uint64_t last_ops = 0;
	double last_change;
	long nr_free = -1, nr_total = -1;
	bool failed = false, loaded = false;
	int c, alive;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'k': opt_ko = optarg; break;
		case 'K': opt_key = optarg; break;
		case 's': opt_seed = strtoull(optarg, NULL, 0); break;
		case 'o': opt_ops = strtoull(optarg, NULL, 0); break;
		case 't': opt_seconds = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'p': opt_procs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'e': opt_epc = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'P': opt_params = optarg; break;
		case 'x': parse_skip(optarg); opt_skip = optarg; break;
		case 'u': opt_unpriv = false; break;
		case 'T': opt_trace = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || !opt_key || opt_procs < 1 || opt_procs > MAX_PROCS) {
		usage(stderr);
		return 2;
	}
	if (!opt_ops && !opt_seconds)
		opt_seconds = 60;
	/* einit_unmasked_pct, power_loss, power_loss_at: EINIT may fail for them. */
	init_oracles = !strstr(opt_params, "einit_unmasked") && !strstr(opt_params, "power_loss");
	if (!opt_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		opt_seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
	}
	printf("isgx_fuzz: seed %#" PRIx64 ", %u procs%s, %s %" PRIu64 "\n", opt_seed, opt_procs,
	       opt_procs >= 2 && opt_unpriv ? " (the last one uid 1000)" : "",
	       opt_ops ? "ops" : "seconds", opt_ops ? opt_ops : (uint64_t)opt_seconds);
	printf("isgx_fuzz: reproduce with --seed=%#" PRIx64 " --procs=%u %s%" PRIu64 "%s%s%s%s\n",
	       opt_seed, opt_procs, opt_ops ? "--ops=" : "--seconds=",
	       opt_ops ? opt_ops : (uint64_t)opt_seconds, opt_params[0] ? " --params=" : "",
	       opt_params, opt_skip ? " --skip=" : "", opt_skip ? opt_skip : "");

	sign_layouts();

	if (opt_ko) {
		char params[512];
		struct stat st;
		int r;

		if (!isgx_in_guest())
			die("not inside a qemu/run guest: never load isgx.ko on the host");
		if (isgx_module_loaded("isgx") && isgx_module_unload("isgx"))
			die("a loaded isgx could not be unloaded");
		snprintf(params, sizeof(params), "epc_pages=%u dev_mode=0666 %s", opt_epc, opt_params);
		r = isgx_module_load(opt_ko, params);
		if (r)
			die("loading %s (%s): %s", opt_ko, params, strerror(-r));
		loaded = true;
		printf("isgx_fuzz: loaded with %s\n", params);
		if (stat(ISGX_DBG, &st))
			mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	}
	if (opt_procs >= 2 && opt_unpriv) {
		struct stat st;

		if (stat("/dev/sgx", &st) || (st.st_mode & 0006) != 0006) {
			printf("isgx_fuzz: /dev/sgx is not 0666: no unprivileged worker\n");
			opt_unpriv = false;
		}
	}
	nr_total = dbg_read("nr_total_pages");
	printf("isgx_fuzz: EPC %ld pages, %ld free before\n", nr_total, dbg_read("nr_free_pages"));

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memset(sh, 0, sizeof(*sh));

	start = now_s();
	deadline = start + opt_seconds;
	fflush(stdout);
	for (unsigned int i = 0; i < opt_procs; i++) {
		uint64_t n = opt_ops ? opt_ops / opt_procs + (i < opt_ops % opt_procs) : 0;

		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			unpriv = opt_unpriv && opt_procs >= 2 && i == opt_procs - 1;
			worker((int)i, n, deadline);
		}
	}

	last_progress = last_change = start;
	alive = (int)opt_procs;
	while (alive > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		double t = now_s();

		if (pid > 0) {
			for (unsigned int i = 0; i < opt_procs; i++) {
				if (pids[i] != pid)
					continue;
				alive--;
				if (!WIFEXITED(status) || WEXITSTATUS(status)) {
					printf("UNEXPECTED worker %u ended with %s %d in op #%" PRIu64 " (%s)\n",
					       i, WIFSIGNALED(status) ? "signal" : "status",
					       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
					       sh->cur_opno[i], sh->cur_op[i] >= 0 ?
					       ops[sh->cur_op[i]].name : "none");
					sh->nr_unexpected++;
				}
			}
			continue;
		}
		if (sh->nr_ops != last_ops) {
			last_ops = sh->nr_ops;
			last_change = t;
		} else if (t - last_change > 60) {
			printf("UNEXPECTED no operation finished for 60 s:");
			for (unsigned int i = 0; i < opt_procs; i++)
				if (!sh->done[i])
					printf(" worker %u in op #%" PRIu64 " (%s)", i, sh->cur_opno[i],
					       sh->cur_op[i] >= 0 ? ops[sh->cur_op[i]].name : "none");
			printf("\n");
			for (unsigned int i = 0; i < opt_procs; i++)
				if (!sh->done[i])
					dump_worker(i, pids[i]);
			sh->nr_unexpected++;
			sh->stop = 1;
			for (unsigned int i = 0; i < opt_procs; i++)
				kill(pids[i], SIGKILL);
			last_change = t;
		}
		if (t - last_progress >= 5) {
			printf("fuzz: %.0f s, ops %" PRIu64 " (%.0f/s), unexpected %" PRIu64
			       ", enclaves %ld, EPC free %ld/%ld, evicted %ld, loaded %ld, faults %ld\n",
			       t - start, sh->nr_ops, sh->nr_ops / (t - start), sh->nr_unexpected,
			       dbg_read("nr_enclaves"), dbg_read("nr_free_pages"), nr_total,
			       dbg_read("nr_evicted"), dbg_read("nr_loaded"), dbg_read("nr_faults"));
			last_progress = t;
		}
		usleep(50000);
	}

	print_report(now_s() - start);
	printf("EPC: evicted %ld, loaded %ld, faults %ld, ELDU failed %ld, EWB failed %ld\n",
	       dbg_read("nr_evicted"), dbg_read("nr_loaded"), dbg_read("nr_faults"),
	       dbg_read("nr_eldu_failed"), dbg_read("nr_ewb_failed"));
	if (dbg_read("nr_eldu_failed") > 0 || dbg_read("nr_ewb_failed") > 0) {
		printf("UNEXPECTED the pager had failed ELDU/EWB\n");
		failed = true;
	}
	/* Every enclave is gone with its process: all EPC free again. */
	if (nr_total > 0) {
		double until = now_s() + 20;

		do {
			nr_free = dbg_read("nr_free_pages");
			if (nr_free == nr_total)
				break;
			usleep(50000);
		} while (now_s() < until);
		printf("EPC: %ld of %ld pages free after all enclaves are gone, %ld enclaves\n",
		       nr_free, nr_total, dbg_read("nr_enclaves"));
		if (nr_free != nr_total) {
			printf("UNEXPECTED EPC leak: %ld pages not freed\n", nr_total - nr_free);
			failed = true;
		}
	} else {
		printf("EPC: no debugfs counters: the free count was not checked\n");
	}
	if (loaded) {
		int r = -EBUSY;

		for (int i = 0; i < 200 && r; i++) {
			r = isgx_module_unload("isgx");
			if (r)
				usleep(50000);
		}
		if (r) {
			printf("UNEXPECTED unload of isgx failed: %s\n", strerror(-r));
			failed = true;
		}
	}
	failed |= sh->nr_unexpected != 0;
	printf("isgx_fuzz: seed %#" PRIx64 ": %s\n", opt_seed, failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
