// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: module init/exit, module parameters and the /dev/sgx device.
 *
 * /dev/sgx is a character device of class "isgx".  Its node's mode and
 * group come from the @dev_mode and @dev_gid parameters, read once at load
 * time, through the device type's devnode callback (which devtmpfs and udev
 * both honour).  The 2016 driver made the node world read/write; here the
 * default is 0600 owned by root, and an administrator widens it on purpose,
 * for example dev_mode=0660 dev_gid=<the sgx group>.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "compat.h"
#include "encl.h"
#include "encls.h"
#include "epc.h"
#include "ioctl.h"
#include "pager.h"
#include "stats.h"
#include "va.h"

static ushort dev_mode = 0600;
module_param(dev_mode, ushort, 0444);
MODULE_PARM_DESC(dev_mode, "Mode of /dev/sgx at load time (default 0600, at most 0666)");

static uint dev_gid;
module_param(dev_gid, uint, 0444);
MODULE_PARM_DESC(dev_gid, "Group of /dev/sgx at load time (default 0, root)");

static const struct file_operations isgx_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = isgx_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = isgx_mmap,
	.get_unmapped_area = isgx_get_unmapped_area,
	.llseek = noop_llseek,
};

static char *isgx_devnode(ISGX_DEVNODE_CONST struct device *dev, umode_t *mode,
			  kuid_t *uid, kgid_t *gid)
{
	if (mode)
		*mode = dev_mode;
	if (gid)
		*gid = make_kgid(&init_user_ns, dev_gid);
	return NULL;
}

static const struct device_type isgx_dev_type = {
	.name = "isgx",
	.devnode = isgx_devnode,
};

static struct class *isgx_class;
static struct cdev isgx_cdev;
static struct device isgx_dev;
static dev_t isgx_devt;

static void isgx_dev_release(struct device *dev)
{
	/* isgx_dev is static: nothing to free. */
}

static int isgx_dev_add(void)
{
	int ret;

	ret = alloc_chrdev_region(&isgx_devt, 0, 1, "sgx");
	if (ret)
		return ret;
	isgx_class = isgx_class_create("isgx");
	if (IS_ERR(isgx_class)) {
		ret = PTR_ERR(isgx_class);
		goto err_region;
	}
	device_initialize(&isgx_dev);
	isgx_dev.devt = isgx_devt;
	isgx_dev.class = isgx_class;
	isgx_dev.type = &isgx_dev_type;
	isgx_dev.release = isgx_dev_release;
	ret = dev_set_name(&isgx_dev, "sgx");
	if (ret)
		goto err_dev;
	cdev_init(&isgx_cdev, &isgx_fops);
	isgx_cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&isgx_cdev, &isgx_dev);
	if (ret)
		goto err_dev;
	return 0;

err_dev:
	put_device(&isgx_dev);
	class_destroy(isgx_class);
err_region:
	unregister_chrdev_region(isgx_devt, 1);
	return ret;
}

static void isgx_dev_del(void)
{
	cdev_device_del(&isgx_cdev, &isgx_dev);
	put_device(&isgx_dev);
	class_destroy(isgx_class);
	unregister_chrdev_region(isgx_devt, 1);
}

static int __init isgx_init(void)
{
	int ret;

	/* Refuse, never mask: a silently narrowed mode is a surprise. */
	if (dev_mode & ~0666) {
		pr_err("dev_mode %#o has bits outside 0666\n", dev_mode);
		return -EINVAL;
	}
	if (!gid_valid(make_kgid(&init_user_ns, dev_gid))) {
		pr_err("dev_gid %u is not a valid group\n", dev_gid);
		return -EINVAL;
	}

	ret = isgx_encls_init();
	if (ret)
		return ret;
	ret = isgx_epc_init();
	if (ret)
		goto err_encls;
	ret = isgx_proc_init();
	if (ret)
		goto err_epc;
	ret = isgx_pager_init();
	if (ret)
		goto err_epc;
	isgx_stats_init();
	ret = isgx_dev_add();
	if (ret) {
		pr_err("cannot create /dev/sgx: %d\n", ret);
		goto err_pager;
	}
	if (!isgx_encls_hw)
		isgx_emu_set_power_loss_notify(isgx_encl_power_loss);
	return 0;

err_pager:
	isgx_stats_exit();
	isgx_pager_exit();
err_epc:
	isgx_epc_exit();
err_encls:
	isgx_encls_exit();
	return ret;
}

static void __exit isgx_exit(void)
{
	if (!isgx_encls_hw)
		isgx_emu_set_power_loss_notify(NULL);
	isgx_dev_del();
	isgx_stats_exit();
	isgx_pager_exit();
	isgx_va_exit();
	isgx_epc_exit();
	isgx_encls_exit();
}

module_init(isgx_init);
module_exit(isgx_exit);

MODULE_DESCRIPTION("SGX1 driver with a batched EPC pager and a software ENCLS model");
MODULE_AUTHOR("isgx developers");
MODULE_LICENSE("GPL");
