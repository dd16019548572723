/* SPDX-License-Identifier: MIT */
/*
 * A program that makes children while sysgate may be attached (-p -f).
 * Every 10 ms it writes "tick T ppid=P"; on SIGUSR1 it forks a child
 * that writes "child C" and then, every 10 ms, "ctick T ppid=P" (its
 * getppid: the parent's pid, which an injection changes), until killed.
 * With "exec" as argv[1] the child runs `PROG execd` instead, which
 * writes the same lines as a child does; with "orphan" the child
 * outlives its parent (else it dies with it).  On SIGUSR2 the program itself
 * runs `PROG execd`.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static volatile sig_atomic_t want_child, want_exec;

static void on_usr(int sig)
{
	if (sig == SIGUSR1)
		want_child = 1;
	else
		want_exec = 1;
}

static void child_loop(void)
{
	struct timespec ms10 = { 0, 10000000 };
	long t;

	printf("child %d\n", getpid());
	fflush(stdout);
	for (t = 0;; t++) {
		nanosleep(&ms10, 0);
		printf("ctick %ld ppid=%ld\n", t, syscall(SYS_getppid));
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	struct timespec ms10 = { 0, 10000000 };
	int exec = argc > 1 && !strcmp(argv[1], "exec");
	int orphan = argc > 1 && !strcmp(argv[1], "orphan");
	long t;

	if (argc > 1 && !strcmp(argv[1], "execd"))
		child_loop();
	/* (a sibling sysgate may attach under ptrace_scope=1) */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	signal(SIGUSR1, on_usr);
	signal(SIGUSR2, on_usr);
	printf("ready %d\n", getpid());
	fflush(stdout);
	for (t = 0;; t++) {
		nanosleep(&ms10, 0);
		if (want_exec)
			execl("/proc/self/exe", argv[0], "execd", (char *)0);
		if (want_child) {
			want_child = 0;
			if (fork() == 0) {
				if (!orphan)
					prctl(PR_SET_PDEATHSIG, SIGKILL, 0,
					      0, 0);
				if (exec)
					execl("/proc/self/exe", argv[0],
					      "execd", (char *)0);
				child_loop();
			}
		}
		printf("tick %ld ppid=%ld\n", t, syscall(SYS_getppid));
		fflush(stdout);
	}
}
