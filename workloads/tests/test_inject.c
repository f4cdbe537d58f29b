// SPDX-License-Identifier: GPL-2.0
/*
 * test_inject.c - guest tests of the driver under injected faults (the emu
 * backend's root-only test knobs tamper and power_loss_at) and of enclave
 * teardown racing the pager:
 *
 *  - a sealed page, its PCMD or its version changed between EWB and ELDU,
 *    or an older sealed copy of the page put back (replay): ELDU refuses
 *    it, the enclave's process gets SIGBUS, the page loads again
 *    afterwards (only what that one ELDU read was changed), and the
 *    enclaves of other processes, evicting and loading all along, lose
 *    nothing;
 *  - a power loss between EBLOCK and EWB, or between EWB and the free of
 *    the EPC page: every enclave is dead (SIGBUS, SGX_POWER_LOST_ENCLAVE),
 *    the EPC and the VA pool empty once they are gone, new enclaves work;
 *  - kill -9, exit, fork, munmap and DESTROY of processes whose enclave
 *    the pager is evicting, hundreds of times: the EPC and VA counts come
 *    back, another process's enclave keeps its data.  Kernel-log reports
 *    and kmemleak (debug kernel) fail the run through qemu/run.
 *
 *	test_inject --ko=PATH/isgx.ko --key=PATH/signing_key.pem
 *		    [--races=N] [--race-seconds=S]
 */
#define _GNU_SOURCE
#include "enclave.h"
#include "harness.h"
#include "kmodule.h"
#include "rw_enclave.h"
#include "sgx_guest.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EPC_PAGES	256
#define PARAMS		"epc_pages=256"
#define WORDS		ISGX_RW_WORDS

/*
 * Create, add and initialise.  The SIGSTRUCT of an @nr_data enclave is
 * signed once (the base address is not measured): @ss caches it.
 */
static int64_t rw_build(struct isgx_rw_enclave *r, int fd, unsigned int nr_data,
			struct sgx_sigstruct *ss, bool *signed_)
{
	int64_t ret = isgx_rw_create(r, fd, nr_data, false);

	if (!ret && !*signed_) {
		ret = isgx_enclave_sign(&r->e, isgx_test_key(), ss);
		*signed_ = !ret;
	}
	return ret ? ret : isgx_enclave_init(&r->e, ss, NULL);
}

/* rw_build() that ends the test on failure. */
static void build_rw(struct isgx_rw_enclave *r, int fd, unsigned int nr_data)
{
	struct sgx_sigstruct ss;
	bool s = false;

	ISGX_ASSERT_EQ(rw_build(r, fd, nr_data, &ss, &s), 0, "%s", isgx_enclave_error(&r->e));
}

static bool page_ok(struct isgx_rw_enclave *r, unsigned int i, uint64_t gen)
{
	uint64_t *p = isgx_rw_data_page(r, i);

	for (unsigned int w = 0; w < WORDS; w++)
		if (p[w] != isgx_rw_pattern(i, w, gen))
			return false;
	return true;
}

static void page_write(struct isgx_rw_enclave *r, unsigned int i, uint64_t gen)
{
	uint64_t *p = isgx_rw_data_page(r, i);

	for (unsigned int w = 0; w < WORDS; w++)
		p[w] = isgx_rw_pattern(i, w, gen);
}

