/* SPDX-License-Identifier: MIT */
/*
 * Running a program under sysgate, as both CLIs do it (run.c): sysgate,
 * the front that has no libc (front.c), and sysgate-dl, the whole CLI
 * (main.c), which takes what the front does not.  No libc here: raw
 * system calls and the core's string functions.
 */
#ifndef SG_CLI_RUN_H
#define SG_CLI_RUN_H

struct sg_options;

/* How the program is started, as the options and the program decide. */
/* -u: who PROG runs as (strace's -u: its groups, then its group, then
 * its user, each effective id the file's where its set-ID bit applies) */
struct sg_ids {
	unsigned int uid, gid, euid, egid;
	unsigned int *groups;	/* the supplementary groups */
	long ngroups;
};

struct sg_run {
	const char *prog;	/* its path */
	int prog_i;		/* argv[prog_i] is PROG */
	int ptrace, seccomp;	/* -m ptrace, -m seccomp */
	const char *lib;	/* libsysgate.so to preload, or 0 */
	const char *loader;	/* sysgate-loader to start it, or 0 */
	const char *state;	/* the shared state ("fd:N"), or 0 */
	int daemonize;		/* -D's level: the program keeps this
				   process */
	char **env;		/* the program's environment */
	const struct sg_ids *ids;	/* -u, or 0 */
};

/* The CLI's own environment (set by each CLI's start). */
extern char **sg_cli_envp;
/* The path this CLI was started by (the auxiliary vector's AT_EXECFN),
 * or 0: set by each CLI's start. */
extern const char *sg_cli_execfn;
/* Run at the end of a run and before dying of the program's signal
 * (main.c: -o |CMD's end), or 0. */
extern void (*sg_cli_finish)(void);

/* "sysgate: A B" (control characters escaped) and exit status 1. */
void sg_cli_die(const char *a, const char *b) __attribute__((noreturn));
const char *sg_cli_getenv(const char *name);
/* A file installed with the CLI (next to it, or in its library
 * directory); dies naming it if there is none. */
const char *sg_cli_installed(const char *name);
/* Whether another sysgate's runtime serves this process (hwcap2: the
 * auxiliary vector's AT_HWCAP2). */
int sg_cli_under_sysgate(unsigned long hwcap2);
/* -S and -U checked, as strace does, with or without -c. */
void sg_cli_check_summary_options(const struct sg_options *o);
/* Each built-in hook's init, once, so that bad arguments stop us now. */
void sg_cli_check_builtins(const struct sg_options *o);
/* Refuse in one line what cannot run; decide how the program starts
 * (check_hooks: the --hook libraries' check, or 0).  A set-ID program
 * runs natively from here. */
void sg_cli_check_start(const struct sg_options *o, struct sg_run *st,
			char **argv,
			void (*check_hooks)(const struct sg_options *));
/* The output file, the shared state and the program's environment. */
void sg_cli_prepare(struct sg_options *o, struct sg_run *st, char **argv);
/* In the child: become the program (never returns). */
void sg_cli_exec_program(const struct sg_run *st, int argc, char **argv)
	__attribute__((noreturn));
/* vfork a child that becomes the program: its pid.  Under -D this
 * process becomes the program, and 0 is returned in a grandchild. */
int sg_cli_start_program(const struct sg_run *st, int argc, char **argv);
/* Wait for the program (and with -f its tree): the signal that stopped
 * the run (-I waiting: the program was sent it too, the rest of the tree
 * left running, as strace detaches), or 0. */
int sg_cli_wait_tree(const struct sg_options *o, int child, int *status);
/* Standard input and output let go once the program has them (strace's
 * way): wait_tree does it; -m ptrace, which waits elsewhere, too. */
void sg_cli_release_stdio(const struct sg_options *o);
/* After such a stop: the same death for sysgate, as strace's. */
int sg_cli_die_by(int sig);
/* The -c table once the tree has ended (ofd -1: the options' output). */
void sg_cli_print_summary(const struct sg_options *o, const char *state,
			  int ofd);
/* The output descriptor the options name (2, or the file opened). */
int sg_cli_out_fd(const struct sg_options *o);
/* --hot and --bypass run PROG without tracing unless -e trace= asks. */
int sg_cli_quiet(const struct sg_options *o);
/* --json: the first line, where a trace follows. */
void sg_cli_json_start(const struct sg_options *o, int fd);
/* The end of a run: the program's exit status, or its death by the
 * same signal. */
int sg_cli_exit_as_program(const struct sg_options *o, int child,
			   int status);
/* The SYSGATE_STATE memfd, mapped read-only (len bytes), or 0. */
void *sg_cli_map_state(const char *state, unsigned long *len);
/* A failed write of the output, said at the end. */
void sg_cli_output_error(const struct sg_options *o, const char *state);

#endif
