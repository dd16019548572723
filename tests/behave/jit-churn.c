/* SPDX-License-Identifier: MIT */
/*
 * Run-time code that sysgate patches after it traps, in threads, while
 * other threads keep mapping, re-protecting and unmapping memory of their
 * own (as a JVM's collector does) and each code thread makes its own page
 * writable again, reads it back and rewrites it.  Memory calls that touch
 * nothing patched skip the patch lock (mechanisms/patch/lazy.c): the code
 * must still read back exactly as written and run what was written last.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "../lib/util.h"

#define CODERS 3
#define CHURNERS 2
#define ROUNDS 60
#define CALLS 300

typedef long (*fn)(void);

static int done;

/* mov $nr,%eax; syscall; ret; int3 padding */
static void emit(unsigned char *p, int nr)
{
	static const unsigned char code[] = { 0xb8, 0, 0, 0, 0, 0x0f, 0x05,
					      0xc3, 0xcc, 0xcc, 0xcc, 0xcc };

	memcpy(p, code, sizeof(code));
	memcpy(p + 1, &nr, 4);
}

static void *coder(void *arg)
{
	unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char written[12];
	long wrong = 0, changed = 0, i, r;

	(void)arg;
	test_assert(p != MAP_FAILED);
	for (r = 0; r < ROUNDS; r++) {
		int nr = r & 1 ? SYS_getppid : SYS_getpid;
		long want = r & 1 ? getppid() : getpid();

		emit(p, nr);
		emit(written, nr);
		test_assert(mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0);
		for (i = 0; i < CALLS; i++)
			wrong += ((fn)p)() != want;
		test_assert(mprotect(p, 4096, PROT_READ | PROT_WRITE) == 0);
		changed += memcmp(p, written, sizeof(written)) != 0;
	}
	test_assert(munmap(p, 4096) == 0);
	return (void *)(wrong << 16 | changed);
}

static void *churner(void *arg)
{
	long n = 0;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		unsigned char *m = mmap(0, 65536, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		test_assert(m != MAP_FAILED);
		m[n % 65536] = 1;
		test_assert(mprotect(m, 65536, PROT_READ) == 0);
		test_assert(mmap(m, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
				 0) == m);
		test_assert(madvise(m, 65536, MADV_DONTNEED) == 0);
		test_assert(munmap(m, 65536) == 0);
		n++;
	}
	return 0;
}

int main(void)
{
	pthread_t c[CODERS], k[CHURNERS];
	long wrong = 0, changed = 0, i;
	void *r;

	for (i = 0; i < CHURNERS; i++)
		test_assert(pthread_create(&k[i], 0, churner, 0) == 0);
	for (i = 0; i < CODERS; i++)
		test_assert(pthread_create(&c[i], 0, coder, 0) == 0);
	for (i = 0; i < CODERS; i++) {
		test_assert(pthread_join(c[i], &r) == 0);
		wrong += (long)r >> 16;
		changed += (long)r & 0xffff;
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	for (i = 0; i < CHURNERS; i++)
		test_assert(pthread_join(k[i], 0) == 0);
	printf("calls that ran other code: %ld\n", wrong);
	printf("rounds whose code read back changed: %ld\n", changed);
	printf("ok\n");
	return 0;
}
