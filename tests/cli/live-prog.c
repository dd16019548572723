/* SPDX-License-Identifier: MIT */
/*
 * Sites patched while other threads run them (mechanisms/patch, live
 * patches): THREADS threads, released together, each call libc's
 * getppid, getuid, getgid, geteuid, getegid and sched_yield N times in a
 * loop (none of them called before), so that the first trap of each
 * site is patched while the other threads run that same code.  Prints
 * the calls made and the values, which must be the same in every
 * thread and every round: the output is compared natively (getppid's
 * value, sysgate's pid under it, is only compared between threads).
 *
 *   live-prog THREADS N
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 64

struct run {
	long n;
	long v[5];
	int same;
};

static pthread_barrier_t start;

static void *loop(void *arg)
{
	struct run *r = arg;
	long i, k, v[5];

	r->same = 1;
	pthread_barrier_wait(&start);
	for (i = 0; i < r->n; i++) {
		v[0] = getppid();
		v[1] = getuid();
		v[2] = getgid();
		v[3] = geteuid();
		v[4] = getegid();
		sched_yield();
		for (k = 0; k < 5; k++) {
			if (!i)
				r->v[k] = v[k];
			else if (v[k] != r->v[k])
				r->same = 0;
		}
	}
	return r;
}

int main(int argc, char **argv)
{
	static struct run r[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	long threads = argc > 2 ? atol(argv[1]) : 0;
	long n = argc > 2 ? atol(argv[2]) : 0;
	long i, k;
	int same = 1;

	if (threads < 2 || threads > MAX_THREADS || n < 1) {
		fprintf(stderr, "usage: live-prog THREADS(2-64) N\n");
		return 2;
	}
	pthread_barrier_init(&start, 0, threads);
	for (i = 0; i < threads; i++) {
		r[i].n = n;
		if (pthread_create(&t[i], 0, loop, &r[i])) {
			perror("live-prog: pthread_create");
			return 1;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], 0);
		for (k = 0; k < 5; k++)
			same &= r[i].same && r[i].v[k] == r[0].v[k];
	}
	printf("%ld threads x %ld rounds: %s\n", threads, n,
	       same ? "same values" : "values differ");
	printf("getuid=%ld getgid=%ld geteuid=%ld getegid=%ld\n", r[0].v[1],
	       r[0].v[2], r[0].v[3], r[0].v[4]);
	return !same;
}
