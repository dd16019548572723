/* SPDX-License-Identifier: MIT */
/*
 * A program with a seccomp filter and a SIGSYS handler of its own: its
 * filter's trap reaches its handler, with its own SECCOMP_RET_DATA, and
 * the result the handler writes is what the call returns (under -m
 * seccomp sysgate's filter traps the same call: the program's must win).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include "../lib/util.h"

static volatile int seen_data = -1, seen_nr = -1;

static void on_sigsys(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	seen_data = si->si_errno;
	seen_nr = si->si_syscall;
	uc->uc_mcontext.gregs[REG_RAX] = 4242;
}

int main(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 0x123),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	struct sigaction sa = { 0 };
	char line[64];
	long r;

	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	test_assert(sigaction(SIGSYS, &sa, 0) == 0);
	test_assert(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	test_assert(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0);
	r = syscall(SYS_getppid);
	snprintf(line, sizeof(line), "getppid %ld data 0x%x nr %d", r,
		 seen_data, seen_nr);
	atomic_puts(line);
	test_assert(r == 4242 && seen_data == 0x123 && seen_nr == SYS_getppid);
	/* Other calls are not the program's filter's business. */
	test_assert(syscall(SYS_getpid) > 0);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
