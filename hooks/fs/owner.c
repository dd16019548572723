/* SPDX-License-Identifier: MIT */
/*
 * Who holds the references to open file descriptions: each process's
 * share, (pid, ofd) -> count, in a hash table of the arena.  A process
 * that ends on purpose gives its references back itself (fs_fini); one
 * that cannot (kill -9, a crash, a vfork child that never reached execve)
 * leaves its shares here, and a sweep gives them back for it once its pid
 * is gone: the files' open counts drop, unlinked files free their blocks,
 * and their flock, OFD and epoll entries go.  A share found under the pid
 * of a process that has only just started is a dead namesake's.  Sweeps
 * run every SWEEP_EVERY new processes and when something runs out (no
 * open file description, no space, a lock in the way).  Lock held.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include "fs.h"

#define SWEEP_EVERY 64
#define PID_CACHE 32

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

static unsigned int *bucket(int pid, unsigned int ofd)
{
	unsigned int h = ((unsigned int)pid * 2654435761u) ^ (ofd * 40503u);

	return (unsigned int *)(fs_ar.base + fs_ar.sb->off_hhash) +
	       h % fs_ar.sb->nhhash;
}

static unsigned int *hold_link(unsigned int i)
{
	return &fs_hold(i)->next;
}

/* Count one more (or one fewer) reference of pid to ofd. */
void fs_share(int pid, unsigned int ofd, int delta)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int *p = bucket(pid, ofd), i;

	for (; (i = *p); p = &fs_hold(i)->next)
		if (fs_hold(i)->pid == pid && fs_hold(i)->ofd == ofd)
			break;
	if (!i) {
		if (delta < 0)
			return;
		i = fs_take(&sb->hold_free, &sb->hold_next, sb->nholds,
			    hold_link);
		if (!i)
			return;	/* full: that share is not tracked */
		fs_hold(i)->pid = pid;
		fs_hold(i)->ofd = ofd;
		fs_hold(i)->count = 0;
		fs_hold(i)->next = *p;
		*p = i;
	}
	fs_hold(i)->count += delta;
	if (fs_hold(i)->count)
		return;
	*p = fs_hold(i)->next;
	fs_hold(i)->next = sb->hold_free;
	sb->hold_free = i;
}

void fs_ofd_ref(int pid, unsigned int ofd)
{
	fs_ofd(ofd)->refs++;
	fs_share(pid, ofd, 1);
}

void fs_ofd_unref(int pid, unsigned int ofd)
{
	fs_share(pid, ofd, -1);
	fs_locks_close(pid, fs_ofd(ofd)->ino);
	fs_ofd_put(ofd);
}

/* Give back every share of pid (which is gone). */
void fs_reap_pid(int pid)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int i;

	for (i = 1; i < sb->hold_next; i++) {
		struct fs_hold *h = fs_hold(i);
		unsigned int ofd = h->ofd, n;

		if (h->pid != pid || !h->count)
			continue;
		n = h->count;
		fs_share(pid, ofd, -(int)n);	/* frees entry i */
		fs_locks_close(pid, fs_ofd(ofd)->ino);
		while (n--)
			fs_ofd_put(ofd);
	}
}

/* Give back the shares of every process that is gone. */
void fs_reap(void)
{
	struct fs_super *sb = fs_ar.sb;
	struct { int pid, alive; } seen[PID_CACHE];
	unsigned int i, nseen = 0, k;

	sb->births = 0;
	for (i = 1; i < sb->hold_next; i++) {
		struct fs_hold *h = fs_hold(i);
		int pid = h->pid, alive = -1;

		if (!h->count)
			continue;
		for (k = 0; k < nseen && k < PID_CACHE; k++)
			if (seen[k].pid == pid)
				alive = seen[k].alive;
		if (alive < 0) {
			alive = sc(__NR_kill, pid, 0, 0, 0, 0, 0) != -ESRCH;
			seen[nseen % PID_CACHE].pid = pid;
			seen[nseen % PID_CACHE].alive = alive;
			nseen++;
		}
		if (!alive)
			fs_reap_pid(pid);
	}
}

void fs_born(int pid)
{
	fs_reap_pid(pid);	/* a dead namesake's */
	if (++fs_ar.sb->births >= SWEEP_EVERY)
		fs_reap();
}
