/* SPDX-License-Identifier: MIT */
/*
 * A SYSGATE_HOOK_NOFPU hook with enter() alone on getppid and getrandom: the
 * calls an entry stub runs without C where it can (core/entry.h's fast
 * path), and dispatch.c's lean path where it cannot.
 *   getppid(1): answered, with 4242 if the record holds what the core
 *     fills (number, argument, pid, tid, pc, zeros), else 4000 + the
 *     first field found wrong;
 *   getppid(2): made a getuid, which the kernel runs;
 *   getrandom(buf, 99, flags): 99 made 4, which the kernel runs.
 *
 *   cc -shared -fPIC -mgeneral-regs-only -o fastpath.so fastpath.c
 */
#include "sysgate.h"

static long nr_getppid, nr_getpid, nr_gettid, nr_getuid, nr_getrandom;

static int fast_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	nr_getppid = sysgate_syscall_number("getppid");
	nr_getpid = sysgate_syscall_number("getpid");
	nr_gettid = sysgate_syscall_number("gettid");
	nr_getuid = sysgate_syscall_number("getuid");
	nr_getrandom = sysgate_syscall_number("getrandom");
	if (sysgate_select(ctx, nr_getppid) < 0)
		return -22;
	return sysgate_select(ctx, nr_getrandom);
}

/* 0 if s is the record of getppid(1) made by this thread */
static long record_wrong(const struct sysgate_sys *s)
{
	if (s->nr != nr_getppid)
		return 1;
	if (s->args[0] != 1)
		return 2;
	if (s->pid != sysgate_syscall(nr_getpid, 0, 0, 0, 0, 0, 0))
		return 3;
	if (s->tid != sysgate_syscall(nr_gettid, 0, 0, 0, 0, 0, 0))
		return 4;
	if (!s->pc)
		return 5;
	if (s->ret || s->ret2 || s->flags || s->note || s->enter_ns)
		return 6;
	return 0;
}

static enum sysgate_verdict fast_enter(struct sysgate_sys *s, void *data)
{
	long w;

	(void)data;
	if (s->nr == nr_getrandom) {
		if (s->args[1] == 99)
			s->args[1] = 4;
		return SYSGATE_RUN;
	}
	if (s->args[0] == 2) {
		s->nr = nr_getuid;
		return SYSGATE_RUN;
	}
	if (s->args[0] != 1)
		return SYSGATE_RUN;
	w = record_wrong(s);
	s->ret = w ? 4000 + w : 4242;
	return SYSGATE_SKIP;
}

static const struct sysgate_hook fast_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "fastpath",
	.init = fast_init,
	.enter = fast_enter,
};

SYSGATE_HOOK_DEFINE(fast_hook);
