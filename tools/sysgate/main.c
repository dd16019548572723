/* SPDX-License-Identifier: MIT */
/*
 * sysgate-dl [OPTIONS] [--] PROG [ARGS...]    (see sysgate -h, man/sysgate.1)
 *
 * The whole CLI, with libc: what the sysgate command (tools/front, no
 * libc) hands it -- help and lists, bench, hot, bypass, -p, --hook,
 * -m ptrace, -o |CMD, sysgate under sysgate, command lines to refuse --
 * and any command line given to it directly.  Like the front, it checks
 * everything it can before PROG starts (options, syscall, errno and
 * signal names, the mechanism, hook files), then runs PROG (run.c) and
 * waits for it (and, with -f, for every process of its tree), prints the
 * -c summary, and exits with PROG's status or dies of the signal that
 * killed it, as strace does.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>
#include "sg.h"
#include "options.h"
#include "registry.h"
#include "shared.h"
#include "env.h"
#include "count.h"
#include "cli.h"
#include "install-paths.h"
#include "process.h"
#include "attach.h"
#include "run.h"

extern char **environ;

static const char usage_text[] =
"usage: sysgate [OPTIONS] [--] PROG [ARGS...]\n"
"       sysgate -p PID[,PID...] [--detach-after=SECONDS] [OPTIONS]\n"
"       sysgate bench [--json] [--plot FILE.png] [--quick] [--suite=bypass]\n"
"       sysgate hot [--json] [--hot=SPEC] [OPTIONS] [--] PROG [ARGS...]\n"
"       sysgate bypass [--bypass=LIST] [OPTIONS] [--] PROG [ARGS...]\n"
"\n"
"Runs PROG with every system call routed through sysgate's hooks.\n"
"Default action: trace each call to stderr, one strace-format line.\n"
"With --fs, --bypass or --hot, that is the action instead; --fs and\n"
"--bypass trace too when -o, --json, -C or -e trace= is given.\n"
"\n"
"  -c, --summary-only     count calls, errors and time; print a summary\n"
"  -C, --summary          trace and print the summary\n"
"  -e trace=SET           trace only SET: names, %file %process %network\n"
"                         %signal %ipc %desc %memory %creds %clock %pure,\n"
"                         %stat %lstat %fstat %%stat %statfs %fstatfs\n"
"                         %%statfs, /regex, ?name, all, none; !SET negates\n"
"  -e inject=SET:error=ERRNO|:retval=N[:signal=SIG][:when=EXPR]\n"
"                         [:delay_enter=TIME][:delay_exit=TIME]\n"
"                         (only traced calls; -e trace=none: SET's, untraced)\n"
"  -e fault=SET[:error=ERRNO][:when=EXPR]\n"
"                         EXPR: N, N+, N+STEP, N..M, N..M+STEP\n"
"  -f, -ff                follow threads and child processes (-ff: one file\n"
"                         per pid); without it, as strace, only the\n"
"                         program's first thread is traced\n"
"  -o FILE, -A            write to FILE (-A: append); -o '|CMD': to CMD\n"
"  -s N                   print at most N bytes of strings (default 32)\n"
"  -t, -tt, -ttt          time of day, with microseconds, or epoch\n"
"  -T                     time spent in each call\n"
"  -r                     time since the previous call began\n"
"  -n                     system call numbers\n"
"  -a N                   results from column N (default 40)\n"
"  -x, -xx                non-ASCII strings in hex; -xx: all strings\n"
"  --strings-in-hex[=none|non-ascii|all|non-ascii-chars]  the same (alone:\n"
"                         all); non-ascii-chars: only those bytes, as \\x..\n"
"  -X raw|abbrev|verbose  constants as numbers, names (default) or both\n"
"  -k                     each call's stack (unwound in the process)\n"
"  -v                     structures in full (stat, statx, termios, uname,\n"
"                         directory entries, execve's environment)\n"
"  -e abbrev=SET, -e verbose=SET, -e raw=SET  for the calls in SET:\n"
"                         abbreviate structures, read them, print hex\n"
"  -y, -e decode-fds=path descriptors with their paths\n"
"  -yy                    and sockets' endpoints, devices' numbers\n"
"  -Y, --decode-pids=comm|pidns|all  pids with their task's name; ids in\n"
"                         the tracer's pid namespace\n"
"  -P PATH                only calls that name PATH or use it (repeatable)\n"
"  -e signal=SET          print only these signals (names, numbers, none)\n"
"  -qq, -e quiet=exit     no \"+++ exited\" lines (sysgate prints no attach,\n"
"                         personality or path messages: -q is the default)\n"
"  -e read=FDS, -e write=FDS  hex dumps of the data read from / written to\n"
"                         these descriptors (numbers, all, none, !FDS)\n"
"  -z, -Z, -e status=SET  only calls that succeeded, failed, or in SET:\n"
"                         successful failed unfinished unavailable detached\n"
"  -S SORTBY              summary order: time min-time max-time avg-time\n"
"                         calls errors name nothing\n"
"  -U COLUMNS             summary columns (strace's names)\n"
"  -w                     summary times: wall clock (default: system time)\n"
"  -O OVERHEAD            summary times less OVERHEAD a call (us, s, ms, ns)\n"
"  -j, --json             JSON Lines output (schema 2, man sysgate.7)\n"
"  -m, --mechanism=NAME   how calls are caught (--list-mechanisms); zeropage\n"
"                         needs vm.mmap_min_addr=0\n"
"      --hook=LIB.so[:ARGS]  load a hook library (repeatable, in order)\n"
"      --fs=/PREFIX[:BACKING]  serve paths under /PREFIX from a file system\n"
"                         in memory shared by the process tree (written\n"
"                         through to directory BACKING and reloaded)\n"
"      --fs=/PREFIX:ceph:CONF[:SUBDIR[:ID[:TIMEOUT[:CACHE]]]]  serve them\n"
"                         from CephFS through libcephfs, files' bytes kept\n"
"                         between processes in directory CACHE (doc/fs.md)\n"
"      --fs-size=N[KMG]   its size limit (ENOSPC beyond)\n"
"      --preload          start PROG with LD_PRELOAD=libsysgate.so instead of\n"
"                         through sysgate-loader (the default, also with\n"
"                         --loader): calls of ld.so and libc start-up unseen,\n"
"                         sysgate's variables in the environment\n"
"      --stats            report what was patched and how\n"
"      --hot[=SPEC]       find hot syscall sites (Userspace Bypass's rule) and\n"
"                         report them at exit; SPEC: short-ns=N,calls=N,\n"
"                         window=N (default 1300,900,30000)\n"
"      --bypass[=LIST]    answer calls in user space where the program cannot\n"
"                         tell: pread, read (regular files, from a mapping),\n"
"                         ids (getpid gettid getppid), uname, all (default:\n"
"                         pread,read,ids); wlog (opt-in, relaxed): writes to\n"
"                         regular files return at once, batched (a run is one\n"
"                         write, several runs one io_uring submission)\n"
"      --patch-all        patch sites even when no hook selects their call\n"
"      --eager            plan every object's sites at start\n"
"      --lazy             where syscall user dispatch exists, plan each site\n"
"                         at its first run, caught by SUD (the default:\n"
"                         faster start-up, doc/benchmarks.md)\n"
"      --stub-reach=MIB   testing: let patches reach only MIB MiB (0: no stub\n"
"                         region in reach, so sites trap where the ISA allows)\n"
"      --zeropage-readable-null  let -m zeropage run where page 0 cannot be\n"
"                         execute-only (no protection keys): NULL reads then\n"
"                         return sled bytes instead of faulting\n"
"  -E, --env VAR[=VAL]    set VAR in PROG's environment, or remove it\n"
"  -u, --user USER|UID:GID  run PROG as that user (root only), with its\n"
"                         groups; a set-ID PROG's effective id is then its\n"
"                         file's owner or group, as strace's -u gives it\n"
"  -I, --interruptible=N  SIGINT, SIGTERM... to sysgate, as strace: 1\n"
"                         (anywhere) end it, 2 (waiting) send them to PROG\n"
"                         and end, 3 (never) let them pass, 4 (never_tstp)\n"
"                         SIGTSTP too; default 4 with -D, 3 with -o FILE,\n"
"                         else 2\n"
"  -D, --daemonize[=grandchild|pgroup|session]  PROG keeps sysgate's process\n"
"                         (its pid and parent); the -c summary comes from a\n"
"                         grandchild (-DD: in a process group of its own,\n"
"                         -DDD: a session)\n"
"  -b execve, --detach-on=execve  let each program a traced execve starts\n"
"                         run without sysgate (strace's ' <detached ...>')\n"
"  -p PID[,PID...]        attach to running processes instead of PROG,\n"
"                         hook them in-process until SIGINT/SIGTERM\n"
"      --detach-after=S   or S seconds, then detach (doc/attach.md)\n"
"      --list-syscalls    print the syscall table for this machine\n"
"      --list-mechanisms  print the mechanisms and whether they work here\n"
"  -V, --version          version, mechanisms and kernel features\n"
"  -h, --help             this text\n"
"\n"
"Without the CLI: LD_PRELOAD=libsysgate.so SYSGATE_OPTIONS='-c' PROG\n";


#define die sg_cli_die
#define installed sg_cli_installed

/* A --hook is loaded into the CLI to be checked, and resolves the API
 * this CLI exports: linked static (no dynamic loader: AT_BASE 0, see
 * mk/core.mk), the CLI exports nothing, and glibc's static dlopen would
 * load a second libc beside it, so it hands the whole command line to
 * sysgate-dl, the same CLI linked dynamically. */
