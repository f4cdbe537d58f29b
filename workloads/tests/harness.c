// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - run registered tests, each in a forked child with a timeout,
 * and report them as TAP version 13.
 *
 * A child exits 0 (pass), 1 (fail) or ISGX_EXIT_SKIP; anything else (a
 * signal, another code) is a failure with the reason stated.  The parent
 * kills a child that outlives its timeout, and the process group with it.
 * A test of a fixture with variants is one case per variant, named
 * FIXTURE.VARIANT.TEST.
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

void isgx_variant_register(struct isgx_fixture *f, struct isgx_variant *v)
{
	struct isgx_variant **tail = &f->variants;

	while (*tail)
		tail = &(*tail)->next;
	*tail = v;
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

static int run_one(struct isgx_test *t, const struct isgx_variant *v, const char *name,
		   int number, int *skipped)
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
		t->fn(v ? v->data : NULL);
		isgx_test_end();
	}
	close(pipefd[1]);
	status = wait_with_timeout(pid, t->timeout_s, &timed_out);
	n = read(pipefd[0], reason, sizeof(reason) - 1);
	reason[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);

	*skipped = 0;
	if (timed_out) {
		printf("not ok %d %s # timed out after %u s\n", number, name, t->timeout_s);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		printf("not ok %d %s # killed by signal %d (%s)\n", number, name,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == ISGX_EXIT_SKIP) {
		printf("ok %d %s # SKIP %s\n", number, name, reason[0] ? reason : "no reason given");
		*skipped = 1;
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d %s\n", number, name);
		return 0;
	}
	printf("not ok %d %s # exit status %d\n", number, name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 1;
}

/* The case's TAP name: the test's, or FIXTURE.VARIANT.TEST. */
static const char *case_name(const struct isgx_test *t, const struct isgx_variant *v,
			     char *buf, size_t len)
{
	if (!v)
		return t->name;
	snprintf(buf, len, "%s.%s.%s", t->fixture->name, v->name, t->name);
	return buf;
}

struct selection {
	const char *filter;	/* --filter: the test's name or the case's */
	const char *variant;	/* --variant: the variant's name */
};

static bool selected(const struct selection *sel, const struct isgx_test *t,
		     const struct isgx_variant *v, const char *name)
{
	if (v && sel->variant && fnmatch(sel->variant, v->name, 0))
		return false;
	return !sel->filter || !fnmatch(sel->filter, t->name, 0) ||
	       !fnmatch(sel->filter, name, 0);
}

/* One case: returns < 0 to stop. */
typedef int visit_fn(struct isgx_test *t, const struct isgx_variant *v, const char *name,
		     void *arg);

/*
 * Visit the selected cases in order: a test without variants where it
 * stands; at the first test of a fixture with variants, every variant
 * and, for each, all the tests of that fixture.  @visit NULL: only count.
 * Returns the number of cases visited, or < 0 if @visit stopped.
 */
static int visit_cases(const struct selection *sel, visit_fn *visit, void *arg)
{
	char buf[256];
	struct isgx_test *t, *u;
	struct isgx_variant *v;
	int nr = 0;

	for (t = tests; t; t = t->next) {
		struct isgx_fixture *f = t->fixture;

		if (!f || !f->variants) {
			if (!selected(sel, t, NULL, t->name))
				continue;
			if (visit && visit(t, NULL, t->name, arg) < 0)
				return -1;
			nr++;
			continue;
		}
		/* Already run at the fixture's first test? */
		for (u = tests; u != t && u->fixture != f; u = u->next)
			;
		if (u != t)
			continue;
		for (v = f->variants; v; v = v->next) {
			for (u = t; u; u = u->next) {
				const char *name;

				if (u->fixture != f)
					continue;
				name = case_name(u, v, buf, sizeof(buf));
				if (!selected(sel, u, v, name))
					continue;
				if (visit && visit(u, v, name, arg) < 0)
					return -1;
				nr++;
			}
		}
	}
	return nr;
}

struct run_state {
	int number, nr_fail, nr_skip;
};

static int run_case(struct isgx_test *t, const struct isgx_variant *v, const char *name,
		    void *arg)
{
	struct run_state *st = arg;
	int skipped, r;

	r = run_one(t, v, name, ++st->number, &skipped);
	if (r < 0) {
		printf("Bail out! cannot fork: %s\n", strerror(errno));
		return -1;
	}
	st->nr_fail += r;
	st->nr_skip += skipped;
	return 0;
}

static int list_case(struct isgx_test *t, const struct isgx_variant *v, const char *name,
		     void *arg)
{
	(void)t;
	(void)v;
	(void)arg;
	printf("%s\n", name);
	return 0;
}

/* Does --variant=@glob name a variant of some fixture? */
static bool variant_exists(const char *glob)
{
	struct isgx_test *t;
	struct isgx_variant *v;

	for (t = tests; t; t = t->next)
		for (v = t->fixture ? t->fixture->variants : NULL; v; v = v->next)
			if (!fnmatch(glob, v->name, 0))
				return true;
	return false;
}

int isgx_harness_main(int argc, char **argv)
{
	struct run_state st = { 0 };
	struct selection sel;
	bool list = false;
	int nr, i;

	opt_argc = argc;
	opt_argv = argv;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s [--filter=GLOB] [--variant=GLOB] [--list] [--OPTION=VALUE...]\n",
			       argv[0]);
			return 0;
		}
		if (!strcmp(argv[i], "--list"))
			list = true;
	}
	sel.filter = isgx_option("filter");
	sel.variant = isgx_option("variant");
	/* A misspelt variant would leave its fixture's tests out, silently. */
	if (sel.variant && !variant_exists(sel.variant)) {
		fprintf(stderr, "%s: --variant=%s matches no variant\n", argv[0], sel.variant);
		return 2;
	}
	if (list)
		return visit_cases(&sel, list_case, NULL) < 0;

	nr = visit_cases(&sel, NULL, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", nr);
	if (visit_cases(&sel, run_case, &st) < 0)
		return 1;
	printf("# Totals: pass:%d fail:%d skip:%d\n", nr - st.nr_fail - st.nr_skip, st.nr_fail,
	       st.nr_skip);
	printf("%d passed, %d failed, %d skipped\n", nr - st.nr_fail - st.nr_skip, st.nr_fail,
	       st.nr_skip);
	return st.nr_fail ? 1 : 0;
}
