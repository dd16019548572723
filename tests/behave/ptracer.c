/* SPDX-License-Identifier: MIT */
/*
 * A ptracer, as gdb and strace are: it must see its tracees' stops as
 * natively, none of the SIGSYS that -m seccomp and syscall user dispatch
 * raise for each call they trap (a blocking wait, WNOHANG polling and
 * waitid), and PTRACE_SYSCALL must keep reporting calls after them, each
 * once (under -m seccomp the filter's trap and sysgate's handler made
 * each call's stops twice, with sysgate's own calls between).  A
 * vfork child that asks to be traced (gdb's way) must reach its execve
 * without stopping while its parent is still inside vfork, and at that
 * execve's stop /proc/PID/exe names the program (gdb reads it there; under
 * -m seccomp the kernel ran sysgate-loader, which maps the program later).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

#define GET_SYSCALL_INFO 0x420e	/* PTRACE_GET_SYSCALL_INFO, Linux 5.3 */
#define TRACESYSGOOD 1

struct syscall_info {
	unsigned char op, pad[3];
	unsigned int arch;
	unsigned long long ip, sp;
	unsigned long long nr;	/* entry: the call's number */
	unsigned long long rest[7];
};

static const char *name(int sig)
{
	static char buf[16];

	if (sig == SIGSTOP)
		return "SIGSTOP";
	if (sig == SIGTRAP)
		return "SIGTRAP";
	if (sig == SIGSYS)
		return "SIGSYS";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/* The traced child: stop, then a few calls. */
static void child(void)
{
	test_assert(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
	raise(SIGSTOP);
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	_exit(7);
}

enum how { BLOCKING, POLLING, WAITID };

/* Wait for pid's next event, the way how says; a wait status. */
static int wait_for(pid_t pid, enum how how)
{
	int st = 0;

	if (how == WAITID) {
		siginfo_t si;

		test_assert(waitid(P_PID, pid, &si, WEXITED | WSTOPPED) == 0);
		test_assert(si.si_pid == pid);
		if (si.si_code == CLD_EXITED)
			return si.si_status << 8;
		test_assert(si.si_code == CLD_TRAPPED);
		return si.si_status << 8 | 0x7f;
	}
	for (;;) {
		pid_t r = waitpid(pid, &st, __WALL |
				  (how == POLLING ? WNOHANG : 0));

		if (r == pid)
			return st;
		test_assert(r == 0 && how == POLLING);
		sched_yield();
	}
}

/* Trace a forked child to its end: the signals it stopped with. */
static void trace_fork(enum how how, int syscalls)
{
	pid_t pid = fork();
	char seen[256] = "";
	int st, getppids = 0;

	if (pid == 0)
		child();
	test_assert(pid > 0);
	for (;;) {
		int sig;

		st = wait_for(pid, how);
		if (WIFEXITED(st))
			break;
		test_assert(WIFSTOPPED(st));
		sig = WSTOPSIG(st);
		if (sig == (SIGTRAP | 0x80)) {
			struct syscall_info si;

			if (ptrace(GET_SYSCALL_INFO, pid, sizeof(si), &si) > 0 &&
			    si.op == 1 && si.nr == SYS_getppid)
				getppids++;
			sig = 0;
		} else {
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
				 " %s", name(sig));
			if (sig == SIGSTOP) {
				if (syscalls)
					test_assert(ptrace(PTRACE_SETOPTIONS, pid, 0,
							   TRACESYSGOOD) == 0);
				sig = 0;
			}
		}
		test_assert(ptrace(syscalls ? PTRACE_SYSCALL : PTRACE_CONT, pid,
				   0, sig) == 0);
	}
	atomic_printf("%s%s: stops%s, exit %d\n",
		      how == BLOCKING ? "waitpid" : how == POLLING ?
		      "waitpid WNOHANG" : "waitid",
		      syscalls ? " with PTRACE_SYSCALL" : "", seen,
		      WEXITSTATUS(st));
	if (syscalls)
		atomic_printf("getppid entries reported: %d\n", getppids);
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc > 1) {
		/* the program the vfork child runs */
		syscall(SYS_getppid);
		return 5;
	}
	trace_fork(BLOCKING, 0);
	trace_fork(POLLING, 0);
	trace_fork(WAITID, 0);
	trace_fork(BLOCKING, 1);

	pid = vfork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0)
			execl("/proc/self/exe", argv[0], "traced", (char *)0);
		_exit(127);
	}
	test_assert(pid > 0);
	st = wait_for(pid, BLOCKING);
	test_assert(WIFSTOPPED(st));
	atomic_printf("vfork child: first stop %s\n", name(WSTOPSIG(st)));
	{
		char self[PATH_MAX], exe[PATH_MAX], path[64];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		test_assert(n > 0);
		self[n] = 0;
		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		atomic_printf("vfork child: at its execve, exe %s\n",
			      strcmp(exe, self) ? exe : "is the program");
	}
	test_assert(ptrace(PTRACE_CONT, pid, 0, 0) == 0);
	st = wait_for(pid, BLOCKING);
	atomic_printf("vfork child: exit %d\n", WEXITSTATUS(st));
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
