/* SPDX-License-Identifier: MIT */
/* Processes: fork (clone), clone3, wait4 status, prctl, rlimits, ids.
 * SIGCHLD stays blocked: sysgate reports only signals that reach a
 * handler (a separate issue), and a thread's stack size depends on the
 * TLS that a preloaded sysgate adds, so clone3 makes a process here. */
#include "corpus.h"
#include <linux/capability.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(void)
{
	struct rlimit rl;
	struct rusage ru;
	siginfo_t si;
	uid_t ids[3];
	struct clone_args ca = { .exit_signal = SIGCHLD };
	sigset_t chld;
	char name[16];
	int status;
	pid_t pid;
	int hold[2];

	begin();
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &chld, NULL) == 0, "sigprocmask");
	check(prctl(PR_SET_NAME, "corpus-proc") == 0, "PR_SET_NAME");
	check(prctl(PR_GET_NAME, name) == 0, "PR_GET_NAME");
	check(prctl(PR_GET_DUMPABLE) >= 0, "PR_GET_DUMPABLE");
	check(getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit");
	check(setrlimit(RLIMIT_NOFILE, &rl) == 0, "setrlimit");
	check(getrlimit(RLIMIT_STACK, &rl) == 0, "getrlimit");
	/* the calls themselves (libc's go through prlimit64): an unlimited
	 * limit is RLIM64_INFINITY there too */
	check(syscall(SYS_getrlimit, RLIMIT_CPU, &rl) == 0, "getrlimit");
	check(syscall(SYS_setrlimit, RLIMIT_CPU, &rl) == 0, "setrlimit");
	/* namespace flags: unshare's 64 bits, setns's int */
	syscall(SYS_unshare, 0xbadc0ded0000000fUL);
	syscall(SYS_unshare, 0x80000000UL | CLONE_NEWUTS | CLONE_FILES);
	syscall(SYS_setns, -1, CLONE_NEWNET);
	syscall(SYS_setns, -1, 0xdefaced00000000UL | 0x81fdff7fU);
	syscall(SYS_setns, -1, 0x1);
	check(getpriority(PRIO_PROCESS, 0) >= -20, "getpriority");
	check(getrusage(RUSAGE_CHILDREN, &ru) == 0, "getrusage");
	check(sched_yield() == 0, "sched_yield");
	check(getuid() >= 0 && geteuid() >= 0 && getgid() >= 0, "ids");
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0)
		_exit(0);
	check(waitpid(pid, &status, 0) == pid, "waitpid");
	pid = fork();
	if (pid == 0)
		_exit(3);
	check(wait4(-1, &status, 0, NULL) == pid, "wait4");
	check(waitpid(-1, &status, WNOHANG) < 0, "waitpid WNOHANG");
	/* a child not done yet: nothing reaped, the rusage left unwritten
	 * (its address); options as the kernel's int, WSTOPPED by name */
	check(pipe(hold) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		close(hold[1]);
		_exit(read(hold[0], &status, 1) == 0 ? 4 : 5);
	}
	close(hold[0]);
	check(syscall(SYS_wait4, pid, &status, 0xdefaced00000000UL |
		      WNOHANG | WUNTRACED | __WALL, &ru) == 0, "wait4 none");
	close(hold[1]);
	check(wait4(pid, &status, __WALL | __WCLONE, NULL) == pid, "wait4");
	pid = fork();
	if (pid == 0)
		_exit(2);
	/* the kernel leaves si_utime and si_stime as they were */
	memset(&si, 0, sizeof(si));
	check(waitid(P_PID, pid, &si, WEXITED) == 0, "waitid");
	check(waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0, "waitid");
	check(getresuid(&ids[0], &ids[1], &ids[2]) == 0, "getresuid");
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	check(pid >= 0, "clone3");
	if (pid == 0)
		_exit(0);
	check(wait4(pid, &status, 0, NULL) == pid, "wait4");
	{
		/* the legacy clone, as fork: what the kernel writes at
		 * parent_tid, the child's tid or its pidfd */
		int ptid = 0, k;
		static const unsigned long fl[2] = {
			CLONE_PARENT_SETTID | SIGCHLD, CLONE_PIDFD | SIGCHLD
		};

		for (k = 0; k < 2; k++) {
			pid = syscall(SYS_clone, fl[k], 0, &ptid, 0, 0);
			check(pid >= 0, "clone");
			if (pid == 0)
				_exit(0);
			check(wait4(pid, &status, 0, NULL) == pid, "wait4");
			if (fl[k] & CLONE_PIDFD)
				close(ptid);
		}
	}
	{
		/* capabilities: the header as given (a bad version the
		 * kernel overwrites), one or two words of sets; setting
		 * another process's fails (EPERM) and changes nothing */
		struct __user_cap_header_struct h = {
			_LINUX_CAPABILITY_VERSION_3, 0
		};
		struct __user_cap_data_struct d[2];

		syscall(SYS_capget, &h, d);
		syscall(SYS_capset, &h, d);
		h.pid = 1;
		syscall(SYS_capset, &h, d);
		h.version = _LINUX_CAPABILITY_VERSION_1;
		syscall(SYS_capset, &h, d);
		h.version = 0xbadc0ded;
		syscall(SYS_capget, &h, NULL);
		syscall(SYS_capset, &h, d);
		syscall(SYS_capget, NULL, d);
	}
	{
		/* set_tid, a cgroup and bytes past the struct sysgate
		 * knows, in calls the kernel refuses (a bad exit signal) */
		struct {
			struct clone_args a;
			unsigned char tail[8];
		} big = { { .exit_signal = 0x1000 }, { 0, 0, 7 } };
		pid_t tids[2] = { 5, 6 };

		big.a.set_tid = (unsigned long)tids;
		big.a.set_tid_size = 2;
		big.a.flags = CLONE_INTO_CGROUP;
		syscall(SYS_clone3, &big, sizeof(big));
		syscall(SYS_clone3, &big, sizeof(big.a));
		syscall(SYS_clone3, &big, 32);
	}
	{
		/* arch_prctl's queries (x86-64: this corpus runs there) */
		unsigned long v;

		syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &v);
		syscall(SYS_arch_prctl, 0x1011 /* ARCH_GET_CPUID */, 0);
		syscall(SYS_arch_prctl, 0x1021 /* ARCH_GET_XCOMP_SUPP */, &v);
		syscall(SYS_arch_prctl, 0x1022 /* ARCH_GET_XCOMP_PERM */, NULL);
		syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 1);
		syscall(SYS_arch_prctl, 0x1023, 63);
		syscall(SYS_arch_prctl, 0x3000, 1);
	}
	{
		/* group lists: -1 as -1, the first element too, an array
		 * cut where it cannot be read, one too long to read at all */
		unsigned int g[41];	/* (g + 1 holds 40) */
		int k;

		for (k = 0; k < 41; k++)
			g[k] = (unsigned int)k;
		g[0] = ~0U;
		syscall(SYS_getgroups, 40, g);
		syscall(SYS_setgroups, 2, g);
		syscall(SYS_setgroups, 40, g + 1);
		syscall(SYS_setgroups, 1, (unsigned int *)1);
		syscall(SYS_setgroups, 65537, g);
		syscall(SYS_setgroups, -1, NULL);
	}
	return 0;
}
