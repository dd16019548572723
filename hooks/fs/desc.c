/* SPDX-License-Identifier: MIT */
/*
 * fs: the descriptor table.  Opening one of our files opens a placeholder
 * in the kernel (procfd.c: a duplicate of an empty sealed memfd, never a
 * real file) and uses its number, so the kernel never hands that number
 * out twice, close-on-exec and close_range behave, and a call we do not
 * know meets the memfd instead of a real file.  The per-process table
 * maps those numbers to open file descriptions in the arena, whatever
 * store holds the file.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"
#include "../lib/fmt.h"

#define CLOSE_RANGE_CLOEXEC_ 4
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME | O_DIRECT)

struct proc *fs_procs;
int fs_ready;

struct proc *fs_proc_of(int pid)
{
	return fs_procs[1].pid == pid ? &fs_procs[1] : &fs_procs[0];
}

/* Descriptors are ints: the upper half of the register is junk. */
unsigned int fs_ofd_of(struct proc *p, long fd)
{
	int f = (int)fd;

	return f >= 0 && f < MAXFD ? p->ofd[f] : 0;
}

/* Descriptors of ours the program never had: the arena, the sentinel,
 * what placeholders duplicate (-1: none). */
static int *const hides[] = { &fs_ar.fd, &fs_ep_fd, &fs_ph_fd };
#define NHIDE (int)(sizeof(hides) / sizeof(hides[0]))

unsigned int fs_fd_ofd(const struct sysgate_sys *s, long fd)
{
	return fs_ofd_of(fs_proc_of(s->pid), fd);
}

int fs_fd_virtual(const struct sysgate_sys *s, long fd)
{
	return fs_fd_ofd(s, fd) != 0;
}

unsigned int fs_cwd(const struct sysgate_sys *s)
{
	return fs_proc_of(s->pid)->cwd;
}

int fs_hidden(long fd)
{
	int i;

	for (i = 0; i < NHIDE; i++)
		if ((int)fd == *hides[i])
			return 1;
	return 0;
}

void fs_install(struct proc *p, int fd, unsigned int ofd)
{
	p->ofd[fd] = ofd;
	if (fd >= p->maxfd)
		p->maxfd = fd + 1;
}

void fs_drop(struct proc *p, int fd)
{
	unsigned int o = fs_ofd_of(p, fd);

	if (o) {
		p->ofd[fd] = 0;
		fs_ofd_unref(p->pid, o);
	}
}

void fs_refresh_kcwd(struct proc *p)
{
	if (fs_sc(__NR_getcwd, (long)p->kcwd, sizeof(p->kcwd), 0, 0, 0, 0) < 0)
		p->kcwd[0] = 0;
}

long fs_dup(struct proc *pr, long nr, long *a)
{
	unsigned int o = fs_ofd_of(pr, a[0]);
	long r;

	if (nr != __NR_dup && (int)a[0] == (int)a[1] && nr != __NR_dup3)
		return o ? a[1] : fs_sc(nr, a[0], a[1], 0, 0, 0, 0);
	r = fs_sc(nr, a[0], a[1], a[2], 0, 0, 0);
	if (r < 0)
		return r;
	if (r >= MAXFD) {
		fs_sc(__NR_close, r, 0, 0, 0, 0, 0);
		return -EMFILE;
	}
	fs_drop(pr, r);
	if (o) {
		fs_ofd_ref(pr->pid, o);
		fs_install(pr, r, o);
	}
	return r;
}

/* A hidden descriptor moves away from a number the program wants.  (The
 * sentinel's epoll entries stay keyed by its old number: see epoll.c.) */
static void move_hidden(int *fd)
{
	long h = fs_sc(__NR_fcntl, *fd, F_DUPFD, *fd + 1, 0, 0, 0);

	if (h >= 0) {
		fs_sc(__NR_close, *fd, 0, 0, 0, 0, 0);
		*fd = h;
	}
}

/* close_range around the hidden descriptors, which neither close nor
 * become close-on-exec (execve hands them on). */
