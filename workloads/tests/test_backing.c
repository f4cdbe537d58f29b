// SPDX-License-Identifier: GPL-2.0
/*
 * test_backing.c - guest tests of the enclave backing store (the shmem
 * file that holds evicted pages): it is charged to the memory cgroup of
 * the enclave's creator, whichever thread evicts, and a page loaded back
 * gives its backing up.
 *
 *	test_backing --ko=PATH/isgx.ko --key=PATH/signing_key.pem
 *
 * The cgroup tests mount cgroup2 at /sys/fs/cgroup when the guest has not
 * (the guest's init does not), and skip on a kernel without the memory
 * controller.  Their enclaves are made by an unprivileged child (uid
 * 1000, /dev/sgx made 0666 by dev_mode) that the test moved into a group
 * of its own.  A memory cgroup OOM kill prints a report with a call
 * trace: the test announces the group in the kernel log first, and
 * qemu/check-log accepts the call trace of an OOM report of that group
 * only.
 */
#define _GNU_SOURCE
#include "enclave.h"
#include "harness.h"
#include "sgx_guest.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EPC_PAGES	256
#define WORDS		(SGX_PAGE_SIZE / 8)
#define CGROOT		"/sys/fs/cgroup"
#define CHILD_UID	1000
/* Shmem that may come and go in the guest besides the test's own. */
#define SLACK_KB	256
/*
 * The same while the pages go: both counters have per-CPU parts that
 * reach them late (memcg stats up to 64 pages a CPU, and in batches).
 */
#define STAT_SLACK_KB	4096

/* Shmem of /proc/meminfo in KiB. */
static long shmem_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	ISGX_ASSERT(f, "/proc/meminfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Shmem: %ld kB", &kb) == 1)
			break;
	fclose(f);
	ISGX_ASSERT_GE(kb, 0, "no Shmem line in /proc/meminfo");
	return kb;
}

/* Wait up to @ms for Shmem to come within @max_kb; return the last value. */
static long shmem_kb_wait_below(long max_kb, unsigned int ms)
{
	long kb = shmem_kb();

	for (unsigned int t = 0; kb > max_kb && t < ms; t += 20) {
		usleep(20000);
		kb = shmem_kb();
	}
	return kb;
}

static int file_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The value after "@key " in a flat-keyed cgroup file, or -1. */
static long cg_key(const char *group, const char *file, const char *key)
{
	char path[256], name[64];
	long v = -1, n;
	FILE *f;

	snprintf(path, sizeof(path), CGROOT "/%s/%s", group, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", name, &n) == 2)
		if (!strcmp(name, key))
			v = n;
	fclose(f);
	return v;
}

/*
 * A new memory cgroup @group under the root with memory.max @max and no
 * swap (where swap is accounted); skips without cgroup2 or its memory
 * controller.
 */
static void cg_create(const char *group, const char *max)
{
	char path[256], ctrl[256] = "";
	FILE *f;
	int ret;

	if (access(CGROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
		isgx_skip("cannot mount cgroup2: %s", strerror(errno));
	f = fopen(CGROOT "/cgroup.controllers", "r");
	if (f) {
		if (!fgets(ctrl, sizeof(ctrl), f))
			ctrl[0] = 0;
		fclose(f);
	}
	if (!strstr(ctrl, "memory"))
		isgx_skip("the kernel has no memory cgroup controller");
	ret = file_write(CGROOT "/cgroup.subtree_control", "+memory");
	ISGX_ASSERT(!ret, "enable the memory controller: %s", strerror(-ret));
	snprintf(path, sizeof(path), CGROOT "/%s", group);
	ISGX_ASSERT(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), CGROOT "/%s/memory.max", group);
	ret = file_write(path, max);
	ISGX_ASSERT(!ret, "%s = %s: %s", path, max, strerror(-ret));
	snprintf(path, sizeof(path), CGROOT "/%s/memory.swap.max", group);
	if (!access(path, F_OK)) {
		ret = file_write(path, "0");
		ISGX_ASSERT(!ret, "%s = 0: %s", path, strerror(-ret));
	}
}

/* Remove @group once its last task is gone (its charges may outlive it). */
static void cg_remove(const char *group)
{
	char path[256];
	int i;

	snprintf(path, sizeof(path), CGROOT "/%s", group);
	for (i = 0; i < 100 && rmdir(path) && errno == EBUSY; i++)
		usleep(20000);
	ISGX_EXPECT(access(path, F_OK), "%s stays: %s", path, strerror(errno));
}

/*
 * In a forked child: join @group, drop root, open /dev/sgx and create an
 * enclave of at least @nr_pages pages.  Returns the fd; exits 2 on error.
 */
static int child_enter(const char *group, unsigned int nr_pages, uint64_t *base)
{
	struct sgx_secs secs;
	char path[256], pid[32];
	uint64_t size = 2 * SGX_PAGE_SIZE;
	int64_t ret;
	int fd;

	snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs", group);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (file_write(path, pid) || setgid(CHILD_UID) || setuid(CHILD_UID)) {
		dprintf(STDOUT_FILENO, "# child: cannot join %s as uid %d\n", group, CHILD_UID);
		_exit(2);
	}
	fd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		dprintf(STDOUT_FILENO, "# child: open /dev/sgx as uid %d: %s\n", CHILD_UID,
			strerror(errno));
		_exit(2);
	}
	while (size < (uint64_t)nr_pages * SGX_PAGE_SIZE)
		size <<= 1;
	isgx_secs_init(&secs, size, SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG);
	ret = isgx_ioc_create(fd, &secs, base);
	if (ret) {
		dprintf(STDOUT_FILENO, "# child: CREATE of %llu bytes: %lld\n",
			(unsigned long long)size, (long long)ret);
		_exit(2);
	}
	return fd;
}

