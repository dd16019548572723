/* SPDX-License-Identifier: MIT */
/*
 * smallfiles-ceph CONF DIR N: bench/fs/smallfiles.c's phases called on
 * libcephfs directly (the floor for --fs on CephFS): create N files of
 * 100 bytes in DIR (a path in CephFS), stat, read, unlink them; one JSON
 * object of rates.  libcephfs is loaded with dlopen, so building this
 * needs no Ceph package.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "cephdl.h"

static int (*mkdir_)(struct cm *, const char *, unsigned int);
static int (*open_)(struct cm *, const char *, int, unsigned int);
static int (*close_)(struct cm *, int);
static int (*read_)(struct cm *, int, char *, long, long);
static int (*write_)(struct cm *, int, const char *, long, long);
static int (*stat_)(struct cm *, const char *, struct stat *);
static int (*unlink_)(struct cm *, const char *);

int main(int argc, char **argv)
{
	static const char *phase[] = { "create", "stat", "read", "unlink" };
	char path[4096], buf[100] = { 0 };
	struct cm *cm;
	double rate[4];
	struct stat st;
	int n, i, p, fd;

	if (argc != 4 || (n = atoi(argv[3])) <= 0) {
		fprintf(stderr, "usage: smallfiles-ceph CONF DIR N\n");
		return 2;
	}
	if (!(cm = mount_conf(argv[1])))
		return 1;
	SYM(mkdir_, "ceph_mkdir");
	SYM(open_, "ceph_open");
	SYM(close_, "ceph_close");
	SYM(read_, "ceph_read");
	SYM(write_, "ceph_write");
	SYM(stat_, "ceph_stat");
	SYM(unlink_, "ceph_unlink");
	mkdir_(cm, argv[2], 0755);
	for (p = 0; p < 4; p++) {
		double t0 = now();

		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/f%06d", argv[2], i);
			switch (p) {
			case 0:
				fd = open_(cm, path, O_WRONLY | O_CREAT | O_EXCL, 0644);
				if (fd < 0 || write_(cm, fd, buf, sizeof(buf), -1) !=
						      sizeof(buf))
					return fprintf(stderr, "%s\n", path), 1;
				close_(cm, fd);
				break;
			case 1:
				if (stat_(cm, path, &st) < 0 ||
				    st.st_size != sizeof(buf))
					return fprintf(stderr, "%s\n", path), 1;
				break;
			case 2:
				fd = open_(cm, path, O_RDONLY, 0);
				if (fd < 0 || read_(cm, fd, buf, sizeof(buf), -1) !=
						      sizeof(buf))
					return fprintf(stderr, "%s\n", path), 1;
				close_(cm, fd);
				break;
			case 3:
				if (unlink_(cm, path) < 0)
					return fprintf(stderr, "%s\n", path), 1;
				break;
			}
		}
		rate[p] = n / (now() - t0);
	}
	unmount_(cm);
	printf("{\"files\":%d", n);
	for (p = 0; p < 4; p++)
		printf(",\"%s_per_s\":%.0f", phase[p], rate[p]);
	printf("}\n");
	return 0;
}
