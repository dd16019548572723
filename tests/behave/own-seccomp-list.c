/* SPDX-License-Identifier: MIT */
/*
 * A sandboxed program: its seccomp filter allows a short list of calls
 * and kills the process at any other, and a second filter answers
 * gettid with EPERM.  Natively it runs to the end; sysgate's own calls
 * (gettid, rt_sigprocmask, process_vm_readv... outside the list) must not
 * kill it, and the program's calls must still be judged by its filters,
 * whichever way sysgate makes them: through libc's sites, an inline
 * `syscall` of the program's own, a vfork child, a signal's return.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

#define ALLOW(nr) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static volatile int handled;

static void on_usr1(int sig)
{
	handled = sig;
}

static long raw_gettid(void)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"((long)SYS_gettid)
			 : "rcx", "r11", "memory");
	return r;
}

static void install(struct sock_filter *insns, unsigned short n)
{
	struct sock_fprog prog = { n, insns };

	test_assert(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0);
}

int main(void)
{
	struct sock_filter list[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_read), ALLOW(SYS_write), ALLOW(SYS_exit),
		ALLOW(SYS_exit_group), ALLOW(SYS_rt_sigreturn),
		ALLOW(SYS_rt_sigprocmask), ALLOW(SYS_getpid), ALLOW(SYS_gettid),
		ALLOW(SYS_kill), ALLOW(SYS_vfork), ALLOW(SYS_wait4),
		ALLOW(SYS_prctl),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_filter no_gettid[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_gettid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sigaction sa = { 0 };
	char line[128];
	long r, raw;
	pid_t pid;
	int st = 0;

	sa.sa_handler = on_usr1;
	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	test_assert(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	install(list, sizeof(list) / sizeof(list[0]));
	/* (with prctl, the other way in) */
	{
		struct sock_fprog prog = { sizeof(no_gettid) / sizeof(no_gettid[0]),
					   no_gettid };

		test_assert(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0);
	}
	r = syscall(SYS_gettid);
	raw = raw_gettid();
	snprintf(line, sizeof(line), "getpid>0 %d gettid %ld errno %d raw %ld",
		 syscall(SYS_getpid) > 0, r, errno, raw);
	atomic_puts(line);
	test_assert(r == -1 && raw == -EPERM);
	kill(syscall(SYS_getpid), SIGUSR1);
	snprintf(line, sizeof(line), "handled %d", handled);
	atomic_puts(line);
	pid = vfork();
	if (pid == 0)
		_exit(3);
	test_assert(pid > 0 && waitpid(pid, &st, 0) == pid);
	snprintf(line, sizeof(line), "child %d", WEXITSTATUS(st));
	atomic_puts(line);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
