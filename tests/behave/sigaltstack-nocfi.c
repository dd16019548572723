/* SPDX-License-Identifier: MIT */
/*
 * A signal stack set by a call that sysgate catches with a signal (syscall
 * user dispatch, the seccomp filter), as Go's runtime sets one in each new
 * thread: it must still be there after that call, so that the next signal
 * runs its handler on it.  Like Go's, every handler asks for the signal
 * stack, SIGSYS's too.  (The return from a handler restores the signal
 * stack the thread had when the signal came; a new thread has none.)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include "../lib/nocfi.h"
#include "../lib/util.h"

static char altstack[1 << 16];
static volatile int on_alt;

static void handler(int sig)
{
	char here;

	(void)sig;
	on_alt = (uintptr_t)&here >= (uintptr_t)altstack &&
		 (uintptr_t)&here < (uintptr_t)altstack + sizeof(altstack);
}

static void *thread_fn(void *arg)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, now;

	(void)arg;
	test_assert(nocfi_syscall(SYS_sigaltstack, (long)&ss, 0, 0, 0, 0) == 0);
	test_assert(nocfi_syscall(SYS_sigaltstack, 0, (long)&now, 0, 0, 0) == 0);
	atomic_printf("signal stack set: %s, %zu bytes\n",
		      now.ss_flags & SS_DISABLE ? "no" : "yes",
		      now.ss_flags & SS_DISABLE ? 0 : now.ss_size);
	test_assert(nocfi_syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1, 0,
				  0) == 0);
	atomic_printf("handler on the signal stack: %s\n", on_alt ? "yes" : "no");
	return 0;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };
	pthread_t t;

	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	test_assert(sigaction(SIGSYS, &sa, 0) == 0);
	test_assert(pthread_create(&t, 0, thread_fn, 0) == 0);
	test_assert(pthread_join(t, 0) == 0);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
