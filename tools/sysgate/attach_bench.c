/* SPDX-License-Identifier: MIT */
/*
 * sysgate bench's attach row: a running program calling getppid in a
 * loop, its call rate unattached, then while `sysgate -c -p`, `sysgate
 * -m ptrace -c -p` and `strace -f -c -p` (where installed) are attached,
 * each as a ratio of the unattached rate measured just before it, the
 * best of the rounds (a noisy moment only ever lowers a rate).  The
 * program is sysgate-bench-loop spin, which counts its calls in a memfd
 * this process reads (bench/attach/run.sh measures the same with
 * tests/attach/loop, outside sysgate bench).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "cli.h"

static volatile unsigned long *calls;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void pause_s(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&t, &t) < 0)
		;
}

/* Calls per second the program makes over secs. */
static double rate(double secs)
{
	unsigned long c0 = *calls, c1;
	double t0 = now_s(), t1;

	pause_s(secs);
	c1 = *calls;
	t1 = now_s();
	return (c1 - c0) / (t1 - t0);
}

/* The rate while argv runs attached (its output to /dev/null); -1 if
 * it ended before it could be measured (not installed, refused). */
static double attached_rate(char *const argv[], double secs)
{
	pid_t s = fork();
	double r;
	int st;

	if (s < 0)
		return -1;
	if (!s) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	pause_s(0.5);	/* (attached by then; earlier samples would mix) */
	r = waitpid(s, &st, WNOHANG) == s ? -1 : rate(secs);
	kill(s, SIGINT);
	waitpid(s, &st, 0);
	return r;
}

int sg_bench_attach(struct sg_attach_bench *b, const char *sysgate,
		    const char *loop, int quick)
{
	char pid[16];
	double secs = quick ? 0.3 : 1, best[SG_ATTACH_BENCH_N] = { 0 };
	char *argv[SG_ATTACH_BENCH_N][9] = {
		{ (char *)sysgate, "-c", "-p", pid, "-o", "/dev/null", 0 },
		{ (char *)sysgate, "-m", "ptrace", "-c", "-p", pid, "-o",
		  "/dev/null", 0 },
		{ "strace", "-f", "-c", "-p", pid, "-o", "/dev/null", 0 },
	};
	pid_t p;
	int round, i, mfd;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < SG_ATTACH_BENCH_N; i++)
		b->ratio[i] = -1;
	mfd = memfd_create("sysgate-bench-calls", MFD_CLOEXEC);
	if (mfd < 0 || ftruncate(mfd, 4096) < 0)
		return -1;
	calls = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (calls == MAP_FAILED)
		return -1;
	p = fork();
	if (p < 0)
		return -1;
	if (!p) {
		char fd[16];

		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		fcntl(mfd, F_SETFD, 0);		/* (the loop's alone) */
		snprintf(fd, sizeof(fd), "%d", mfd);
		execl(loop, loop, "spin", fd, (char *)0);
		_exit(127);
	}
	while (!*calls && waitpid(p, 0, WNOHANG) != p)
		;
	snprintf(pid, sizeof(pid), "%d", p);
	for (round = 0; round < 2 && *calls; round++) {
		double nat = rate(secs);

		if (nat > b->native)
			b->native = nat;
		for (i = 0; i < SG_ATTACH_BENCH_N; i++) {
			double r = attached_rate(argv[i], secs);

			if (r < 0)
				best[i] = -1;
			else if (best[i] >= 0 && r / nat > best[i])
				best[i] = r / nat;
		}
	}
	kill(p, SIGKILL);
	waitpid(p, 0, 0);
	munmap((void *)calls, 4096);
	close(mfd);
	for (i = 0; i < SG_ATTACH_BENCH_N; i++)
		b->ratio[i] = round ? best[i] : -1;
	return round ? 0 : -1;
}
