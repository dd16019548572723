/* SPDX-License-Identifier: MIT */
/*
 * Advisory locks on our files, checked between the processes of the tree
 * the way the kernel checks them: a flock lock belongs to an open file
 * description; a POSIX record lock (F_SETLK) to a process, and any close
 * of the file by that process releases it, as does its exit; an OFD record
 * lock (F_OFD_SETLK) to an open file description.  flock and record locks
 * never meet; POSIX and OFD record locks share one space.  The record
 * locks of one owner are merged and split as the kernel does, so F_GETLK
 * reports the same ranges.
 *
 * A blocking request (F_SETLKW, flock without LOCK_NB) sleeps on a futex
 * in the arena between attempts, with the arena unlocked; signals stay
 * held back while it waits (hook callbacks run so), and deadlocks are not
 * detected.  A POSIX lock whose process is gone (kill -9) is dropped when
 * it is found in the way.  Every function runs with the lock held.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/futex.h>
#include <linux/time_types.h>
#include "fs.h"

#define OFF_MAX 0x7fffffffffffffffL
#define LOCK_SH_ 1
#define LOCK_EX_ 2
#define LOCK_NB_ 4
#define LOCK_UN_ 8
#define SEEK_SET_ 0
#define SEEK_CUR_ 1
#define SEEK_END_ 2

struct owner {
	unsigned int kind;
	int pid;
	unsigned int ofd;
};

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

static int owns(const struct fs_lk *l, const struct owner *w)
{
	if (l->kind != w->kind)
		return 0;
	return w->kind == FS_LK_POSIX ? l->pid == w->pid : l->ofd == w->ofd;
}

static unsigned int *lk_link(unsigned int i)
{
	return &fs_lk(i)->next;
}

/*
 * Where a lock of w starting at start goes in the inode's list.  As in the
 * kernel, one owner's locks sit together, by start, and a new owner's go
 * last: F_GETLK reports the first conflict, so the order shows.
 */
static unsigned int *place(unsigned int ino, const struct owner *w,
			   long start)
{
	unsigned int *p = &fs_ino(ino)->locks;
	int in = 0;

	for (; *p; p = &fs_lk(*p)->next) {
		const struct fs_lk *l = fs_lk(*p);

		if (owns(l, w)) {
			in = 1;
			if (l->start > start)
				break;
		} else if (in) {
			break;
		}
	}
	return p;
}

static unsigned int lk_new(unsigned int ino, const struct owner *w,
			   unsigned int type, long start, long end)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int i = fs_take(&sb->lk_free, &sb->lk_next, sb->nlks,
				 lk_link), *at;
	struct fs_lk *l;

	if (!i)
		return 0;
	l = fs_lk(i);
	l->ino = ino;
	l->kind = w->kind;
	l->pid = w->pid;
	l->ofd = w->ofd;
	l->type = type;
	l->start = start;
	l->end = end;
	at = place(ino, w, start);
	l->next = *at;
	*at = i;
	return i;
}

/* Unlink *p (a link in the inode's list) and free it. */
static void lk_del(unsigned int *p)
{
	unsigned int i = *p;

	*p = fs_lk(i)->next;
	fs_lk(i)->next = fs_ar.sb->lk_free;
	fs_ar.sb->lk_free = i;
}

/* Something was released: waiters try again. */
static void released(void)
{
	struct fs_super *sb = fs_ar.sb;

	__atomic_add_fetch(&sb->lk_gen, 1, __ATOMIC_RELEASE);
	if (sb->lk_waiters)
		sc(__NR_futex, (long)&sb->lk_gen, FUTEX_WAKE, 0x7fffffff, 0, 0,
		   0);
}

/* Sleep until a lock goes (or 50 ms pass), with the arena unlocked. */
static void wait_turn(int tid)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int gen = __atomic_load_n(&sb->lk_gen, __ATOMIC_ACQUIRE);
	struct __kernel_timespec ts = { 0, 50 * 1000 * 1000 };

	sb->lk_waiters++;
	fs_unlock();
	sc(__NR_futex, (long)&sb->lk_gen, FUTEX_WAIT, gen, (long)&ts, 0, 0);
	fs_lock(tid);
	sb->lk_waiters--;
}

