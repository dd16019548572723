/* SPDX-License-Identifier: MIT */
/* sysgate_gpu_int.h - internal to the GPU host runtime (gpu/). */
#ifndef SYSGATE_GPU_INT_H
#define SYSGATE_GPU_INT_H

#define SG_NR_LIMIT 1024

/* pointer-spec kinds */
#define PS_BUF 1	/* arg points at len bytes in any registered range */
#define PS_STR 2	/* NUL-terminated string inside one range */
#define PS_LENPTR 4	/* len is *(socklen_t *)arg[len_arg] */
#define PS_MAPPED 8	/* must lie in a range the GPU itself mmap()ed */
#define PS_ADVISE 16	/* user or mmap()ed range, never the staging area */
#define PS_NULLOK 32	/* NULL is allowed */
#define PS_BULK 64	/* may also be registered device memory (bounce copy) */
#define PS_FIXMAP 128	/* with MAP_FIXED (arg 3): inside the GPU's own mmaps */

struct sg_ptrspec {
	signed char arg;	/* -1: end */
	signed char len_arg;	/* -1: use fixed */
	unsigned short fixed;
	unsigned char kind;
};

struct sg_sysent {
	long nr;
	const char *name;
	unsigned char cls;	/* enum sysgate_gpu_class */
	unsigned char role;	/* SG_ROLE_* */
	unsigned char uring;	/* io_uring can run it */
	unsigned char block;	/* may wait on another party for ever (pipes,
				 * sockets, FIFOs, sleeps): runs on its own
				 * worker and is interrupted on cancel */
	struct sg_ptrspec ptr[3];
	const char *why;	/* refused classes */
};

extern const struct sg_sysent sg_systab[];
extern const unsigned sg_systab_len;
const struct sg_sysent *sg_lookup(long nr);

#endif
