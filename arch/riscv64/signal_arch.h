/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction on rv64: no sa_restorer (the kernel
 * returns through the vDSO's rt_sigreturn). */
#ifndef SG_SIGNAL_ARCH_H
#define SG_SIGNAL_ARCH_H

struct sg_kact {
	unsigned long handler;
	unsigned long flags;
	unsigned long mask;
};

#define SG_SA_RESTORER 0UL
static inline void sg_kact_set_restorer(struct sg_kact *k, unsigned long r)
{
	(void)k;
	(void)r;
}

/* Where a RAW rt_sigreturn is made: sysgate's own text (entry.S). */
extern char sg_rv_raw_sigreturn[];
static inline unsigned long sg_arch_restorer(void)
{
	return (unsigned long)sg_rv_raw_sigreturn;
}

/* (no list of the program's calls here: the same trampoline) */
static inline unsigned long sg_arch_own_restorer(void)
{
	return sg_arch_restorer();
}

static inline unsigned long sg_arch_raw_sigreturn(void)
{
	return sg_arch_restorer();
}

/* struct ucontext: flags, link, stack (24 bytes), sigmask (128 bytes,
 * the kernel's is padded to 1024 bits), then mcontext: pc, x1..x31. */
#define SG_UC_MCONTEXT 176	/* 40 + 128, aligned to 16 */

static inline unsigned long *sg_arch_uc_reg(void *uc, int i)
{
	return (unsigned long *)((char *)uc + SG_UC_MCONTEXT) + i;
}

/* The interrupted code's stack pointer. */
static inline unsigned long sg_arch_uc_sp(void *uc)
{
	return *sg_arch_uc_reg(uc, 2);
}

/* Where a handler of the interrupted code's own would run natively: below
 * its stack pointer (x2; no red zone). */
static inline unsigned long sg_arch_uc_stack_top(void *uc)
{
	return sg_arch_uc_sp(uc) & ~15UL;
}

/* The signal stack the kernel puts back when the handler returns (struct
 * ucontext's uc_stack, after uc_flags and uc_link). */
static inline void *sg_arch_uc_stack(void *uc)
{
	return (char *)uc + 16;
}

/* The mask the kernel puts back when the handler returns (uc_sigmask). */
static inline unsigned long *sg_arch_uc_sigmask(void *uc)
{
	return (unsigned long *)((char *)uc + 40);
}

static inline unsigned long *sg_arch_uc_pc(void *uc)
{
	return sg_arch_uc_reg(uc, 0);
}

static inline void sg_arch_uc_syscall_args(void *uc, long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		a[i] = *sg_arch_uc_reg(uc, 10 + i);
}

static inline void sg_arch_uc_set_result(void *uc, long ret)
{
	*sg_arch_uc_reg(uc, 10) = ret;
}

/* The result register in a ucontext. */
static inline long *sg_arch_uc_result_reg(void *uc)
{
	return (long *)sg_arch_uc_reg(uc, 10);
}

/* The ucontext of the signal frame an rt_sigreturn made at stack
 * pointer sp restores (struct rt_sigframe: the siginfo, then the ucontext). */
static inline void *sg_arch_sigreturn_uc(unsigned long sp)
{
	return (void *)(sp + 128);
}

/* si_code of a breakpoint trap (TRAP_BRKPT). */
#define SG_TRAP_SI_CODE 1
/* ebreak reports its own address. */
#define SG_TRAP_PC_BACK 0

static inline void sg_arch_uc_restart_syscall(void *uc, long nr)
{
	*sg_arch_uc_reg(uc, 17) = nr;
	*sg_arch_uc_pc(uc) -= 4;
}

/* RAW calls caught by a signal are let through; one ABI only. */
#include "signal_noraw.h"

#endif