static void need_dlopen(char **argv)
{
	if (getauxval(AT_BASE))
		return;
	execv(installed("sysgate-dl"), argv);
	die("cannot run sysgate-dl: ", strerror(errno));
}

static void check_user_hooks(const struct sg_options *o)
{
	int i;

	for (i = 0; i < o->nhooks; i++) {
		char path[PATH_MAX], *colon;
		const struct sysgate_hook **h;
		void *dl;

		snprintf(path, sizeof(path), "%s", o->hooks[i]);
		colon = strchr(path, ':');
		if (colon)
			*colon = 0;
		dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!dl) {
			fprintf(stderr, "sysgate: cannot load hook: %s\n",
				dlerror());
			exit(1);
		}
		h = dlsym(dl, "sysgate_hook_v1");
		if (!h || !*h)
			die(path, ": does not export sysgate_hook_v1 "
				  "(use SYSGATE_HOOK_DEFINE)");
		if ((*h)->abi != SYSGATE_HOOK_ABI)
			die(path, ": built for another sysgate hook ABI");
	}
}

static pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static const char hooks_not_ptrace[] =
	"--hook libraries run inside the program: not with -m ptrace";

/* sysgate -p PID[,PID...] [OPTIONS] (attach.c) */
static int attach(const struct sg_options *o, int argc, char **argv, int prog_i)
{
	static char opts[SG_OPT_BUF];

	if (prog_i < argc)
		die("-p attaches to running processes: no PROG with it", 0);
	if (!strcmp(o->mechanism, "seccomp"))
		die("-p with -m seccomp: a seccomp filter cannot be removed, "
		    "so the process could never be left as it was", 0);
	if (strcmp(o->mechanism, "patch") && strcmp(o->mechanism, "sud") &&
	    strcmp(o->mechanism, "ptrace"))
		die("-p works with -m patch (the default), -m sud and -m ptrace",
		    0);
	if (o->fs)
		die("-p with --fs: descriptors the process opened before "
		    "attaching cannot be served by the store", 0);
	if (o->nhooks > SG_ATTACH_HOOKS_MAX)
		die("-p takes at most four --hook libraries", 0);
	if (o->nhooks && !strcmp(o->mechanism, "ptrace"))
		die(hooks_not_ptrace, 0);
	check_user_hooks(o);
	if (o->follow == 2 && !strcmp(o->mechanism, "ptrace"))
		die("-p -m ptrace with -ff: the processes share one output; "
		    "use -f", 0);
	sg_cli_check_builtins(o);
	if (sg_options_join(opts, sizeof(opts), argc - 1, argv + 1) < 0)
		die("options too long", 0);
	if (o->follow == 2 && o->outfile[0] != '/') {
		/* (the children -ff follows open FILE.<pid> themselves, in
		 * the program's directory: named from here; the last -o
		 * wins) */
		char cwd[PATH_MAX], *abs[2] = { "-o", 0 };
		size_t n = strlen(opts);
		char *path = 0;

		if (!getcwd(cwd, sizeof(cwd)) ||
		    asprintf(&path, "%s/%s", cwd, o->outfile) < 0)
			die("-ff: cannot name the output files", 0);
		abs[1] = path;
		if (n + 1 >= sizeof(opts) ||
		    (opts[n] = ' ', sg_options_join(opts + n + 1,
						    sizeof(opts) - n - 1, 2,
						    abs) < 0))
			die("options too long", 0);
		free(path);
	}
	return sg_cli_attach(o, opts, installed("sysgate-attach"));
}

