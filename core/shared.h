/* SPDX-License-Identifier: MIT */
/* Layout of the SYSGATE_STATE file; the CLI reads it too. */
#ifndef SG_SHARED_H
#define SG_SHARED_H

#define SG_SHARED_MAGIC 0x53475354u	/* "SGST" */
#define SG_SHARED_SIZE (4UL << 20)	/* at most; less under RLIMIT_AS */
#define SG_SHARED_MIN (64UL << 10)
#define SG_SHARED_DIR 32
#define SG_SHARED_NAME 48

struct sg_shared_ent {
	char name[SG_SHARED_NAME];
	unsigned long off, size;
};

struct sg_shared_hdr {
	unsigned int magic;
	unsigned int lock;
	unsigned long size, used;
	unsigned int ndir;
	unsigned int counter_steady;	/* 0 not asked, 1 yes, 2 no: the
					   CPU's answer, once per tree */
	unsigned int out_errno;		/* the first error a write of the
					   output got (ENOSPC...): the CLI
					   says so at the end, as strace */
	struct sg_shared_ent dir[SG_SHARED_DIR];
};

/* The region named "hook/name" in a mapped state file, or NULL. */
void *sg_shared_find(void *base, const char *name);

#endif
