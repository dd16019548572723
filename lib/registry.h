/* SPDX-License-Identifier: MIT */
/*
 * The composition root's registries: every mechanism (mechanisms/) and
 * every built-in hook (hooks/) there is, in one table each.  The core is
 * handed them (sg_init); the CLI, the option checks and bench read them.
 */
#ifndef SG_REGISTRY_H
#define SG_REGISTRY_H

#include "sysgate.h"
#include "mech.h"

extern struct sysgate_hook sg_builtin_trace;	/* (init sets TIMED) */
extern struct sysgate_hook sg_builtin_count;	/* (-O: init sets TIMED) */
extern const struct sysgate_hook sg_builtin_inject;
/* (not const: in ceph mode the fs hook gives up SYSGATE_HOOK_NOFPU) */
extern struct sysgate_hook sg_builtin_fs;
extern const struct sysgate_hook sg_builtin_hot;
extern const struct sysgate_hook sg_builtin_bypass;
extern const struct sysgate_hook sg_builtin_bypass_track;

/* 0-terminated, in the order --list-mechanisms shows them. */
extern const struct sg_mechanism *const sg_mechanisms[];
/* Ends with a 0 name; in the order their hooks run. */
extern const struct sg_builtin sg_builtins[];
extern const struct sg_registry sg_registry;

const struct sg_mechanism *sg_mech_find(const char *name);

#endif
