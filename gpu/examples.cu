// SPDX-License-Identifier: MIT
/*
 * examples.cu - the GENESYS case studies on a real GPU: per-thread
 * pwrite/pread, wordcount (open/pread/close per block), a UDP echo server
 * (recvfrom/sendto per lane; also under a load generator that keeps 128
 * datagrams in flight), madvise, warp/grid granularity and
 * non-blocking calls, a 2-D block, lanes of one warp on both ends of a
 * pipe, a getppid served while two reads block, a timed-out read that is
 * cancelled, a bulk pread into device memory and wordcount over 128 MiB
 * read into device memory.  Error counters live in pinned host memory, so
 * they use system-scope atomics.
 *
 * usage: sysgate-gpu-examples [NAME...]   (default: all; --list names them)
 * Each example prints "NAME: ok ..." or "NAME: FAIL ..."; the exit status
 * is 1 when one failed, 77 (with the reason) when there is no device.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <time.h>
#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>
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
}

/* mmap, (write), MADV_DONTNEED, (read zeros), munmap from one thread. */
__global__ void k_madvise(sysgate_gpu_client c, bool touch, long long *res)
{
	dev_thread t(c);
	*res = madvise_release(t.a, 1 << 20, touch);
}

/* dim3(16, 2, 2): lanes 16..31 of each warp have threadIdx.x < 16. */
__global__ void k_2d(sysgate_gpu_client c, int fd, uint32_t *ids, int *bad)
{
	dev_thread t(c);
	unsigned k = threadIdx.x + blockDim.x * (threadIdx.y +
						  blockDim.y * threadIdx.z);
	ids[k] = k;
	if (t.a.pwrite(fd, &ids[k], 4, k * 4) != 4)
		atomicAdd_system(bad, 1);
}

/* Lane 0 reads what lane 1 of the same warp writes.  The string constant
 * lives in device memory, where the host cannot read it: staged. */
__global__ void k_pipe(sysgate_gpu_client c, int rfd, int wfd, char *buf,
		       int *bad)
{
	dev_thread t(c);
	int64_t r = threadIdx.x == 0 ? t.a.read(rfd, buf, 8) :
		t.a.write(wfd, "partner", 8, SYSGATE_GPU_STAGE);
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

/*
 * Warps 0 and 1 block in reads of two pipes; warp 2's getppid must be
 * answered while they wait (the host writes the pipes only after it saw
 * the flag, or after giving up on it).
 */
__global__ void k_starve(sysgate_gpu_client c, int ra, int rb, char *bufs,
			 long ppid, int *flag, int *bad)
{
	if (threadIdx.x % 32)
		return;
	dev_thread t(c);
	unsigned w = threadIdx.x / 32;
	if (w < 2) {
		if (t.a.read(w ? rb : ra, bufs + 8 * w, 8) != 8)
			atomicAdd_system(bad, 1);
		return;
	}
	if (t.a.syscall(SYS_getppid) != ppid)
		atomicAdd_system(bad, 1);
	atomicExch_system(flag, 1);
}

/* A UDP echo server: every lane echoes `rounds` datagrams. */
__global__ void k_udp_serve(sysgate_gpu_client c, int fd, lanebuf *lb,
			    unsigned rounds, int *bad)
{
	dev_thread t(c);
	unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
	for (unsigned i = 0; i < rounds; i++)
		if (udp_echo_lane(t.a, fd, lb[k].buf, 64, lb[k].addr,
				  &lb[k].alen) <= 0)
			atomicAdd_system(bad, 1);
}

/* One read with the client's (short) timeout: its result goes to *res. */
__global__ void k_read1(sysgate_gpu_client c, int fd, char *buf,
			long long *res)
{
	dev_thread t(c);
	*res = t.a.read(fd, buf, 8);
}

#define CK(c, ...) do { if (!(c)) { printf("FAIL: " __VA_ARGS__); \
	printf("\n"); return 1; } } while (0)

struct ctx {
	sysgate_gpu_cuda g;
	std::string dir;
	int *bad;
};

static bool launched(const char *what)
{
	cudaError_t e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		printf("FAIL: %s: %s\n", what, cudaGetErrorString(e));
	return e == cudaSuccess;
}

