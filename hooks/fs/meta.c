/* SPDX-License-Identifier: MIT */
/*
 * fs: the arena's metadata: stat, statx, statfs, access, modes, owners
 * and times.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"

#define ST_DEV ((0x47UL) | (0xfff00UL << 12))	/* major 0, minor 0xfff47 */
#define TMPFS_MAGIC_ 0x01021994
#define UTIME_NOW_ ((1L << 30) - 1)
#define UTIME_OMIT_ ((1L << 30) - 2)

static void fill_stat(struct stat *st, unsigned int ino)
{
	struct fs_inode *n = fs_ino(ino);

	hk_memset(st, 0, sizeof(*st));
	st->st_dev = ST_DEV;
	st->st_ino = ino;
	st->st_nlink = n->nlink;
	st->st_mode = n->mode;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_size = fs_is_dir(n) ? (n->nent + 2) * 20 : n->size;
	st->st_blksize = FS_BLOCK;
	st->st_blocks = n->nblocks * (FS_BLOCK / 512);
	st->st_atime = n->atime[0];
	st->st_atime_nsec = n->atime[1];
	st->st_mtime = n->mtime[0];
	st->st_mtime_nsec = n->mtime[1];
	st->st_ctime = n->ctime[0];
	st->st_ctime_nsec = n->ctime[1];
}

long fs_put_stat(struct sysgate_sys *s, void *dst, unsigned int ino)
{
	struct stat st;

	fill_stat(&st, ino);
	return fs_write_mem(s, dst, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

long fs_put_statx(struct sysgate_sys *s, void *dst, unsigned int ino)
{
	struct fs_inode *n = fs_ino(ino);
	struct statx x;
	struct stat st;

	fill_stat(&st, ino);
	hk_memset(&x, 0, sizeof(x));
	x.stx_mask = STATX_BASIC_STATS | STATX_BTIME;
	x.stx_blksize = FS_BLOCK;
	x.stx_nlink = st.st_nlink;
	x.stx_uid = st.st_uid;
	x.stx_gid = st.st_gid;
	x.stx_mode = st.st_mode;
	x.stx_ino = ino;
	x.stx_size = st.st_size;
	x.stx_blocks = st.st_blocks;
	x.stx_atime.tv_sec = n->atime[0];
	x.stx_atime.tv_nsec = n->atime[1];
	x.stx_btime.tv_sec = n->btime[0];
	x.stx_btime.tv_nsec = n->btime[1];
	x.stx_ctime.tv_sec = n->ctime[0];
	x.stx_ctime.tv_nsec = n->ctime[1];
	x.stx_mtime.tv_sec = n->mtime[0];
	x.stx_mtime.tv_nsec = n->mtime[1];
	x.stx_dev_major = 0;
	x.stx_dev_minor = 0xfff47;
	return fs_write_mem(s, dst, &x, sizeof(x)) < 0 ? -EFAULT : 0;
}

long fs_put_statfs(struct sysgate_sys *s, void *dst)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned long total = sb->limit ? sb->limit : sb->nblocks;
	struct statfs f;

	hk_memset(&f, 0, sizeof(f));
	f.f_type = TMPFS_MAGIC_;
	f.f_bsize = FS_BLOCK;
	f.f_frsize = FS_BLOCK;
	f.f_blocks = total;
	f.f_bfree = f.f_bavail = total > sb->used ? total - sb->used : 0;
	f.f_files = sb->ninodes;
	f.f_ffree = sb->ninodes - sb->inode_next;
	f.f_namelen = FS_NAME_MAX;
	return fs_write_mem(s, dst, &f, sizeof(f)) < 0 ? -EFAULT : 0;
}

unsigned int fs_umask_now(void)
{
	long m = fs_sc(__NR_umask, 0, 0, 0, 0, 0, 0);

	fs_sc(__NR_umask, m, 0, 0, 0, 0, 0);
	return m;
}

long fs_access(unsigned int ino, long mode)
{
	struct fs_inode *n = fs_ino(ino);
	long uid = fs_sc(__NR_geteuid, 0, 0, 0, 0, 0, 0);
	unsigned int bits;

	if (mode & ~7L)
		return -EINVAL;
	if (!uid) {
		/* root: anything but running what nobody may run */
		if ((mode & 1) && !fs_is_dir(n) && !(n->mode & 0111))
			return -EACCES;
		return 0;
	}
	bits = (unsigned int)uid == n->uid ? n->mode >> 6 : n->mode;
	return (mode & ~bits & 7) ? -EACCES : 0;
}

/* chown: -1 keeps the old id. */
long fs_set_owner(unsigned int ino, long uid, long gid)
{
	struct fs_inode *n = fs_ino(ino);

	if ((int)uid != -1)
		n->uid = uid;
	if ((int)gid != -1)
		n->gid = gid;
	/* As Linux, for root too: a new owner of a program is no reason to
	 * run it as the old one (set-group-ID without group execute is a
	 * locking mark and stays). */
	if (((int)uid != -1 || (int)gid != -1) && !fs_is_dir(n)) {
		n->mode &= ~S_ISUID;
		if ((n->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			n->mode &= ~S_ISGID;
	}
	fs_touch(n, FS_C);
	return 0;
}

/* utimensat's rule: NULL is now; UTIME_NOW and UTIME_OMIT per time. */
long fs_apply_times(unsigned int ino, const struct fs_ts *ts)
{
	struct fs_inode *n = fs_ino(ino);
	unsigned long long now = sysgate_realtime_ns();
	int i;

	for (i = 0; i < 2; i++)
		if (ts && ts[i].nsec != UTIME_NOW_ && ts[i].nsec != UTIME_OMIT_ &&
		    (ts[i].nsec < 0 || ts[i].nsec > 999999999))
			return -EINVAL;
	for (i = 0; i < 2; i++) {
		long *t = i ? n->mtime : n->atime;

		if (ts && ts[i].nsec == UTIME_OMIT_)
			continue;
		if (!ts || ts[i].nsec == UTIME_NOW_) {
			t[0] = now / 1000000000ULL;
			t[1] = now % 1000000000ULL;
		} else {
			t[0] = ts[i].sec;
			t[1] = ts[i].nsec;
		}
	}
	fs_touch(n, FS_C);
	return 0;
}


long fs_a_stat(struct sysgate_sys *s, struct fs_path *p, long buf,
		      int x)
{
	long r = fs_need(p);

	if (r)
		return r;
	return x ? fs_put_statx(s, (void *)buf, p->ino) :
		   fs_put_stat(s, (void *)buf, p->ino);
}

long fs_a_chmod(struct fs_path *p, long mode)
{
	struct fs_inode *n;
	long r = fs_need(p);

	if (r)
		return r;
	n = fs_ino(p->ino);
	n->mode = (n->mode & S_IFMT) | (mode & 07777);
	fs_touch(n, FS_C);
	return 0;
}

long fs_a_chown(struct fs_path *p, long uid, long gid)
{
	long r = fs_need(p);

	return r ? r : fs_set_owner(p->ino, uid, gid);
}

