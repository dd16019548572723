/* SPDX-License-Identifier: MIT */
/*
 * A hook that does what --fs's CephFS store does through libcephfs: at
 * its first callback it starts a thread of its own with every signal
 * blocked, and that thread keeps running the program's C library --
 * getuid, getgid, geteuid, getegid and sched_yield, the very sites
 * tests/cli/live-prog's threads make sysgate patch while they run.  A
 * breakpoint of a patch being written, met with SIGTRAP blocked, kills
 * the process: announced with sysgate_hook_threads(), nothing is
 * patched from then on.  The argument "unannounced" leaves the call
 * out (to see that the test can fail).  The callback returns once the
 * thread is in its loop; it counts the getppid calls it sees.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysgate.h"

static int announce = 1, started, looping;
static long seen;

static int ownthreads_init(struct sysgate_ctx *ctx, const char *args)
{
	if (args && !strcmp(args, "unannounced"))
		announce = 0;
	return sysgate_select_name(ctx, "getppid");
}

static volatile unsigned long sink;

/* Every signal blocked from the thread's own code, which no patch or
 * trap covers: a library's mask that sysgate does not see.  (Through the
 * C library the mask might pass sysgate and keep SIGTRAP open.) */
static void block_all_unseen(void)
{
	unsigned long all = ~0UL;
#if defined(__x86_64__)
	register long size __asm__("r10") = 8;
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_rt_sigprocmask), "D"((long)SIG_BLOCK),
			   "S"(&all), "d"(0L), "r"(size)
			 : "rcx", "r11", "memory");
	(void)r;
#else
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, 0, 8);
#endif
}

static void *worker(void *arg)
{
	block_all_unseen();
	__atomic_store_n(&looping, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		sink += getuid() + getgid() + geteuid() + getegid();
		sched_yield();
	}
	return arg;
}

static void start_worker(void)
{
	sigset_t all, old;
	pthread_t t;

	if (announce)
		sysgate_hook_threads();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, 0, worker, 0) == 0)
		pthread_detach(t);
	else
		__atomic_store_n(&looping, 1, __ATOMIC_SEQ_CST);
	pthread_sigmask(SIG_SETMASK, &old, 0);
}

static enum sysgate_verdict ownthreads_enter(struct sysgate_sys *s,
					     void *data)
{
	(void)s;
	(void)data;
	__atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
	if (!__atomic_exchange_n(&started, 1, __ATOMIC_SEQ_CST))
		start_worker();
	while (!__atomic_load_n(&looping, __ATOMIC_SEQ_CST))
		sched_yield();
	return SYSGATE_RUN;
}

static void ownthreads_fini(void *data)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "ownthreads: %ld getppid\n",
			 __atomic_load_n(&seen, __ATOMIC_RELAXED));

	(void)data;
	if (write(2, line, n) < 0)
		return;
}

static const struct sysgate_hook ownthreads_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "ownthreads",
	.init = ownthreads_init,
	.enter = ownthreads_enter,
	.fini = ownthreads_fini,
};

SYSGATE_HOOK_DEFINE(ownthreads_hook);
