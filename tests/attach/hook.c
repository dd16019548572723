/* SPDX-License-Identifier: MIT */
/*
 * A hook library for sysgate -p --hook: answers getppid with 4242 and, at
 * detach (fini), says how many it answered.  It leans on what linking it
 * into a running process must provide: a constructor that has run, libc
 * functions of the process (snprintf; strlen, a GNU indirect function),
 * a destructor, and vector registers (built without
 * -mgeneral-regs-only, so sysgate keeps the program's around it).
 */
#include <stdio.h>
#include <string.h>
#include "sysgate.h"

static int constructed;
static long answered;
static struct sysgate_ctx *out;

__attribute__((constructor)) static void made(void)
{
	constructed = 1;
}

static int hook_init(struct sysgate_ctx *ctx, const char *args)
{
	if (!constructed)
		return sysgate_error(ctx, "its constructor did not run");
	if (strlen(args) != 4 || strcmp(args, "4242"))
		return sysgate_error(ctx, "wants its argument 4242");
	out = ctx;
	return sysgate_select(ctx, sysgate_syscall_number("getppid"));
}

static enum sysgate_verdict hook_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	s->ret = 4242;
	__atomic_add_fetch(&answered, 1, __ATOMIC_RELAXED);
	return SYSGATE_SKIP;
}

static void hook_fini(void *data)
{
	char line[80];
	int n = snprintf(line, sizeof(line), "hook answered %ld getppid\n",
			 answered);

	(void)data;
	sysgate_output(out, line, n);
}

static const struct sysgate_hook hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "answer",
	.init = hook_init,
	.enter = hook_enter,
	.fini = hook_fini,
};

SYSGATE_HOOK_DEFINE(hook);
