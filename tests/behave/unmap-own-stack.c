/* SPDX-License-Identifier: MIT */
/*
 * Threads that end themselves the way musl's detached threads do: the
 * thread unmaps its own stack and exits with two raw calls that need no
 * stack (__unmapself).  And a thread that makes another and exits before
 * its new thread has run (pinned to one CPU, the creator goes on first):
 * the new one must not depend on its creator's state, which is gone.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "../lib/util.h"

#define FUTEX_WAIT_ 0		/* (musl has no <linux/futex.h>) */
#define STACK (64 * 1024)
#define ROUNDS 20

static volatile int tid_word;

static int unmap_self(void *stack)
{
	/* A call that runs on this stack first, as a real thread's would. */
	test_assert(syscall(SYS_getpid) > 0);
	__asm__ volatile("syscall\n\t"
			 "xor %%edi, %%edi\n\t"
			 "mov $60, %%eax\n\t"
			 "syscall"
			 : : "a"(11L), "D"(stack), "S"((long)STACK)
			 : "rcx", "r11", "memory");
	__builtin_unreachable();
}

static sem_t done;

static void *grandchild(void *arg)
{
	(void)arg;
	test_assert(syscall(SYS_getpid) > 0);
	sem_post(&done);
	return 0;
}

/* Makes a thread and exits at once: on one CPU it runs out before the
 * new thread starts. */
static void *creator(void *arg)
{
	pthread_attr_t a;
	pthread_t t;

	(void)arg;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	test_assert(pthread_create(&t, &a, grandchild, 0) == 0);
	return 0;
}

int main(void)
{
	cpu_set_t one;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		char *stack = mmap(0, STACK, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		test_assert(stack != MAP_FAILED);
		tid_word = 1;
		test_assert(clone(unmap_self, stack + STACK,
				  CLONE_VM | CLONE_FS | CLONE_FILES |
					  CLONE_SIGHAND | CLONE_THREAD |
					  CLONE_SYSVSEM | CLONE_CHILD_CLEARTID,
				  stack, 0, 0, &tid_word) > 0);
		while (tid_word)
			syscall(SYS_futex, &tid_word, FUTEX_WAIT_, 1, 0, 0, 0);
		/* gone: mapping it again at that place works */
		test_assert(mmap(stack, STACK, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				 -1, 0) == stack);
		munmap(stack, STACK);
	}
	atomic_puts("threads that unmapped their own stack: ended");

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	test_assert(sched_setaffinity(0, sizeof(one), &one) == 0);
	sem_init(&done, 0, 0);
	for (i = 0; i < ROUNDS; i++) {
		pthread_t t;

		test_assert(pthread_create(&t, 0, creator, 0) == 0);
		pthread_join(t, 0);
		sem_wait(&done);
	}
	atomic_puts("threads whose creator had ended: ran");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
