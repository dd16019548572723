/* SPDX-License-Identifier: MIT */
/*
 * fs: sendfile, copy_file_range and splice with a descriptor of ours at
 * either end, for every store: the bytes are read and written through
 * the store's own read/write calls (its fd_call, given a buffer of the
 * hook's: the program's memory is this process's) and, for the kernel's
 * end, with the kernel's read/write.  Offsets move as the kernel moves
 * them: the one a pointer names (written back), else the descriptor's.
 * The checks are the kernel's, in its order, as a ceph-fuse mount
 * answers them (tests/ceph/posix.py).
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"

#define CHUNK (1UL << 20)
#define SPLICE_F_NONBLOCK_ 2
#define MAX_RW_ 0x7ffff000L

/* One end of a copy: ours (o != 0) or the kernel's descriptor fd. */
struct end {
	long fd;
	unsigned int o;
	long flags;		/* open flags */
	long *off;		/* the offset the call gave, or 0 */
	int pipe;		/* a kernel pipe */
};

static long end_of(struct sysgate_sys *s, struct proc *pr, struct end *e,
		   long fd, int write)
{
	struct stat st;

	e->fd = fd;
	e->o = fs_ofd_of(pr, fd);
	e->pipe = 0;
	if (e->o) {
		e->flags = fs_ofd(e->o)->flags;
	} else {
		e->flags = fs_sc(__NR_fcntl, fd, F_GETFL, 0, 0, 0, 0);
		if (e->flags < 0)
			return -EBADF;
		e->pipe = !fs_sc(__NR_fstat, fd, (long)&st, 0, 0, 0, 0) &&
			  S_ISFIFO(st.st_mode);
	}
	(void)s;
	if ((e->flags & O_PATH) ||
	    (e->flags & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	return 0;
}

/* Read or write up to len bytes at b through end e, at *e->off (moved)
 * or at the descriptor's own offset. */
static long end_io(struct sysgate_sys *s, struct proc *pr, struct end *e,
		   int write, char *b, unsigned long len)
{
	long r, nr = e->off ? (write ? __NR_pwrite64 : __NR_pread64) :
			      (write ? __NR_write : __NR_read);

	if (e->o) {
		struct sysgate_sys t = *s;

		t.nr = nr;
		t.args[0] = e->fd;
		t.args[1] = (long)b;
		t.args[2] = len;
		t.args[3] = e->off ? *e->off : 0;
		if (fs_store->arena_locked)
			fs_lock(s->tid);
		r = fs_store->fd_call(&t, pr, e->o);
		if (fs_store->arena_locked)
			fs_unlock();
	} else {
		r = fs_sc(nr, e->fd, (long)b, len, e->off ? *e->off : 0, 0, 0);
	}
	if (r > 0 && e->off)
		*e->off += r;
	return r;
}

/* The bytes from in to out, up to len: what was copied, or the first
 * error if nothing was.  A kernel pipe is read or written once, as
 * splice does, not waited on for more. */
static long move(struct sysgate_sys *s, struct proc *pr, struct end *in,
		 struct end *out, unsigned long len)
{
	unsigned long cap = fs_min(len, CHUNK);
	long done = 0, r = 0, w;
	char *b;

	if (!len)
		return 0;
	b = (char *)fs_sc(__NR_mmap, 0, cap, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error((long)b))
		return -ENOMEM;
	while ((unsigned long)done < len) {
		unsigned long k = fs_min(len - done, cap);

		if ((r = end_io(s, pr, in, 0, b, k)) <= 0)
			break;
		if ((w = end_io(s, pr, out, 1, b, r)) < r) {
			/* what was read and not written is read again */
			if (in->off)
				*in->off -= r - (w > 0 ? w : 0);
			else if (in->o)
				fs_ofd(in->o)->pos -= r - (w > 0 ? w : 0);
			else
				fs_sc(__NR_lseek, in->fd, -(r - (w > 0 ? w : 0)),
				      1 /* SEEK_CUR */, 0, 0, 0);
			r = w;
			if (w > 0)
				done += w;
			break;
		}
		done += r;
		if ((unsigned long)r < k || in->pipe || out->pipe)
			break;
	}
	fs_sc(__NR_munmap, (long)b, cap, 0, 0, 0, 0);
	return done ? done : r;
}

/* An offset the program gave (0: none) into *v, e->off pointing at it. */
static long offset_in(struct sysgate_sys *s, struct end *e, long uptr,
		      long *v)
{
	e->off = 0;
	if (!uptr)
		return 0;
	if (fs_read_mem(s, v, (void *)uptr, sizeof(*v)) < 0)
		return -EFAULT;
	e->off = v;
	return 0;
}

static long offset_out(struct sysgate_sys *s, long uptr, long v, long r)
{
	if (uptr && r > 0 && fs_write_mem(s, (void *)uptr, &v, sizeof(v)) < 0)
		return -EFAULT;
	return r;
}

/* Two descriptors of ours on one file, from the store's fstat. */
static long same_file(struct sysgate_sys *s, struct proc *pr,
		      struct end *a, struct end *b)
{
	struct stat st[2];
	struct end *e[2] = { a, b };
	int i;

	for (i = 0; i < 2; i++) {
		struct sysgate_sys t = *s;
		long r;

		t.nr = __NR_fstat;
		t.args[0] = e[i]->fd;
		t.args[1] = (long)&st[i];
		if (fs_store->arena_locked)
			fs_lock(s->tid);
		r = fs_store->fd_call(&t, pr, e[i]->o);
		if (fs_store->arena_locked)
			fs_unlock();
		if (r < 0)
			return r;
	}
	return st[0].st_ino == st[1].st_ino && st[0].st_dev == st[1].st_dev;
}

static long sendfile_call(struct sysgate_sys *s, struct proc *pr)
{
	long *a = s->args, v, r;
	struct end in, out;

	if ((r = end_of(s, pr, &in, a[1], 0)) < 0 ||
	    (r = end_of(s, pr, &out, a[0], 1)) < 0)
		return r;
	if ((r = offset_in(s, &in, a[2], &v)) < 0)
		return r;
	if ((in.off && v < 0) || (out.flags & O_APPEND))
		return -EINVAL;
	out.off = 0;
	r = move(s, pr, &in, &out, fs_min(a[3], MAX_RW_));
	return offset_out(s, a[2], v, r);
}

/* copy_file_range's and splice's arguments: descriptors at 0 and 2,
 * offset pointers at 1 and 3 (their values into v). */
static long ends(struct sysgate_sys *s, struct proc *pr, struct end *in,
		 struct end *out, long *v)
{
	long *a = s->args, r;

	if ((r = end_of(s, pr, in, a[0], 0)) < 0 ||
	    (r = end_of(s, pr, out, a[2], 1)) < 0 ||
	    (r = offset_in(s, in, a[1], &v[0])) < 0 ||
	    (r = offset_in(s, out, a[3], &v[1])) < 0)
		return r;
	return 0;
}

/* ... and their bytes moved (at most a[4]), the offsets given back. */
static long ends_move(struct sysgate_sys *s, struct proc *pr, struct end *in,
		      struct end *out, long *v)
{
	long *a = s->args, r = move(s, pr, in, out, fs_min(a[4], MAX_RW_));

	if (r > 0 && a[3] && (r = offset_out(s, a[3], v[1], r)) < 0)
		return r;
	return offset_out(s, a[1], v[0], r);
}

static long copy_file_range_call(struct sysgate_sys *s, struct proc *pr)
{
	long *a = s->args, v[2], r;
	struct end in, out;

	if ((r = ends(s, pr, &in, &out, v)) < 0)
		return r;
	if (a[5])
		return -EINVAL;
	if (out.flags & O_APPEND)
		return -EBADF;
	if ((in.off && v[0] < 0) || (out.off && v[1] < 0))
		return -EOVERFLOW;
	if (!in.o || !out.o)
		return -EXDEV;	/* two file systems */
	if ((r = same_file(s, pr, &in, &out)) < 0)
		return r;
	if (r) {
		long pi = in.off ? v[0] : (long)fs_ofd(in.o)->pos;
		long po = out.off ? v[1] : (long)fs_ofd(out.o)->pos;
		long n = fs_min(a[4], MAX_RW_);

		if (pi < po + n && po < pi + n)
			return -EINVAL;	/* overlapping ranges of one file */
	}
	return ends_move(s, pr, &in, &out, v);
}

/*
 * SPLICE_F_NONBLOCK: the pipe's end is read or written as if it were
 * O_NONBLOCK (an empty or full pipe EAGAIN, a nearly full one takes what
 * fits), without changing the flags of a description others share: a
 * description of its own, opened through /proc/self/fd (a pipe opens as
 * a FIFO there).  The descriptor to close after, or -1.
 */
static long nonblocking(struct end *e, int write)
{
	char path[32] = "/proc/self/fd/";
	unsigned int n = 14, k;
	long fd, d;

	if (!e->pipe || (e->flags & O_NONBLOCK))
		return -1;
	for (d = e->fd, k = 1; d / 10; d /= 10)
		k++;
	for (d = e->fd; k; d /= 10)
		path[n + --k] = '0' + d % 10;
	fd = fs_sc(__NR_openat, AT_FDCWD, (long)path, (write ? O_WRONLY :
		   O_RDONLY) | O_NONBLOCK | O_CLOEXEC, 0, 0, 0);
	/* (none: a pipe with no reader, which the write finds as splice
	 * would, EPIPE) */
	if (fd < 0)
		return -1;
	e->fd = fd;
	return fd;
}

static long splice_call(struct sysgate_sys *s, struct proc *pr)
{
	long *a = s->args, v[2], r, nb = -1;
	struct end in, out;

	if ((r = ends(s, pr, &in, &out, v)) < 0)
		return r;
	/* one end must be a pipe, and ours never is one */
	if (!in.pipe && !out.pipe)
		return -EINVAL;
	if ((in.pipe && a[1]) || (out.pipe && a[3]))
		return -ESPIPE;
	if ((in.off && v[0] < 0) || (out.off && v[1] < 0) ||
	    (out.flags & O_APPEND))
		return -EINVAL;
	if (a[5] & SPLICE_F_NONBLOCK_)
		nb = in.pipe ? nonblocking(&in, 0) : nonblocking(&out, 1);
	r = ends_move(s, pr, &in, &out, v);
	if (nb >= 0)
		fs_sc(__NR_close, nb, 0, 0, 0, 0, 0);
	return r;
}

int fs_copy_is_call(long nr)
{
	return nr == __NR_sendfile || nr == __NR_copy_file_range ||
	       nr == __NR_splice;
}

long fs_copy_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	(void)run;
	switch (s->nr) {
	case __NR_sendfile: return sendfile_call(s, pr);
	case __NR_copy_file_range: return copy_file_range_call(s, pr);
	default: return splice_call(s, pr);
	}
}
