/* SPDX-License-Identifier: MIT */
#ifndef SG_PROCESS_H
#define SG_PROCESS_H

void sg_process_fini(struct sg_thread *t) SG_HIDDEN;
long sg_execve(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
int sg_elf_needs_loader(const char *path) SG_HIDDEN;
/* A script's interpreter may be a script too, as deep as the kernel
 * lets: five scripts in all (a sixth is ELOOP, fs/exec.c). */
#define SG_SCRIPT_LEVELS 5
/* The effective ids after an execve of path (st: its stat) by a
 * process with *euid and *egid: set where its set-ID bits apply. */
void sg_set_id_of(const char *path, const struct sg_fd_stat *st,
		  unsigned int *euid, unsigned int *egid) SG_HIDDEN;
/* known: path's stat, where the caller has it (0: made here) */
int sg_starts_set_id(const char *path, const struct sg_fd_stat *known)
	SG_HIDDEN;
/* Under the loader: a readlink of /proc/self/exe answered with the
 * program's path (1), or not that link (0). */
int sg_readlink_self_exe(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
void sg_output_fork_child(int followed) SG_HIDDEN;
/* Arch-specific calls the core handles (x86-64: arch_prctl on GS).
 * Returns 1 and sets s->ret when it handled the call. */
int sg_arch_core_call(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
/* The program's own seccomp filter, installed so that it lets sysgate's
 * calls pass (mechanisms/seccomp/seccomp.c): 1, or 0 if not such a call
 * or it cannot be (the call then goes as it is). */
int sg_seccomp_wrap(struct sysgate_sys *s) SG_HIDDEN;

#endif
