/* SPDX-License-Identifier: MIT */
/* The hooks built into libsysgate (hooks/), linked into the CLI too. */
#ifndef SG_BUILTIN_H
#define SG_BUILTIN_H

#include "sysgate.h"

extern const struct sysgate_hook sg_builtin_trace;
extern const struct sysgate_hook sg_builtin_count;
extern const struct sysgate_hook sg_builtin_inject;
extern const struct sysgate_hook sg_builtin_fs;
extern const struct sysgate_hook sg_builtin_hot;
extern const struct sysgate_hook sg_builtin_bypass;
extern const struct sysgate_hook sg_builtin_bypass_track;

/* All of them, by option name, in the order they join the chain. */
struct sg_builtin_entry {
	const char *name;
	const struct sysgate_hook *h;
};
#define SG_NBUILTINS 7
extern const struct sg_builtin_entry sg_builtins[SG_NBUILTINS];

#endif
