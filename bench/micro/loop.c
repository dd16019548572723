/* SPDX-License-Identifier: MIT */
/*
 * The measured program of `sysgate bench`, run natively and under each
 * mechanism by the bench driver:
 *
 *   sysgate-bench-loop getppid N REPS   glibc getppid() N times, REPS times;
 *                                       prints "median_ns min_ns result"
 *   sysgate-bench-loop getpid N REPS    the same with getpid()
 *   sysgate-bench-loop jit-getppid N REPS
 *                                       the same through code written at
 *                                       run time (as a JIT would: a raw
 *                                       syscall no start-up scan saw)
 *   sysgate-bench-loop pread FILE BS N REPS
 *                                       Userspace Bypass's I/O benchmark:
 *                                       N preads of BS bytes walking FILE
 *                                       from start to end and round again,
 *                                       REPS times after a warm-up pass;
 *                                       prints "median_ns min_ns sum", sum
 *                                       a checksum of the bytes read (the
 *                                       same natively and under a bypass)
 *   sysgate-bench-loop write FILE BS N REPS
 *                                       N appends of BS bytes to a fresh
 *                                       FILE, REPS times; "median_ns min_ns
 *                                       total_size"
 *   sysgate-bench-loop stale-ret N REPS what a return after a syscall
 *                                       costs (see stale_ret; natively)
 *   sysgate-bench-loop clocks N REPS    what a read of the vDSO's
 *                                       CLOCK_MONOTONIC and one of the
 *                                       counter sysgate_ticks() reads
 *                                       cost (the -c timer's choice)
 *   sysgate-bench-loop rss              prints "VmRSS Private_Dirty" in KiB:
 *                                       all resident pages, and the pages
 *                                       this process wrote (anonymous and
 *                                       copied-on-write: memory it really
 *                                       costs; library text, even when no
 *                                       other process maps it, is not)
 *   sysgate-bench-loop smaps            the same Private_Dirty per mapping
 *   sysgate-bench-loop zero-pages       how many of the pages this process
 *                                       wrote hold only zeros (written for
 *                                       nothing: a fresh page reads as zero)
 *   sysgate-bench-loop spin FD          getppid() until killed, counting the
 *                                       calls in the first word of FD (a
 *                                       memfd): the program sysgate bench
 *                                       attaches to (sysgate -p)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "syscalls.h"
#include "clock_arch.h"

/* Column names, for a person at a terminal; sysgate bench reads the
 * bare figures through a pipe. */
static void columns(const char *names)
{
	if (isatty(STDOUT_FILENO))
		printf("# %s\n", names);
}

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The value of "key" (in KiB) in a /proc file of "key: value" lines;
 * every matching line is summed. */
static long proc_kib(const char *file, const char *key)
{
	FILE *f = fopen(file, "r");
	char line[256];
	size_t n = strlen(key);
	long v = 0, found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n)) {
			v += strtol(line + n, 0, 10);
			found = 1;
		}
	if (f)
		fclose(f);
	return found ? v : -1;
}

/* Where the written memory is: Private_Dirty KiB of each mapping that
 * has some, with the mapping's size and name (the smaps_rollup total of
 * `rss` split up). */
static int smaps(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], name[512] = "";
	unsigned long lo, hi, size = 0;
	long kib, total = 0;

	columns("KiB: Private_Dirty  mapping-KiB  mapping");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    strchr(line, ' ')) {
			const char *p = line;
			int field;

			/* the name is the sixth field, if any */
			for (field = 0; field < 5 && p; field++) {
				p = strchr(p, ' ');
				while (p && *p == ' ')
					p++;
			}
			snprintf(name, sizeof(name), "%s",
				 p && *p && *p != '\n' ? p : "[anon]\n");
			size = (hi - lo) >> 10;
		} else if (sscanf(line, "Private_Dirty: %ld", &kib) == 1 &&
			   kib) {
			printf("%6ld %8lu %s", kib, size, name);
			total += kib;
		}
	}
	if (f)
		fclose(f);
	printf("%6ld total\n", total);
	return 0;
}

/* Written anonymous pages (present, ours alone, not a file's) that hold
 * nothing but zeros, by /proc/self/pagemap; -1 if it cannot be read. */
