/* SPDX-License-Identifier: MIT */
/*
 * runtime.h - what the host runtime's files share (gpu/server.c: pool,
 * poller, life cycle; gpu/calls.c: running calls; gpu/ranges.c: registered
 * memory and pointer checks).  Internal to gpu/.
 */
#ifndef SYSGATE_GPU_RUNTIME_H
#define SYSGATE_GPU_RUNTIME_H

#include <pthread.h>
#include <stdint.h>

#include "sysgate_gpu.h"
#include "sysgate_gpu_int.h"

#define MAX_BATCH_CAP 256
#define RANGE_USER 1
#define RANGE_MMAP 2
#define RANGE_STAGING 4
#define RANGE_DEVICE 8
#define MAX_RW 0x7ffff000ul		/* the kernel's cap on one read/write */

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
	struct batch *cur;	/* poller-private: batch being gathered */
	uint64_t first_ns;	/* when its first call came */

	pthread_t poller;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;	/* work queued, or stopping */
	pthread_cond_t gone;	/* a worker exited */
	struct batch *qhead, *qtail;
	struct worker *wlist;
	unsigned nlive, nidle, minw, maxw;
	unsigned nblocked;	/* atomic: workers in a call that may block */
	int spinning;		/* an idle worker spins for work (qlock) */
	int spun_out;		/* it spun in vain: sleep until enqueue */
	uint64_t spin_ns;	/* atomic knob: how long it spins */
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

#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

/* ranges.c */
int add_range(struct sysgate_gpu_server *s, uintptr_t lo, size_t len,
	      unsigned kind);
void cut_mmap(struct sysgate_gpu_server *s, uintptr_t lo, uintptr_t hi);
int check_ptrs(struct sysgate_gpu_server *s, const struct sg_sysent *e,
	       const uint64_t *a);

/* calls.c */
void run_batch(struct sysgate_gpu_server *s, struct worker *w,
	       struct batch *b);
void complete(struct sysgate_gpu_server *s, const struct req *r, int64_t ret);
void free_bounce(struct worker *w);

/* server.c */
void enqueue(struct sysgate_gpu_server *s, struct batch *b);
void about_to_block(struct sysgate_gpu_server *s);

#endif
