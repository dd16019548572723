/* SPDX-License-Identifier: MIT */
/*
 * A program that asks to be traced by its parent (an anti-debugging
 * check does): natively nothing changes while it gets no signal.  Under
 * sysgate its parent may be the command, and every call sysgate traps
 * (a SIGSYS) stopped it there: the command took that stop for the
 * program's end and left it with its call lost.  Calls from a site no
 * patch has seen yet must work.  (No child: natively its SIGCHLD would
 * stop the program, as any signal does, with a parent that never lets
 * it go on.)
 */
#define _GNU_SOURCE
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/util.h"

static long raw_getppid(void)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "0"(SYS_getppid)
			 : "rcx", "r11", "memory");
	return r;
}

int main(void)
{
	int i;

	test_assert(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
	for (i = 0; i < 5; i++)
		test_assert(raw_getppid() == getppid());
	atomic_printf("getppid %s\n", getppid() > 1 ? "ok" : "wrong");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
