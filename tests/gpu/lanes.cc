// SPDX-License-Identifier: MIT
/*
 * lanes.cc - the GPU syscall protocol driven by CPU threads standing in
 * for GPU lanes, against the real host runtime and real files, sockets and
 * memory.  One case per invocation: `lanes CASE`; exit 0 pass, 1 fail.
 */
#include <arpa/inet.h>
#include <fcntl.h>
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

static void fail(const char *fmt, ...)
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

static std::string tmpdir()
{
	const char *t = getenv("TMPDIR");
	std::string d = std::string(t ? t : "/tmp") + "/sg-gpu-XXXXXX";
	std::vector<char> b(d.begin(), d.end());
	b.push_back(0);
	CHECK(mkdtemp(b.data()), "mkdtemp");
	return b.data();
}

static int mkfile(const std::string &path, const std::string &data)
{
	int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0, "open %s", path.c_str());
	CHECK(write(fd, data.data(), data.size()) == (ssize_t)data.size(),
	      "write");
	return fd;
}

/* Wait until the runtime has taken n transactions. */
static void wait_taken(env &e, uint64_t n)
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

static uint32_t round_mask(unsigned w, unsigned r)
{
	std::mt19937 g(w * 7919 + r * 104729 + 1);
	uint32_t m = (uint32_t)g();
	if (r % 5 == 0)
		m = 0xffffffffu;
	if (!m)
		m = 1u << (r & 31);
	return m;
}

/* ---- cases ---- */

/* One-lane warps: many CPU threads, fewer ports, blocking pwrite/pread. */
static void case_solo()
{
	const unsigned T = 16, N = 150;
	env e(4);
	std::string d = tmpdir();
	int fd = mkfile(d + "/solo", "");
	std::vector<uint64_t> buf(T * 2);
	e.reg(buf.data(), buf.size() * 8);
	std::vector<std::thread> th;
	std::atomic<int> bad{ 0 };
	for (unsigned t = 0; t < T; t++)
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
			for (unsigned i = 0; i < N; i++) {
				buf[2 * t] = (uint64_t)t << 32 | i;
				if (a.pwrite(fd, &buf[2 * t], 8, t * 8) != 8)
					bad++;
				if (a.pread(fd, &buf[2 * t + 1], 8, t * 8) != 8 ||
				    buf[2 * t + 1] != buf[2 * t])
					bad++;
			}
		});
	for (auto &x : th)
		x.join();
	CHECK(!bad, "%d bad results", bad.load());
	for (unsigned t = 0; t < T; t++) {
		uint64_t v;
		CHECK(pread(fd, &v, 8, t * 8) == 8, "pread");
		CHECK(v == ((uint64_t)t << 32 | (N - 1)), "final value lane %u",
		      t);
	}
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.calls == 2ull * T * N, "calls %llu",
	      (unsigned long long)st.calls);
	printf("solo: %u threads x %u round trips ok\n", T, 2 * N);
}

/* 32-lane emulated warps, random partial masks, different calls per lane. */
static void case_warp()
{
	const unsigned W = 3, R = 30;
	env e(2);
	std::string d = tmpdir();
	std::string ref(32 * 16, 0);
	for (size_t i = 0; i < ref.size(); i++)
		ref[i] = (char)('a' + i % 23);
	int rfd = mkfile(d + "/ref", ref);
	int wfd = mkfile(d + "/out", "");
	std::vector<uint64_t> wbuf(W * 32), rbuf(W * 32 * 2);
	std::vector<uint64_t> last(W * 32, 0);
	e.reg(wbuf.data(), wbuf.size() * 8);
	e.reg(rbuf.data(), rbuf.size() * 8);
	std::atomic<int> bad{ 0 };
	long ppid = getppid();
	run_warps(W, [&](cpu_warp_shared &sh, unsigned w, unsigned l) {
		for (unsigned r = 0; r < R; r++) {
			uint32_t m = round_mask(w, r);
			if (m & (1u << l)) {
				cpu_warp cw{ &sh, l, m };
				api<thread_caller<cpu_warp> > a{ { e.c, cw },
								 e.c };
				unsigned k = w * 32 + l;
				int64_t ret;
				switch (l % 4) {
				case 0:
					wbuf[k] = (uint64_t)k << 32 | r;
					ret = a.pwrite(wfd, &wbuf[k], 8, k * 8);
					if (ret != 8)
						bad++;
					last[k] = wbuf[k];
					break;
				case 1:
					ret = a.pread(rfd, &rbuf[2 * k], 16,
						      l * 16);
					if (ret != 16 ||
					    memcmp(&rbuf[2 * k], &ref[l * 16],
						   16))
						bad++;
					break;
				case 2:
					ret = a.syscall(SYS_fstat, rfd,
							0 /* NULL: -EFAULT */);
					if (ret != -EFAULT)
						bad++;
					break;
				default:
					ret = a.syscall(SYS_getppid);
					if (ret != ppid)
						bad++;
				}
			}
			cpu_warp all{ &sh, l, 0xffffffffu };
			all.sync(0xffffffffu);
		}
	});
	CHECK(!bad, "%d bad lane results", bad.load());
	for (unsigned k = 0; k < W * 32; k++) {
		uint64_t v = 0;
		if (k % 4)
			continue;
		CHECK(pread(wfd, &v, 8, k * 8) >= 0, "pread");
		CHECK(v == last[k], "lane %u: file has %llx want %llx", k,
		      (unsigned long long)v, (unsigned long long)last[k]);
	}
	printf("warp: %u warps x %u rounds of partial masks ok\n", W, R);
}

