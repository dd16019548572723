/* SPDX-License-Identifier: MIT */
/*
 * Descriptors of ours as the kernel sees them, and as paths.
 *
 * Each descriptor of ours holds a kernel descriptor, its placeholder, so
 * that the number is the kernel's: never handed out twice, closed by
 * close_range, dropped at execve when close-on-exec.  The placeholder is
 * a duplicate of one empty, sealed memfd, never a real file: a call that
 * reaches the kernel with it (one we do not know, or a path through
 * /proc that we missed) meets that memfd, or fails, and no host object.
 * One memfd, duplicated, because a duplicate costs less than opening /
 * did (about 0.5 us against 1.8), and a memfd of its own per descriptor
 * three times that.  The memfd is a hidden descriptor, as the arena's.
 *
 * The paths that name a descriptor are served here, as a kernel mount
 * would serve them: /proc/self/fd/N, /proc/thread-self/fd/N,
 * /proc/PID/fd/N and /proc/PID/task/TID/fd/N (PID the caller's process
 * or thread, TID the caller), /dev/fd/N, /dev/stdin, /dev/stdout,
 * /dev/stderr and /proc/self/cwd lead to our file; readlink of them gives
 * its path under the prefix (a removed file's: "PREFIX (deleted)", its
 * name being gone); /proc/self/fdinfo/N reads pos, flags and ino of our
 * open file (mnt_id is 0: ours is no mount).  Another process's or
 * thread's /proc/PID/fd, or a descriptor of /proc/self/fd used as a
 * directory, still reach the kernel, which finds the placeholder.
 * Call with the arena lock held.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/memfd.h>
#include "fs.h"
#include "../lib/fmt.h"

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

/* An empty memfd that nothing can write to or grow. */
static long sealed_memfd(const char *name, long cloexec, const char *text,
			 unsigned long len)
{
	long fd = sc(__NR_memfd_create, (long)name,
		     MFD_ALLOW_SEALING | (cloexec ? MFD_CLOEXEC : 0), 0, 0, 0,
		     0);

	if (fd < 0)
		return fd;
	if ((len && sc(__NR_write, fd, (long)text, len, 0, 0, 0) != (long)len) ||
	    sc(__NR_fcntl, fd, F_ADD_SEALS, SEALS, 0, 0, 0) < 0) {
		sc(__NR_close, fd, 0, 0, 0, 0, 0);
		return -ENOMEM;
	}
	if (len)
		sc(__NR_lseek, fd, 0, 0, 0, 0, 0);
	return fd;
}

int fs_ph_fd = -1;

int fs_placeholder_init(int carried)
{
	long fd;

	if (carried >= 0 && sc(__NR_fcntl, carried, F_GETFD, 0, 0, 0, 0) >= 0) {
		fs_ph_fd = carried;
		return 0;
	}
	fd = sealed_memfd("sysgate-fs-fd", 0, 0, 0);
	if (fd < 0)
		return fd;
	fs_ph_fd = fs_high_fd(fd);
	return 0;
}

long fs_placeholder(long cloexec)
{
	return sc(__NR_fcntl, fs_ph_fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0,
		  0, 0, 0);
}

static int is(const char *c, unsigned long n, const char *w)
{
	return n == hk_strlen(w) && !hk_strncmp(c, w, n);
}

