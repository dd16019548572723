/* SPDX-License-Identifier: MIT */
/* Linux native AIO on a file in the scratch directory: a context set up,
 * a write (its data), a vectored read (its buffers), an fsync and a poll
 * submitted with flags, priorities and a result descriptor, their events
 * collected with a timeout and a signal mask, a cancel the kernel
 * refuses, the context destroyed. */
#include "corpus.h"
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/aio_abi.h>

int main(int argc, char **argv)
{
	aio_context_t ctx = 0;
	struct iocb w, r, s, p, *cbs[4] = { &w, &r, &s, &p };
	struct io_event ev[4];
	static char data[] = "written by aio", in[2][8];
	struct iovec iov[2] = { { in[0], 8 }, { in[1], 6 } };
	struct timespec ts = { 1, 0 };
	sigset_t mask;
	struct {
		sigset_t *set;
		unsigned long size;
	} sig = { &mask, 8 };
	int fd, efd;

	(void)argc;
	check(chdir(argv[1]) == 0, "chdir");
	fd = open("aio", O_RDWR | O_CREAT, 0600);
	efd = eventfd(0, 0);
	check(fd >= 0 && efd >= 0, "open");
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	memset(cbs[0], 0, sizeof(w));
	memset(cbs[1], 0, sizeof(r));
	memset(cbs[2], 0, sizeof(s));
	memset(cbs[3], 0, sizeof(p));
	w.aio_data = 1;
	w.aio_lio_opcode = IOCB_CMD_PWRITE;
	w.aio_fildes = fd;
	w.aio_buf = (unsigned long)data;
	w.aio_nbytes = sizeof(data) - 1;
	w.aio_flags = IOCB_FLAG_RESFD;
	w.aio_resfd = efd;
	r.aio_data = 2;
	r.aio_lio_opcode = IOCB_CMD_PREADV;
	r.aio_fildes = fd;
	r.aio_buf = (unsigned long)iov;
	r.aio_nbytes = 2;
	r.aio_reqprio = 3;
	s.aio_lio_opcode = IOCB_CMD_FSYNC;
	s.aio_fildes = fd;
	p.aio_lio_opcode = IOCB_CMD_POLL;
	p.aio_fildes = efd;
	p.aio_buf = POLLIN;
	begin();
	syscall(SYS_io_setup, 8, &ctx);
	syscall(SYS_io_submit, ctx, 1, cbs);
	syscall(SYS_io_getevents, ctx, 1, 4, ev, &ts);
	syscall(SYS_io_submit, ctx, 2, cbs + 1);
	syscall(SYS_io_pgetevents, ctx, 2, 4, ev, &ts, &sig);
	syscall(SYS_io_submit, ctx, 1, cbs + 3);
	syscall(SYS_io_cancel, ctx, &w, ev);
	syscall(SYS_io_getevents, ctx, 1, 1, ev, NULL);
	syscall(SYS_io_destroy, ctx);
	syscall(SYS_io_submit, 0, -1, NULL);
	close(efd);
	close(fd);
	return 0;
}
