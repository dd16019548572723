/* SPDX-License-Identifier: MIT */
/*
 * server.c - the host runtime that services system calls from GPU lanes.
 *
 * Threads:
 *  - one poller: scans the ports, takes each new transaction (gpu_seq
 *    differs from what it last took), gathers the lanes' calls into
 *    batches (coalescing: a time window and a maximum batch size, both
 *    settable at run time) and queues them.  The poller never makes a
 *    system call on a lane's behalf, so a blocking call cannot stall it.
 *  - workers: take a batch and run it, one syscall each, or through one
 *    io_uring submission when the batch is big enough and every call in
 *    it is one io_uring can run.
 *
 * Invariants:
 *  - The runtime writes only cpu_seq, the slots' state and ret fields, and
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
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
	struct req r[MAX_BATCH_CAP];
};

struct sysgate_gpu_server {
	struct sysgate_gpu_port *ports;
	unsigned nports;
	uint32_t *seen;		/* poller-private: last gpu_seq taken */
	uint32_t *pending;	/* lanes outstanding per port (atomic) */

	pthread_t poller;
	pthread_t *workers;
	unsigned nworkers;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;
	struct batch *qhead, *qtail;
	int stop;		/* atomic */

	unsigned window_us;	/* atomic knobs */
	unsigned max_batch;
	unsigned uring_min;
	int quiet;

	pthread_rwlock_t rlock;
	struct range *ranges;
	unsigned nranges, rcap;

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

size_t sysgate_gpu_area_size(unsigned nports, unsigned staging_per_lane)
{
	return (size_t)nports * sizeof(struct sysgate_gpu_port) +
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

int sysgate_gpu_register(struct sysgate_gpu_server *s, const void *p,
			 size_t len)
{
	return add_range(s, (uintptr_t)p, len, RANGE_USER);
}

int sysgate_gpu_unregister(struct sysgate_gpu_server *s, const void *p)
{
	return del_range(s, (uintptr_t)p, RANGE_USER);
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
		if (!find_range(s, p, len, kinds)) {
			ret = -EFAULT;
			break;
		}
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
	(void)e;
}

/*
 * Decide whether a lane's call may run.  Returns 1 with *ent set when it
 * may, else 0 with *ret set.
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
	if (r) {
		ADD(&s->st.faults, 1);
		*ret = r;
		return 0;
	}
	*ent = e;
	return 1;
}

static void after_call(struct sysgate_gpu_server *s, long nr,
		       const uint64_t *a, int64_t ret)
{
	if (ret < 0)
		return;
	if (nr == SYS_mmap)
		add_range(s, (uintptr_t)ret, (size_t)a[1], RANGE_MMAP);
	else if (nr == SYS_munmap)
		del_range(s, (uintptr_t)a[0], RANGE_MMAP);
}

static int64_t run_one(struct sysgate_gpu_server *s, uint32_t nrw,
		       const uint64_t *a)
{
	const struct sg_sysent *e;
	int64_t ret;
	long nr = nrw & SYSGATE_GPU_NR_MASK;

	if (!admit(s, nrw, a, &e, &ret))
		return ret;
	ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret == -1)
		ret = -errno;
	after_call(s, nr, a, ret);
	return ret;
}

static void complete(struct sysgate_gpu_server *s, const struct req *r,
		     int64_t ret)
{
	struct sysgate_gpu_port *p = &s->ports[r->port];
	struct sysgate_gpu_slot *sl = &p->lane[r->lane];

	if (sl->nr & SYSGATE_GPU_NR_NORET) {
		sl->state = SYSGATE_GPU_SLOT_FREE;
	} else {
		sl->ret = ret;
		sl->state = SYSGATE_GPU_SLOT_FINISHED;
	}
	if (__atomic_fetch_sub(&s->pending[r->port], 1, __ATOMIC_ACQ_REL) == 1)
		__atomic_store_n(&p->cpu_seq, r->seq, __ATOMIC_RELEASE);
}

#ifdef SG_HAVE_URING
/* Run a whole batch with one io_uring submission; 0, or -1 to fall back. */
static int run_uring(struct sysgate_gpu_server *s, struct io_uring *ring,
		     struct batch *b)
{
	int64_t res[MAX_BATCH_CAP];
	unsigned char go[MAX_BATCH_CAP];
	unsigned queued = 0;

	for (unsigned i = 0; i < b->n; i++) {
		struct sysgate_gpu_slot *sl = &s->ports[b->r[i].port].lane[b->r[i].lane];
		const struct sg_sysent *e = sg_lookup(sl->nr & SYSGATE_GPU_NR_MASK);

		if (!e || !e->uring)
			return -1;
	}
	for (unsigned i = 0; i < b->n; i++) {
		struct sysgate_gpu_slot *sl = &s->ports[b->r[i].port].lane[b->r[i].lane];
		const struct sg_sysent *e;
		const uint64_t *a = sl->arg;
		struct io_uring_sqe *sqe;
		long nr = sl->nr & SYSGATE_GPU_NR_MASK;

		go[i] = 0;
		if (!admit(s, sl->nr, a, &e, &res[i]))
			continue;
		sqe = io_uring_get_sqe(ring);
		if (!sqe) {
			res[i] = -EAGAIN;
			continue;
		}
		if (nr == SYS_pread64 || nr == SYS_read)
			io_uring_prep_read(sqe, (int)a[0], (void *)a[1],
					   (unsigned)a[2],
					   nr == SYS_read ? (uint64_t)-1 : a[3]);
		else if (nr == SYS_pwrite64 || nr == SYS_write)
			io_uring_prep_write(sqe, (int)a[0],
					    (const void *)a[1], (unsigned)a[2],
					    nr == SYS_write ? (uint64_t)-1 :
					    a[3]);
		else if (nr == SYS_fsync || nr == SYS_fdatasync)
			io_uring_prep_fsync(sqe, (int)a[0],
					    nr == SYS_fdatasync ?
					    IORING_FSYNC_DATASYNC : 0);
		else if (nr == SYS_close)
			io_uring_prep_close(sqe, (int)a[0]);
		else if (nr == SYS_openat)
			io_uring_prep_openat(sqe, (int)a[0], (const char *)a[1],
					     (int)a[2], (mode_t)a[3]);
		else
			io_uring_prep_nop(sqe);
		sqe->user_data = i;
		go[i] = 1;
		queued++;
	}
	if (queued) {
		int r = io_uring_submit_and_wait(ring, queued);

		if (r < 0) {
			/* Nothing ran: do them one by one. */
			io_uring_cq_advance(ring, io_uring_cq_ready(ring));
			for (unsigned i = 0; i < b->n; i++)
				if (go[i]) {
					struct sysgate_gpu_slot *sl = &s->ports[
						b->r[i].port].lane[b->r[i].lane];

					res[i] = run_one(s, sl->nr, sl->arg);
				}
			queued = 0;
		}
	}
	while (queued) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(ring, &cqe))
			break;
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
		queued--;
	}
	ADD(&s->st.uring_batches, 1);
	ADD(&s->st.calls, b->n);
	for (unsigned i = 0; i < b->n; i++)
		complete(s, &b->r[i], res[i]);
	return 0;
}
#endif

