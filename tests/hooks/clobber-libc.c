/* SPDX-License-Identifier: MIT */
/*
 * A hook without SYSGATE_HOOK_NOFPU whose enter() uses no vector register
 * itself but calls the C library's memset, which does (glibc's AVX2 and
 * EVEX versions): sysgate must not take its callbacks for FPU-free
 * (core/hooks.c, x86_fpu_free) and must keep the program's registers.
 */
#include <string.h>
#include "sysgate.h"

static char buf[4096];
static void *(*volatile set)(void *, int, size_t) = memset;

static int init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	set(buf, (int)s->nr + 1, sizeof(buf) - (s->args[0] & 1));
	return SYSGATE_RUN;
}

static const struct sysgate_hook hook = {
	.abi = SYSGATE_HOOK_ABI, .name = "clobber-libc",
	.init = init, .enter = enter,
};
SYSGATE_HOOK_DEFINE(hook);
