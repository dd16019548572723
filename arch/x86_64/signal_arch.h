/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction on x86-64 (with sa_restorer). */
#ifndef SG_SIGNAL_ARCH_H
#define SG_SIGNAL_ARCH_H

#include "kact_restorer.h"
#include "context.h"

/* Our own rt_sigreturn trampoline (entry.S), for actions sysgate
 * installs where the program gave none. */
extern char sg_x86_restore_rt[];
static inline unsigned long sg_arch_restorer(void)
{
	return (unsigned long)sg_x86_restore_rt;
}

/* The one for the signals sysgate claims: its rt_sigreturn is not one
 * of the program's calls (a filter of the program's never judges it). */
extern char sg_x86_restore_own[];
static inline unsigned long sg_arch_own_restorer(void)
{
	return (unsigned long)sg_x86_restore_own;
}

/* Where a RAW rt_sigreturn is made: the same trampoline (the raw path
 * leaves the stack as the program had it). */
static inline unsigned long sg_arch_raw_sigreturn(void)
{
	return sg_arch_restorer();
}

/* The interrupted instruction pointer in a signal's ucontext. */
static inline unsigned long *sg_arch_uc_pc(void *uc)
{
	/* struct ucontext: flags, link, stack (24 bytes), then sigcontext,
	 * whose rip is its 17th word. */
	return (unsigned long *)((char *)uc + 40 + 16 * 8);
}

/* A system call's registers in a ucontext (struct sigcontext: r8..r15,
 * rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip as words from offset 40). */
static inline unsigned long *sg_arch_uc_reg(void *uc, int i)
{
	return (unsigned long *)((char *)uc + 40) + i;
}

/* The interrupted code's stack pointer. */
static inline unsigned long sg_arch_uc_sp(void *uc)
{
	return *sg_arch_uc_reg(uc, 15);
}

/* Where a handler of the interrupted code's own would run natively: below
 * its stack pointer and red zone, 16-byte aligned. */
static inline unsigned long sg_arch_uc_stack_top(void *uc)
{
	return (sg_arch_uc_sp(uc) - SG_REDZONE) & ~15UL;
}

/* The signal stack the kernel puts back when the handler returns (struct
 * ucontext's uc_stack, after uc_flags and uc_link). */
static inline void *sg_arch_uc_stack(void *uc)
{
	return (char *)uc + 16;
}

/* The mask the kernel puts back when the handler returns (struct
 * ucontext's uc_sigmask, after the 256-byte sigcontext). */
static inline unsigned long *sg_arch_uc_sigmask(void *uc)
{
	return (unsigned long *)((char *)uc + 40 + 256);
}

static inline void sg_arch_uc_syscall_args(void *uc, long a[6])
{
	a[0] = *sg_arch_uc_reg(uc, 8);	/* rdi */
	a[1] = *sg_arch_uc_reg(uc, 9);	/* rsi */
	a[2] = *sg_arch_uc_reg(uc, 12);	/* rdx */
	a[3] = *sg_arch_uc_reg(uc, 2);	/* r10 */
	a[4] = *sg_arch_uc_reg(uc, 0);	/* r8 */
	a[5] = *sg_arch_uc_reg(uc, 1);	/* r9 */
}

static inline void sg_arch_uc_set_result(void *uc, long ret)
{
	*sg_arch_uc_reg(uc, 13) = ret;	/* rax */
}

/* The result register in a ucontext. */
static inline long *sg_arch_uc_result_reg(void *uc)
{
	return (long *)sg_arch_uc_reg(uc, 13);
}

/* The ucontext of the signal frame an rt_sigreturn made at stack
 * pointer sp restores (the handler's return popped the frame's return address: sp is the ucontext). */
static inline void *sg_arch_sigreturn_uc(unsigned long sp)
{
	return (void *)(sp + 0);
}

/* si_code of a breakpoint trap (int3 reports SI_KERNEL). */
#define SG_TRAP_SI_CODE 0x80
/* int3 reports the address after itself. */
#define SG_TRAP_PC_BACK 1

/*
 * The program's own syscall user dispatch (core/psud.c): a patched site's
 * call it takes leaves entry.S as a RAW call for this breakpoint (entry.S),
 * met with every register the program's; the frame is then made the one
 * the kernel gives such a call: rip and rcx after the instruction, r11
 * the flags (rax holds the number already).
 */
