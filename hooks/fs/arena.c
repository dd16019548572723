/* SPDX-License-Identifier: MIT */
/*
 * fs: the arena as a store (front.h): the operations of the front's call
 * table on the arena's inodes (store.c keeps the objects; names.c, meta.c
 * and io.c do the work).
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/stat.h>
#include "front.h"

static long a_open(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long x, long y)
{
	return fs_a_open(s, pr, p, x, y);
}

static long a_stat(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long x, long y)
{
	(void)pr, (void)y;
	return fs_a_stat(s, p, x, 0);
}

static long a_statx(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)pr, (void)y;
	return fs_a_stat(s, p, x, 1);
}

static long a_access(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_need(p) ? fs_need(p) : fs_access(p->ino, x);
}

static long a_mkdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_a_make_node(p, S_IFDIR, x);
}

static long a_mknod(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_a_mknod(p, x);
}

static long a_rmdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	return fs_a_rmdir(p);
}

static long a_unlink(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	return fs_a_unlink(p);
}

static long a_rename(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_a_rename(&p[0], &p[1], x);
}

static long a_link(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	return fs_a_link(&p[0], &p[1]);
}

static long a_symlink(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long x, long y)
{
	(void)pr, (void)y;
	return fs_a_symlink(s, p, x);
}

static long a_readlink(struct sysgate_sys *s, struct proc *pr,
		       struct fs_path *p, long x, long y)
{
	(void)pr;
	return fs_a_readlink(s, p, x, y);
}

static long a_chmod(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_a_chmod(p, x);
}

static long a_chown(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr;
	return fs_a_chown(p, x, y);
}

static long a_utimens(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)y;
	return fs_need(p) ? fs_need(p) :
			    fs_apply_times(p->ino, (const struct fs_ts *)x);
}

static long a_truncate(struct sysgate_sys *s, struct proc *pr,
		       struct fs_path *p, long x, long y)
{
	long r = fs_need(p);

	(void)s, (void)pr, (void)y;
	if (r)
		return r;
	if (fs_is_dir(fs_ino(p->ino)))
		return -EISDIR;
	if (x < 0)
		return -EINVAL;
	fs_touch(fs_ino(p->ino), FS_M | FS_C);
	return fs_truncate(p->ino, x);
}

static long a_chdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	long r = fs_need(p);

	(void)s, (void)x, (void)y;
	if (r)
		return r;
	if (!fs_is_dir(fs_ino(p->ino)))
		return -ENOTDIR;
	pr->cwd = p->ino;
	return 0;
}

static long a_statfs(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	(void)pr, (void)y;
	return fs_need(p) ? fs_need(p) : fs_put_statfs(s, (void *)x);
}

/* The arena keeps no extended attributes. */
static long a_xattr(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	return fs_need(p) ? fs_need(p) : -EOPNOTSUPP;
}

static void a_resolve(struct fs_path *p, struct proc *pr, unsigned int start,
		      const char *realdir, int follow)
{
	(void)pr;
	fs_resolve(p, start, realdir, follow);
}

const struct fs_store fs_arena_store = {
	.name = "arena",
	.ops = {
		[FS_OP_OPEN] = a_open, [FS_OP_STAT] = a_stat,
		[FS_OP_STATX] = a_statx, [FS_OP_ACCESS] = a_access,
		[FS_OP_MKDIR] = a_mkdir, [FS_OP_MKNOD] = a_mknod,
		[FS_OP_RMDIR] = a_rmdir, [FS_OP_UNLINK] = a_unlink,
		[FS_OP_RENAME] = a_rename, [FS_OP_LINK] = a_link,
		[FS_OP_SYMLINK] = a_symlink, [FS_OP_READLINK] = a_readlink,
		[FS_OP_CHMOD] = a_chmod, [FS_OP_CHOWN] = a_chown,
		[FS_OP_UTIMENS] = a_utimens, [FS_OP_TRUNCATE] = a_truncate,
		[FS_OP_CHDIR] = a_chdir, [FS_OP_STATFS] = a_statfs,
		[FS_OP_XATTR] = a_xattr,
	},
	.fd_call = fs_arena_fd_call,
	.resolve = a_resolve,
	.arena_locked = 1,
};
