/* SPDX-License-Identifier: MIT */
/*
 * A hook that keeps clone, clone3 and vfork by their record, as the trace
 * hook keeps every call it waits on: the caller's exit() must get the
 * record enter() got, with the call still in it.  Where it does not, the
 * process ends at once with status 86, saying why.  (The caller's exit
 * side runs after the call ran at the program's stack pointer, where a
 * vfork child has run since.)
 */
#include <unistd.h>
#include <sys/syscall.h>
#include "sysgate.h"

#define NEST 8

/* This thread's calls between their enter() and exit(). */
static __thread struct {
	struct sysgate_sys *s[NEST];
	long nr[NEST];
	int n;
} open_calls;

static int samerec_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	if (sysgate_select_name(ctx, "clone") < 0 ||
	    sysgate_select_name(ctx, "clone3") < 0)
		return -1;
	/* (vfork is x86-64's alone) */
	sysgate_select_name(ctx, "vfork");
	return 0;
}

static enum sysgate_verdict samerec_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (open_calls.n < NEST) {
		open_calls.s[open_calls.n] = s;
		open_calls.nr[open_calls.n] = s->nr;
	}
	open_calls.n++;
	return SYSGATE_RUN;
}

static void samerec_exit(struct sysgate_sys *s, void *data)
{
	int i;

	(void)data;
	/* (the child's record is its own; a vfork child shares this
	 * thread's variables) */
	if (s->flags & SYSGATE_SYS_CHILD)
		return;
	i = --open_calls.n;
	if (i >= 0 && i < NEST && open_calls.s[i] == s &&
	    open_calls.nr[i] == s->nr)
		return;
	write(2, "samerec: exit() got another record\n", 35);
	sysgate_syscall(SYS_exit_group, 86, 0, 0, 0, 0, 0);
}

static const struct sysgate_hook samerec_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "samerec",
	.init = samerec_init,
	.enter = samerec_enter,
	.exit = samerec_exit,
};

SYSGATE_HOOK_DEFINE(samerec_hook);
