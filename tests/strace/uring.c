/* SPDX-License-Identifier: MIT */
/* io_uring: a ring set up (its parameters and offsets as the kernel
 * returns them), entered, and each register opcode with an argument:
 * descriptor and buffer tables with tags, their updates (a skipped
 * slot), a probe the kernel fills, restrictions (refused: the ring is
 * enabled), worker affinity and limits (the old limits returned), ring
 * descriptors, a provided buffer ring the kernel refuses, and an opcode
 * it does not know. */
#include "corpus.h"
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/io_uring.h>

static long reg(int fd, unsigned int op, const void *arg, unsigned int n)
{
	return syscall(SYS_io_uring_register, fd, op, arg, n);
}

int main(void)
{
	struct io_uring_params p;
	static char buf[2][64];
	struct iovec iov[2] = { { buf[0], 64 }, { buf[1], 64 } };
	uint64_t tags[2] = { 1, 0xfeed };
	int fds[3], upd[3] = { -2, -1, 0 };
	struct io_uring_rsrc_register rr;
	struct io_uring_rsrc_update2 ru;
	struct io_uring_files_update fu;
	union {
		struct io_uring_probe pr;
		char b[sizeof(struct io_uring_probe) +
		       4 * sizeof(struct io_uring_probe_op)];
	} probe;
	struct io_uring_restriction res[2];
	struct io_uring_rsrc_update ring[2];
	struct io_uring_buf_reg br;
	unsigned long aff = 1;
	unsigned int maxw[2] = { 0, 0 };
	int fd;

	memset(&p, 0, sizeof(p));
	memset(&rr, 0, sizeof(rr));
	memset(&ru, 0, sizeof(ru));
	memset(&fu, 0, sizeof(fu));
	memset(&probe, 0, sizeof(probe));
	memset(res, 0, sizeof(res));
	memset(ring, 0, sizeof(ring));
	memset(&br, 0, sizeof(br));
	fds[0] = open("/dev/null", O_RDONLY);
	fds[1] = open("/dev/zero", O_RDONLY);
	fds[2] = -1;
	check(fds[0] >= 0 && fds[1] >= 0, "open");
	begin();
	fd = syscall(SYS_io_uring_setup, 4, &p);
	if (fd < 0) {
		/* (no io_uring here: the calls still print, and fail) */
		fd = fds[0];
	}
	syscall(SYS_io_uring_enter, fd, 0, 0, IORING_ENTER_GETEVENTS, NULL,
		8);
	reg(fd, IORING_REGISTER_PROBE, &probe, 4);
	reg(fd, IORING_REGISTER_FILES, fds, 3);
	fu.offset = 1;
	fu.fds = (uintptr_t)upd;
	reg(fd, IORING_REGISTER_FILES_UPDATE, &fu, 3);
	reg(fd, IORING_UNREGISTER_FILES, NULL, 0);
	rr.nr = 2;
	rr.data = (uintptr_t)fds;
	rr.tags = (uintptr_t)tags;
	reg(fd, IORING_REGISTER_FILES2, &rr, sizeof(rr));
	ru.nr = 1;
	ru.data = (uintptr_t)upd;
	ru.tags = (uintptr_t)tags;
	reg(fd, IORING_REGISTER_FILES_UPDATE2, &ru, sizeof(ru));
	reg(fd, IORING_UNREGISTER_FILES, NULL, 0);
	reg(fd, IORING_REGISTER_BUFFERS, iov, 2);
	reg(fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	rr.data = (uintptr_t)iov;
	reg(fd, IORING_REGISTER_BUFFERS2, &rr, sizeof(rr));
	ru.data = (uintptr_t)iov;
	reg(fd, IORING_REGISTER_BUFFERS_UPDATE, &ru, sizeof(ru));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_READV;
	res[1].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	res[1].sqe_flags = IOSQE_FIXED_FILE | IOSQE_ASYNC;
	reg(fd, IORING_REGISTER_RESTRICTIONS, res, 2);
	reg(fd, IORING_REGISTER_IOWQ_AFF, &aff, sizeof(aff));
	reg(fd, IORING_UNREGISTER_IOWQ_AFF, NULL, 0);
	reg(fd, IORING_REGISTER_IOWQ_MAX_WORKERS, maxw, 2);
	ring[0].offset = -1U;
	ring[0].data = fd;
	reg(fd, IORING_REGISTER_RING_FDS, ring, 1);
	reg(fd, IORING_UNREGISTER_RING_FDS, ring, 1);
	br.ring_entries = 3;
	br.bgid = 7;
	reg(fd, IORING_REGISTER_PBUF_RING, &br, 1);
	reg(fd, 0x99, buf, 1);
	close(fd);
	return 0;
}
