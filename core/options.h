/* SPDX-License-Identifier: MIT */
/*
 * sysgate's options: the CLI's command line before PROG, which the CLI
 * passes to the library unchanged in SYSGATE_OPTIONS.  One parser serves
 * both, so LD_PRELOAD=libsysgate.so SYSGATE_OPTIONS='-c' prog behaves like
 * sysgate -c prog.  No allocation: everything lives in struct sg_options.
 */
#ifndef SG_OPTIONS_H
#define SG_OPTIONS_H

#define SG_OPT_MAX_LIST 16
#define SG_OPT_BUF 8192

struct sg_options {
	int follow;		/* -f (1) or -ff (2) */
	int count;		/* -c: summary only; -C: summary and trace */
	int count_and_trace;
	int json;		/* --json / -j */
	int stats;		/* --stats */
	int debug;		/* -d */
	int quiet;		/* -q; -qq or -e quiet=exit: no "+++ exited" */
	int quiet_exit;
	int quiet_attach;	/* -q or -e quiet=attach: no "Process N attached" */
	int quiet_super;	/* -qqq or -e quiet=thread-execve: no
				   "+++ superseded by execve" */
	int strsize;		/* -s N */
	int timestamps;		/* -t / -tt / -ttt */
	int syscall_times;	/* -T */
	int append;		/* -A */
	int daemonize;		/* -D: the program keeps the command's
				   process, counting is done in a grandchild
				   (1), in a new process group (2) or
				   session (3) */
	int intr;		/* -I: 1 anywhere, 2 waiting, 3 never,
				   4 never_tstp; 0 not given (strace's
				   defaults: sg_options_intr) */
	int hexstr;		/* -x, -xx: strings in hex (1, 2); 3: only
				   unprintable bytes, as \x.. */
	int hexstr_long;	/* --strings-in-hex: its value + 1 */
	int decode_fds;		/* -y, --decode-fds: 1 paths, 2 sockets, 4
				   devices, 8 pidfds' processes */
	int decode_pids;	/* -Y, --decode-pids: 1 comm, 2 pidns */
	int relative;		/* -r: time since the previous call */
	/* digits after the point, plus 1 (0: the default, 6; -t's 0), of
	 * -t's, -r's and -T's times (strace's precision s, ms, us, ns) */
	int ts_prec, rel_prec, dur_prec;
	int instruction_pointer;	/* -i: where each call returns to */
	int verbose;		/* -v: structures in full */
	int xlat_style;		/* -X: 0 abbrev, 1 raw, 2 verbose */
	int stack_traces;	/* -k */
	/* -e abbrev=, verbose=, raw=: syscall sets (trace='s grammar) */
	const char *abbrev, *verbose_set, *raw;
	int numbers;		/* -n: system call numbers */
	int column;		/* -a N: N + 1 (0: not given, strace's 40) */
	const char *status;	/* -e status=, -z, -Z: which results print */
	const char *signals;	/* -e signal=: which signals print */
	const char *dump_read, *dump_write;	/* -e read=, -e write= */
	const char *paths[SG_OPT_MAX_LIST];	/* -P PATH: calls touching it */
	int npaths;
	int loader;		/* --loader: start through sysgate's ELF loader */
	int preload;		/* --preload: start with LD_PRELOAD instead */
	int patch_all;		/* --patch-all: patch unselected sites too */
	int eager;		/* --eager: plan every object at start; 0
				   (the default, --lazy): each site at its
				   first trap where SUD exists */
	int stub_reach;		/* --stub-reach=MIB (testing), -1: the ISA's */
	int zeropage_readable_null;	/* --zeropage-readable-null */
	int help, version;	/* -h, -V */
	int list_syscalls;	/* --list-syscalls */
	int list_mechanisms;	/* --list-mechanisms */
	const char *attach;	/* -p PID[,PID...] */
	const char *user;	/* -u USER or UID:GID: PROG runs as that user
				   (CLI only) */
	int detach_execve;	/* -b execve: a followed execve's new program
				   is let go of once it has started */
	int detach_after;	/* --detach-after=SECONDS, plus 1 (0: none) */
	const char *outfile;	/* -o */
	const char *mechanism;	/* -m, default "patch" */
	const char *sortby;	/* -S */
	const char *columns;	/* -U */
	int wall;		/* -w */
	const char *overhead;	/* -O: what -c takes off each call's time */
	const char *trace;	/* -e trace=..., the last one wins */
	const char *inject[SG_OPT_MAX_LIST];	/* -e inject= / fault= */
	int ninject;
	const char *bypass;	/* --bypass[=LIST]: "" for the default */
	const char *hot;	/* --hot[=SPEC] (sysgate hot): "" for UB's */
	const char *hooks[SG_OPT_MAX_LIST];	/* --hook=PATH[:ARGS] */
	int nhooks;
	const char *fs;		/* --fs=/PREFIX[:BACKING] */
	const char *fs_size;	/* --fs-size=N[KMG] */
	const char *env[SG_OPT_MAX_LIST];	/* -E VAR=VAL (CLI only) */
	int nenv;
	int nwords;		/* words consumed (the CLI's PROG follows) */
	unsigned int used;	/* (before buf: not a page of its own) */
	char error[256];	/* one line when parsing failed */
	char buf[SG_OPT_BUF];	/* storage for the strings above */
};

/* Parse argv[0..argc) up to the first non-option or "--" into a zeroed
 * *opts.  Returns 0, or -1 with opts->error set. */
int sg_options_parse(struct sg_options *opts, int argc, char **argv);
/* Split a SYSGATE_OPTIONS string into words (shell-style quoting with ''
 * and \) and parse it. */
int sg_options_parse_string(struct sg_options *opts, const char *s);
/* Whether programs start through sysgate-loader. */
int sg_options_loader(const struct sg_options *opts);
/* Quote words into one SYSGATE_OPTIONS string; returns its length or -1
 * if it does not fit. */
int sg_options_join(char *dst, unsigned long size, int argc, char **argv);
/* Arguments for a built-in hook ("trace", "count", "inject", "fs", "hot",
 * "bypass"): key=value
 * items separated by '\x1f'.  Returns 0 if the hook is not needed. */
int sg_options_hook_args(const struct sg_options *opts, const char *hook,
			 char *dst, unsigned long size);

/* -I as it applies: given, else strace's default (never_tstp for -D,
 * never for -o FILE with a program, waiting otherwise). */
static inline int sg_options_intr(const struct sg_options *o)
{
	return o->intr		? o->intr :
	       o->daemonize	? 4 :
	       o->outfile && !o->attach ? 3 : 2;
}

#endif