/* Warp, block and grid granularity; barrier placement per ordering. */
static void case_gran()
{
	env e(2);
	std::string d = tmpdir();
	int afd = open((d + "/append").c_str(),
		       O_RDWR | O_CREAT | O_APPEND, 0600);
	CHECK(afd >= 0, "open");
	static char msg[8] = "0123456";
	e.reg(msg, sizeof(msg));
	std::atomic<int> bad{ 0 };
	long ppid = getppid();
	/* warp granularity: one call per warp, result to every lane */
	const unsigned R = 20;
	run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
		for (unsigned r = 0; r < R; r++) {
			uint32_t m = round_mask(5, r);
			if (m & (1u << l)) {
				cpu_warp cw{ &sh, l, m };
				api<warp_caller<cpu_warp> > a{ { e.c, cw },
							       e.c };
				if (a.syscall(SYS_getppid) != ppid)
					bad++;
				int64_t n = a.write(afd, msg, 7);
				if (n != 7)
					bad++;
			}
			cpu_warp all{ &sh, l, 0xffffffffu };
			all.sync(0xffffffffu);
		}
	});
	struct stat sb;
	CHECK(fstat(afd, &sb) == 0 && sb.st_size == 7 * R,
	      "warp granularity wrote %lld bytes, want %u",
	      (long long)sb.st_size, 7 * R);

	/* block granularity: count the barriers each ordering costs */
	const unsigned T = 12;
	cpu_block_shared bs;
	bs.n = T;
	struct expect {
		unsigned flags;
		unsigned bars;
		bool all_get_result;
	} ex[] = {
		{ SYSGATE_GPU_STRONG, 3, true },
		{ SYSGATE_GPU_RELAXED | SYSGATE_GPU_ROLE_PRODUCER, 1, false },
		{ SYSGATE_GPU_RELAXED | SYSGATE_GPU_ROLE_CONSUMER, 2, true },
		{ SYSGATE_GPU_STRONG | SYSGATE_GPU_NONBLOCK, 3, true },
		{ SYSGATE_GPU_RELAXED | SYSGATE_GPU_NONBLOCK | SYSGATE_GPU_ROLE_PRODUCER, 1, false },
	};
	std::vector<std::thread> th;
	std::vector<unsigned> bars_seen(5);
	for (unsigned t = 0; t < T; t++)
		th.emplace_back([&, t] {
			cpu_warp_shared ws;	/* each thread its own warp */
			cpu_warp cw{ &ws, 0, 1 };
			cpu_block b{ &bs, t };
			block_caller<cpu_warp, cpu_block> bc{ e.c, cw, b };
			for (unsigned i = 0; i < 5; i++) {
				b.bar();
				unsigned before;
				{
					std::lock_guard<std::mutex> g(bs.m);
					before = bs.bars;
				}
				b.bar();
				uint64_t a[6] = {};
				int64_t r = bc.sys(SYS_getppid, a, ex[i].flags);
				bool nb = ex[i].flags & SYSGATE_GPU_NONBLOCK;
				int64_t want = nb ? 0 : ppid;
				if (t == 0 || ex[i].all_get_result) {
					if (r != want)
						bad++;
				} else if (r != 0) {
					bad++;
				}
				b.bar();
				if (t == 0) {
					std::lock_guard<std::mutex> g(bs.m);
					bars_seen[i] = bs.bars - before - 2;
				}
				if (nb && t == 0)
					wait_all(e.c);
			}
		});
	for (auto &x : th)
		x.join();
	for (unsigned i = 0; i < 5; i++)
		CHECK(bars_seen[i] == ex[i].bars,
		      "block ordering %#x: %u barriers, want %u", ex[i].flags,
		      bars_seen[i], ex[i].bars);

	/* grid granularity: relaxed only, designated thread only */
	cpu_lane1 w{ 0 };
	uint64_t a[6] = {};
	CHECK(call_grid(e.c, w, true, SYS_getppid, a, SYSGATE_GPU_STRONG) == -EINVAL,
	      "strong grid call not refused");
	CHECK(call_grid(e.c, w, true, SYS_getppid, a, SYSGATE_GPU_RELAXED) == ppid,
	      "grid call");
	CHECK(call_grid(e.c, w, false, SYS_getppid, a, SYSGATE_GPU_RELAXED) == 0,
	      "non-designated grid thread");
	CHECK(!bad, "%d bad results", bad.load());
	printf("gran: warp, block (5 orderings), grid ok\n");
}

/* Non-blocking calls: fire and forget, then wait_all; check the file. */
static void case_nonblock()
{
	const unsigned T = 8, N = 60;
	env e(3);
	std::string d = tmpdir();
	int fd = mkfile(d + "/nb", "");
	std::vector<uint64_t> buf(T * N);
	e.reg(buf.data(), buf.size() * 8);
	std::vector<std::thread> th;
	std::atomic<int> bad{ 0 };
	for (unsigned t = 0; t < T; t++)
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
			for (unsigned i = 0; i < N; i++) {
				unsigned k = t * N + i;
				buf[k] = ~(uint64_t)k;
				if (a.pwrite(fd, &buf[k], 8, k * 8,
					     SYSGATE_GPU_NONBLOCK | SYSGATE_GPU_RELAXED) != 0)
					bad++;
			}
		});
	for (auto &x : th)
		x.join();
	{
		cpu_lane1 w{ 0 };
		api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
		CHECK(a.wait_all() == 0, "wait_all");
	}
	CHECK(sysgate_gpu_drain(e.srv, 5000) == 0, "drain");
	CHECK(!bad, "%d bad", bad.load());
	for (unsigned k = 0; k < T * N; k++) {
		uint64_t v = 0;
		CHECK(pread(fd, &v, 8, k * 8) == 8 && v == ~(uint64_t)k,
		      "record %u missing after wait_all", k);
	}
	for (unsigned p = 0; p < e.c.nports; p++)
		for (unsigned l = 0; l < 32; l++)
			CHECK(e.c.ports[p].lane[l].state == SYSGATE_GPU_SLOT_FREE,
			      "port %u lane %u not FREE after NORET", p, l);
	printf("nonblock: %u fire-and-forget writes drained ok\n", T * N);
}

