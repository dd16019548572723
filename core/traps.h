/* SPDX-License-Identifier: MIT */
/* The table of breakpoint sites (core/traps.c): written by the patch
 * family's mechanisms, read by their SIGTRAP handler and, in another
 * process, by a tracer sysgate runs in. */
#ifndef SG_TRAPS_H
#define SG_TRAPS_H

/* The name of the table's memfd, as /proc/PID/maps shows it. */
#define SG_TRAPS_NAME "sysgate-traps"

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

#endif
