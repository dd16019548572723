/* SPDX-License-Identifier: MIT */
/* 32 threads make syscalls at once; some exit while others run. */
#include <pthread.h>
#include <sys/syscall.h>
#include "../lib/util.h"

#define N 32

static void *worker(void *arg)
{
	long id = (long)arg, i, sum = 0;
	char c;
	int fd[2];

	test_assert(pipe(fd) == 0);
	for (i = 0; i < 2000; i++) {
		sum += getppid() == getppid();
		test_assert(write(fd[1], "x", 1) == 1);
		test_assert(read(fd[0], &c, 1) == 1);
		test_assert(syscall(SYS_gettid) > 0);
	}
	close(fd[0]);
	close(fd[1]);
	if (id % 4 == 0)
		pthread_exit((void *)sum);
	return (void *)sum;
}

int main(void)
{
	pthread_t t[N];
	long i;
	void *r;

	for (i = 0; i < N; i++)
		test_assert(pthread_create(&t[i], 0, worker, (void *)i) == 0);
	for (i = 0; i < N; i++) {
		test_assert(pthread_join(t[i], &r) == 0);
		test_assert((long)r == 2000);
	}
	atomic_puts("32 threads ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
