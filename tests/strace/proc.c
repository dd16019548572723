/* SPDX-License-Identifier: MIT */
/* Processes: fork (clone), threads (clone3), wait4 status, prctl,
 * rlimits, ids. */
#include "corpus.h"
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

static void *thread(void *arg)
{
	return arg;
}

int main(void)
{
	struct rlimit rl;
	pthread_t th;
	char name[16];
	int status;
	pid_t pid;

	begin();
	check(prctl(PR_SET_NAME, "corpus-proc") == 0, "PR_SET_NAME");
	check(prctl(PR_GET_NAME, name) == 0, "PR_GET_NAME");
	check(prctl(PR_GET_DUMPABLE) >= 0, "PR_GET_DUMPABLE");
	check(getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit");
	check(setrlimit(RLIMIT_NOFILE, &rl) == 0, "setrlimit");
	check(getrlimit(RLIMIT_STACK, &rl) == 0, "getrlimit");
	check(getpriority(PRIO_PROCESS, 0) >= -20, "getpriority");
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
	check(pthread_create(&th, NULL, thread, NULL) == 0, "pthread_create");
	check(pthread_join(th, NULL) == 0, "pthread_join");
	return 0;
}
