/* SPDX-License-Identifier: MIT */
/*
 * -m int3: a breakpoint on every system call site, its SIGTRAP resuming
 * in the site's stub; a member of the patch family, kept for comparing
 * mechanisms (the trap path every family member falls back to).
 */
#include "sg.h"
#include "mech.h"
#include "patch.h"

static int int3_start(const struct sg_options *o)
{
	static const struct sg_patch_mode mode = {
		.name = "int3", .all_traps = 1,
	};

	return sg_patch_start(o, &mode);
}

const struct sg_mechanism sg_mech_int3 = {
	.name = "int3",
	.summary = "a breakpoint on each syscall site, caught as SIGTRAP",
	.probe = sg_mech_always,
	.start = int3_start,
	SG_PATCH_FAMILY_OPS,
};
