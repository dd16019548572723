/* SPDX-License-Identifier: MIT */
/*
 * fs: the arena's names: open and create, mkdir and mknod, unlink and
 * rmdir, rename, link, symlink and readlink.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"

#define RENAME_NOREPLACE_ 1
#define RENAME_EXCHANGE_ 2

static long create(struct fs_path *p, unsigned int mode)
{
	struct fs_inode *d = fs_ino(p->dir);
	/* A set-group-ID directory hands on its group, and to a directory
	 * the bit as well. */
	int sgid = d->mode & S_ISGID;
	int ino = fs_inode_new(sgid && S_ISDIR(mode) ? mode | S_ISGID : mode,
			       fs_sc(__NR_geteuid, 0, 0, 0, 0, 0, 0),
			       sgid ? d->gid :
				      fs_sc(__NR_getegid, 0, 0, 0, 0, 0, 0));
	long r;

	if (ino < 0)
		return ino;
	if (!d->nlink) {
		fs_ino(ino)->nlink = 0;
		fs_inode_put(ino);
		return -ENOENT;		/* its directory was removed */
	}
	r = fs_link(p->dir, p->name, p->namelen, ino);
	if (r < 0) {
		fs_inode_put(ino);
		return r;
	}
	fs_ino(ino)->nlink = fs_is_dir(fs_ino(ino)) ? 2 : 1;
	if (fs_is_dir(fs_ino(ino)))
		d->nlink++;
	fs_touch(d, FS_M | FS_C);
	return ino;
}

static long open_file(struct proc *pr, struct fs_path *p, long flags, long mode)
{
	unsigned int ino = p->ino;
	long kfd, o, acc = flags & O_ACCMODE;
	struct fs_inode *n;

	if (p->err)
		return p->err;
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EOPNOTSUPP;
	if (!ino) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		if (p->slash)
			return -EISDIR;
	} else if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		return -EEXIST;
	}
	if (ino) {
		n = fs_ino(ino);
		if (fs_is_link(n) && !(flags & O_PATH))
			return -ELOOP;	/* O_NOFOLLOW */
		if (fs_is_dir(n) && !(flags & O_PATH) &&
		    (acc != O_RDONLY || (flags & O_CREAT)))
			return -EISDIR;
		if (!fs_is_dir(n) && (flags & O_DIRECTORY))
			return -ENOTDIR;
		if (!(flags & O_PATH)) {
			long r = fs_access(ino, acc == O_RDONLY ? 4 :
						   acc == O_WRONLY ? 2 : 6);

			if (r < 0)
				return r;
		}
	} else if (flags & O_DIRECTORY) {
		return -EINVAL;	/* O_CREAT | O_DIRECTORY, as Linux 6.x */
	}
	kfd = fs_placeholder(flags & O_CLOEXEC);
	if (kfd < 0)
		return kfd;
	if (kfd >= MAXFD) {
		fs_sc(__NR_close, kfd, 0, 0, 0, 0, 0);
		return -EMFILE;
	}
	if (!ino) {
		long r = create(p, S_IFREG | (mode & 07777 & ~fs_umask_now()));

		if (r < 0) {
			fs_sc(__NR_close, kfd, 0, 0, 0, 0, 0);
			return r;
		}
		ino = r;
	} else if ((flags & O_TRUNC) && acc != O_RDONLY &&
		   !fs_is_dir(fs_ino(ino)) && !(flags & O_PATH)) {
		fs_truncate(ino, 0);
		fs_touch(fs_ino(ino), FS_M | FS_C);
	}
	o = fs_ofd_new(ino, flags & OPEN_KEEP);
	if (o == -ENFILE) {	/* maybe a dead process holds them */
		fs_reap();
		o = fs_ofd_new(ino, flags & OPEN_KEEP);
	}
	if (o < 0) {
		fs_sc(__NR_close, kfd, 0, 0, 0, 0, 0);
		return o;
	}
	fs_share(pr->pid, o, 1);
	fs_install(pr, kfd, o);
	return kfd;
}

