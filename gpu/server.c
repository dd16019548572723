/* SPDX-License-Identifier: MIT */
/*
 * server.c - the host runtime that services system calls from GPU lanes.
 *
 * Threads:
 *  - one poller: scans the compact gpu_seq[] array (4 bytes per idle port),
 *    takes each new transaction (gpu_seq differs from what it last took),
 *    gathers the lanes' calls into batches (coalescing: a time window and
 *    a maximum batch size, both settable at run time) and queues them.  It
 *    also watches the cancel[] words of the ports it holds.  The poller
 *    never makes a system call on a lane's behalf, so a blocking call
 *    cannot stall it.
 *  - workers, a pool that grows whenever work is queued and no worker is
 *    idle (up to max_workers) and shrinks when idle: a worker runs a batch,
 *    one syscall each, or through one io_uring submission (RWF_NOWAIT, so
 *    it never waits on a pipe or socket).  A call that may block for ever
 *    (a `block` entry in sysclass.c) never runs in line with others: it
 *    is queued on its own, so it holds only its own worker; lanes reading
 *    a pipe that other lanes of the same warp write both complete.
 *
 * Cancellation: a worker in a blocking call is interrupted with
 * cancel_signal (an empty handler without SA_RESTART, so the call returns
 * EINTR having transferred nothing), re-sent until it is out of the
 * kernel; calls not started yet are not run.  Both are answered -ECANCELED.
 * This happens when the GPU gives up on a call (cancel[port] == seq) and
 * when the server stops.
 *
 * Invariants:
 *  - The runtime writes only cpu_seq[], the slots' state and ret fields, and
 *    only while it owns the port (gpu_seq != cpu_seq).
 *  - A port's cpu_seq is published (release) by whichever worker finishes
 *    its last lane; the pending count is an acq_rel RMW, so every lane's
 *    result happens-before that store.
 *  - Every pointer argument is checked against registered ranges (the
 *    staging area counts as one) before a call runs.  Calls the table does
 *    not classify as useful are refused with -ENOSYS and never run.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#ifdef SG_HAVE_URING
#include <liburing.h>
#endif

#include "sysgate_gpu.h"
#include "sysgate_gpu_int.h"

#define MAX_BATCH_CAP 256
#define RANGE_USER 1
#define RANGE_MMAP 2
#define RANGE_STAGING 4
#define RANGE_DEVICE 8
#define MAX_RW 0x7ffff000ul		/* the kernel's cap on one read/write */
#define IDLE_WORKER_NS 2000000000ull	/* extra workers exit after this */
#define SPIN_NS 5000ull			/* poller spins this long after work */
#define HOT_NS 10000000ull		/* poller never sleeps this soon after work */
#define RESIGNAL_NS 1000000ull		/* re-send a cancel this often */

struct range {
	uintptr_t lo, hi;
	unsigned kind;
};

struct req {
	uint32_t port;
	uint32_t seq;
	unsigned lane;
};

struct batch {
	struct batch *next;
	unsigned n;
	struct req r[];
};

struct worker {
	struct worker *next, *prev;
	struct sysgate_gpu_server *s;
	pthread_t th;
	uint32_t port, seq;	/* the blocking call it is in */
	int inkernel;		/* atomic: 1 while in an interruptible call */
	unsigned char *bounce;	/* 2 x chunk, for device memory */
	size_t chunk;
	void (*bounce_free)(void *ctx, void *p);	/* NULL: free() */
	void *bounce_ctx;
	void *ring;
};

struct sysgate_gpu_server {
	struct sysgate_gpu_port *ports;
	uint32_t *gpu_seq, *cancel, *cpu_seq;	/* the shared mailboxes */
	unsigned nports;
	uint32_t *seen;		/* poller-private: last gpu_seq taken */
	uint32_t *pending;	/* lanes outstanding per port (atomic) */
	uint32_t *held;		/* poller-private: ports taken, not answered */
	unsigned char *isheld;	/* poller-private: port is in held[] */
	unsigned nheld;
	uint64_t last_signal_ns;

	pthread_t poller;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;	/* work queued, or stopping */
	pthread_cond_t gone;	/* a worker exited */
	struct batch *qhead, *qtail;
	struct worker *wlist;
	unsigned nlive, nidle, minw, maxw;
	unsigned nblocked;	/* atomic: workers in a call that may block */
	int stop;		/* atomic */
	int sig;