/*
 * -o '|CMD' (or '!CMD'): the output goes to CMD's standard input.  Every
 * traced process opens its output itself, by name: it gets this
 * process's end of the pipe as /proc/PID/fd/N (a pipe opened there is the
 * same pipe), which replaces the option in the arguments they are given.
 * CMD is not a child (wait_tree waits for every child, and CMD only ends
 * once the output is closed): it holds the write end of `done`, whose
 * end of file says it has finished.
 */
static int pipe_fd = -1, pipe_done = -1;

static void start_output_pipe(struct sg_options *o, int nopts, char **argv)
{
	static char path[64], dash_o[66];
	const char *cmd = o->outfile + 1;
	int p[2], d[2], i, done = 0, st;
	pid_t pid;

	if (o->follow == 2)
		die("-o |CMD and -ff: one pipe cannot take a file per process",
		    0);
	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(d, O_CLOEXEC) < 0)
		die("pipe: ", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: ", strerror(errno));
	if (pid == 0) {
		if (fork() == 0) {
			dup2(p[0], 0);
			fcntl(d[1], F_SETFD, 0);
			execl("/bin/sh", "sh", "-c", cmd, (char *)0);
			_exit(127);
		}
		_exit(0);
	}
	waitpid(pid, &st, 0);
	close(p[0]);
	close(d[1]);
	pipe_fd = p[1];
	pipe_done = d[0];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)getpid(), pipe_fd);
	snprintf(dash_o, sizeof(dash_o), "-o%s", path);
	for (i = 1; i <= nopts; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (a == o->outfile || !strcmp(a, o->outfile)) {
			argv[i] = path;		/* -o |CMD, --output |CMD */
			done = 1;
		} else if (!strncmp(a, "-o", 2) && !strcmp(a + 2, o->outfile)) {
			argv[i] = dash_o;
			done = 1;
		} else if (!strncmp(a, "--output=", 9) &&
			   !strcmp(a + 9, o->outfile)) {
			argv[i] = dash_o;
			done = 1;
		}
	}
	if (!done)
		die("-o |CMD: give it as -o |CMD or --output=|CMD", 0);
	o->outfile = path;
}