static long zero_pages(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int pm = open("/proc/self/pagemap", O_RDONLY);
	char line[512];
	unsigned long lo, hi, a, e;
	long n = 0;

	if (!f || pm < 0)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char perm[5];

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perm) != 3 ||
		    perm[0] != 'r' || perm[3] != 'p')
			continue;
		for (a = lo; a < hi; a += 4096) {
			const unsigned long *w = (const unsigned long *)a;
			unsigned int i;

			if (pread(pm, &e, 8, a / 4096 * 8) != 8)
				return -1;
			/* present, exclusively mapped, not file or shared */
			if (!(e >> 63 & 1) || !(e >> 56 & 1) || (e >> 61 & 1))
				continue;
			for (i = 0; i < 512 && !w[i]; i++)
				;
			n += i == 512;
		}
	}
	fclose(f);
	close(pm);
	return n;
}

/* x86-64 code written as a JIT writes it: into writable memory, then
 * made read+exec. */
static unsigned char *jit_code(const unsigned char *code, size_t len)
{
#ifndef __x86_64__
	return 0;	/* (the callers' bytes are x86-64 code) */
#endif
	unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	memcpy(p, code, len);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) < 0)
		return 0;
	return p;
}

/* mov $110,%eax (getppid); syscall; ret; int3 padding */
static pid_t (*jit_getppid(void))(void)
{
	static const unsigned char code[] = { 0xb8, 110, 0, 0, 0, 0x0f, 0x05,
					      0xc3, 0xcc, 0xcc, 0xcc, 0xcc };

	return (pid_t (*)(void))jit_code(code, sizeof(code));
}

/*
 * What a return costs after a system call, natively: getppid made by
 *   0:  mov $110,%eax; syscall; ret                 (a return after it)
 *   16: mov $110,%eax; syscall; pop %rcx; jmp *%rcx (no return)
 *   32: call 0; ret                                 (two returns)
 * Prints the ns per call of each.  Where the kernel leaves the return
 * predictor stale on the way back (mitigations), the first costs more
 * than the second by one mispredicted return, the third by two.
 */
static int stale_ret(long n, long reps)
{
	static const unsigned char code[48] = {
		0xb8, 110, 0, 0, 0, 0x0f, 0x05, 0xc3,
		[16] = 0xb8, 110, 0, 0, 0, 0x0f, 0x05, 0x59, 0xff, 0xe1,
		[32] = 0xe8, 0xdb, 0xff, 0xff, 0xff, 0xc3,	/* call -37 */
	};
	unsigned char *p = jit_code(code, sizeof(code));
	double best[3];
	long i, r, k;

	if (!p)
		return 1;
	for (k = 0; k < 3; k++)
		best[k] = 1e30;
	for (r = 0; r < reps; r++)	/* the three interleaved */
		for (k = 0; k < 3; k++) {
			long (*f)(void) = (long (*)(void))(p + 16 * k);
			unsigned long long t0 = now();
			double t;

			for (i = 0; i < n; i++)
				f();
			t = (double)(now() - t0) / n;
			best[k] = t < best[k] ? t : best[k];
		}
	columns("ns/call, best of REPS: ret  pop+jmp  two-rets");
	printf("%.2f %.2f %.2f\n", best[0], best[1], best[2]);
	return 0;
}

/* ns per read of CLOCK_MONOTONIC (the vDSO) and of the counter that
 * sysgate_ticks() reads, interleaved, best of REPS. */
static int clocks(long n, long reps)
{
	double best[2] = { 1e30, 1e30 };
	volatile unsigned long long sink = 0;
	long i, r, k;

	for (r = 0; r < reps; r++)
		for (k = 0; k < 2; k++) {
			unsigned long long t0 = now();
			double t;

			for (i = 0; i < n; i++)
				sink += k ? sg_arch_counter() : now();
			t = (double)(now() - t0) / n;
			best[k] = t < best[k] ? t : best[k];
		}
	columns("ns/read, best of REPS: clock_gettime  counter");
	printf("%.2f %.2f\n", best[0], best[1]);
	return 0;
}