	unsigned window_us;	/* atomic knobs */
	unsigned max_batch;
	unsigned uring_min;
	int quiet;

	pthread_rwlock_t rlock;	/* ranges and copier */
	struct range *ranges;
	unsigned nranges, rcap;
	struct sysgate_gpu_copier cp;

	struct sysgate_gpu_stats st;	/* updated with atomics */
	uint64_t warned[SG_NR_LIMIT / 64];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

static size_t mbox_bytes(unsigned nports)
{
	return ((size_t)nports * 4 + SYSGATE_GPU_LINE - 1) &
		~(size_t)(SYSGATE_GPU_LINE - 1);
}

/* gpu_seq[], cancel[] (GPU-written), cpu_seq[] (host), ports, staging. */
size_t sysgate_gpu_area_size(unsigned nports, unsigned staging_per_lane)
{
	return 3 * mbox_bytes(nports) +
		(size_t)nports * sizeof(struct sysgate_gpu_port) +
		(size_t)nports * SYSGATE_GPU_WARP_LANES * staging_per_lane;
}

int sysgate_gpu_have_uring(void)
{
#ifdef SG_HAVE_URING
	return 1;
#else
	return 0;
#endif
}

/* ---- registered ranges ---- */

static int add_range(struct sysgate_gpu_server *s, uintptr_t lo, size_t len,
		     unsigned kind)
{
	int ret = 0;

	if (!len || lo + len < lo)
		return -EINVAL;
	pthread_rwlock_wrlock(&s->rlock);
	if (s->nranges == s->rcap) {
		unsigned cap = s->rcap ? 2 * s->rcap : 16;
		struct range *r = realloc(s->ranges, cap * sizeof(*r));

		if (!r) {
			ret = -ENOMEM;
			goto out;
		}
		s->ranges = r;
		s->rcap = cap;
	}
	s->ranges[s->nranges++] = (struct range){ lo, lo + len, kind };
out:
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}

static int del_range(struct sysgate_gpu_server *s, uintptr_t lo,
		     unsigned kinds)
{
	int ret = -ENOENT;

	pthread_rwlock_wrlock(&s->rlock);
	for (unsigned i = 0; i < s->nranges; i++) {
		if (s->ranges[i].lo == lo && (s->ranges[i].kind & kinds)) {
			s->ranges[i] = s->ranges[--s->nranges];
			ret = 0;
			break;
		}
	}
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}

/*
 * [lo, hi) of the GPU's mappings is gone (munmap): trim the one range that
 * holds it, keeping what is left on either side.
 */
static void cut_mmap(struct sysgate_gpu_server *s, uintptr_t lo, uintptr_t hi)
{
	pthread_rwlock_wrlock(&s->rlock);
	for (unsigned i = 0; i < s->nranges; i++) {
		struct range *r = &s->ranges[i];

		if (r->kind != RANGE_MMAP || lo < r->lo || hi > r->hi)
			continue;
		if (lo > r->lo && hi < r->hi) {
			struct range up = { hi, r->hi, RANGE_MMAP };

			r->hi = lo;
			if (s->nranges == s->rcap) {
				struct range *n = realloc(s->ranges, 2 * s->rcap *
							  sizeof(*n));

				if (!n)
					break;	/* the upper part stays mapped,
						 * unreachable from the GPU */
				s->ranges = n;
				s->rcap *= 2;
			}
			s->ranges[s->nranges++] = up;
		} else if (lo > r->lo) {
			r->hi = lo;
		} else if (hi < r->hi) {
			r->lo = hi;
		} else {
			*r = s->ranges[--s->nranges];
		}
		break;
	}
	pthread_rwlock_unlock(&s->rlock);
}

int sysgate_gpu_register(struct sysgate_gpu_server *s, const void *p,
			 size_t len)
{
	return add_range(s, (uintptr_t)p, len, RANGE_USER);
}

int sysgate_gpu_register_device(struct sysgate_gpu_server *s, const void *p,
				size_t len)
{
	return add_range(s, (uintptr_t)p, len, RANGE_DEVICE);
}

int sysgate_gpu_unregister(struct sysgate_gpu_server *s, const void *p)
{
	return del_range(s, (uintptr_t)p, RANGE_USER | RANGE_DEVICE);
}

static int copy_memcpy(void *ctx, void *dst, const void *src, size_t len,
		       int to_device)
{
	(void)ctx;
	(void)to_device;
	memcpy(dst, src, len);
	return 0;
}

void sysgate_gpu_set_copier(struct sysgate_gpu_server *s,
			    const struct sysgate_gpu_copier *cp)
{
	pthread_rwlock_wrlock(&s->rlock);
	if (cp)
		s->cp = *cp;
	else
		s->cp = (struct sysgate_gpu_copier){ .copy = copy_memcpy };
	if (!s->cp.chunk)
		s->cp.chunk = 4u << 20;
	pthread_rwlock_unlock(&s->rlock);
}

/* Is [p, p+len) inside one range of the given kinds?  Caller holds rlock. */
static const struct range *find_range(struct sysgate_gpu_server *s,
				      uintptr_t p, size_t len, unsigned kinds)
{
	if (p + len < p)
		return NULL;
	for (unsigned i = 0; i < s->nranges; i++) {
		const struct range *r = &s->ranges[i];

		if ((r->kind & kinds) && p >= r->lo && p + len <= r->hi)
			return r;
	}
	return NULL;
}

/* 0, 1 when the buffer is device memory (bulk path), or -EFAULT. */
static int check_ptrs(struct sysgate_gpu_server *s, const struct sg_sysent *e,
		      const uint64_t *a)
{
	int ret = 0;

	pthread_rwlock_rdlock(&s->rlock);
	for (int i = 0; i < 3 && e->ptr[i].kind; i++) {
		const struct sg_ptrspec *ps = &e->ptr[i];
		uintptr_t p = (uintptr_t)a[ps->arg];
		unsigned kinds = RANGE_USER | RANGE_MMAP | RANGE_STAGING;
		size_t len = ps->len_arg >= 0 ? (size_t)a[ps->len_arg] :
			ps->fixed;

		if (!p && (ps->kind & PS_NULLOK))
			continue;
		if (ps->kind & PS_FIXMAP) {
			/* Only MAP_FIXED replaces mappings; then it may
			 * replace only what the GPU mapped itself. */
			if (!(a[3] & MAP_FIXED))
				continue;
			kinds = RANGE_MMAP;
		}
		if (ps->kind & PS_MAPPED)
			kinds = RANGE_MMAP;
		if (ps->kind & PS_ADVISE)
			kinds = RANGE_USER | RANGE_MMAP;
		if (ps->kind & PS_LENPTR) {
			const struct range *lr;
			uintptr_t lp = (uintptr_t)a[ps->len_arg];

			if (!lp)
				continue;
			lr = find_range(s, lp, sizeof(socklen_t), kinds);
			if (!lr) {
				ret = -EFAULT;
				break;
			}
			len = *(const socklen_t *)lp;
		}
		if (ps->kind & PS_STR) {
			const struct range *r = find_range(s, p, 1, kinds);

			if (!r || !memchr((const void *)p, 0, r->hi - p)) {
				ret = -EFAULT;
				break;
			}
			continue;
		}
		if (!len)
			continue;
		if (find_range(s, p, len, kinds))
			continue;
		if ((ps->kind & PS_BULK) &&
		    find_range(s, p, len, RANGE_DEVICE)) {
			ret = 1;
			continue;
		}
		ret = -EFAULT;
		break;
	}
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}

/* ---- running calls ---- */

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
static void about_to_block(struct sysgate_gpu_server *s);

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

static void free_bounce(struct worker *w)
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

static void complete(struct sysgate_gpu_server *s, const struct req *r,
		     int64_t ret)
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

static void enqueue(struct sysgate_gpu_server *s, struct batch *b);

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
 * Run a whole batch with one io_uring submission; 0, or -1 to fall back.
 * Reads and writes go with RWF_NOWAIT, so the submission never waits on a
 * pipe or socket: a call that would wait (-EAGAIN) is queued on its own.
 * Lengths are capped as the kernel caps read(2), never truncated.
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
		unsigned len = a[2] > MAX_RW ? MAX_RW : (unsigned)a[2];
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
		if (nr == SYS_pread64 || nr == SYS_read)
			io_uring_prep_read(sqe, (int)a[0], (void *)a[1], len,
					   nr == SYS_read ? (uint64_t)-1 : a[3]);
		else if (nr == SYS_pwrite64 || nr == SYS_write)
			io_uring_prep_write(sqe, (int)a[0], (const void *)a[1],
					    len, nr == SYS_write ? (uint64_t)-1 :
					    a[3]);
		else if (nr == SYS_fsync || nr == SYS_fdatasync)
			io_uring_prep_fsync(sqe, (int)a[0],
					    nr == SYS_fdatasync ?
					    IORING_FSYNC_DATASYNC : 0);
		else if (nr == SYS_close)
			io_uring_prep_close(sqe, (int)a[0]);
		else
			io_uring_prep_nop(sqe);
		if (nr == SYS_pread64 || nr == SYS_read || nr == SYS_pwrite64 ||
		    nr == SYS_write)
			sqe->rw_flags = RWF_NOWAIT;
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
static void run_batch(struct sysgate_gpu_server *s, struct worker *w,
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

/* ---- the worker pool ---- */

static void *worker_main(void *arg);

/* Caller holds qlock. */
static void spawn_worker(struct sysgate_gpu_server *s)
{
	struct worker *w = calloc(1, sizeof(*w));
	pthread_attr_t at;

	if (!w)
		return;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, 256 * 1024);
	w->next = s->wlist;
	if (s->wlist)
		s->wlist->prev = w;
	s->wlist = w;
	s->nlive++;
	w->s = s;
	if (pthread_create(&w->th, &at, worker_main, w)) {
		s->wlist = w->next;
		if (s->wlist)
			s->wlist->prev = NULL;
		s->nlive--;
		free(w);
	} else if (s->nlive > LOAD(&s->st.workers_max)) {
		STORE(&s->st.workers_max, s->nlive);
	}
	pthread_attr_destroy(&at);
}

static void enqueue(struct sysgate_gpu_server *s, struct batch *b)
{
	b->next = NULL;
	pthread_mutex_lock(&s->qlock);
	if (s->qtail)
		s->qtail->next = b;
	else
		s->qhead = b;
	s->qtail = b;
	/*
	 * Nobody idle and fewer than `workers` free to come back for it
	 * (the others wait in blocking calls): grow, so a blocked call never
	 * holds up another.  Bursts of bounded calls do not grow the pool.
	 */
	if (!s->nidle && s->nlive - LOAD(&s->nblocked) < s->minw &&
	    s->nlive < s->maxw && !LOAD(&s->stop))
		spawn_worker(s);
	else
		pthread_cond_signal(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
}

/*
 * A worker is about to wait in a call that may block: if work is queued
 * and nobody idle would take it, start a worker for it first (the work
 * was queued while this worker still counted as free).
 */
static void about_to_block(struct sysgate_gpu_server *s)
{
	ADD(&s->nblocked, 1);
	pthread_mutex_lock(&s->qlock);
	if (s->qhead && !s->nidle && s->nlive < s->maxw && !LOAD(&s->stop))
		spawn_worker(s);
	pthread_mutex_unlock(&s->qlock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct sysgate_gpu_server *s = w->s;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, s->sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	pthread_mutex_lock(&s->qlock);
	for (;;) {
		struct batch *b;

		while (!s->qhead && !LOAD(&s->stop)) {
			struct timespec ts;
			int r;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += IDLE_WORKER_NS / 1000000000ull;
			s->nidle++;
			r = pthread_cond_timedwait(&s->qcond, &s->qlock, &ts);
			s->nidle--;
			if (r == ETIMEDOUT && !s->qhead && s->nlive > s->minw)
				goto out;
		}
		b = s->qhead;
		if (!b)
			break;	/* stopping and the queue is empty */
		s->qhead = b->next;
		if (!s->qhead)
			s->qtail = NULL;
		pthread_mutex_unlock(&s->qlock);
		if (LOAD(&s->stop)) {
			/* Not started: answer without running. */
			for (unsigned i = 0; i < b->n; i++)
				complete(s, &b->r[i], -ECANCELED);
		} else {
			run_batch(s, w, b);
		}
		free(b);
		pthread_mutex_lock(&s->qlock);
	}
out:
	/* Leave the list first: a canceller signals only listed workers. */
	if (w->prev)
		w->prev->next = w->next;
	else
		s->wlist = w->next;
	if (w->next)
		w->next->prev = w->prev;
	s->nlive--;
	pthread_cond_broadcast(&s->gone);
	pthread_mutex_unlock(&s->qlock);
	free_bounce(w);
#ifdef SG_HAVE_URING
	if (w->ring) {
		io_uring_queue_exit(w->ring);
		free(w->ring);
	}
#endif
	free(w);
	return NULL;
}

/*
 * Interrupt the workers blocked in a call of port (every port when port is
 * nports: stopping).  Re-sent by the callers until the call is answered.
 */
static void interrupt(struct sysgate_gpu_server *s, uint32_t port,
		      uint32_t seq)
{
	pthread_mutex_lock(&s->qlock);
	for (struct worker *w = s->wlist; w; w = w->next)
		if (__atomic_load_n(&w->inkernel, __ATOMIC_SEQ_CST) &&
		    (port == s->nports || (w->port == port && w->seq == seq)))
			pthread_kill(w->th, s->sig);
	pthread_mutex_unlock(&s->qlock);
}

static void dispatch(struct sysgate_gpu_server *s, struct batch *b)
{
	uint64_t m;

	ADD(&s->st.batches, 1);
	m = LOAD(&s->st.max_batch_seen);
	if (b->n > m)
		STORE(&s->st.max_batch_seen, b->n);
	enqueue(s, b);
}

/*
 * The ports the poller took and the host has not answered yet: only their
 * cancel[] words are looked at, so the cost is per call in flight, not per
 * port.  Returns whether a cancel is still being delivered.
 */
static int watch_held(struct sysgate_gpu_server *s)
{
	uint64_t now = 0;
	int busy = 0;

	for (unsigned i = 0; i < s->nheld;) {
		uint32_t pi = s->held[i], seq = s->seen[pi];

		if (__atomic_load_n(&s->cpu_seq[pi], __ATOMIC_RELAXED) == seq) {
			s->isheld[pi] = 0;
			s->held[i] = s->held[--s->nheld];
			continue;
		}
		i++;
		if (__atomic_load_n(&s->cancel[pi], __ATOMIC_ACQUIRE) != seq)
			continue;
		busy = 1;
		if (!now)
			now = mono_ns();
		if (now - s->last_signal_ns >= RESIGNAL_NS)
			interrupt(s, pi, seq);
	}
	if (now && now - s->last_signal_ns >= RESIGNAL_NS)
		s->last_signal_ns = now;
	return busy;
}

#define SCAN_BLOCK 256	/* ports compared at once */

/*
 * Has any gpu_seq of this block moved since the poller took it?  A plain
 * (vectorised) compare: 8,448 idle ports cost well under a microsecond.
 * Reading a word while the GPU writes it at worst shows the old value,
 * which the next scan picks up; a change is re-read with acquire before
 * anything of the port is used.  ThreadSanitizer builds compare word by
 * word with atomic loads, so it sees the protocol as it is.
 */
static int block_moved(const uint32_t *gs, const uint32_t *seen, unsigned n)
{
#if defined(__SANITIZE_THREAD__)
	for (unsigned i = 0; i < n; i++)
		if (__atomic_load_n(&gs[i], __ATOMIC_RELAXED) != seen[i])
			return 1;
	return 0;
#else
	return memcmp(gs, seen, (size_t)n * sizeof(*gs)) != 0;
#endif
}

static struct batch *new_batch(void)
{
	struct batch *b = malloc(sizeof(*b) + MAX_BATCH_CAP * sizeof(b->r[0]));

	if (!b)
		abort();
	b->n = 0;
	return b;
}

static void *poller_main(void *arg)
{
	struct sysgate_gpu_server *s = arg;
	struct batch *cur = NULL;
	uint64_t first_ns = 0, last_work = 0;

	while (!LOAD(&s->stop)) {
		unsigned maxb = LOAD(&s->max_batch);
		uint64_t win = (uint64_t)LOAD(&s->window_us) * 1000;
		const uint32_t *gs = s->gpu_seq;
		int found = 0;

		for (unsigned pi = 0; pi < s->nports; pi++) {
			struct sysgate_gpu_port *p;
			uint32_t g, mask;

			if (pi % SCAN_BLOCK == 0) {
				unsigned n = s->nports - pi < SCAN_BLOCK ?
					s->nports - pi : SCAN_BLOCK;

				if (!block_moved(&gs[pi], &s->seen[pi], n)) {
					pi += n - 1;
					continue;
				}
			}
			if (__atomic_load_n(&gs[pi], __ATOMIC_RELAXED) ==
			    s->seen[pi])
				continue;
			g = __atomic_load_n(&gs[pi], __ATOMIC_ACQUIRE);
			/* A new transaction: the port is ours now. */
			p = &s->ports[pi];
			s->seen[pi] = g;
			found = 1;
			ADD(&s->st.transactions, 1);
			mask = p->lane_mask;
			if (!mask) {
				__atomic_store_n(&s->cpu_seq[pi], g,
						 __ATOMIC_RELEASE);
				continue;
			}
			if (!s->isheld[pi]) {
				s->isheld[pi] = 1;
				s->held[s->nheld++] = pi;
			}
			__atomic_store_n(&s->pending[pi],
					 (uint32_t)__builtin_popcount(mask),
					 __ATOMIC_RELAXED);
			while (mask) {
				unsigned lane = __builtin_ctz(mask);

				mask &= mask - 1;
				p->lane[lane].state = SYSGATE_GPU_SLOT_PROCESSING;
				if (!cur) {
					cur = new_batch();
					first_ns = mono_ns();
				}
				cur->r[cur->n++] = (struct req){ pi, g, lane };
				if (cur->n >= maxb) {
					dispatch(s, cur);
					cur = NULL;
				}
			}
		}
		if (cur && (!win || mono_ns() - first_ns >= win)) {
			dispatch(s, cur);
			cur = NULL;
		}
		if (watch_held(s))
			found = 1;
		if (found || cur) {
			last_work = 0;
			continue;
		}
		/*
		 * Idle.  A GPU cannot wake a host thread, so the poller
		 * polls: it spins (time-bounded, so a long scan does not
		 * stretch it), then yields, and only when nothing came for
		 * HOT_NS does it sleep (50 us a round), so a busy stream of
		 * calls never waits on a sleep.
		 */
		uint64_t now = mono_ns();

		if (!last_work)
			last_work = now;
		if (now - last_work < SPIN_NS) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		} else if (now - last_work < HOT_NS) {
			sched_yield();
		} else {
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
		}
	}
	if (cur)
		dispatch(s, cur);
	return NULL;
}

/* ---- life cycle ---- */

static void cancel_handler(int sig)
{
	(void)sig;	/* only there to make a blocked call return EINTR */
}

static int claim_signal(int sig)
{
	struct sigaction old, sa;

	if (sig <= 0 || sig >= NSIG || sigaction(sig, NULL, &old))
		return -EINVAL;
	if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == cancel_handler)
		return 0;
	if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
		return -EBUSY;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cancel_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: blocked calls return EINTR */
	return sigaction(sig, &sa, NULL) ? -errno : 0;
}

static void free_server(struct sysgate_gpu_server *s)
{
	pthread_rwlock_destroy(&s->rlock);
	pthread_cond_destroy(&s->qcond);
	pthread_cond_destroy(&s->gone);
	pthread_mutex_destroy(&s->qlock);
	free(s->ranges);
	free(s->seen);
	free(s->pending);
	free(s->held);
	free(s->isheld);
	free(s);
}

/* Stop the workers: interrupt blocked calls until every worker is gone. */
static void stop_workers(struct sysgate_gpu_server *s)
{
	STORE(&s->stop, 1);
	for (;;) {
		struct timespec ts;

		interrupt(s, s->nports, 0);
		pthread_mutex_lock(&s->qlock);
		pthread_cond_broadcast(&s->qcond);
		if (!s->nlive) {
			pthread_mutex_unlock(&s->qlock);
			return;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += RESIGNAL_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&s->gone, &s->qlock, &ts);
		pthread_mutex_unlock(&s->qlock);
	}
}

int sysgate_gpu_server_start(struct sysgate_gpu_server **out, void *mem,
			     unsigned nports, unsigned staging_per_lane,
			     const struct sysgate_gpu_opts *opts,
			     struct sysgate_gpu_client *client)
{
	struct sysgate_gpu_opts def = { .workers = 2, .window_us = 0,
					.max_batch = 32, .uring_min = 16 };
	struct sysgate_gpu_server *s;
	unsigned char *m = mem;
	size_t mb = mbox_bytes(nports);
	int r;

