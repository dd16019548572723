/* SPDX-License-Identifier: MIT */
/*
 * calls.c - running the lanes' calls: admission (class, pointers), calls
 * that may block (interruptible, each on its own worker), the bulk path
 * for device memory, io_uring batches, and answering the GPU.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef SG_HAVE_URING
#include <liburing.h>
#endif

#include "runtime.h"

static void refuse_msg(struct sysgate_gpu_server *s, long nr,
		       const struct sg_sysent *e)
{
	uint64_t bit, old;
	struct sysgate_gpu_sysinfo info;

	if (s->quiet || nr < 0 || nr >= SG_NR_LIMIT)
		return;
	bit = 1ull << (nr & 63);
	old = __atomic_fetch_or(&s->warned[nr / 64], bit, __ATOMIC_RELAXED);
	if (old & bit)
		return;
	sysgate_gpu_classify(nr, &info);
	fprintf(stderr, "sysgate-gpu: refused syscall %ld (%s) from the GPU "
		"with -ENOSYS: %s\n", nr, e ? e->name : "unclassified",
		info.why ? info.why : "");
}

/*
 * Decide whether a lane's call may run.  Returns 1 (2: its buffer is
 * device memory) with *ent set when it may, else 0 with *ret set.
 */
static int admit(struct sysgate_gpu_server *s, uint32_t nrw,
		 const uint64_t *a, const struct sg_sysent **ent, int64_t *ret)
{
	long nr = nrw & SYSGATE_GPU_NR_MASK;
	const struct sg_sysent *e;
	int r;

	if (nr == SYSGATE_GPU_NR_MASK) {		/* lane failed on the GPU side */
		*ret = -EINVAL;
		return 0;
	}
	e = sg_lookup(nr);
	if (!e || e->cls != SYSGATE_GPU_CLASS_USEFUL) {
		refuse_msg(s, nr, e);
		ADD(&s->st.refused, 1);
		*ret = -ENOSYS;
		return 0;
	}
	r = check_ptrs(s, e, a);
	if (r < 0) {
		ADD(&s->st.faults, 1);
		*ret = r;
		return 0;
	}
	*ent = e;
	return 1 + r;
}

static void after_call(struct sysgate_gpu_server *s, long nr,
		       const uint64_t *a, int64_t ret)
{
	if (ret < 0)
		return;
	/* A MAP_FIXED inside a GPU mapping replaced part of it: the range
	 * is already there. */
	if (nr == SYS_mmap && !(a[3] & MAP_FIXED))
		add_range(s, (uintptr_t)ret, (size_t)a[1], RANGE_MMAP);
	else if (nr == SYS_munmap)
		cut_mmap(s, (uintptr_t)a[0], (uintptr_t)(a[0] + a[1]));
}

static struct sysgate_gpu_slot *slot_of(struct sysgate_gpu_server *s,
					const struct req *r)
{
	return &s->ports[r->port].lane[r->lane];
}

/* Has the GPU given up on this call, or is the server stopping? */
static int cancelled(struct sysgate_gpu_server *s, const struct req *r)
{
	return __atomic_load_n(&s->cancel[r->port], __ATOMIC_SEQ_CST) ==
		r->seq || __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST);
}

/*
 * A call that may block, made so cancellation can interrupt it: inkernel
 * is published before the last cancel check, and the canceller re-sends
 * its signal while inkernel stays set (a signal that lands just before the
 * syscall starts is harmless; the next one interrupts it).
 */
static int64_t interruptible(struct sysgate_gpu_server *s, struct worker *w,
			     const struct req *r, long nr, const uint64_t *a)
{
	int64_t ret;

	about_to_block(s);
	w->port = r->port;
	w->seq = r->seq;
	__atomic_store_n(&w->inkernel, 1, __ATOMIC_SEQ_CST);
	if (cancelled(s, r)) {
		__atomic_store_n(&w->inkernel, 0, __ATOMIC_SEQ_CST);
		ADD(&s->nblocked, -1);
		return -ECANCELED;
	}
	ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret == -1)
		ret = -errno;
	__atomic_store_n(&w->inkernel, 0, __ATOMIC_SEQ_CST);
	ADD(&s->nblocked, -1);
	if (ret == -EINTR && cancelled(s, r))
		ret = -ECANCELED;
	return ret;
}

void free_bounce(struct worker *w)
{
	if (w->bounce && w->bounce_free)
		w->bounce_free(w->bounce_ctx, w->bounce);
	else
		free(w->bounce);
	w->bounce = NULL;
}

/* One chunk of a bulk call: read/write may block, the positional ones not. */
static int64_t bulk_io(struct sysgate_gpu_server *s, struct worker *w,
		       const struct req *r, long nr, const uint64_t *a)
{
	int64_t ret;

	if (nr == SYS_read || nr == SYS_write)
		return interruptible(s, w, r, nr, a);
	ret = syscall(nr, a[0], a[1], a[2], a[3]);
	return ret == -1 ? -errno : ret;
}

/*
 * read/pread64/write/pwrite64 with a device-memory buffer: chunks through
 * two host bounce buffers, so reading chunk i+1 overlaps copying chunk i to
 * the device.  Returns the bytes moved (short at end of file, or when
 * cancelled after some data) or -errno.
 */