/* A descriptor or process number as /proc spells it: no leading zero. */
static long number(const char *c, unsigned long n)
{
	long v = 0;
	unsigned long i;

	if (!n || n > 9 || (c[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (c[i] < '0' || c[i] > '9')
			return -1;
		v = v * 10 + c[i] - '0';
	}
	return v;
}

/* The next component of t[*at..tl) (after its '/'), or n = 0. */
static const char *component(const char *t, unsigned long tl,
			     unsigned long *at, unsigned long *n)
{
	unsigned long i = *at;

	*n = 0;
	if (i >= tl || t[i] != '/')
		return 0;
	for (i++; i + *n < tl && t[i + *n] != '/'; (*n)++)
		;
	*at = i + *n;
	return t + i;
}

/* The calling process's (or thread's) /proc directory: /proc/self,
 * /proc/thread-self, /proc/PID, /proc/TID, /proc/PID/task/TID.  Returns
 * the length of t it takes, 0 if none. */
static unsigned long own_proc(const struct sysgate_sys *s, const char *t,
			      unsigned long tl)
{
	unsigned long at = 0, n, mark;
	const char *c = component(t, tl, &at, &n);
	long id;

	if (!c || !is(c, n, "proc"))
		return 0;
	c = component(t, tl, &at, &n);
	if (!c)
		return 0;
	if (is(c, n, "thread-self"))
		return at;
	id = number(c, n);
	if (!is(c, n, "self") && id != s->pid && id != s->tid)
		return 0;
	mark = at;
	c = component(t, tl, &at, &n);
	if (!c || !is(c, n, "task"))
		return mark;
	c = component(t, tl, &at, &n);
	id = c ? number(c, n) : -1;
	return id == s->tid || id == s->pid ? at : 0;
}

unsigned int fs_magic(struct fs_path *p, const char *t, unsigned long tl,
		      const char *c, unsigned int n)
{
	const struct sysgate_sys *s = p->sys;
	unsigned long at;
	unsigned int o, ino;
	long fd = -1;
	int info = 0, plain = 0;

	if (!s || tl < 4 || (t[1] != 'd' && t[1] != 'p'))
		return 0;	/* most paths: neither /dev nor /proc */
	if (is(t, tl, "/dev")) {
		/* plain links to /proc/self/fd/N: readlink is the kernel's */
		plain = 1;
		fd = is(c, n, "stdin") ? 0 : is(c, n, "stdout") ? 1 :
		     is(c, n, "stderr") ? 2 : -1;
	} else if (is(t, tl, "/dev/fd")) {
		fd = number(c, n);
	} else if ((at = own_proc(s, t, tl))) {
		if (at == tl) {
			/* /proc/self/cwd: the kernel's is elsewhere */
			if (!is(c, n, "cwd") || !(ino = fs_cwd(s)))
				return 0;
			p->magic = FS_MAGIC_LINK;
			p->magic_fd = -1;
			return ino;
		}
		info = is(t + at, tl - at, "/fdinfo");
		if (info || is(t + at, tl - at, "/fd"))
			fd = number(c, n);
	}
	if (fd < 0 || !(o = fs_fd_ofd(s, fd)) || !(ino = fs_ofd(o)->ino))
		return 0;
	p->magic = plain ? FS_MAGIC_NONE : info ? FS_MAGIC_FDINFO :
				FS_MAGIC_LINK;
	p->magic_fd = fd;
	return info ? 0 : ino;
}

int fs_magic_served(long nr, const struct fs_path *p)
{
	if (p->magic == FS_MAGIC_LINK)
		return nr == __NR_readlink || nr == __NR_readlinkat;
	if (p->magic == FS_MAGIC_FDINFO)
		return nr == __NR_open || nr == __NR_openat ||
		       nr == __NR_openat2;
	return 0;
}

long fs_ino_path(unsigned int ino, char *buf, unsigned long size)
{
	unsigned int i;
	struct fs_dent *e;
	long len;

	if (fs_is_dir(fs_ino(ino)))
		return fs_dir_path(ino, buf, size);
	if (!(i = fs_name_of(ino)))
		return -ENOENT;
	e = fs_dent(i);
	len = fs_dir_path(e->dir, buf, size);
	if (len < 0)
		return len;
	if ((unsigned long)len + 1 + e->namelen + 1 > size)
		return -ENAMETOOLONG;
	buf[len++] = '/';
	hk_memcpy(buf + len, e->name, e->namelen);
	buf[len + e->namelen] = 0;
	return len + e->namelen;
}

long fs_magic_readlink(struct sysgate_sys *s, const struct fs_path *p,
		       long buf, long size)
{
	static const char gone[] = " (deleted)";
	unsigned int ino = p->magic_fd < 0 ? fs_cwd(s) :
			   fs_ofd(fs_fd_ofd(s, p->magic_fd))->ino;
	char path[FS_PATH_MAX + sizeof(gone)];
	long n;

	if ((int)size <= 0)
		return -EINVAL;
	n = fs_ino_path(ino, path, FS_PATH_MAX);
	if (n == -ENOENT) {
		/* Removed since: its name is gone, the prefix stays. */
		hk_memcpy(path, fs_prefix, fs_prefix_len);
		hk_memcpy(path + fs_prefix_len, gone, sizeof(gone));
		n = fs_prefix_len + sizeof(gone) - 1;
	}
	if (n < 0)
		return n;
	n = fs_min(n, (int)size);
	return fs_write_mem(s, (void *)buf, path, n) < 0 ? -EFAULT : n;
}

long fs_fdinfo_open(struct sysgate_sys *s, const struct fs_path *p,
		    long flags)
{
	struct fs_ofd *o = fs_ofd(fs_fd_ofd(s, p->magic_fd));
	long cloexec = sc(__NR_fcntl, p->magic_fd, F_GETFD, 0, 0, 0, 0);
	unsigned int fl = o->flags;
	char text[128];
	struct fmt f;

	/* as the kernel keeps them: O_PATH drops all but a few, and only
	 * opens for I/O get O_LARGEFILE */
	fl = (fl & O_PATH) ? fl & (O_PATH | O_DIRECTORY | O_NOFOLLOW) :
			     fl | O_LARGEFILE;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
		return -EACCES;
	fmt_init(&f, text, sizeof(text));
	fmt_str(&f, "pos:\t");
	fmt_udec(&f, o->pos);
	fmt_str(&f, "\nflags:\t");
	fmt_oct(&f, fl | (cloexec > 0 ? O_CLOEXEC : 0));
	fmt_str(&f, "\nmnt_id:\t0\nino:\t");
	fmt_udec(&f, o->ino);
	fmt_chr(&f, '\n');
	return sealed_memfd("fdinfo", flags & O_CLOEXEC, text, f.len);
}