/* Refused calls and pointer checks. */
static void case_refuse()
{
	env e(1, 0);
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	long refused[] = {
#ifdef SYS_fork
		SYS_fork,
#endif
#ifdef SYS_vfork
		SYS_vfork,
#endif
		SYS_clone, SYS_execve, SYS_exit_group, SYS_exit,
		SYS_sigaltstack, SYS_set_tid_address, SYS_rt_sigaction,
		SYS_ioctl, SYS_reboot, SYS_kill,
	};
	for (long nr : refused) {
		int64_t r = a.syscall((uint32_t)nr, 0, 0, 0, 0, 0, 0);
		CHECK(r == -ENOSYS, "syscall %ld returned %lld, want -ENOSYS",
		      nr, (long long)r);
	}
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.refused == sizeof(refused) / sizeof(refused[0]),
	      "refused %llu", (unsigned long long)st.refused);
	struct sysgate_gpu_sysinfo si;
	sysgate_gpu_classify(SYS_execve, &si);
	CHECK(si.cls == SYSGATE_GPU_CLASS_USELESS && si.why, "execve class");
	sysgate_gpu_classify(SYS_pread64, &si);
	CHECK(si.cls == SYSGATE_GPU_CLASS_USEFUL && si.role == SYSGATE_GPU_ROLE_CONSUMER,
	      "pread64 class");
	/* the appendix's verdicts, from sysgate's syscall table */
	CHECK(si.viable == SYSGATE_GPU_VIABLE_YES, "pread64 viable");
	sysgate_gpu_classify(SYS_sched_yield, &si);
	CHECK(si.viable == SYSGATE_GPU_VIABLE_NO, "sched_yield not viable");
	sysgate_gpu_classify(SYS_sched_setaffinity, &si);
	CHECK(si.viable == SYSGATE_GPU_VIABLE_LIMITED, "sched_setaffinity: CPU threads only");

	/* pointers outside registered memory */
	char local[16];
	std::string d = tmpdir();
	int fd = mkfile(d + "/f", "hello world");
	CHECK(a.pread(fd, local, 8, 0) == -EFAULT, "unregistered buffer");
	CHECK(a.open((d + "/f").c_str(), O_RDONLY) == -EFAULT,
	      "unregistered path without staging");
	static char reg[4096] __attribute__((aligned(4096)));
	e.reg(reg, sizeof(reg));
	CHECK(a.pread(fd, reg, 8, 0) == 8, "registered buffer");
	CHECK(a.pread(fd, reg + 4090, 8, 0) == -EFAULT, "straddling buffer");
	CHECK(a.munmap(reg, sizeof(reg)) == -EFAULT,
	      "munmap of memory the GPU did not map");
	CHECK(a.madvise(reg, sizeof(reg), MADV_WILLNEED) == 0,
	      "madvise on registered memory");
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.faults == 4, "faults %llu", (unsigned long long)st.faults);
	printf("refuse: %zu refused calls, 4 bad pointers ok\n",
	       sizeof(refused) / sizeof(refused[0]));
}

/* Staging: device-private buffers and paths copied through the port. */
static void case_stage()
{
	env e(1, 128);
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	std::string d = tmpdir();
	std::string path = d + "/staged";
	mkfile(path, "");
	int64_t fd = a.open(path.c_str(), O_RDWR);
	CHECK(fd >= 0, "staged open: %lld", (long long)fd);
	char out[64] = "staged payload", in[64] = {};
	CHECK(a.pwrite((int)fd, out, 15, 0, SYSGATE_GPU_STAGE) == 15, "staged pwrite");
	CHECK(a.pread((int)fd, in, 64, 0, SYSGATE_GPU_STAGE) == 15, "staged pread");
	CHECK(!memcmp(in, out, 15), "staged data");
	CHECK(a.pread((int)fd, in, 1000, 0, SYSGATE_GPU_STAGE) == -EINVAL,
	      "oversized stage");
	std::string lng(300, 'x');
	CHECK(a.open(lng.c_str(), O_RDONLY) == -ENAMETOOLONG, "long path");
	CHECK(a.close((int)fd) == 0, "close");
	printf("stage: staged open/pwrite/pread ok\n");
}

/* UDP echo server over loopback: each lane echoes one datagram. */
static void case_udp()
{
	const unsigned K = 8;
	env e(1);
	int s = socket(AF_INET, SOCK_DGRAM, 0), c = socket(AF_INET,
							     SOCK_DGRAM, 0);
	CHECK(s >= 0 && c >= 0, "socket");
	sockaddr_in sa{};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(s, (sockaddr *)&sa, sizeof(sa)) == 0, "bind");
	socklen_t sl = sizeof(sa);
	getsockname(s, (sockaddr *)&sa, &sl);
	struct lanebuf {
		char buf[64];
		char addr[128];
		uint32_t alen;
	};
	std::vector<lanebuf> lb(32);
	e.reg(lb.data(), lb.size() * sizeof(lanebuf));
	std::atomic<int> bad{ 0 };
	/* The load generator sends while the lanes already wait. */
	std::thread gen([&] {
		wait_taken(e, 1);
		for (unsigned i = 0; i < K; i++) {
			char m[32];
			int n = snprintf(m, sizeof(m), "datagram %u", i);
			CHECK(sendto(c, m, n, 0, (sockaddr *)&sa, sizeof(sa)) == n,
			      "send");
		}
	});
	run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
		uint32_t m = (1u << K) - 1;
		if (!(m & (1u << l)))
			return;
		cpu_warp cw{ &sh, l, m };
		api<thread_caller<cpu_warp> > a{ { e.c, cw }, e.c };
		int64_t r = udp_echo_lane(a, s, lb[l].buf, 64, lb[l].addr,
					  &lb[l].alen);
		if (r <= 0)
			bad++;
	});
	gen.join();
	CHECK(!bad, "%d lanes failed", bad.load());
	timeval tv = { 5, 0 };
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	unsigned seen = 0;
	for (unsigned i = 0; i < K; i++) {
		char m[64];
		ssize_t n = recv(c, m, sizeof(m) - 1, 0);
		CHECK(n > 0, "no echo %u", i);
		m[n] = 0;
		unsigned id;
		CHECK(sscanf(m, "datagram %u", &id) == 1 && id < K,
		      "bad echo '%s'", m);
		seen |= 1u << id;
	}
	CHECK(seen == (1u << K) - 1, "echoes %#x", seen);
	printf("udp: %u datagrams echoed by %u lanes ok\n", K, K);
}

