/* SPDX-License-Identifier: MIT */
/*
 * The hot hook's table (sysgate hot), kept in memory shared by the hooked
 * process tree ("hot/sites" in SYSGATE_STATE); the CLI reads it when the
 * tree has ended, resolves symbols and prints the report.
 */
#ifndef SG_HOT_H
#define SG_HOT_H

#define HOT_TABLE_NAME "hot/sites"
#define HOT_SITES 2048		/* a power of two */
#define HOT_MODS 256
#define HOT_PATH 256
#define HOT_BUCKETS 64

/* Userspace Bypass's thresholds (ub/zz_lkm/stat.c). */
#define HOT_SHORT_NS 1300
#define HOT_CALLS 900
#define HOT_WINDOW 30000
#define HOT_WINDOW_NS 1000000000UL

/* What a site's fd argument names, sampled on the first call and every
 * HOT_FD_SAMPLE-th: one site (a libc wrapper) serves many fds. */
enum {
	HOT_FD_MAPPABLE,	/* regular file the bypass can map */
	HOT_FD_FILE,		/* other regular file */
	HOT_FD_SOCKET, HOT_FD_PIPE, HOT_FD_CHAR, HOT_FD_OTHER,
	HOT_FD_KINDS
};
#define HOT_FD_SAMPLE 256

struct hot_site {
	unsigned long key;	/* pc and pid mixed; 0 when free */
	unsigned long pc;
	unsigned long file_off;	/* pc as an offset in the module's file */
	unsigned long calls;
	unsigned long shorts;	/* calls after a gap under short_ns */
	unsigned int win_short;	/* short calls in the current window */
	unsigned int hot_windows;	/* windows in which the site was hot */
	int pid;
	int nr;
	int mod;		/* index + 1 in mods, 0 unknown */
	unsigned int fdkinds[HOT_FD_KINDS];	/* sampled calls' fds, by
						   HOT_FD_* */
	unsigned int gaps[HOT_BUCKETS];
};


struct hot_table {
	unsigned long short_ns, hot_calls, window;
	unsigned int nmods, full;	/* full: sites that found no slot */
	char mods[HOT_MODS][HOT_PATH];
	struct hot_site sites[HOT_SITES];
};

/* Bucket b's range of gaps in ns: [lo, lo + width). */
static inline void hot_bucket_range(int b, unsigned long *lo,
				    unsigned long *width)
{
	int msb = 6 + (b - 4) / 4;

	if (b < 4) {
		*lo = b * 16UL;
		*width = 16;
		return;
	}
	*width = 1UL << (msb - 2);
	*lo = (4UL + (b - 4) % 4) << (msb - 2);
}

#endif
