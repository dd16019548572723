/* SPDX-License-Identifier: MIT */
/*
 * The measured program of `sysgate bench`, run natively and under each
 * mechanism by the bench driver:
 *
 *   sysgate-bench-loop getppid N REPS   glibc getppid() N times, REPS times;
 *                                       prints "median_ns min_ns result"
 *   sysgate-bench-loop rss              prints VmRSS in KiB at exit
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

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			v = strtol(line + 6, 0, 10);
	if (f)
		fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "rss")) {
		printf("%ld\n", rss_kib());
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
