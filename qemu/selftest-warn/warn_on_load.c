// SPDX-License-Identifier: GPL-2.0
/*
 * warn_on_load: a module whose only job is a real WARN() when it loads, so
 * that qemu/selftest can check that a kernel warning fails a guest run.
 * Built for the guest by qemu/selftest; never part of isgx.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init warn_on_load_init(void)
{
	WARN(1, "warn_on_load: deliberate warning for the runner's self-test\n");
	return 0;
}

static void __exit warn_on_load_exit(void)
{
}

module_init(warn_on_load_init);
module_exit(warn_on_load_exit);
MODULE_DESCRIPTION("Deliberate WARN for the isgx runner self-test");
MODULE_LICENSE("GPL");
