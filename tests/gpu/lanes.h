// SPDX-License-Identifier: MIT
/*
 * lanes.h - what the CPU-lane test cases share: failing, a runtime over a
 * fresh control area (env), scratch files, emulated warps.
 */
#ifndef SYSGATE_GPU_TESTS_LANES_H
#define SYSGATE_GPU_TESTS_LANES_H

#include <arpa/inet.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sysgate_gpu.h"
#include "cpu_lanes.h"
#include "examples.h"

using namespace sysgate_gpu;

static inline void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stdout, "FAIL: ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	fflush(stdout);
	exit(1);
}
#define CHECK(c, ...) do { if (!(c)) fail(__VA_ARGS__); } while (0)

struct env {
	void *mem = nullptr;
	sysgate_gpu_server *srv = nullptr;
	sysgate_gpu_client c{};
	std::vector<uint32_t> locks;

	env(unsigned nports, unsigned staging = 256, unsigned window_us = 0,
	    unsigned max_batch = 32, unsigned workers = 2)
	{
		size_t sz = sysgate_gpu_area_size(nports, staging);
		mem = aligned_alloc(SYSGATE_GPU_LINE, (sz + SYSGATE_GPU_LINE - 1) & ~(size_t)63);
		sysgate_gpu_opts o{};
		o.workers = workers;
		o.window_us = window_us;
		o.max_batch = max_batch;
		o.uring_min = 0;
		o.quiet = getenv("SG_VERBOSE") ? 0 : 1;
		int r = sysgate_gpu_server_start(&srv, mem, nports, staging, &o,
						 &c);
		CHECK(r == 0, "server_start: %d", r);
		locks.assign((nports + 31) / 32, 0);
		c.locks = locks.data();
		c.timeout_ns = 20ull * 1000000000;	/* a hang is a failure */
	}
	~env()
	{
		if (srv)
			sysgate_gpu_server_stop(srv);
		free(mem);
	}
	void reg(const void *p, size_t n)
	{
		CHECK(sysgate_gpu_register(srv, p, n) == 0, "register");
	}
};

/* The scratch directories a case made, removed when it exits (passed
 * or failed): nothing is left in TMPDIR. */
static std::vector<std::string> *scratch_dirs;

static int scratch_rm(const char *path, const struct stat *st, int type,
		      struct FTW *f)
{
	(void)st;
	(void)f;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void scratch_clean(void)
{
	for (const std::string &d : *scratch_dirs)
		nftw(d.c_str(), scratch_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static inline std::string tmpdir()
{
	const char *t = getenv("TMPDIR");
	std::string d = std::string(t ? t : "/tmp") + "/sg-gpu-XXXXXX";
	std::vector<char> b(d.begin(), d.end());
	b.push_back(0);
	CHECK(mkdtemp(b.data()), "mkdtemp");
	if (!scratch_dirs) {
		scratch_dirs = new std::vector<std::string>;
		atexit(scratch_clean);
	}
	scratch_dirs->push_back(b.data());
	return b.data();
}

static inline int mkfile(const std::string &path, const std::string &data)
{
	int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0, "open %s", path.c_str());
	CHECK(write(fd, data.data(), data.size()) == (ssize_t)data.size(),
	      "write");
	return fd;
}

/* Wait until the runtime has taken n transactions. */
static inline void wait_taken(env &e, uint64_t n)
{
	for (;;) {
		sysgate_gpu_stats st;
		sysgate_gpu_get_stats(e.srv, &st);
		if (st.transactions >= n)
			return;
		usleep(1000);
	}
}

/* Run fn(warp, lane) on 32 threads of one emulated warp per warp id. */
template <class F> static void run_warps(unsigned nwarps, F fn)
{
	std::vector<cpu_warp_shared> sh(nwarps);
	std::vector<std::thread> th;
	for (unsigned w = 0; w < nwarps; w++) {
		sh[w].id = w;
		for (unsigned l = 0; l < 32; l++)
			th.emplace_back([&, w, l] { fn(sh[w], w, l); });
	}
	for (auto &t : th)
		t.join();
}

static inline uint32_t round_mask(unsigned w, unsigned r)
{
	std::mt19937 g(w * 7919 + r * 104729 + 1);
	uint32_t m = (uint32_t)g();
	if (r % 5 == 0)
		m = 0xffffffffu;
	if (!m)
		m = 1u << (r & 31);
	return m;
}

/* lanes_ext.cc: blocking calls, cancellation, checks, block shapes, bulk */
void case_pipe_partner();
void case_starve();
void case_stop_inflight();
void case_timeout_cancel();
void case_mmap_fixed();
void case_uring_len();
void case_stage_nonblock();
void case_shape();
void case_diverge();
void case_bulk();

#endif
