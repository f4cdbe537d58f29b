// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - read the loaded module's debugfs counters and parameters
 * (counters.h).  No OpenSSL here.
 */
#include "counters.h"

#include <stdio.h>

/* A decimal number from the file @dir/@name, or -1. */
static long read_long(const char *dir, const char *name)
{
	char path[256];
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

long isgx_counter(const char *name)
{
	return read_long("/sys/kernel/debug/isgx", name);
}

long isgx_param(const char *name)
{
	return read_long("/sys/module/isgx/parameters", name);
}