static int64_t run_bulk(struct sysgate_gpu_server *s, struct worker *w,
			const struct req *r, long nr, const uint64_t *a)
{
	struct sysgate_gpu_copier cp;
	int to_dev = nr == SYS_read || nr == SYS_pread64;
	unsigned char *dev = (unsigned char *)(uintptr_t)a[1];
	size_t len = a[2] > MAX_RW ? MAX_RW : (size_t)a[2], done = 0;
	int64_t err = 0;
	int cur = 0, inflight = 0;

	pthread_rwlock_rdlock(&s->rlock);
	cp = s->cp;
	pthread_rwlock_unlock(&s->rlock);
	if (!w->bounce || w->chunk != cp.chunk) {
		free_bounce(w);
		w->bounce = cp.alloc_host ? cp.alloc_host(cp.ctx, 2 * cp.chunk) :
			malloc(2 * cp.chunk);
		if (!w->bounce)
			return -ENOMEM;
		w->chunk = cp.chunk;
		w->bounce_free = cp.alloc_host ? cp.free_host : NULL;
		w->bounce_ctx = cp.ctx;
	}
	while (done < len && !err) {
		size_t n = len - done < cp.chunk ? len - done : cp.chunk;
		unsigned char *bb = w->bounce + (size_t)cur * cp.chunk;
		uint64_t sub[6] = { a[0], (uint64_t)(uintptr_t)bb, n,
				    a[3] + done, 0, 0 };
		int64_t got;

		if (cancelled(s, r))
			break;
		if (to_dev) {
			/* The copy from this bounce half (two chunks ago)
			 * must be done before it is refilled. */
			if (inflight == 2 && cp.wait && (err = cp.wait(cp.ctx)))
				break;
			if (inflight == 2)
				inflight = 0;
			got = bulk_io(s, w, r, nr, sub);
			if (got <= 0) {
				err = got;
				break;
			}
			err = cp.copy(cp.ctx, dev + done, bb, (size_t)got, 1);
			inflight++;
		} else {
			err = cp.copy(cp.ctx, bb, dev + done, n, 0);
			if (!err && cp.wait)
				err = cp.wait(cp.ctx);
			if (err)
				break;
			got = bulk_io(s, w, r, nr, sub);
			if (got <= 0) {
				err = got;
				break;
			}
		}
		done += (size_t)got;
		cur ^= 1;
		if ((size_t)got < n)
			break;		/* short: end of file, pipe, socket */
	}
	if (inflight && cp.wait) {
		int e2 = cp.wait(cp.ctx);

		if (!err)
			err = e2;
	}
	ADD(&s->st.bulk_bytes, done);
	if (done)
		return (int64_t)done;
	if (err == -ECANCELED || (err == -EINTR && cancelled(s, r)) ||
	    (!err && cancelled(s, r)))
		return -ECANCELED;
	return err;
}

static int64_t run_one(struct sysgate_gpu_server *s, struct worker *w,
		       const struct req *r)
{
	struct sysgate_gpu_slot *sl = slot_of(s, r);
	const struct sg_sysent *e;
	const uint64_t *a = sl->arg;
	int64_t ret;
	long nr = sl->nr & SYSGATE_GPU_NR_MASK;
	int how = admit(s, sl->nr, a, &e, &ret);

	if (!how)
		return ret;
	if (cancelled(s, r))
		return -ECANCELED;
	if (how == 2)
		return run_bulk(s, w, r, nr, a);
	if (e->block)
		return interruptible(s, w, r, nr, a);
	ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret == -1)
		ret = -errno;
	after_call(s, nr, a, ret);
	return ret;
}

void complete(struct sysgate_gpu_server *s, const struct req *r, int64_t ret)
{
	struct sysgate_gpu_slot *sl = slot_of(s, r);

	ADD(&s->st.calls, 1);
	if (ret == -ECANCELED)
		ADD(&s->st.cancelled, 1);
	if (sl->nr & SYSGATE_GPU_NR_NORET) {
		sl->state = SYSGATE_GPU_SLOT_FREE;
	} else {
		sl->ret = ret;
		sl->state = SYSGATE_GPU_SLOT_FINISHED;
	}
	if (__atomic_fetch_sub(&s->pending[r->port], 1, __ATOMIC_ACQ_REL) == 1)
		__atomic_store_n(&s->cpu_seq[r->port], r->seq,
				 __ATOMIC_RELEASE);
}

/* Queue one lane's call on its own (a call that may block). */
static void enqueue_one(struct sysgate_gpu_server *s, const struct req *r)
{
	struct batch *b = malloc(sizeof(*b) + sizeof(b->r[0]));

	if (!b) {
		complete(s, r, -ENOMEM);
		return;
	}
	b->n = 1;
	b->r[0] = *r;
	enqueue(s, b);
}

/* Does this lane's call have to run apart from the others? */
static int blocks(struct sysgate_gpu_server *s, const struct req *r)
{
	const struct sg_sysent *e =
		sg_lookup(slot_of(s, r)->nr & SYSGATE_GPU_NR_MASK);

	return e && e->block;
}