/* In the child: ADD_PAGE @nr REG pages from page @first, or exit 3. */
static void child_add(int fd, uint64_t base, unsigned int first, unsigned int nr)
{
	static uint64_t page[WORDS] __attribute__((aligned(4096)));
	static const struct sgx_secinfo si __attribute__((aligned(64))) = {
		.flags = SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W,
	};

	for (unsigned int i = first; i < first + nr; i++) {
		int64_t ret;

		page[0] = i;
		ret = isgx_ioc_add(fd, base + (uint64_t)i * SGX_PAGE_SIZE, page, &si,
				   SGX_ADD_SKIP_EEXTEND);
		if (ret) {
			dprintf(STDOUT_FILENO, "# child: ADD_PAGE %u: %lld\n", i, (long long)ret);
			_exit(3);
		}
	}
}

/* The module with a small EPC and /dev/sgx open to the unprivileged child. */
static int start(void)
{
	char params[64];

	snprintf(params, sizeof(params), "epc_pages=%d dev_mode=0666", EPC_PAGES);
	return isgx_test_start(params);
}

/*
 * Backing written by kisgxswapd (no group) and by the child's own direct
 * reclaim alike is charged to the child's group: the group's shmem is the
 * whole growth of the system's Shmem.
 */
ISGX_TEST(backing_charged_to_creators_group, 600)
{
	const char *group = "isgx-backing-charge";
	const unsigned int nr = 16 * EPC_PAGES;
	int fd, ready[2], go[2], status;
	long before, grown, charged;
	char c = 0;
	pid_t pid;

	cg_create(group, "max");
	fd = start();
	ISGX_ASSERT(!pipe(ready) && !pipe(go), "pipe");
	before = shmem_kb();
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork");
	if (pid == 0) {
		uint64_t base;
		int efd = child_enter(group, nr, &base);

		child_add(efd, base, 0, nr);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		_exit(0);
	}
	ISGX_ASSERT_EQ(read(ready[0], &c, 1), 1, "the child did not add its pages");
	grown = shmem_kb() - before;
	charged = cg_key(group, "memory.stat", "shmem") / 1024;
	isgx_note("%u pages added at an EPC of %d: Shmem grew by %ld KiB, %ld KiB of it charged to %s",
		  nr, EPC_PAGES, grown, charged, group);
	ISGX_EXPECT_GE(grown, (long)(nr - EPC_PAGES) * 4, "Shmem grew by %ld KiB only", grown);
	ISGX_EXPECT_GE(charged, grown - SLACK_KB,
		       "the group was charged %ld KiB of %ld KiB of backing", charged, grown);
	ISGX_ASSERT_EQ(write(go[1], &c, 1), 1, "wake the child");
	ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	ISGX_EXPECT(WIFEXITED(status) && !WEXITSTATUS(status), "child status %#x", status);
	isgx_expect_epc_all_free("after the child exited", 2000);
	isgx_test_finish(fd);
	cg_remove(group);
}

