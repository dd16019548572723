/* SPDX-License-Identifier: MIT */
/* The bypass hook's list (--bypass=LIST), shared with sysgate hot's
 * advice. */
#ifndef SG_BYPASS_H
#define SG_BYPASS_H

#include <stddef.h>

#define BYPASS_PREAD 0x1
#define BYPASS_READ  0x2
#define BYPASS_IDS   0x4
#define BYPASS_UNAME 0x8
#define BYPASS_WLOG  0x10	/* opt-in, relaxed: not in "all" */
#define BYPASS_FILES 0x100	/* internal: fd tracking for pread/read */
#define BYPASS_DEFAULT (BYPASS_PREAD | BYPASS_READ | BYPASS_IDS)

/* "pread,read,ids,uname,wlog" or "all"; empty means the default.  Returns 0,
 * or -1 for an unknown item. */
int bypass_parse_list(const char *s, size_t n, unsigned int *mask);
/* Filesystems whose read() is the page cache a shared mapping shows (not
 * FUSE, NFS, procfs or sysfs, which make their data on demand). */
int bypass_mappable_fs(long f_type);

#endif
