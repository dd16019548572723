/* SPDX-License-Identifier: MIT */
/*
 * Per-thread sysgate state lives behind the GS base: the first word of
 * struct sg_thread points to itself, so %gs:0 yields it in one load.
 * glibc and the kernel's x86-64 ABI leave GS to the program, and programs
 * almost never use it; arch_prctl(ARCH_SET_GS) by the program is refused
 * (see core/process.c).  The kernel copies the GS base into new threads
 * and children; sysgate gives each new thread its own state.
 */
#ifndef SG_THREAD_ARCH_H
#define SG_THREAD_ARCH_H

#define SG_ARCH_SET_GS 0x1001
#define SG_ARCH_SET_FS 0x1002
#define SG_ARCH_GET_FS 0x1003
#define SG_ARCH_GET_GS 0x1004

extern int sg_have_fsgsbase SG_HIDDEN;
/* Without FSGSBASE, sg_self() reads %gs:0 unchecked (a system call would
 * tell whether GS is set): a thread without a state has GS point at this
 * null word, never at 0. */
extern const unsigned long sg_no_self SG_HIDDEN;

static inline unsigned long sg_thread_reg(void)
{
	unsigned long v;

	if (likely(sg_have_fsgsbase)) {
		__asm__ volatile("rdgsbase %0" : "=r"(v));
		return v;
	}
	if (sg_sc2(SG_NR_arch_prctl, SG_ARCH_GET_GS, (long)&v) < 0)
		return 0;
	return v;
}

/*
 * Does stopped tracee tid run sysgate (for a tracer sysgate runs in,
 * core/tracer.c)?  Its GS base is set: sysgate's thread state, or the
 * program's own use of GS, which sysgate refuses.  PTRACE_GETREGS; gs_base
 * is word 22 of struct user_regs_struct.
 */
static inline int sg_tracee_runs_sysgate(int tid)
{
	unsigned long regs[27];

	return sg_sc4(SG_NR_ptrace, 12 /* PTRACE_GETREGS */, tid, 0,
		      (long)regs) == 0 && regs[22] != 0;
}

static inline unsigned long sg_thread_owner(void)
{
	unsigned long v = 0;

	if (likely(sg_have_fsgsbase))
		__asm__ volatile("rdfsbase %0" : "=r"(v));
	return v;
}

/*
 * The low bit of the GS base says "a thread made now is a hook's own"
 * (sg_thread_hooks_mark): the kernel copies GS into every new thread, so
 * a thread made by a clone sysgate did not see (let through by syscall
 * user dispatch, core/sud.c) still learns, at its first entry, whether
 * its creator was a hook's thread or inside a hook callback -- then, not
 * by the time it first enters, when its creator may be elsewhere or
 * gone.  Only with FSGSBASE, where setting GS costs no system call.
 */
#define SG_THREAD_HOOKS 1UL

static inline int sg_thread_hooks_markable(void)
{
	return sg_have_fsgsbase;
}

/* (t is the caller's state) */
static inline void sg_thread_hooks_mark(struct sg_thread *t, int on)
{
	if (!sg_have_fsgsbase)
		return;	/* (no mark: see sg_thread_hooks_markable) */
	unsigned long v = (unsigned long)t | (on ? SG_THREAD_HOOKS : 0);

	__asm__ volatile("wrgsbase %0" : : "r"(v) : "memory");
}

/* A thread without a state: was its creator's GS marked? */
static inline int sg_thread_hooks_inherited(void)
{
	return sg_have_fsgsbase && (sg_thread_reg() & SG_THREAD_HOOKS);
}

/*
 * The current thread's state, or NULL if it has none yet.  A thread made
 * by a clone sysgate did not see inherits its creator's GS base; its own
 * FS base (TLS) tells it apart, so it gets a state of its own instead of
 * sharing one.  Without FSGSBASE (kernels before 5.9, old CPUs) both
 * checks would cost system calls, so there every thread must already
 * have a state: sysgate gives one to each thread it sees created.
 */
static inline struct sg_thread *sg_self(void)
{
	struct sg_thread *t;

	if (likely(sg_have_fsgsbase)) {
		unsigned long fs;

		/* Both reads first: they overlap rather than wait on the
		 * test between them. */
		__asm__ volatile("rdgsbase %0" : "=r"(t));
		fs = sg_thread_owner();
		t = (struct sg_thread *)((unsigned long)t & ~SG_THREAD_HOOKS);
		if (unlikely(!t))
			return 0;
		/* (in loader mode FS is sysgate's own while hooks run) */
		if (unlikely(t->owner != fs) && (!t->hook_tp || t->hook_tp != fs))
			return 0;
		return t;
	}
	__asm__ volatile("mov %%gs:0, %0" : "=r"(t));
	return t;
}

static inline void sg_set_self(struct sg_thread *t)
{
	if (t)
		t->owner = sg_thread_owner();
	if (likely(sg_have_fsgsbase))
		__asm__ volatile("wrgsbase %0" : : "r"(t) : "memory");
	else
		sg_sc2(SG_NR_arch_prctl, SG_ARCH_SET_GS,
		       t ? (long)t : (long)&sg_no_self);
}

/* A new thread that kept its creator's TLS base: GS is per thread, so
 * nothing is shared. */
static inline void sg_thread_share_owner(struct sg_thread *parent,
					 struct sg_thread *child)
{
	(void)parent;
	sg_set_self(child);
}

/*
 * Loader mode: the runtime's own thread-local variables (a hook's
 * __thread) are reached through FS, which belongs to the program, so FS
 * points at sysgate's TLS block for the thread while hooks run, and back
 * after.  Returns the base it replaced.
 */
static inline unsigned long sg_arch_swap_tls(unsigned long tp)
{
	unsigned long old;

	if (likely(sg_have_fsgsbase)) {
		__asm__ volatile("rdfsbase %0" : "=r"(old));
		__asm__ volatile("wrfsbase %0" : : "r"(tp) : "memory");
		return old;
	}
	sg_sc2(SG_NR_arch_prctl, SG_ARCH_GET_FS, (long)&old);
	sg_sc2(SG_NR_arch_prctl, SG_ARCH_SET_FS, tp);
	return old;
}

/* Does another sysgate's runtime hold this process (sysgate under
 * sysgate, asked by the inner CLI)?  Its thread state is our GS base:
 * 1 yes, 0 no, -1 unknown (the caller reads its maps).  RDGSBASE is the
 * sure answer; arch_prctl's is the program's view, which an outer
 * runtime keeps at 0. */
static inline int sg_self_runs_sysgate(unsigned long hwcap2)
{
	unsigned long v = 0;

	if (hwcap2 & 2) {	/* FSGSBASE */
		__asm__ volatile("rdgsbase %0" : "=r"(v));
		return v != 0;
	}
	return sg_sc2(SG_NR_arch_prctl, SG_ARCH_GET_GS, (long)&v) == 0 && v ?
	       1 : -1;
}

/* 0, or -1 when another copy of sysgate (or the program) owns GS. */
static inline int sg_thread_arch_init(unsigned long hwcap2)
{
#ifdef SG_TEST_NO_FSGSBASE
	/* (a test build: OPT='-O2 -DSG_TEST_NO_FSGSBASE' runs the path for
	 * CPUs and kernels without FSGSBASE) */
	hwcap2 &= ~2UL;
#endif
	sg_have_fsgsbase = (hwcap2 & 2) != 0;
	return sg_have_fsgsbase && sg_thread_reg() ? -1 : 0;
}

#endif
