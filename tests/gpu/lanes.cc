// SPDX-License-Identifier: MIT
/*
 * lanes.cc - the GPU syscall protocol driven by CPU threads standing in
 * for GPU lanes, against the real host runtime and real files, sockets and
 * memory.  One case per invocation: `lanes CASE`; exit 0 pass, 1 fail.
 */
#include "lanes.h"

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
			sysgate_gpu_set_worker_spin(e.srv, g() % 2 ? 0 :
						    g() % 100);
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
