/* SPDX-License-Identifier: MIT */
/* Process ids of every kind (thread, process, group, session) in
 * arguments and results, in the tracer's pid namespace and in a new
 * one (--decode-pids=pidns translates those, -Y names them).  Without
 * user namespaces the calls run in the tracer's namespace only.
 * SIGCHLD stays blocked: sysgate reports only signals that reach a
 * handler.  waits(): -Y names a waited-for child as it was at the
 * call's entry (it is gone when the call returns), and siginfo's si_pid
 * as it is at exit. */
#include "corpus.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void ids(void)
{
	int tid = syscall(SYS_gettid);
	struct f_owner_ex own = { F_OWNER_TID, tid };

	syscall(SYS_getpid);
	syscall(SYS_gettid);
	syscall(SYS_getpgrp);
	syscall(SYS_getsid, 0);
	syscall(SYS_getpgid, getpid());
	syscall(SYS_kill, getpid(), 0);
	syscall(SYS_kill, -getpgrp(), 0);
	syscall(SYS_tgkill, getpid(), tid, 0);
	syscall(SYS_getpriority, PRIO_PROCESS, getpid());
	syscall(SYS_sched_getscheduler, getpid());
	syscall(SYS_fcntl, 1, F_SETOWN_EX, &own);
	syscall(SYS_fcntl, 1, F_GETOWN_EX, &own);
	syscall(SYS_fcntl, 1, F_SETOWN, 0);
	syscall(SYS_kcmp, getpid(), getpid(), 0 /* KCMP_FILE */, 1, 1);
	syscall(SYS_kcmp, getpid(), getpid(), 1 /* KCMP_VM */, 0, 0);
	syscall(SYS_kcmp, getpid(), -1, 9, 1, 2);
}

/* A child that waits for a byte on a pipe, then exits. */
static pid_t sleeper(int *wfd)
{
	int p[2];
	char c;
	pid_t pid;

	check(pipe(p) == 0, "pipe");
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 3 : 4);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void waits(void)
{
	siginfo_t si;
	int wfd, st;
	pid_t pid = sleeper(&wfd);

	syscall(SYS_waitid, P_PID, pid, &si, WEXITED | WNOHANG, NULL);
	check(write(wfd, "", 1) == 1, "write");
	syscall(SYS_waitid, P_PID, pid, &si, WEXITED, NULL);
	close(wfd);
	pid = sleeper(&wfd);
	check(write(wfd, "", 1) == 1, "write");
	syscall(SYS_wait4, pid, &st, 0, NULL);
	close(wfd);
}

int main(void)
{
	sigset_t chld;
	pid_t pid;
	int st;

	begin();
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &chld, NULL) == 0, "sigprocmask");
	ids();
	waits();
	if (unshare(CLONE_NEWUSER | CLONE_NEWPID) < 0)
		return 0;
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		/* the namespace's first process, then its second */
		ids();
		pid = fork();
		if (pid == 0) {
			ids();
			_exit(0);
		}
		check(wait4(-1, &st, 0, NULL) == pid, "wait4");
		_exit(0);
	}
	check(wait4(-1, &st, 0, NULL) == pid, "wait4");
	return 0;
}
