/* SPDX-License-Identifier: MIT */
/*
 * A program with handlers of its own for every signal, each blocking
 * every signal (sa_mask full), as valgrind installs them, then calls
 * made from sites that run for the first time (each raw `syscall` below
 * is a site of its own: under first-trap planning, and under -m sud, its
 * first run is trapped and handled inside sysgate's SIGSYS handler).
 * Such a call must see the mask of the code that made it, not the one
 * the program's SIGSYS handler would have:
 *   - the mask it reads back is the one the program set;
 *   - the mask it puts back is then in force: valgrind runs its
 *     translated code with the synchronous signals unblocked and grows
 *     the guest's stack from its SIGSEGV handler, which a blocked
 *     SIGSEGV would turn into death by the default action.
 * Then every signal blocked with a raw call (all but the ones that
 * cannot be): calls from sites not run before, and a vfork child that
 * blocks every signal itself before its calls and its execve.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

/* A raw call from a site of its own where the macro is expanded. */
#define RAW4(nr, a, b, c, d)                                               \
	({                                                                 \
		register long r10_ __asm__("r10") = (long)(d);             \
		long r_;                                                   \
		__asm__ volatile("syscall"                                 \
				 : "=a"(r_)                                \
				 : "0"((long)(nr)), "D"((long)(a)),        \
				   "S"((long)(b)), "d"((long)(c)), "r"(r10_) \
				 : "rcx", "r11", "memory");                \
		r_;                                                        \
	})

#define SYNC_SIGS ((1UL << (SIGILL - 1)) | (1UL << (SIGTRAP - 1)) |       \
		   (1UL << (SIGBUS - 1)) | (1UL << (SIGFPE - 1)) |          \
		   (1UL << (SIGSEGV - 1)))
#define UNBLOCKABLE ((1UL << (SIGKILL - 1)) | (1UL << (SIGSTOP - 1)))

static char *page;
static volatile int faults;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	/* a guest stack that grows: make the page usable and go on */
	if ((char *)si->si_addr < page || (char *)si->si_addr >= page + 4096)
		_exit(3);
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
	faults++;
}

static void on_other(int sig)
{
	(void)sig;
}

/* The current mask, read through libc (a planned site by now). */
static unsigned long mask_now(void)
{
	unsigned long m;

	test_assert(syscall(SYS_rt_sigprocmask, SIG_BLOCK, 0, &m, 8) == 0);
	return m;
}

static void handlers_blocking_all(void)
{
	struct sigaction sa;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	for (sig = 1; sig < 32; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		sa.sa_flags = sig == SIGSEGV ? SA_SIGINFO | SA_RESTART :
					       SA_RESTART;
		if (sig == SIGSEGV)
			sa.sa_sigaction = on_segv;
		else
			sa.sa_handler = on_other;
		test_assert(sigaction(sig, &sa, 0) == 0);
	}
}

/* valgrind's way round a client's blocking call: the client's mask in,
 * the call, its own mask back, with each call a site run once. */
static void valgrind_like(void)
{
	unsigned long own = ~(SYNC_SIGS | UNBLOCKABLE), client = 0, saved = 0,
		      seen = 0;
	long pid;

	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &own, 0, 8) == 0);
	/* what is blocked now, read from a first run */
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_BLOCK, 0, &seen, 8) == 0);
	test_assert((seen & ~UNBLOCKABLE) == (own & ~UNBLOCKABLE));
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &client, &saved,
			 8) == 0);
	test_assert((saved & ~UNBLOCKABLE) == (own & ~UNBLOCKABLE));
	pid = RAW4(SYS_getpid, 0, 0, 0, 0);
	test_assert(pid == getpid());
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &saved, 0, 8) == 0);
	test_assert((mask_now() & ~UNBLOCKABLE) == (own & ~UNBLOCKABLE));
	atomic_puts("calls made first in a handler's place see the caller's mask");

	/* a fault now reaches the program's handler */
	page[0] = 1;
	test_assert(faults == 1 && page[0] == 1);
	client = 0;
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &client, 0, 8) == 0);
	atomic_puts("a fault after them reaches the program's handler");
}

static void everything_blocked(void)
{
	unsigned long all = ~0UL, none = 0, seen = 0;
	long pid;
	int st;

	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8) == 0);
	test_assert(RAW4(SYS_getppid, 0, 0, 0, 0) == getppid());
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_BLOCK, 0, &seen, 8) == 0);
	test_assert((seen | UNBLOCKABLE) == all);
	test_assert(RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &none, 0, 8) == 0);
	atomic_puts("calls with every signal blocked by a raw call");

	/* a vfork child that blocks every signal, then calls and execs */
	pid = vfork();
	if (pid == 0) {
		char *argv[] = { "true", 0 }, *envp[] = { 0 };

		if (RAW4(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8) != 0 ||
		    RAW4(SYS_getpid, 0, 0, 0, 0) <= 0 ||
		    RAW4(SYS_getppid, 0, 0, 0, 0) <= 0)
			RAW4(SYS_exit, 4, 0, 0, 0);
		RAW4(SYS_execve, "/bin/true", argv, envp, 0);
		RAW4(SYS_exit, 5, 0, 0, 0);
	}
	test_assert(pid > 0);
	test_assert(waitpid(pid, &st, 0) == pid);
	test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	test_assert(mask_now() == 0);
	atomic_puts("a vfork child with every signal blocked calls and execs");
}

int main(void)
{
	page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	test_assert(page != MAP_FAILED);
	handlers_blocking_all();
	valgrind_like();
	everything_blocked();
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
