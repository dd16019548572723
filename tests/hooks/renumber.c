/* SPDX-License-Identifier: MIT */
/*
 * A SYSGATE_HOOK_NOFPU hook alone on getppid, so its calls take the lean
 * path of core/dispatch.c: enter() makes each getppid a getpid, exit()
 * turns a result that is the process's pid (the same call made again,
 * raw) into 4343.  A program's getppid returns 4343 only if both
 * callbacks ran and what enter() changed reached the kernel; getppid(1)
 * is answered by enter() with 4242, which exit() (run for an answered
 * call too, with SYSGATE_SYS_SKIPPED) makes 4243.
 *
 *   cc -shared -fPIC -mgeneral-regs-only -o renumber.so renumber.c
 */
#include "sysgate.h"

static long nr_getpid;

static int renumber_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	nr_getpid = sysgate_syscall_number("getpid");
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict renumber_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (s->args[0] == 1) {
		s->ret = 4242;
		return SYSGATE_SKIP;
	}
	s->nr = nr_getpid;
	return SYSGATE_RUN;
}

static void renumber_exit(struct sysgate_sys *s, void *data)
{
	struct sysgate_result r = sysgate_syscall2(nr_getpid, 0, 0, 0, 0, 0, 0);

	(void)data;
	if (s->flags & SYSGATE_SYS_SKIPPED)
		s->ret++;
	else if (s->nr == nr_getpid && s->ret == r.ret)
		s->ret = 4343;
}

static const struct sysgate_hook renumber_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "renumber",
	.init = renumber_init,
	.enter = renumber_enter,
	.exit = renumber_exit,
};

SYSGATE_HOOK_DEFINE(renumber_hook);
