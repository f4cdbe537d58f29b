// SPDX-License-Identifier: GPL-2.0
/* kmodule.c - load and unload kernel modules through the raw syscalls. */
#define _GNU_SOURCE
#include "kmodule.h"
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

bool isgx_in_guest(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/cmdline", "r");
	bool in = false;

	if (f) {
		in = fgets(buf, sizeof(buf), f) && strstr(buf, "isgx.out=");
		fclose(f);
	}
	return in;
}

int isgx_module_load(const char *path, const char *params)
{
	int fd, ret;

	/* A safety net: the module must never be loaded into the work machine. */
	if (!isgx_in_guest())
		return -EPERM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

int isgx_module_unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

bool isgx_module_loaded(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return stat(path, &st) == 0;
}

const char *isgx_ko_path(void)
{
	const char *p = isgx_option("ko");

	return p ? p : getenv("ISGX_KO");
}