/*
 * 256 MiB of enclave pages at an EPC of 1 MiB with memory.max=64M: the
 * backing outgrows the group, whose OOM killer kills the child; the
 * backing does not spill into the rest of the system, neither while the
 * child runs nor after.
 */
ISGX_TEST(backing_oom_kills_inside_group, 900)
{
	const char *group = "isgx-backing-oom";
	const unsigned int nr = 65536;
	long kills, before, after, most_outside = 0;
	int fd, status;
	pid_t pid, ret;

	cg_create(group, "64M");
	fd = start();
	kills = cg_key(group, "memory.events", "oom_kill");
	ISGX_ASSERT_GE(kills, 0, "no oom_kill in %s/memory.events", group);
	ISGX_ASSERT(!file_write("/dev/kmsg", "isgx-test: expect memcg OOM in /isgx-backing-oom\n"),
		    "announce the OOM in the kernel log");
	before = shmem_kb();
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork");
	if (pid == 0) {
		uint64_t base;
		int efd = child_enter(group, nr, &base);

		child_add(efd, base, 0, nr);
		_exit(0);
	}
	/*
	 * Meanwhile, Shmem that the group is not charged with: Shmem is read
	 * first, so a charge made between the two reads only lowers it.
	 */
	while ((ret = waitpid(pid, &status, WNOHANG)) == 0) {
		long outside = shmem_kb() - before;

		outside -= cg_key(group, "memory.stat", "shmem") / 1024;
		most_outside = outside > most_outside ? outside : most_outside;
		usleep(50000);
	}
	ISGX_ASSERT_EQ(ret, pid, "waitpid: %s", strerror(errno));
	kills = cg_key(group, "memory.events", "oom_kill") - kills;
	after = shmem_kb_wait_below(before + SLACK_KB, 5000);
	isgx_note("child status %#x, %ld OOM kills in %s; Shmem outside it at most %+ld KiB, %+ld KiB after it",
		  status, kills, group, most_outside, after - before);
	ISGX_EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		    "the child was not killed (status %#x): its backing outgrew 64M unnoticed",
		    status);
	ISGX_EXPECT_GE(kills, 1, "no OOM kill in the group");
	ISGX_EXPECT_LE(most_outside, STAT_SLACK_KB,
		       "up to %ld KiB of Shmem were not charged to the group", most_outside);
	ISGX_EXPECT_LE(after, before + SLACK_KB, "Shmem stays %+ld KiB after the enclave went",
		       after - before);
	isgx_expect_epc_all_free("after the child was killed", 5000);
	isgx_test_finish(fd);
	cg_remove(group);
}

