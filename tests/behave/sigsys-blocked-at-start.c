/* SPDX-License-Identifier: MIT */
/*
 * A program started with SIGSYS and SIGTRAP blocked (its parent's mask,
 * kept across execve: strace's own test set_sigblock, a shell that
 * blocked them): its calls from sites never run before still work (a
 * trap while the signal is blocked would kill it), it reads back the
 * mask it came with, and a program it execs starts with that mask too.
 * (Under sysgate the first run died of SIGSYS.)
 */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

static int blocked(int sig)
{
	sigset_t s;

	test_assert(sigprocmask(SIG_BLOCK, 0, &s) == 0);
	return sigismember(&s, sig);
}

int main(int argc, char **argv)
{
	sigset_t set;
	pid_t pid;
	int status;

	if (argc > 1 && !strcmp(argv[1], "again")) {
		test_assert(blocked(SIGSYS) && blocked(SIGTRAP));
		test_assert(syscall(SYS_getppid) > 0);
		atomic_puts("the exec'd program: blocked too");
		return 0;
	}
	if (argc == 1) {
		sigemptyset(&set);
		sigaddset(&set, SIGSYS);
		sigaddset(&set, SIGTRAP);
		test_assert(sigprocmask(SIG_BLOCK, &set, 0) == 0);
		execl("/proc/self/exe", argv[0], "blocked", (char *)0);
		test_assert(!"execl");
	}
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP));
	atomic_puts("started with SIGSYS and SIGTRAP blocked");
	/* calls from sites of their own, run for the first time */
	test_assert(syscall(SYS_getpid) == getpid());
	test_assert(syscall(SYS_gettid) > 0);
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP));
	atomic_puts("calls made, the mask read back as it came");
	pid = fork();
	test_assert(pid >= 0);
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "again", (char *)0);
		_exit(127);
	}
	test_assert(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
