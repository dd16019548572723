/* SPDX-License-Identifier: MIT */
/*
 * The smallest useful hook: it selects the syscalls named in its argument
 * (--hook=null.so:getppid,read) and lets them run.  `sysgate bench` uses it
 * to measure the cost of passing a hooked call to the kernel.
 *
 *   cc -shared -fPIC -mgeneral-regs-only -o null.so null.c
 */
#include <string.h>
#include "sysgate.h"

static int null_init(struct sysgate_ctx *ctx, const char *args)
{
	char name[64];

	while (args && *args) {
		size_t n = strcspn(args, ",");

		if (n >= sizeof(name))
			return sysgate_error(ctx, "syscall name too long");
		memcpy(name, args, n);
		name[n] = 0;
		if (sysgate_select_name(ctx, name) < 0)
			return sysgate_error(ctx, "unknown syscall");
		args += n + (args[n] == ',');
	}
	return 0;
}

static enum sysgate_verdict null_enter(struct sysgate_sys *s, void *data)
{
	(void)s;
	(void)data;
	return SYSGATE_RUN;
}

static const struct sysgate_hook null_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "null",
	.init = null_init,
	.enter = null_enter,
};

SYSGATE_HOOK_DEFINE(null_hook);