static int pread_loop(const char *file, long bs, long n, long reps)
{
	int fd = open(file, O_RDONLY);
	struct stat st;
	char *buf = malloc(bs);
	double *t = calloc(reps, sizeof(*t));
	unsigned long sum = 0;
	long i, r, off = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < bs || !buf || !t) {
		perror(file);
		return 1;
	}
	for (off = 0; off + bs <= st.st_size; off += bs)	/* warm up */
		if (pread(fd, buf, bs, off) != bs)
			return 1;
	off = 0;
	for (r = 0; r < reps; r++) {
		unsigned long long t0 = now();

		for (i = 0; i < n; i++) {
			if (pread(fd, buf, bs, off) != bs)
				return 1;
			sum = sum * 31 + (unsigned char)buf[0] +
			      (unsigned char)buf[bs - 1];
			off += bs;
			if (off + bs > st.st_size)
				off = 0;
		}
		t[r] = (double)(now() - t0) / n;
	}
	qsort(t, reps, sizeof(*t), cmp);
	columns("ns/call: median  min  checksum");
	printf("%.2f %.2f %lu\n", t[reps / 2], t[0], sum);
	close(fd);
	return 0;
}

/* N appends of BS bytes to a fresh FILE (a log), REPS times; the sum is
 * the size the kernel reports after close. */
static int write_loop(const char *file, long bs, long n, long reps)
{
	char *buf = malloc(bs);
	double *t = calloc(reps, sizeof(*t));
	unsigned long sum = 0;
	struct stat st;
	long i, r;

	if (!buf || !t)
		return 1;
	memset(buf, 'x', bs);
	buf[bs - 1] = '\n';
	for (r = 0; r < reps; r++) {
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
		unsigned long long t0 = now();

		if (fd < 0)
			return 1;
		for (i = 0; i < n; i++)
			if (write(fd, buf, bs) != bs)
				return 1;
		t[r] = (double)(now() - t0) / n;
		if (close(fd) || stat(file, &st))
			return 1;
		sum += st.st_size;
	}
	qsort(t, reps, sizeof(*t), cmp);
	columns("ns/call: median  min  bytes-written");
	printf("%.2f %.2f %lu\n", t[reps / 2], t[0], sum);
	return 0;
}

int main(int argc, char **argv)
{
	pid_t (*jit)(void) = 0;

	if (argc >= 2 && !strcmp(argv[1], "rss")) {
		columns("KiB: VmRSS  Private_Dirty");
		printf("%ld %ld\n", proc_kib("/proc/self/status", "VmRSS:"),
		       proc_kib("/proc/self/smaps_rollup", "Private_Dirty:"));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "smaps"))
		return smaps();
	if (argc == 2 && !strcmp(argv[1], "zero-pages")) {
		printf("%ld\n", zero_pages());
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "jit-getppid"))
		jit = jit_getppid();
	if (argc == 4 && (!strcmp(argv[1], "getppid") || jit ||
			  !strcmp(argv[1], "getpid"))) {
		long n = atol(argv[2]), reps = atol(argv[3]), i, r;
		double *t = calloc(reps, sizeof(*t));
		volatile long sink = 0;
		pid_t (*call)(void) = jit ? jit :
				      strcmp(argv[1], "getpid") ? getppid : getpid;

		for (i = 0; i < n / 10; i++)	/* warm up */
			sink += call();
		for (r = 0; r < reps; r++) {
			unsigned long long t0 = now();

			for (i = 0; i < n; i++)
				sink += call();
			t[r] = (double)(now() - t0) / n;
		}
		qsort(t, reps, sizeof(*t), cmp);
		columns("ns/call: median  min  last-result");
		printf("%.2f %.2f %ld\n", t[reps / 2], t[0], (long)call());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		volatile unsigned long *calls = mmap(0, 4096, PROT_READ | PROT_WRITE,
						     MAP_SHARED, atoi(argv[2]), 0);

		if (calls == MAP_FAILED)
			return 1;
		/* (sysgate bench, its sibling's parent, attaches under
		 * ptrace_scope=1 too) */
		prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
		for (;;) {
			getppid();
			(*calls)++;
		}
	}
	if (argc == 4 && !strcmp(argv[1], "stale-ret"))
		return stale_ret(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "clocks"))
		return clocks(atol(argv[2]), atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "write"))
		return write_loop(argv[2], atol(argv[3]), atol(argv[4]),
				  atol(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "pread"))
		return pread_loop(argv[2], atol(argv[3]), atol(argv[4]),
				  atol(argv[5]));
	fprintf(stderr, "usage: %s getppid|getpid N REPS | pread|write FILE BS N "
			"REPS | stale-ret N REPS | clocks N REPS | rss | smaps | zero-pages | spin FD\n", argv[0]);
	return 2;
}
