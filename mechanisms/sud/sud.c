/* SPDX-License-Identifier: MIT */
/*
 * -m sud: syscall user dispatch catches every call the program makes
 * (SIGSYS, core/sud.c runs it through the hooks).  A member of the patch
 * family: only the sites of calls that must run at the program's own
 * stack (clone, vfork, rt_sigreturn) are patched, where the arch needs it.
 */
#include "sg.h"
#include "mech.h"
#include "patch.h"

static int sud_start(const struct sg_options *o)
{
	static const struct sg_patch_mode mode = {
		.name = "sud", .sud = 1, .sud_on = 1,
	};

	return sg_patch_start(o, &mode);
}

/* Syscall user dispatch needs Linux 5.11 built with it. */
static int sud_probe(const char **why)
{
	if (sg_sc5(SG_NR_prctl, 59 /* PR_SET_SYSCALL_USER_DISPATCH */,
		   0 /* OFF */, 0, 0, 0) < 0) {
		*why = "syscall user dispatch is not available (Linux >= 5.11)";
		return -1;
	}
	*why = 0;
	return 0;
}

const struct sg_mechanism sg_mech_sud = {
	.name = "sud",
	.summary = "syscall user dispatch: each call from the program traps (SIGSYS)",
	.probe = sud_probe,
	.start = sud_start,
	SG_PATCH_FAMILY_OPS,
};
