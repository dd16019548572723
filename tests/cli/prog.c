/* SPDX-License-Identifier: MIT */
/*
 * The program the CLI tests run: each mode makes a known sequence of
 * system calls, so sysgate's output can be compared with a golden file
 * and with strace's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int basic(void)
{
	char buf[8];
	int fd;

	write(1, "hello\n", 6);
	openat(AT_FDCWD, "/nonexistent/sysgate", O_RDONLY);
	close(-1);
	fd = openat(AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC);
	read(fd, buf, sizeof(buf));
	lseek(fd, 0, SEEK_SET);
	lseek(-1, 0, SEEK_SET);
	close(fd);
	return 0;
}

static long per_thread;

/* Code written at run time, as a JIT would: lseek(fd, off, whence) by a
 * raw syscall (mov $8,%eax; syscall; ret). */
static long (*jit_lseek)(long, long, long);
static pthread_barrier_t jit_ready;

static void make_jit(void)
{
	static const unsigned char code[] = { 0xb8, 0x08, 0, 0, 0, 0x0f, 0x05,
					      0xc3 };
	unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memcpy(p, code, sizeof(code));
	mprotect(p, 4096, PROT_READ | PROT_EXEC);
	jit_lseek = (long (*)(long, long, long))p;
}

/* A thread that exists before the code is written, calls it after. */
static void *jit_early(void *arg)
{
	pthread_barrier_wait(&jit_ready);
	return (void *)jit_lseek(-44, 7, SEEK_SET);
}

static void *jit_late(void *arg)
{
	return (void *)jit_lseek(-45, 7, SEEK_SET);
}

static void *getppid_loop(void *arg)
{
	long i;

	for (i = 0; i < per_thread; i++)
		syscall(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(mode, "basic"))
		return basic();
	if (!strcmp(mode, "getppid")) {
		long i, r = 0;

		for (i = 0; i < n; i++)
			r = syscall(SYS_getppid);
		printf("%ld\n", r);
		return 0;
	}
	if (!strcmp(mode, "lseek")) {
		/* Prints what each of n lseeks returned (the loader makes
		 * none, so counts compare with strace's). */
		int fd = open("/dev/null", O_RDONLY);
		long i;

		for (i = 0; i < n; i++)
			printf("%s\n", lseek(fd, 0, SEEK_SET) < 0 ?
					       strerror(errno) : "ok");
		return 0;
	}
	if (!strcmp(mode, "open")) {
		/* Prints what each of n opens of /dev/null returned. */
		long i;

		for (i = 0; i < n; i++) {
			int fd = open("/dev/null", O_RDONLY);

			printf("%s\n", fd < 0 ? strerror(errno) : "ok");
			if (fd >= 0)
				close(fd);
		}
		return 0;
	}
	if (!strcmp(mode, "threads")) {
		/* n threads, each making argv[3] getppid calls */
		pthread_t t[64];
		long i;

		per_thread = argc > 3 ? atol(argv[3]) : 100;
		for (i = 0; i < n && i < 64; i++)
			pthread_create(&t[i], 0, getppid_loop, 0);
		for (i = 0; i < n && i < 64; i++)
			pthread_join(t[i], 0);
		printf("%ld calls\n", n * per_thread);
		return 0;
	}
	if (!strcmp(mode, "dlopen")) {
		/* argv[2]: a library with raw_lseek, loaded only now */
		void *h = dlopen(argv[2], RTLD_NOW);
		long (*fn)(long, long, long);

		if (!h) {
			fprintf(stderr, "prog: %s\n", dlerror());
			return 1;
		}
		fn = (long (*)(long, long, long))dlsym(h, "raw_lseek");
		printf("%ld\n", fn(-42, 7, SEEK_SET));
		return 0;
	}
	if (!strcmp(mode, "jit")) {
		pthread_t early, late;
		void *r1, *r2;

		pthread_barrier_init(&jit_ready, 0, 2);
		pthread_create(&early, 0, jit_early, 0);
		make_jit();
		pthread_barrier_wait(&jit_ready);
		pthread_create(&late, 0, jit_late, 0);
		printf("%ld\n", jit_lseek(-43, 7, SEEK_SET));
		pthread_join(early, &r1);
		pthread_join(late, &r2);
		printf("%ld %ld\n", (long)r1, (long)r2);
		return 0;
	}
	if (!strcmp(mode, "exit"))
		return (int)n;
	if (!strcmp(mode, "kill")) {
		signal((int)n, SIG_DFL);
		kill(getpid(), (int)n);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		int st;
		pid_t p = fork();

		if (p == 0) {
			write(1, "child\n", 6);
			_exit(7);
		}
		waitpid(p, &st, 0);
		printf("child exit %d\n", WEXITSTATUS(st));
		return 0;
	}
	if (!strcmp(mode, "run") && argc > 2) {
		/* run PATH ARGS...: become another program */
		execv(argv[2], argv + 2);
		return 127;
	}
	if (!strcmp(mode, "exec")) {
		execl(argv[0], argv[0], "basic", (char *)0);
		return 127;
	}
	fprintf(stderr, "prog: unknown mode %s\n", mode);
	return 2;
}
