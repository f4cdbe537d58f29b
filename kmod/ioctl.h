/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: the /dev/sgx ioctl entry point. */
#ifndef _ISGX_IOCTL_H
#define _ISGX_IOCTL_H

#include <linux/fs.h>

long isgx_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _ISGX_IOCTL_H */