/* Wordcount over many files, one emulated block per file. */
/*
 * F files of about `words` words each, one emulated block of T threads per
 * file reading it in cap-byte chunks into its buffer: registered host
 * memory, or device memory (the bulk path) when device is set.
 */
static void wordcount_files(unsigned F, unsigned words_min, unsigned cap,
			    bool device)
{
	const unsigned T = 8;
	env e(2, 256);
	std::string d = tmpdir();
	std::vector<std::string> paths;
	std::vector<int64_t> want(F);
	std::mt19937 g(42);
	for (unsigned f = 0; f < F; f++) {
		std::string txt;
		unsigned words = words_min + g() % 400;
		for (unsigned i = 0; i < words; i++) {
			unsigned len = 1 + g() % 9;
			for (unsigned j = 0; j < len; j++)
				txt += (char)('a' + g() % 26);
			txt += " \n\t"[g() % 3];
			if (g() % 7 == 0)
				txt += "  ";
		}
		want[f] = words;
		paths.push_back(d + "/f" + std::to_string(f));
		close(mkfile(paths.back(), txt));
	}
	std::vector<char> bufs((size_t)F * cap);
	if (device)
		CHECK(sysgate_gpu_register_device(e.srv, bufs.data(),
						  bufs.size()) == 0, "device");
	else
		e.reg(bufs.data(), bufs.size());
	std::vector<std::atomic<int64_t> > got(F);
	std::vector<cpu_block_shared> bs(F);
	std::vector<std::thread> th;
	for (unsigned f = 0; f < F; f++) {
		bs[f].n = T;
		for (unsigned t = 0; t < T; t++)
			th.emplace_back([&, f, t] {
				cpu_warp_shared ws;
				ws.id = f * T + t;
				cpu_warp cw{ &ws, 0, 1 };
				cpu_block b{ &bs[f], t };
				api<block_caller<cpu_warp, cpu_block> > a{
					{ e.c, cw, b }, e.c };
				got[f] += wordcount_block(a, t, T,
							  paths[f].c_str(),
							  &bufs[(size_t)f * cap],
							  cap);
			});
	}
	for (auto &x : th)
		x.join();
	for (unsigned f = 0; f < F; f++)
		CHECK(got[f] == want[f], "file %u: %lld words, want %lld", f,
		      (long long)got[f].load(), (long long)want[f]);
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(!device || st.bulk_bytes > 0, "not through the bulk path");
	printf("wordcount: %u files by %u-thread blocks%s ok\n", F, T,
	       device ? ", read into device memory" : "");
}

static void case_wordcount()
{
	wordcount_files(6, 50, 500 /* small: many chunks per file */, false);
}

/* The same over 4 files of about 2 MiB, read 1 MiB at a time into
 * device memory (gpu/examples.cu does 128 MiB on a GPU). */
static void case_wordcount_bulk()
{
	wordcount_files(4, 350000, 1u << 20, true);
}

static void case_madvise()
{
	env e(2);
	std::vector<std::thread> th;
	std::atomic<int> bad{ 0 };
	for (unsigned t = 0; t < 4; t++)
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
			for (int i = 0; i < 5; i++)
				if (madvise_release(a, 64 * 1024, true) != 0)
					bad++;
		});
	for (auto &x : th)
		x.join();
	CHECK(!bad, "%d madvise cycles failed", bad.load());
	printf("madvise: 20 map/use/release/unmap cycles ok\n");
}

/* Coalescing knobs and io_uring batches. */
static void case_coalesce()
{
	env e(1, 0, 300 /* us */, 8);
	std::string d = tmpdir();
	std::string ref(32 * 64, 0);
	for (size_t i = 0; i < ref.size(); i++)
		ref[i] = (char)(i * 7);
	int fd = mkfile(d + "/c", ref);
	std::vector<char> buf(32 * 64);
	e.reg(buf.data(), buf.size());
	std::atomic<int> bad{ 0 };
	auto round = [&](uint32_t m) {
		run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
			if (!(m & (1u << l)))
				return;
			cpu_warp cw{ &sh, l, m };
			api<thread_caller<cpu_warp> > a{ { e.c, cw }, e.c };
			memset(&buf[l * 64], 0, 64);
			if (a.pread(fd, &buf[l * 64], 64, l * 64) != 64 ||
			    memcmp(&buf[l * 64], &ref[l * 64], 64))
				bad++;
		});
	};
	sysgate_gpu_stats st;
	round(0xffffffffu);
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.max_batch_seen == 8 && st.batches == 4,
	      "window 300us, max 8: %llu batches, max %llu",
	      (unsigned long long)st.batches,
	      (unsigned long long)st.max_batch_seen);
	sysgate_gpu_set_coalescing(e.srv, 0, 64);
	sysgate_gpu_set_uring_min(e.srv, 4);
	round(0xffffffffu);
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.max_batch_seen == 32, "max batch %llu after raising it",
	      (unsigned long long)st.max_batch_seen);
	if (sysgate_gpu_have_uring())
		CHECK(st.uring_batches >= 1, "no io_uring batch");
	round(0x0f0f00f1u);
	CHECK(!bad, "%d bad lanes", bad.load());
	printf("coalesce: window/batch knobs ok, io_uring batches %llu\n",
	       (unsigned long long)st.uring_batches);
}

