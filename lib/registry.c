/* SPDX-License-Identifier: MIT */
/* The composition root's tables: -m NAME picks a mechanism, --list-mechanisms
 * lists them, and each built-in hook is loaded when its options ask. */
#include "sg.h"
#include "registry.h"

extern const struct sg_mechanism sg_mech_patch, sg_mech_int3, sg_mech_sud,
	sg_mech_seccomp, sg_mech_preload, sg_mech_ptrace, sg_mech_zeropage;

const struct sg_mechanism *const sg_mechanisms[] = {
	&sg_mech_patch,
	&sg_mech_zeropage,
	&sg_mech_sud,
	&sg_mech_seccomp,
	&sg_mech_int3,
	&sg_mech_preload,
	&sg_mech_ptrace,
	0,
};

const struct sg_builtin sg_builtins[] = {
	{ "count", &sg_builtin_count },
	{ "trace", &sg_builtin_trace },
	{ "inject", &sg_builtin_inject },
	{ "fs", &sg_builtin_fs },
	{ "hot", &sg_builtin_hot },
	{ "bypass", &sg_builtin_bypass },
	{ "bypass-track", &sg_builtin_bypass_track },
	{ 0, 0 },
};

const struct sg_registry sg_registry = { sg_mechanisms, sg_builtins };

const struct sg_mechanism *sg_mech_find(const char *name)
{
	return sg_mech_lookup(sg_mechanisms, name);
}
