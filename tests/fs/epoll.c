/* SPDX-License-Identifier: MIT */
/* under --fs only: the kernel refuses regular files in epoll (EPERM), so
 * there is no native run to compare with.  The semantics checked here are
 * those of a file that is always ready, as poll and select report ours:
 *  - an epoll set mixing a pipe and a file of the prefix reports both, each
 *    with its own data, from one epoll_wait / epoll_pwait / epoll_pwait2;
 *    with the file ready the call does not wait, without it the kernel
 *    waits for the pipe as usual;
 *  - level-triggered entries come back every time (maxevents 1 takes turns
 *    with the kernel's), EPOLLONESHOT ones once until EPOLL_CTL_MOD,
 *    EPOLLET ones once per ADD or MOD, entries without EPOLLIN/EPOLLOUT
 *    never;
 *  - ADD twice is EEXIST, MOD or DEL of what is not there ENOENT, a file
 *    or a pipe as the epoll descriptor EINVAL, a closed one EBADF;
 *  - the last close of the file takes it out of every set; the epoll
 *    descriptor polls readable while the file is in it; a dup of the
 *    epoll descriptor and a forked child see and change the same set.
 * Prints "ok" and exits 0, or says which check failed and exits 1. */
#include "fstest.h"
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#define CHECK(c)                                                          \
	do {                                                              \
		if (!(c)) {                                               \
			printf("line %d: %s failed (errno %s)\n", __LINE__, \
			       #c, strerrorname_np(errno));               \
			exit(1);                                          \
		}                                                         \
	} while (0)

static struct epoll_event out[8];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* epoll_wait; the data fields it returned, as a bit mask of 1 << data */
static unsigned wait_mask(int ep, int max, int ms, int *n)
{
	unsigned m = 0;
	int i;

	*n = epoll_wait(ep, out, max, ms);
	for (i = 0; i < *n; i++)
		m |= 1u << out[i].data.u64;
	return m;
}

static int ctl(int ep, int op, int fd, unsigned events, unsigned long data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, op, fd, &ev);
}

int main(int argc, char **argv)
{
	struct timespec zero = { 0, 0 };
	int fd, p[2], ep, ep2, n, i, st;
	unsigned m, seen;
	double t;
	pid_t pid;

	start(argc, argv);
	CHECK((fd = open(P("e"), O_RDWR | O_CREAT, 0644)) >= 0);
	CHECK(pipe(p) == 0);
	CHECK((ep = epoll_create1(EPOLL_CLOEXEC)) >= 0);
	CHECK(ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 1) == 0);
	CHECK(ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLOUT, 2) == 0);
	CHECK(ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN, 2) < 0 && errno == EEXIST);

	/* The file alone is ready: at once, with both its events. */
	t = now();
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 2 && n == 1);
	CHECK(now() - t < 1.0);
	CHECK(out[0].events == (EPOLLIN | EPOLLOUT));
	/* Level-triggered: again; and the pipe with it once it has data. */
	CHECK(write(p[1], "x", 1) == 1);
	CHECK(wait_mask(ep, 8, 2000, &n) == (1u << 1 | 1u << 2) && n == 2);
	CHECK(epoll_pwait(ep, out, 8, 2000, 0) == 2);
	CHECK(syscall(SYS_epoll_pwait2, ep, out, 8, &zero, 0, 8) == 2);
	/* One slot: the two take turns. */
	for (i = 0, seen = 0; i < 4; i++) {
		seen |= wait_mask(ep, 1, 2000, &n);
		CHECK(n == 1);
	}
	CHECK(seen == (1u << 1 | 1u << 2));

	/* EPOLLONESHOT: once, then disarmed until MOD. */
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLONESHOT, 3) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == (1u << 1 | 1u << 3));
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 1);
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLONESHOT, 4) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == (1u << 1 | 1u << 4));
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 1);
	/* EPOLLET: one edge per MOD. */
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLET, 5) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == (1u << 1 | 1u << 5));
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 1);
	/* Nothing it could report. */
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLPRI, 6) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 1);

	/* DEL, and what is not there. */
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN, 7) == 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, fd, 0) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 1);
	CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, fd, 0) < 0 && errno == ENOENT);
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN, 7) < 0 && errno == ENOENT);

	/* Bad epoll descriptors. */
	CHECK(ctl(fd, EPOLL_CTL_ADD, fd, EPOLLIN, 8) < 0 && errno == EINVAL);
	CHECK(ctl(fd, EPOLL_CTL_ADD, p[0], EPOLLIN, 8) < 0 && errno == EINVAL);
	CHECK(ctl(p[1], EPOLL_CTL_ADD, fd, EPOLLIN, 8) < 0 && errno == EINVAL);
	CHECK(ctl(999, EPOLL_CTL_ADD, fd, EPOLLIN, 8) < 0 && errno == EBADF);
	CHECK(epoll_wait(fd, out, 8, 0) < 0 && errno == EINVAL);
	CHECK(ctl(ep, 99, fd, EPOLLIN, 8) < 0 && errno == EINVAL);

	/* The kernel still waits for its own: empty the pipe, the file is
	 * not in the set, so the call times out... */
	CHECK(read(p[0], &m, 1) == 1);
	t = now();
	CHECK(wait_mask(ep, 8, 200, &n) == 0 && n == 0);
	CHECK(now() - t > 0.15);
	/* ...or wakes for the pipe. */
	CHECK(ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLONESHOT, 9) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 9);
	if ((pid = fork()) == 0) {
		usleep(100 * 1000);
		_exit(write(p[1], "y", 1) != 1);
	}
	t = now();
	CHECK(wait_mask(ep, 8, 5000, &n) == 1u << 1);
	CHECK(now() - t > 0.05);
	CHECK(waitpid(pid, &st, 0) == pid && st == 0);
	CHECK(read(p[0], &m, 1) == 1);

	/* The epoll descriptor is readable while the file is ready in it. */
	CHECK(ctl(ep, EPOLL_CTL_MOD, fd, EPOLLIN, 10) == 0);
	{
		struct pollfd pf = { .fd = ep, .events = POLLIN };

		CHECK(poll(&pf, 1, 0) == 1 && (pf.revents & POLLIN));
	}

	/* A dup of the epoll descriptor names the same set. */
	CHECK((ep2 = dup(ep)) >= 0);
	CHECK(ctl(ep2, EPOLL_CTL_ADD, fd, EPOLLIN, 10) < 0 && errno == EEXIST);
	CHECK(wait_mask(ep2, 8, 2000, &n) == 1u << 10);

	/* A child shares the set: it sees the file, and its DEL counts. */
	if ((pid = fork()) == 0) {
		if (wait_mask(ep, 8, 2000, &n) != 1u << 10)
			_exit(1);
		_exit(epoll_ctl(ep, EPOLL_CTL_DEL, fd, 0) != 0);
	}
	CHECK(waitpid(pid, &st, 0) == pid && st == 0);
	CHECK(wait_mask(ep, 8, 100, &n) == 0);
	CHECK(ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN, 11) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 11);

	/* The last close takes the file out; a dup keeps it in. */
	CHECK((i = dup(fd)) >= 0);
	CHECK(close(fd) == 0);
	CHECK(wait_mask(ep, 8, 2000, &n) == 1u << 11);
	CHECK(close(i) == 0);
	t = now();
	CHECK(wait_mask(ep, 8, 200, &n) == 0 && n == 0);
	CHECK(now() - t > 0.15);
	{
		struct pollfd pf = { .fd = ep, .events = POLLIN };

		CHECK(poll(&pf, 1, 0) == 0);
	}
	printf("ok\n");
	return 0;
}
