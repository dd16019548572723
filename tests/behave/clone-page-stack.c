/* SPDX-License-Identifier: MIT */
/*
 * clone() children on a stack of one page, as strace's tests give theirs
 * (ioctl_nsfs, clone_ptrace: clone(fn, stack + page_size, ...)), above a
 * page that cannot be written: a copy of the process, a child on our
 * memory (with and without CLONE_VFORK) and a thread.  Each makes calls
 * through libc and with an inline `syscall`, then exits.  The kernel
 * uses none of a program's stack for a system call; sysgate may use
 * little more (its entry frame below the red zone), and a signal that
 * catches a call (SIGSYS, SIGTRAP) must not put its frame there.
 * A child on a stack just big enough for the kernel's signal frame
 * (AT_MINSIGSTKSZ) and a little more takes a signal with a handler.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

static volatile int thread_done, handled;

static long raw_getppid(void)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "0"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
	return r;
}

/* Calls from libc and from here; 0 if all gave what they should. */
static int calls(void)
{
	return write(1, "", 0) == 0 && getpid() > 0 && raw_getppid() > 0 &&
	       sched_yield() == 0 ? 0 : 1;
}

static int child(void *arg)
{
	int r = calls();

	if (arg) {
		thread_done = 1 + r;
		syscall(SYS_exit, 0);	/* the thread alone */
	}
	return r ? 3 : 42;
}

static void on_usr1(int sig)
{
	(void)sig;
	/* (no call through the PLT: its first one needs a stack of its
	 * own for the dynamic linker) */
	if (raw_getppid() > 0)
		handled++;
}

static int signalled(void *arg)
{
	(void)arg;
	if (syscall(SYS_kill, syscall(SYS_getpid), SIGUSR1) != 0 ||
	    handled != 1)
		return 3;
	return calls() ? 4 : 42;
}

/* len bytes of stack above a page that cannot be written: its top. */
static char *stack_of(size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t map = (len + 2 * pg - 1) / pg * pg;
	char *m = mmap(0, map, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	test_assert(m != MAP_FAILED && mprotect(m, pg, PROT_NONE) == 0);
	return m + map;
}

static void run(const char *what, int (*fn)(void *), char *top, int flags)
{
	int st = 0;
	pid_t p = clone(fn, top, flags, 0);

	test_assert(p > 0);
	test_assert(waitpid(p, &st, __WALL) == p);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 42)
		atomic_printf("%s: %s %d\n", what,
			      WIFEXITED(st) ? "exited" : "killed by signal",
			      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	else
		atomic_printf("%s: ok\n", what);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	long minsig = getauxval(AT_MINSIGSTKSZ);
	struct sigaction sa = { .sa_handler = on_usr1 };
	char *heap = malloc(pg);
	int i;

	test_assert(heap);
	run("fork-like clone", child, stack_of(pg), SIGCHLD);
	run("fork-like clone, malloc'd stack", child, heap + pg, SIGCHLD);
	run("CLONE_VM|CLONE_VFORK", child, stack_of(pg),
	    CLONE_VM | CLONE_VFORK | SIGCHLD);
	run("CLONE_VM", child, stack_of(pg), CLONE_VM | SIGCHLD);
	run("CLONE_VM, no exit signal", child, stack_of(pg), CLONE_VM);

	test_assert(clone(child, stack_of(pg),
			  CLONE_VM | CLONE_SIGHAND | CLONE_THREAD, (void *)1) > 0);
	for (i = 0; !thread_done; i++)
		sched_yield();
	atomic_printf("CLONE_THREAD|CLONE_SIGHAND|CLONE_VM: %s\n",
		      thread_done == 1 ? "ok" : "calls failed");

	/* The kernel's frame (as it reports its size) and 1 KiB. */
	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	if (minsig < 2048)
		minsig = 2048;
	run("a signal in a fork-like child", signalled,
	    stack_of(minsig + 1024), SIGCHLD);
	handled = 0;
	run("a signal in a CLONE_VM|CLONE_VFORK child", signalled,
	    stack_of(minsig + 1024), CLONE_VM | CLONE_VFORK | SIGCHLD);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
