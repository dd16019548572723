/* SPDX-License-Identifier: MIT */
/*
 * The RAW protocol between the dispatcher, entry.S and core/process.c.
 * A RAW call carries one info word below each stack it returns on: the
 * system call number, what the child needs, and a magic tag so a stray
 * value is never trusted.
 */
#ifndef SG_DISPATCH_H
#define SG_DISPATCH_H

#define SG_RAW_NR_MASK	  0xffffUL
#define SG_RAW_NEWCHILD	  0x10000UL	/* a child returns here too */
#define SG_RAW_VFORK	  0x20000UL	/* child borrows the caller's stack */
#define SG_RAW_NOCB	  0x40000UL	/* no callbacks (made inside a hook) */
#define SG_RAW_HOOKTHREAD 0x80000UL	/* child is a hook's own thread */
#define SG_RAW_THREAD	  0x100000UL	/* CLONE_THREAD: same process */
#define SG_RAW_SAME_TLS	  0x200000UL	/* CLONE_VM without CLONE_SETTLS */
#define SG_RAW_SIGHAND	  0x400000UL	/* CLONE_SIGHAND: same signal actions */
#define SG_RAW_FORK	  0x800000UL	/* no CLONE_VM, a stack of its own */
#define SG_RAW_THREADREC  0x1000000UL	/* the caller's record is its
					   thread's raw_rec[] (dispatch.c), */
#define SG_RAW_REC_SHIFT  25		/* that one */
#define SG_RAW_REC_MASK	  (3UL << SG_RAW_REC_SHIFT)
#define SG_RAW_MAGIC	  (0x5347UL << 48)
#define SG_RAW_MAGIC_MASK (0xffffUL << 48)

static inline int sg_raw_info_valid(unsigned long info)
{
	return (info & SG_RAW_MAGIC_MASK) == SG_RAW_MAGIC;
}

/* Calls that must run at the program's own stack pointer (RAW). */
static inline int sg_raw_only(long nr)
{
	return nr == SG_NR_rt_sigreturn || nr == SG_NR_vfork ||
	       nr == SG_NR_clone || nr == SG_NR_clone3;
}

static inline int sg_noreturn(long nr)
{
	return nr == SG_NR_exit || nr == SG_NR_exit_group ||
	       nr == SG_NR_rt_sigreturn;
}

/* 0 if the call runs normally, else the info word for a RAW call; sets
 * *child_sp to the stack a clone child will start on (0 if it shares the
 * caller's). */
unsigned long sg_raw_info(struct sg_thread *t, struct sysgate_sys *s,
			  int ran, unsigned long *child_sp) SG_HIDDEN;
/* In a new child of a RAW clone/vfork: give it its own state. */
struct sg_thread *sg_raw_child_setup(unsigned long info) SG_HIDDEN;
/* The child of fork or of clone without CLONE_VM (a copy of the process). */
void sg_process_forked(struct sg_thread *t) SG_HIDDEN;

#endif
