/* SPDX-License-Identifier: MIT */
/*
 * cpu_lanes.h - CPU threads standing in for GPU lanes.
 *
 * cpu_warp: up to 32 threads that share one emulated warp.  sync(mask)
 * waits for exactly the lanes in mask (partial masks work); a waiting lane
 * sleeps until its own arrival bit is cleared, so barriers over different
 * masks never release each other.  shfl is a write, a sync and a read.
 * Everything is mutex/condvar based so it is cheap on few cores and
 * ThreadSanitizer sees every happens-before edge.
 *
 * cpu_block: a barrier over all threads of an emulated block.
 *
 * run_block: one block of any shape (x, y, z), numbered as the hardware
 * numbers threads (x fastest); 32 consecutive threads form a warp, the last
 * one partial when the size is not a multiple of 32.
 *
 * Divergence: cpu_warp::conv, when set, is what activemask() reports (the
 * lanes converged right now, as after a divergent loop on a GPU with
 * independent thread scheduling); mask stays the warp's members.
 */
#ifndef SYSGATE_GPU_CPU_LANES_H
#define SYSGATE_GPU_CPU_LANES_H

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "sysgate_gpu.h"

namespace sysgate_gpu {

struct cpu_warp_shared {
	std::mutex m;
	std::condition_variable cv;
	uint32_t arrived = 0;
	int64_t xfer = 0;
	uint32_t id = 0;

	void sync(uint32_t mask, unsigned lane)
	{
		uint32_t bit = 1u << lane;
		std::unique_lock<std::mutex> g(m);
		arrived |= bit;
		if ((arrived & mask) == mask) {
			arrived &= ~mask;
			cv.notify_all();
			return;
		}
		cv.wait(g, [&] { return !(arrived & bit); });
	}
};

/* One lane's view of an emulated warp; mask is the lanes in this call. */
struct cpu_warp {
	cpu_warp_shared *sh;
	unsigned ln;
	uint32_t mask;
	uint32_t conv = 0;	/* 0: all members converged */

	uint32_t activemask() { return conv ? conv : mask; }
	uint32_t members() { return mask; }
	unsigned lane() { return ln; }
	uint32_t hint() { return sh->id; }
	void sync(uint32_t m) { sh->sync(m, ln); }
	int64_t shfl64(uint32_t m, int64_t v, unsigned src)
	{
		if (ln == src) {
			std::lock_guard<std::mutex> g(sh->m);
			sh->xfer = v;
		}
		sync(m);
		{
			std::lock_guard<std::mutex> g(sh->m);
			v = sh->xfer;
		}
		sync(m);
		return v;
	}
	uint32_t shfl(uint32_t m, uint32_t v, unsigned src)
	{
		return (uint32_t)shfl64(m, v, src);
	}
};

/* A one-lane warp: how a CPU thread is a client (LLVM's lane size 1). */
struct cpu_lane1 {
	uint32_t id;
	uint32_t activemask() { return 1; }
	uint32_t members() { return 1; }
	unsigned lane() { return 0; }
	uint32_t hint() { return id; }
	void sync(uint32_t) {}
	uint32_t shfl(uint32_t, uint32_t v, unsigned) { return v; }
	int64_t shfl64(uint32_t, int64_t v, unsigned) { return v; }
};

struct cpu_block_shared {
	std::mutex m;
	std::condition_variable cv;
	unsigned n = 0, count = 0;
	uint64_t gen = 0;
	int64_t xfer = 0;
	unsigned bars = 0;	/* barriers completed (tests count them) */

	void bar()
	{
		std::unique_lock<std::mutex> g(m);
		uint64_t my = gen;
		if (++count == n) {
			count = 0;
			gen++;
			bars++;
			cv.notify_all();
			return;
		}
		cv.wait(g, [&] { return gen != my; });
	}
};

struct cpu_block {
	cpu_block_shared *sh;
	unsigned tid;

	void bar() { sh->bar(); }
	bool leader() { return tid == 0; }
	int64_t bcast(int64_t v)
	{
		if (tid == 0) {
			std::lock_guard<std::mutex> g(sh->m);
			sh->xfer = v;
		}
		bar();
		{
			std::lock_guard<std::mutex> g(sh->m);
			v = sh->xfer;
		}
		bar();
		return v;
	}
};

struct cpu_dim3 {
	unsigned x, y, z;
};

/* fn(cpu_warp &, cpu_block &, x, y, z) on every thread of one block. */
template <class F> void run_block(cpu_dim3 d, uint32_t id, F fn)
{
	unsigned n = d.x * d.y * d.z, nw = (n + 31) / 32;
	std::vector<cpu_warp_shared> ws(nw);
	cpu_block_shared bs;
	bs.n = n;
	std::vector<std::thread> th;
	for (unsigned w = 0; w < nw; w++)
		ws[w].id = id * 64 + w;
	for (unsigned t = 0; t < n; t++)
		th.emplace_back([&, t] {
			unsigned w = t / 32, left = n - 32 * w;
			uint32_t mask = left >= 32 ? 0xffffffffu :
				(1u << left) - 1;
			cpu_warp cw{ &ws[w], t % 32, mask };
			cpu_block b{ &bs, t };
			fn(cw, b, t % d.x, t / d.x % d.y, t / (d.x * d.y));
		});
	for (auto &x : th)
		x.join();
}

} /* namespace sysgate_gpu */

#endif