	if (!nports || ((uintptr_t)mem & (SYSGATE_GPU_LINE - 1)))
		return -EINVAL;
	if (!opts)
		opts = &def;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sig = opts->cancel_signal ? opts->cancel_signal : SIGRTMAX - 1;
	r = claim_signal(s->sig);
	if (r) {
		free(s);
		return r;
	}
	memset(mem, 0, sysgate_gpu_area_size(nports, staging_per_lane));
	s->gpu_seq = (uint32_t *)m;
	s->cancel = (uint32_t *)(m + mb);
	s->cpu_seq = (uint32_t *)(m + 2 * mb);
	s->ports = (struct sysgate_gpu_port *)(m + 3 * mb);
	s->nports = nports;
	s->seen = calloc(nports, sizeof(*s->seen));
	s->pending = calloc(nports, sizeof(*s->pending));
	s->held = calloc(nports, sizeof(*s->held));
	s->isheld = calloc(nports, 1);
	s->minw = opts->workers ? opts->workers : 1;
	s->maxw = opts->max_workers ? opts->max_workers : 1024;
	if (s->maxw < s->minw)
		s->maxw = s->minw;
	pthread_mutex_init(&s->qlock, NULL);
	pthread_cond_init(&s->qcond, NULL);
	pthread_cond_init(&s->gone, NULL);
	pthread_rwlock_init(&s->rlock, NULL);
	if (!s->seen || !s->pending || !s->held || !s->isheld) {
		free_server(s);
		return -ENOMEM;
	}
	s->window_us = opts->window_us;
	sysgate_gpu_set_coalescing(s, opts->window_us, opts->max_batch);
	sysgate_gpu_set_copier(s, NULL);
	s->uring_min = opts->uring_min;
	s->quiet = opts->quiet;

