/* SPDX-License-Identifier: MIT */
/*
 * For arches whose SIGSYS/SIGTRAP path has no trampoline for RAW calls
 * (clone, clone3, vfork: let through as the program made them, see
 * x86-64's signal_arch.h), no second ABI in one process, no trap flag a
 * program can set, and no breakpoint that stands for a call the
 * program's own syscall user dispatch takes (core/psud.c: its prctl goes
 * to the kernel here).
 */
#ifndef SG_SIGNAL_NORAW_H
#define SG_SIGNAL_NORAW_H

#define SG_ARCH_TRAP_RAW 0
static inline void sg_arch_uc_trap_raw(void *uc, const long a[6],
				       unsigned long info,
				       unsigned long child_sp)
{
	(void)uc; (void)a; (void)info; (void)child_sp;
}

static inline int sg_arch_uc_compat_call(void *uc, long nr)
{
	(void)uc;
	(void)nr;
	return -1;
}

#define SG_STEP_SI_CODE (-1)
static inline void sg_arch_uc_step_off(void *uc)
{
	(void)uc;
}

static inline int sg_arch_uc_step_on(void *uc)
{
	(void)uc;
	return 0;
}

static inline int sg_arch_saves_flags_at(unsigned long pc)
{
	(void)pc;
	return 0;
}

#define SG_ARCH_PSUD 0
static inline unsigned long sg_arch_psud_trap(void)
{
	return 0;
}

static inline void sg_arch_uc_at_syscall(void *uc, unsigned long next)
{
	(void)uc;
	(void)next;
}

#endif
