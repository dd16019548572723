/* SPDX-License-Identifier: MIT */
/*
 * The program the CLI tests run: each mode makes a known sequence of
 * system calls, so sysgate's output can be compared with a golden file
 * and with strace's.
 */
#define _GNU_SOURCE
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
 * raw syscall (mov $8,%eax; syscall; ret), padded with int3 as compilers
 * pad functions. */
static long (*jit_lseek)(long, long, long);
static pthread_barrier_t jit_ready;

static void make_jit(void)
{
	static const unsigned char code[] = { 0xb8, 0x08, 0, 0, 0, 0x0f, 0x05,
					      0xc3, 0xcc, 0xcc, 0xcc, 0xcc };
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

/* n calls through the run-time code; how many came back wrong. */
static long jit_calls(long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += jit_lseek(-1, 0, SEEK_SET) != -9;
	return bad;
}

/* Waits for the second code, then is the first to call it. */
static void *jit_rearm_thread(void *arg)
{
	pthread_barrier_wait(&jit_ready);
	return (void *)jit_calls((long)arg);
}

/* getppid-arg-thread: n, A, the last result */
static long ppid_arg[3];

static void *getppid_arg_calls(void *unused)
{
	long i;

	(void)unused;
	for (i = 0; i < ppid_arg[0]; i++)
		ppid_arg[2] = syscall(SYS_getppid, ppid_arg[1]);
	return 0;
}

static void *getppid_loop(void *arg)
{
	long i;

	for (i = 0; i < per_thread; i++)
		syscall(SYS_getppid);
	return arg;
}

/*
 * n getppid calls; what they returned, as "N x getppid = R" (or a line
 * saying they differ), so a test knows the trace lines to expect.
 */
struct ppid_run {
	long n, value;
	int same;
};

static void *ppid_calls(void *arg)
{
	struct ppid_run *r = arg;
	long i, v;

	r->same = 1;
	for (i = 0; i < r->n; i++) {
		v = syscall(SYS_getppid);
		if (!i)
			r->value = v;
		else if (v != r->value)
			r->same = 0;
	}
	return r;
}

/* "ppid N", "ppid-threads T N" (T threads at once), "ppid-fork N" (a
 * child first, then the parent) */
static int ppid_mode(const char *mode, long n, long per)
{
	struct ppid_run r[64];
	pthread_t t[64];
	long i, threads = 1;
	int same = 1;

	if (!strcmp(mode, "ppid-fork")) {
		pid_t p = fork();
		int st;

		if (p == 0)
			exit(ppid_mode("ppid", n, 0));
		waitpid(p, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
		return ppid_mode("ppid", n, 0);
	}
	if (!strcmp(mode, "ppid-threads")) {
		threads = n < 64 ? n : 64;
		n = per;
	}
	for (i = 0; i < threads; i++) {
		r[i].n = n;
		if (threads == 1)
			ppid_calls(&r[i]);
		else
			pthread_create(&t[i], 0, ppid_calls, &r[i]);
	}
	for (i = 0; i < threads; i++) {
		if (threads > 1)
			pthread_join(t[i], 0);
		same &= r[i].same && r[i].value == r[0].value;
	}
	if (!same) {
		printf("getppid results differ\n");
		return 1;
	}
	printf("%ld x getppid = %ld\n", threads * n, r[0].value);
	return 0;
}

/* A copy of the file at path in a new memfd; its descriptor. */
static int copy_to_memfd(const char *path)
{
	char buf[65536];
	int in = open(path, O_RDONLY), fd = memfd_create("rawlib", 0);
	ssize_t n;

	if (in < 0 || fd < 0) {
		perror("prog: memfd");
		exit(1);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n) {
			perror("prog: memfd write");
			exit(1);
		}
	close(in);
	return fd;
}

static volatile int usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(mode, "basic"))
		return basic();
	if (!strncmp(mode, "ppid", 4))
		return ppid_mode(mode, n, argc > 3 ? atol(argv[3]) : 0);
	if (!strcmp(mode, "getppid")) {
		long i, r = 0;

		for (i = 0; i < n; i++)
			r = syscall(SYS_getppid);
		printf("%ld\n", r);
		return 0;
	}
	if (!strcmp(mode, "getppid-arg")) {
		/* "getppid-arg N A": n calls with A as the first argument
		 * (which getppid ignores, and a hook may read) */
		long i, r = 0, a = argc > 3 ? atol(argv[3]) : 0;

		for (i = 0; i < n; i++)
			r = syscall(SYS_getppid, a);
		printf("%ld\n", r);
		return 0;
	}
	if (!strcmp(mode, "getppid-arg-thread")) {
		/* the same from a thread of its own (whose tid is not the
		 * pid) */
		pthread_t t;

		ppid_arg[0] = n;
		ppid_arg[1] = argc > 3 ? atol(argv[3]) : 0;
		pthread_create(&t, 0, getppid_arg_calls, 0);
		pthread_join(t, 0);
		printf("%ld\n", ppid_arg[2]);
		return 0;
	}
	if (!strcmp(mode, "getrandom")) {
		/* "getrandom N LEN": what each of n getrandom(buf, LEN, 0)
		 * returned, the last one printed */
		char buf[256];
		long i, r = 0, len = argc > 3 ? atol(argv[3]) : 8;

		for (i = 0; i < n; i++)
			r = syscall(SYS_getrandom, buf, len, 0);
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
	if (!strcmp(mode, "fexecve") && argc > 2) {
		/* argv[2] ARGS...: run from a close-on-exec descriptor */
		extern char **environ;

		fexecve(open(argv[2], O_RDONLY | O_CLOEXEC), argv + 2, environ);
		perror("prog: fexecve");
		return 127;
	}
	if (!strcmp(mode, "dlopen-threaded")) {
		/* as "dlopen", once a thread has run (and ended) */
		pthread_t t;

		pthread_create(&t, 0, nothing, 0);
		pthread_join(t, 0);
		mode = "dlopen";
	}
	if (!strcmp(mode, "dlopen-also") && argc > 3) {
		/* argv[2]: a library loaded first and never called, then
		 * as "dlopen" with argv[3] */
		if (!dlopen(argv[2], RTLD_NOW)) {
			fprintf(stderr, "prog: %s\n", dlerror());
			return 1;
		}
		argv++;
		argc--;
		mode = "dlopen";
	}
	if (!strcmp(mode, "dlopen")) {
		/* argv[2]: a library with raw_lseek, loaded only now; with
		 * argv[3] "memfd", from a copy in a memfd (no file on disk) */
		char path[64];
		void *h;
		long (*fn)(long, long, long);

		if (argc > 3 && !strcmp(argv[3], "memfd")) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d",
				 copy_to_memfd(argv[2]));
			argv[2] = path;
		}
		h = dlopen(argv[2], RTLD_NOW);

		if (!h) {
			fprintf(stderr, "prog: %s\n", dlerror());
			return 1;
		}
		fn = (long (*)(long, long, long))dlsym(h, "raw_lseek");
		/* (three calls: a site is planned at its third trap) */
		fn(-42, 7, SEEK_SET);
		fn(-42, 7, SEEK_SET);
		printf("%ld\n", fn(-42, 7, SEEK_SET));
		return 0;
	}
	if (!strcmp(mode, "dlcall") && argc > 3) {
		/* argv[2]: a library with raw_getppid_n, called with argv[3]:
		 * prints whether it answered as getppid() does */
		void *h = dlopen(argv[2], RTLD_NOW);
		long (*fn)(long);

		if (!h) {
			fprintf(stderr, "prog: %s\n", dlerror());
			return 1;
		}
		fn = (long (*)(long))dlsym(h, "raw_getppid_n");
		printf("%s\n", fn && fn(atol(argv[3])) == getppid() ? "ppid" :
		       "wrong");
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
	if (!strcmp(mode, "jitnosys")) {
		/* run-time code without a syscall: mov $42,%eax; ret */
		static const unsigned char code[] = { 0xb8, 42, 0, 0, 0, 0xc3 };
		unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		memcpy(p, code, sizeof(code));
		mprotect(p, 4096, PROT_READ | PROT_EXEC);
		printf("%ld\n", ((long (*)(void))p)());
		return 0;
	}
	if (!strcmp(mode, "jitloop")) {
		/* n calls through one site of run-time code */
		make_jit();
		printf("%ld wrong\n", jit_calls(n));
		return 0;
	}
	if (!strcmp(mode, "jitrearm")) {
		/* n calls through run-time code, which then goes; new code
		 * (a fresh mapping, wherever the kernel puts it) is called n
		 * times by a thread that existed all along, then n times
		 * here: 3n calls, every one must be seen. */
		pthread_t th;
		void *r;
		long bad;

		pthread_barrier_init(&jit_ready, 0, 2);
		pthread_create(&th, 0, jit_rearm_thread, (void *)n);
		make_jit();
		bad = jit_calls(n);
		munmap((void *)jit_lseek, 4096);
		make_jit();
		pthread_barrier_wait(&jit_ready);
		pthread_join(th, &r);
		bad += (long)r + jit_calls(n);
		printf("%ld wrong\n", bad);
		return 0;
	}
	if (!strcmp(mode, "exit"))
		return (int)n;
	if (!strcmp(mode, "euid")) {
		printf("euid %d\n", (int)geteuid());
		return 0;
	}
	if (!strcmp(mode, "handled")) {
		/* n signals, each caught by a handler that returns */
		long i;

		signal(SIGUSR1, on_usr1);
		for (i = 0; i < n; i++)
			raise(SIGUSR1);
		printf("%d handled\n", usr1_seen);
		return 0;
	}
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
	if (!strcmp(mode, "fork-kill")) {
		/* n children, each sent SIGUSR1 as soon as fork returns:
		 * most get it before their first instruction */
		long i, killed = 0;
		int st;
		pid_t p;

		for (i = 0; i < n; i++) {
			if ((p = fork()) == 0)
				for (;;)
					pause();
			kill(p, SIGUSR1);
			waitpid(p, &st, 0);
			killed += WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1;
		}
		printf("%ld of %ld killed by SIGUSR1\n", killed, n);
		return 0;
	}
	if (!strcmp(mode, "forks")) {
		/* n forks and n vforks, each child gone at once */
		long i;
		pid_t p;

		for (i = 0; i < n; i++) {
			if ((p = fork()) == 0)
				_exit(0);
			waitpid(p, 0, 0);
			if ((p = vfork()) == 0)
				_exit(0);
			waitpid(p, 0, 0);
		}
		printf("%ld forks\n", n);
		return 0;
	}
	if (!strcmp(mode, "vfork-ppid")) {
		/* a getppid in a vfork child, then one in the parent */
		int st;
		pid_t p = vfork();

		if (p == 0) {
			syscall(SYS_getppid);
			execl("/bin/true", "true", (char *)0);
			_exit(127);
		}
		waitpid(p, &st, 0);
		printf("child exit %d, parent %ld\n", WEXITSTATUS(st),
		       (long)(syscall(SYS_getppid) > 0));
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