static double now_s()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* per-thread pwrite/pread, 8 blocks x 128 threads */
static int ex_rw(ctx &x)
{
	int fd = open((x.dir + "/rw").c_str(), O_RDWR | O_CREAT, 0600);
	uint64_t *buf = (uint64_t *)sysgate_gpu_cuda_alloc(&x.g, 2048 * 8);
	k_rw<<<8, 128>>>(x.g.client, fd, buf, x.bad);
	CK(launched("k_rw"), "k_rw");
	CK(*x.bad == 0, "rw: %d bad", *x.bad);
	close(fd);
	printf("rw: 1024 threads x pwrite+pread ok\n");
	return 0;
}

/* wordcount, one block per file */
static int ex_wordcount(ctx &x)
{
	const unsigned F = 16, cap = 4096;
	char *paths = (char *)sysgate_gpu_cuda_alloc(&x.g, F * 128);
	char *bufs = (char *)sysgate_gpu_cuda_alloc(&x.g, F * cap);
	unsigned long long *words = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&x.g, F * 8);
	unsigned long long want[F];
	for (unsigned f = 0; f < F; f++) {
		std::string p = x.dir + "/w" + std::to_string(f), t;
		want[f] = 100 + 37 * f;
		for (unsigned i = 0; i < want[f]; i++)
			t += "word" + std::to_string(i % 13) + (i % 5 ? " " : "\n");
		FILE *fp = fopen(p.c_str(), "w");
		fputs(t.c_str(), fp);
		fclose(fp);
		snprintf(paths + f * 128, 128, "%s", p.c_str());
	}
	k_wordcount<<<F, 128>>>(x.g.client, paths, bufs, cap, words);
	CK(launched("k_wordcount"), "k_wordcount");
	for (unsigned f = 0; f < F; f++)
		CK(words[f] == want[f], "file %u: %llu words, want %llu", f,
		   words[f], want[f]);
	printf("wordcount: %u files ok\n", F);
	return 0;
}

/* UDP echo, 16 lanes, the datagrams sent while the lanes wait */
static int ex_udp(ctx &x)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), cl = socket(AF_INET,
							      SOCK_DGRAM, 0);
	sockaddr_in sa = {};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, (sockaddr *)&sa, sizeof(sa));
	socklen_t sl = sizeof(sa);
	getsockname(s, (sockaddr *)&sa, &sl);
	lanebuf *lb = (lanebuf *)sysgate_gpu_cuda_alloc(&x.g,
						     16 * sizeof(lanebuf));
	k_udp<<<1, 16>>>(x.g.client, s, lb, x.bad);
	usleep(10000);
	for (int i = 0; i < 16; i++) {
		char m[32];
		int n = snprintf(m, sizeof(m), "dgram %d", i);
		sendto(cl, m, n, 0, (sockaddr *)&sa, sizeof(sa));
		usleep(1000);
	}
	CK(launched("k_udp"), "k_udp");
	CK(*x.bad == 0, "udp: %d lanes failed", *x.bad);
	timeval tv = { 5, 0 };
	setsockopt(cl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (int i = 0; i < 16; i++) {
		char m[64];
		CK(recv(cl, m, sizeof(m), 0) > 0, "no echo %d", i);
	}
	close(s);
	close(cl);
	printf("udp: 16 datagrams echoed ok\n");
	return 0;
}

/*
 * UDP echo under load: 64 lanes serve while a load generator keeps up to
 * 128 numbered datagrams in flight; every one must come back exactly once.
 */
