/* SPDX-License-Identifier: MIT */
/*
 * hooks/examples/null.c without SYSGATE_HOOK_NOFPU, its enter() reached
 * through a function pointer: sysgate cannot show it FPU-free
 * (core/hooks.c), so each callback pays the save of the program's FPU
 * state.  scripts/hotpath.sh measures that save with it:
 * --hook=null-save.so:getppid=4242 answers, :getppid passes on.
 */
#include "sysgate.h"

/* null.c's own table is not exported: this file's is */
#undef SYSGATE_HOOK_DEFINE
#define SYSGATE_HOOK_DEFINE(table)
#define NULL_FPU
#include "../../hooks/examples/null.c"
#undef SYSGATE_HOOK_DEFINE
#define SYSGATE_HOOK_DEFINE(table) \
	SYSGATE_API const struct sysgate_hook *sysgate_hook_v1 = &(table)

static enum sysgate_verdict (*volatile work)(struct sysgate_sys *,
					       void *) = null_enter;

static enum sysgate_verdict save_enter(struct sysgate_sys *s, void *data)
{
	return work(s, data);
}

static const struct sysgate_hook save_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "null-save",
	.init = null_init,
	.enter = save_enter,
};

SYSGATE_HOOK_DEFINE(save_hook);
