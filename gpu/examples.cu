// SPDX-License-Identifier: MIT
/*
 * examples.cu - the GENESYS case studies on a real GPU: per-thread
 * pwrite/pread, wordcount (open/pread/close per block), a UDP echo server
 * (recvfrom/sendto per lane), madvise, warp/grid granularity and
 * non-blocking calls, a 2-D block, lanes of one warp on both ends of a
 * pipe, a bulk pread into device memory and wordcount over 128 MiB read
 * into device memory.  Error counters live in
 * pinned host memory, so they use system-scope atomics.  Exits 77 with the
 * reason when there is no device.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "sysgate_gpu.h"
#include "cuda_host.h"
#include "examples.h"

using namespace sysgate_gpu;

__global__ void k_rw(sysgate_gpu_client c, int fd, uint64_t *buf, int *bad)
{
	dev_thread t(c);
	unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
	buf[2 * k] = 0x5157000000000000ull | k;
	if (t.a.pwrite(fd, &buf[2 * k], 8, k * 8) != 8)
		atomicAdd_system(bad, 1);
	if (t.a.pread(fd, &buf[2 * k + 1], 8, k * 8) != 8 ||
	    buf[2 * k + 1] != buf[2 * k])
		atomicAdd_system(bad, 1);
}

__global__ void k_wordcount(sysgate_gpu_client c, const char *paths, char *bufs,
			    unsigned cap, unsigned long long *words)
{
	dev_block b(c);
	int64_t n = wordcount_block(b.a, threadIdx.x, blockDim.x,
				    paths + blockIdx.x * 128,
				    bufs + (size_t)blockIdx.x * cap, cap);
	atomicAdd_system(&words[blockIdx.x], (unsigned long long)n);
}

struct lanebuf {
	char buf[64];
	char addr[128];
	uint32_t alen;
};

__global__ void k_udp(sysgate_gpu_client c, int fd, lanebuf *lb, int *bad)
{
	dev_thread t(c);
	if (udp_echo_lane(t.a, fd, lb[threadIdx.x].buf, 64,
			  lb[threadIdx.x].addr, &lb[threadIdx.x].alen) <= 0)
		atomicAdd_system(bad, 1);
}

__global__ void k_misc(sysgate_gpu_client c, int fd, uint64_t *buf, long ppid,
		       int *bad)
{
	dev_warp w(c);
	if (w.a.syscall(SYS_getppid) != ppid)
		atomicAdd_system(bad, 1);
	dev_grid g(c);
	int64_t r = g.a.syscall(SYS_getppid, 0, 0, 0, 0, 0, 0, SYSGATE_GPU_RELAXED);
	if (r != (g.a.g.designated ? ppid : 0))
		atomicAdd_system(bad, 1);
	if (g.a.syscall(SYS_getppid) != -EINVAL)	/* strong grid */
		atomicAdd_system(bad, 1);
	dev_thread t(c);
	unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
	buf[k] = ~(uint64_t)k;
	if (t.a.pwrite(fd, &buf[k], 8, k * 8, SYSGATE_GPU_NONBLOCK | SYSGATE_GPU_RELAXED))
		atomicAdd_system(bad, 1);
	if (threadIdx.x == 0 && t.a.wait_all())
		atomicAdd_system(bad, 1);
	if (threadIdx.x == 0 && madvise_release(t.a, 1 << 20, false))
		atomicAdd_system(bad, 1);
}

/* dim3(16, 2): lanes 16..31 of each warp have threadIdx.x < 16. */
__global__ void k_2d(sysgate_gpu_client c, int fd, uint32_t *ids, int *bad)
{
	dev_thread t(c);
	unsigned k = threadIdx.x + threadIdx.y * blockDim.x;
	ids[k] = k;
	if (t.a.pwrite(fd, &ids[k], 4, k * 4) != 4)
		atomicAdd_system(bad, 1);
}

/* Lane 0 reads what lane 1 of the same warp writes. */
__global__ void k_pipe(sysgate_gpu_client c, int rfd, int wfd, char *buf,
		       int *bad)
{
	dev_thread t(c);
	int64_t r = threadIdx.x == 0 ? t.a.read(rfd, buf, 8) :
		t.a.write(wfd, "partner", 8);
	if (r != 8)
		atomicAdd_system(bad, 1);
}

