// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: module init/exit, module parameters and the /dev/sgx misc device.
 *
 * The device node is created by devtmpfs/udev from the misc device; its
 * mode comes from the @dev_mode parameter, read once at load time.  The 2016 driver made the node world read/write; the
 * default here is 0600 (root only) and an administrator widens it on
 * purpose.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static ushort dev_mode = 0600;
module_param(dev_mode, ushort, 0444);
MODULE_PARM_DESC(dev_mode, "Mode of /dev/sgx at load time (default 0600, at most 0666)");

static int isgx_open(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations isgx_fops = {
	.owner = THIS_MODULE,
	.open = isgx_open,
	.llseek = noop_llseek,
};

static struct miscdevice isgx_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "sgx",
	.fops = &isgx_fops,
	.mode = 0600,
};

static int __init isgx_init(void)
{
	int ret;

	if (dev_mode & ~0666) {
		pr_err("dev_mode %#o has bits outside 0666\n", dev_mode);
		return -EINVAL;
	}
	isgx_misc.mode = dev_mode;
	ret = misc_register(&isgx_misc);
	if (ret) {
		pr_err("cannot register /dev/sgx: %d\n", ret);
		return ret;
	}
	return 0;
}

static void __exit isgx_exit(void)
{
	misc_deregister(&isgx_misc);
}

module_init(isgx_init);
module_exit(isgx_exit);

MODULE_DESCRIPTION("SGX1 driver with a batched EPC pager and a software ENCLS model");
MODULE_AUTHOR("isgx developers");
MODULE_LICENSE("GPL");