/* A lost server turns into errors, not hangs. */
static void case_timeout()
{
	env e(1);
	e.c.timeout_ns = 50 * 1000000ull;
	sysgate_gpu_server_stop(e.srv);
	e.srv = nullptr;
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	CHECK(a.syscall(SYS_getppid) == -ETIMEDOUT, "want -ETIMEDOUT");
	CHECK(a.syscall(SYS_getppid) == -EBUSY,
	      "want -EBUSY while the port is still the server's");
	CHECK(e.locks[0] == 0, "lock leaked");
	printf("timeout: -ETIMEDOUT then -EBUSY ok\n");
}

/* Everything at once, with the knobs changing underneath. */
static void case_stress()
{
	const unsigned T = 10, N = 120, W = 2, R = 25;
	env e(3, 64, 0, 16, 3);
	std::string d = tmpdir();
	int fd = mkfile(d + "/s", std::string((T * N + W * 32) * 8, 0));
	std::vector<uint64_t> buf(T * N + W * 32 * 2);
	e.reg(buf.data(), buf.size() * 8);
	std::atomic<int> bad{ 0 };
	std::atomic<bool> done{ false };
	std::thread knob([&] {
		std::mt19937 g(7);
		while (!done) {
			sysgate_gpu_set_coalescing(e.srv, g() % 50,
						   1 + g() % 40);
			sysgate_gpu_set_uring_min(e.srv, g() % 3 ? 0 : 2);
			usleep(500);
		}
	});
	std::vector<std::thread> th;
	for (unsigned t = 0; t < T; t++)
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
			for (unsigned i = 0; i < N; i++) {
				unsigned k = t * N + i;
				buf[k] = k * 0x9e3779b97f4a7c15ull;
				unsigned f = (i % 3) ? SYSGATE_GPU_NONBLOCK : 0;
				int64_t r = a.pwrite(fd, &buf[k], 8, k * 8, f);
				if (r != (f ? 0 : 8))
					bad++;
			}
		});
	std::vector<cpu_warp_shared> sh(W);
	for (unsigned w = 0; w < W; w++) {
		sh[w].id = 100 + w;
		for (unsigned l = 0; l < 32; l++)
			th.emplace_back([&, w, l] {
				for (unsigned r = 0; r < R; r++) {
					uint32_t m = round_mask(w + 9, r);
					if (m & (1u << l)) {
						cpu_warp cw{ &sh[w], l, m };
						api<thread_caller<cpu_warp> > a{
							{ e.c, cw }, e.c };
						unsigned k = T * N + w * 32 + l;
						uint64_t *src =
							&buf[T * N + W * 32 +
							     w * 32 + l];
						*src = r * 1000 + k;
						if (a.pwrite(fd, src, 8,
							     k * 8) != 8)
							bad++;
						uint64_t *dst = &buf[k];
						if (a.pread(fd, dst, 8,
							    k * 8) != 8 ||
						    *dst != *src)
							bad++;
					}
					cpu_warp all{ &sh[w], l, 0xffffffffu };
					all.sync(0xffffffffu);
				}
			});
	}
	for (auto &x : th)
		x.join();
	CHECK(sysgate_gpu_drain(e.srv, 5000) == 0, "drain");
	done = true;
	knob.join();
	CHECK(!bad, "%d bad results", bad.load());
	for (unsigned k = 0; k < T * N; k++) {
		uint64_t v = 0;
		CHECK(pread(fd, &v, 8, k * 8) == 8 &&
		      v == k * 0x9e3779b97f4a7c15ull, "record %u", k);
	}
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	printf("stress: %llu calls in %llu transactions, %llu batches "
	       "(%llu io_uring) ok\n", (unsigned long long)st.calls,
	       (unsigned long long)st.transactions,
	       (unsigned long long)st.batches,
	       (unsigned long long)st.uring_batches);
}


/* ---- blocking calls, cancellation, checks (issue 24) ---- */

static void mkpipe(int p[2])
{
	CHECK(pipe(p) == 0, "pipe");
}

/* Lane 0 reads a pipe that lane 1 of the same warp writes: both finish. */
static void case_pipe_partner()
{
	env e(1);
	int p[2];
	mkpipe(p);
	static char in[8], out[8] = "partner";
	e.reg(in, sizeof(in));
	e.reg(out, sizeof(out));
	std::atomic<int> bad{ 0 };
	run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
		if (l > 1)
			return;
		cpu_warp cw{ &sh, l, 3 };
		api<thread_caller<cpu_warp> > a{ { e.c, cw }, e.c };
		int64_t r = l == 0 ? a.read(p[0], in, 8) : a.write(p[1], out, 8);
		if (r != 8) {
			printf("lane %u: %lld\n", l, (long long)r);
			bad++;
		}
	});
	CHECK(!bad && !memcmp(in, out, 8), "pipe partners in one warp");
	printf("pipe-partner: read and write of one pipe in one warp ok\n");
}

