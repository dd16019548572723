/* SPDX-License-Identifier: MIT */
/*
 * A hook that unwinds the stack (as backtrace(), -k or a profiler would)
 * at each getppid and says on stderr whether it reached the program's
 * function unwind_marker (tests/cli/unwind-prog.c): sysgate's frames must
 * lead into the program's, not end at the stub.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>
#include "sysgate.h"

struct walk {
	int frames, found;
};

static _Unwind_Reason_Code frame(struct _Unwind_Context *c, void *arg)
{
	struct walk *w = arg;
	Dl_info d;

	if (dladdr((void *)(_Unwind_GetIP(c) - 1), &d) && d.dli_sname &&
	    !strcmp(d.dli_sname, "unwind_marker"))
		w->found = 1;
	return ++w->frames < 64 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static int unwind_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	return sysgate_select(ctx, sysgate_syscall_number("getppid"));
}

static enum sysgate_verdict unwind_enter(struct sysgate_sys *s, void *data)
{
	static const char found[] = "unwind: reached unwind_marker\n";
	static const char lost[] = "unwind: did not reach unwind_marker\n";
	struct walk w = { 0, 0 };

	(void)s;
	(void)data;
	_Unwind_Backtrace(frame, &w);
	if (w.found)
		write(2, found, sizeof(found) - 1);
	else
		write(2, lost, sizeof(lost) - 1);
	return SYSGATE_RUN;
}

static const struct sysgate_hook unwind_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "unwind",
	.init = unwind_init,
	.enter = unwind_enter,
};

SYSGATE_HOOK_DEFINE(unwind_hook);
