/* SPDX-License-Identifier: MIT */
/*
 * A user hook that does what libcephfs does inside --fs's callbacks:
 * every signal blocked around its own work (pthread_sigmask), then C
 * library calls the program may never have made (their sites run for
 * the first time here), and a thread started and joined, whose
 * pthread_create blocks every signal around its clone too.  In a child
 * on its parent's memory (vfork) only the calls.  It reports how many
 * callbacks did all that, with the mask back as it was.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysgate.h"

static long done, pid;

static int blockall_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	pid = getpid();
	return sysgate_select_name(ctx, "getppid");
}

static void *worker(void *arg)
{
	return syscall(SYS_gettid) > 0 ? arg : 0;
}

static enum sysgate_verdict blockall_enter(struct sysgate_sys *s, void *data)
{
	sigset_t all, old, back;
	pthread_t t;
	void *ok = 0;

	(void)s;
	(void)data;
	sigfillset(&all);
	/* (the kernel writes 8 bytes of a 128-byte sigset_t) */
	memset(&old, 0, sizeof(old));
	memset(&back, 0, sizeof(back));
	if (pthread_sigmask(SIG_SETMASK, &all, &old))
		return SYSGATE_RUN;
	if (syscall(SYS_gettid) > 0 && getpriority(PRIO_PROCESS, 0) >= -20 &&
	    sched_yield() == 0) {
		if (getpid() != pid)	/* (a vfork child: calls only) */
			ok = &done;
		else if (pthread_create(&t, 0, worker, &done) == 0)
			pthread_join(t, &ok);
	}
	pthread_sigmask(SIG_SETMASK, &old, 0);
	pthread_sigmask(SIG_SETMASK, 0, &back);
	if (ok && !memcmp(&old, &back, sizeof(old)))
		__atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
	return SYSGATE_RUN;
}

static void blockall_fini(void *data)
{
	char line[64];
	int n;

	(void)data;
	if (getpid() != pid)
		return;
	n = snprintf(line, sizeof(line), "blockall: %ld callbacks\n", done);
	if (write(2, line, n) < 0)
		return;
}

static const struct sysgate_hook blockall_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "blockall",
	.init = blockall_init,
	.enter = blockall_enter,
	.fini = blockall_fini,
};

SYSGATE_HOOK_DEFINE(blockall_hook);
