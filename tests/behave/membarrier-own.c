/* SPDX-License-Identifier: MIT */
/*
 * membarrier as the program's own registrations make it answer: sysgate
 * registers the SYNC_CORE barrier for itself once threads run, and the
 * kernel keeps registrations per process, so a program's unregistered
 * SYNC_CORE barrier succeeded under sysgate (natively: EPERM) and
 * GET_REGISTRATIONS (Linux 6.3) listed sysgate's.  Then the program's
 * own registrations, and a fork child, which keeps them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* <linux/membarrier.h>'s commands (musl-gcc has no kernel headers) */
#define MEMBARRIER_CMD_QUERY 0
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED 8
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED 16
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE 32
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE 64
#define GET_REGISTRATIONS (1 << 9)

static void *thread_main(void *a)
{
	return a;
}

static long mb(int cmd)
{
	long r = syscall(SYS_membarrier, cmd, 0, 0);

	return r < 0 ? -errno : r;
}

static void show(const char *when)
{
	printf("%s: sync-core barrier %ld, expedited barrier %ld, "
	       "registrations %ld\n", when,
	       mb(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE),
	       mb(MEMBARRIER_CMD_PRIVATE_EXPEDITED), mb(GET_REGISTRATIONS));
}

int main(void)
{
	pthread_t th;
	pid_t pid;
	int st, i;

	if (mb(MEMBARRIER_CMD_QUERY) < 0) {
		printf("membarrier: not on this kernel\n");
		return 0;
	}
	/* (threads, whose sites sysgate may patch while they run) */
	for (i = 0; i < 3; i++) {
		pthread_create(&th, 0, thread_main, 0);
		pthread_join(th, 0);
	}
	show("unregistered");
	printf("register sync-core: %ld\n",
	       mb(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE));
	show("sync-core registered");
	printf("register expedited: %ld\n",
	       mb(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED));
	show("both registered");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, 0, thread_main, 0);
		pthread_join(th, 0);
		show("fork child");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return 0;
}
