/* SPDX-License-Identifier: MIT */
/* Waiting for descriptors: poll, ppoll, select, pselect6, epoll. */
#include "corpus.h"
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>

int main(void)
{
	struct pollfd pfd[2], more[4];
	struct epoll_event ev = { .events = EPOLLIN }, out[4];
	struct timespec ts = { 0, 1000 };
	struct timeval tv = { 0, 1000 };
	fd_set rd, wr;
	int p[2], ep;

	begin();
	check(pipe(p) == 0, "pipe");
	check(write(p[1], "x", 1) == 1, "write");
	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = p[1];
	pfd[1].events = POLLOUT;
	check(poll(pfd, 2, 100) == 2, "poll");
	pfd[1].events = POLLIN | POLLPRI;
	check(ppoll(pfd + 1, 1, &ts, NULL) == 0, "ppoll");
	/* a negative descriptor (skipped: its fd alone), more entries than
	 * -s 2 shows (list.sh), several ready */
	more[0] = (struct pollfd){ -1, POLLIN, 0 };
	more[1] = (struct pollfd){ p[0], POLLIN, 0 };
	more[2] = (struct pollfd){ p[1], POLLOUT, 0 };
	more[3] = (struct pollfd){ p[1], POLLOUT | POLLIN, 0 };
	check(poll(more, 4, 0) == 3, "poll more");
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	check(select(p[1] + 1, &rd, &wr, NULL, &tv) == 2, "select");
	FD_ZERO(&rd);
	FD_SET(p[1], &rd);
	check(pselect(p[1] + 1, &rd, NULL, NULL, &ts, NULL) == 0, "pselect");
	/* sets past 64 descriptors, and none (nfds 0: addresses) */
	check(dup2(p[0], 100) == 100, "dup2");
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	FD_SET(100, &rd);
	tv.tv_usec = 0;
	check(select(101, &rd, NULL, NULL, &tv) == 2, "select 101");
	tv.tv_usec = 0;
	check(select(0, &rd, NULL, NULL, &tv) == 0, "select 0");
	close(100);
	ep = epoll_create1(EPOLL_CLOEXEC);
	check(ep >= 0, "epoll_create1");
	ev.data.fd = p[0];
	check(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0, "epoll_ctl");
	check(epoll_wait(ep, out, 4, 100) == 1, "epoll_wait");
	ev.events = EPOLLIN | EPOLLET;
	check(epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev) == 0, "epoll_ctl");
	check(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL) == 0, "epoll_ctl");
	/* (an event DEL ignores: its address) */
	check(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], &ev) < 0, "epoll_ctl DEL");
	check(epoll_pwait(ep, out, 4, 0, NULL) == 0, "epoll_pwait");
	close(ep);
	close(p[0]);
	close(p[1]);
	return 0;
}
