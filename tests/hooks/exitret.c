/* SPDX-License-Identifier: MIT */
/*
 * A user hook whose exit() changes the result: getppid returns 4242 when
 * exit() saw both result registers as the kernel leaves them (the same
 * call made again, raw, gives the same), the kernel's own result if not.
 * A hooked call that the core does not handle is made by the entry stub,
 * which comes back to C for exit(): this checks what C is given and that
 * what exit() leaves reaches the program.
 */
#include "sysgate.h"

static int exitret_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	return sysgate_select_name(ctx, "getppid");
}

static void exitret_exit(struct sysgate_sys *s, void *data)
{
	const long *a = s->args;
	struct sysgate_result r = sysgate_syscall2(s->nr, a[0], a[1], a[2],
						   a[3], a[4], a[5]);

	(void)data;
	if (r.ret == s->ret && r.ret2 == s->ret2)
		s->ret = 4242;
}

static const struct sysgate_hook exitret_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "exitret",
	.init = exitret_init,
	.exit = exitret_exit,
};

SYSGATE_HOOK_DEFINE(exitret_hook);