/* The parameter's value without its newline, in @buf ("" if unreadable). */
static const char *param_read(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/sys/module/isgx/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, len, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* Skip unless the emu's test knob @name exists (not on the hw backend). */
static void need_knob(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/isgx/parameters/%s", name);
	if (access(path, F_OK))
		isgx_skip("no %s parameter (not the emu backend)", name);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void describe(int status, char *how, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(how, len, "killed by %s", strsignal(WTERMSIG(status)));
	else
		snprintf(how, len, "exit status %d", WEXITSTATUS(status));
}

/*
 * Another process's enclave, evicted and loaded all along: a forked child
 * that bumps and checks every page of an @nr-page enclave in rounds (with
 * a pause of @pause_us after each) until
 * SIGUSR1 (or @seconds pass), then exits 0 if every page it read held
 * what it last wrote (1 if not, 2 if it could not build).  A signal, not
 * a pipe: every later child would inherit the pipe's write end.
 */
struct bystander {
	pid_t pid;
};

static volatile sig_atomic_t bystander_stop;

static void bystander_stop_fn(int sig)
{
	(void)sig;
	bystander_stop = 1;
}

static void bystander_start(struct bystander *b, int fd, unsigned int nr, double seconds,
			    unsigned int pause_us)
{
	int ready[2];
	char c = 0;

	ISGX_ASSERT(!pipe(ready), "pipe: %s", strerror(errno));
	fflush(stdout);
	b->pid = fork();
	ISGX_ASSERT_GE(b->pid, 0, "fork: %s", strerror(errno));
	if (b->pid == 0) {
		double deadline = now_s() + seconds;
		unsigned long rounds = 0, bad = 0;
		struct isgx_rw_enclave r;
		uint64_t *gen;

		close(ready[0]);
		signal(SIGUSR1, bystander_stop_fn);
		gen = calloc(nr, sizeof(*gen));
		if (!gen || rw_build(&r, fd, nr, &(struct sgx_sigstruct){}, &(bool){false})) {
			printf("# bystander: %s\n", gen ? isgx_enclave_error(&r.e) : "no memory");
			_exit(2);
		}
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		while (!bystander_stop && now_s() < deadline) {
			for (unsigned int i = 0; i < nr; i++) {
				if (!page_ok(&r, i, gen[i]))
					bad++;
				page_write(&r, i, ++gen[i]);
			}
			rounds++;
			if (pause_us)
				usleep(pause_us);
		}
		for (unsigned int i = 0; i < nr; i++)
			bad += !page_ok(&r, i, gen[i]);
		printf("# bystander %d: %lu rounds over %u pages, %lu bad\n", getpid(), rounds, nr, bad);
		fflush(stdout);
		_exit(bad || !rounds ? 1 : 0);
	}
	close(ready[1]);
	ISGX_ASSERT_EQ(read(ready[0], &c, 1), 1, "a bystander could not build its enclave");
	close(ready[0]);
}

/* Stop it; true when it kept every byte. */
static bool bystander_finish(struct bystander *b, char *how, size_t len)
{
	int status = 0;

	kill(b->pid, SIGUSR1);
	if (waitpid(b->pid, &status, 0) != b->pid)
		return snprintf(how, len, "waitpid: %s", strerror(errno)), false;
	describe(status, how, len);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The target of a tamper test: what it tells the parent, and its verdict. */
enum target_result {
	TARGET_OK = 0,		/* SIGBUS once, then the page loaded intact */
	TARGET_NO_SIGBUS = 3,	/* the tampered ELDU was never refused */
	TARGET_NOT_BACK = 4,	/* after the refusal the page came back wrong */
	TARGET_DATA = 5,	/* another page of the enclave lost data */
	TARGET_SETUP = 6,
};

#define TARGET_PAGES	160	/* with the bystanders' 2 x 96: 1.4 x the EPC */
#define BYSTANDER_PAGES	96	/* above a fair share: they page too */
#define TARGET_ROUNDS	8

/*
 * A child with an enclave of TARGET_PAGES whose page 0 is the target: it
 * sends the page's address, waits for the parent to arm the knob, then
 * in rounds reads and rewrites every other page (which evicts page 0)
 * and probes page 0, until a probe gets SIGBUS.  @rewrite: write page 0
 * with a new generation every round (replay needs a newer version).
 */
static pid_t target_start(int fd, bool rewrite, uint64_t *addr, int *go)
{
	int up[2], down[2];
	pid_t pid;

	ISGX_ASSERT(!pipe(up) && !pipe(down), "pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		uint64_t others = 1, gen = 0, v, a;
		struct isgx_rw_enclave r;
		int sig = 0, round;
		char c;

		close(up[0]);
		close(down[1]);
		if (rw_build(&r, fd, TARGET_PAGES, &(struct sgx_sigstruct){}, &(bool){false})) {
			printf("# target: %s\n", isgx_enclave_error(&r.e));
			_exit(TARGET_SETUP);
		}
		for (unsigned int i = 1; i < TARGET_PAGES; i++)
			page_write(&r, i, others);
		a = (uintptr_t)isgx_rw_data_page(&r, 0);
		if (write(up[1], &a, sizeof(a)) != sizeof(a) || read(down[0], &c, 1) != 1)
			_exit(TARGET_SETUP);
		for (round = 0; round < TARGET_ROUNDS && !sig; round++) {
			/* In address order, after page 0: fault-around never loads it. */
			for (unsigned int i = 1; i < TARGET_PAGES; i++) {
				if (!page_ok(&r, i, others))
					_exit(TARGET_DATA);
				page_write(&r, i, others + 1);
			}
			others++;
			sig = isgx_probe_read(isgx_rw_data_page(&r, 0), &v);
			if (sig)
				break;
			if (!page_ok(&r, 0, gen))
				_exit(TARGET_DATA);
			if (rewrite)
				page_write(&r, 0, ++gen);
		}
		printf("# target: round %d: %s\n", round, sig ? strsignal(sig) : "no signal");
		fflush(stdout);
		if (sig != SIGBUS)
			_exit(TARGET_NO_SIGBUS);
		/* Only what that ELDU read was changed: the page loads now. */
		if (!page_ok(&r, 0, gen))
			_exit(TARGET_NOT_BACK);
		for (unsigned int i = 1; i < TARGET_PAGES; i++)
			if (!page_ok(&r, i, others))
				_exit(TARGET_DATA);
		_exit(TARGET_OK);
	}
	close(up[1]);
	close(down[0]);
	ISGX_ASSERT_EQ(read(up[0], addr, sizeof(*addr)), sizeof(*addr),
		       "the target could not build its enclave");
	close(up[0]);
	*go = down[1];
	return pid;
}

/*
 * Arm tamper=@what for the target's page 0 and its process only, while two
 * bystanders page their own enclaves; the target must see SIGBUS once and
 * then its page intact, the bystanders nothing, the EPC all free after.
 */
static void tamper_case(const char *what, bool rewrite)
{
	int fd = isgx_test_start(PARAMS), go, status;
	long failed = isgx_debugfs_counter("nr_eldu_failed"), loaded = isgx_debugfs_counter("nr_loaded");
	struct bystander b[2];
	char knob[128], how[96];
	uint64_t addr;
	pid_t pid;

	need_knob("tamper");
	ISGX_EXPECT_EQ(isgx_param_write("tamper", "bogus"), -EINVAL, "tamper=bogus accepted");
	ISGX_EXPECT_EQ(isgx_param_write("tamper", "va:0x1001"), -EINVAL,
		       "an unaligned address accepted");
	for (int i = 0; i < 2; i++)
		bystander_start(&b[i], fd, BYSTANDER_PAGES, 600, 0);
	pid = target_start(fd, rewrite, &addr, &go);
	snprintf(knob, sizeof(knob), "%s:%#" PRIx64 ":%d", what, addr, pid);
	ISGX_ASSERT_EQ(isgx_param_write("tamper", knob), 0, "tamper=%s refused", knob);
	isgx_note("tamper=%s", param_read("tamper", knob, sizeof(knob)));
	ISGX_ASSERT_EQ(write(go, "g", 1), 1, "start the target");
	close(go);
	ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	describe(status, how, sizeof(how));
	ISGX_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == TARGET_OK,
		    "target: %s (3: ELDU never refused, 4: page not back after, 5: data lost)", how);
	ISGX_EXPECT(!strcmp(param_read("tamper", knob, sizeof(knob)), "none"),
		    "tamper still armed after the target: %s", knob);
	failed = isgx_debugfs_counter("nr_eldu_failed") - failed;
	isgx_note("%ld ELDU refused, %ld pages loaded meanwhile", failed,
		  isgx_debugfs_counter("nr_loaded") - loaded);
	ISGX_EXPECT_EQ(failed, 1, "%ld ELDU failures, want 1", failed);
	for (int i = 0; i < 2; i++)
		ISGX_EXPECT(bystander_finish(&b[i], how, sizeof(how)), "bystander %d: %s", i, how);
	isgx_expect_epc_all_free("after every process exited", 2000);
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_va_pages"), 0, "VA pages left: %ld",
		       isgx_debugfs_counter("nr_va_pages"));
	isgx_test_finish(fd);
}

ISGX_TEST(tamper_contents_refused, 600)
{
	tamper_case("contents", false);
}

ISGX_TEST(tamper_pcmd_refused, 600)
{
	tamper_case("pcmd", false);
}

ISGX_TEST(tamper_va_refused, 600)
{
	tamper_case("va", false);
}

/* The copy of one eviction, put back after a newer one: refused. */
ISGX_TEST(replay_refused, 600)
{
	tamper_case("replay", true);
}

/* Wait until power_loss_at reads "none" (fired and the driver told). */
static bool power_loss_done(double seconds)
{
	double deadline = now_s() + seconds;
	char knob[64];

	while (now_s() < deadline) {
		if (!strcmp(param_read("power_loss_at", knob, sizeof(knob)), "none"))
			return true;
		usleep(20000);
	}
	return false;
}

/*
 * A child that pages an @nr-page enclave until the EPC is lost: its next
 * fault must be SIGBUS, which kills it.  Never exits by itself before
 * @seconds.
 */
static pid_t victim_start(int fd, unsigned int nr, double seconds)
{
	int ready[2];
	char c = 0;
	pid_t pid;

	ISGX_ASSERT(!pipe(ready), "pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		double deadline = now_s() + seconds;
		struct isgx_rw_enclave r;
		uint64_t gen = 0;

		close(ready[0]);
		if (rw_build(&r, fd, nr, &(struct sgx_sigstruct){}, &(bool){false})) {
			printf("# victim: %s\n", isgx_enclave_error(&r.e));
			_exit(2);
		}
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		/* After the loss a still-mapped page reads all-ones: go on. */
		while (now_s() < deadline) {
			gen++;
			for (unsigned int i = 0; i < nr; i++)
				page_write(&r, i, gen);
		}
		_exit(0);
	}
	close(ready[1]);
	ISGX_ASSERT_EQ(read(ready[0], &c, 1), 1, "a victim could not build its enclave");
	close(ready[0]);
	return pid;
}

/*
 * Lose power at @point of the pager while two processes page enclaves
 * larger than half the EPC; this process holds one initialised enclave
 * and one being built.  Then: SIGBUS and SGX_POWER_LOST_ENCLAVE
 * everywhere, everything freed once they go, and a new 2x-EPC enclave
 * works through eviction and reload.
 */
static void power_loss_case(const char *point)
{
	int fd = isgx_test_start(PARAMS), status;
	struct sgx_secinfo si = { .flags = SGX_SECINFO_REG | SGX_SECINFO_R };
	static uint8_t page[SGX_PAGE_SIZE];
	struct isgx_rw_enclave mine, open_, fresh;
	char name[ISGX_RET_NAME_LEN], how[96];
	long failed = isgx_debugfs_counter("nr_ewb_failed");
	pid_t victim[2];
	uint64_t v;
	int64_t r;
	int sig;

	need_knob("power_loss_at");
	ISGX_EXPECT_EQ(isgx_param_write("power_loss_at", "later"), -EINVAL,
		       "power_loss_at=later accepted");
	build_rw(&mine, fd, 16);
	ISGX_ASSERT_EQ(isgx_rw_create(&open_, fd, 4, false), 0, "%s", isgx_enclave_error(&open_.e));
	for (int i = 0; i < 2; i++)
		victim[i] = victim_start(fd, 3 * EPC_PAGES / 4, 300);
	ISGX_ASSERT_EQ(isgx_param_write("power_loss_at", point), 0,
		       "power_loss_at=%s refused", point);
	ISGX_ASSERT(power_loss_done(120), "the pager never passed %s in 120 s", point);
	isgx_note("power lost at %s; %ld EWBs failed after it", point,
		  isgx_debugfs_counter("nr_ewb_failed") - failed);

	for (int i = 0; i < 2; i++) {
		ISGX_ASSERT_EQ(waitpid(victim[i], &status, 0), victim[i], "waitpid");
		describe(status, how, sizeof(how));
		ISGX_EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS,
			    "victim %d: %s, want killed by SIGBUS", i, how);
	}
	sig = isgx_probe_read(isgx_rw_data_page(&mine, 3), &v);
	ISGX_EXPECT_EQ(sig, SIGBUS, "reading a lost enclave: signal %d, want SIGBUS", sig);
	r = isgx_ioc_add(fd, open_.e.base + (open_.nr_data + 2) * SGX_PAGE_SIZE, page, &si, 0);
	ISGX_EXPECT_RET(r, SGX_POWER_LOST_ENCLAVE, "ADD_PAGE after power loss");
	for (int k = 0; k < 2; k++) {
		struct isgx_rw_enclave *e = k ? &open_ : &mine;

		r = isgx_ioc_destroy(fd, e->e.base);
		ISGX_EXPECT(r == 0 || r == SGX_POWER_LOST_ENCLAVE, "DESTROY of a lost enclave: %s",
			    isgx_ret_name(r, name));
		isgx_enclave_forget(&e->e);
	}
	isgx_expect_epc_all_free("after power loss and teardown", 5000);
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_va_pages"), 0, "VA pages left: %ld",
		       isgx_debugfs_counter("nr_va_pages"));
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_enclaves"), 0, "enclaves left: %ld",
		       isgx_debugfs_counter("nr_enclaves"));

	/* Life goes on: 2x the EPC, evicted and loaded back byte-exact. */
	build_rw(&fresh, fd, 2 * EPC_PAGES);
	for (uint64_t gen = 1; gen <= 2; gen++)
		for (unsigned int i = 0; i < fresh.nr_data; i++)
			page_write(&fresh, i, gen);
	for (unsigned int i = 0; i < fresh.nr_data; i++)
		ISGX_EXPECT(page_ok(&fresh, i, 2), "new enclave, page %u differs", i);
	ISGX_EXPECT_EQ(isgx_enclave_destroy(&fresh.e), 0, "destroy the new enclave");
	isgx_expect_epc_all_free("after the new enclave", 2000);
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_va_pages"), 0, "VA pages left: %ld",
		       isgx_debugfs_counter("nr_va_pages"));
	isgx_test_finish(fd);
}