/* The command reads to the end of what was written, then ends. */
static void end_output_pipe(void)
{
	char c;
	ssize_t n;

	if (pipe_done < 0)
		return;
	close(pipe_fd);
	while ((n = read(pipe_done, &c, 1)) > 0 || (n < 0 && errno == EINTR))
		;
	close(pipe_done);
	pipe_done = -1;
}

/* -h, -V, --list-...: the exit status, or -1 if none was asked for. */
static int info_request(const struct sg_options *o)
{
	if (o->help) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (o->version)
		return sg_cli_version();
	if (o->list_syscalls)
		return sg_cli_list_syscalls();
	if (o->list_mechanisms)
		return sg_cli_list_mechanisms(o);
	return -1;
}

/*
 * One runtime per process: under another sysgate, whose runtime serves
 * this process and follows its children, this one cannot put its own in
 * the program; it traces it from outside (-m ptrace), said in one line,
 * and both see the program's calls (the outer one also sees this
 * sysgate's).  What -m ptrace cannot do is refused.
 */
static void nested_start(struct sg_options *o)
{
	if (!strcmp(o->mechanism, "ptrace") || !sg_cli_under_sysgate(getauxval(AT_HWCAP2)))
		return;
	if (o->nhooks || o->fs)
		die("under another sysgate, --hook and --fs cannot run in the "
		    "program: one sysgate runtime per process", 0);
	fprintf(stderr, "sysgate: under another sysgate: tracing the program "
			"with -m ptrace (one sysgate runtime per process)\n");
	o->mechanism = "ptrace";
}

/* The child under -m ptrace: stopped for us before it becomes the
 * program.  (Not vfork: it stops before execve.) */
static int start_traced(const struct sg_run *st, int argc, char **argv)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: ", strerror(errno));
	if (pid == 0) {
		if (sg_cli_ptrace_child() < 0) {
			fprintf(stderr, "sysgate: ptrace: %s\n", strerror(errno));
			_exit(127);
		}
		sg_cli_exec_program(st, argc, argv);
	}
	return pid;
}

/* A -u id: decimal digits alone, below (uid_t)-1, which no one can be. */
static int parse_id(const char *s, const char *end, unsigned int *id)
{
	char *e;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &e, 10);
	if (e != (end ? end : s + strlen(s)) || v >= 0xffffffffUL)
		return -1;
	*id = (unsigned int)v;
	return 0;
}

