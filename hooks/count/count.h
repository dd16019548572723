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

/* One record per call number (one cache line): a process's few dozen
 * distinct calls touch a few pages of the shared table, not one page per
 * column (each first touch of a shared page is a fault, ~3 us).  Times
 * come in two units: nanoseconds (CPU time of calls that may sleep, or
 * the clock where there is no usable counter) and sysgate_ticks(), whose
 * rate the summary learns from the table's anchor. */
struct count_row {
	unsigned long calls;
	unsigned long errors;
	unsigned long ns;
	unsigned long min_ns1;	/* shortest + 1; 0: none */
	unsigned long max_ns;
	unsigned long ticks;
	unsigned long min_ticks1;
	unsigned long max_ticks;
};

struct count_table {
	/* bit nr: row[nr] was written, so that the summary reads only the
	 * pages the tree touched */
	unsigned long used[SYSGATE_NR_MAX / (8 * sizeof(unsigned long))];
	/* sysgate_now_ns() and sysgate_ticks() read together by the first
	 * process with a counter; with a pair read at the summary they give
	 * the ticks' rate over the whole run */
	unsigned long long anchor_ticks, anchor_ns;
	struct count_row row[SYSGATE_NR_MAX];
};

#define COUNT_TABLE_NAME "count/table"
/* The summary's columns (strace's -U names, and -S keys with "nothing"). */
enum count_col {
	COL_PERCENT, COL_TOTAL, COL_MIN, COL_MAX, COL_AVG, COL_CALLS,
	COL_ERRORS, COL_NAME, COL_NOTHING, COL_N
};

struct count_format {
	const char *sortby;	/* -S, NULL: time */
	const char *columns;	/* -U, NULL: strace's default */
	int wall;		/* -w: the times are wall-clock times */
	int json;
};

/* -S KEY (and its aliases): the column, or -1. */
int count_sort_key(const char *v, unsigned long n);
/* -U LIST: 0, or -1 for an unknown column. */
int count_check_columns(const char *v);

/* Writes strace's summary table (or one JSON object) into buf; returns its
 * length. */
unsigned long count_summary(const struct count_table *t,
			    const struct count_format *o, char *buf,
			    unsigned long cap);

#endif
