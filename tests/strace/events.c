/* SPDX-License-Identifier: MIT */
/*
 * Process events under -f, as strace prints them: a child killed by
 * SIGTERM while blocked in pause ("pause() = ? ERESTARTNOHAND", the
 * signal, "+++ killed by SIGTERM +++"), a child killed by its own fault
 * ("--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10}
 * ---"), one that exits, a thread's own "+++ exited" line, and the
 * parent's SIGCHLD with its whole siginfo, each after the call at whose
 * return it came (rt_sigreturn with the mask and result it restores),
 * and exit_group ending a thread blocked in pause ("pause() = ?", then
 * its own "+++ exited with 0 +++").
 *
 * To be the same run after run: SIGCHLD stays blocked until each child
 * is reaped (it comes at the unblocking call's return), the parent kills
 * the first child only once /proc says it sleeps in pause (polled with
 * pread64, which the test leaves out of both traces), and the thread is
 * joined through a pipe (futex, whose calls depend on timing, is left
 * out too, and so are clone3 and madvise, whose sizes depend on the TLS
 * a preloaded sysgate adds).  No core files: RLIMIT_CORE is 0.
 */
#include "corpus.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static volatile int chld;
static int pfd[2];
static int *volatile bad = (int *)0x10;

static void on_chld(int sig)
{
	chld = sig;
}

static void *thread(void *arg)
{
	(void)arg;
	check(write(pfd[1], "t", 1) == 1, "write");
	return NULL;
}

static volatile pid_t sleeper;

static void *sleeping_thread(void *arg)
{
	(void)arg;
	sleeper = gettid();
	pause();
	return NULL;
}

/* Waits until the task of /proc/DIR/stat sleeps (in pause: it has nothing
 * else to sleep in). */
static void wait_sleeping(const char *dir, pid_t pid)
{
	char path[64], buf[256], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s%d/stat", dir, (int)pid);
	fd = open(path, O_RDONLY);
	check(fd >= 0, "open /proc/PID/stat");
	for (;;) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		check(n > 0, "pread");
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			break;
	}
	close(fd);
}

static void reap(pid_t pid, const sigset_t *set)
{
	int st;

	check(waitpid(pid, &st, 0) == pid, "waitpid");
	check(sigprocmask(SIG_UNBLOCK, set, NULL) == 0 && chld == SIGCHLD,
	      "SIGCHLD");
	chld = 0;
	check(sigprocmask(SIG_BLOCK, set, NULL) == 0, "sigprocmask");
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_chld };
	struct rlimit nocore = { 0, 0 };
	sigset_t set;
	pthread_t t;
	pid_t pid;
	char c;

	check(setrlimit(RLIMIT_CORE, &nocore) == 0, "setrlimit");
	check(pipe(pfd) == 0, "pipe");
	begin();
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "sigprocmask");
	sigemptyset(&sa.sa_mask);
	check(sigaction(SIGCHLD, &sa, NULL) == 0, "sigaction");

	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		pause();
		_exit(1);
	}
	wait_sleeping("", pid);
	check(kill(pid, SIGTERM) == 0, "kill");
	reap(pid, &set);

	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		*bad = 1;
		_exit(1);
	}
	reap(pid, &set);

	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0)
		_exit(7);
	reap(pid, &set);

	check(pthread_create(&t, NULL, thread, NULL) == 0, "pthread_create");
	check(read(pfd[0], &c, 1) == 1, "read");
	check(pthread_join(t, NULL) == 0, "pthread_join");

	check(pthread_create(&t, NULL, sleeping_thread, NULL) == 0,
	      "pthread_create");
	while (!sleeper)
		;
	wait_sleeping("self/task/", sleeper);
	return 0;
}