long fs_a_unlink(struct fs_path *p)
{
	struct fs_inode *n;

	if (p->err)
		return p->err;
	if (!p->ino)
		return -ENOENT;
	n = fs_ino(p->ino);
	if (fs_is_dir(n))
		return -EISDIR;
	fs_unlink_name(p->dir, p->name, p->namelen);
	n->nlink--;
	fs_touch(n, FS_C);
	fs_touch(fs_ino(p->dir), FS_M | FS_C);
	fs_inode_put(p->ino);
	return 0;
}

long fs_a_rmdir(struct fs_path *p)
{
	struct fs_inode *n, *d;

	if (p->err)
		return p->err;
	if (!p->ino)
		return -ENOENT;
	n = fs_ino(p->ino);
	if (!fs_is_dir(n))
		return -ENOTDIR;
	if (p->dot)
		return p->namelen == 1 ? -EINVAL : -ENOTEMPTY;
	if (p->ino == FS_ROOT)
		return -EBUSY;
	if (n->nent)
		return -ENOTEMPTY;
	d = fs_ino(p->dir);
	fs_unlink_name(p->dir, p->name, p->namelen);
	d->nlink--;
	n->nlink = 0;
	fs_touch(d, FS_M | FS_C);
	fs_inode_put(p->ino);
	return 0;
}

/* mkdir and mknod: a new name, or EEXIST. */
long fs_a_make_node(struct fs_path *p, unsigned int type, long mode)
{
	long r;

	if (p->err)
		return p->err;
	if (p->ino)
		return -EEXIST;
	r = create(p, type | (mode & 07777 & ~fs_umask_now()));
	return r < 0 ? r : 0;
}

/* Is a an ancestor of (or equal to) directory b? */
static int ancestor(unsigned int a, unsigned int b)
{
	int depth = 0;

	for (;;) {
		if (a == b)
			return 1;
		if (b == FS_ROOT || ++depth > FS_PATH_MAX)
			return 0;
		b = fs_ino(b)->parent;
	}
}

static void dent_set_ino(unsigned int dir, const char *name,
			 unsigned int len, unsigned int ino)
{
	/* rename's exchange: re-link the name to another inode */
	fs_unlink_name(dir, name, len);
	fs_link(dir, name, len, ino);
}

/* rename and link: the old name must exist, the new one's directory. */
static long two_paths(const struct fs_path *op, const struct fs_path *np)
{
	if (op->err)
		return op->err;
	if (!op->ino)
		return -ENOENT;
	return np->err;
}

