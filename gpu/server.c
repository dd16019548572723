/* SPDX-License-Identifier: MIT */
/*
 * server.c - the host runtime that services system calls from GPU lanes:
 * the worker pool, the poller and the life cycle (calls.c runs the calls,
 * ranges.c checks their pointers).
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
#include <time.h>
#include <unistd.h>
#ifdef SG_HAVE_URING
#include <liburing.h>
#endif

#include "runtime.h"

#define IDLE_WORKER_NS 2000000000ull	/* extra workers exit after this */
#define SPIN_NS 5000ull			/* poller spins this long after work */
#define HOT_NS 10000000ull		/* poller never sleeps this soon after work */
#define WORKER_SPIN_NS 50000ull		/* default idle spin of one worker */
#define RESIGNAL_NS 1000000ull		/* re-send a cancel this often */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}


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

/* qhead is also read without the lock, by the spinning worker. */
static void set_qhead(struct sysgate_gpu_server *s, struct batch *b)
{
	__atomic_store_n(&s->qhead, b, __ATOMIC_RELEASE);
}

void enqueue(struct sysgate_gpu_server *s, struct batch *b)
{
	b->next = NULL;
	pthread_mutex_lock(&s->qlock);
	if (s->qtail)
		s->qtail->next = b;
	else
		set_qhead(s, b);
	s->qtail = b;
	/*
	 * Nobody idle and fewer than `workers` free to come back for it
	 * (the others wait in blocking calls): grow, so a blocked call never
	 * holds up another.  Bursts of bounded calls do not grow the pool.
	 */
	s->spun_out = 0;	/* work again: the next idle worker may spin */
	if (!s->nidle && s->nlive - LOAD(&s->nblocked) < s->minw &&
	    s->nlive < s->maxw && !LOAD(&s->stop))
		spawn_worker(s);
	else if (!s->spinning)	/* a spinner sees the queue itself */
		pthread_cond_signal(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
}

/*
 * A worker is about to wait in a call that may block: if work is queued
 * and nobody idle would take it, start a worker for it first (the work
 * was queued while this worker still counted as free).
 */
void about_to_block(struct sysgate_gpu_server *s)
{
	ADD(&s->nblocked, 1);
	pthread_mutex_lock(&s->qlock);
	if (s->qhead && !s->nidle && s->nlive < s->maxw && !LOAD(&s->stop))
		spawn_worker(s);
	pthread_mutex_unlock(&s->qlock);
}

/*
 * Called with qlock held and the queue empty.  One idle worker at a time
 * spins (lock dropped) for up to spin_ns before sleeping: waking a thread
 * from a condition variable costs a futex wake and, in a VM, an
 * inter-processor interrupt, several microseconds of every round trip
 * while a GPU keeps calling.  Returns 1 when it spun (the caller rechecks
 * the queue), 0 when the worker should sleep.
 */
static int spin_for_work(struct sysgate_gpu_server *s)
{
	uint64_t spin = LOAD(&s->spin_ns), t0;

	if (!spin || s->spinning || s->spun_out)
		return 0;
	s->spinning = 1;
	s->nidle++;
	pthread_mutex_unlock(&s->qlock);
	t0 = mono_ns();
	while (!__atomic_load_n(&s->qhead, __ATOMIC_ACQUIRE) &&
	       !LOAD(&s->stop) && mono_ns() - t0 < spin) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	pthread_mutex_lock(&s->qlock);
	s->nidle--;
	s->spinning = 0;
	/* Nothing came: sleep until work does (enqueue clears spun_out). */
	s->spun_out = !s->qhead;
	return 1;
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

			if (spin_for_work(s))
				continue;
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
		set_qhead(s, b->next);
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

/* A new transaction on port pi: the port is ours now; batch its lanes. */
static void take_port(struct sysgate_gpu_server *s, unsigned pi,
		      unsigned maxb)
{
	struct sysgate_gpu_port *p = &s->ports[pi];
	uint32_t g = __atomic_load_n(&s->gpu_seq[pi], __ATOMIC_ACQUIRE);
	uint32_t mask;

	s->seen[pi] = g;
	ADD(&s->st.transactions, 1);
	mask = p->lane_mask;
	if (!mask) {
		__atomic_store_n(&s->cpu_seq[pi], g, __ATOMIC_RELEASE);
		return;
	}
	if (!s->isheld[pi]) {
		s->isheld[pi] = 1;
		s->held[s->nheld++] = pi;
	}
	__atomic_store_n(&s->pending[pi], (uint32_t)__builtin_popcount(mask),
			 __ATOMIC_RELAXED);
	while (mask) {
		unsigned lane = __builtin_ctz(mask);

		mask &= mask - 1;
		p->lane[lane].state = SYSGATE_GPU_SLOT_PROCESSING;
		if (!s->cur) {
			s->cur = new_batch();
			s->first_ns = mono_ns();
		}
		s->cur->r[s->cur->n++] = (struct req){ pi, g, lane };
		if (s->cur->n >= maxb) {
			dispatch(s, s->cur);
			s->cur = NULL;
		}
	}
}

/* One pass over every port; returns whether any had a new transaction. */
static int scan(struct sysgate_gpu_server *s)
{
	unsigned maxb = LOAD(&s->max_batch);
	const uint32_t *gs = s->gpu_seq;
	int found = 0;

	for (unsigned pi = 0; pi < s->nports; pi++) {
		if (pi % SCAN_BLOCK == 0) {
			unsigned n = s->nports - pi < SCAN_BLOCK ?
				s->nports - pi : SCAN_BLOCK;

			if (!block_moved(&gs[pi], &s->seen[pi], n)) {
				pi += n - 1;
				continue;
			}
		}
		if (__atomic_load_n(&gs[pi], __ATOMIC_RELAXED) != s->seen[pi]) {
			take_port(s, pi, maxb);
			found = 1;
		}
	}
	return found;
}

/*
 * Idle.  A GPU cannot wake a host thread, so the poller polls: it spins
 * (time-bounded, so a long scan does not stretch it), then yields, and only
 * when nothing came for HOT_NS does it sleep (50 us a round), so a busy
 * stream of calls never waits on a sleep.
 */
static void idle(uint64_t *last_work)
{
	uint64_t now = mono_ns();

	if (!*last_work)
		*last_work = now;
	if (now - *last_work < SPIN_NS) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	} else if (now - *last_work < HOT_NS) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 50000 };

		nanosleep(&ts, NULL);
	}
}

static void *poller_main(void *arg)
{
	struct sysgate_gpu_server *s = arg;
	uint64_t last_work = 0;

	while (!LOAD(&s->stop)) {
		uint64_t win = (uint64_t)LOAD(&s->window_us) * 1000;
		int found = scan(s);

		if (s->cur && (!win || mono_ns() - s->first_ns >= win)) {
			dispatch(s, s->cur);
			s->cur = NULL;
		}
		if (watch_held(s))
			found = 1;
		if (found || s->cur)
			last_work = 0;
		else
			idle(&last_work);
	}
	if (s->cur)
		dispatch(s, s->cur);
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
	/* Spinning pays only where a core can be spared for it. */
	s->spin_ns = sysconf(_SC_NPROCESSORS_ONLN) >= 4 ? WORKER_SPIN_NS : 0;

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

void sysgate_gpu_set_worker_spin(struct sysgate_gpu_server *s, unsigned us)
{
	STORE(&s->spin_ns, (uint64_t)us * 1000);
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
