/* SPDX-License-Identifier: MIT */
/*
 * The program makes RDTSC fault (prctl PR_SET_TSC, PR_TSC_SIGSEGV, as rr
 * and some sandboxes do), then keeps making calls, in a thread it starts
 * and in a child that runs itself again (the setting outlives execve).
 * sysgate times calls with the TSC (sysgate_ticks) and the vDSO clock:
 * both must stop being used, not kill the program.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void *calls(void *arg)
{
	long n = 0;
	int i;

	for (i = 0; i < 1000; i++)
		n += getppid() > 0;
	*(long *)arg = n;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th;
	long a = 0, b = 0;
	int st = 0;
	pid_t c;

	if (argc > 1) {		/* the child, after its execve */
		calls(&a);
		return a == 1000 ? 0 : 1;
	}
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0)) {
		printf("no PR_SET_TSC here\n");
		return 77;
	}
	calls(&a);
	if (pthread_create(&th, 0, calls, &b) || pthread_join(th, 0))
		return 1;
	c = fork();
	if (c == 0) {
		execl("/proc/self/exe", argv[0], "again", (char *)0);
		_exit(2);
	}
	if (c < 0 || waitpid(c, &st, 0) != c)
		return 1;
	printf("calls %ld %ld, child %s\n", a, b,
	       WIFEXITED(st) && !WEXITSTATUS(st) ? "ok" : "failed");
	return 0;
}