/* One thread reads 1 MiB straight into device memory. */
__global__ void k_bulk(sysgate_gpu_client c, int fd, unsigned char *dev,
		       size_t len, int *bad)
{
	dev_thread t(c);
	if (t.a.pread(fd, dev, len, 0) != (int64_t)len)
		atomicAdd_system(bad, 1);
	for (size_t i = 0; i < len; i += 4096)
		if (dev[i] != (unsigned char)(i >> 12))
			atomicAdd_system(bad, 1);
}

#define CK(c, ...) do { if (!(c)) { printf("FAIL: " __VA_ARGS__); \
	printf("\n"); exit(1); } } while (0)

int main()
{
	sysgate_gpu_cuda g;
	int r = sysgate_gpu_cuda_start(&g, 0, 256, 0);
	if (r == -ENODEV) {
		printf("skip: %s\n", g.desc);
		return 77;
	}
	CK(r == 0, "start: %d", r);
	printf("device: {%s}\n", g.desc);
	char tmpl[] = "/tmp/sg-gpu-ex-XXXXXX";
	CK(mkdtemp(tmpl), "mkdtemp");
	std::string dir = tmpl;
	int *bad = (int *)sysgate_gpu_cuda_alloc(&g, sizeof(int));

	/* 1. per-thread pwrite/pread, 8 blocks x 128 threads */
	int fd = open((dir + "/rw").c_str(), O_RDWR | O_CREAT, 0600);
	uint64_t *buf = (uint64_t *)sysgate_gpu_cuda_alloc(&g, 2048 * 8);
	k_rw<<<8, 128>>>(g.client, fd, buf, bad);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_rw");
	CK(*bad == 0, "rw: %d bad", *bad);
	printf("rw: 1024 threads x pwrite+pread ok\n");

	/* 2. wordcount, one block per file */
	const unsigned F = 16, cap = 4096;
	char *paths = (char *)sysgate_gpu_cuda_alloc(&g, F * 128);
	char *bufs = (char *)sysgate_gpu_cuda_alloc(&g, F * cap);
	unsigned long long *words = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&g, F * 8);
	unsigned long long want[F];
	for (unsigned f = 0; f < F; f++) {
		std::string p = dir + "/w" + std::to_string(f), t;
		want[f] = 100 + 37 * f;
		for (unsigned i = 0; i < want[f]; i++)
			t += "word" + std::to_string(i % 13) + (i % 5 ? " " : "\n");
		FILE *fp = fopen(p.c_str(), "w");
		fputs(t.c_str(), fp);
		fclose(fp);
		snprintf(paths + f * 128, 128, "%s", p.c_str());
	}
	k_wordcount<<<F, 128>>>(g.client, paths, bufs, cap, words);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_wordcount");
	for (unsigned f = 0; f < F; f++)
		CK(words[f] == want[f], "file %u: %llu words, want %llu", f,
		   words[f], want[f]);
	printf("wordcount: %u files ok\n", F);

	/* 3. UDP echo, 16 lanes */
	int s = socket(AF_INET, SOCK_DGRAM, 0), cl = socket(AF_INET,
							      SOCK_DGRAM, 0);
	sockaddr_in sa = {};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, (sockaddr *)&sa, sizeof(sa));
	socklen_t sl = sizeof(sa);
	getsockname(s, (sockaddr *)&sa, &sl);
	lanebuf *lb = (lanebuf *)sysgate_gpu_cuda_alloc(&g, 16 * sizeof(lanebuf));
	/* The launch is asynchronous: the datagrams arrive while the lanes
	 * already wait in recvfrom. */
	k_udp<<<1, 16>>>(g.client, s, lb, bad);
	usleep(10000);
	for (int i = 0; i < 16; i++) {
		char m[32];
		int n = snprintf(m, sizeof(m), "dgram %d", i);
		sendto(cl, m, n, 0, (sockaddr *)&sa, sizeof(sa));
	}
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_udp");
	CK(*bad == 0, "udp: %d lanes failed", *bad);
	timeval tv = { 5, 0 };
	setsockopt(cl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (int i = 0; i < 16; i++) {
		char m[64];
		CK(recv(cl, m, sizeof(m), 0) > 0, "no echo %d", i);
	}
	printf("udp: 16 datagrams echoed ok\n");

	/* 4. warp/grid granularity, non-blocking writes, madvise */
	int fd2 = open((dir + "/nb").c_str(), O_RDWR | O_CREAT, 0600);
	uint64_t *nb = (uint64_t *)sysgate_gpu_cuda_alloc(&g, 256 * 8);
	k_misc<<<2, 128>>>(g.client, fd2, nb, (long)getppid(), bad);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_misc");
	CK(sysgate_gpu_drain(g.srv, 5000) == 0, "drain");
	CK(*bad == 0, "misc: %d bad", *bad);
	for (unsigned k = 0; k < 256; k++) {
		uint64_t v = 0;
		CK(pread(fd2, &v, 8, k * 8) == 8 && v == ~(uint64_t)k,
		   "nonblocking record %u", k);
	}
	printf("misc: warp/grid granularity, 256 non-blocking writes, "
	       "madvise ok\n");
	/* 5. a 2-D block: lane ids from %laneid */
	int fd3 = open((dir + "/2d").c_str(), O_RDWR | O_CREAT, 0600);
	uint32_t *ids = (uint32_t *)sysgate_gpu_cuda_alloc(&g, 64 * 4);
	k_2d<<<1, dim3(16, 2, 2)>>>(g.client, fd3, ids, bad);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_2d");
	CK(*bad == 0, "2d: %d bad", *bad);
	for (unsigned k = 0; k < 64; k++) {
		uint32_t v = ~0u;
		CK(pread(fd3, &v, 4, k * 4) == 4 && v == k, "2d: thread %u", k);
	}
	printf("2d: dim3(16,2,2) block ok\n");

	/* 6. blocking partners in one warp */
	int pp[2];
	CK(pipe(pp) == 0, "pipe");
	char *pbuf = (char *)sysgate_gpu_cuda_alloc(&g, 8);
	k_pipe<<<1, 2>>>(g.client, pp[0], pp[1], pbuf, bad);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_pipe");
	CK(*bad == 0 && !memcmp(pbuf, "partner", 8), "pipe partners");
	printf("pipe: read and write of one pipe in one warp ok\n");

	/* 7. bulk pread into device memory */
	const size_t blen = 1 << 20;
	std::string bdata(blen, 0);
	for (size_t i = 0; i < blen; i++)
		bdata[i] = (char)(i >> 12);
	int fd4 = open((dir + "/bulk").c_str(), O_RDWR | O_CREAT, 0600);
	CK(pwrite(fd4, bdata.data(), blen, 0) == (ssize_t)blen, "bulk file");
	unsigned char *dev = (unsigned char *)
		sysgate_gpu_cuda_alloc_device(&g, blen);
	k_bulk<<<1, 1>>>(g.client, fd4, dev, blen, bad);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_bulk");
	CK(*bad == 0, "bulk: %d bad", *bad);
	printf("bulk: 1 MiB pread into device memory ok\n");

	/* 8. wordcount over 128 MiB, read into device memory 4 MiB a time */
	const unsigned BF = 8, bcap = 4u << 20;
	const size_t fsz = 16u << 20;
	char *bpaths = (char *)sysgate_gpu_cuda_alloc(&g, BF * 128);
	unsigned long long *bwords = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&g, BF * 8);
	std::string chunk;
	while (chunk.size() < fsz)
		chunk += "gpu word count\n";	/* 4 words per 15 bytes */
	chunk.resize(fsz - fsz % 15);
	for (unsigned f = 0; f < BF; f++) {
		std::string p = dir + "/big" + std::to_string(f);
		FILE *fp = fopen(p.c_str(), "w");
		CK(fp && fwrite(chunk.data(), 1, chunk.size(), fp) == chunk.size(),
		   "big file");
		fclose(fp);
		snprintf(bpaths + f * 128, 128, "%s", p.c_str());
	}
	char *dbufs = (char *)sysgate_gpu_cuda_alloc_device(&g,
							     (size_t)BF * bcap);
	CK(dbufs, "device buffers");
	k_wordcount<<<BF, 256>>>(g.client, bpaths, dbufs, bcap, bwords);
	CK(cudaDeviceSynchronize() == cudaSuccess, "k_wordcount (device)");
	for (unsigned f = 0; f < BF; f++)
		CK(bwords[f] == chunk.size() / 15 * 4,
		   "big file %u: %llu words, want %zu", f, bwords[f],
		   chunk.size() / 15 * 4);
	printf("wordcount: %u x 16 MiB into device memory ok\n", BF);

	sysgate_gpu_cuda_stop(&g);
	printf("EXIT-SUCCESS\n");
	return 0;
}
