/* SPDX-License-Identifier: MIT */
/*
 * A program with syscall user dispatch of its own (Wine's way in): its
 * prctl's errors, a blocked call's SIGSYS (the call not made; siginfo and
 * the frame's registers as the kernel gives them; the handler's result
 * returned), an allowed selector, the always-allowed range, inclusive
 * mode where the kernel has it, a site called often enough to be patched,
 * and no inheritance by a thread or a fork child.  Under sysgate it
 * crashed: the program's setting replaced sysgate's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define SUD 59
#define OFF 0
#define ON 1
#define INCLUSIVE 2
#define ALLOW 0
#define BLOCK 1

static volatile char sel;
static volatile int traps, bad, go, done;
static volatile long thread_got;
static unsigned long want_next;

/* One system call at a known place; the address after its instruction
 * comes back in *next (rcx, as the kernel leaves it). */
__attribute__((noinline)) static long site(long nr, long a, long b,
					   unsigned long *next)
{
	register long r10 __asm__("r10") = 0;
	register long r8 __asm__("r8") = 0;
	unsigned long rcx;
	long r;

	__asm__ volatile("syscall" : "=a"(r), "=c"(rcx)
			 : "0"(nr), "D"(a), "S"(b), "d"(0L), "r"(r10), "r"(r8)
			 : "r11", "memory");
	if (next)
		*next = rcx;
	return r;
}

static void on_sys(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;
	greg_t *g = uc->uc_mcontext.gregs;

	sel = ALLOW;	/* (its return must not be taken too) */
	traps++;
	if (sig != SIGSYS || si->si_code != 2 /* SYS_USER_DISPATCH */ ||
	    si->si_errno != 0 || si->si_arch != 0xc000003e ||
	    si->si_syscall != g[REG_RAX] ||
	    (unsigned long)g[REG_RIP] != (unsigned long)si->si_call_addr ||
	    g[REG_RCX] != g[REG_RIP] || g[REG_RDI] != 77 ||
	    (want_next && (unsigned long)g[REG_RIP] != want_next))
		bad++;
	g[REG_RAX] = 4242;	/* what the caller gets */
}

static long sud(long mode, unsigned long off, unsigned long len,
		const volatile char *s)
{
	long r = syscall(SYS_prctl, SUD, mode, off, len, s);

	return r < 0 ? -errno : r;
}

static void *thread_main(void *a)
{
	(void)a;
	while (!go)
		;
	thread_got = site(SYS_getppid, 77, 0, 0);
	done = 1;
	return 0;
}

int main(void)
{
	struct sigaction sa;
	unsigned long next = 0;
	long r, i, ppid = getppid();
	int pfd[2], n = -1, st;
	pthread_t th;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, 0);

	printf("off with a range: %ld\n", sud(OFF, 1, 0, 0));
	printf("off with a selector: %ld\n", sud(OFF, 0, 0, &sel));
	printf("unknown mode: %ld\n", sud(7, 0, 0, &sel));
	printf("range wrapping: %ld\n", sud(ON, -4096L, 8192, &sel));
	printf("kernel selector: %ld\n", sud(ON, 0, 0, (char *)-4096L));
	printf("inclusive, empty: %ld\n", sud(INCLUSIVE, 1, 0, &sel));

	/* Blocked from everywhere: the call is not made. */
	if (pipe(pfd))
		return 1;
	printf("on: %ld\n", sud(ON, 0, 0, &sel));
	sel = BLOCK;
	r = site(SYS_write, pfd[1], (long)"x", 0);
	sel = ALLOW;
	ioctl(pfd[0], FIONREAD, &n);
	printf("write blocked: %ld, the pipe holds %d\n", r, n);
	traps = bad = 0;
	sel = BLOCK;
	r = site(SYS_getppid, 77, 0, &next);
	sel = ALLOW;
	printf("getppid blocked: %ld, %d trap(s), %d wrong\n", r, traps, bad);
	r = site(SYS_getppid, 77, 0, 0);
	printf("getppid allowed: %s\n", r == ppid ? "the parent" : "wrong");

	/* Often enough to be patched, then blocked again. */
	for (i = 0; i < 8; i++)
		site(SYS_getppid, 77, 0, 0);
	want_next = next;
	traps = bad = 0;
	for (i = 0; i < 4; i++) {
		sel = BLOCK;
		r = site(SYS_getppid, 77, 0, 0);
		sel = ALLOW;
	}
	printf("patched site blocked: %ld, %d trap(s), %d wrong\n", r,
	       traps, bad);

	/* The always-allowed range holds the address after the call's
	 * instruction, or does not. */
	printf("on, [next, next + 1) allowed: %ld\n", sud(ON, next, 1, &sel));
	traps = 0;
	sel = BLOCK;
	r = site(SYS_getppid, 77, 0, 0);
	sel = ALLOW;
	printf("getppid: %s, %d trap(s)\n", r == ppid ? "the parent" : "wrong",
	       traps);
	printf("on, [next - 2, next) allowed: %ld\n",
	       sud(ON, next - 2, 2, &sel));
	traps = 0;
	sel = BLOCK;
	r = site(SYS_getppid, 77, 0, 0);
	sel = ALLOW;
	printf("getppid: %ld, %d trap(s)\n", r, traps);

	/* No selector: all but the range is taken, until it goes off. */
	r = sud(ON, next, 1, 0);
	traps = 0;
	i = site(SYS_getppid, 77, 0, 0);
	st = traps;
	site(SYS_prctl, SUD, OFF, 0);
	printf("no selector: %ld, getppid %s, %d trap(s)\n", r,
	       i == ppid ? "the parent" : "wrong", st);

	/* Inclusive (Linux 6.16): the range only is taken. */
	r = sud(INCLUSIVE, next, 1, &sel);
	if (r == 0) {
		traps = 0;
		sel = BLOCK;
		i = getppid();
		r = site(SYS_getppid, 77, 0, 0);
		sel = ALLOW;
		st = traps;
		sud(OFF, 0, 0, 0);
		printf("inclusive: libc's %s, the site's %ld, %d trap(s)\n",
		       i == ppid ? "the parent" : "wrong", r, st);
	} else {
		printf("inclusive: %ld (not on this kernel)\n", r);
	}

	/* Not given to a thread or a fork child. */
	sud(ON, 0, 0, &sel);
	pthread_create(&th, 0, thread_main, 0);
	traps = 0;
	sel = BLOCK;
	go = 1;
	while (!done)
		;
	sel = ALLOW;
	pthread_join(th, 0);
	pid = fork();
	if (pid == 0) {
		sel = BLOCK;
		_exit(site(SYS_getppid, 77, 0, 0) == 4242);
	}
	waitpid(pid, &st, 0);
	sud(OFF, 0, 0, 0);
	printf("thread: %s, child: %s, %d trap(s)\n",
	       thread_got == 4242 ? "taken" : "not taken",
	       WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "not taken" : "taken",
	       traps);
	printf("done\n");
	return 0;
}