/* Two calls blocked on empty pipes must not starve an unrelated call. */
static void case_starve()
{
	env e(4);
	int p[2][2];
	mkpipe(p[0]);
	mkpipe(p[1]);
	static char in[2][8];
	e.reg(in, sizeof(in));
	std::atomic<int> bad{ 0 };
	std::vector<std::thread> th;
	/* One reader at a time, so they travel in separate batches. */
	for (unsigned t = 0; t < 2; t++) {
		th.emplace_back([&, t] {
			cpu_lane1 w{ t };
			api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
			if (a.read(p[t][0], in[t], 8) != 8)
				bad++;
		});
		wait_taken(e, t + 1);
	}
	cpu_lane1 w{ 9 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	int64_t r = a.syscall(SYS_getppid);
	CHECK(r == getppid(), "getppid behind two blocked reads: %lld",
	      (long long)r);
	for (unsigned t = 0; t < 2; t++)
		CHECK(write(p[t][1], "released", 8) == 8, "write");
	for (auto &x : th)
		x.join();
	CHECK(!bad, "blocked readers failed");
	/* Again with both readers published at once (one batch, or two
	 * taken while both workers were idle). */
	for (unsigned round = 0; round < 5; round++) {
		sysgate_gpu_stats st;
		sysgate_gpu_get_stats(e.srv, &st);
		std::vector<std::thread> rd;
		for (unsigned t = 0; t < 2; t++)
			rd.emplace_back([&, t] {
				cpu_lane1 w{ t };
				api<thread_caller<cpu_lane1> > a{ { e.c, w },
								 e.c };
				if (a.read(p[t][0], in[t], 8) != 8)
					bad++;
			});
		wait_taken(e, st.transactions + 2);
		r = a.syscall(SYS_getppid);
		CHECK(r == getppid(), "round %u: getppid behind two blocked "
		      "reads: %lld", round, (long long)r);
		for (unsigned t = 0; t < 2; t++)
			CHECK(write(p[t][1], "released", 8) == 8, "write");
		for (auto &x : rd)
			x.join();
	}
	CHECK(!bad, "blocked readers failed");
	printf("starve: getppid served while two reads block ok\n");
}

/* Stopping the server with a blocked call in flight returns, and the
 * call never touches its buffer afterwards. */
static void case_stop_inflight()
{
	env e(2);
	e.c.timeout_ns = 200 * 1000000ull;
	int p[2];
	mkpipe(p);
	static char in[8];
	memset(in, '.', sizeof(in));
	e.reg(in, sizeof(in));
	int64_t r = 0;
	std::thread t([&] {
		cpu_lane1 w{ 0 };
		api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
		r = a.read(p[0], in, 8);
	});
	wait_taken(e, 1);
	sysgate_gpu_server_stop(e.srv);
	e.srv = nullptr;
	t.join();
	CHECK(r == -ECANCELED || r == -ETIMEDOUT, "read after stop: %lld",
	      (long long)r);
	CHECK(write(p[1], "too-late", 8) == 8, "write");
	char back[8];
	CHECK(read(p[0], back, 8) == 8 && !memcmp(back, "too-late", 8),
	      "the cancelled read consumed data");
	CHECK(!memcmp(in, "........", 8), "buffer touched after stop");
	printf("stop-inflight: stop returned with a read in flight ok\n");
}

/* A timed-out call is cancelled: data arriving later stays in the pipe
 * and the caller's buffer is never written. */
static void case_timeout_cancel()
{
	env e(1);
	int p[2];
	mkpipe(p);
	static char in[8];
	memset(in, '.', sizeof(in));
	e.reg(in, sizeof(in));
	sysgate_gpu_client c = e.c;
	c.timeout_ns = 100 * 1000000ull;
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { c, w }, c };
	int64_t r = a.read(p[0], in, 8);
	CHECK(r == -ETIMEDOUT, "read of an empty pipe: %lld", (long long)r);
	CHECK(write(p[1], "too-late", 8) == 8, "write");
	CHECK(sysgate_gpu_drain(e.srv, 20000) == 0, "drain");
	CHECK(!memcmp(in, "........", 8), "buffer written after the timeout");
	char back[8];
	CHECK(read(p[0], back, 8) == 8, "the timed-out read consumed data");
	api<thread_caller<cpu_lane1> > b{ { e.c, w }, e.c };
	CHECK(b.syscall(SYS_getppid) == getppid(), "port unusable after cancel");
	printf("timeout-cancel: timed-out read cancelled, buffer untouched ok\n");
}

