/* SPDX-License-Identifier: MIT */
/*
 * fs: the arena's data and its descriptor calls: read and write in all
 * their forms, lseek, getdents64, mmap, and the calls on a descriptor.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"

#define SEEK_SET_ 0
#define SEEK_CUR_ 1
#define SEEK_END_ 2
#define SEEK_DATA_ 3
#define SEEK_HOLE_ 4

static long rw(struct sysgate_sys *s, struct fs_ofd *o, int write,
	       long buf, unsigned long len, long off)
{
	unsigned int acc = o->flags & O_ACCMODE;
	struct fs_inode *n = fs_ino(o->ino);
	unsigned long pos = off < 0 ? o->pos : (unsigned long)off;
	long r;

	if ((o->flags & O_PATH) || acc == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	if (fs_is_dir(n))
		return -EISDIR;
	if ((long)len < 0)
		len = 0x7ffff000;
	if (!len)
		return 0;
	if (write) {
		if (o->flags & O_APPEND)
			pos = n->size;
		r = fs_write(s, o->ino, (void *)buf, len, pos);
		if (r == -ENOSPC) {	/* a dead process's unlinked files? */
			fs_reap();
			r = fs_write(s, o->ino, (void *)buf, len, pos);
		}
		if (r > 0)
			fs_touch(n, FS_M | FS_C);
	} else {
		r = fs_read(s, o->ino, (void *)buf, len, pos);
	}
	if (r > 0 && off < 0)
		o->pos = pos + r;
	return r;
}

static long rwv(struct sysgate_sys *s, struct fs_ofd *o, int write,
		long uiov, long cnt, long off)
{
	struct fs_iov v[64];
	long done = 0, i;

	if (cnt < 0 || cnt > 1024)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		long r;

		if (i % 64 == 0 &&
		    fs_read_mem(s, v, (struct fs_iov *)uiov + i,
				     fs_min(64, cnt - i) * sizeof(*v)) < 0)
			return done ? done : -EFAULT;
		if (!v[i % 64].len)
			continue;
		r = rw(s, o, write, v[i % 64].base, v[i % 64].len,
		       off < 0 ? -1 : off + done);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((unsigned long)r < v[i % 64].len)
			break;
	}
	return done;
}

static long do_lseek(struct fs_ofd *o, long off, long whence)
{
	struct fs_inode *n = fs_ino(o->ino);
	long base;

	switch (whence) {
	case SEEK_SET_: base = 0; break;
	case SEEK_CUR_: base = o->pos; break;
	case SEEK_END_: base = fs_is_dir(n) ? 0 : (long)n->size; break;
	case SEEK_DATA_:
	case SEEK_HOLE_:
		if (off < 0 || (unsigned long)off >= n->size)
			return -ENXIO;
		o->pos = whence == SEEK_DATA_ ? (unsigned long)off : n->size;
		return o->pos;
	default: return -EINVAL;
	}
	if (base + off < 0)
		return -EINVAL;
	o->pos = base + off;
	return o->pos;
}

static long do_getdents(struct sysgate_sys *s, struct fs_ofd *o, long ubuf,
			unsigned long count)
{
	struct fs_inode *d = fs_ino(o->ino);
	char buf[4096];
	unsigned long used = 0, total = 0;
	unsigned int e = d->head;

	if (!fs_is_dir(d))
		return -ENOTDIR;
	if (!d->nlink)
		return 0;
	for (;;) {
		const char *name;
		unsigned int len, ino, type, rec;
		unsigned long next;
		struct dirent64 *de;

		if (o->pos == 0) {
			name = ".", len = 1, ino = o->ino, next = 1;
		} else if (o->pos == 1) {
			name = "..", len = 2, next = 2;
			ino = o->ino == FS_ROOT ? FS_ROOT : d->parent;
		} else {
			while (e && fs_dent(e)->seq + 2 <= o->pos)
				e = fs_dent(e)->next;
			if (!e)
				break;
			name = fs_dent(e)->name;
			len = fs_dent(e)->namelen;
			ino = fs_dent(e)->ino;
			next = fs_dent(e)->seq + 2;
		}
		rec = (19 + len + 1 + 7) & ~7U;
		if (total + used + rec > count)
			break;
		if (used + rec > sizeof(buf)) {
			if (fs_write_mem(s, (char *)ubuf + total, buf, used) < 0)
				return -EFAULT;
			total += used;
			used = 0;
		}
		type = (fs_ino(ino)->mode >> 12) & 15;
		de = (struct dirent64 *)(buf + used);
		de->ino = ino;
		de->off = next;
		de->reclen = rec;
		de->type = type;
		hk_memcpy(de->name, name, len);
		hk_memset(de->name + len, 0, rec - 19 - len);
		used += rec;
		o->pos = next;
	}
	if (used && fs_write_mem(s, (char *)ubuf + total, buf, used) < 0)
		return -EFAULT;
	total += used;
	if (!total && (o->pos < 2 || e))
		return -EINVAL;	/* the buffer cannot hold one entry */
	return total;
}