ISGX_TEST(power_loss_between_eblock_and_ewb, 600)
{
	power_loss_case("eblock");
}

ISGX_TEST(power_loss_between_ewb_and_free, 600)
{
	power_loss_case("ewb");
}

/*
 * Races: a child builds an enclave of RACE_PAGES, a thread of it pages the
 * enclave, and then, after a random delay, one of the below.  The marks
 * keep kisgxswapd evicting whenever more than 64 pages are in use
 * (RACE_PARAMS), so it evicts the child's pages all along, and a
 * bystander's, whose data is checked at the end.
 */
#define RACE_PARAMS	"epc_pages=256 low_mark=192 high_mark=224"

enum race_kind {
	RACE_KILL,	/* the parent kills it with SIGKILL */
	RACE_EXIT,	/* it exits, its thread in the middle of a fault */
	RACE_FORK,	/* it forks; the child exits; its pages are intact after */
	RACE_MUNMAP,	/* it unmaps half, then all of the enclave */
	RACE_DESTROY,	/* it destroys the enclave */
	RACE_NR,
};

static const char * const race_names[] = {
	"kill -9", "exit", "fork", "munmap", "destroy",
};

#define RACE_PAGES	64

struct racer {
	struct isgx_rw_enclave *r;
	volatile unsigned long bad;
	volatile bool stop;
};

