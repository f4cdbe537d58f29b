/* SPDX-License-Identifier: GPL-2.0 */
/* kmodule.h - load and unload kernel modules from guest tests. */
#ifndef ISGX_KMODULE_H
#define ISGX_KMODULE_H

#include <stdbool.h>

/* true inside a guest booted by qemu/run (isgx.out= on its command line). */
bool isgx_in_guest(void);
/* finit_module(@path, @params); returns 0 or -errno; -EPERM outside the guest. */
int isgx_module_load(const char *path, const char *params);
/* delete_module(@name, O_NONBLOCK); returns 0 or -errno. */
int isgx_module_unload(const char *name);
/* true when /sys/module/@name exists. */
bool isgx_module_loaded(const char *name);
/* The isgx.ko under test: --ko=PATH, else $ISGX_KO; NULL when neither. */
const char *isgx_ko_path(void);

#endif /* ISGX_KMODULE_H */