/* The first lock of another owner that [start, end] of type conflicts
 * with, or 0.  POSIX locks of dead processes are dropped on the way. */
static unsigned int conflict(unsigned int ino, const struct owner *w,
			     unsigned int type, long start, long end)
{
	unsigned int *p = &fs_ino(ino)->locks;

	while (*p) {
		struct fs_lk *l = fs_lk(*p);

		if ((l->kind == FS_LK_FLOCK) != (w->kind == FS_LK_FLOCK) ||
		    owns(l, w) || (type == F_RDLCK && l->type == F_RDLCK) ||
		    l->end < start || l->start > end) {
			p = &l->next;
			continue;
		}
		if (l->kind == FS_LK_POSIX &&
		    sc(__NR_kill, l->pid, 0, 0, 0, 0, 0) == -ESRCH) {
			lk_del(p);
			continue;
		}
		return *p;
	}
	return 0;
}

/*
 * Give owner w exactly type over [start, end] (F_UNLCK: nothing there):
 * its other locks there are cut back or split, and a same-type one that
 * overlaps or touches grows to cover the rest, as the kernel does.
 */
static long set_range(unsigned int ino, const struct owner *w,
		      unsigned int type, long start, long end)
{
	unsigned int *p = &fs_ino(ino)->locks, keep = 0;

	while (*p) {
		struct fs_lk *l = fs_lk(*p);

		if (!owns(l, w) || l->end < start - 1 ||
		    (end != OFF_MAX && l->start > end + 1)) {
			p = &l->next;
			continue;
		}
		if (l->type == type) {		/* overlapping or adjacent */
			start = l->start < start ? l->start : start;
			end = l->end > end ? l->end : end;
			if (keep) {
				lk_del(p);
				continue;
			}
			keep = *p;
		} else if (l->end >= start && l->start <= end) {
			if (l->start < start && l->end > end) {
				if (!lk_new(ino, w, l->type, end + 1, l->end))
					return -ENOLCK;
				l->end = start - 1;
			} else if (l->start < start) {
				l->end = start - 1;
			} else if (l->end > end) {
				l->start = end + 1;
			} else {
				lk_del(p);
				continue;
			}
		}
		p = &l->next;
	}
	if (keep) {
		fs_lk(keep)->start = start;
		fs_lk(keep)->end = end;
	} else if (type != F_UNLCK && !lk_new(ino, w, type, start, end)) {
		return -ENOLCK;
	}
	released();
	return 0;
}

/* Wait (unless nonblocking) until nothing conflicts, then set. */
static long acquire(const struct sysgate_sys *s, unsigned int ofd,
		    const struct owner *w, unsigned int type, long start,
		    long end, int block)
{
	unsigned int ino = fs_ofd(ofd)->ino, c, swept = 0;

	while ((c = conflict(ino, w, type, start, end))) {
		if (fs_lk(c)->kind != FS_LK_POSIX && !swept++) {
			fs_reap();	/* its holder may be dead */
			continue;
		}
		if (!block)
			return -EAGAIN;
		wait_turn(s->tid);
		swept = 0;
		if (fs_ofd(ofd)->ino != ino)
			return -EBADF;	/* closed meanwhile */
	}
	return set_range(ino, w, type, start, end);
}

long fs_flock(const struct sysgate_sys *s, unsigned int ofd, long op)
{
	struct owner w = { FS_LK_FLOCK, 0, ofd };
	unsigned int ino = fs_ofd(ofd)->ino;
	long how = op & ~(long)LOCK_NB_;

	if (how != LOCK_SH_ && how != LOCK_EX_ && how != LOCK_UN_)
		return -EINVAL;
	if (fs_ofd(ofd)->flags & O_PATH)
		return -EBADF;
	/* Like the kernel, a conversion lets go first. */
	set_range(ino, &w, F_UNLCK, 0, OFF_MAX);
	if (how == LOCK_UN_)
		return 0;
	return acquire(s, ofd, &w, how == LOCK_SH_ ? F_RDLCK : F_WRLCK, 0,
		       OFF_MAX, !(op & LOCK_NB_));
}

