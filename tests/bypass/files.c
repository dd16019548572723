/* SPDX-License-Identifier: MIT */
/*
 * files DIR CASE: what a program reads, printed so that a run under
 * sysgate --bypass can be compared byte for byte with a native run
 * (tests/bypass/compare.sh).  Every case also checks itself against the
 * file's known content: byte at offset o is pat(o).
 *
 *   pread     many offsets and sizes, at and past the end of file
 *   read      read() with lseek(SET/CUR/END) interleaved, to EOF
 *   dup       a dup'ed fd shares the offset; dup2 over a tracked fd
 *   fork      parent and child read through one shared offset
 *   exec      the offset survives execve (the child reads on)
 *   writer    another process rewrites the file while we read it
 *   truncate  another process shrinks and regrows the file between reads
 *   truncate-race   ... and while we read
 *   grow      the file grows after we first read it
 *   badbuf    reads into unmapped memory fail with EFAULT, no signal
 *   ids       getpid/gettid/getppid against /proc, in threads and
 *             children
 *   hot       a hot pread loop and a cold getppid, for sysgate hot
 *   wlog      appended and positioned writes, read back as they go
 *   wlog-error      EFBIG past RLIMIT_FSIZE, reported late under wlog
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE (300000L)		/* not a multiple of the page size */

static char path[4096];
static volatile int argc_bad = 1;	/* an address no compiler can vet */
static unsigned long hash = 1469598103934665603UL;

static unsigned char pat(long o)
{
	unsigned int x = (unsigned int)o * 2654435761u;

	return (unsigned char)((x >> 24) ^ (o >> 12));
}

static void fail(const char *what, long a, long b)
{
	printf("FAIL %s %ld %ld\n", what, a, b);
	exit(1);
}

static void mix(const void *p, long n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		hash = (hash ^ *c++) * 1099511628211UL;
}

/* ret must be what the kernel gives for [off, off+len) of a file of
 * size, and the bytes must be the pattern's. */
static void check(const char *what, const unsigned char *buf, long ret,
		  long off, long len, long size)
{
	long want = off >= size ? 0 : (len < size - off ? len : size - off);
	long i;

	if (ret != want)
		fail(what, off, ret);
	for (i = 0; i < ret; i++)
		if (buf[i] != pat(off + i))
			fail(what, off + i, buf[i]);
	mix(&ret, sizeof(ret));
	mix(buf, ret);
}

static void make_file(long size)
{
	unsigned char *b = malloc(size);
	int fd;
	long i;

	for (i = 0; i < size; i++)
		b[i] = pat(i);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, b, size) != size)
		fail("create", errno, 0);
	close(fd);
	free(b);
}

static int open_ro(void)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail("open", errno, 0);
	return fd;
}

static const long sizes[] = { 0, 1, 7, 100, 1024, 4095, 4096, 4097, 8192,
			      65536, 100000, SIZE, SIZE + 10 };

static void case_pread(void)
{
	static unsigned char buf[SIZE + 4096];
	int fd = open_ro();
	unsigned int i, j;
	long off;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (j = 0; j < 40; j++) {
			off = (long)((j * 7919UL * 4099) % (SIZE + 5000));
			if (j == 0) off = 0;
			if (j == 1) off = SIZE - 1;
			if (j == 2) off = SIZE;
			if (j == 3) off = SIZE + 4096;
			if (j == 4) off = SIZE - sizes[i];
			if (j == 5) off = (SIZE & ~4095L) - sizes[i];
			if (off < 0) off = 0;
			check("pread", buf, pread(fd, buf, sizes[i], off), off,
			      sizes[i], SIZE);
		}
	}
	/* pread leaves the offset alone */
	if (lseek(fd, 0, SEEK_CUR) != 0)
		fail("pread-offset", lseek(fd, 0, SEEK_CUR), 0);
	errno = 0;
	if (pread(fd, buf, 10, -1) != -1 || errno != EINVAL)
		fail("pread-neg", errno, 0);
	close(fd);
	printf("pread %016lx\n", hash);
}

