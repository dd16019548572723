/* SPDX-License-Identifier: MIT */
/*
 * What sg_init (core/init.c) needs from the process it starts in, which
 * the two ways of starting give differently: libsysgate.so's constructor
 * from the program's libc (lib/preload.c), the loader, which has no libc,
 * from its own stack and raw system calls (tools/loader/start.c).
 */
#ifndef SG_START_H
#define SG_START_H

#include "sg.h"

/* The process's environment, as getenv, setenv (replacing) and unsetenv
 * see it. */
const char *sg_start_getenv(const char *name) SG_HIDDEN;
void sg_start_setenv(const char *name, const char *value) SG_HIDDEN;
void sg_start_unsetenv(const char *name) SG_HIDDEN;
/* An auxiliary vector entry, 0 if absent. */
unsigned long sg_start_auxv(unsigned long type) SG_HIDDEN;
/* The libsysgate.so a followed execve preloads. */
const char *sg_start_library(void) SG_HIDDEN;
/* The first thread's state is t: what else it needs (a fork seen by the
 * program's libc alone, sysgate's TLS). */
void sg_start_thread(struct sg_thread *t) SG_HIDDEN;
/* The hook a --hook library exports, or NULL with a one-line reason in
 * *why. */
const struct sysgate_hook *sg_start_user_hook(const char *path,
					      const char **why) SG_HIDDEN;

#endif
