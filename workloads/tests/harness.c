// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - run registered tests, each in a forked child with a timeout,
 * and report them as TAP version 13.
 *
 * A child exits 0 (pass), 1 (fail) or ISGX_EXIT_SKIP; anything else (a
 * signal, another code) is a failure with the reason stated.  The parent
 * kills a child that outlives its timeout, and the process group with it.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ISGX_EXIT_SKIP 4

static struct isgx_test *tests, **tests_tail = &tests;
static bool test_has_failed;
static int opt_argc;
static char **opt_argv;

void isgx_test_register(struct isgx_test *t)
{
	*tests_tail = t;
	tests_tail = &t->next;
}

void isgx_note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* The failure line: "# FILE:LINE: " @head, then ": " and the message if any. */
static void report_failure(const char *file, int line, const char *head, const char *fmt,
			   va_list ap)
{
	printf("# %s:%d: %s", file, line, head);
	if (fmt[0]) {
		if (head[0])
			fputs(": ", stdout);
		vprintf(fmt, ap);
	}
	fputc('\n', stdout);
	fflush(stdout);
	test_has_failed = true;
}

void isgx_test_failed(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_failure(file, line, "", fmt, ap);
	va_end(ap);
}

void isgx_test_cmp_failed(const char *file, int line, const char *lhs, const char *op,
			  const char *rhs, const char *lval, const char *rval,
			  const char *fmt, ...)
{
	char head[512];
	va_list ap;

	snprintf(head, sizeof(head), "expected %s (%s) %s %s (%s)", lhs, lval, op, rhs, rval);
	va_start(ap, fmt);
	report_failure(file, line, head, fmt, ap);
	va_end(ap);
}

void isgx_val_signed(char *buf, long long v)
{
	snprintf(buf, ISGX_VAL_LEN, "%lld", v);
}

/* Large unsigned values (sizes, offsets, masks) read better in hex too. */
void isgx_val_unsigned(char *buf, unsigned long long v)
{
	if (v < 4096)
		snprintf(buf, ISGX_VAL_LEN, "%llu", v);
	else
		snprintf(buf, ISGX_VAL_LEN, "%llu = %#llx", v, v);
}

void isgx_val_float(char *buf, long double v)
{
	snprintf(buf, ISGX_VAL_LEN, "%Lg", v);
}

void isgx_skip(const char *fmt, ...)
{
	va_list ap;
	FILE *f = fdopen(3, "w");

	/* The reason goes to the parent through fd 3, for the TAP line. */
	if (f) {
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
		fclose(f);
	}
	fflush(stdout);
	_exit(ISGX_EXIT_SKIP);
}

void isgx_test_end(void)
{
	fflush(stdout);
	_exit(test_has_failed ? 1 : 0);
}

const char *isgx_option(const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < opt_argc; i++) {
		const char *a = opt_argv[i];

		if (!strncmp(a, "--", 2) && !strncmp(a + 2, name, n) && a[2 + n] == '=')
			return a + 3 + n;
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait for @pid at most @timeout_s seconds; on timeout kill its process
 * group.  Returns the wait status, and sets *timed_out.
 */
static int wait_with_timeout(pid_t pid, unsigned int timeout_s, bool *timed_out)
{
	double deadline = now_s() + timeout_s;
	int status = 0;

	*timed_out = false;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_s() > deadline) {
			*timed_out = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return status;
		}
		usleep(2000);
	}
}

static int run_one(struct isgx_test *t, int number, int *skipped)
{
	char reason[256] = "";
	bool timed_out;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		close(pipefd[0]);
		if (pipefd[1] != 3) {
			dup2(pipefd[1], 3);
			close(pipefd[1]);
		}
		t->fn();
		isgx_test_end();
	}
	close(pipefd[1]);
	status = wait_with_timeout(pid, t->timeout_s, &timed_out);
	n = read(pipefd[0], reason, sizeof(reason) - 1);
	reason[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);

	*skipped = 0;
	if (timed_out) {
		printf("not ok %d %s # timed out after %u s\n", number, t->name, t->timeout_s);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		printf("not ok %d %s # killed by signal %d (%s)\n", number, t->name,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == ISGX_EXIT_SKIP) {
		printf("ok %d %s # SKIP %s\n", number, t->name, reason[0] ? reason : "no reason given");
		*skipped = 1;
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d %s\n", number, t->name);
		return 0;
	}
	printf("not ok %d %s # exit status %d\n", number, t->name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 1;
}

int isgx_harness_main(int argc, char **argv)
{
	const char *filter = NULL;
	int nr = 0, nr_fail = 0, nr_skip = 0, number = 0;
	struct isgx_test *t;
	int i;

	opt_argc = argc;
	opt_argv = argv;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s [--filter=GLOB] [--list] [--OPTION=VALUE...]\n", argv[0]);
			return 0;
		}
		if (!strcmp(argv[i], "--list")) {
			for (t = tests; t; t = t->next)
				printf("%s\n", t->name);
			return 0;
		}
	}
	filter = isgx_option("filter");

	for (t = tests; t; t = t->next)
		if (!filter || !fnmatch(filter, t->name, 0))
			nr++;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", nr);
	for (t = tests; t; t = t->next) {
		int skipped, r;

		if (filter && fnmatch(filter, t->name, 0))
			continue;
		r = run_one(t, ++number, &skipped);
		if (r < 0) {
			printf("Bail out! cannot fork: %s\n", strerror(errno));
			return 1;
		}
		nr_fail += r;
		nr_skip += skipped;
	}
	printf("# Totals: pass:%d fail:%d skip:%d\n", nr - nr_fail - nr_skip, nr_fail, nr_skip);
	printf("%d passed, %d failed, %d skipped\n", nr - nr_fail - nr_skip, nr_fail, nr_skip);
	return nr_fail ? 1 : 0;
}
