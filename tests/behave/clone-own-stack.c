/* SPDX-License-Identifier: MIT */
/*
 * clone() without CLONE_VM onto a stack of its own: a copy of the process
 * that starts on a small new stack (one page above a guard page, as
 * strace's tests give theirs), through glibc's clone() wrapper, which
 * takes the function to call from that stack.
 * sysgate made the call from its own C code, where the child woke on the
 * new stack with none of that code's frames: it jumped to address 0.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static int value = 7;

static int child(void *arg)
{
	value += *(int *)arg;	/* its own copy */
	return value;
}

/* One page of stack above an inaccessible one. */
static char *small_stack(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(0, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m, pg, PROT_NONE))
		return 0;
	return m + 2 * pg;
}

int main(void)
{
	int add = 35, st = 0;
	char *top = small_stack();
	pid_t pid;

	if (!top)
		return 1;
	pid = clone(child, top, SIGCHLD, &add);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	printf("clone: %s %d, parent's value %d\n",
	       WIFEXITED(st) ? "exited" : "killed",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), value);
	return 0;
}
