/* SPDX-License-Identifier: MIT */
/*
 * sysgate_gpu.h - system calls from GPU threads (GENESYS design on CUDA).
 *
 * One header, three audiences:
 *  - C (host):   the shared-memory layout and the host runtime API
 *                (sysgate_gpu_server_*), implemented in gpu/server.c.
 *  - C++ (host): the client protocol as templates over a "warp policy", so
 *                CPU threads can stand in for GPU lanes (tests, benchmarks).
 *  - CUDA:       the same client compiled for the device, plus device warp
 *                and block policies and the call wrappers (pread, ...).
 *
 * Protocol invariants (doc/gpu.md has the full argument):
 *  - A port serves one warp at a time.  Its mailboxes are single-writer
 *    u32s in compact arrays (so the host scans 4 bytes per idle port):
 *    gpu_seq[] and cancel[] are written only by the GPU (by the warp
 *    holding the port lock), cpu_seq[] only by the host runtime.  No
 *    read-modify-write ever crosses the bus.  The GPU owns the port's
 *    header and slots when gpu_seq == cpu_seq, the host owns them when
 *    they differ.
 *  - Publishing: each lane writes its slot, the warp syncs (__syncwarp
 *    orders the lanes' writes before the leader's), then the leader stores
 *    gpu_seq with system-scope release (cumulative: it covers what the
 *    leader observed).  The host loads gpu_seq with acquire.
 *  - Completion: the host writes results, then stores cpu_seq with release;
 *    the leader loads cpu_seq with system-scope acquire, the warp syncs,
 *    and then every lane reads its own result.
 *  - Cancellation: a leader that times out stores the call's seq in
 *    cancel[] and waits for the host's answer (the host interrupts or
 *    skips the call and answers -ECANCELED); see doc/gpu.md.
 *  - Port locks live in device memory and use device-scope atomics only.
 *  - Results are negative errno, as from the raw kernel interface.
 */
#ifndef SYSGATE_GPU_H
#define SYSGATE_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYSGATE_GPU_VERSION 2
#define SYSGATE_GPU_WARP_LANES 32
#define SYSGATE_GPU_LINE 64

/* Slot states (the GENESYS states). */
enum sysgate_gpu_slot_state {
	SYSGATE_GPU_SLOT_FREE = 0,
	SYSGATE_GPU_SLOT_POPULATING = 1,
	SYSGATE_GPU_SLOT_READY = 2,
	SYSGATE_GPU_SLOT_PROCESSING = 3,
	SYSGATE_GPU_SLOT_FINISHED = 4,
};

/* Bit 31 of a slot's nr word: no return wanted (non-blocking call). */
#define SYSGATE_GPU_NR_NORET 0x80000000u
#define SYSGATE_GPU_NR_MASK 0x7fffffffu

/* Call flags (device API and port header). */
#define SYSGATE_GPU_BLOCK 0x0u		/* default: wait for the result */
#define SYSGATE_GPU_NONBLOCK 0x1u	/* fire and forget; drain with wait_all */
#define SYSGATE_GPU_STRONG 0x0u		/* default: barrier before and after */
#define SYSGATE_GPU_RELAXED 0x2u		/* barrier only where the role needs it */
#define SYSGATE_GPU_ROLE_PRODUCER 0x4u	/* GPU data flows into the call (write) */
#define SYSGATE_GPU_ROLE_CONSUMER 0x8u	/* the call's data flows to the GPU (read) */
#define SYSGATE_GPU_STAGE 0x10u		/* copy the payload through the staging area */
/* Granularity, stored in the port header for diagnostics and statistics. */
#define SYSGATE_GPU_GRAN_SHIFT 8
#define SYSGATE_GPU_GRAN_THREAD (0u << SYSGATE_GPU_GRAN_SHIFT)
#define SYSGATE_GPU_GRAN_WARP (1u << SYSGATE_GPU_GRAN_SHIFT)
#define SYSGATE_GPU_GRAN_BLOCK (2u << SYSGATE_GPU_GRAN_SHIFT)
#define SYSGATE_GPU_GRAN_GRID (3u << SYSGATE_GPU_GRAN_SHIFT)
#define SYSGATE_GPU_GRAN_MASK (3u << SYSGATE_GPU_GRAN_SHIFT)

/* One lane's request: exactly one 64-byte line. */
struct sysgate_gpu_slot {
	uint32_t state;		/* enum sysgate_gpu_slot_state */
	uint32_t nr;		/* syscall number | SYSGATE_GPU_NR_NORET */
	uint64_t arg[6];
	int64_t ret;		/* written by the host: result or -errno */
} __attribute__((aligned(SYSGATE_GPU_LINE)));

/* A port: its header and slots (the mailboxes are in the client's arrays). */
struct sysgate_gpu_port {
	/* header: written by the GPU leader while it owns the port */
	uint32_t lane_mask;
	uint32_t flags;		/* SYSGATE_GPU_* call flags of the transaction */
	uint32_t hint;		/* issuing warp's id, for diagnostics */
	uint32_t pad2;
	uint64_t submit_ns;	/* GPU clock at publish (0 when unknown) */
	uint8_t pad3[SYSGATE_GPU_LINE - 24];
	struct sysgate_gpu_slot lane[SYSGATE_GPU_WARP_LANES];
} __attribute__((aligned(SYSGATE_GPU_LINE)));