static int ex_udp_load(ctx &x)
{
	const unsigned lanes = 64, rounds = 50, total = lanes * rounds;
	const unsigned window = 128;
	int s = socket(AF_INET, SOCK_DGRAM, 0), cl = socket(AF_INET,
							      SOCK_DGRAM, 0);
	sockaddr_in sa = {};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CK(bind(s, (sockaddr *)&sa, sizeof(sa)) == 0, "bind");
	socklen_t sl = sizeof(sa);
	getsockname(s, (sockaddr *)&sa, &sl);
	timeval tv = { 5, 0 };
	setsockopt(cl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	lanebuf *lb = (lanebuf *)sysgate_gpu_cuda_alloc(&x.g,
						     lanes * sizeof(lanebuf));
	k_udp_serve<<<2, lanes / 2>>>(x.g.client, s, lb, rounds, x.bad);
	std::vector<double> sent(total), rtt;
	std::vector<unsigned char> seen(total);
	std::atomic<unsigned> back{ 0 };
	std::atomic<unsigned> lost{ 0 };
	unsigned dup = 0, bogus = 0;
	double t0 = now_s();
	std::thread rx([&] {
		char m[64];
		while (back < total) {
			ssize_t n = recv(cl, m, sizeof(m) - 1, 0);
			if (n <= 0) {
				lost = total - back;
				break;
			}
			m[n] = 0;
			unsigned i = (unsigned)strtoul(m, 0, 10);
			if (i >= total)
				bogus++;
			else if (seen[i]++)
				dup++;
			else
				rtt.push_back(now_s() - sent[i]);
			back++;
		}
	});
	for (unsigned i = 0; i < total && !lost; i++) {
		while (i - back >= window && !lost)
			usleep(1);
		char m[32];
		int n = snprintf(m, sizeof(m), "%u", i);
		sent[i] = now_s();
		sendto(cl, m, n, 0, (sockaddr *)&sa, sizeof(sa));
	}
	rx.join();
	double secs = now_s() - t0;
	CK(launched("k_udp_serve"), "k_udp_serve");
	CK(!lost && !dup && !bogus && *x.bad == 0,
	   "udp-load: %u lost, %u duplicated, %u unknown, %d lane errors",
	   lost.load(), dup, bogus, *x.bad);
	std::sort(rtt.begin(), rtt.end());
	close(s);
	close(cl);
	printf("udp-load: %u datagrams echoed by %u lanes, %u in flight: "
	       "%.0f/s, echo p50 %.0f us, p99 %.0f us ok\n", total, lanes,
	       window, total / secs, rtt[rtt.size() / 2] * 1e6,
	       rtt[rtt.size() * 99 / 100] * 1e6);
	return 0;
}

/* warp/grid granularity, non-blocking writes */
static int ex_misc(ctx &x)
{
	int fd = open((x.dir + "/nb").c_str(), O_RDWR | O_CREAT, 0600);
	uint64_t *nb = (uint64_t *)sysgate_gpu_cuda_alloc(&x.g, 256 * 8);
	k_misc<<<2, 128>>>(x.g.client, fd, nb, (long)getppid(), x.bad);
	CK(launched("k_misc"), "k_misc");
	CK(sysgate_gpu_drain(x.g.srv, 5000) == 0, "drain");
	CK(*x.bad == 0, "misc: %d bad", *x.bad);
	for (unsigned k = 0; k < 256; k++) {
		uint64_t v = 0;
		CK(pread(fd, &v, 8, k * 8) == 8 && v == ~(uint64_t)k,
		   "nonblocking record %u", k);
	}
	close(fd);
	printf("misc: warp/grid granularity, 256 non-blocking writes ok\n");
	return 0;
}

/*
 * madvise from the GPU.  Where the GPU can reach pageable memory (HMM),
 * it writes the pages it mapped and must read zeros after MADV_DONTNEED;
 * elsewhere it cannot touch them and only the calls are checked.
 */
static int ex_madvise(ctx &x)
{
	int dev = 0, pageable = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, dev);
	long long *res = (long long *)sysgate_gpu_cuda_alloc(&x.g, 8);
	k_madvise<<<1, 1>>>(x.g.client, pageable != 0, res);
	CK(launched("k_madvise"), "k_madvise");
	CK(*res == 0, "madvise: %lld", *res);
	printf("madvise: mmap, MADV_DONTNEED, munmap ok (%s)\n", pageable ?
	       "pages written by the GPU, zero after MADV_DONTNEED" :
	       "pages not touched: no pageable memory access");
	return 0;
}

/* a 2-D block: lane ids from %laneid */
static int ex_2d(ctx &x)
{
	int fd = open((x.dir + "/2d").c_str(), O_RDWR | O_CREAT, 0600);
	uint32_t *ids = (uint32_t *)sysgate_gpu_cuda_alloc(&x.g, 64 * 4);
	k_2d<<<1, dim3(16, 2, 2)>>>(x.g.client, fd, ids, x.bad);
	CK(launched("k_2d"), "k_2d");
	CK(*x.bad == 0, "2d: %d bad", *x.bad);
	for (unsigned k = 0; k < 64; k++) {
		uint32_t v = ~0u;
		CK(pread(fd, &v, 4, k * 4) == 4 && v == k, "2d: thread %u", k);
	}
	close(fd);
	printf("2d: dim3(16,2,2) block ok\n");
	return 0;
}