/* Read with read() from where the fd is; the expected offset is *pos. */
static void rd(int fd, long *pos, long len, unsigned char *buf)
{
	long r = read(fd, buf, len);

	check("read", buf, r, *pos, len, SIZE);
	*pos += r;
	if (lseek(fd, 0, SEEK_CUR) != *pos)
		fail("read-pos", lseek(fd, 0, SEEK_CUR), *pos);
}

static void case_read(void)
{
	static unsigned char buf[SIZE + 4096];
	int fd = open_ro();
	long pos = 0, r;
	unsigned int i, k;

	for (k = 0; k < 3; k++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			rd(fd, &pos, sizes[i] / (k + 1) + k, buf);
			if (i % 3 == 1) {
				pos = lseek(fd, -(long)(i * 37) % (pos + 1),
					    SEEK_CUR);
			} else if (i % 3 == 2) {
				pos = lseek(fd, (i * 40961L) % SIZE, SEEK_SET);
			}
			if (i == 5)
				pos = lseek(fd, -(long)i * 1000, SEEK_END);
		}
	/* to EOF in 1 KiB reads, then at EOF */
	pos = lseek(fd, 1000, SEEK_SET);
	while ((r = read(fd, buf, 1024)) > 0) {
		check("read-eof", buf, r, pos, 1024, SIZE);
		pos += r;
	}
	if (r != 0 || pos != SIZE || lseek(fd, 0, SEEK_CUR) != SIZE)
		fail("eof", r, pos);
	/* beyond the end: lseek allows it, read gives 0 */
	if (lseek(fd, SIZE + 5000, SEEK_SET) != SIZE + 5000 ||
	    read(fd, buf, 10) != 0)
		fail("past-eof", 0, 0);
	errno = 0;
	if (lseek(fd, -1, SEEK_SET) != -1 || errno != EINVAL)
		fail("lseek-neg", errno, 0);
	close(fd);
	printf("read %016lx\n", hash);
}

static void case_dup(void)
{
	unsigned char buf[8192];
	int fd = open_ro(), d, other;
	long pos = 0;

	rd(fd, &pos, 3000, buf);
	d = dup(fd);
	rd(d, &pos, 5000, buf);
	rd(fd, &pos, 100, buf);
	pos = lseek(d, 70000, SEEK_SET);
	rd(fd, &pos, 1000, buf);
	rd(d, &pos, 1000, buf);
	close(fd);
	rd(d, &pos, 4096, buf);
	/* dup2 over a file we read: the fd now names another open */
	other = open_ro();
	{
		long p2 = 0;

		rd(other, &p2, 2000, buf);
		if (dup2(d, other) != other)
			fail("dup2", errno, 0);
		rd(other, &pos, 2000, buf);
	}
	fd = fcntl(d, F_DUPFD_CLOEXEC, 100);
	rd(fd, &pos, 3000, buf);
	rd(d, &pos, 3000, buf);
	close(d);
	close(other);
	close(fd);
	printf("dup %016lx\n", hash);
}

