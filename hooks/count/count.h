/* SPDX-License-Identifier: MIT */
/*
 * The count hook's table, kept in memory shared by the whole hooked
 * process tree ("count/table" in SYSGATE_STATE), and strace's -c summary
 * of it.  The summary code is linked into the CLI, which prints it once
 * every process has ended.
 */
#ifndef SG_COUNT_H
#define SG_COUNT_H

#include "sysgate.h"

struct count_table {
	unsigned long calls[SYSGATE_NR_MAX];
	unsigned long errors[SYSGATE_NR_MAX];
	unsigned long ns[SYSGATE_NR_MAX];
};

#define COUNT_TABLE_NAME "count/table"
/* -S keys, checked by the option parser and used by the summary. */
#define COUNT_SORT_KEYS "time", "calls", "errors", "name", "nothing"

/* Writes strace's summary table (or one JSON object) into buf; returns its
 * length.  sortby: "time" (default), "calls", "errors", "name",
 * "nothing". */
unsigned long count_summary(const struct count_table *t, const char *sortby,
			    int json, char *buf, unsigned long cap);

#endif
