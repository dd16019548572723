// SPDX-License-Identifier: MIT
/*
 * bench.cu - sysgate-gpu-bench on a GPU: round-trip latency per
 * granularity, calls/s with 1..N warps, the coalescing knobs, and the
 * paper's ordering x blocking comparison.  Every result carries the GPU,
 * driver and runtime versions.  Exits 77 when there is no device.
 *
 * usage: sysgate-gpu-bench [--json] [--quick] [--ports N]
 * (N ports instead of one per resident warp: the host's scan cost)
 */
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sysgate_gpu.h"
#include "cuda_host.h"

using namespace sysgate_gpu;

__global__ void k_thread(sysgate_gpu_client c, unsigned n)
{
	dev_thread t(c);
	for (unsigned i = 0; i < n; i++)
		t.a.syscall(SYS_getppid);
}
__global__ void k_warp(sysgate_gpu_client c, unsigned n)
{
	dev_warp w(c);
	for (unsigned i = 0; i < n; i++)
		w.a.syscall(SYS_getppid);
}
__global__ void k_block(sysgate_gpu_client c, unsigned n)
{
	dev_block b(c);
	for (unsigned i = 0; i < n; i++)
		b.a.syscall(SYS_getppid);
}
__global__ void k_pread(sysgate_gpu_client c, int fd, char *buf, unsigned n)
{
	dev_thread t(c);
	unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
	for (unsigned i = 0; i < n; i++)
		t.a.pread(fd, buf + (k % 1024) * 64, 64, 0);
}
__global__ void k_order(sysgate_gpu_client c, int fd, const char *msg, unsigned n,
			unsigned f, unsigned long long *sink)
{
	dev_block b(c);
	unsigned long long x = threadIdx.x;
	for (unsigned i = 0; i < n; i++) {
		for (int j = 0; j < 2000; j++)
			x = x * 6364136223846793005ull + 1;
		b.a.write(fd, msg, 64, f);
	}
	atomicAdd_system(sink, x);
}

/* Round trips timed on the GPU (%globaltimer), one per call. */
__global__ void k_rtt(sysgate_gpu_client c, unsigned n, unsigned gran,
		      unsigned long long *t)
{
	dev_thread th(c);
	dev_warp w(c);
	dev_block b(c);
	for (unsigned i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		if (gran == 2)
			b.a.syscall(SYS_getppid);
		else if (gran)
			w.a.syscall(SYS_getppid);
		else
			th.a.syscall(SYS_getppid);
		if (threadIdx.x == 0)
			t[i] = now_ns() - t0;
	}
}

/* Bulk: one thread preads the file 1 MiB at a time into device memory. */
__global__ void k_bulk(sysgate_gpu_client c, int fd, unsigned char *dev,
		       size_t chunk, size_t total)
{
	dev_thread t(c);
	for (size_t off = 0; off < total; off += chunk)
		t.a.pread(fd, dev + off, chunk, off);
}

