/* SPDX-License-Identifier: MIT */
/*
 * A user hook that counts thread_start callbacks and getppid calls, and
 * says when fork_child runs: every new thread, however it was made
 * (pthread_create, clone with its own stack, clone3), must be announced
 * before it runs program code.  The process that loaded it reports at the
 * end; a forked child says only that its callback ran.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sysgate.h"

static long starts, calls, pid;

static int starts_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	pid = getpid();
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict starts_enter(struct sysgate_sys *s, void *data)
{
	(void)s;
	(void)data;
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	return SYSGATE_RUN;
}

static void starts_thread(void *data)
{
	(void)data;
	__atomic_add_fetch(&starts, 1, __ATOMIC_RELAXED);
}

static void say(const char *line)
{
	if (write(2, line, strlen(line)) < 0)
		return;
}

static void starts_fork_child(void *data)
{
	(void)data;
	say("starts: fork_child ran\n");
}

static void starts_fini(void *data)
{
	char line[96];

	(void)data;
	if (getpid() != pid)
		return;
	snprintf(line, sizeof(line), "starts: %ld threads, %ld getppid\n",
		 starts, calls);
	say(line);
}

static const struct sysgate_hook starts_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "starts",
	.init = starts_init,
	.enter = starts_enter,
	.thread_start = starts_thread,
	.fork_child = starts_fork_child,
	.fini = starts_fini,
};

SYSGATE_HOOK_DEFINE(starts_hook);