/*
 * What a client needs, passed to kernels by value.  The mailbox arrays,
 * ports and staging are in memory both sides can reach (pinned mapped host
 * memory, or managed); locks is device memory on a GPU (nports bits).
 */
struct sysgate_gpu_client {
	struct sysgate_gpu_port *ports;
	uint32_t *gpu_seq;	/* [nports] GPU-written: last published seq */
	uint32_t *cancel;	/* [nports] GPU-written: seq given up on */
	uint32_t *cpu_seq;	/* [nports] host-written: last answered seq */
	uint32_t *locks;
	uint32_t nports;
	uint32_t staging_per_lane;	/* bytes; 0: no staging area */
	unsigned char *staging;		/* nports * 32 * staging_per_lane */
	uint64_t timeout_ns;		/* 0: wait forever */
};

/* ---- host runtime (gpu/server.c) ---- */

struct sysgate_gpu_opts {
	unsigned workers;	/* worker threads running calls (default 2) */
	unsigned window_us;	/* coalescing time window (default 0) */
	unsigned max_batch;	/* most calls per batch (default 32) */
	unsigned uring_min;	/* batches this big go through io_uring
				 * (0: never; default 16) */
	int quiet;		/* no messages on stderr */
	unsigned max_workers;	/* pool limit (default 1024); blocking calls
				 * each hold a worker while they wait */
	int cancel_signal;	/* interrupts blocked calls (default
				 * SIGRTMAX - 1; the runtime installs an empty
				 * handler and refuses to start, -EBUSY, when
				 * someone else handles it) */
};

/*
 * Device memory as read/pread/write/pwrite buffers: the runtime moves the
 * data through a host bounce buffer of `chunk` bytes (two of them, so the
 * next read overlaps the previous copy) with copy(), e.g. cudaMemcpyAsync on
 * a host-side stream.  copy may be asynchronous until wait() returns;
 * alloc_host/free_host give the bounce buffers (pinned memory on CUDA).
 * Every function is called from several worker threads at once.
 */
struct sysgate_gpu_copier {
	int (*copy)(void *ctx, void *dst, const void *src, size_t len,
		    int to_device);		/* 0 or -errno */
	int (*wait)(void *ctx);			/* 0 or -errno; may be NULL */
	void *(*alloc_host)(void *ctx, size_t len);	/* NULL: malloc */
	void (*free_host)(void *ctx, void *p);
	void *ctx;
	size_t chunk;				/* 0: 4 MiB */
};

struct sysgate_gpu_stats {
	uint64_t transactions;	/* port hand-overs seen */
	uint64_t calls;		/* lane calls executed */
	uint64_t refused;	/* calls refused with -ENOSYS */
	uint64_t faults;	/* calls refused with -EFAULT (bad pointer) */
	uint64_t batches;	/* batches handed to workers */
	uint64_t uring_batches;	/* batches submitted through io_uring */
	uint64_t max_batch_seen;
	uint64_t cancelled;	/* calls answered -ECANCELED (timeout, stop) */
	uint64_t workers_max;	/* most worker threads alive at once */
	uint64_t bulk_bytes;	/* bytes moved to/from device memory */
};

/* GENESYS appendix classes. */
enum sysgate_gpu_class {
	SYSGATE_GPU_CLASS_UNKNOWN = 0,	/* not classified: refused */
	SYSGATE_GPU_CLASS_USEFUL = 1,	/* useful and implementable: served */
	SYSGATE_GPU_CLASS_LATER = 2,	/* useful, not implementable today: refused */
	SYSGATE_GPU_CLASS_USELESS = 3,	/* not meaningful on a GPU: refused */
};

/* The GENESYS appendix's "Viable" column, as sysgate's syscall table
 * (syscalls/genesys.tsv) carries it.  The runtime's own decision is cls:
 * the paper's three classes (its section on which calls to support). */
enum sysgate_gpu_viable {
	SYSGATE_GPU_VIABLE_UNLISTED = 0,	/* not in the appendix */
	SYSGATE_GPU_VIABLE_YES = 1,
	SYSGATE_GPU_VIABLE_LIMITED = 2,	/* "yes" with a reservation (CPU threads
				   only, no use, footnotes) */
	SYSGATE_GPU_VIABLE_NO = 3,
};

struct sysgate_gpu_sysinfo {
	const char *name;
	enum sysgate_gpu_class cls;
	unsigned role;		/* SYSGATE_GPU_ROLE_* bits; 0 = control */
	const char *why;	/* reason for refused classes */
	enum sysgate_gpu_viable viable;	/* the appendix's verdict */
};

struct sysgate_gpu_server;

size_t sysgate_gpu_area_size(unsigned nports, unsigned staging_per_lane);
/*
 * Start the host runtime over a control area of sysgate_gpu_area_size()
 * bytes at mem (zeroed here), which the caller allocated where the device
 * can reach it.  Fills *client (except ->locks, which the caller points at
 * nports bits of zeroed lock memory).  Returns 0 or -errno.
 */
