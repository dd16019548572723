// SPDX-License-Identifier: MIT
/*
 * bench.cc - sysgate-gpu-bench on CPU lanes: the same protocol and host
 * runtime, with CPU threads as the lanes.  Every figure is labelled
 * "mode":"cpu-lanes"; it measures the runtime and protocol cost on this
 * host, not a GPU.  (The GPU version is build/gpu/sysgate-gpu-bench.)
 *
 * usage: sysgate-gpu-bench [--json] [--quick]
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "sysgate_gpu.h"
#include "cpu_lanes.h"

using namespace sysgate_gpu;

static bool quick;
static std::vector<std::string> rows;
static unsigned iters(unsigned n) { return quick ? n / 10 + 1 : n; }

struct rt {
	void *mem;
	sysgate_gpu_server *srv;
	sysgate_gpu_client c{};
	std::vector<uint32_t> locks;
	rt(unsigned nports, unsigned window = 0, unsigned maxb = 32,
	   unsigned uring_min = 0)
	{
		size_t sz = sysgate_gpu_area_size(nports, 0);
		mem = aligned_alloc(64, (sz + 63) & ~(size_t)63);
		sysgate_gpu_opts o{};
		o.workers = 2;
		o.window_us = window;
		o.max_batch = maxb;
		o.uring_min = uring_min;
		o.quiet = 1;
		if (sysgate_gpu_server_start(&srv, mem, nports, 0, &o, &c))
			abort();
		locks.assign((nports + 31) / 32, 0);
		c.locks = locks.data();
	}
	~rt()
	{
		sysgate_gpu_server_stop(srv);
		free(mem);
	}
};

static void row(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void row(const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	rows.push_back(b);
}

/* Round trip of one call per granularity. */
static void latency()
{
	const unsigned N = iters(2000);
	{
		rt r(1);
		cpu_lane1 w{ 0 };
		api<thread_caller<cpu_lane1> > a{ { r.c, w }, r.c };
		uint64_t t0 = now_ns();
		for (unsigned i = 0; i < N; i++)
			a.syscall(SYS_getppid);
		row("{\"bench\":\"latency\",\"granularity\":\"thread\","
		    "\"lanes\":1,\"op\":\"getppid\",\"calls\":%u,"
		    "\"ns_per_call\":%.0f}", N,
		    (double)(now_ns() - t0) / N);
	}
	for (unsigned lanes : { 8u, 32u }) {
		rt r(1);
		cpu_warp_shared sh;
		std::vector<std::thread> th;
		uint64_t t0 = now_ns();
		uint32_t m = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
		for (unsigned l = 0; l < lanes; l++)
			th.emplace_back([&, l] {
				cpu_warp cw{ &sh, l, m };
				api<warp_caller<cpu_warp> > a{ { r.c, cw },
							       r.c };
				for (unsigned i = 0; i < N / 10; i++)
					a.syscall(SYS_getppid);
			});
		for (auto &t : th)
			t.join();
		row("{\"bench\":\"latency\",\"granularity\":\"warp\","
		    "\"lanes\":%u,\"op\":\"getppid\",\"calls\":%u,"
		    "\"ns_per_call\":%.0f}", lanes, N / 10,
		    (double)(now_ns() - t0) / (N / 10));
	}
	{
		rt r(1);
		cpu_block_shared bs;
		bs.n = 4;
		std::vector<std::thread> th;
		uint64_t t0 = now_ns();
		for (unsigned t = 0; t < 4; t++)
			th.emplace_back([&, t] {
				cpu_lane1 w{ t };
				cpu_block b{ &bs, t };
				api<block_caller<cpu_lane1, cpu_block> > a{
					{ r.c, w, b }, r.c };
				for (unsigned i = 0; i < N / 10; i++)
					a.syscall(SYS_getppid);
			});
		for (auto &t : th)
			t.join();
		row("{\"bench\":\"latency\",\"granularity\":\"block\","
		    "\"threads\":4,\"op\":\"getppid\",\"calls\":%u,"
		    "\"ns_per_call\":%.0f}", N / 10,
		    (double)(now_ns() - t0) / (N / 10));
	}
}

