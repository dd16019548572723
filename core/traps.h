/* SPDX-License-Identifier: MIT */
/* The table of breakpoint sites (core/traps.c): written by the patch
 * family's mechanisms, read by their SIGTRAP handler and, in another
 * process, by a tracer sysgate runs in. */
#ifndef SG_TRAPS_H
#define SG_TRAPS_H

/* The table's first page, read-only (a mapping of its own: anonymous,
 * r--p, one page): this mark and its own address.  The table follows. */
#define SG_TRAPS_NAME "sysgate-traps"
#define SG_TRAPS_HEAD 4096UL
struct sg_traps_head {
	char mark[16];
	unsigned long self;
};

/* A breakpoint at addr resumes at resume: 0, or -1 (no room). */
int sg_traps_add(unsigned long addr, unsigned long resume) SG_HIDDEN;
/* Where a breakpoint at site resumes, or 0 if it is not ours. */
unsigned long sg_traps_find(unsigned long site) SG_HIDDEN;
/* A single-step trap, in_stub if at a stub's code: 1 if it was sysgate's
 * to take (core/traps.c). */
int sg_step_trap(void *uc, int in_stub) SG_HIDDEN;
/* How many breakpoints there are. */
unsigned long sg_traps_count(void) SG_HIDDEN;
/* Is site a breakpoint of the sysgate in process pid, whose table is at
 * table there (one of its breakpoints, not a debugger's)? */
int sg_traps_of(int pid, unsigned long table, unsigned long site) SG_HIDDEN;
/* The table of process pid whose header may be the page at head (an
 * anonymous read-only page of its maps), or 0. */
unsigned long sg_traps_at(int pid, unsigned long head) SG_HIDDEN;

#endif