int sysgate_gpu_server_start(struct sysgate_gpu_server **out, void *mem,
			     unsigned nports, unsigned staging_per_lane,
			     const struct sysgate_gpu_opts *opts,
			     struct sysgate_gpu_client *client);
/* Coalescing knobs, settable while running. */
void sysgate_gpu_set_coalescing(struct sysgate_gpu_server *s,
				unsigned window_us, unsigned max_batch);
void sysgate_gpu_set_uring_min(struct sysgate_gpu_server *s, unsigned n);
/*
 * How long one idle worker spins for work before it sleeps (default 50 us
 * where at least 4 CPUs are online, else 0): a sleeping worker's wake-up
 * adds microseconds to every round trip.  0 turns spinning off.
 */
void sysgate_gpu_set_worker_spin(struct sysgate_gpu_server *s, unsigned us);
/* Memory GPU calls may pass as pointers (buffers, paths, addresses). */
int sysgate_gpu_register(struct sysgate_gpu_server *s, const void *p,
			 size_t len);
int sysgate_gpu_unregister(struct sysgate_gpu_server *s, const void *p);
/* Device memory read/pread/write/pwrite may use (through the copier). */
int sysgate_gpu_register_device(struct sysgate_gpu_server *s, const void *p,
				size_t len);
/* Set before the GPU passes device memory; NULL restores plain memcpy. */
void sysgate_gpu_set_copier(struct sysgate_gpu_server *s,
			    const struct sysgate_gpu_copier *cp);
/* Wait until every published call has finished; 0 or -ETIMEDOUT. */
int sysgate_gpu_drain(struct sysgate_gpu_server *s, unsigned timeout_ms);
void sysgate_gpu_get_stats(struct sysgate_gpu_server *s,
			   struct sysgate_gpu_stats *st);
/*
 * Stop promptly: calls blocked in the kernel are interrupted, calls not yet
 * started are not run; both are answered -ECANCELED.  When it returns no
 * call runs or writes anything any more; ports published later stay
 * unanswered (clients with a timeout get -ETIMEDOUT, then -EBUSY).
 */
void sysgate_gpu_server_stop(struct sysgate_gpu_server *s);
/* Classification of a host syscall number for GPU use. */
void sysgate_gpu_classify(long nr, struct sysgate_gpu_sysinfo *info);
int sysgate_gpu_have_uring(void);

#ifdef __cplusplus
}
#endif

/* ---- client protocol (C++: host emulation and CUDA device) ---- */
#ifdef __cplusplus

#if defined(__CUDACC__)
#define SYSGATE_GPU_HD __host__ __device__ __forceinline__
#else
#define SYSGATE_GPU_HD inline
#endif

#include <sys/syscall.h>
#if !defined(__CUDA_ARCH__)
#include <errno.h>
#include <sched.h>
#include <time.h>
#endif

