/* SPDX-License-Identifier: MIT */
/*
 * A filter that allows a handful of calls and kills at the rest,
 * rt_sigreturn among them (strace's prctl-seccomp-filter-v test has one):
 * natively no signal ever comes, so nothing needs it.  After it the
 * program makes calls from sites that never ran before, its own inline
 * `syscall` and libc's getppid: sysgate traps them (syscall user
 * dispatch, a breakpoint, the seccomp mechanism), and the return from
 * that trap is sysgate's own, which the program's filter must not judge
 * (the third-trap rule left such sites trapped after the filter, and the
 * process was killed at that return).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ALLOW(nr) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/* Run only after the filter: its `syscall` first traps there. */
static __attribute__((noinline)) long fresh_getppid(void)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
	return r;
}

int main(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_write), ALLOW(SYS_exit), ALLOW(SYS_exit_group),
		ALLOW(SYS_getppid),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	long before = getppid(), same = 1;
	int i;

	printf("filter: ");
	fflush(stdout);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("prctl");
		return 1;
	}
	for (i = 0; i < 5; i++)
		same &= fresh_getppid() == before && getppid() == before;
	printf("%s\n", same ? "getppid the same after it" : "getppid changed");
	fflush(stdout);
	return 0;
}
