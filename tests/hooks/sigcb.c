/* SPDX-License-Identifier: MIT */
/*
 * A hook whose callback sets a signal action, as a library a hook uses
 * may: the first getppid installs a SIGUSR1 handler of the hook's and
 * answers with its address; the second answers with the number of times
 * it ran.  As natively, the program then sees that action (sigaction's
 * old value) and the signal reaches it through sysgate, which traces it.
 */
#include <signal.h>
#include <string.h>
#include "sysgate.h"

static int calls, ran;

static void on_usr1(int sig)
{
	(void)sig;
	__atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
}

static int sigcb_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict sigcb_enter(struct sysgate_sys *s, void *data)
{
	struct sigaction sa;

	(void)data;
	switch (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED)) {
	case 1:
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		s->ret = sigaction(SIGUSR1, &sa, 0) ? -1 : (long)on_usr1;
		return SYSGATE_SKIP;
	case 2:
		s->ret = __atomic_load_n(&ran, __ATOMIC_RELAXED);
		return SYSGATE_SKIP;
	}
	return SYSGATE_RUN;
}

static const struct sysgate_hook sigcb_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "sigcb",
	.init = sigcb_init,
	.enter = sigcb_enter,
};

SYSGATE_HOOK_DEFINE(sigcb_hook);
