/* SPDX-License-Identifier: MIT */
#ifndef SG_ENV_H
#define SG_ENV_H

/* Record what a followed execve must pass on (called once at start-up),
 * and SYSGATE_OPTIONS, SYSGATE_STATE and SYSGATE_ROOT as this process
 * started with them (start 0, or an entry 0: unset). */
void sg_env_init(const char *self_path, const char *options,
		 const char *const start[3]) SG_HIDDEN;
int sg_env_is_self(const char *s, size_t len) SG_HIDDEN;
/* "NAME=fd:N" built at *cur: a descriptor the new program inherits. */
char *sg_env_put_fd(char **cur, const char *name, int fd) SG_HIDDEN;
/* "LD_PRELOAD=<libsysgate>[:<other preloads>]" built at *cur. */
char *sg_env_preload(char **cur, const char *old, size_t oldlen) SG_HIDDEN;
/* Append SYSGATE_OPTIONS, SYSGATE_OUT, SYSGATE_STATE and carried hook
 * state. */
unsigned long sg_env_add_ours(char **env, unsigned long k, char **cur,
			      long state_fd) SG_HIDDEN;
unsigned long sg_env_extra_size(void) SG_HIDDEN;
/* One of the "SYSGATE_..." variables sysgate sets for one process tree
 * (stripped from a new program's environment and rebuilt, and kept from
 * the program's view), by name: any other, SYSGATE_LIBRARY or one of the
 * program's own, passes through as natively. */
int sg_env_is_internal(const char *var) SG_HIDDEN;
/* Whether var ("NAME=value", whole) is one of those three... */
int sg_env_is_start_var(const char *var) SG_HIDDEN;
/* ...set to another value: the program starts a sysgate of its own. */
int sg_env_is_foreign(const char *var) SG_HIDDEN;
/* Path of sysgate-loader into buf (beside libsysgate.so), or 0. */
const char *sg_env_loader(char *buf, unsigned long size) SG_HIDDEN;
/* The exec returned (it failed): drop carried state. */
void sg_env_exec_failed(void) SG_HIDDEN;

#endif
