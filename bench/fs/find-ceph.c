/* SPDX-License-Identifier: MIT */
/*
 * find-ceph CONF PATH: bench/fs/ceph.sh's `find` row called on libcephfs
 * directly (the floor for --fs on CephFS): prints PATH and every path
 * below it, as `find PATH` does, reading each directory with
 * ceph_getdents, with a client of its own made first and unmounted at
 * the end, as a `find` under --fs has, and as --fs does it: a statfs
 * round trip first, after which the MDS's last replies have dropped
 * their inode references (else libcephfs 16's unmount waits for its next
 * tick, up to a second: doc/fs.md).  libcephfs is loaded with dlopen, so
 * building this needs no Ceph package.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include "cephdl.h"

#define BUF (1 << 20)

struct cdir;				/* struct ceph_dir_result */
static int (*opendir_)(struct cm *, const char *, struct cdir **);
static int (*closedir_)(struct cm *, struct cdir *);
static int (*getdents_)(struct cm *, struct cdir *, char *, int);
static int (*statfs_)(struct cm *, const char *, struct statvfs *);

/* path's entries, depth first; 0 or -errno */
static int walk(struct cm *cm, const char *path)
{
	struct cdir *d;
	char *buf = malloc(BUF), sub[4096];
	int n, r = opendir_(cm, path, &d);

	if (!buf || r < 0)
		return free(buf), r < 0 ? r : -12;
	while (r >= 0 && (n = getdents_(cm, d, buf, BUF)) > 0) {
		struct dirent *e;

		for (e = (struct dirent *)buf; (char *)e < buf + n; e++) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
			puts(sub);
			if (e->d_type == DT_DIR && (r = walk(cm, sub)) < 0)
				break;
		}
	}
	closedir_(cm, d);
	free(buf);
	return r < 0 ? r : n;
}

int main(int argc, char **argv)
{
	struct statvfs v;
	struct cm *cm;
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: find-ceph CONF PATH\n");
		return 2;
	}
	if (!(cm = mount_conf(argv[1])))
		return 1;
	SYM(opendir_, "ceph_opendir");
	SYM(closedir_, "ceph_closedir");
	SYM(getdents_, "ceph_getdents");
	SYM(statfs_, "ceph_statfs");
	puts(argv[2]);
	r = walk(cm, argv[2]);
	statfs_(cm, "/", &v);
	unmount_(cm);
	if (r < 0)
		return fprintf(stderr, "%s: %s\n", argv[2], strerror(-r)), 1;
	return 0;
}
