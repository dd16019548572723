/* SPDX-License-Identifier: MIT */
/*
 * wlog: relaxed writes (sysgate --bypass=wlog, opt-in), in the manner of
 * GENESYS's non-blocking producers.  write() and pwrite64() on a regular
 * file return at once with the full count; the bytes are copied into the
 * thread's staging area and queued on the thread's own io_uring, linked so
 * that they run in order, and submitted with one io_uring_enter when the
 * queue or the staging area is full, or before the thread makes any other
 * system call (so a read, fsync, close, exit or a call that may block sees
 * every write it made done).  What changes for the program:
 *   - an error (ENOSPC, EIO, EFBIG...) is reported by the next write,
 *     pwrite64, fsync, fdatasync or close of that fd in that thread, not
 *     by the call that caused it;
 *   - other processes, and other threads, see the bytes late: after the
 *     writer's next other system call or a full batch.
 * Short completions are finished with plain writes during the flush.
 *
 * State is per thread (slots keyed by tid, claimed with one CAS; no
 * locks), and only in the process that set it up: a vfork child, which
 * shares our memory, passes through, and a fork child drops the copies.
 * Written only against include/sysgate.h; compiled freestanding.
 */
#include <linux/io_uring.h>
#include <sys/mman.h>
#include "sysgate.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"
#include "wlog.h"

#define SLOTS 64		/* threads with a ring; more pass through */
#define DEPTH 32		/* runs per submission */
#define STAGE (256UL << 10)	/* staging bytes per thread */
#define BIG (32UL << 10)	/* larger writes go straight to the kernel */

struct ent {
	long fd, off;		/* off -1: at the file position */
	unsigned long pos, len;	/* in the staging area */
};	/* a run: writes that follow each other in the file and the stage */

struct slot {
	int tid;		/* owner, 0 when free */
	int pid;
	int ring;		/* io_uring fd, -1 when setup failed */
	unsigned int n;		/* queued */
	unsigned long used;	/* staging bytes */
	long err_fd, err;	/* an error to report at the next call */
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail,
		*cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *rings;
	unsigned long rings_len, sqes_len;
	char *stage;
	struct ent q[DEPTH];
};

static struct slot slots[SLOTS];
static int owner_pid;
static long nr_setup, nr_enter, nr_write, nr_pwrite, nr_mmap, nr_munmap,
	nr_close;

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

int wlog_init(int pid)
{
	static const struct nr_want nrs[] = {
		{ &nr_setup, "io_uring_setup" }, { &nr_enter, "io_uring_enter" },
		{ &nr_write, "write" }, { &nr_pwrite, "pwrite64" },
		{ &nr_mmap, "mmap" }, { &nr_munmap, "munmap" },
		{ &nr_close, "close" },
	};

	owner_pid = pid;
	return nr_lookup(nrs, sizeof(nrs) / sizeof(nrs[0]));
}

static void *map(unsigned long len, long fd, unsigned long off)
{
	long m = sc(nr_mmap, 0, len, PROT_READ | PROT_WRITE,
		    fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS :
			     MAP_SHARED | MAP_POPULATE, fd, off);

	return sysgate_is_error(m) ? 0 : (void *)m;
}

