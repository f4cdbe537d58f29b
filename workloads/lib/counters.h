/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the loaded module's numbers as user space reads them: its
 * debugfs counters (/sys/kernel/debug/isgx/, root only) and its module
 * parameters (/sys/module/isgx/parameters/).  README, "Observability" and
 * "Module parameters", say what each one means.
 */
#ifndef ISGX_COUNTERS_H
#define ISGX_COUNTERS_H

/* The debugfs counter @name (e.g. "nr_evicted"), or -1 if unreadable. */
long isgx_counter(const char *name);

/* The numeric module parameter @name (e.g. "low_mark"), or -1. */
long isgx_param(const char *name);

#endif /* ISGX_COUNTERS_H */
