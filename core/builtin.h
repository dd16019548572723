/* SPDX-License-Identifier: MIT */
/* The hooks built into libsysgate (hooks/), linked into the CLI too. */
#ifndef SG_BUILTIN_H
#define SG_BUILTIN_H

#include "sysgate.h"

extern const struct sysgate_hook sg_builtin_trace;
extern const struct sysgate_hook sg_builtin_count;
extern const struct sysgate_hook sg_builtin_inject;
/* Not const: --fs with CephFS drops SYSGATE_HOOK_NOFPU in its init. */
extern struct sysgate_hook sg_builtin_fs;
extern const struct sysgate_hook sg_builtin_hot;
extern const struct sysgate_hook sg_builtin_bypass;
extern const struct sysgate_hook sg_builtin_bypass_track;

#endif