static long do_close_range(struct proc *pr, long *a)
{
	unsigned long first = (unsigned int)a[0], last = (unsigned int)a[1], fd;
	unsigned long from = first, h[NHIDE], v;
	long r = 0;
	int i, j;

	if (first > last)
		return -EINVAL;
	for (i = 0; i < NHIDE; i++) {	/* in order; -1 (none) is ~0 */
		v = (unsigned int)*hides[i];
		for (j = i; j > 0 && h[j - 1] > v; j--)
			h[j] = h[j - 1];
		h[j] = v;
	}
	for (i = 0; i < NHIDE && r >= 0; i++) {
		if (h[i] < from || h[i] > last)
			continue;
		if (h[i] > from)
			r = fs_sc(__NR_close_range, from, h[i] - 1, a[2], 0, 0, 0);
		from = h[i] + 1;
	}
	if (r >= 0 && from <= last)
		r = fs_sc(__NR_close_range, from, last, a[2], 0, 0, 0);
	if (r < 0 || (a[2] & CLOSE_RANGE_CLOEXEC_))
		return r;
	for (fd = first; fd <= last && fd < (unsigned long)pr->maxfd; fd++)
		fs_drop(pr, fd);
	return r;
}

long fs_fcntl(struct sysgate_sys *s, struct proc *pr, struct fs_ofd *o)
{
	long *a = s->args;

	switch (a[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC: {
		long r = fs_sc(__NR_fcntl, a[0], a[1], a[2], 0, 0, 0);
		unsigned int i = fs_ofd_of(pr, a[0]);

		if (r < 0)
			return r;
		if (r >= MAXFD) {
			fs_sc(__NR_close, r, 0, 0, 0, 0, 0);
			return -EMFILE;
		}
		fs_ofd_ref(pr->pid, i);
		fs_install(pr, r, i);
		return r;
	}
	case F_GETFD:
	case F_SETFD:
		return fs_sc(__NR_fcntl, a[0], a[1], a[2], 0, 0, 0);
	case F_GETFL:
		return o->flags;
	case F_SETFL:
		o->flags = (o->flags & ~SETFL_MASK) | (a[2] & SETFL_MASK);
		return 0;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return fs_fcntl_lock(s, fs_ofd_of(pr, a[0]), a[1], a[2]);
	default:
		return -EINVAL;
	}
}

/* The first argument that is one of our descriptors, or -1. */
int fs_virtual_fd_arg(struct proc *pr, long nr, const long *a)
{
	const char *k = sysgate_syscall_args(nr);
	int i;

	for (i = 0; k && k[i] && i < 6; i++)
		if (k[i] == 'f' && fs_ofd_of(pr, a[i]))
			return i;
	return -1;
}

long fs_dup_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	int i;

	(void)run;
	for (i = 0; i < NHIDE; i++)
		if ((int)s->args[1] == *hides[i])
			move_hidden(hides[i]);
	if (!fs_ofd_of(pr, s->args[0]) && !fs_ofd_of(pr, s->args[1])) {
		*run = 1;
		return 0;
	}
	return fs_dup(pr, s->nr, s->args);
}

long fs_close_range_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	(void)run;
	return do_close_range(pr, s->args);
}

long fs_fd_new(struct proc *pr, unsigned int o, long cloexec)
{
	long kfd = fs_placeholder(cloexec);

	if (kfd >= MAXFD) {
		fs_sc(__NR_close, kfd, 0, 0, 0, 0, 0);
		kfd = -EMFILE;
	}
	if (kfd < 0)
		return kfd;
	fs_share(pr->pid, o, 1);
	fs_install(pr, kfd, o);
	return kfd;
}

long fs_fd_unserved(long nr)
{
	switch (nr) {
	case __NR_fadvise64:
	case __NR_sync_file_range:
	case __NR_readahead:
		return 0;	/* advice: taken */
	case __NR_ioctl: return -ENOTTY;
	case __NR_tee:	/* two pipes: never ours */
		return -EINVAL;
	default:
		return -EOPNOTSUPP;
	}
}
