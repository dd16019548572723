/* SPDX-License-Identifier: MIT */
/* Process ids of every kind (thread, process, group, session) in
 * arguments and results, in the tracer's pid namespace and in a new
 * one (--decode-pids=pidns translates those, -Y names them).  Without
 * user namespaces the calls run in the tracer's namespace only.
 * SIGCHLD stays blocked: sysgate reports only signals that reach a
 * handler.  The waits take any child: -Y's name of a pid argument is
 * read when the line is written, and a waited-for child is gone then
 * (strace reads it at the call's entry). */
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