long fs_a_rename(struct fs_path *op, struct fs_path *np, long flags)
{
	struct fs_inode *o, *n = 0;
	long r = two_paths(op, np);
	int odir;

	if (r)
		return r;
	if (flags & ~(long)(RENAME_NOREPLACE_ | RENAME_EXCHANGE_))
		return -EINVAL;
	if ((flags & RENAME_NOREPLACE_) && (flags & RENAME_EXCHANGE_))
		return -EINVAL;
	if (op->ino == FS_ROOT || np->ino == FS_ROOT || op->dot || np->dot)
		return -EBUSY;
	o = fs_ino(op->ino);
	odir = fs_is_dir(o);
	if (np->ino)
		n = fs_ino(np->ino);
	if ((flags & RENAME_EXCHANGE_) && !n)
		return -ENOENT;
	if (n && (flags & RENAME_NOREPLACE_))
		return -EEXIST;
	if (!odir && (op->slash || (np->slash && !n)))
		return -ENOTDIR;
	if (np->ino == op->ino)
		return 0;
	if (odir && ancestor(op->ino, np->dir))
		return -EINVAL;
	if (n && (flags & RENAME_EXCHANGE_)) {
		if (fs_is_dir(n) && ancestor(np->ino, op->dir))
			return -EINVAL;
		dent_set_ino(op->dir, op->name, op->namelen, np->ino);
		dent_set_ino(np->dir, np->name, np->namelen, op->ino);
		if (fs_is_dir(n) != odir && op->dir != np->dir) {
			fs_ino(op->dir)->nlink += odir ? -1 : 1;
			fs_ino(np->dir)->nlink += odir ? 1 : -1;
		}
		fs_touch(o, FS_C);
		fs_touch(n, FS_C);
		return 0;
	}
	if (n) {
		if (fs_is_dir(n) && !odir)
			return -EISDIR;
		if (!fs_is_dir(n) && odir)
			return -ENOTDIR;
		if (fs_is_dir(n) && n->nent)
			return -ENOTEMPTY;
	}
	if (n) {
		fs_unlink_name(np->dir, np->name, np->namelen);
		if (fs_is_dir(n)) {
			n->nlink = 0;
			fs_ino(np->dir)->nlink--;
		} else {
			n->nlink--;
		}
		fs_touch(n, FS_C);
	}
	fs_unlink_name(op->dir, op->name, op->namelen);
	fs_link(np->dir, np->name, np->namelen, op->ino);
	if (odir) {
		fs_ino(op->dir)->nlink--;
		fs_ino(np->dir)->nlink++;
	}
	fs_touch(o, FS_C);
	fs_touch(fs_ino(op->dir), FS_M | FS_C);
	fs_touch(fs_ino(np->dir), FS_M | FS_C);
	if (n)
		fs_inode_put(np->ino);
	return 0;
}

long fs_a_link(struct fs_path *op, struct fs_path *np)
{
	struct fs_inode *o;
	long r = two_paths(op, np);

	if (r)
		return r;
	if (np->ino)
		return -EEXIST;
	o = fs_ino(op->ino);
	if (fs_is_dir(o))
		return -EPERM;
	if (!fs_ino(np->dir)->nlink)
		return -ENOENT;
	r = fs_link(np->dir, np->name, np->namelen, op->ino);
	if (r < 0)
		return r;
	o->nlink++;
	fs_touch(o, FS_C);
	fs_touch(fs_ino(np->dir), FS_M | FS_C);
	return 0;
}

long fs_a_mknod(struct fs_path *p, long mode)
{
	if ((mode & S_IFMT) && (mode & S_IFMT) != S_IFREG && !p->err &&
	    !p->ino)
		return -EPERM;	/* no devices, fifos or sockets here */
	return fs_a_make_node(p, S_IFREG, mode);
}

/* A new name holding the program's target text. */
long fs_a_symlink(struct sysgate_sys *s, struct fs_path *p, long target)
{
	char buf[FS_PATH_MAX];
	long n = fs_symlink_target(s, buf, sizeof(buf), target), r;

	if (n < 0)
		return n;
	if (p->err)
		return p->err;
	if (p->ino)
		return -EEXIST;
	r = create(p, S_IFLNK | 0777);
	if (r < 0)
		return r;
	if (fs_write(0, r, buf, n, 0) != n) {
		/* no room for the target: take the name back */
		fs_unlink_name(p->dir, p->name, p->namelen);
		fs_ino(r)->nlink = 0;
		fs_inode_put(r);
		return -ENOSPC;
	}
	return 0;
}

long fs_a_readlink(struct sysgate_sys *s, struct fs_path *p, long buf,
			long size)
{
	struct fs_inode *n;

	if (!p->virt)
		return fs_magic_readlink(s, p, buf, size);
	if (fs_need(p))
		return fs_need(p);
	n = fs_ino(p->ino);
	if (!fs_is_link(n) || (int)size <= 0)
		return -EINVAL;
	fs_touch(n, FS_A);
	return fs_read(s, p->ino, (void *)buf, fs_min(n->size, (int)size), 0);
}

/* open of ours, or of the /proc/self/fdinfo entry of one of ours */
long fs_a_open(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long flags, long mode)
{
	if (!p->virt)
		return fs_fdinfo_open(s, p, flags);
	return open_file(pr, p, flags, mode);
}
