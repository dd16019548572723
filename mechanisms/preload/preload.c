/* SPDX-License-Identifier: MIT */
/*
 * The preload mechanism's side in libsysgate.so: nothing is patched;
 * libsysgate-preload.so (loaded with LD_PRELOAD beside this library)
 * interposes libc's wrappers and calls sg_preload_call.  It sees only
 * calls that go through a libc symbol, and says so.
 */
#include "sg.h"
#include "mech.h"
#include "dispatch.h"

/* Exported (sysgate.map) for libsysgate-preload.so only. */
__attribute__((visibility("default"))) long
sg_preload_call(long nr, long a, long b, long c, long d, long e, long f)
{
	long args[6] = { a, b, c, d, e, f };

	if (!sg.initialised || sg_raw_only(nr))
		return sg_sc6(nr, a, b, c, d, e, f);
	return sg_dispatch_call(nr, args, 0);
}

static int preload_probe(const char **why)
{
	*why = 0;
	return 0;
}

static int preload_start(const struct sg_options *o)
{
	(void)o;
	return 0;
}

static void preload_stats(void)
{
	static const char msg[] =
		"sysgate: mechanism preload: libc wrappers interposed by symbol; "
		"calls libc makes internally, inline and raw system calls are "
		"NOT seen\n";

	sg_write_all(sg.out_fd, msg, sizeof(msg) - 1);
}

const struct sg_mechanism sg_mech_preload = {
	.name = "preload",
	.summary = "interpose libc's wrappers by symbol (blind to raw syscalls)",
	.probe = preload_probe,
	.start = preload_start,
	.stats = preload_stats,
};

/* -m ptrace runs in the CLI (tools/sysgate/ptrace.c): nothing to do in
 * the program, which it never preloads. */
static int ptrace_start(const struct sg_options *o)
{
	(void)o;
	sg_warn("the ptrace mechanism runs from the sysgate CLI; nothing is "
		"hooked in-process");
	return 0;
}

const struct sg_mechanism sg_mech_ptrace = {
	.name = "ptrace",
	.summary = "the CLI traces the program (PTRACE_SYSCALL), hooks run there",
	.probe = preload_probe,
	.start = ptrace_start,
};