static void run_batch(struct sysgate_gpu_server *s, void *ring,
		      struct batch *b)
{
#ifdef SG_HAVE_URING
	unsigned um = LOAD(&s->uring_min);

	if (ring && um && b->n >= um && !run_uring(s, ring, b))
		return;
#else
	(void)ring;
#endif
	ADD(&s->st.calls, b->n);
	for (unsigned i = 0; i < b->n; i++) {
		struct sysgate_gpu_slot *sl = &s->ports[b->r[i].port].lane[b->r[i].lane];

		complete(s, &b->r[i], run_one(s, sl->nr, sl->arg));
	}
}

static void *worker_main(void *arg)
{
	struct sysgate_gpu_server *s = arg;
	void *ringp = NULL;
#ifdef SG_HAVE_URING
	struct io_uring ring;

	if (io_uring_queue_init(MAX_BATCH_CAP, &ring, 0) == 0)
		ringp = &ring;
#endif
	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&s->qlock);
		while (!s->qhead && !LOAD(&s->stop))
			pthread_cond_wait(&s->qcond, &s->qlock);
		b = s->qhead;
		if (b) {
			s->qhead = b->next;
			if (!s->qhead)
				s->qtail = NULL;
		}
		pthread_mutex_unlock(&s->qlock);
		if (!b)
			break;	/* stopping and the queue is empty */
		run_batch(s, ringp, b);
		free(b);
	}
#ifdef SG_HAVE_URING
	if (ringp)
		io_uring_queue_exit(&ring);
#endif
	return NULL;
}