/* Calls per second with k one-lane clients; also the coalescing sweep. */
static double tput(unsigned k, unsigned window, unsigned maxb,
		   unsigned uring_min, int fd, unsigned nr)
{
	const unsigned N = iters(3000);
	rt r(k, window, maxb, uring_min);
	static char buf[64 * 64];
	sysgate_gpu_register(r.srv, buf, sizeof(buf));
	std::vector<std::thread> th;
	uint64_t t0 = now_ns();
	for (unsigned t = 0; t < k; t++)
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { r.c, w }, r.c };
			for (unsigned i = 0; i < N; i++)
				if (nr == SYS_getppid)
					a.syscall(SYS_getppid);
				else
					a.pread(fd, &buf[(t % 64) * 64], 64, 0);
		});
	for (auto &t : th)
		t.join();
	return (double)k * N * 1e9 / (double)(now_ns() - t0);
}

static void throughput(int fd)
{
	for (unsigned k : { 1u, 2u, 4u, 8u, 16u, 32u })
		row("{\"bench\":\"throughput\",\"clients\":%u,\"lanes\":1,"
		    "\"op\":\"getppid\",\"calls_per_s\":%.0f}", k,
		    tput(k, 0, 32, 0, fd, SYS_getppid));
	for (unsigned w : { 0u, 5u, 20u })
		for (unsigned b : { 1u, 8u, 32u })
			for (unsigned u : { 0u, 8u })
				row("{\"bench\":\"coalescing\",\"clients\":16,"
				    "\"op\":\"pread64\",\"window_us\":%u,"
				    "\"max_batch\":%u,\"uring_min\":%u,"
				    "\"calls_per_s\":%.0f}", w, b, u,
				    tput(16, w, b, u, fd, SYS_pread64));
}

/*
 * Round trip against the number of ports: an idle port must cost the
 * poller next to nothing (8,448 = an H100's resident warps).
 */
static void ports()
{
	const unsigned N = iters(4000);
	uint64_t p50_32 = 0;
	for (unsigned np : { 32u, 8448u }) {
		rt r(np);
		cpu_lane1 w{ 0 };
		api<thread_caller<cpu_lane1> > a{ { r.c, w }, r.c };
		std::vector<uint64_t> t(N);
		for (unsigned i = 0; i < 50; i++)
			a.syscall(SYS_getppid);
		for (unsigned i = 0; i < N; i++) {
			uint64_t t0 = now_ns();
			a.syscall(SYS_getppid);
			t[i] = now_ns() - t0;
		}
		std::sort(t.begin(), t.end());
		if (np == 32)
			p50_32 = t[N / 2];
		row("{\"bench\":\"ports\",\"nports\":%u,\"op\":\"getppid\","
		    "\"calls\":%u,\"p50_ns\":%llu,\"p99_ns\":%llu,"
		    "\"p50_vs_32_ports\":%.2f}", np, N,
		    (unsigned long long)t[N / 2],
		    (unsigned long long)t[N * 99 / 100],
		    p50_32 ? (double)t[N / 2] / (double)p50_32 : 0.0);
	}
}

/*
 * Bulk reads into "device memory" (here plain memory registered as
 * device memory; the copier is memcpy) against pread + memcpy by the host.
 */
