/* SPDX-License-Identifier: MIT */
/*
 * -m ptrace runs in the CLI (tools/sysgate/ptrace.c), which traces the
 * program with PTRACE_SYSCALL and runs the hooks there; the program never
 * loads sysgate, so this side has nothing to do.
 */
#include "sg.h"
#include "mech.h"

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
	.probe = sg_mech_always,
	.start = ptrace_start,
};
