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
	.probe = sg_mech_always,
	.start = preload_start,
	.stats = preload_stats,
};