/* blocking partners in one warp */
static int ex_pipe(ctx &x)
{
	int pp[2];
	CK(pipe(pp) == 0, "pipe");
	char *pbuf = (char *)sysgate_gpu_cuda_alloc(&x.g, 8);
	k_pipe<<<1, 2>>>(x.g.client, pp[0], pp[1], pbuf, x.bad);
	CK(launched("k_pipe"), "k_pipe");
	CK(*x.bad == 0 && !memcmp(pbuf, "partner", 8), "pipe partners");
	close(pp[0]);
	close(pp[1]);
	printf("pipe: read and write of one pipe in one warp ok\n");
	return 0;
}

/* a getppid answered while two reads of the same launch block */
static int ex_starve(ctx &x)
{
	int a[2], b[2];
	CK(pipe(a) == 0 && pipe(b) == 0, "pipe");
	char *bufs = (char *)sysgate_gpu_cuda_alloc(&x.g, 16);
	int *flag = (int *)sysgate_gpu_cuda_alloc(&x.g, sizeof(int));
	k_starve<<<1, 96>>>(x.g.client, a[0], b[0], bufs, (long)getppid(),
			     flag, x.bad);
	double t0 = now_s(), seen = -1;
	while (now_s() - t0 < 5) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
			seen = now_s() - t0;
			break;
		}
		usleep(100);
	}
	CK(write(a[1], "blocked0", 8) == 8 && write(b[1], "blocked1", 8) == 8,
	   "pipe write");
	CK(launched("k_starve"), "k_starve");
	CK(seen >= 0, "starve: getppid not answered in 5 s behind two "
	   "blocked reads");
	CK(*x.bad == 0 && !memcmp(bufs, "blocked0blocked1", 16),
	   "starve: %d bad", *x.bad);
	for (int fd : { a[0], a[1], b[0], b[1] })
		close(fd);
	printf("starve: getppid answered after %.1f ms while two reads "
	       "blocked ok\n", seen * 1e3);
	return 0;
}

/* A read that times out is cancelled: -ETIMEDOUT, its buffer untouched,
 * the data written later stays in the pipe, and the port serves again. */
static int ex_cancel(ctx &x)
{
	int pp[2];
	CK(pipe(pp) == 0, "pipe");
	char *buf = (char *)sysgate_gpu_cuda_alloc(&x.g, 8);
	long long *res = (long long *)sysgate_gpu_cuda_alloc(&x.g, 8);
	sysgate_gpu_client c = x.g.client;
	c.timeout_ns = 300 * 1000000ull;
	double t0 = now_s();
	k_read1<<<1, 1>>>(c, pp[0], buf, res);
	CK(launched("k_read1"), "k_read1");
	double took = now_s() - t0;
	CK(*res == -ETIMEDOUT, "cancel: read returned %lld, want -ETIMEDOUT",
	   *res);
	CK(write(pp[1], "late-dat", 8) == 8, "pipe write");
	usleep(100000);
	static const char zero[8] = {};
	CK(!memcmp(buf, zero, 8), "cancel: the buffer was written after the "
	   "timeout");
	char got[8];
	CK(read(pp[0], got, 8) == 8 && !memcmp(got, "late-dat", 8),
	   "cancel: the late data did not stay in the pipe");
	CK(write(pp[1], "next-one", 8) == 8, "pipe write");
	k_read1<<<1, 1>>>(x.g.client, pp[0], buf, res);
	CK(launched("k_read1 (again)"), "k_read1");
	CK(*res == 8 && !memcmp(buf, "next-one", 8), "cancel: next read %lld",
	   *res);
	close(pp[0]);
	close(pp[1]);
	printf("cancel: read timed out after %.0f ms, cancelled, buffer "
	       "untouched, next read ok\n", took * 1e3);
	return 0;
}

/* bulk pread into device memory */
static int ex_bulk(ctx &x)
{
	const size_t blen = 1 << 20;
	std::string bdata(blen, 0);
	for (size_t i = 0; i < blen; i++)
		bdata[i] = (char)(i >> 12);
	int fd = open((x.dir + "/bulk").c_str(), O_RDWR | O_CREAT, 0600);
	CK(pwrite(fd, bdata.data(), blen, 0) == (ssize_t)blen, "bulk file");
	unsigned char *dev = (unsigned char *)
		sysgate_gpu_cuda_alloc_device(&x.g, blen);
	CK(dev, "device buffer");
	k_bulk<<<1, 1>>>(x.g.client, fd, dev, blen, x.bad);
	CK(launched("k_bulk"), "k_bulk");
	CK(*x.bad == 0, "bulk: %d bad", *x.bad);
	sysgate_gpu_cuda_free_device(&x.g, dev);
	close(fd);
	printf("bulk: 1 MiB pread into device memory ok\n");
	return 0;
}

