/* SPDX-License-Identifier: MIT */
/*
 * seq-ceph CONF PATH MIB write|read: bench/fs/ceph.sh's `dd` rows called
 * on libcephfs directly (the floor for --fs on CephFS): write MIB MiB of
 * zeros to PATH (in CephFS) in 4 MiB calls and fsync, or read it back in
 * 4 MiB calls, with a client of its own made first, as each `dd` under
 * --fs has; prints the seconds the calls took.  libcephfs is loaded with
 * dlopen, so building this needs no Ceph package.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cephdl.h"

#define CHUNK (4L << 20)

static int (*open_)(struct cm *, const char *, int, unsigned int);
static int (*close_)(struct cm *, int);
static int (*read_)(struct cm *, int, char *, long, long);
static int (*write_)(struct cm *, int, const char *, long, long);
static int (*fsync_)(struct cm *, int, int);

int main(int argc, char **argv)
{
	struct cm *cm;
	long mib, i, r, total = 0;
	int fd, wr;
	double t0;
	char *buf;

	if (argc != 5 || (mib = atol(argv[3])) <= 0 ||
	    (strcmp(argv[4], "write") && strcmp(argv[4], "read"))) {
		fprintf(stderr, "usage: seq-ceph CONF PATH MIB write|read\n");
		return 2;
	}
	wr = !strcmp(argv[4], "write");
	if (!(cm = mount_conf(argv[1])))
		return 1;
	SYM(open_, "ceph_open");
	SYM(close_, "ceph_close");
	SYM(read_, "ceph_read");
	SYM(write_, "ceph_write");
	SYM(fsync_, "ceph_fsync");
	buf = calloc(1, CHUNK);
	if (!buf)
		return fprintf(stderr, "out of memory\n"), 1;
	t0 = now();
	fd = open_(cm, argv[2], wr ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY,
		   0644);
	if (fd < 0)
		return fprintf(stderr, "%s: %s\n", argv[2], strerror(-fd)), 1;
	for (i = 0; i < mib / 4; i++) {
		r = wr ? write_(cm, fd, buf, CHUNK, -1) :
			 read_(cm, fd, buf, CHUNK, -1);
		if (r < 0)
			return fprintf(stderr, "%s\n", strerror(-r)), 1;
		total += r;
		if (r < CHUNK)
			break;
	}
	if (wr && fsync_(cm, fd, 0) < 0)
		return fprintf(stderr, "fsync failed\n"), 1;
	close_(cm, fd);
	printf("%.6f %ld\n", now() - t0, total);
	unmount_(cm);
	return 0;
}