static void case_fork(void)
{
	unsigned char buf[8192];
	int fd = open_ro(), st;
	long pos = 0;
	pid_t p;

	rd(fd, &pos, 5000, buf);
	p = fork();
	if (p == 0) {
		rd(fd, &pos, 7000, buf);
		lseek(fd, 123, SEEK_CUR);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("child", st, 0);
	pos += 7000 + 123;
	rd(fd, &pos, 4096, buf);
	/* a vfork child shares our memory, and the offset */
	p = vfork();
	if (p == 0) {
		char b[100];

		_exit(read(fd, b, 100) == 100 ? 0 : 1);
	}
	waitpid(p, &st, 0);
	pos += 100;
	rd(fd, &pos, 4096, buf);
	close(fd);
	printf("fork %016lx\n", hash);
}

static void case_exec(const char *self)
{
	unsigned char buf[16384];
	int fd = open_ro();
	long pos = 0;
	char num[32];

	rd(fd, &pos, 12345, buf);
	fflush(stdout);
	snprintf(num, sizeof(num), "%d", fd);
	execl(self, self, path, "exec-child", num, (char *)0);
	fail("execl", errno, 0);
}

static void case_exec_child(int fd)
{
	unsigned char buf[8192];
	long pos = lseek(fd, 0, SEEK_CUR);

	if (pos != 12345)
		fail("exec-offset", pos, 12345);
	rd(fd, &pos, 1000, buf);
	printf("exec %ld\n", pos);
}

/* Another process rewrites every block with increasing versions while we
 * read: every byte read is some version of its block, and once the writer
 * is done we read the last one. */
static void case_writer(void)
{
	static unsigned char buf[65536], blk[4096];
	int fd, wfd, st;
	long i, v, r, k;
	pid_t p;

	make_file(SIZE);
	fd = open_ro();
	memset(blk, 0, sizeof(blk));
	p = fork();
	if (p == 0) {
		wfd = open(path, O_WRONLY);
		for (v = 1; v <= 60; v++) {
			memset(blk, (int)v, sizeof(blk));
			for (i = 0; i + 4096 <= SIZE; i += 4096)
				if (pwrite(wfd, blk, 4096, i) != 4096)
					_exit(1);
		}
		_exit(0);
	}
	for (k = 0; k < 20000; k++) {
		long off = (k * 7919) % (SIZE - 70000), len = 1 + k % 65536;

		r = (k & 1) ? pread(fd, buf, len, off) :
			      (lseek(fd, off, SEEK_SET), read(fd, buf, len));
		if (r != len)
			fail("writer-len", off, r);
		for (i = 0; i < r; i++)
			if (buf[i] > 60 && buf[i] != pat(off + i))
				fail("writer-byte", off + i, buf[i]);
	}
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("writer-child", st, 0);
	r = pread(fd, buf, 4096, 8192);
	for (i = 0; i < r; i++)
		if (buf[i] != 60)
			fail("writer-final", i, buf[i]);
	close(fd);
	printf("writer ok\n");
}

/* Another process cuts the file and writes it back, in turns with our
 * reads, which straddle the cut: exact results, compared with the kernel's
 * (the stale mapping past the cut must never answer). */
static void case_truncate(void)
{
	static unsigned char buf[65536], content[SIZE];
	int fd, st, to[2], back[2];
	long i, k, size = SIZE;
	pid_t p;
	char c;

	for (i = 0; i < SIZE; i++)
		content[i] = pat(i);
	fd = open_ro();
	if (pipe(to) || pipe(back))
		fail("pipe", errno, 0);
	p = fork();
	if (p == 0) {
		int wfd = open(path, O_WRONLY);
		long cut;

		/* only the parent writes commands: EOF ends the loop */
		close(to[1]);
		close(back[0]);
		while (read(to[0], &cut, sizeof(cut)) == sizeof(cut)) {
			if (cut < 0 ? pwrite(wfd, content - cut - 1, SIZE + cut + 1,
					     -cut - 1) != SIZE + cut + 1 :
				      ftruncate(wfd, cut) < 0)
				_exit(1);
			if (write(back[1], "k", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(to[0]);
	close(back[1]);
	for (k = 0; k < 300; k++) {
		/* cut (k even), then write the rest back from that cut (k
		 * odd) */
		long cut = ((k & ~1L) * 7919L * 13) % SIZE;
		long cmd = k & 1 ? -cut - 1 : cut;
		static const long around[] = { -5000, -4096, -100, -1, 0, 1, 100,
					       4096, 9000 };
		unsigned int j;

		if (write(to[1], &cmd, sizeof(cmd)) != sizeof(cmd) ||
		    read(back[0], &c, 1) != 1)
			fail("handshake", k, 0);
		size = k & 1 ? SIZE : cut;
		for (j = 0; j < sizeof(around) / sizeof(around[0]); j++) {
			long off = cut + around[j], len = 1 + (k * 31 + j * 977) % 9000;

			if (off < 0)
				off = 0;
			check("truncate", buf, pread(fd, buf, len, off), off, len,
			      size);
			lseek(fd, off, SEEK_SET);
			check("truncate-read", buf, read(fd, buf, len), off, len,
			      size);
		}
	}
	close(to[1]);
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("truncate-child", st, 0);
	close(fd);
	printf("truncate %016lx\n", hash);
}

/* The same, racing: the other process cuts and regrows the file while we
 * read.  A read may see any size in between and never a signal; its bytes
 * are the file's, except that a read overlapping the cut may see the
 * zeros the kernel writes past it (the kernel's own read can too; the
 * bypass's window is wider, see man sysgate.1, BYPASS). */
static void case_truncate_race(void)
{
	static unsigned char buf[65536], content[SIZE];
	int fd, wfd, st = 0;
	long i, r, k, zeros = 0;
	pid_t p;

	for (i = 0; i < SIZE; i++)
		content[i] = pat(i);
	fd = open_ro();
	p = fork();
	if (p == 0) {
		unsigned int seed = 12345;

		wfd = open(path, O_WRONLY);
		for (k = 0; k < 3000; k++) {
			long cut = rand_r(&seed) % SIZE;

			if (ftruncate(wfd, cut) < 0 ||
			    pwrite(wfd, content + cut, SIZE - cut, cut) !=
				    SIZE - cut)
				_exit(1);
		}
		_exit(0);
	}
	for (k = 0; waitpid(p, &st, WNOHANG) == 0 || k < 1000; k++) {
		long off = (k * 104729) % SIZE, len = 1 + (k * 31) % 20000;

		r = (k & 1) ? pread(fd, buf, len, off) :
			      (lseek(fd, off, SEEK_SET), read(fd, buf, len));
		if (r < 0 || r > len)
			fail("race-len", off, r);
		for (i = 0; i < r; i++)
			if (buf[i] != pat(off + i) && buf[i])
				fail("race-byte", off + i, buf[i]);
			else
				zeros += buf[i] != pat(off + i);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("race-child", st, 0);
	close(fd);
	fprintf(stderr, "zeros from a cut seen: %ld\n", zeros);
	printf("truncate-race ok\n");
}

static void case_grow(void)
{
	unsigned char buf[8192];
	int fd, wfd;
	long pos = 0;

	make_file(10000);
	fd = open_ro();
	check("grow", buf, pread(fd, buf, 100, 0), 0, 100, 10000);
	wfd = open(path, O_WRONLY | O_APPEND);
	{
		unsigned char more[20000];
		long i;

		for (i = 0; i < 20000; i++)
			more[i] = pat(10000 + i);
		if (write(wfd, more, sizeof(more)) != sizeof(more))
			fail("append", errno, 0);
	}
	close(wfd);
	check("grow", buf, pread(fd, buf, 8192, 9000), 9000, 8192, 30000);
	check("grow", buf, pread(fd, buf, 8192, 25000), 25000, 8192, 30000);
	while (pos < 30000) {
		long r = read(fd, buf, 3000);

		check("grow-read", buf, r, pos, 3000, 30000);
		pos += r;
	}
	close(fd);
	printf("grow %016lx\n", hash);
}

static void case_badbuf(void)
{
	char *bad = mmap(0, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open_ro();
	long r;

	munmap(bad + 4096, 4096);
	errno = 0;
	r = pread(fd, (char *)(long)argc_bad, 100, 0);
	printf("badbuf null %ld %d\n", r, errno);
	r = pread(fd, bad + 4096 - 100, 1000, 0);	/* partly unmapped */
	printf("badbuf partial %ld\n", r);
	r = read(fd, (char *)(long)(argc_bad + 15), 100);
	printf("badbuf read %ld %d pos %ld\n", r, errno, (long)lseek(fd, 0, SEEK_CUR));
	close(fd);
}

/* The kernel's own view of this thread: /proc/thread-self. */
static void proc_ids(int *pid, int *tid)
{
	char b[128];
	ssize_t n = readlink("/proc/thread-self", b, sizeof(b) - 1);

	b[n > 0 ? n : 0] = 0;
	if (sscanf(b, "%d/task/%d", pid, tid) != 2)
		fail("thread-self", n, 0);
}

static int proc_ppid(void)
{
	char b[512], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	int ppid = -1;

	if (f && fgets(b, sizeof(b), f) && (p = strrchr(b, ')')))
		sscanf(p + 2, "%*c %d", &ppid);
	if (f)
		fclose(f);
	return ppid;
}

static void ids_check(const char *where)
{
	int pid, tid, i;

	for (i = 0; i < 3; i++) {
		proc_ids(&pid, &tid);
		if (getpid() != pid || syscall(SYS_gettid) != tid ||
		    syscall(SYS_getpid) != pid || getppid() != proc_ppid())
			fail(where, pid, tid);
	}
}

static void *thread_main(void *arg)
{
	ids_check(arg);
	return 0;
}

static void case_ids(void)
{
	pthread_t t[4];
	int i, st, pfd[2];
	pid_t p;
	struct utsname u1, u2;

	ids_check("main");
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], 0, thread_main, "thread");
	for (i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	if (pipe(pfd) < 0)
		fail("pipe", errno, 0);
	p = fork();
	if (p == 0) {
		ids_check("child");
		/* orphaned: a reaper adopts the grandchild, which reports
		 * through the pipe */
		int par = getpid();

		if (fork() == 0) {
			char ok;

			while (proc_ppid() == par)
				usleep(1000);
			ids_check("orphan");
			ok = 'y';
			_exit(write(pfd[1], &ok, 1) == 1 ? 0 : 1);
		}
		_exit(0);
	}
	close(pfd[1]);
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("ids-child", st, 0);
	{
		char ok = 0;

		if (read(pfd[0], &ok, 1) != 1 || ok != 'y')
			fail("ids-orphan", ok, 0);
		close(pfd[0]);
	}
	p = vfork();
	if (p == 0)
		_exit(getpid() == (int)syscall(SYS_getpid) &&
		      getpid() != getppid() ? 0 : 1);
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("ids-vfork", st, 0);
	ids_check("after");
	if (uname(&u1) || uname(&u2) || memcmp(&u1, &u2, sizeof(u1)))
		fail("uname", 0, 0);
	printf("ids ok\n");
}

/* For sysgate hot (tests/bypass/hot.sh): a tight pread loop (hot) and
 * getppid calls after 50 us of user-space work (never short). */
static void case_hot(void)
{
	unsigned char buf[1024];
	int fd = open_ro();
	long i;

	for (i = 0; i < 100000; i++)
		if (pread(fd, buf, sizeof(buf), (i * 4096) % (SIZE - 2048)) !=
		    sizeof(buf))
			fail("hot-pread", i, 0);
	for (i = 0; i < 2000; i++) {
		struct timespec t0, t1;

		/* user-space work (the vDSO clock is no system call) */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t1);
		while ((t1.tv_sec - t0.tv_sec) * 1000000000L +
		       t1.tv_nsec - t0.tv_nsec < 50000);
		if (getppid() < 0)
			fail("hot-getppid", i, 0);
	}
	close(fd);
	printf("hot ok\n");
}

/* wlog: records written with write() (O_APPEND log and a plain file)
 * and pwrite(); every read, fstat and child sees what was written before
 * it; the content is checked and hashed at the end. */
static void case_wlog(void)
{
	static char rec[200], back[200];
	char lpath[4200];
	int fd, lfd, st;
	long i, n, size = 0;
	struct stat sb;
	pid_t p;

	snprintf(lpath, sizeof(lpath), "%s.log", path);
	fd = open(path, O_RDWR | O_TRUNC);
	lfd = open(lpath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (fd < 0 || lfd < 0)
		fail("wlog-open", errno, 0);
	for (i = 0; i < 5000; i++) {
		n = snprintf(rec, sizeof(rec), "record %ld %lx\n", i,
			     (unsigned long)i * 2654435761u);
		if (write(lfd, rec, n) != n || write(fd, rec, n) != n)
			fail("wlog-write", i, errno);
		size += n;
		if (i % 7 == 3 && pwrite(fd, "#", 1, size - n) != 1)
			fail("wlog-pwrite", i, errno);
		if (i % 97 == 0) {
			/* the kernel sees every earlier write */
			if (fstat(lfd, &sb) || sb.st_size != size)
				fail("wlog-size", i, sb.st_size);
			if (pread(fd, back, n, size - n) != n ||
			    back[0] != (i % 7 == 3 ? '#' : 'r'))
				fail("wlog-readback", i, back[0]);
		}
		if (i == 2500) {
			p = fork();
			if (p == 0) {
				if (write(lfd, "child\n", 6) != 6)
					_exit(1);
				_exit(0);
			}
			waitpid(p, &st, 0);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				fail("wlog-child", st, 0);
			size += 6;
			if (write(fd, "child\n", 6) != 6)
				fail("wlog-write", i, errno);
		}
	}
	if (fsync(fd) || close(fd) || close(lfd))
		fail("wlog-close", errno, 0);
	for (i = 0; i < 2; i++) {
		FILE *f = fopen(i ? lpath : path, "r");
		char line[256];

		while (f && fgets(line, sizeof(line), f))
			mix(line, strlen(line));
		if (f)
			fclose(f);
	}
	unlink(lpath);
	printf("wlog %016lx\n", hash);
}

/* wlog's late errors: writes past RLIMIT_FSIZE fail with EFBIG, here or
 * (under the bypass) at the next write; the file ends at the limit. */
static void case_wlog_error(void)
{
	struct rlimit rl = { 100000, 100000 };
	char rec[100];
	struct stat sb;
	int fd = open(path, O_WRONLY | O_TRUNC), fd2, i;
	char other[4200];
	long r = 0;

	signal(SIGXFSZ, SIG_IGN);
	if (fd < 0 || setrlimit(RLIMIT_FSIZE, &rl))
		fail("wlog-error-setup", errno, 0);
	memset(rec, 'x', sizeof(rec));
	/* a second file between the writes: batches of several runs, so
	 * the error comes back through io_uring */
	snprintf(other, sizeof(other), "%s.2", path);
	fd2 = open(other, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < 5000 && (r = write(fd, rec, sizeof(rec))) >= 0; i++)
		if (write(fd2, rec, 10) != 10)
			fail("wlog-error-2", i, errno);
	if (r >= 0 || errno != EFBIG || fstat(fd, &sb))
		fail("wlog-error", r, errno);
	printf("wlog-error EFBIG size %ld\n", (long)sb.st_size);
	if (fstat(fd2, &sb))
		fail("wlog-error-2", errno, 0);
	/* every write the program was told succeeded is there (under
	 * wlog, the error shows some writes later) */
	if (sb.st_size != 10L * i)
		fail("wlog-error-2-size", sb.st_size, i);
	close(fd);
	close(fd2);
	unlink(other);
}

static const char *self;

static void case_exec_self(void)
{
	case_exec(self);
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "pread", case_pread }, { "read", case_read }, { "dup", case_dup },
	{ "fork", case_fork }, { "exec", case_exec_self },
	{ "writer", case_writer }, { "truncate", case_truncate },
	{ "truncate-race", case_truncate_race }, { "grow", case_grow },
	{ "badbuf", case_badbuf }, { "ids", case_ids }, { "hot", case_hot },
	{ "wlog", case_wlog }, { "wlog-error", case_wlog_error },
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 3) {
		fprintf(stderr, "usage: files DIR CASE\n");
		return 2;
	}
	self = argv[0];
	snprintf(path, sizeof(path), "%s/bypass-test.dat", argv[1]);
	if (!strcmp(argv[2], "exec-child")) {
		case_exec_child(atoi(argv[3]));
		unlink(path);
		return 0;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[2], cases[i].name))
			break;
	if (i == sizeof(cases) / sizeof(cases[0]))
		return 2;
	make_file(SIZE);
	cases[i].run();
	unlink(path);
	return 0;
}