	client->ports = s->ports;
	client->gpu_seq = s->gpu_seq;
	client->cancel = s->cancel;
	client->cpu_seq = s->cpu_seq;
	client->nports = nports;
	client->staging_per_lane = staging_per_lane;
	client->staging = staging_per_lane ?
		(unsigned char *)(s->ports + nports) : NULL;
	if (staging_per_lane)
		add_range(s, (uintptr_t)client->staging,
			  (size_t)nports * SYSGATE_GPU_WARP_LANES * staging_per_lane,
			  RANGE_STAGING);

	pthread_mutex_lock(&s->qlock);
	for (unsigned i = 0; i < s->minw; i++)
		spawn_worker(s);
	r = s->nlive < s->minw;
	pthread_mutex_unlock(&s->qlock);
	if (r || pthread_create(&s->poller, NULL, poller_main, s)) {
		stop_workers(s);
		free_server(s);
		return -EAGAIN;
	}
	*out = s;
	return 0;
}

void sysgate_gpu_set_coalescing(struct sysgate_gpu_server *s,
				unsigned window_us, unsigned max_batch)
{
	if (!max_batch)
		max_batch = 1;
	if (max_batch > MAX_BATCH_CAP)
		max_batch = MAX_BATCH_CAP;
	STORE(&s->window_us, window_us);
	STORE(&s->max_batch, max_batch);
}

void sysgate_gpu_set_uring_min(struct sysgate_gpu_server *s, unsigned n)
{
	STORE(&s->uring_min, n);
}

int sysgate_gpu_drain(struct sysgate_gpu_server *s, unsigned timeout_ms)
{
	uint64_t end = mono_ns() + (uint64_t)timeout_ms * 1000000;

	for (unsigned pi = 0; pi < s->nports; pi++) {
		while (__atomic_load_n(&s->cpu_seq[pi], __ATOMIC_ACQUIRE) !=
		       __atomic_load_n(&s->gpu_seq[pi], __ATOMIC_ACQUIRE)) {
			if (mono_ns() > end)
				return -ETIMEDOUT;
			sched_yield();
		}
	}
	return 0;
}

void sysgate_gpu_get_stats(struct sysgate_gpu_server *s,
			   struct sysgate_gpu_stats *st)
{
	st->transactions = LOAD(&s->st.transactions);
	st->calls = LOAD(&s->st.calls);
	st->refused = LOAD(&s->st.refused);
	st->faults = LOAD(&s->st.faults);
	st->batches = LOAD(&s->st.batches);
	st->uring_batches = LOAD(&s->st.uring_batches);
	st->max_batch_seen = LOAD(&s->st.max_batch_seen);
	st->cancelled = LOAD(&s->st.cancelled);
	st->workers_max = LOAD(&s->st.workers_max);
	st->bulk_bytes = LOAD(&s->st.bulk_bytes);
}

void sysgate_gpu_server_stop(struct sysgate_gpu_server *s)
{
	STORE(&s->stop, 1);
	pthread_join(s->poller, NULL);
	stop_workers(s);
	free_server(s);
}
