// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - the isgx debugfs counters around wsgen's measured pass.
 *
 * Every nr_* and ns_* file of /sys/kernel/debug/isgx but the gauges
 * (nr_free_pages, nr_total_pages, nr_enclaves, nr_va_pages) is a counter
 * that only grows; the differences across the measured pass are what the
 * pager did for it (kisgxswapd's work included, the build and the warm-up
 * left out).  A counter whose name ends in _max is a high-water mark: its
 * value after the pass is printed (since the module was loaded), not a
 * difference.
 */
#include "wsgen.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ISGX_DEBUGFS "/sys/kernel/debug/isgx"

static bool is_gauge(const char *name)
{
	static const char *const gauges[] = { "nr_free_pages", "nr_total_pages", "nr_enclaves",
					      "nr_va_pages" };

	for (unsigned int i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++)
		if (!strcmp(name, gauges[i]))
			return true;
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name, ((const struct counter *)b)->name);
}

int counters_read(struct counters *c)
{
	struct dirent *d;
	DIR *dir = opendir(ISGX_DEBUGFS);
	char path[sizeof(ISGX_DEBUGFS) + COUNTER_NAME_MAX + 1];
	FILE *f;

	if (!dir) {
		fprintf(stderr, "wsgen: %s: %s\n", ISGX_DEBUGFS, strerror(errno));
		return -1;
	}
	c->n = 0;
	while ((d = readdir(dir))) {
		struct counter *e;

		if ((strncmp(d->d_name, "nr_", 3) && strncmp(d->d_name, "ns_", 3)) ||
		    is_gauge(d->d_name) || strlen(d->d_name) >= COUNTER_NAME_MAX)
			continue;
		if (c->n == COUNTERS_MAX) {
			fprintf(stderr, "wsgen: more than %d isgx counters\n", COUNTERS_MAX);
			closedir(dir);
			return -1;
		}
		e = &c->c[c->n];
		snprintf(path, sizeof(path), "%s/%s", ISGX_DEBUGFS, d->d_name);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%lld", &e->value) != 1) {
			fprintf(stderr, "wsgen: %s: cannot read a number\n", path);
			if (f)
				fclose(f);
			closedir(dir);
			return -1;
		}
		fclose(f);
		strcpy(e->name, d->d_name);
		c->n++;
	}
	closedir(dir);
	qsort(c->c, c->n, sizeof(c->c[0]), cmp_name);
	return 0;
}

static const struct counter *find(const struct counters *c, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name))
			return &c->c[i];
	return NULL;
}

long long counters_diff(const struct counters *before, const struct counters *after,
			const char *name)
{
	const struct counter *b = find(before, name), *a = find(after, name);

	return a && b ? a->value - b->value : 0;
}

void counters_report(const struct counters *before, const struct counters *after,
		     const char *factors)
{
	static const char *const per_evicted[] = { "nr_etrack", "nr_ipi_rounds", "nr_ipi_cpus" };
	static const char *const names[] = { "etrack_per_evicted", "ipi_rounds_per_evicted",
					     "ipi_cpus_per_evicted" };
	long long evicted = counters_diff(before, after, "nr_evicted");

	for (unsigned int i = 0; i < after->n; i++) {
		const char *name = after->c[i].name;
		size_t len = strlen(name);
		bool is_max = len > 4 && !strcmp(name + len - 4, "_max");

		printf("metric=%s factors=%s value=%lld unit=%s\n", name, factors,
		       is_max ? after->c[i].value : counters_diff(before, after, name),
		       name[1] == 's' ? "ns" : "count");
	}
	for (unsigned int i = 0; evicted > 0 && i < sizeof(names) / sizeof(names[0]); i++)
		printf("metric=%s factors=%s value=%.5f unit=ratio\n", names[i], factors,
		       (double)counters_diff(before, after, per_evicted[i]) / evicted);
}