#ifdef SG_HAVE_URING
/*
 * One call as an io_uring request.  Reads and writes go with RWF_NOWAIT,
 * so the submission never waits on a pipe or socket; lengths are capped as
 * the kernel caps read(2), never truncated.
 */
static void prep_sqe(struct io_uring_sqe *sqe, long nr, const uint64_t *a)
{
	unsigned len = a[2] > MAX_RW ? MAX_RW : (unsigned)a[2];

	if (nr == SYS_pread64 || nr == SYS_read)
		io_uring_prep_read(sqe, (int)a[0], (void *)a[1], len,
				   nr == SYS_read ? (uint64_t)-1 : a[3]);
	else if (nr == SYS_pwrite64 || nr == SYS_write)
		io_uring_prep_write(sqe, (int)a[0], (const void *)a[1], len,
				    nr == SYS_write ? (uint64_t)-1 : a[3]);
	else if (nr == SYS_fsync || nr == SYS_fdatasync)
		io_uring_prep_fsync(sqe, (int)a[0], nr == SYS_fdatasync ?
				    IORING_FSYNC_DATASYNC : 0);
	else if (nr == SYS_close)
		io_uring_prep_close(sqe, (int)a[0]);
	else
		io_uring_prep_nop(sqe);
	if (nr == SYS_pread64 || nr == SYS_read || nr == SYS_pwrite64 ||
	    nr == SYS_write)
		sqe->rw_flags = RWF_NOWAIT;
}

/*
 * Run a whole batch with one io_uring submission; 0, or -1 to fall back.
 * A call that would wait (-EAGAIN) is queued on its own.
 */
static int run_uring(struct sysgate_gpu_server *s, struct io_uring *ring,
		     struct batch *b)
{
	int64_t res[MAX_BATCH_CAP];
	unsigned char go[MAX_BATCH_CAP];
	unsigned queued = 0;

	for (unsigned i = 0; i < b->n; i++) {
		const struct sg_sysent *e =
			sg_lookup(slot_of(s, &b->r[i])->nr & SYSGATE_GPU_NR_MASK);

		if (!e || !e->uring)
			return -1;
	}
	for (unsigned i = 0; i < b->n; i++) {
		struct sysgate_gpu_slot *sl = slot_of(s, &b->r[i]);
		const struct sg_sysent *e;
		const uint64_t *a = sl->arg;
		struct io_uring_sqe *sqe;
		long nr = sl->nr & SYSGATE_GPU_NR_MASK;
		int how;

		go[i] = 0;
		how = admit(s, sl->nr, a, &e, &res[i]);
		if (!how)
			continue;
		if (how == 2 || cancelled(s, &b->r[i])) {
			go[i] = 2;	/* device memory, or cancelled */
			continue;
		}
		sqe = io_uring_get_sqe(ring);
		if (!sqe) {
			go[i] = 2;
			continue;
		}
		prep_sqe(sqe, nr, a);
		sqe->user_data = i;
		go[i] = 1;
		queued++;
	}
	if (queued) {
		int r = io_uring_submit_and_wait(ring, queued);

		if (r < 0) {
			/* Nothing ran: do them apart. */
			io_uring_cq_advance(ring, io_uring_cq_ready(ring));
			for (unsigned i = 0; i < b->n; i++)
				if (go[i] == 1)
					go[i] = 2;
			queued = 0;
		}
	}
	while (queued) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(ring, &cqe))
			break;
		res[cqe->user_data] = cqe->res;
		if (cqe->res == -EAGAIN)
			go[cqe->user_data] = 2;	/* would wait: run apart */
		io_uring_cqe_seen(ring, cqe);
		queued--;
	}
	ADD(&s->st.uring_batches, 1);
	for (unsigned i = 0; i < b->n; i++) {
		if (go[i] == 2)
			enqueue_one(s, &b->r[i]);
		else
			complete(s, &b->r[i], res[i]);
	}
	return 0;
}
#endif

/*
 * A batch: calls that may block are queued on their own (the pool grows
 * for them) except the last, which runs here after everything else.
 */
void run_batch(struct sysgate_gpu_server *s, struct worker *w,
	       struct batch *b)
{
	int last = -1;

#ifdef SG_HAVE_URING
	unsigned um = LOAD(&s->uring_min);

	if (um && b->n >= um) {
		if (!w->ring) {
			w->ring = malloc(sizeof(struct io_uring));
			if (w->ring && io_uring_queue_init(MAX_BATCH_CAP,
							   w->ring, 0)) {
				free(w->ring);
				w->ring = NULL;
			}
		}
		if (w->ring && !run_uring(s, w->ring, b))
			return;
	}
#endif
	for (unsigned i = 0; i < b->n; i++) {
		if (b->n > 1 && blocks(s, &b->r[i])) {
			if (last >= 0)
				enqueue_one(s, &b->r[last]);
			last = (int)i;
			continue;
		}
		complete(s, &b->r[i], run_one(s, w, &b->r[i]));
	}
	if (last >= 0)
		complete(s, &b->r[last], run_one(s, w, &b->r[last]));
}