/* A ring for this slot; 0, or -1 (the slot then passes through). */
static int setup(struct slot *t)
{
	struct io_uring_params p;
	unsigned long sq_len, cq_len;
	char *r;
	long fd;

	hk_memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SUBMIT_ALL;	/* 5.18: all or nothing */
	fd = sc(nr_setup, DEPTH, (long)&p, 0, 0, 0, 0);
	if (fd == -22 /* EINVAL */) {
		hk_memset(&p, 0, sizeof(p));
		fd = sc(nr_setup, DEPTH, (long)&p, 0, 0, 0, 0);
	}
	if (fd < 0 || !(p.features & IORING_FEAT_SINGLE_MMAP))
		goto fail;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	t->rings_len = sq_len > cq_len ? sq_len : cq_len;
	t->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r = map(t->rings_len, fd, IORING_OFF_SQ_RING);
	t->sqes = map(t->sqes_len, fd, IORING_OFF_SQES);
	t->stage = map(STAGE, -1, 0);
	if (!r || !t->sqes || !t->stage)
		goto fail;
	t->rings = r;
	t->sq_tail = (unsigned int *)(r + p.sq_off.tail);
	t->sq_mask = (unsigned int *)(r + p.sq_off.ring_mask);
	t->sq_array = (unsigned int *)(r + p.sq_off.array);
	t->cq_head = (unsigned int *)(r + p.cq_off.head);
	t->cq_tail = (unsigned int *)(r + p.cq_off.tail);
	t->cq_mask = (unsigned int *)(r + p.cq_off.ring_mask);
	t->cqes = (struct io_uring_cqe *)(r + p.cq_off.cqes);
	t->ring = (int)fd;
	return 0;
fail:
	if (fd >= 0)
		sc(nr_close, fd, 0, 0, 0, 0, 0);
	t->ring = -1;
	return -1;
}

/* This thread's slot, claimed on first use; NULL to pass through. */
static struct slot *slot(int pid, int tid, int create)
{
	unsigned int h = (unsigned int)tid * 2654435761u, i;

	if (pid != owner_pid || tid <= 0)
		return 0;
	for (i = 0; i < 8; i++) {
		struct slot *t = &slots[(h + i) % SLOTS];
		int cur = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);

