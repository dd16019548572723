/* SPDX-License-Identifier: MIT */
/*
 * clone and clone3 given a stack their child cannot use: the kernel
 * refuses clone3's bad pointer (strace's clone3 test: flags it does not
 * know, stack 0xface1e55beeff00d) and lets a child start on an unmapped
 * or read-only page, where only the child faults.  sysgate puts a word
 * below a child's new stack before the call: the program must not die
 * of that where natively nothing of it faults.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

/* How the child ended, or the call's error. */
static void report(const char *what, long pid)
{
	int st;

	if (pid < 0) {
		atomic_printf("%s: %s\n", what, strerror(errno));
		return;
	}
	if (pid == 0)
		syscall(SYS_exit, 0);	/* (a child whose stack worked) */
	test_assert(waitpid(pid, &st, 0) == pid);
	atomic_printf("%s: child %s %d\n", what,
		      WIFSIGNALED(st) ? "killed by" : "exited",
		      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

static long clone3_with(unsigned long long flags, unsigned long long sig,
			unsigned long long stack, unsigned long long size)
{
	struct clone_args a;

	memset(&a, 0, sizeof(a));
	a.flags = flags;
	a.exit_signal = sig;
	a.stack = stack;
	a.stack_size = size;
	return syscall(SYS_clone3, &a, 64);
}

int main(void)
{
	const struct rlimit no_core = { 0, 0 };
	long pg = sysconf(_SC_PAGESIZE);
	char *gone = mmap(0, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(0, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	test_assert(gone != MAP_FAILED && ro != MAP_FAILED);
	test_assert(munmap(gone, pg) == 0);
	test_assert(setrlimit(RLIMIT_CORE, &no_core) == 0);
	report("clone3, unknown flags and a non-canonical stack",
	       clone3_with(0xdec0deac0040007fULL, 250, 0xface1e55beeff00dULL,
			   0xcaffeedefacedca7ULL));
	report("clone3, stack past the end of user memory",
	       clone3_with(0, SIGCHLD, 0x7ffffffff000ULL, 0x10000));
	report("clone3, an unmapped stack",
	       clone3_with(0, SIGCHLD, (uintptr_t)gone, pg));
	report("clone3, a read-only stack",
	       clone3_with(0, SIGCHLD, (uintptr_t)ro, pg));
	report("clone, an unmapped stack",
	       syscall(SYS_clone, SIGCHLD, gone + pg, 0, 0, 0));
	report("clone, a read-only stack",
	       syscall(SYS_clone, SIGCHLD, ro + pg, 0, 0, 0));
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