static void *racer_fn(void *arg)
{
	struct racer *t = arg;
	uint64_t gen = 0;

	while (!t->stop) {
		for (unsigned int i = 0; i < t->r->nr_data; i++) {
			if (!page_ok(t->r, i, gen))
				t->bad++;
			page_write(t->r, i, gen + 1);
		}
		gen++;
	}
	/* A whole round after the last check: every page at @gen. */
	for (unsigned int i = 0; i < t->r->nr_data; i++)
		if (!page_ok(t->r, i, gen))
			t->bad++;
	return NULL;
}

/*
 * The child's thread may fault on the enclave while DESTROY or munmap
 * takes it away (SIGBUS or SIGSEGV): then the main thread's verdict
 * counts, so the handler waits for its _exit().  A fault before any
 * teardown is a failure (4).
 */
static volatile sig_atomic_t race_teardown;

static void race_fault_fn(int sig)
{
	(void)sig;
	if (!race_teardown)
		_exit(4);
	for (;;)
		pause();
}

static void race_child(int fd, enum race_kind kind, const struct sgx_sigstruct *ss,
		       unsigned int delay_us)
{
	struct isgx_rw_enclave r;
	struct racer t = { .r = &r };
	bool signed_ = true;
	pthread_t th;
	int status;
	pid_t pid;

	if (rw_build(&r, fd, RACE_PAGES, (struct sgx_sigstruct *)ss, &signed_))
		_exit(2);
	signal(SIGBUS, race_fault_fn);
	signal(SIGSEGV, race_fault_fn);
	if (pthread_create(&th, NULL, racer_fn, &t))
		_exit(2);
	usleep(delay_us);
	switch (kind) {
	case RACE_KILL:
		pause();
		break;
	case RACE_EXIT:
		_exit(0);
	case RACE_FORK:
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			_exit(2);
		usleep(delay_us);
		/* Stop the thread after a round; it checks everything last. */
		t.stop = true;
		pthread_join(th, NULL);
		_exit(t.bad ? 1 : 0);
	case RACE_MUNMAP:
		race_teardown = 1;
		munmap(isgx_enclave_ptr(&r.e, 0), r.e.secs.size / 2);
		munmap(isgx_enclave_ptr(&r.e, 0), r.e.secs.size);
		_exit(0);
	case RACE_DESTROY:
		race_teardown = 1;
		_exit(isgx_ioc_destroy(fd, r.e.base) ? 3 : 0);
	default:
		break;
	}
	_exit(2);
}