/* The enclave of test_pager.c: one TCS, one SSA page and @nr RW pages. */
static void build_rw(struct isgx_enclave *e, int fd, unsigned int nr, uint64_t tag)
{
	static uint64_t page[WORDS] __attribute__((aligned(4096)));
	struct sgx_tcs *tcs = (void *)page;
	uint64_t size = 2 * SGX_PAGE_SIZE;
	struct sgx_sigstruct ss;
	struct sgx_secs secs;

	while (size < (uint64_t)(nr + 2) * SGX_PAGE_SIZE)
		size <<= 1;
	isgx_secs_init(&secs, size, SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG);
	ISGX_ASSERT_EQ(isgx_enclave_create(e, fd, &secs), 0, "%s", isgx_enclave_error(e));
	memset(page, 0, sizeof(page));
	tcs->ossa = SGX_PAGE_SIZE;
	tcs->nssa = 1;
	tcs->fslimit = 0xfff;
	tcs->gslimit = 0xfff;
	ISGX_ASSERT_EQ(isgx_enclave_add(e, 0, page, SGX_SECINFO_TCS, SGX_ADD_SKIP_EEXTEND), 0,
		       "%s", isgx_enclave_error(e));
	memset(page, 0, sizeof(page));
	for (unsigned int i = 0; i <= nr; i++) {
		page[0] = tag + i;
		ISGX_ASSERT(isgx_enclave_add(e, (uint64_t)(i + 1) * SGX_PAGE_SIZE, page,
					     SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W,
					     SGX_ADD_SKIP_EEXTEND) == 0,
			    "add %u: %s", i, isgx_enclave_error(e));
	}
	ISGX_ASSERT_EQ(isgx_enclave_sign(e, isgx_test_key(), &ss), 0, "%s", isgx_enclave_error(e));
	ISGX_ASSERT_EQ(isgx_enclave_init(e, &ss, NULL), 0, "%s", isgx_enclave_error(e));
}

/* Read word 0 of every data page of @e (loading the evicted ones); bad pages. */
static unsigned int touch_all(struct isgx_enclave *e, unsigned int nr, uint64_t tag)
{
	unsigned int bad = 0;

	for (unsigned int i = 1; i <= nr; i++) {
		uint64_t *p = isgx_enclave_ptr(e, (uint64_t)(i + 1) * SGX_PAGE_SIZE);

		bad += *p != tag + i;
	}
	return bad;
}

/*
 * An enclave whose pages were all evicted (by a larger one, destroyed
 * since) and then loaded back holds no backing any more: Shmem comes
 * back to where it was before it was evicted.
 */
ISGX_TEST(backing_freed_after_load_back, 600)
{
	const unsigned int nr = EPC_PAGES - 56, big_nr = 3 * EPC_PAGES;
	struct isgx_enclave small = {}, big = {};
	long before, evicted, after;
	int fd = start();

	before = shmem_kb();
	build_rw(&small, fd, nr, 1000);
	build_rw(&big, fd, big_nr, 5000);
	ISGX_EXPECT_EQ(touch_all(&big, big_nr, 5000), 0, "big enclave contents");
	ISGX_EXPECT_EQ(isgx_enclave_destroy(&big), 0, "destroy big");
	/* The big enclave's backing goes with its file, maybe a moment later. */
	evicted = shmem_kb_wait_below(before + (nr + 64) * 4 + SLACK_KB, 2000) - before;
	isgx_note("%u pages of the small enclave out: Shmem %+ld KiB", nr, evicted);
	ISGX_ASSERT_GE(evicted, (long)nr * 4 * 3 / 4, "the small enclave was not evicted (%ld KiB)",
		       evicted);
	ISGX_EXPECT_EQ(touch_all(&small, nr, 1000), 0, "small enclave contents after load back");
	after = shmem_kb_wait_below(before + SLACK_KB, 2000);
	isgx_note("all back: Shmem %+ld KiB (%ld KiB of it freed)", after - before,
		  before + evicted - after);
	ISGX_EXPECT_LE(after, before + SLACK_KB,
		       "Shmem stays %+ld KiB after every page was loaded back", after - before);
	ISGX_EXPECT_EQ(isgx_enclave_destroy(&small), 0, "destroy small");
	isgx_expect_epc_all_free("after destroy", 2000);
	isgx_test_finish(fd);
}

/* memory.current of @group in bytes, or -1. */
static long cg_current(const char *group)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), CGROOT "/%s/memory.current", group);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * A victim whose backing cannot be read in stays usable.  The child (uid
 * 1000, in a group of its own, unkillable by its OOM killer so that a
 * charge over the limit fails instead of killing) builds an enclave that
 * fits the EPC and touches every page; then its group's memory.max is set
 * to 0, so that no backing page can be charged to it, and the
 * parent builds an enclave of 2x the EPC: the pager takes victims from
 * both, and the child's fail.  With the limit lifted again, the child
 * reads every page back.  A victim that was EBLOCKed before its backing
 * was read would stay BLOCKED and be mapped again, and the access would
 * fault on a CPU: the model fails that fault with SIGSEGV
 * (nr_blocked_access).
 */