/* mmap of our file: its blocks are pages of the arena's descriptor. */
static long do_mmap(struct sysgate_sys *s, struct fs_ofd *o)
{
	long *a = s->args, base, r;
	unsigned long len = a[1], prot = a[2], flags = a[3], off = a[5];
	unsigned long npages = (len + FS_BLOCK - 1) / FS_BLOCK, i, filepages;
	unsigned long offs[64];
	struct fs_inode *n = fs_ino(o->ino);
	unsigned int acc = o->flags & O_ACCMODE;
	int shared = (flags & MAP_TYPE) != MAP_PRIVATE;

	(void)s;
	if (!len || off % FS_BLOCK)
		return -EINVAL;
	if (fs_is_dir(n) || (o->flags & O_PATH))
		return (o->flags & O_PATH) ? -EBADF : -ENODEV;
	if (acc == O_WRONLY || (shared && (prot & PROT_WRITE) && acc != O_RDWR))
		return -EACCES;
	base = fs_sc(__NR_mmap, a[0], npages * FS_BLOCK, prot,
		  (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) | MAP_PRIVATE |
			  MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(base))
		return base;
	n->mapped = 1;
	filepages = (n->size + FS_BLOCK - 1) / FS_BLOCK;
	for (i = off / FS_BLOCK; i < fs_min(off / FS_BLOCK + npages, filepages);) {
		unsigned long k = fs_min(64, fs_min(off / FS_BLOCK + npages,
						    filepages) - i), j, run;

		r = fs_block_offsets(o->ino, i, k, offs);
		if (r < 0) {
			fs_sc(__NR_munmap, base, npages * FS_BLOCK, 0, 0, 0, 0);
			return r;
		}
		for (j = 0; j < k; j += run) {
			unsigned long at = base + (i + j - off / FS_BLOCK) *
						  FS_BLOCK;

			for (run = 1; j + run < k &&
				      offs[j + run] == offs[j] + run * FS_BLOCK;
			     run++)
				;
			r = fs_sc(__NR_mmap, at, run * FS_BLOCK, prot,
			       MAP_FIXED | (shared ? MAP_SHARED : MAP_PRIVATE),
			       fs_ar.fd, offs[j]);
			if (sysgate_is_error(r)) {
				fs_sc(__NR_munmap, base, npages * FS_BLOCK, 0, 0,
				   0, 0);
				return r;
			}
		}
		i += k;
	}
	return base;
}

long fs_arena_fd_call(struct sysgate_sys *s, struct proc *pr, unsigned int oi)
{
	struct fs_ofd *o = fs_ofd(oi);
	long *a = s->args;
	long nr = s->nr;

	switch (nr) {
	case __NR_read: return rw(s, o, 0, a[1], a[2], -1);
	case __NR_write: return rw(s, o, 1, a[1], a[2], -1);
	case __NR_pread64:
	case __NR_pwrite64:
		if (a[3] < 0)
			return -EINVAL;
		return rw(s, o, nr == __NR_pwrite64, a[1], a[2], a[3]);
	case __NR_readv: return rwv(s, o, 0, a[1], a[2], -1);
	case __NR_writev: return rwv(s, o, 1, a[1], a[2], -1);
	case __NR_preadv:
	case __NR_preadv2:
	case __NR_pwritev:
	case __NR_pwritev2:
		if (a[3] < -1 || (a[3] == -1 && (nr == __NR_preadv ||
						  nr == __NR_pwritev)))
			return -EINVAL;
		return rwv(s, o, nr == __NR_pwritev || nr == __NR_pwritev2,
			   a[1], a[2], a[3]);
	case __NR_lseek: return do_lseek(o, a[1], a[2]);
	case __NR_fstat: return fs_put_stat(s, (void *)a[1], o->ino);
	case __NR_fstatfs: return fs_put_statfs(s, (void *)a[1]);
	case __NR_getdents64: return do_getdents(s, o, a[1], a[2]);
	case __NR_close:
		fs_drop(pr, a[0]);
		return fs_sc(__NR_close, a[0], 0, 0, 0, 0, 0);
	case __NR_dup: return fs_dup(pr, nr, a);
	case __NR_fcntl: return fs_fcntl(s, pr, o);
	case __NR_ftruncate:
		if (a[1] < 0 || fs_is_dir(fs_ino(o->ino)))
			return -EINVAL;
		if ((o->flags & O_ACCMODE) == O_RDONLY || (o->flags & O_PATH))
			return (o->flags & O_PATH) ? -EBADF : -EINVAL;
		fs_touch(fs_ino(o->ino), FS_M | FS_C);
		return fs_truncate(o->ino, a[1]);
	case __NR_fallocate:
		if (a[1] || a[2] < 0 || a[3] <= 0)
			return a[1] ? -EOPNOTSUPP : -EINVAL;
		if ((unsigned long)(a[2] + a[3]) > fs_ino(o->ino)->size)
			fs_ino(o->ino)->size = a[2] + a[3];
		return 0;
	case __NR_fsync:
	case __NR_fdatasync:
		/* The image's pages already hold the data; fsync asks for the
		 * disk too. */
		return fs_sc(__NR_fsync, fs_ar.fd, 0, 0, 0, 0, 0) < 0 ? -EIO : 0;
	case __NR_fchdir:
		if (!fs_is_dir(fs_ino(o->ino)))
			return -ENOTDIR;
		pr->cwd = o->ino;
		return 0;
	case __NR_fchmod: {
		struct fs_inode *n = fs_ino(o->ino);

		n->mode = (n->mode & S_IFMT) | (a[1] & 07777);
		fs_touch(n, FS_C);
		return 0;
	}
	case __NR_fchown: return fs_set_owner(o->ino, a[1], a[2]);
	case __NR_mmap: return do_mmap(s, o);
	case __NR_flock: return fs_flock(s, oi, a[1]);
	case __NR_syncfs:
		return 0;
	default:
		return fs_fd_unserved(nr);
	}
}