/* wordcount over 128 MiB, read into device memory 4 MiB a time */
static int ex_bigwc(ctx &x)
{
	const unsigned BF = 8, bcap = 4u << 20;
	const size_t fsz = 16u << 20;
	char *bpaths = (char *)sysgate_gpu_cuda_alloc(&x.g, BF * 128);
	unsigned long long *bwords = (unsigned long long *)
		sysgate_gpu_cuda_alloc(&x.g, BF * 8);
	std::string chunk;
	while (chunk.size() < fsz)
		chunk += "gpu word count\n";	/* 3 words per 15 bytes */
	chunk.resize(fsz - fsz % 15);
	for (unsigned f = 0; f < BF; f++) {
		std::string p = x.dir + "/big" + std::to_string(f);
		FILE *fp = fopen(p.c_str(), "w");
		CK(fp && fwrite(chunk.data(), 1, chunk.size(), fp) == chunk.size(),
		   "big file");
		fclose(fp);
		snprintf(bpaths + f * 128, 128, "%s", p.c_str());
	}
	char *dbufs = (char *)sysgate_gpu_cuda_alloc_device(&x.g,
							     (size_t)BF * bcap);
	CK(dbufs, "device buffers");
	double t0 = now_s();
	k_wordcount<<<BF, 256>>>(x.g.client, bpaths, dbufs, bcap, bwords);
	CK(launched("k_wordcount (device)"), "k_wordcount");
	double s = now_s() - t0;
	for (unsigned f = 0; f < BF; f++)
		CK(bwords[f] == chunk.size() / 15 * 3,
		   "big file %u: %llu words, want %zu", f, bwords[f],
		   chunk.size() / 15 * 3);
	sysgate_gpu_cuda_free_device(&x.g, dbufs);
	printf("bigwc: %u x 16 MiB into device memory ok (%.1f ms, %.2f GB/s)\n",
	       BF, s * 1e3, BF * chunk.size() / s / 1e9);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(ctx &);
} examples[] = {
	{ "rw", ex_rw }, { "wordcount", ex_wordcount }, { "udp", ex_udp },
	{ "udp-load", ex_udp_load }, { "misc", ex_misc }, { "madvise", ex_madvise }, { "2d", ex_2d }, { "pipe", ex_pipe },
	{ "starve", ex_starve }, { "cancel", ex_cancel }, { "bulk", ex_bulk },
	{ "bigwc", ex_bigwc },
};

static int remove_one(const char *path, const struct stat *, int, FTW *)
{
	return remove(path);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (auto &e : examples)
			printf("%s\n", e.name);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		bool known = false;
		for (auto &e : examples)
			known |= !strcmp(argv[i], e.name);
		if (!known) {
			fprintf(stderr, "sysgate-gpu-examples: no example "
				"'%s' (--list names them)\n", argv[i]);
			return 2;
		}
	}
	ctx x;
	int r = sysgate_gpu_cuda_start(&x.g, 0, 256, 0);
	if (r == -ENODEV) {
		printf("skip: %s\n", x.g.desc);
		return 77;
	}
	if (r) {
		printf("FAIL: start: %d (%s)\n", r, x.g.desc);
		return 1;
	}
	printf("device: {%s}\n", x.g.desc);
	char tmpl[] = "/tmp/sg-gpu-ex-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		return 1;
	}
	x.dir = tmpl;
	x.bad = (int *)sysgate_gpu_cuda_alloc(&x.g, sizeof(int));
	int failed = 0;
	for (auto &e : examples) {
		bool chosen = argc == 1;
		for (int i = 1; i < argc; i++)
			chosen |= !strcmp(argv[i], e.name);
		if (!chosen)
			continue;
		*x.bad = 0;
		fflush(stdout);
		if (e.run(x)) {
			printf("%s: FAIL\n", e.name);
			failed++;
		}
		fflush(stdout);
	}
	sysgate_gpu_cuda_stop(&x.g);
	nftw(x.dir.c_str(), remove_one, 8, FTW_DEPTH | FTW_PHYS);
	if (failed)
		return 1;
	printf("EXIT-SUCCESS\n");
	return 0;
}
