/* SPDX-License-Identifier: MIT */
#ifndef SG_CLI_H
#define SG_CLI_H

#include "run.h"

int sg_bench_main(int argc, char **argv);
/* sysgate bench with -o FILE: FILE replaced only by a complete run. */
int sg_bench_cli(int argc, char **argv);
int sg_cli_version(void);
int sg_cli_list_syscalls(void);
struct sg_options;
/* Whether each mechanism can run here with these options (NULL: none). */
int sg_cli_list_mechanisms(const struct sg_options *o);

/* -m ptrace (ptrace.c): in the child before execve; in the CLI, the
 * tracer loop, returning the program's wait status. */
struct sg_options;
int sg_cli_ptrace_child(void);
int sg_cli_ptrace_loop(const struct sg_options *o, int child,
		       const char *state);

/* sysgate -m ptrace -p (ptrace.c): trace until *stop, then let go. */
#include <signal.h>
#include <sys/types.h>
int sg_cli_ptrace_attach(const struct sg_options *o, const pid_t *pids,
			 int npids, const char *state,
			 volatile sig_atomic_t *stop);

/* sysgate bench's attach row (attach_bench.c): the getppid rate of a
 * running program, and while sysgate -c -p, sysgate -m ptrace -c -p and
 * strace -f -c -p are attached, as ratios of it (-1: could not run). */
enum { SG_ATTACH_BENCH_N = 3 };
struct sg_attach_bench {
	double native;				/* calls per second */
	double ratio[SG_ATTACH_BENCH_N];
};
int sg_bench_attach(struct sg_attach_bench *b, const char *sysgate,
		    const char *loop, int quick);


/* sysgate -p (attach.c): options as given, image the runtime to map. */
int sg_cli_attach(const struct sg_options *o, const char *options,
		  const char *image);
/* sysgate hot (hot.c): the report of the hot hook's table in state. */
void sg_cli_hot_report(const struct sg_options *o, const char *state, int fd);

#endif
