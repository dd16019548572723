/* SPDX-License-Identifier: MIT */
/*
 * Makes every system call of this arch's table once, for
 * check-strace-classes.sh, which runs it under `strace -e trace=%CLASS`
 * to learn strace's class memberships.
 *
 * A seccomp filter first turns every call but exit_group into ENOSYS, so
 * nothing is executed: the tracer still sees each call at entry and exit
 * (ptrace reports before seccomp runs).  Exit status 77 if the filter
 * cannot be installed.
 */
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "syscalls.h"

int main(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SG_NR_exit_group, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 38 /* ENOSYS */),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};
	long nr;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 77;
	}
	for (nr = 0; nr < SG_NSYSCALLS; nr++)
		if (sg_syscall_table[nr].name && nr != SG_NR_exit_group)
			syscall(nr, 0, 0, 0, 0, 0, 0);
	return 0;
}