static void bulk()
{
	const size_t sz = 1u << 20, total = 64u << 20;
	char path[] = "/tmp/sg-gpu-bulk-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return;
	unlink(path);
	std::vector<char> src(total, 'b');
	if (write(fd, src.data(), total) != (ssize_t)total)
		return;
	std::vector<char> dev(total), bounce(sz);
	const unsigned R = quick ? 1 : 5;
	double best_rt = 0, best_host = 0;
	{
		rt r(1);
		sysgate_gpu_register_device(r.srv, dev.data(), total);
		cpu_lane1 w{ 0 };
		api<thread_caller<cpu_lane1> > a{ { r.c, w }, r.c };
		for (unsigned k = 0; k < R; k++) {
			uint64_t t0 = now_ns();
			for (size_t off = 0; off < total; off += sz)
				if (a.pread(fd, &dev[off], sz, off) != (int64_t)sz)
					return;
			best_rt = std::max(best_rt, total / (double)(now_ns() - t0));
		}
	}
	for (unsigned k = 0; k < R; k++) {
		uint64_t t0 = now_ns();
		for (size_t off = 0; off < total; off += sz) {
			if (pread(fd, bounce.data(), sz, off) != (ssize_t)sz)
				return;
			memcpy(&dev[off], bounce.data(), sz);
		}
		best_host = std::max(best_host, total / (double)(now_ns() - t0));
	}
	close(fd);
	row("{\"bench\":\"bulk\",\"op\":\"pread64\",\"bytes_per_call\":%zu,"
	    "\"total\":%zu,\"runtime_gb_s\":%.2f,\"host_pread_copy_gb_s\":%.2f}",
	    sz, total, best_rt, best_host);
}

/* The paper's ordering x blocking comparison, block granularity. */
static void ordering()
{
	static const struct {
		const char *name;
		unsigned f;
	} modes[] = {
		{ "strong-block", SYSGATE_GPU_STRONG },
		{ "weak-block", SYSGATE_GPU_RELAXED },
		{ "strong-nonblock", SYSGATE_GPU_STRONG | SYSGATE_GPU_NONBLOCK },
		{ "weak-nonblock", SYSGATE_GPU_RELAXED | SYSGATE_GPU_NONBLOCK },
	};
	int fd = open("/dev/null", O_WRONLY);
	static char msg[64];
	const unsigned T = 8, N = iters(1000);
	for (auto &m : modes) {
		rt r(2);
		sysgate_gpu_register(r.srv, msg, sizeof(msg));
		cpu_block_shared bs;
		bs.n = T;
		std::atomic<uint64_t> sink{ 0 };
		std::vector<std::thread> th;
		uint64_t t0 = now_ns();
		for (unsigned t = 0; t < T; t++)
			th.emplace_back([&, t] {
				cpu_lane1 w{ t };
				cpu_block b{ &bs, t };
				api<block_caller<cpu_lane1, cpu_block> > a{
					{ r.c, w, b }, r.c };
				uint64_t x = t;
				for (unsigned i = 0; i < N; i++) {
					for (int j = 0; j < 2000; j++)
						x = x * 6364136223846793005ull + 1;
					a.write(fd, msg, sizeof(msg), m.f);
				}
				sink += x;
			});
		for (auto &t : th)
			t.join();
		wait_all(r.c);
		row("{\"bench\":\"ordering\",\"mode\":\"%s\","
		    "\"granularity\":\"block\",\"threads\":%u,\"op\":\"write\","
		    "\"ns_per_iteration\":%.0f}", m.name, T,
		    (double)(now_ns() - t0) / N);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else {
			fprintf(stderr, "usage: %s [--json] [--quick]\n",
				argv[0]);
			return 2;
		}
	}
	int fd = open("/proc/self/exe", O_RDONLY);
	latency();
	ports();
	bulk();
	throughput(fd);
	ordering();
	if (json) {
		printf("{\"schema\":1,\"tool\":\"sysgate-gpu-bench\","
		       "\"mode\":\"cpu-lanes\",\"note\":\"CPU threads stand "
		       "in for GPU lanes; not GPU figures\",\"cpus\":%ld,"
		       "\"io_uring\":%d,\"quick\":%s,\"results\":[",
		       sysconf(_SC_NPROCESSORS_ONLN), sysgate_gpu_have_uring(),
		       quick ? "true" : "false");
		for (size_t i = 0; i < rows.size(); i++)
			printf("%s\n%s", i ? "," : "", rows[i].c_str());
		printf("\n]}\n");
	} else {
		printf("# mode: cpu-lanes (CPU threads as GPU lanes)\n");
		for (auto &r : rows)
			printf("%s\n", r.c_str());
	}
	return 0;
}