/*
 * -u USER or UID:GID, as strace takes it: only from root (which can give
 * PROG any ids); a user's groups are its NSS groups (initgroups' list),
 * a UID:GID pair's none.  A set-ID PROG gets its owner or group as its
 * effective id where the kernel would give it (sg_set_id_of), which an
 * execve of sysgate-loader cannot.
 */
static const struct sg_ids *user_ids(const char *user, const char *prog)
{
	static struct sg_ids ids;
	const char *colon = strchr(user, ':');
	struct sg_fd_stat st;

	if (getuid() != 0 || geteuid() != 0)
		die("You must be root to use the -u/--username option", 0);
	if (colon) {
		if (parse_id(user, colon, &ids.uid) < 0 ||
		    parse_id(colon + 1, 0, &ids.gid) < 0)
			die("invalid -u value (a user name or UID:GID): ",
			    user);
	} else {
		struct passwd *pw = getpwnam(user);
		int n = 0;
		char e[300];

		snprintf(e, sizeof(e), "Cannot find user '%s'", user);
		if (!pw)
			die(e, 0);
		ids.uid = pw->pw_uid;
		ids.gid = pw->pw_gid;
		getgrouplist(user, ids.gid, 0, &n);
		ids.groups = calloc((size_t)n + 1, sizeof(*ids.groups));
		if (!ids.groups ||
		    getgrouplist(user, ids.gid, (gid_t *)ids.groups, &n) < 0)
			die("cannot list the groups of ", user);
		ids.ngroups = n;
	}
	ids.euid = ids.uid;
	ids.egid = ids.gid;
	if (sg_path_stat(prog, &st) == 0)
		sg_set_id_of(prog, &st, &ids.euid, &ids.egid);
	return &ids;
}

/* Once the tree has ended: the -c table and the hot report. */
static void report(const struct sg_options *o, const char *state)
{
	int ofd;

	if (o->count && state)
		sg_cli_print_summary(o, state, -1);
	if (state)
		sg_cli_output_error(o, state);
	if (o->hot && state) {
		ofd = sg_cli_out_fd(o);
		if (ofd >= 0)
			sg_cli_hot_report(o, state, ofd);
		if (ofd > 2)
			close(ofd);
	}
}

int main(int argc, char **argv)
{
	static struct sg_options o;
	struct sg_run st = { 0 };
	int status = 0, stopped = 0, r;

	sg_cli_envp = environ;
	sg_cli_execfn = (const char *)getauxval(AT_EXECFN);
	sg_cli_finish = end_output_pipe;
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return sg_bench_cli(argc - 1, argv + 1);
	/* sysgate hot|bypass ARGS: sysgate --hot|--bypass ARGS (a later
	 * --hot=SPEC or --bypass=LIST in ARGS replaces the default) */
	if (argc > 1 && (!strcmp(argv[1], "hot") || !strcmp(argv[1], "bypass")))
		argv[1] = argv[1][0] == 'h' ? "--hot" : "--bypass";
	if (sg_options_parse(&o, argc - 1, argv + 1))
		die(o.error, 0);
	if (o.nhooks)
		need_dlopen(argv);
	sg_cli_check_summary_options(&o);
	r = info_request(&o);
	if (r >= 0)
		return r;
	st.prog_i = 1 + o.nwords;
	if (o.attach)
		return attach(&o, argc, argv, st.prog_i);
	if (st.prog_i >= argc)
		die("must have PROG [ARGS] (see sysgate -h)", 0);
	nested_start(&o);
	sg_cli_check_start(&o, &st, argv, check_user_hooks);
	if (o.user)
		st.ids = user_ids(o.user, st.prog);
	if (o.outfile && (o.outfile[0] == '|' || o.outfile[0] == '!'))
		start_output_pipe(&o, st.prog_i - 1, argv);
	sg_cli_prepare(&o, &st, argv);
	if (st.ptrace) {
		child = start_traced(&st, argc, argv);
		sg_cli_release_stdio(&o);
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		signal(SIGTERM, forward);
		signal(SIGHUP, forward);
		status = sg_cli_ptrace_loop(&o, child, st.state);
		if (status < 0)
			return 1;
		if (o.follow)
			sg_cli_wait_tree(&o, child, &status);
	} else {
		child = sg_cli_start_program(&st, argc, argv);
		stopped = sg_cli_wait_tree(&o, child, &status);
	}
	report(&o, st.state);
	if (stopped)	/* interrupted: output finished (sg_cli_finish),
			   and the same death, as strace */
		return sg_cli_die_by(stopped);
	return sg_cli_exit_as_program(&o, child, status);
}
