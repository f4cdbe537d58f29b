/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel types kmod/lru.c uses, for its host build (replay.c). */
#ifndef ISGX_SHIM_LINUX_TYPES_H
#define ISGX_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t u32;

#endif
