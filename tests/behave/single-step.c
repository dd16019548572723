/* SPDX-License-Identifier: MIT */
/*
 * A program that single-steps itself (the trap flag, with a SIGTRAP
 * handler: anti-debugging code, in-process tracers) across a system call
 * site, several times so that the site gets patched.  Each step traps
 * (but the call's own instruction, for which the kernel gives none), and
 * stepping goes on to the end, where the handler stops it.
 * Under sysgate a patched site's stub took the program into sysgate's
 * code, a trap per instruction, and one inside a hook ended the process.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

extern char step_after[], step_after2[], step_end[];
static volatile int at_after, at_after2, at_end;

static void on_trap(int sig, siginfo_t *si, void *p)
{
	greg_t *g = ((ucontext_t *)p)->uc_mcontext.gregs;
	unsigned long pc = g[REG_RIP];

	(void)sig;
	if (si->si_code != 2 /* TRAP_TRACE */)
		return;
	if (pc == (unsigned long)step_after)
		at_after++;
	else if (pc == (unsigned long)step_after2)
		at_after2++;
	else if (pc == (unsigned long)step_end) {
		at_end++;
		g[REG_EFL] &= ~0x100L;	/* stepping ends here */
	}
}

/* Steps from the popf to step_end: getppid made on the way. */
static long stepped_getppid(void)
{
	long r;

	__asm__ volatile("pushf\n\t"
			 "orl $0x100, (%%rsp)\n\t"
			 "popf\n\t"
			 "nop\n\t"
			 "mov $%c1, %%eax\n\t"
			 "syscall\n"
			 "step_after:\n\t"
			 "nop\n"
			 "step_after2:\n\t"
			 "nop\n"
			 "step_end:\n\t"
			 "nop"
			 : "=a"(r) : "i"(SYS_getppid) : "rcx", "r11", "memory");
	return r;
}

int main(void)
{
	struct sigaction sa;
	long ppid = getppid(), r;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, 0);
	/* (the kernel gives no trap for the system call instruction
	 * itself: the next one is after the instruction that follows) */
	for (i = 0; i < 6; i++) {
		at_after = at_after2 = at_end = 0;
		r = stepped_getppid();
		printf("round %d: getppid %s; traps after the call %d, after "
		       "the next instruction %d, at the end %d\n", i,
		       r == ppid ? "the parent" : "wrong", at_after, at_after2,
		       at_end);
	}
	return 0;
}
