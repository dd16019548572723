/* SPDX-License-Identifier: MIT */
/*
 * The measured program of `sysgate bench`, run natively and under each
 * mechanism by the bench driver:
 *
 *   sysgate-bench-loop getppid N REPS   glibc getppid() N times, REPS times;
 *                                       prints "median_ns min_ns result"
 *   sysgate-bench-loop rss              prints "VmRSS Private_Dirty" in KiB:
 *                                       all resident pages, and the pages
 *                                       this process wrote (anonymous and
 *                                       copied-on-write: memory it really
 *                                       costs; library text, even when no
 *                                       other process maps it, is not)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "rss")) {
		printf("%ld %ld\n", proc_kib("/proc/self/status", "VmRSS:"),
		       proc_kib("/proc/self/smaps_rollup", "Private_Dirty:"));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "getppid")) {
		long n = atol(argv[2]), reps = atol(argv[3]), i, r;
		double *t = calloc(reps, sizeof(*t));
		volatile long sink = 0;

		for (i = 0; i < n / 10; i++)	/* warm up */
			sink += getppid();
		for (r = 0; r < reps; r++) {
			unsigned long long t0 = now();

			for (i = 0; i < n; i++)
				sink += getppid();
			t[r] = (double)(now() - t0) / n;
		}
		qsort(t, reps, sizeof(*t), cmp);
		printf("%.2f %.2f %ld\n", t[reps / 2], t[0], (long)getppid());
		return 0;
	}
	fprintf(stderr, "usage: %s getppid N REPS | rss\n", argv[0]);
	return 2;
}
