/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction on aarch64 (asm-generic, with
 * sa_restorer: the kernel returns from a handler through x30 = restorer). */
#ifndef SG_SIGNAL_ARCH_H
#define SG_SIGNAL_ARCH_H

/* struct ucontext: flags, link, stack (24 bytes), sigmask (128 bytes, the
 * kernel's is padded to 1024 bits), then at 176 struct sigcontext:
 * fault_address, regs[31], sp, pc, pstate. */
#define SG_UC_REGS 184
#define SG_UC_PC 440
/* The signal frame the kernel builds: siginfo, then the ucontext. */
#define SG_SIGFRAME_UC 128

#ifndef __ASSEMBLER__
#include "kact_restorer.h"

/* Our own rt_sigreturn trampoline (entry.S), for actions sysgate
 * installs where the program gave none. */
extern char sg_a64_restore_rt[];
static inline unsigned long sg_arch_restorer(void)
{
	return (unsigned long)sg_a64_restore_rt;
}

/* Where a RAW rt_sigreturn is made: entered like a stub's raw path (the
 * stub's push still on the stack), in sysgate's own text. */
extern char sg_a64_raw_sigreturn[];
/* (no list of the program's calls here: the same trampoline) */
static inline unsigned long sg_arch_own_restorer(void)
{
	return sg_arch_restorer();
}

static inline unsigned long sg_arch_raw_sigreturn(void)
{
	return (unsigned long)sg_a64_raw_sigreturn;
}

static inline unsigned long *sg_arch_uc_reg(void *uc, int i)
{
	return (unsigned long *)((char *)uc + SG_UC_REGS) + i;
}

/* The interrupted code's stack pointer. */
static inline unsigned long sg_arch_uc_sp(void *uc)
{
	return *sg_arch_uc_reg(uc, 31);
}

/* Where a handler of the interrupted code's own would run natively: below
 * its stack pointer (sigcontext's sp, after regs[31]; no red zone). */
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
	return (unsigned long *)((char *)uc + SG_UC_PC);
}

static inline void sg_arch_uc_syscall_args(void *uc, long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		a[i] = *sg_arch_uc_reg(uc, i);
}

static inline void sg_arch_uc_set_result(void *uc, long ret)
{
	*sg_arch_uc_reg(uc, 0) = ret;
}

/* The result register in a ucontext. */
static inline long *sg_arch_uc_result_reg(void *uc)
{
	return (long *)sg_arch_uc_reg(uc, 0);
}

/* The ucontext of the signal frame an rt_sigreturn made at stack
 * pointer sp restores (struct rt_sigframe: the siginfo, then the ucontext). */
static inline void *sg_arch_sigreturn_uc(unsigned long sp)
{
	return (void *)(sp + 128);
}

/* si_code of a breakpoint trap (brk: TRAP_BRKPT). */
#define SG_TRAP_SI_CODE 1
/* brk reports its own address. */
#define SG_TRAP_PC_BACK 0

static inline void sg_arch_uc_restart_syscall(void *uc, long nr)
{
	*sg_arch_uc_reg(uc, 8) = nr;
	*sg_arch_uc_pc(uc) -= 4;
}

/* RAW calls caught by a signal are let through; one ABI only. */
#include "signal_noraw.h"

#endif /* __ASSEMBLER__ */
#endif