ISGX_TEST(lifecycle_races_with_the_pager, 900)
{
	const char *opt_n = isgx_option("races"), *opt_s = isgx_option("race-seconds");
	unsigned int n = opt_n ? atoi(opt_n) : 500, done = 0, counts[RACE_NR] = {};
	double budget = opt_s ? atof(opt_s) : 90, start;
	unsigned int failures = 0, setup = 0;
	int fd = isgx_test_start(RACE_PARAMS), status;
	long evicted = isgx_debugfs_counter("nr_evicted");
	long wakes = isgx_debugfs_counter("nr_reclaim_passes");
	struct sgx_sigstruct ss;
	struct isgx_rw_enclave tmpl;
	struct bystander by;
	char how[96];
	bool signed_ = false;

	/* The SIGSTRUCT of a RACE_PAGES enclave, once: children only EINIT. */
	ISGX_ASSERT_EQ(rw_build(&tmpl, fd, RACE_PAGES, &ss, &signed_), 0, "%s",
		       isgx_enclave_error(&tmpl.e));
	ISGX_ASSERT_EQ(isgx_enclave_destroy(&tmpl.e), 0, "destroy the template");
	bystander_start(&by, fd, 32, 600, 5000);
	srand(12345);
	start = now_s();
	for (done = 0; done < n && now_s() - start < budget; done++) {
		enum race_kind kind = done % RACE_NR;
		unsigned int delay_us = rand() % 20000;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
		if (pid == 0)
			race_child(fd, kind, &ss, delay_us);
		if (kind == RACE_KILL) {
			usleep(rand() % 60000);
			kill(pid, SIGKILL);
		}
		ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
		counts[kind]++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
			setup++;
			continue;
		}
		/* kill -9 and exit have no verdict of their own. */
		if (kind != RACE_KILL && kind != RACE_EXIT &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			describe(status, how, sizeof(how));
			if (failures++ < 5)
				isgx_note("race %u (%s): %s", done, race_names[kind], how);
		}
	}
	isgx_note("%u races in %.1f s (kill -9 %u, exit %u, fork %u, munmap %u, destroy %u), "
		  "%ld pages evicted in %ld passes, %u children could not build", done,
		  now_s() - start, counts[RACE_KILL], counts[RACE_EXIT], counts[RACE_FORK],
		  counts[RACE_MUNMAP], counts[RACE_DESTROY], isgx_debugfs_counter("nr_evicted") - evicted,
		  isgx_debugfs_counter("nr_reclaim_passes") - wakes, setup);
	ISGX_EXPECT_EQ(failures, 0, "%u fork, munmap or destroy races failed (1: data lost, "
		       "3: DESTROY refused, 4: a fault before any teardown)", failures);
	ISGX_EXPECT_GE(done, 50, "only %u races ran", done);
	ISGX_EXPECT_LE(setup, done / 10, "%u of %u children could not build", setup, done);
	ISGX_EXPECT(bystander_finish(&by, how, sizeof(how)), "bystander: %s", how);
	isgx_expect_epc_all_free("after the races", 5000);
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_va_pages"), 0, "VA pages left: %ld",
		       isgx_debugfs_counter("nr_va_pages"));
	ISGX_EXPECT_EQ(isgx_debugfs_counter("nr_enclaves"), 0, "enclaves left: %ld",
		       isgx_debugfs_counter("nr_enclaves"));
	isgx_test_finish(fd);
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
