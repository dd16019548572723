/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction on x86-64 (with sa_restorer). */
#ifndef SG_SIGNAL_ARCH_H
#define SG_SIGNAL_ARCH_H

struct sg_kact {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	unsigned long mask;
};

#define SG_SA_RESTORER 0x04000000UL

/* Our own rt_sigreturn trampoline (entry.S), for actions sysgate
 * installs where the program gave none. */
extern char sg_x86_restore_rt[];
static inline unsigned long sg_arch_restorer(void)
{
	return (unsigned long)sg_x86_restore_rt;
}

/* The interrupted instruction pointer in a signal's ucontext. */
static inline unsigned long *sg_arch_uc_pc(void *uc)
{
	/* struct ucontext: flags, link, stack (24 bytes), then sigcontext,
	 * whose rip is its 17th word. */
	return (unsigned long *)((char *)uc + 40 + 16 * 8);
}

#endif
