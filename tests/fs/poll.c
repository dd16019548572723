/* SPDX-License-Identifier: MIT */
/* poll and select over a file of the prefix and a pipe together: the
 * file is ready at once, the pipe when it has data.  (epoll: epoll.c.) */
#include "fstest.h"
#include <poll.h>
#include <sys/select.h>

int main(int argc, char **argv)
{
	struct pollfd pf[3];
	struct timespec ts = { 0, 0 };
	fd_set r, w;
	int fd, p[2];

	start(argc, argv);
	T(fd = open(P("p"), O_RDWR | O_CREAT, 0644));
	T(pipe(p));
	pf[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	pf[2] = (struct pollfd){ .fd = -1, .events = POLLIN };
	T(poll(pf, 3, 1000));
	printf("revents %x %x %x\n", pf[0].revents, pf[1].revents, pf[2].revents);
	T(write(p[1], "x", 1));
	T(ppoll(pf, 3, &ts, 0));
	printf("revents %x %x %x\n", pf[0].revents, pf[1].revents, pf[2].revents);
	pf[1].events = 0;
	T(poll(pf, 2, 1000));
	printf("revents %x %x\n", pf[0].revents, pf[1].revents);
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(p[0], &r);
	FD_SET(fd, &r);
	FD_SET(fd, &w);
	T(select((fd > p[0] ? fd : p[0]) + 1, &r, &w, 0, 0));
	printf("select %d %d %d\n", FD_ISSET(p[0], &r), FD_ISSET(fd, &r),
	       FD_ISSET(fd, &w));
	return 0;
}
