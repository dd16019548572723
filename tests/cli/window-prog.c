/* SPDX-License-Identifier: MIT */
/*
 * For tests/hooks/window.c: code in write+exec memory (which no patch
 * ever covers, so syscall user dispatch stays on), then getppid three
 * times from this thread and twice from a thread of the program's.
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *twice(void *arg)
{
	(void)arg;
	getppid();
	getppid();
	return 0;
}

int main(void)
{
	/* mov $39,%eax (getpid); syscall; ret */
	static const unsigned char code[] = { 0xb8, 39, 0, 0, 0, 0x0f, 0x05,
					      0xc3 };
	unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t t;
	int i;

	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof(code));
	if (((long (*)(void))p)() != getpid())
		return 1;
	for (i = 0; i < 3; i++)
		getppid();
	if (pthread_create(&t, 0, twice, 0) || pthread_join(t, 0))
		return 1;
	return 0;
}