ISGX_TEST(backing_failure_leaves_victims_usable, 900)
{
	const char *group = "isgx-backing-fail";
	const unsigned int nr = EPC_PAGES / 2, big_nr = 2 * EPC_PAGES;
	long failed, blocked, cur;
	struct isgx_enclave big = {};
	int fd, ready[2], go[2], status, ret;
	char c = 0, path[256];
	pid_t pid;

	cg_create(group, "max");
	fd = start();
	isgx_test_key();	/* read as root, before the child drops it */
	failed = isgx_debugfs_counter("nr_backing_failed");
	blocked = isgx_debugfs_counter("nr_blocked_access");
	ISGX_ASSERT(failed >= 0 && blocked >= 0, "no nr_backing_failed/nr_blocked_access counters");
	ISGX_ASSERT(!file_write("/dev/kmsg", "isgx-test: expect memcg OOM in /isgx-backing-fail\n"),
		    "announce the OOM reports in the kernel log");
	ISGX_ASSERT(!pipe(ready) && !pipe(go), "pipe");
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork");
	if (pid == 0) {
		struct isgx_enclave e = {};
		char self[32];
		int efd;

		close(ready[0]);
		close(go[1]);
		snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs", group);
		snprintf(self, sizeof(self), "%d", getpid());
		/* After setuid(), which clears it: gone with a failed parent. */
		if (file_write(path, self) || file_write("/proc/self/oom_score_adj", "-1000") ||
		    setgid(CHILD_UID) || setuid(CHILD_UID) ||
		    prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
			_exit(2);
		efd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
		if (efd < 0)
			_exit(2);
		build_rw(&e, efd, nr, 1000);
		/* Every PTE and page table made now: nothing to charge later. */
		if (touch_all(&e, nr, 1000))
			_exit(3);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		_exit(touch_all(&e, nr, 1000) ? 5 : 0);
	}
	close(ready[1]);
	close(go[0]);
	ISGX_ASSERT_EQ(read(ready[0], &c, 1), 1, "the child did not build its enclave");
	/*
	 * Below anything it can shrink to: the write reclaims what it can,
	 * and every charge fails from here.
	 */
	snprintf(path, sizeof(path), CGROOT "/%s/memory.max", group);
	ret = file_write(path, "0");
	ISGX_ASSERT(!ret, "%s = 0: %s", path, strerror(-ret));
	cur = cg_current(group);
	build_rw(&big, fd, big_nr, 5000);
	ISGX_EXPECT_EQ(touch_all(&big, big_nr, 5000), 0, "big enclave contents");
	ret = file_write(path, "max");
	ISGX_ASSERT(!ret, "%s = max: %s", path, strerror(-ret));
	failed = isgx_debugfs_counter("nr_backing_failed") - failed;
	ISGX_ASSERT_EQ(write(go[1], &c, 1), 1, "wake the child");
	ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	blocked = isgx_debugfs_counter("nr_blocked_access") - blocked;
	isgx_note("memory.max=0 over %ld bytes in use: %ld victims without backing; child status %#x, %ld faults on blocked pages",
		  cur, failed, status, blocked);
	ISGX_EXPECT_GE(failed, 1, "no backing read failed: the test did not test anything");
	ISGX_EXPECT_EQ(blocked, 0, "faults found pages the pager left BLOCKED");
	ISGX_EXPECT(WIFEXITED(status) && !WEXITSTATUS(status),
		    "child status %#x (signal %d): its pages were not all usable and intact",
		    status, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ISGX_EXPECT_EQ(touch_all(&big, big_nr, 5000), 0, "big enclave contents after");
	ISGX_EXPECT_EQ(isgx_enclave_destroy(&big), 0, "destroy big");
	isgx_expect_epc_all_free("after both enclaves", 5000);
	isgx_test_finish(fd);
	cg_remove(group);
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
