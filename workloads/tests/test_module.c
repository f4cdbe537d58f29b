// SPDX-License-Identifier: GPL-2.0
/*
 * test_module.c - guest tests of the module's life cycle: it loads, creates
 * /dev/sgx with the right type and mode, refuses bad parameters, and leaves
 * nothing behind when unloaded, also over repeated cycles.
 *
 * Run as root inside the guest: test_module --ko=PATH/isgx.ko
 */
#define _GNU_SOURCE
#include "harness.h"
#include "kmodule.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

/* Load isgx.ko with @params into a clean state, or end the test. */
static void load(const char *params)
{
	const char *ko = isgx_ko_path();
	int ret;

	if (!ko)
		isgx_skip("no module given (--ko=PATH or ISGX_KO)");
	if (!isgx_in_guest())
		isgx_skip("not inside a qemu/run guest: never load modules on the host");
	if (isgx_module_loaded("isgx"))
		ISGX_ASSERT_EQ(isgx_module_unload("isgx"), 0, "stale isgx could not be unloaded");
	ret = isgx_module_load(ko, params);
	ISGX_ASSERT_EQ(ret, 0, "loading %s with '%s' failed: %s", ko, params, strerror(-ret));
}

static void unload(void)
{
	int ret = isgx_module_unload("isgx");

	ISGX_ASSERT_EQ(ret, 0, "unload failed: %s", strerror(-ret));
}

/* /sys/class/isgx/sgx/dev as major:minor, or -1 when absent. */
static int sysfs_devt(unsigned int *major_out, unsigned int *minor_out)
{
	FILE *f = fopen("/sys/class/isgx/sgx/dev", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%u:%u", major_out, minor_out);
	fclose(f);
	return n == 2 ? 0 : -1;
}

static void expect_gone(void)
{
	struct stat st;
	unsigned int ma, mi;

	ISGX_EXPECT(!isgx_module_loaded("isgx"), "/sys/module/isgx still exists");
	ISGX_EXPECT(stat("/dev/sgx", &st) && errno == ENOENT, "/dev/sgx still exists");
	ISGX_EXPECT(sysfs_devt(&ma, &mi) < 0, "/sys/class/isgx/sgx still exists");
}

ISGX_TEST(module_loads, 60)
{
	load(NULL);
	ISGX_EXPECT(isgx_module_loaded("isgx"), "/sys/module/isgx missing after load");
	unload();
}

ISGX_TEST(dev_node_is_char_0600_root, 60)
{
	unsigned int ma, mi;
	struct stat st;

	load(NULL);
	ISGX_ASSERT_EQ(stat("/dev/sgx", &st), 0, "stat /dev/sgx: %s", strerror(errno));
	ISGX_EXPECT(S_ISCHR(st.st_mode), "/dev/sgx is not a character device");
	ISGX_EXPECT_EQ((st.st_mode & 07777), 0600, "mode %04o, want 0600", st.st_mode & 07777);
	ISGX_EXPECT(st.st_uid == 0 && st.st_gid == 0, "owner %u:%u, want 0:0",
		    st.st_uid, st.st_gid);
	ISGX_ASSERT_EQ(sysfs_devt(&ma, &mi), 0, "/sys/class/isgx/sgx/dev missing");
	ISGX_EXPECT(major(st.st_rdev) == ma && minor(st.st_rdev) == mi,
		    "/dev/sgx is %u:%u but sysfs says %u:%u",
		    major(st.st_rdev), minor(st.st_rdev), ma, mi);
	unload();
}

ISGX_TEST(dev_open_as_root, 60)
{
	int fd;

	load(NULL);
	fd = open("/dev/sgx", O_RDWR | O_CLOEXEC);
	ISGX_EXPECT_GE(fd, 0, "open /dev/sgx: %s", strerror(errno));
	if (fd >= 0) {
		/* An open file pins the module. */
		int ret = isgx_module_unload("isgx");

		ISGX_EXPECT(ret == -EWOULDBLOCK || ret == -EBUSY,
			    "unload with /dev/sgx open: got '%s', want EBUSY",
			    ret ? strerror(-ret) : "success");
		close(fd);
	}
	unload();
}

ISGX_TEST(dev_mode_parameter, 60)
{
	struct stat st;
	int ret;

	load("dev_mode=0660");
	ISGX_ASSERT_EQ(stat("/dev/sgx", &st), 0, "stat /dev/sgx: %s", strerror(errno));
	ISGX_EXPECT_EQ((st.st_mode & 07777), 0660, "mode %04o, want 0660", st.st_mode & 07777);
	unload();

	/* Bits outside 0666 are refused, not masked. */
	ret = isgx_module_load(isgx_ko_path(), "dev_mode=04755");
	ISGX_EXPECT_EQ(ret, -EINVAL, "dev_mode=04755: got %s, want EINVAL", strerror(-ret));
	expect_gone();
}

ISGX_TEST(dev_gid_parameter, 60)
{
	struct stat st;
	int ret;

	load("dev_mode=0660 dev_gid=4321");
	ISGX_ASSERT_EQ(stat("/dev/sgx", &st), 0, "stat /dev/sgx: %s", strerror(errno));
	ISGX_EXPECT_EQ(st.st_gid, 4321, "group %u, want 4321", st.st_gid);
	ISGX_EXPECT_EQ(st.st_uid, 0, "owner %u, want 0", st.st_uid);
	ISGX_EXPECT_EQ((st.st_mode & 07777), 0660, "mode %04o, want 0660", st.st_mode & 07777);
	unload();

	/* (gid_t)-1 is no group: refused. */
	ret = isgx_module_load(isgx_ko_path(), "dev_gid=4294967295");
	ISGX_EXPECT_EQ(ret, -EINVAL, "dev_gid=4294967295: got %s, want EINVAL", strerror(-ret));
	expect_gone();
}

ISGX_TEST(dev_refused_to_non_root, 60)
{
	pid_t pid;
	int status;

	load(NULL);
	pid = fork();
	ISGX_ASSERT_GE(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (setgid(1000) || setuid(1000))
			_exit(2);
		_exit(open("/dev/sgx", O_RDWR) < 0 && errno == EACCES ? 0 : 1);
	}
	ISGX_ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	ISGX_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "uid 1000 could open /dev/sgx (or setuid failed), status %#x", status);
	unload();
}

ISGX_TEST(unload_leaves_nothing, 60)
{
	load(NULL);
	unload();
	expect_gone();
}

ISGX_TEST(load_unload_20_cycles, 600)
{
	struct stat st;
	int i;

	for (i = 0; i < 20; i++) {
		load(NULL);
		ISGX_ASSERT_EQ(stat("/dev/sgx", &st), 0, "cycle %d: no /dev/sgx", i);
		unload();
		ISGX_ASSERT(stat("/dev/sgx", &st) && errno == ENOENT,
			    "cycle %d: /dev/sgx left behind", i);
	}
	expect_gone();
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
