// SPDX-License-Identifier: MIT
/*
 * lanes_ext.cc - CPU-lane cases for issue 24: calls that block (partners in
 * one warp, starvation, stop and timeout cancelling them), pointer and
 * length checks, block shapes and divergence, the bulk device-memory path.
 */
#include "lanes.h"

static void mkpipe(int p[2])
{
	CHECK(pipe(p) == 0, "pipe");
}

/* Lane 0 reads a pipe that lane 1 of the same warp writes: both finish. */
void case_pipe_partner()
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
void case_starve()
{
	env e(4);
	/* An idle worker that spins counts as idle: the blocked reads must
	 * still grow the pool around it. */
	sysgate_gpu_set_worker_spin(e.srv, 50);
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
void case_stop_inflight()
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
void case_timeout_cancel()
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
void case_mmap_fixed()
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
void case_uring_len()
{
	if (!sysgate_gpu_have_uring()) {
		printf("skip: built without io_uring\n");
		exit(77);
	}
	uint64_t params[16] = {};	/* struct io_uring_params, 120 bytes */
	long rfd = syscall(SYS_io_uring_setup, 1, params);
	if (rfd < 0) {
		printf("skip: io_uring unavailable here (%s)\n", strerror(errno));
		exit(77);
	}
	close((int)rfd);
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
void case_stage_nonblock()
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
void case_shape()
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
void case_diverge()
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
void case_bulk()
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
