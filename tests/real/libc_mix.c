// SPDX-License-Identifier: MIT
// One C program for every C library and instrumented build of the suite
// (musl dynamic and static, ASan, TSan, UBSan, MSan): threads (joined, and
// detached ones, which musl ends by unmapping their own stack), fork+exec,
// a handled signal, sigwait.  It prints what it saw; the run natively is
// the reference.  argv[1] "child": the exec'd child's part.
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NTHREADS 4

static volatile sig_atomic_t got_usr1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void *worker(void *arg)
{
	long n = (long)arg, sum = 0;
	char *buf = malloc(4096);

	for (long i = 0; i < 100000; i++)
		sum += i % (n + 2);
	snprintf(buf, 4096, "%ld", sum);
	pthread_mutex_lock(&lock);
	total += strtol(buf, NULL, 10);
	pthread_mutex_unlock(&lock);
	free(buf);
	return NULL;
}

static sem_t detached_done;

static void *detached(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	total += getpid() > 0;
	pthread_mutex_unlock(&lock);
	sem_post(&detached_done);
	return NULL;
}

static int run_child(const char *self)
{
	int fd[2], status;
	char line[64] = "";

	if (pipe(fd))
		return perror("pipe"), 1;
	pid_t pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(self, self, "child", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], line, sizeof(line) - 1);
	close(fd[0]);
	if (n > 0)
		line[n] = 0;
	waitpid(pid, &status, 0);
	printf("child said: %s", line);
	printf("child exit: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];
	sigset_t set;
	int sig;

	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		printf("hello from the child\n");
		return 3;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("threads: %ld\n", total);

	sem_init(&detached_done, 0, 0);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_attr_t a;
		pthread_t d;

		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&d, &a, detached, NULL))
			return perror("pthread_create"), 1;
	}
	for (int i = 0; i < NTHREADS; i++)
		sem_wait(&detached_done);
	printf("detached threads: %d\n", NTHREADS);

	if (run_child(argv[0]))
		return 1;

	signal(SIGUSR1, on_usr1);
	for (int i = 0; i < 5; i++)
		raise(SIGUSR1);
	printf("handled SIGUSR1: %d\n", (int)got_usr1);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR2);
	if (sigwait(&set, &sig))
		return perror("sigwait"), 1;
	printf("sigwait: %s\n", sig == SIGUSR2 ? "SIGUSR2" : "other");
	return 0;
}
