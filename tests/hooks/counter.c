/* SPDX-License-Identifier: MIT */
/*
 * A user hook that does what hooks are promised they may do: keep
 * thread-local state, call libc (malloc, snprintf, fopen) from callbacks,
 * and report at the end.  It counts getppid calls per thread and in all.
 *
 *   --hook=counter.so[:NAME]   count NAME instead of getppid
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysgate.h"

static __thread long mine;		/* this thread's calls */
static __thread int counted_thread;
static long total, threads, libc_ok;
static struct sysgate_ctx *self;

static int counter_init(struct sysgate_ctx *ctx, const char *args)
{
	self = ctx;
	if (sysgate_select_name(ctx, args && *args ? args : "getppid") < 0)
		return sysgate_error(ctx, "counter: unknown syscall");
	return 0;
}

static enum sysgate_verdict counter_enter(struct sysgate_sys *s, void *data)
{
	(void)s;
	(void)data;
	if (!counted_thread) {
		counted_thread = 1;
		__atomic_add_fetch(&threads, 1, __ATOMIC_RELAXED);
	}
	mine++;
	__atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
	if (mine % 100 == 1) {
		/* libc from a callback: its own syscalls go to the kernel. */
		char *p = malloc(64);
		FILE *f = fopen("/proc/self/stat", "r");

		if (p && f && snprintf(p, 64, "%ld", mine) > 0 &&
		    fgets(p, 64, f))
			__atomic_add_fetch(&libc_ok, 1, __ATOMIC_RELAXED);
		if (f)
			fclose(f);
		free(p);
	}
	return SYSGATE_RUN;
}

static void counter_fini(void *data)
{
	char line[128];
	int n;

	(void)data;
	n = snprintf(line, sizeof(line),
		     "counter: %ld calls in %ld threads, libc ok %ld\n",
		     total, threads, libc_ok);
	sysgate_output(self, line, n);
}

static const struct sysgate_hook counter_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "counter",
	.init = counter_init,
	.enter = counter_enter,
	.fini = counter_fini,
};

SYSGATE_HOOK_DEFINE(counter_hook);