namespace sysgate_gpu {

enum { E_NOSYS = 38, E_TIMEDOUT = 110, E_INVAL = 22, E_NAMETOOLONG = 36,
       E_BUSY = 16, E_CANCELED = 125 };

/*
 * Memory-ordering primitives.  On the device they are inline PTX so the
 * scopes are exactly what the protocol argument needs (and what the PTX
 * test asserts); on the host they are the GCC __atomic builtins, which
 * ThreadSanitizer understands.
 */
/* The longest sleep between two polls of a mailbox on the device. */
#ifndef SYSGATE_GPU_BACKOFF_MAX_NS
#define SYSGATE_GPU_BACKOFF_MAX_NS 4096
#endif

#if defined(__CUDA_ARCH__)
__device__ __forceinline__ uint32_t ld_acquire_sys(const uint32_t *p)
{
	uint32_t v;
	asm volatile("ld.acquire.sys.u32 %0, [%1];"
		     : "=r"(v) : "l"(p) : "memory");
	return v;
}
__device__ __forceinline__ uint32_t ld_relaxed_sys(const uint32_t *p)
{
	uint32_t v;
	asm volatile("ld.relaxed.sys.u32 %0, [%1];"
		     : "=r"(v) : "l"(p) : "memory");
	return v;
}
__device__ __forceinline__ void st_release_sys(uint32_t *p, uint32_t v)
{
	asm volatile("st.release.sys.u32 [%0], %1;"
		     :: "l"(p), "r"(v) : "memory");
}
/* Port locks: device scope, never .sys (they live in device memory). */
__device__ __forceinline__ uint32_t lock_or(uint32_t *p, uint32_t bit)
{
	uint32_t old;
	asm volatile("atom.acquire.gpu.or.b32 %0, [%1], %2;"
		     : "=r"(old) : "l"(p), "r"(bit) : "memory");
	return old;
}
__device__ __forceinline__ void lock_clear(uint32_t *p, uint32_t bit)
{
	asm volatile("red.release.gpu.and.b32 [%0], %1;"
		     :: "l"(p), "r"(~bit) : "memory");
}
__device__ __forceinline__ uint64_t now_ns(void)
{
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}
__device__ __forceinline__ void backoff(unsigned &ns)
{
	__nanosleep(ns);
	if (ns < SYSGATE_GPU_BACKOFF_MAX_NS)
		ns *= 2;
}
#else
SYSGATE_GPU_HD uint32_t ld_acquire_sys(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
SYSGATE_GPU_HD uint32_t ld_relaxed_sys(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
SYSGATE_GPU_HD void st_release_sys(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
SYSGATE_GPU_HD uint32_t lock_or(uint32_t *p, uint32_t bit)
{
	return __atomic_fetch_or(p, bit, __ATOMIC_ACQUIRE);
}
SYSGATE_GPU_HD void lock_clear(uint32_t *p, uint32_t bit)
{
	__atomic_fetch_and(p, ~bit, __ATOMIC_RELEASE);
}
SYSGATE_GPU_HD uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
SYSGATE_GPU_HD void backoff(unsigned &ns)
{
	/* CPU lanes outnumber cores: give the core away. */
	if (ns < 4096) {
		sched_yield();
		ns *= 2;
	} else {
		struct timespec ts = { 0, 20000 };
		nanosleep(&ts, 0);
	}
}
#endif

SYSGATE_GPU_HD unsigned lowest_lane(uint32_t mask)
{
#if defined(__CUDA_ARCH__)
	return __ffs(mask) - 1;
#else
	return __builtin_ctz(mask);
#endif
}

/*
 * A warp policy W provides:
 *   uint32_t activemask()  (lanes converged now);
 *   uint32_t members()     (the lanes that took part when the policy was
 *                           made: warp granularity waits for all of them);
 *   unsigned lane()        (the hardware lane, %laneid);  uint32_t hint();
 *   void sync(uint32_t mask);   uint32_t shfl(uint32_t mask, uint32_t v,
 *   unsigned src);   int64_t shfl64(uint32_t mask, int64_t v, unsigned src);
 * A block policy B provides:  void bar();  bool leader();
 *   int64_t bcast(int64_t v)  (value of the leader, to every thread; it
 *   contains the barriers it needs).
 */

/* Lock a port whose buffers the GPU owns; returns nports on timeout. */
SYSGATE_GPU_HD uint32_t acquire_port(const sysgate_gpu_client &c, uint32_t hint)
{
	uint64_t t0 = c.timeout_ns ? now_ns() : 0;
	unsigned ns = 32;
	uint32_t start = hint % c.nports;
	for (;;) {
		for (uint32_t i = 0; i < c.nports; i++) {
			uint32_t p = start + i;
			if (p >= c.nports)
				p -= c.nports;
			uint32_t bit = 1u << (p & 31);
			uint32_t *w = &c.locks[p >> 5];
			if (ld_relaxed_sys(w) & bit)
				continue;
			if (lock_or(w, bit) & bit)
				continue;
			/* Still served (a non-blocking call in flight, or one
			 * given up on)? */
			if (ld_acquire_sys(&c.cpu_seq[p]) ==
			    ld_relaxed_sys(&c.gpu_seq[p]))
				return p;
			lock_clear(w, bit);
		}
		if (c.timeout_ns && now_ns() - t0 > c.timeout_ns)
			return c.nports;
		backoff(ns);
	}
}

SYSGATE_GPU_HD void release_port(const sysgate_gpu_client &c, uint32_t p)
{
	lock_clear(&c.locks[p >> 5], 1u << (p & 31));
}

/* Copy a payload in or out of the staging area around a call. */
struct stage {
	int arg;		/* argument replaced by the staging address; -1 */
	int out;		/* 1: copy back (consumer); 0: copy in */
	uint32_t len;		/* bytes; 0 with out == 0: NUL-terminated */
	void *ptr;		/* device-side buffer or string */
};

SYSGATE_GPU_HD unsigned char *lane_staging(const sysgate_gpu_client &c, uint32_t port,
				  unsigned lane)
{
	return c.staging + ((size_t)port * SYSGATE_GPU_WARP_LANES + lane) *
		c.staging_per_lane;
}

/*
 * The work-item call: every active lane of the warp makes its own call
 * (numbers may differ per lane); the calls travel together in one port.
 */
/*
 * The leader's wait for the host's answer to seq.  Returns 1 answered,
 * 2 answered after a cancel request, 0 no answer (the port stays the
 * host's; a late answer can never be taken for a later call's, since seq
 * is a generation).  After a timeout the call is cancelled (cancel[] = seq)
 * and the leader waits up to one more timeout for the host to confirm: the
 * host then has either skipped or interrupted the call (-ECANCELED, the
 * caller's buffer untouched) or finished it (its real result).
 */
SYSGATE_GPU_HD uint32_t wait_answer(const sysgate_gpu_client &c, uint32_t port,
				    uint32_t seq)
{
	uint32_t state = 1;
	uint64_t t0 = c.timeout_ns ? now_ns() : 0;
	unsigned ns = 32;
	/* Poll relaxed; one acquire once the answer is there. */
	while (ld_relaxed_sys(&c.cpu_seq[port]) != seq) {
		if (c.timeout_ns && now_ns() - t0 > c.timeout_ns) {
			if (state == 2)
				return 0;
			st_release_sys(&c.cancel[port], seq);
			state = 2;
			t0 = now_ns();
		}
		backoff(ns);
	}
	(void)ld_acquire_sys(&c.cpu_seq[port]);
	return state;
}

/*
 * The work-item call: every active lane of the warp makes its own call
 * (numbers may differ per lane); the calls travel together in one port.
 */
template <class W>
SYSGATE_GPU_HD int64_t call_lanes(const sysgate_gpu_client &c, W &w, uint32_t nr,
			 const uint64_t a_in[6], unsigned flags,
			 const stage *st = 0)
{
	uint32_t mask = w.activemask();
	unsigned lane = w.lane();
	unsigned leader = lowest_lane(mask);
	uint32_t port = 0;
	if (lane == leader)
		port = acquire_port(c, w.hint());
	port = w.shfl(mask, port, leader);
	if (port >= c.nports)
		return -E_BUSY;
	sysgate_gpu_port *p = &c.ports[port];
	uint32_t seq = ld_relaxed_sys(&c.gpu_seq[port]) + 1;
	sysgate_gpu_slot *s = &p->lane[lane];
	uint64_t a[6];
	for (int i = 0; i < 6; i++)
		a[i] = a_in[i];
	int64_t pre = 0;
	unsigned char *stg = 0;
	if (st && st->arg >= 0) {
		stg = lane_staging(c, port, lane);
		uint32_t n = st->len;
		if (!st->out && n == 0) {	/* string */
			const char *src = (const char *)st->ptr;
			while (n < c.staging_per_lane && src[n])
				n++;
			if (n >= c.staging_per_lane)
				pre = -E_NAMETOOLONG;
			else
				n++;
		} else if (n > c.staging_per_lane) {
			pre = -E_INVAL;
		} else if (st->out && (flags & SYSGATE_GPU_NONBLOCK)) {
			/* Nobody would copy the data out of the staging
			 * area: refuse rather than drop it. */
			pre = -E_INVAL;
		}
		if (!pre && !st->out)
			for (uint32_t i = 0; i < n; i++)
				stg[i] = ((const unsigned char *)st->ptr)[i];
		a[st->arg] = (uint64_t)(uintptr_t)stg;
	}
	s->state = SYSGATE_GPU_SLOT_POPULATING;
	/* A lane that failed locally still takes part, as a no-op call. */
	s->nr = pre ? (uint32_t)SYSGATE_GPU_NR_MASK :
		nr | ((flags & SYSGATE_GPU_NONBLOCK) ? SYSGATE_GPU_NR_NORET : 0);
	for (int i = 0; i < 6; i++)
		s->arg[i] = a[i];
	s->ret = 0;
	s->state = SYSGATE_GPU_SLOT_READY;
	/*
	 * No per-lane fence: __syncwarp orders every lane's slot writes
	 * before the leader's next instruction, and the leader's system-scope
	 * release is cumulative over what it has observed.  That release is
	 * the one system-scope membar of a publish.
	 */
	w.sync(mask);
	if (lane == leader) {
		p->lane_mask = mask;
		p->flags = flags;
		p->hint = w.hint();
		p->submit_ns = now_ns();
		st_release_sys(&c.gpu_seq[port], seq);
		if (flags & SYSGATE_GPU_NONBLOCK)
			release_port(c, port);
	}
	if (flags & SYSGATE_GPU_NONBLOCK)
		return pre;
	uint32_t ok = 0;
	if (lane == leader)
		ok = wait_answer(c, port, seq);
	ok = w.shfl(mask, ok, leader);
	/* The leader's acquire reaches the other lanes through this sync. */
	w.sync(mask);
	int64_t ret = -E_TIMEDOUT;
	if (ok) {
		ret = pre ? pre : s->ret;
		if (ok == 2 && ret == -E_CANCELED)
			ret = -E_TIMEDOUT;
		s->state = SYSGATE_GPU_SLOT_FREE;
		if (st && st->out && stg && ret > 0) {
			uint32_t n = (uint64_t)ret < st->len ? (uint32_t)ret :
				st->len;
			for (uint32_t i = 0; i < n; i++)
				((unsigned char *)st->ptr)[i] = stg[i];
		}
	}
	w.sync(mask);
	if (lane == leader)
		release_port(c, port);
	return ret;
}

/* A one-lane view of a lane, for calls issued by a single leader. */
template <class W> struct solo {
	W &w;
	SYSGATE_GPU_HD uint32_t activemask() { return 1u << w.lane(); }
	SYSGATE_GPU_HD uint32_t members() { return 1u << w.lane(); }
	SYSGATE_GPU_HD unsigned lane() { return w.lane(); }
	SYSGATE_GPU_HD uint32_t hint() { return w.hint(); }
	SYSGATE_GPU_HD void sync(uint32_t) {}
	SYSGATE_GPU_HD uint32_t shfl(uint32_t, uint32_t v, unsigned) { return v; }
};

SYSGATE_GPU_HD bool barrier_before(unsigned flags)
{
	return !(flags & SYSGATE_GPU_RELAXED) || !(flags & SYSGATE_GPU_ROLE_CONSUMER) ||
		(flags & SYSGATE_GPU_ROLE_PRODUCER);
}
SYSGATE_GPU_HD bool barrier_after(unsigned flags)
{
	if (flags & SYSGATE_GPU_NONBLOCK)
		return !(flags & SYSGATE_GPU_RELAXED);
	return !(flags & SYSGATE_GPU_RELAXED) || !(flags & SYSGATE_GPU_ROLE_PRODUCER) ||
		(flags & SYSGATE_GPU_ROLE_CONSUMER);
}

/*
 * Warp granularity: one call per arrival of the warp's members (the lanes
 * active when the caller was made, e.g. dev_warp's constructor), made by
 * the lowest of them.  Every member must reach the call: the first
 * __syncwarp(members) reconverges lanes a divergent loop left apart, so
 * they make exactly one call, not one per group __activemask() happens to
 * report.  The result reaches the other lanes by shuffle, after a sync.
 */
template <class W>
SYSGATE_GPU_HD int64_t call_warp(const sysgate_gpu_client &c, W &w, uint32_t nr,
			const uint64_t a[6], unsigned flags,
			const stage *st = 0)
{
	uint32_t mask = w.members();
	unsigned leader = lowest_lane(mask);
	flags = (flags & ~SYSGATE_GPU_GRAN_MASK) | SYSGATE_GPU_GRAN_WARP;
	/* Always: reconvergence, not only ordering. */
	w.sync(mask);
	int64_t ret = 0;
	if (w.lane() == leader) {
		solo<W> one{ w };
		ret = call_lanes(c, one, nr, a, flags, st);
	}
	if (barrier_after(flags)) {
		ret = w.shfl64(mask, ret, leader);
		/* shfl moves the value, not memory: order the leader's
		 * acquire (and the data it covers) before the lanes' reads. */
		w.sync(mask);
	}
	return ret;
}

/*
 * Block granularity: one thread calls for the block.  Strong ordering puts
 * a block barrier before and after; relaxed keeps only the barrier the
 * call's role needs (producer: before, consumer: after).  Every thread of
 * the block must make the call.
 */
template <class W, class B>
SYSGATE_GPU_HD int64_t call_block(const sysgate_gpu_client &c, W &w, B &b, uint32_t nr,
			 const uint64_t a[6], unsigned flags,
			 const stage *st = 0)
{
	flags = (flags & ~SYSGATE_GPU_GRAN_MASK) | SYSGATE_GPU_GRAN_BLOCK;
	if (barrier_before(flags))
		b.bar();
	int64_t ret = 0;
	if (b.leader()) {
		solo<W> one{ w };
		ret = call_lanes(c, one, nr, a, flags, st);
	}
	if (barrier_after(flags))
		ret = b.bcast(ret);
	return ret;
}

/*
 * Grid granularity: the grid's designated thread calls; no grid-wide
 * barrier exists, so strong ordering is refused (the paper: it can
 * deadlock).  Other threads get 0.
 */
template <class W>
SYSGATE_GPU_HD int64_t call_grid(const sysgate_gpu_client &c, W &w, bool designated,
			uint32_t nr, const uint64_t a[6], unsigned flags,
			const stage *st = 0)
{
	if (!(flags & SYSGATE_GPU_RELAXED))
		return -E_INVAL;
	flags = (flags & ~SYSGATE_GPU_GRAN_MASK) | SYSGATE_GPU_GRAN_GRID;
	if (!designated)
		return 0;
	solo<W> one{ w };
	return call_lanes(c, one, nr, a, flags, st);
}

/* Wait until no port holds a call in flight (drains non-blocking calls). */
SYSGATE_GPU_HD int wait_all(const sysgate_gpu_client &c)
{
	uint64_t t0 = c.timeout_ns ? now_ns() : 0;
	for (uint32_t p = 0; p < c.nports; p++) {
		unsigned ns = 32;
		while (ld_acquire_sys(&c.cpu_seq[p]) !=
		       ld_relaxed_sys(&c.gpu_seq[p])) {
			if (c.timeout_ns && now_ns() - t0 > c.timeout_ns)
				return -E_TIMEDOUT;
			backoff(ns);
		}
	}
	return 0;
}

} /* namespace sysgate_gpu */

namespace sysgate_gpu {

/* Callers: one per granularity, all with the same sys() entry. */
template <class W> struct thread_caller {
	const sysgate_gpu_client &c;
	W &w;
	SYSGATE_GPU_HD int64_t sys(uint32_t nr, const uint64_t a[6], unsigned f,
			  const stage *st = 0)
	{
		return call_lanes(c, w, nr, a, f | SYSGATE_GPU_GRAN_THREAD, st);
	}
};
template <class W> struct warp_caller {
	const sysgate_gpu_client &c;
	W &w;
	SYSGATE_GPU_HD int64_t sys(uint32_t nr, const uint64_t a[6], unsigned f,
			  const stage *st = 0)
	{
		return call_warp(c, w, nr, a, f, st);
	}
};
template <class W, class B> struct block_caller {
	const sysgate_gpu_client &c;
	W &w;
	B &b;
	SYSGATE_GPU_HD int64_t sys(uint32_t nr, const uint64_t a[6], unsigned f,
			  const stage *st = 0)
	{
		return call_block(c, w, b, nr, a, f, st);
	}
};
template <class W> struct grid_caller {
	const sysgate_gpu_client &c;
	W &w;
	bool designated;
	SYSGATE_GPU_HD int64_t sys(uint32_t nr, const uint64_t a[6], unsigned f,
			  const stage *st = 0)
	{
		return call_grid(c, w, designated, nr, a, f, st);
	}
};

#define SYSGATE_GPU_U(x) ((uint64_t)(x))
#define SYSGATE_GPU_P(x) ((uint64_t)(uintptr_t)(x))

/*
 * The call wrappers, for any caller G.  Each adds the call's GENESYS role
 * so SYSGATE_GPU_RELAXED keeps only the barrier that role needs.  With SYSGATE_GPU_STAGE the
 * payload is copied through the port's staging area (buffers may then be
 * device memory; at most staging_per_lane bytes).  Paths are always staged
 * when a staging area exists.
 */
template <class G> struct api {
	G g;
	const sysgate_gpu_client &c;

	SYSGATE_GPU_HD int64_t syscall(uint32_t nr, uint64_t a0 = 0, uint64_t a1 = 0,
			      uint64_t a2 = 0, uint64_t a3 = 0,
			      uint64_t a4 = 0, uint64_t a5 = 0,
			      unsigned f = 0)
	{
		uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };
		return g.sys(nr, a, f);
	}
	SYSGATE_GPU_HD int64_t buf_call(uint32_t nr, uint64_t a0, void *buf, size_t n,
			       uint64_t a3, uint64_t a4, uint64_t a5,
			       unsigned f, int out)
	{
		uint64_t a[6] = { a0, SYSGATE_GPU_P(buf), SYSGATE_GPU_U(n), a3, a4, a5 };
		f |= out ? SYSGATE_GPU_ROLE_CONSUMER : SYSGATE_GPU_ROLE_PRODUCER;
		if ((f & SYSGATE_GPU_STAGE) && c.staging_per_lane) {
			stage st = { 1, out, (uint32_t)n, buf };
			return g.sys(nr, a, f, &st);
		}
		return g.sys(nr, a, f);
	}
	SYSGATE_GPU_HD int64_t pread(int fd, void *buf, size_t n, int64_t off,
			    unsigned f = 0)
	{
		return buf_call(SYS_pread64, SYSGATE_GPU_U(fd), buf, n, SYSGATE_GPU_U(off), 0, 0,
				f, 1);
	}
	SYSGATE_GPU_HD int64_t pwrite(int fd, const void *buf, size_t n, int64_t off,
			     unsigned f = 0)
	{
		return buf_call(SYS_pwrite64, SYSGATE_GPU_U(fd), (void *)buf, n,
				SYSGATE_GPU_U(off), 0, 0, f, 0);
	}
	SYSGATE_GPU_HD int64_t read(int fd, void *buf, size_t n, unsigned f = 0)
	{
		return buf_call(SYS_read, SYSGATE_GPU_U(fd), buf, n, 0, 0, 0, f, 1);
	}
	SYSGATE_GPU_HD int64_t write(int fd, const void *buf, size_t n, unsigned f = 0)
	{
		return buf_call(SYS_write, SYSGATE_GPU_U(fd), (void *)buf, n, 0, 0, 0,
				f, 0);
	}
	SYSGATE_GPU_HD int64_t sendto(int fd, const void *buf, size_t n, int fl,
			     const void *addr, uint32_t alen, unsigned f = 0)
	{
		return buf_call(SYS_sendto, SYSGATE_GPU_U(fd), (void *)buf, n, SYSGATE_GPU_U(fl),
				SYSGATE_GPU_P(addr), SYSGATE_GPU_U(alen), f, 0);
	}
	SYSGATE_GPU_HD int64_t recvfrom(int fd, void *buf, size_t n, int fl,
			       void *addr, uint32_t *alen, unsigned f = 0)
	{
		return buf_call(SYS_recvfrom, SYSGATE_GPU_U(fd), buf, n, SYSGATE_GPU_U(fl),
				SYSGATE_GPU_P(addr), SYSGATE_GPU_P(alen), f, 1);
	}
	SYSGATE_GPU_HD int64_t openat(int dirfd, const char *path, int fl,
			     unsigned mode = 0, unsigned f = 0)
	{
		uint64_t a[6] = { SYSGATE_GPU_U(dirfd), SYSGATE_GPU_P(path), SYSGATE_GPU_U(fl),
				  SYSGATE_GPU_U(mode), 0, 0 };
		if (c.staging_per_lane) {
			stage st = { 1, 0, 0, (void *)path };
			return g.sys(SYS_openat, a, f, &st);
		}
		return g.sys(SYS_openat, a, f);
	}
	SYSGATE_GPU_HD int64_t open(const char *path, int fl, unsigned mode = 0,
			   unsigned f = 0)
	{
		return openat(-100 /* AT_FDCWD */, path, fl, mode, f);
	}
	SYSGATE_GPU_HD int64_t close(int fd, unsigned f = 0)
	{
		return syscall(SYS_close, SYSGATE_GPU_U(fd), 0, 0, 0, 0, 0, f);
	}
	SYSGATE_GPU_HD int64_t lseek(int fd, int64_t off, int whence, unsigned f = 0)
	{
		return syscall(SYS_lseek, SYSGATE_GPU_U(fd), SYSGATE_GPU_U(off), SYSGATE_GPU_U(whence),
			       0, 0, 0, f);
	}
	SYSGATE_GPU_HD int64_t fstat(int fd, void *st, unsigned f = 0)
	{
		return syscall(SYS_fstat, SYSGATE_GPU_U(fd), SYSGATE_GPU_P(st), 0, 0, 0, 0,
			       f | SYSGATE_GPU_ROLE_CONSUMER);
	}
	SYSGATE_GPU_HD int64_t mmap(void *addr, size_t len, int prot, int fl, int fd,
			   int64_t off, unsigned f = 0)
	{
		return syscall(SYS_mmap, SYSGATE_GPU_P(addr), SYSGATE_GPU_U(len), SYSGATE_GPU_U(prot),
			       SYSGATE_GPU_U(fl), SYSGATE_GPU_U(fd), SYSGATE_GPU_U(off), f);
	}
	SYSGATE_GPU_HD int64_t munmap(void *addr, size_t len, unsigned f = 0)
	{
		return syscall(SYS_munmap, SYSGATE_GPU_P(addr), SYSGATE_GPU_U(len), 0, 0, 0, 0,
			       f | SYSGATE_GPU_ROLE_PRODUCER);
	}
	SYSGATE_GPU_HD int64_t madvise(void *addr, size_t len, int advice,
			      unsigned f = 0)
	{
		return syscall(SYS_madvise, SYSGATE_GPU_P(addr), SYSGATE_GPU_U(len),
			       SYSGATE_GPU_U(advice), 0, 0, 0, f | SYSGATE_GPU_ROLE_PRODUCER);
	}
	SYSGATE_GPU_HD int wait_all() { return sysgate_gpu::wait_all(c); }
};

} /* namespace sysgate_gpu */

#if defined(__CUDACC__)
namespace sysgate_gpu {

/*
 * The device warp: the lanes active at the call travel together.  The lane
 * is the hardware's (%laneid): threadIdx.x & 31 is wrong in 2-D/3-D blocks
 * whose x extent is not a multiple of 32, where leaders, shuffle sources
 * and lane_mask bits all use hardware lanes.
 */
struct cuda_warp {
	uint32_t m;
	__device__ cuda_warp() : m(__activemask()) {}
	__device__ uint32_t activemask() { return __activemask(); }
	__device__ uint32_t members() { return m; }
	__device__ unsigned lane()
	{
		unsigned l;
		asm("mov.u32 %0, %%laneid;" : "=r"(l));
		return l;
	}
	__device__ uint32_t hint()
	{
		uint32_t smid, wid;
		asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
		asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
		return smid * 64 + wid;
	}
	__device__ void sync(uint32_t mask) { __syncwarp(mask); }
	__device__ uint32_t shfl(uint32_t mask, uint32_t v, unsigned src)
	{
		return __shfl_sync(mask, v, src);
	}
	__device__ int64_t shfl64(uint32_t mask, int64_t v, unsigned src)
	{
		return (int64_t)__shfl_sync(mask, (long long)v, src);
	}
};

/* The block: thread 0 leads; every thread must arrive. */
struct cuda_block {
	__device__ void bar() { __syncthreads(); }
	__device__ bool leader()
	{
		return threadIdx.x == 0 && threadIdx.y == 0 &&
			threadIdx.z == 0;
	}
	__device__ int64_t bcast(int64_t v)
	{
		__shared__ int64_t sysgate_gpu_bcast_slot;
		if (leader())
			sysgate_gpu_bcast_slot = v;
		__syncthreads();
		v = sysgate_gpu_bcast_slot;
		__syncthreads();
		return v;
	}
};

/* Convenience: sysgate_gpu::per_thread(c).pread(...) and friends. */
struct dev_thread {
	cuda_warp w;
	api<thread_caller<cuda_warp> > a;
	__device__ dev_thread(const sysgate_gpu_client &c) : w(), a{ { c, w }, c } {}
};
struct dev_warp {
	cuda_warp w;
	api<warp_caller<cuda_warp> > a;
	__device__ dev_warp(const sysgate_gpu_client &c) : w(), a{ { c, w }, c } {}
};
struct dev_block {
	cuda_warp w;
	cuda_block b;
	api<block_caller<cuda_warp, cuda_block> > a;
	__device__ dev_block(const sysgate_gpu_client &c)
		: w(), b(), a{ { c, w, b }, c } {}
};
struct dev_grid {
	cuda_warp w;
	api<grid_caller<cuda_warp> > a;
	__device__ dev_grid(const sysgate_gpu_client &c)
		: w(), a{ { c, w, blockIdx.x == 0 && blockIdx.y == 0 &&
			blockIdx.z == 0 && threadIdx.x == 0 &&
			threadIdx.y == 0 && threadIdx.z == 0 }, c } {}
};

} /* namespace sysgate_gpu */
#endif /* __CUDACC__ */

#endif /* __cplusplus */
#endif /* SYSGATE_GPU_H */