static void dispatch(struct sysgate_gpu_server *s, struct batch *b)
{
	uint64_t m;

	ADD(&s->st.batches, 1);
	m = LOAD(&s->st.max_batch_seen);
	if (b->n > m)
		STORE(&s->st.max_batch_seen, b->n);
	b->next = NULL;
	pthread_mutex_lock(&s->qlock);
	if (s->qtail)
		s->qtail->next = b;
	else
		s->qhead = b;
	s->qtail = b;
	pthread_cond_signal(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
}

static void *poller_main(void *arg)
{
	struct sysgate_gpu_server *s = arg;
	struct batch *cur = NULL;
	uint64_t first_ns = 0;
	unsigned idle = 0;

	while (!LOAD(&s->stop)) {
		unsigned maxb = LOAD(&s->max_batch);
		uint64_t win = (uint64_t)LOAD(&s->window_us) * 1000;
		int found = 0;

		for (unsigned pi = 0; pi < s->nports; pi++) {
			struct sysgate_gpu_port *p = &s->ports[pi];
			uint32_t g = __atomic_load_n(&p->gpu_seq,
						     __ATOMIC_ACQUIRE);
			uint32_t mask;

			if (g == s->seen[pi])
				continue;
			/* A new transaction: the port is ours now. */
			s->seen[pi] = g;
			found = 1;
			ADD(&s->st.transactions, 1);
			mask = p->lane_mask;
			if (!mask) {
				__atomic_store_n(&p->cpu_seq, g,
						 __ATOMIC_RELEASE);
				continue;
			}
			__atomic_store_n(&s->pending[pi],
					 (uint32_t)__builtin_popcount(mask),
					 __ATOMIC_RELAXED);
			while (mask) {
				unsigned lane = __builtin_ctz(mask);

				mask &= mask - 1;
				p->lane[lane].state = SYSGATE_GPU_SLOT_PROCESSING;
				if (!cur) {
					cur = malloc(sizeof(*cur));
					if (!cur)
						abort();
					cur->n = 0;
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
		if (found || cur) {
			idle = 0;
			continue;
		}
		/* Spin briefly, then yield, then sleep: a server with no
		 * work must not eat a core forever. */
		if (++idle < 256) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		} else if (idle < 20000) {
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

int sysgate_gpu_server_start(struct sysgate_gpu_server **out, void *mem,
			     unsigned nports, unsigned staging_per_lane,
			     const struct sysgate_gpu_opts *opts,
			     struct sysgate_gpu_client *client)
{
	struct sysgate_gpu_opts def = { .workers = 2, .window_us = 0,
					.max_batch = 32, .uring_min = 16 };
	struct sysgate_gpu_server *s;
	unsigned i;

	if (!nports || ((uintptr_t)mem & (SYSGATE_GPU_LINE - 1)))
		return -EINVAL;
	if (!opts)
		opts = &def;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	memset(mem, 0, sysgate_gpu_area_size(nports, staging_per_lane));
	s->ports = mem;
	s->nports = nports;
	s->seen = calloc(nports, sizeof(*s->seen));
	s->pending = calloc(nports, sizeof(*s->pending));
	s->nworkers = opts->workers ? opts->workers : 1;
	s->workers = calloc(s->nworkers, sizeof(*s->workers));
	if (!s->seen || !s->pending || !s->workers) {
		free(s->seen);
		free(s->pending);
		free(s->workers);
		free(s);
		return -ENOMEM;
	}
	s->window_us = opts->window_us;
	sysgate_gpu_set_coalescing(s, opts->window_us, opts->max_batch);
	s->uring_min = opts->uring_min;
	s->quiet = opts->quiet;
	pthread_mutex_init(&s->qlock, NULL);
	pthread_cond_init(&s->qcond, NULL);
	pthread_rwlock_init(&s->rlock, NULL);

	client->ports = s->ports;
	client->nports = nports;
	client->staging_per_lane = staging_per_lane;
	client->staging = staging_per_lane ?
		(unsigned char *)mem + (size_t)nports * sizeof(struct sysgate_gpu_port) :
		NULL;
	if (staging_per_lane)
		add_range(s, (uintptr_t)client->staging,
			  (size_t)nports * SYSGATE_GPU_WARP_LANES * staging_per_lane,
			  RANGE_STAGING);

	for (i = 0; i < s->nworkers; i++)
		if (pthread_create(&s->workers[i], NULL, worker_main, s))
			break;
	if (i < s->nworkers ||
	    pthread_create(&s->poller, NULL, poller_main, s)) {
		s->nworkers = i;
		STORE(&s->stop, 1);
		pthread_cond_broadcast(&s->qcond);
		for (unsigned j = 0; j < i; j++)
			pthread_join(s->workers[j], NULL);
		free(s->seen);
		free(s->pending);
		free(s->workers);
		free(s);
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
		struct sysgate_gpu_port *p = &s->ports[pi];

		while (__atomic_load_n(&p->cpu_seq, __ATOMIC_ACQUIRE) !=
		       __atomic_load_n(&p->gpu_seq, __ATOMIC_ACQUIRE)) {
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
}

void sysgate_gpu_server_stop(struct sysgate_gpu_server *s)
{
	STORE(&s->stop, 1);
	pthread_join(s->poller, NULL);
	pthread_mutex_lock(&s->qlock);
	pthread_cond_broadcast(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
	for (unsigned i = 0; i < s->nworkers; i++)
		pthread_join(s->workers[i], NULL);
	pthread_rwlock_destroy(&s->rlock);
	pthread_cond_destroy(&s->qcond);
	pthread_mutex_destroy(&s->qlock);
	free(s->ranges);
	free(s->seen);
	free(s->pending);
	free(s->workers);
	free(s);
}