		if (cur == tid)
			return t->ring >= 0 ? t : 0;
		if (cur || !create)
			continue;
		if (!__atomic_compare_exchange_n(&t->tid, &cur, tid, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		/* a slot of an exited thread keeps its ring (empty: the
		 * thread's exit call flushed it) */
		t->pid = pid;
		if (!t->rings && setup(t) < 0)
			return 0;
		return t;
	}
	return 0;
}

static void note_error(struct slot *t, long fd, long err)
{
	if (!t->err) {
		t->err = err;
		t->err_fd = fd;
	}
}

/* The plain write that finishes (or redoes) queued write e from byte
 * done on. */
static void finish(struct slot *t, const struct ent *e, unsigned long done)
{
	while (done < e->len) {
		long r = e->off < 0 ?
				 sc(nr_write, e->fd, (long)(t->stage + e->pos + done),
				    e->len - done, 0, 0, 0) :
				 sc(nr_pwrite, e->fd, (long)(t->stage + e->pos + done),
				    e->len - done, e->off + done, 0, 0);

		if (r == -4 /* EINTR */)
			continue;
		if (r <= 0) {
			note_error(t, e->fd, r ? r : -5 /* EIO */);
			return;
		}
		done += r;
	}
}

/* Queue run i as a linked write SQE. */
static void prep(struct slot *t, unsigned int i)
{
	const struct ent *e = &t->q[i];
	unsigned int tail = *t->sq_tail;
	struct io_uring_sqe *q = &t->sqes[tail & *t->sq_mask];

	hk_memset(q, 0, sizeof(*q));
	q->opcode = IORING_OP_WRITE;
	q->flags = IOSQE_IO_LINK;	/* in order; the chain ends with the
					   submission */
	q->fd = (int)e->fd;
	q->off = (unsigned long)e->off;	/* -1: the file position */
	q->addr = (unsigned long)(t->stage + e->pos);
	q->len = (unsigned int)e->len;
	q->user_data = i;
	t->sq_array[tail & *t->sq_mask] = tail & *t->sq_mask;
	__atomic_store_n(t->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

/* Make the queued runs: one run is one plain write (a kernel entry
 * either way, and io_uring hands file writes to a worker thread); more
 * go as one io_uring submission. */
static void flush_slot(struct slot *t)
{
	unsigned int n = t->n, seen = 0, sent = 0, head, tail, i;
	long r;

	if (!n)
		return;
	t->n = 0;
	t->used = 0;
	if (n == 1) {
		finish(t, &t->q[0], 0);
		return;
	}
	for (i = 0; i < n; i++)
		prep(t, i);
	while (sent < n) {
		r = sc(nr_enter, t->ring, n - sent, n - sent,
		       IORING_ENTER_GETEVENTS, 0, 0);
		if (r == -4 /* EINTR */ || r == -11 /* EAGAIN */)
			continue;
		if (r <= 0)
			break;
		sent += r;
	}
	if (sent < n) {
		/* The kernel would not take them: the rest is written
		 * here, and the ring is not used again (its queue still
		 * holds them). */
		for (i = sent; i < n; i++)
			finish(t, &t->q[i], 0);
		n = sent;
		t->ring = -1;
	}
	/* Reap n completions (waiting again if some are late). */
	while (seen < n) {
		head = *t->cq_head;
		tail = __atomic_load_n(t->cq_tail, __ATOMIC_ACQUIRE);
		if (head == tail) {
			sc(nr_enter, t->ring, 0, 1, IORING_ENTER_GETEVENTS, 0, 0);
			continue;
		}
		for (; head != tail; head++, seen++) {
			const struct io_uring_cqe *c =
				&t->cqes[head & *t->cq_mask];
			const struct ent *e = &t->q[c->user_data];

			if (c->res == -125 /* ECANCELED: an earlier link
					      failed */ ||
			    c->res == -4 || c->res == -11 /* EAGAIN */)
				finish(t, e, 0);
			else if (c->res < 0)
				note_error(t, e->fd, c->res);
			else if ((unsigned long)c->res < e->len)
				finish(t, e, c->res);
		}
		__atomic_store_n(t->cq_head, head, __ATOMIC_RELEASE);
	}
}

void wlog_flush(int pid, int tid)
{
	struct slot *t = slot(pid, tid, 0);

	if (t && t->n)
		flush_slot(t);
}

long wlog_take_error(int pid, int tid, long fd)
{
	struct slot *t = slot(pid, tid, 0);
	long e;

	if (!t || !t->err || t->err_fd != fd)
		return 0;
	e = t->err;
	t->err = 0;
	return e;
}

long wlog_queue(int pid, int tid, long fd, const void *buf, unsigned long len,
		long off)
{
	struct slot *t;
	struct ent *e;

	if (!len || len > BIG || (t = slot(pid, tid, 1)) == 0)
		return -1;
	if (t->used + len > STAGE)
		flush_slot(t);
	/* a bad buffer: the kernel's write says what happens */
	if (sysgate_copy_nofault(t->stage + t->used, buf, len))
		return -1;
	e = t->n ? &t->q[t->n - 1] : 0;
	if (e && e->fd == fd && e->pos + e->len == t->used &&
	    (off < 0 ? e->off < 0 : e->off >= 0 && e->off + (long)e->len == off)) {
		e->len += len;	/* the same run, one write */
	} else {
		if (t->n == DEPTH) {
			flush_slot(t);
			/* flushing emptied the stage: copy again */
			if (sysgate_copy_nofault(t->stage, buf, len))
				return -1;
		}
		e = &t->q[t->n++];
		e->fd = fd;
		e->off = off;
		e->pos = t->used;
		e->len = len;
	}
	t->used += len;
	return (long)len;
}

/* In a fork child: the rings are the parent's (their memory is shared
 * with it), so forget them without touching them. */
void wlog_fork_child(int pid)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++) {
		struct slot *t = &slots[i];

		if (t->rings) {
			sc(nr_munmap, (long)t->rings, t->rings_len, 0, 0, 0, 0);
			sc(nr_munmap, (long)t->sqes, t->sqes_len, 0, 0, 0, 0);
			sc(nr_munmap, (long)t->stage, STAGE, 0, 0, 0, 0);
		}
		if (t->tid && t->ring >= 0)
			sc(nr_close, t->ring, 0, 0, 0, 0, 0);
		hk_memset(t, 0, sizeof(*t));
	}
	owner_pid = pid;
}
