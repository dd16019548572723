/* SPDX-License-Identifier: MIT */
/* sysgate-loader's parts (tools/loader): no libc in any of them. */
#ifndef SG_LOADER_H
#define SG_LOADER_H

#include "stub.h"

/* stub.c mapped them from sysgate-loader.text. */
extern int sg_loader_from_link SG_HIDDEN;

/* "sysgate: WHAT: WHY" on stderr, exit status 127. */
void sg_loader_fail(const char *what, const char *why)
	__attribute__((noreturn)) SG_HIDDEN;
/* Before anything else: the environment and auxiliary vector where the
 * kernel put them, for sg_init (start.c); sysgate's TLS. */
void sg_loader_start_init(char **envp, unsigned long *auxv) SG_HIDDEN;

#endif
