/* SPDX-License-Identifier: MIT */
/*
 * For arches whose SIGSYS/SIGTRAP path has no trampoline for RAW calls
 * (clone, clone3, vfork: let through as the program made them, see
 * x86-64's signal_arch.h) and no second ABI in one process.
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

#endif
