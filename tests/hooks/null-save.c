/* SPDX-License-Identifier: MIT */
/*
 * hooks/examples/null.c without SYSGATE_HOOK_NOFPU, whose enter() reaches
 * its work through a function pointer: sysgate cannot show it FPU-free
 * (core/hooks.c), so each callback pays the save of the program's FPU
 * state.  scripts/hotpath.sh measures that save with it:
 * --hook=null-save.so:getppid=4242 answers, :getppid passes on.
 */
#include <stdlib.h>
#include <string.h>
#include "sysgate.h"

static long answer[SYSGATE_NR_MAX];
static unsigned char answered[SYSGATE_NR_MAX];

static int init(struct sysgate_ctx *ctx, const char *args)
{
	const char *eq = args ? strchr(args, '=') : 0;
	char name[64];
	size_t n = eq ? (size_t)(eq - args) : args ? strlen(args) : 0;
	long nr;

	if (!n || n >= sizeof(name))
		return sysgate_error(ctx, "usage: null-save.so:NAME[=VALUE]");
	memcpy(name, args, n);
	name[n] = 0;
	nr = sysgate_syscall_number(name);
	if (nr < 0 || nr >= SYSGATE_NR_MAX || sysgate_select(ctx, nr) < 0)
		return sysgate_error(ctx, "unknown syscall");
	if (eq) {
		answer[nr] = strtol(eq + 1, 0, 0);
		answered[nr] = 1;
	}
	return 0;
}

static enum sysgate_verdict verdict(struct sysgate_sys *s)
{
	if (!answered[s->nr])
		return SYSGATE_RUN;
	s->ret = answer[s->nr];
	return SYSGATE_SKIP;
}

static enum sysgate_verdict (*volatile work)(struct sysgate_sys *) = verdict;

static enum sysgate_verdict enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	return work(s);
}

static const struct sysgate_hook hook = {
	.abi = SYSGATE_HOOK_ABI, .name = "null-save",
	.init = init, .enter = enter,
};
SYSGATE_HOOK_DEFINE(hook);