#define SG_ARCH_PSUD 1
extern char sg_x86_psud_trap[];
static inline unsigned long sg_arch_psud_trap(void)
{
	return (unsigned long)sg_x86_psud_trap;
}

static inline void sg_arch_uc_at_syscall(void *uc, unsigned long next)
{
	*sg_arch_uc_pc(uc) = next;
	*sg_arch_uc_reg(uc, 14) = next;				/* rcx */
	*sg_arch_uc_reg(uc, 3) = *sg_arch_uc_reg(uc, 17);	/* r11 */
}

/* A single-step trap (TRAP_TRACE), and taking the trap flag off the
 * interrupted code (core/traps.c). */
#define SG_STEP_SI_CODE 2
static inline void sg_arch_uc_step_off(void *uc)
{
	*sg_arch_uc_reg(uc, 17) &= ~0x100UL;	/* eflags' TF */
}

/* Set it: 1, or 0 if the interrupted code had it set already. */
static inline int sg_arch_uc_step_on(void *uc)
{
	if (*sg_arch_uc_reg(uc, 17) & 0x100UL)
		return 0;
	*sg_arch_uc_reg(uc, 17) |= 0x100UL;
	return 1;
}

/* sysgate's code at pc saves the flags (pushfq: entry.S's entries). */
static inline int sg_arch_saves_flags_at(unsigned long pc)
{
	return *(const unsigned char *)pc == 0x9c;
}

/* Run the system call instruction before pc again (it is 2 bytes). */
static inline void sg_arch_uc_restart_syscall(void *uc, long nr)
{
	*sg_arch_uc_reg(uc, 13) = nr;
	*sg_arch_uc_pc(uc) -= 2;
}

/*
 * A RAW call (clone, clone3, vfork) caught by a signal at a site without a
 * stub: the handler's return makes it from sg_x86_trap_raw (entry.S) with
 * arguments a, the way back in rcx and the info word in r11; a child's
 * new stack gets both words now (the caller's go below its stack there).
 */
#define SG_ARCH_TRAP_RAW 1
extern char sg_x86_trap_raw[];
static inline void sg_arch_uc_trap_raw(void *uc, const long a[6],
				       unsigned long info,
				       unsigned long child_sp)
{
	unsigned long next = *sg_arch_uc_pc(uc), words[2] = { next, info };

	/* (a bad stack: the child faults there, as it would natively) */
	if (child_sp)
		sg_write_safe((void *)(child_sp - SG_RAWNEXT_OFF), words,
			      sizeof(words));
	*sg_arch_uc_reg(uc, 8) = a[0];		/* rdi */
	*sg_arch_uc_reg(uc, 9) = a[1];		/* rsi */
	*sg_arch_uc_reg(uc, 12) = a[2];		/* rdx */
	*sg_arch_uc_reg(uc, 2) = a[3];		/* r10 */
	*sg_arch_uc_reg(uc, 0) = a[4];		/* r8 */
	*sg_arch_uc_reg(uc, 1) = a[5];		/* r9 */
	*sg_arch_uc_reg(uc, 14) = next;		/* rcx */
	*sg_arch_uc_reg(uc, 3) = info;		/* r11 */
	*sg_arch_uc_pc(uc) = (unsigned long)sg_x86_trap_raw;
}

/* Make the 32-bit call nr (int $0x80) that a 64-bit program trapped
 * with, arguments from ebx, ecx, edx, esi, edi, ebp; its result goes to
 * rax.  0: made. */
static inline int sg_arch_uc_compat_call(void *uc, long nr)
{
	long r, a6 = *sg_arch_uc_reg(uc, 10);	/* rbp */

	/* (below the red zone; rbp is the frame pointer) */
	__asm__ volatile("sub $128, %%rsp\n\t"
			 "push %%rbp\n\t"
			 "mov %[a6], %%rbp\n\t"
			 "int $0x80\n\t"
			 "pop %%rbp\n\t"
			 "add $128, %%rsp"
			 : "=a"(r)
			 : "a"(nr), "b"(*sg_arch_uc_reg(uc, 11)),
			   "c"(*sg_arch_uc_reg(uc, 14)),
			   "d"(*sg_arch_uc_reg(uc, 12)),
			   "S"(*sg_arch_uc_reg(uc, 9)),
			   "D"(*sg_arch_uc_reg(uc, 8)), [a6] "r"(a6)
			 : "r8", "r9", "r10", "r11", "memory", "cc");
	sg_arch_uc_set_result(uc, r);
	return 0;
}

#endif