/* struct flock's range as [*start, *end]; 0 or -errno. */
static long range(const struct flock *fl, unsigned int ofd, long *start,
		  long *end)
{
	long base;

	switch (fl->l_whence) {
	case SEEK_SET_: base = 0; break;
	case SEEK_CUR_: base = fs_ofd(ofd)->pos; break;
	case SEEK_END_: base = fs_ino(fs_ofd(ofd)->ino)->size; break;
	default: return -EINVAL;
	}
	if (__builtin_add_overflow(base, fl->l_start, start))
		return -EOVERFLOW;
	if (fl->l_len > 0) {
		if (__builtin_add_overflow(*start, fl->l_len - 1, end))
			return -EOVERFLOW;
	} else if (fl->l_len == 0) {
		*end = OFF_MAX;
	} else {
		*end = *start - 1;
		*start += fl->l_len;
	}
	return *start < 0 ? -EINVAL : 0;
}

long fs_fcntl_lock(struct sysgate_sys *s, unsigned int ofd, long cmd,
		   long uptr)
{
	int ofdlk = cmd == F_OFD_GETLK || cmd == F_OFD_SETLK ||
		    cmd == F_OFD_SETLKW;
	struct owner w = { ofdlk ? FS_LK_OFD : FS_LK_POSIX, s->pid, ofd };
	unsigned int acc = fs_ofd(ofd)->flags & O_ACCMODE, c;
	struct flock fl;
	long start, end, r;

	if (fs_read_mem(s, &fl, (void *)uptr, sizeof(fl)) < 0)
		return -EFAULT;
	if (fs_ofd(ofd)->flags & O_PATH)
		return -EBADF;
	if ((fl.l_type != F_RDLCK && fl.l_type != F_WRLCK &&
	     fl.l_type != F_UNLCK) || (ofdlk && fl.l_pid))
		return -EINVAL;
	r = range(&fl, ofd, &start, &end);
	if (r < 0)
		return r;
	if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
		if (fl.l_type == F_UNLCK)
			return -EINVAL;
		c = conflict(fs_ofd(ofd)->ino, &w, fl.l_type, start, end);
		if (!c) {
			fl.l_type = F_UNLCK;
		} else {
			struct fs_lk *l = fs_lk(c);

			fl.l_type = l->type;
			fl.l_whence = SEEK_SET_;
			fl.l_start = l->start;
			fl.l_len = l->end == OFF_MAX ? 0 : l->end - l->start + 1;
			fl.l_pid = l->kind == FS_LK_POSIX ? l->pid : -1;
		}
		return fs_write_mem(s, (void *)uptr, &fl, sizeof(fl)) < 0 ?
			       -EFAULT : 0;
	}
	if ((fl.l_type == F_RDLCK && acc == O_WRONLY) ||
	    (fl.l_type == F_WRLCK && acc == O_RDONLY))
		return -EBADF;
	if (fl.l_type == F_UNLCK)
		return set_range(fs_ofd(ofd)->ino, &w, F_UNLCK, start, end);
	return acquire(s, ofd, &w, fl.l_type, start, end,
		       cmd == F_SETLKW || cmd == F_OFD_SETLKW);
}

/* Drop w's locks of ino; any_ofd: flock and OFD locks of w.ofd. */
static void drop_where(unsigned int ino, const struct owner *w, int any_ofd)
{
	unsigned int *p = &fs_ino(ino)->locks;
	int gone = 0;

	while (*p) {
		struct fs_lk *l = fs_lk(*p);

		if (any_ofd ? l->kind != FS_LK_POSIX && l->ofd == w->ofd :
			      owns(l, w)) {
			lk_del(p);
			gone = 1;
		} else {
			p = &l->next;
		}
	}
	if (gone)
		released();
}

void fs_locks_close(int pid, unsigned int ino)
{
	struct owner w = { FS_LK_POSIX, pid, 0 };

	if (fs_ino(ino)->locks)
		drop_where(ino, &w, 0);
}

void fs_locks_ofd_gone(unsigned int ofd)
{
	struct owner w = { FS_LK_OFD, 0, ofd };

	drop_where(fs_ofd(ofd)->ino, &w, 1);
}