/* MAP_FIXED may only replace mappings the GPU made itself. */
static void case_mmap_fixed()
{
	env e(1);
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	static char host[8192] __attribute__((aligned(4096)));
	memset(host, 'h', sizeof(host));
	e.reg(host, sizeof(host));
	int64_t r = a.mmap(host, 4096, PROT_READ | PROT_WRITE,
			   MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(r == -EFAULT, "MAP_FIXED over host memory: %lld", (long long)r);
	CHECK(host[0] == 'h' && host[4095] == 'h', "host mapping replaced");
	int64_t m = a.mmap(0, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m > 0, "mmap");
	r = a.mmap((void *)(uintptr_t)(m + 4096), 4096, PROT_READ,
		   MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(r == m + 4096, "MAP_FIXED inside the GPU's own mapping: %lld",
	      (long long)r);
	CHECK(a.munmap((void *)(uintptr_t)m, 8192) == 0, "munmap");
	/* A hole punched by munmap is no longer the GPU's to map over. */
	m = a.mmap(0, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m > 0, "mmap 3 pages");
	char *mp = (char *)(uintptr_t)m;
	CHECK(a.munmap(mp + 4096, 4096) == 0, "munmap the middle page");
	CHECK(a.mmap(mp + 4096, 4096, PROT_READ,
		     MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -EFAULT,
	      "MAP_FIXED into a hole the GPU unmapped");
	CHECK(a.munmap(mp + 8192, 4096) == 0, "munmap the upper page");
	CHECK(a.munmap(mp, 4096) == 0, "munmap the lower page");
	CHECK(a.munmap(mp, 4096) == -EFAULT, "munmap twice");
	printf("mmap-fixed: host mappings protected ok\n");
}

/* io_uring batches keep 64-bit lengths (the kernel caps them, not us). */
static void case_uring_len()
{
	if (!sysgate_gpu_have_uring()) {
		printf("skip: built without io_uring\n");
		exit(77);
	}
	env e(1);
	sysgate_gpu_set_uring_min(e.srv, 1);
	std::string d = tmpdir();
	int fd = mkfile(d + "/u", std::string(100, 'u'));
	size_t len = (4ull << 30) + 16;
	void *p = mmap(0, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(p != MAP_FAILED, "reserve 4 GiB");
	e.reg(p, len);
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	int64_t r = a.pread(fd, p, len, 0);
	CHECK(r == 100, "pread of 4 GiB + 16 through io_uring: %lld",
	      (long long)r);
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.uring_batches >= 1, "not through io_uring");
	munmap(p, len);
	printf("uring-len: 64-bit length kept ok\n");
}

/* A staged read cannot be non-blocking: the copy-out would be lost. */
static void case_stage_nonblock()
{
	env e(1, 128);
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	std::string d = tmpdir();
	int fd = mkfile(d + "/s", "staged data");
	char in[16] = {};
	int64_t r = a.pread(fd, in, 11, 0, SYSGATE_GPU_STAGE | SYSGATE_GPU_NONBLOCK);
	CHECK(r == -EINVAL, "non-blocking staged pread: %lld", (long long)r);
	CHECK(a.pwrite(fd, "STAGED", 6, 0, SYSGATE_GPU_STAGE | SYSGATE_GPU_NONBLOCK) == 0,
	      "non-blocking staged pwrite");
	CHECK(a.wait_all() == 0, "wait_all");
	CHECK(pread(fd, in, 11, 0) == 11 && !memcmp(in, "STAGED data", 11),
	      "staged non-blocking write");
	printf("stage-nonblock: refused, writes still staged ok\n");
}


/* 2-D and 3-D blocks with partial warps: every thread's own call, one
 * call per warp, one per block. */
static void case_shape()
{
	env e(4);
	std::string d = tmpdir();
	static const cpu_dim3 shapes[] = { { 16, 2, 1 }, { 10, 3, 2 },
					   { 7, 5, 3 }, { 33, 1, 1 } };
	static char msg[8] = "warp-->";
	e.reg(msg, sizeof(msg));
	std::atomic<int> bad{ 0 };
	long ppid = getppid();
	for (unsigned si = 0; si < 4; si++) {
		cpu_dim3 sh = shapes[si];
		unsigned n = sh.x * sh.y * sh.z, nw = (n + 31) / 32;
		int fd = mkfile(d + "/t" + std::to_string(si), "");
		int afd = open((d + "/w" + std::to_string(si)).c_str(),
			       O_RDWR | O_CREAT | O_APPEND, 0600);
		CHECK(afd >= 0, "open");
		std::vector<uint32_t> ids(n);
		e.reg(ids.data(), n * 4);
		run_block(sh, si, [&](cpu_warp &w, cpu_block &b, unsigned x,
				      unsigned y, unsigned z) {
			unsigned t = x + y * sh.x + z * sh.x * sh.y;
			ids[t] = t;
			api<thread_caller<cpu_warp> > ta{ { e.c, w }, e.c };
			if (ta.pwrite(fd, &ids[t], 4, t * 4) != 4)
				bad++;
			api<warp_caller<cpu_warp> > wa{ { e.c, w }, e.c };
			if (wa.write(afd, msg, 7) != 7)
				bad++;
			api<block_caller<cpu_warp, cpu_block> > ba{
				{ e.c, w, b }, e.c };
			if (ba.syscall(SYS_getppid) != ppid)
				bad++;
		});
		for (unsigned t = 0; t < n; t++) {
			uint32_t v = ~0u;
			CHECK(pread(fd, &v, 4, t * 4) == 4 && v == t,
			      "block %ux%ux%u: thread %u wrote %u", sh.x, sh.y,
			      sh.z, t, v);
		}
		struct stat sb;
		CHECK(fstat(afd, &sb) == 0 && sb.st_size == 7 * nw,
		      "block %ux%ux%u: %lld bytes of warp calls, want %u",
		      sh.x, sh.y, sh.z, (long long)sb.st_size, 7 * nw);
		sysgate_gpu_unregister(e.srv, ids.data());
		close(fd);
		close(afd);
	}
	CHECK(!bad, "%d bad results", bad.load());
	for (unsigned l = 0; l < e.c.nports; l++)
		CHECK(e.locks[l / 32] == 0, "port lock leaked");
	printf("shape: 2-D/3-D blocks, partial warps ok\n");
}

/*
 * After a divergent loop the lanes arrive in groups (what __activemask()
 * reports on a GPU with independent thread scheduling); a warp call still
 * makes exactly one call per arrival of the warp.
 */
static void case_diverge()
{
	env e(2);
	std::string d = tmpdir();
	int afd = open((d + "/append").c_str(),
		       O_RDWR | O_CREAT | O_APPEND, 0600);
	CHECK(afd >= 0, "open");
	static char msg[8] = "diverge";
	e.reg(msg, sizeof(msg));
	std::atomic<int> bad{ 0 };
	long ppid = getppid();
	const unsigned R = 5;
	run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
		for (unsigned r = 0; r < R; r++) {
			unsigned iters = l % 4 + 1;
			for (unsigned i = 0; i < iters; i++) {
				/* lanes still looping travel together */
				uint32_t g = 0;
				for (unsigned k = 0; k < 32; k++)
					if (k % 4 + 1 > i)
						g |= 1u << k;
				cpu_warp cw{ &sh, l, 0xffffffffu, g };
				api<thread_caller<cpu_warp> > a{ { e.c, cw },
								 e.c };
				if (a.syscall(SYS_getppid) != ppid)
					bad++;
			}
			/* leaving the loop: arrival groups by trip count */
			uint32_t g = 0;
			for (unsigned k = 0; k < 32; k++)
				if (k % 4 == l % 4)
					g |= 1u << k;
			cpu_warp cw{ &sh, l, 0xffffffffu, g };
			api<warp_caller<cpu_warp> > a{ { e.c, cw }, e.c };
			if (a.write(afd, msg, 7) != 7)
				bad++;
		}
	});
	struct stat sb;
	CHECK(fstat(afd, &sb) == 0 && sb.st_size == 7 * R,
	      "warp calls after a divergent loop wrote %lld bytes, want %u",
	      (long long)sb.st_size, 7 * R);
	CHECK(!bad, "%d bad results", bad.load());
	printf("diverge: one warp call per arrival after divergence ok\n");
}

/* Bulk reads and writes of "device memory" through the bounce path. */
static void case_bulk()
{
	env e(2);
	std::string d = tmpdir();
	const size_t len = 8u << 20;
	std::string data(len, 0);
	std::mt19937 g(3);
	for (size_t i = 0; i < len; i += 4) {
		uint32_t v = g();
		memcpy(&data[i], &v, 4);
	}
	int fd = mkfile(d + "/big", data);
	int wfd = mkfile(d + "/out", "");
	std::vector<char> dev(len + 4096, 0);	/* stands in for device memory */
	CHECK(sysgate_gpu_register_device(e.srv, dev.data(), dev.size()) == 0,
	      "register_device");
	struct counting {
		std::atomic<unsigned> copies{ 0 }, waits{ 0 };
	} cnt;
	sysgate_gpu_copier cp{};
	cp.copy = [](void *ctx, void *dst, const void *src, size_t n, int) {
		((counting *)ctx)->copies++;
		memcpy(dst, src, n);
		return 0;
	};
	cp.wait = [](void *ctx) {
		((counting *)ctx)->waits++;
		return 0;
	};
	cp.ctx = &cnt;
	cp.chunk = 1u << 20;
	sysgate_gpu_set_copier(e.srv, &cp);
	std::atomic<int> bad{ 0 };
	run_warps(1, [&](cpu_warp_shared &sh, unsigned, unsigned l) {
		if (l >= 4)
			return;
		cpu_warp cw{ &sh, l, 0xf };
		api<thread_caller<cpu_warp> > a{ { e.c, cw }, e.c };
		size_t q = len / 4;
		int64_t r = a.pread(fd, &dev[l * q], q, l * q);
		if (r != (int64_t)q)
			bad++;
	});
	CHECK(!bad, "bulk pread");
	CHECK(!memcmp(dev.data(), data.data(), len), "bulk pread data");
	CHECK(cnt.copies == 8, "copies %u, want 8 (1 MiB chunks)",
	      cnt.copies.load());
	cpu_lane1 w{ 0 };
	api<thread_caller<cpu_lane1> > a{ { e.c, w }, e.c };
	CHECK(a.write(wfd, dev.data(), 4096) == 4096, "bulk write");
	CHECK(a.pwrite(wfd, dev.data(), len, 4096) == (int64_t)len,
	      "bulk pwrite");
	CHECK(a.pread(fd, dev.data(), len + 4096, 0) == (int64_t)len,
	      "bulk pread at end of file");
	std::string back(len + 4096, 0);
	CHECK(pread(wfd, &back[0], back.size(), 0) == (ssize_t)back.size() &&
	      !memcmp(back.data(), data.data(), 4096) &&
	      !memcmp(&back[4096], data.data(), len), "bulk write data");
	/* other calls may not take device memory */
	CHECK(a.syscall(SYS_getrandom, (uint64_t)(uintptr_t)dev.data(), 16, 0) ==
	      -EFAULT, "getrandom into device memory");
	sysgate_gpu_stats st;
	sysgate_gpu_get_stats(e.srv, &st);
	CHECK(st.bulk_bytes == 3 * len + 4096, "bulk bytes %llu",
	      (unsigned long long)st.bulk_bytes);
	printf("bulk: 8 MiB in and out of device memory in 1 MiB chunks ok\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)();
	} cases[] = {
		{ "solo", case_solo }, { "warp", case_warp },
		{ "gran", case_gran }, { "nonblock", case_nonblock },
		{ "refuse", case_refuse }, { "stage", case_stage },
		{ "udp", case_udp }, { "wordcount", case_wordcount },
		{ "madvise", case_madvise }, { "coalesce", case_coalesce },
		{ "timeout", case_timeout }, { "stress", case_stress },
		{ "pipe-partner", case_pipe_partner },
		{ "starve", case_starve },
		{ "stop-inflight", case_stop_inflight },
		{ "timeout-cancel", case_timeout_cancel },
		{ "mmap-fixed", case_mmap_fixed },
		{ "uring-len", case_uring_len },
		{ "stage-nonblock", case_stage_nonblock },
		{ "shape", case_shape }, { "diverge", case_diverge },
		{ "bulk", case_bulk }, { "wordcount-bulk", case_wordcount_bulk },
	};
	if (argc != 2) {
		for (auto &c : cases)
			printf("%s\n", c.name);
		return 2;
	}
	for (auto &c : cases)
		if (!strcmp(argv[1], c.name)) {
			c.fn();
			return 0;
		}
	fprintf(stderr, "unknown case %s\n", argv[1]);
	return 2;
}
