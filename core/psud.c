/* SPDX-License-Identifier: MIT */
/*
 * The program's own syscall user dispatch (PR_SET_SYSCALL_USER_DISPATCH:
 * Wine, sandboxes, another interposer), kept by sysgate, which holds the
 * kernel's for itself (core/sud.c).  Passed to the kernel, the program's
 * setting replaced sysgate's: sysgate's traps then came to the program's
 * selector and its calls to sysgate's handler, and the program crashed.
 *
 * Each thread's setting (the kernel's is per thread, kept by no child,
 * thread or new program) is judged here as the kernel judges it, before
 * any hook sees the call (the kernel's check comes before a tracer's):
 * a call it takes is not made, and the program's SIGSYS handler gets the
 * kernel's frame for it -- the number in rax, rip and rcx after the
 * system call instruction, r11 the flags -- and siginfo (SYS_USER_DISPATCH,
 * the address after the instruction, the number, the arch):
 *   - a call caught by a signal (SUD or seccomp) already has that frame:
 *     the signal goes on to the program's handler as SIGSYS;
 *   - a patched site's call leaves entry.S as a RAW call (every register
 *     the program's, its stack pointer) for a breakpoint in sysgate's
 *     text (sg_arch_psud_trap), whose frame is then made the one above.
 * Where the arch has no such breakpoint, the program's prctl still goes
 * to the kernel, as before.
 */
#include "sg.h"
#include "mech.h"
#include "options.h"
#include "signal_arch.h"

#define PR_SET_SYSCALL_USER_DISPATCH_ 59
#define DISPATCH_OFF 0
#define DISPATCH_EXCLUSIVE_ON 1
#define DISPATCH_INCLUSIVE_ON 2		/* Linux 6.16 */
#define FILTER_ALLOW 0
#define FILTER_BLOCK 1
#define SIGSEGV_ 11
#define SIGSYS_ 31
#define SYS_USER_DISPATCH_ 2
#define EINVAL_ 22
#define EFAULT_ 14
/* access_ok()'s limit (4-level paging) */
#define USER_TOP ((1UL << 47) - 4096)

/* Whether this kernel knows PR_SYS_DISPATCH_INCLUSIVE_ON: an address no
 * user pointer can have fails it with EFAULT there, with EINVAL (an
 * unknown mode) before; neither changes a setting. */
static int inclusive_known(void)
{
	static int known = -1;

	if (known < 0)
		known = sg_sc5(SG_NR_prctl, PR_SET_SYSCALL_USER_DISPATCH_,
			       DISPATCH_INCLUSIVE_ON, 1, 1, -4096L) ==
			-EFAULT_;
	return known;
}

static long set(struct sg_thread *t, unsigned long mode, unsigned long off,
		unsigned long len, unsigned long sel)
{
	switch (mode) {
	case DISPATCH_OFF:
		if (off || len || sel)
			return -EINVAL_;
		break;
	case DISPATCH_EXCLUSIVE_ON:
		if (off && off + len <= off)
			return -EINVAL_;
		break;
	case DISPATCH_INCLUSIVE_ON:
		if (!inclusive_known() || !len || off + len <= off)
			return -EINVAL_;
		/* (the kernel's own turn: the range outside is allowed) */
		off += len;
		len = -len;
		break;
	default:
		return -EINVAL_;
	}
	if (mode != DISPATCH_OFF && sel && sel > USER_TOP - 1)
		return -EFAULT_;
	t->psud_off = off;
	t->psud_len = len;
	t->psud_sel = sel;
	t->psud_on = mode != DISPATCH_OFF;
	if (t->psud_on && !__atomic_load_n(&sg.prog_sud, __ATOMIC_RELAXED)) {
		/* (from now on every call of the process comes to C:
		 * entry.S's fast path and the lean one test it) */
		sg_mech_psud();
		__atomic_store_n(&sg.prog_sud, 1, __ATOMIC_RELEASE);
	}
	return 0;
}

int sg_psud_prctl(struct sg_thread *t, struct sysgate_sys *s)
{
	if (s->args[0] != PR_SET_SYSCALL_USER_DISPATCH_ || !SG_ARCH_PSUD ||
	    !t || !sg.opts || !sg_strcmp(sg.opts->mechanism, "preload"))
		return 0;
	s->ret = set(t, s->args[1], s->args[2], s->args[3], s->args[4]);
	return 1;
}

void sg_psud_reset(struct sg_thread *t)
{
	t->psud_on = 0;
	t->psud_off = t->psud_len = t->psud_sel = 0;
}

/* The kernel ends the process where the selector cannot be read, or
 * holds neither value: so does sysgate, with the same signal. */
static void __attribute__((noreturn)) force_exit(int sig)
{
	struct sg_kact dfl = { 0 };
	unsigned long m = 1UL << (sig - 1);

	sg_signal_set_kernel_action(sig, &dfl);
	sg_sc4(SG_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&m, 0, 8);
	for (;;)
		sg_sc2(SG_NR_kill, sg_sc0(SG_NR_getpid), sig);
}

int sg_psud_takes(struct sg_thread *t, unsigned long next)
{
	unsigned char v;

	if (!t || !t->psud_on || next - t->psud_off < t->psud_len)
		return 0;
	if (!t->psud_sel)
		return 1;
	if (sg_read_safe(&v, (const void *)t->psud_sel, 1) < 0)
		force_exit(SIGSEGV_);
	if (v == FILTER_ALLOW)
		return 0;
	if (v != FILTER_BLOCK)
		force_exit(SIGSYS_);
	return 1;
}

void sg_psud_siginfo(struct sg_siginfo *info, unsigned long next, long nr)
{
	info->si_signo = SIGSYS_;
	info->si_errno = 0;
	info->si_code = SYS_USER_DISPATCH_;
	info->fields[0] = next;
	info->fields[1] = (unsigned int)nr |
			  (unsigned long)SG_AUDIT_ARCH << 32;
}

int sg_psud_entry(struct sg_thread *t, unsigned long next)
{
	if (!sg_psud_takes(t, next))
		return 0;
	t->psud_next = next;
	return 1;
}

int sg_psud_trap(struct sg_siginfo *info, void *uc)
{
	struct sg_thread *t = sg_self();

	if (!SG_ARCH_PSUD || !t ||
	    *sg_arch_uc_pc(uc) - SG_TRAP_PC_BACK != sg_arch_psud_trap())
		return 0;
	/* (the RAW way out gave the breakpoint the number in rax) */
	sg_arch_uc_at_syscall(uc, t->psud_next);
	sg_psud_siginfo(info, t->psud_next, *sg_arch_uc_result_reg(uc));
	return 1;
}
