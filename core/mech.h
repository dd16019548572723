/* SPDX-License-Identifier: MIT */
/*
 * Mechanisms: the strategies that route a program's system calls into the
 * core (binary patching, signal- and tracer-based ones).  Each one feeds
 * the same dispatcher and the same hook chain.  The core owns this
 * contract and calls the one mechanism it was given; which mechanisms
 * exist is the composition root's business (lib/registry.c).
 */
#ifndef SG_MECH_H
#define SG_MECH_H

struct sg_options;
struct sysgate_hook;

struct sg_mechanism {
	const char *name;
	const char *summary;
	/* 0 if it runs on this machine, else -errno and a reason. */
	int (*probe)(const char **why);
	/* Optional, after probe: 0 if it runs with these options, else -1
	 * and a reason (zeropage: page 0 readable without the opt-in). */
	int (*check)(const struct sg_options *opts, const char **why);
	int (*start)(const struct sg_options *opts);
	void (*stats)(void);
	/* Free what only start-up and stats needed. */
	void (*release)(void);
	/* [lo, hi) became executable after start-up; file: by a mapping
	 * of a file (mmap of a descriptor), else 0 (mprotect, anonymous). */
	void (*new_code)(unsigned long lo, unsigned long hi, int file);
	/* A call at site was caught by a signal and has run. */
	void (*trapped)(unsigned long site);
	/* Around a call that changes [lo, hi) (unmaps it, changes its
	 * protection...): code_end gets what code_begin returned, the call
	 * (its result in ret) and the range, after new_code for any new
	 * executable memory the call made. */
	int (*code_begin)(const struct sysgate_sys *call, unsigned long lo,
			  unsigned long hi);
	void (*code_end)(int token, const struct sysgate_sys *call,
			 unsigned long lo, unsigned long hi);
	/* --stats at exit: what happened while the program ran. */
	void (*exit_stats)(void);
	/* In a fork child, before anything else: only this thread is left. */
	void (*forked)(void);
	/* The first thread (or CLONE_VM child that is no vfork) is about to
	 * be made by the call at site: the last moment this one runs alone.
	 * Also (site 0) every few thousand calls a process makes alone while
	 * syscall user dispatch is on. */
	void (*threads)(unsigned long site);
	/* The program set syscall user dispatch of its own (core/psud.c):
	 * what its calls need from now on (the patch family: SIGTRAP). */
	void (*psud)(void);
};

/* A hook built into the library, loaded when the options name it. */
struct sg_builtin {
	const char *name;	/* as sg_options_hook_args knows it */
	const struct sysgate_hook *hook;
};

/* What the composition root (lib/) hands the core: the plug-ins there
 * are. */
struct sg_registry {
	const struct sg_mechanism *const *mechanisms;	/* 0-terminated */
	const struct sg_builtin *builtins;	/* ends with a 0 name */
};

/* A probe for mechanisms that run on every machine. */
int sg_mech_always(const char **why);

/* The one in a 0-terminated list with that name, or 0. */
const struct sg_mechanism *sg_mech_lookup(const struct sg_mechanism *const *list,
					  const char *name);
/* The list sg_mech_start picks from (sg_init sets it). */
void sg_mech_use(const struct sg_mechanism *const *list);
/* probe, then check: 0 if m can run here as opts ask, else -1 and why. */
int sg_mech_check(const struct sg_mechanism *m, const struct sg_options *opts,
		  const char **why);
/* Start the one opts name, from the list in use; dies if it cannot run. */
int sg_mech_start(const struct sg_options *opts);
void sg_mech_stats(void);
void sg_mech_release(void);
void sg_mech_new_code(unsigned long lo, unsigned long hi, int file);
void sg_mech_trapped(unsigned long site);
int sg_mech_code_begin(const struct sysgate_sys *call, unsigned long lo,
		       unsigned long hi);
void sg_mech_code_end(int token, const struct sysgate_sys *call,
		      unsigned long lo, unsigned long hi);
void sg_mech_exit_stats(void);
void sg_mech_forked(void);
void sg_mech_threads(unsigned long site);
void sg_mech_psud(void);

#endif
