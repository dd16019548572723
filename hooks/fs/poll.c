/* SPDX-License-Identifier: MIT */
/*
 * poll, ppoll, select and pselect6 with our descriptors mixed in
 * (the "two universes" of a partial hook).  Our files are always ready,
 * as regular files are for the kernel.  The kernel still waits for its
 * own descriptors: the call runs with ours taken out (on a per-thread
 * copy of the program's array or sets), with a zero timeout when one of
 * ours is ready already, and the exit side merges the two answers.  The
 * call itself runs in the kernel, not inside the hook, so signals
 * interrupt it as usual.  epoll_ctl on one of ours goes to epoll.c.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/poll.h>
#include <linux/time_types.h>
#include "fs.h"
#include "../lib/fmt.h"

#define MAX_POLL 1024
#define READY_MASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define SET_WORDS (1024 / 64)

/* What the exit side must merge, for the call in flight on this thread. */
struct pending {
	long nr;
	long uptr[3];			/* the program's array or sets */
	int n;
	long extra;			/* ready descriptors of ours */
	unsigned long vbits[3][SET_WORDS];
};

static __thread struct pollfd copy[MAX_POLL];
static __thread unsigned char ours[MAX_POLL];
static __thread unsigned long sets[3][SET_WORDS];
static __thread struct pending pend;
static __thread struct __kernel_timespec zero_ts;
static __thread struct { long sec, usec; } zero_tv;

int fs_poll_is_call(long nr)
{
	switch (nr) {
	case __NR_poll:
	case __NR_select:
	case __NR_ppoll:
	case __NR_pselect6:
	case __NR_epoll_ctl:
		return 1;
	}
	return 0;
}

static int do_poll(struct sysgate_sys *s)
{
	long n = s->args[1], i, virt = 0, ready = 0;

	if (n <= 0 || n > MAX_POLL ||
	    fs_read_mem(s, copy, (void *)s->args[0], n * sizeof(copy[0])) < 0)
		return 0;
	for (i = 0; i < n; i++) {
		ours[i] = fs_fd_virtual(s, copy[i].fd);
		if (!ours[i])
			continue;
		virt++;
		ready += (copy[i].events & READY_MASK) != 0;
		copy[i].fd = ~copy[i].fd;	/* negative: the kernel skips it */
	}
	if (!virt)
		return 0;
	pend.nr = s->nr;
	pend.uptr[0] = s->args[0];
	pend.n = n;
	pend.extra = ready;
	s->args[0] = (long)copy;
	if (ready) {
		if (s->nr == __NR_ppoll)
			s->args[2] = (long)&zero_ts;
		else
			s->args[2] = 0;
	}
	return 0;
}

static void poll_exit(struct sysgate_sys *s)
{
	long i;

	for (i = 0; i < pend.n; i++) {
		if (!ours[i])
			continue;
		copy[i].fd = ~copy[i].fd;
		copy[i].revents = copy[i].events & READY_MASK;
	}
	if (fs_write_mem(s, (void *)pend.uptr[0], copy,
			      pend.n * sizeof(copy[0])) < 0)
		s->ret = -EFAULT;
	else
		s->ret += pend.extra;
}

static int do_select(struct sysgate_sys *s)
{
	long n = (int)s->args[0], k, words, fd;
	long virt = 0, ready = 0;

	if (n <= 0 || n > 1024)
		return 0;
	words = (n + 63) / 64;
	for (k = 0; k < 3; k++) {
		hk_memset(sets[k], 0, sizeof(sets[k]));
		hk_memset(pend.vbits[k], 0, sizeof(pend.vbits[k]));
		if (s->args[k + 1] &&
		    fs_read_mem(s, sets[k], (void *)s->args[k + 1],
				     words * 8) < 0)
			return 0;
	}
	for (fd = 0; fd < n; fd++) {
		unsigned long bit = 1UL << (fd % 64);

		if (!fs_fd_virtual(s, fd))
			continue;
		for (k = 0; k < 3; k++) {
			if (!(sets[k][fd / 64] & bit))
				continue;
			sets[k][fd / 64] &= ~bit;
			virt++;
			if (k < 2) {	/* readable, writable; never exceptional */
				pend.vbits[k][fd / 64] |= bit;
				ready++;
			}
		}
	}
	if (!virt)
		return 0;
	pend.nr = s->nr;
	pend.n = words;
	pend.extra = ready;
	for (k = 0; k < 3; k++) {
		pend.uptr[k] = s->args[k + 1];
		if (s->args[k + 1])
			s->args[k + 1] = (long)sets[k];
	}
	if (ready)
		s->args[4] = s->nr == __NR_pselect6 ? (long)&zero_ts :
						      (long)&zero_tv;
	return 0;
}

static void select_exit(struct sysgate_sys *s)
{
	long k, w;

	for (k = 0; k < 3; k++) {
		if (!pend.uptr[k])
			continue;
		for (w = 0; w < pend.n; w++)
			sets[k][w] |= pend.vbits[k][w];
		if (fs_write_mem(s, (void *)pend.uptr[k], sets[k],
				      pend.n * 8) < 0) {
			s->ret = -EFAULT;
			return;
		}
	}
	s->ret += pend.extra;
}

int fs_poll_enter(struct sysgate_sys *s)
{
	pend.nr = -1;
	switch (s->nr) {
	case __NR_poll:
		return do_poll(s);
	case __NR_select:
		return do_select(s);
	case __NR_ppoll:
		return do_poll(s);
	case __NR_pselect6:
		return do_select(s);
	case __NR_epoll_ctl:
		if (!fs_fd_virtual(s, s->args[2])) {
			if (!fs_fd_virtual(s, s->args[0]))
				return 0;
			s->ret = -EINVAL;	/* a file is no epoll instance */
			return 1;
		}
		fs_lock(s->tid);
		s->ret = fs_epoll_ctl(s);
		fs_unlock();
		return 1;
	}
	return 0;
}

void fs_poll_exit(struct sysgate_sys *s)
{
	long nr = pend.nr;

	if (nr < 0 || nr != s->nr)
		return;
	pend.nr = -1;
	if (sysgate_is_error(s->ret))
		return;	/* the program's array and sets are untouched */
	switch (nr) {
	case __NR_poll:
	case __NR_select:
		if (nr == __NR_poll)
			poll_exit(s);
		else
			select_exit(s);
		return;
	case __NR_ppoll:
		poll_exit(s);
		return;
	case __NR_pselect6:
		select_exit(s);
		return;
	}
}
