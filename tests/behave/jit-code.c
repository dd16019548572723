/* SPDX-License-Identifier: MIT */
/*
 * Code written at run time makes raw system calls, as JIT output would:
 * called many times (sysgate patches such a site after its first trap),
 * from threads at once, with a branch that lands just after the syscall
 * (a patch must leave that instruction whole), rewritten in place after
 * an mprotect (the program must read back exactly what it wrote), mapped
 * again at the same address, in write+exec memory, and in a fork child.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

#define CALLS 20000
#define THREADS 4

typedef long (*fn)(long);

/* mov $nr,%eax; syscall; ret; then int3 padding */
static void simple(unsigned char *p, int nr)
{
	static const unsigned char code[] = { 0xb8, 0, 0, 0, 0, 0x0f, 0x05,
					      0xc3, 0xcc, 0xcc, 0xcc, 0xcc };

	memcpy(p, code, sizeof(code));
	memcpy(p + 1, &nr, 4);
}

/*
 * f(x): eax = 39 (getpid); if x != 0, syscall; then ret.  f(0) jumps
 * straight to the `ret` after the syscall and returns 39.
 *     mov $39,%eax; test %edi,%edi; je 1f; syscall; 1: ret; nop...
 */
static const unsigned char branchy[] = { 0xb8, 39, 0, 0, 0, 0x85, 0xff,
					 0x74, 0x02, 0x0f, 0x05, 0xc3,
					 0x90, 0x90, 0x90 };

static unsigned char *code_page(int prot)
{
	unsigned char *p = mmap(0, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	test_assert(p != MAP_FAILED);
	return p;
}

static long calls(fn f, long arg, long n, long want)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += f(arg) != want;
	return bad;
}

static fn shared_fn;

static void *worker(void *arg)
{
	(void)arg;
	return (void *)calls(shared_fn, 1, CALLS, getpid());
}

int main(void)
{
	unsigned char *p = code_page(PROT_READ | PROT_WRITE), *q, *w;
	unsigned char written[12];
	pthread_t t[THREADS];
	long i, bad = 0;
	void *r;
	int status;

	/* getpid, then a branch into the byte after the syscall */
	simple(p, SYS_getpid);
	memcpy(p + 64, branchy, sizeof(branchy));
	test_assert(mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0);
	printf("simple: %ld wrong\n", calls((fn)p, 0, CALLS, getpid()));
	for (i = 0; i < CALLS; i++)
		bad += ((fn)(p + 64))(i & 1) != (i & 1 ? getpid() : 39);
	printf("branch after syscall: %ld wrong\n", bad);

	/* threads calling one fresh site at once */
	q = code_page(PROT_READ | PROT_WRITE);
	simple(q, SYS_getpid);
	test_assert(mprotect(q, 4096, PROT_READ | PROT_EXEC) == 0);
	shared_fn = (fn)q;
	for (i = 0; i < THREADS; i++)
		test_assert(pthread_create(&t[i], 0, worker, 0) == 0);
	for (bad = 0, i = 0; i < THREADS; i++) {
		test_assert(pthread_join(t[i], &r) == 0);
		bad += (long)r;
	}
	printf("threads: %ld wrong\n", bad);

	/* made writable again: the program finds what it wrote, and its
	 * new code (getppid) runs */
	test_assert(mprotect(p, 4096, PROT_READ | PROT_WRITE) == 0);
	simple(written, SYS_getpid);
	printf("read back: %s\n",
	       !memcmp(p, written, 12) && !memcmp(p + 64, branchy,
						  sizeof(branchy)) ?
		       "as written" : "CHANGED");
	simple(p, SYS_getppid);
	test_assert(mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0);
	printf("rewritten: %ld wrong\n", calls((fn)p, 0, CALLS, getppid()));

	/* unmapped, mapped again at the same place with other code */
	test_assert(munmap(q, 4096) == 0);
	w = mmap(q, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	test_assert(w == q);
	simple(w, SYS_getuid);
	test_assert(mprotect(w, 4096, PROT_READ | PROT_EXEC) == 0);
	printf("mapped again: %ld wrong\n", calls((fn)w, 0, CALLS, getuid()));

	/* write+exec memory, changed between calls without any mprotect */
	w = code_page(PROT_READ | PROT_WRITE | PROT_EXEC);
	for (bad = 0, i = 0; i < 200; i++) {
		simple(w, i & 1 ? SYS_getppid : SYS_getpid);
		bad += calls((fn)w, 0, 50, i & 1 ? getppid() : getpid());
	}
	printf("write+exec: %ld wrong\n", bad);

	/* a child runs the parent's code */
	if (fork() == 0)
		_exit(calls((fn)p, 0, CALLS, getppid()) != 0);
	test_assert(wait(&status) > 0);
	printf("fork child: %s\n", WIFEXITED(status) && !WEXITSTATUS(status) ?
				   "ok" : "wrong");
	printf("ok\n");
	return 0;
}