/* A kernel that failed leaves no figure worth printing. */
static void synced(const char *what)
{
	cudaError_t e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		printf("FAIL: %s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

static double now_s()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	bool json = false, quick = false;
	unsigned ports = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[i], "--ports") && i + 1 < argc) {
			ports = (unsigned)strtoul(argv[++i], 0, 0);
		} else {
			fprintf(stderr, "usage: sysgate-gpu-bench [--json] "
				"[--quick] [--ports N]\n");
			return 2;
		}
	}
	sysgate_gpu_cuda g;
	int r = sysgate_gpu_cuda_start(&g, ports, 0, 0);
	if (r == -ENODEV) {
		printf("skip: %s\n", g.desc);
		return 77;
	}
	if (r) {
		printf("FAIL: start %d\n", r);
		return 1;
	}
	std::vector<std::string> rows;
	char b[512];
	/* Each row also goes to stderr as it is made: a run stopped by a
	 * time limit still shows how far it got. */
	auto add = [&](const char *row) {
		rows.push_back(row);
		fprintf(stderr, "%s\n", row);
	};
	unsigned N = quick ? 50 : 1000;
	auto lat = [&](const char *gran, void (*k)(sysgate_gpu_client, unsigned),
		       unsigned threads) {
		k<<<1, threads>>>(g.client, 1);	/* warm up */
		synced("latency warm-up");
		double t0 = now_s();
		k<<<1, threads>>>(g.client, N);
		synced("latency");
		snprintf(b, sizeof(b), "{\"bench\":\"latency\",\"granularity\":"
			 "\"%s\",\"threads\":%u,\"op\":\"getppid\",\"calls\":%u,"
			 "\"ns_per_call\":%.0f}", gran, threads, N,
			 (now_s() - t0) * 1e9 / N);
		add(b);
	};
	lat("thread", k_thread, 1);
	lat("thread", k_thread, 32);
	lat("warp", k_warp, 32);
	lat("block", k_block, 256);

	/* round trip p50/p99 from the GPU's own clock */
	unsigned long long *tt = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&g, 4096 * 8);
	static const char *const gname[] = { "thread", "warp", "block" };
	/* Default worker spinning, then none: what a sleeping worker's
	 * wake-up adds to a round trip. */
	for (unsigned spin : { 50u, 0u }) {
		sysgate_gpu_set_worker_spin(g.srv, spin);
		for (unsigned gran = 0; gran < 3; gran++) {
			unsigned n = quick ? 200 : 4000;
			unsigned threads = gran == 2 ? 256 : 32;
			k_rtt<<<1, threads>>>(g.client, n, gran, tt);
			synced("rtt");
			std::vector<unsigned long long> v(tt, tt + n);
			std::sort(v.begin(), v.end());
			snprintf(b, sizeof(b), "{\"bench\":\"rtt\",\"granularity\":"
				 "\"%s\",\"threads\":%u,\"op\":\"getppid\","
				 "\"calls\":%u,\"worker_spin_us\":%u,\"p50_ns\":%llu,"
				 "\"p99_ns\":%llu,\"clock\":\"globaltimer\"}",
				 gname[gran], threads, n, spin, v[n / 2],
				 v[n * 99 / 100]);
			add(b);
		}
	}
	sysgate_gpu_set_worker_spin(g.srv, 50);

	/* bulk pread into device memory vs host pread + cudaMemcpy */
	{
		const size_t chunk = 1 << 20, total = (quick ? 64 : 512) << 20;
		char tp[] = "/tmp/sg-gpu-bulk-XXXXXX";
		int bfd = mkstemp(tp);
		unlink(tp);
		std::vector<char> src(chunk, 'b');
		for (size_t off = 0; off < total; off += chunk)
			if (pwrite(bfd, src.data(), chunk, off) != (ssize_t)chunk)
				return 1;
		unsigned char *dev = (unsigned char *)
			sysgate_gpu_cuda_alloc_device(&g, total);
		double t0 = now_s();
		k_bulk<<<1, 1>>>(g.client, bfd, dev, chunk, total);
		synced("bulk");
		double rt = total / (now_s() - t0) / 1e9;
		void *pin;
		cudaHostAlloc(&pin, chunk, cudaHostAllocPortable);
		t0 = now_s();
		for (size_t off = 0; off < total; off += chunk) {
			if (pread(bfd, pin, chunk, off) != (ssize_t)chunk)
				return 1;
			cudaMemcpy(dev + off, pin, chunk, cudaMemcpyHostToDevice);
		}
		double host = total / (now_s() - t0) / 1e9;
		snprintf(b, sizeof(b), "{\"bench\":\"bulk\",\"op\":\"pread64\","
			 "\"bytes_per_call\":%zu,\"total\":%zu,\"runtime_gb_s\":"
			 "%.2f,\"host_pread_cudamemcpy_gb_s\":%.2f}", chunk, total,
			 rt, host);
		add(b);
		cudaFreeHost(pin);
		sysgate_gpu_cuda_free_device(&g, dev);
		close(bfd);
	}

	int fd = open("/proc/self/exe", O_RDONLY);
	char *buf = (char *)sysgate_gpu_cuda_alloc(&g, 1024 * 64);
	auto tput = [&](unsigned warps) {
		unsigned blocks = (warps + 3) / 4, th = warps < 4 ? 32 * warps : 128;
		double t0 = now_s();
		k_pread<<<blocks, th>>>(g.client, fd, buf, quick ? 5 : 50);
		synced("throughput");
		return (double)blocks * th * (quick ? 5 : 50) / (now_s() - t0);
	};
	for (unsigned w : { 1u, 2u, 8u, 32u, 128u, 512u, 8448u }) {
		snprintf(b, sizeof(b), "{\"bench\":\"throughput\",\"warps\":%u,"
			 "\"op\":\"pread64\",\"calls_per_s\":%.0f}", w, tput(w));
		add(b);
	}
	for (unsigned w : { 0u, 5u, 20u })
		for (unsigned m : { 1u, 8u, 32u, 128u }) {
			sysgate_gpu_set_coalescing(g.srv, w, m);
			snprintf(b, sizeof(b), "{\"bench\":\"coalescing\","
				 "\"warps\":128,\"op\":\"pread64\",\"window_us\":"
				 "%u,\"max_batch\":%u,\"calls_per_s\":%.0f}",
				 w, m, tput(128));
			add(b);
		}
	sysgate_gpu_set_coalescing(g.srv, 0, 32);
	int nfd = open("/dev/null", O_WRONLY);
	char *msg = (char *)sysgate_gpu_cuda_alloc(&g, 64);
	unsigned long long *sink = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&g, 8);
	static const struct { const char *n; unsigned f; } modes[] = {
		{ "strong-block", SYSGATE_GPU_STRONG },
		{ "weak-block", SYSGATE_GPU_RELAXED },
		{ "strong-nonblock", SYSGATE_GPU_STRONG | SYSGATE_GPU_NONBLOCK },
		{ "weak-nonblock", SYSGATE_GPU_RELAXED | SYSGATE_GPU_NONBLOCK },
	};
	for (auto &m : modes) {
		double t0 = now_s();
		k_order<<<64, 256>>>(g.client, nfd, msg, quick ? 2 : 20, m.f,
				     sink);
		synced("ordering");
		sysgate_gpu_drain(g.srv, 10000);
		snprintf(b, sizeof(b), "{\"bench\":\"ordering\",\"mode\":\"%s\","
			 "\"granularity\":\"block\",\"blocks\":64,\"threads\":256,"
			 "\"op\":\"write\",\"ms\":%.3f}", m.n,
			 (now_s() - t0) * 1e3);
		add(b);
	}
	if (json) {
		printf("{\"schema\":1,\"tool\":\"sysgate-gpu-bench\",\"mode\":"
		       "\"gpu\",%s,\"nports\":%u,\"quick\":%s,\"results\":[",
		       g.desc, g.client.nports, quick ? "true" : "false");
		for (size_t i = 0; i < rows.size(); i++)
			printf("%s\n%s", i ? "," : "", rows[i].c_str());
		printf("\n]}\n");
	} else {
		printf("# mode: gpu {%s}\n", g.desc);
		for (auto &x : rows)
			printf("%s\n", x.c_str());
	}
	sysgate_gpu_cuda_stop(&g);
	return 0;
}
