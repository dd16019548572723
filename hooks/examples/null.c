/* SPDX-License-Identifier: MIT */
/*
 * The smallest useful hook: it selects the syscalls named in its argument
 * (--hook=null.so:getppid,read) and lets them run, or answers one itself
 * (--hook=null.so:getppid=4242).  `sysgate bench` uses it to measure what
 * passing a hooked call to the kernel, or answering it, costs.
 *
 *   cc -shared -fPIC -mgeneral-regs-only -o null.so null.c
 *
 * null-fpu.so is the same hook built as a user who copies it without the
 * SYSGATE_HOOK_NOFPU promise would build it (-DNULL_FPU, no
 * -mgeneral-regs-only): sysgate then keeps the program's vector and x87
 * state around each callback, and bench measures what that costs.
 */
#include <stdlib.h>
#include <string.h>
#include "sysgate.h"

#ifdef NULL_FPU
#define NULL_FLAGS 0
#else
#define NULL_FLAGS SYSGATE_HOOK_NOFPU
#endif

static long answer[SYSGATE_NR_MAX];
static unsigned char answered[SYSGATE_NR_MAX];

static int null_init(struct sysgate_ctx *ctx, const char *args)
{
	char name[64], *eq;
	long nr;

	while (args && *args) {
		size_t n = strcspn(args, ",");

		if (n >= sizeof(name))
			return sysgate_error(ctx, "syscall name too long");
		memcpy(name, args, n);
		name[n] = 0;
		eq = strchr(name, '=');
		if (eq)
			*eq = 0;
		nr = sysgate_syscall_number(name);
		if (nr < 0 || nr >= SYSGATE_NR_MAX || sysgate_select(ctx, nr) < 0)
			return sysgate_error(ctx, "unknown syscall");
		if (eq) {
			answer[nr] = strtol(eq + 1, 0, 0);
			answered[nr] = 1;
		}
		args += n + (args[n] == ',');
	}
	return 0;
}

static enum sysgate_verdict null_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (!answered[s->nr])
		return SYSGATE_RUN;
	s->ret = answer[s->nr];
	return SYSGATE_SKIP;
}

static const struct sysgate_hook null_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = NULL_FLAGS,
	.name = "null",
	.init = null_init,
	.enter = null_enter,
};

SYSGATE_HOOK_DEFINE(null_hook);
