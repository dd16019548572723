/* SPDX-License-Identifier: MIT */
/*
 * sysgate [OPTIONS] [--] PROG [ARGS...]    (see sysgate -h, man/sysgate.1)
 *
 * The CLI checks everything it can before PROG starts (options, syscall,
 * errno and signal names, the mechanism, hook files), then runs PROG with
 * libsysgate preloaded and the same options in SYSGATE_OPTIONS.  It waits
 * for PROG (and, with -f, for every process of its tree), prints the -c
 * summary, and exits with PROG's status or dies of the signal that killed
 * it, as strace does.
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
"                         [:delay_enter=US][:delay_exit=US]\n"
"  -e fault=SET[:error=ERRNO][:when=EXPR]\n"
"                         EXPR: N, N+, N+STEP, N..M, N..M+STEP\n"
"  -f, -ff                follow child processes (-ff: one file per pid)\n"
"  -o FILE, -A            write to FILE (-A: append); -o '|CMD': to CMD\n"
"  -s N                   print at most N bytes of strings (default 32)\n"
"  -t, -tt, -ttt          time of day, with microseconds, or epoch\n"
"  -T                     time spent in each call\n"
"  -r                     time since the previous call began\n"
"  -n                     system call numbers\n"
"  -a N                   results from column N (default 40)\n"
"  -x, -xx                non-ASCII strings in hex; -xx: all strings\n"
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
"  -E VAR=VAL, -E VAR     set VAR in PROG's environment, or remove it\n"
"  -p PID[,PID...]        attach to running processes instead of PROG,\n"
"                         hook them in-process until SIGINT/SIGTERM\n"
"      --detach-after=S   or S seconds, then detach (doc/attach.md)\n"
"      --list-syscalls    print the syscall table for this machine\n"
"      --list-mechanisms  print the mechanisms and whether they work here\n"
"  -V, --version          version, mechanisms and kernel features\n"
"  -h, --help             this text\n"
"\n"
"Without the CLI: LD_PRELOAD=libsysgate.so SYSGATE_OPTIONS='-c' PROG\n";

static void die(const char *a, const char *b)
{
	char ea[1024], eb[1024];

	sg_escape_controls(ea, sizeof(ea), a);
	sg_escape_controls(eb, sizeof(eb), b ? b : "");
	fprintf(stderr, "sysgate: %s%s\n", ea, eb);
	exit(1);
}

/* A file installed with the CLI: next to this executable (the build
 * tree), else where `make install` puts the runtime: found from this
 * executable's directory first, so a DESTDIR tree or a moved prefix
 * works, then at the configured path (mk/install.mk). */
static const char *installed(const char *name)
{
	static char path[2][PATH_MAX + 64];
	static int which;
	char self[PATH_MAX];
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		die("cannot find /proc/self/exe", 0);
	self[n] = 0;
	*strrchr(self, '/') = 0;
	which ^= 1;
	for (i = 0; i < 3; i++) {
		if (i < 2)
			snprintf(path[which], sizeof(path[which]), "%s%s/%s",
				 self, i ? "/" SG_PKGLIBDIR_FROM_BIN : "", name);
		else
			snprintf(path[which], sizeof(path[which]), "%s/%s",
				 SG_PKGLIBDIR, name);
		if (access(path[which], R_OK) == 0)
			return path[which];
	}
	fprintf(stderr, "sysgate: cannot find %s next to %s\n", name, self);
	exit(1);
}

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

/* libsysgate.so: $SYSGATE_LIBRARY, else the installed one. */
static const char *library_path(void)
{
	const char *env = getenv("SYSGATE_LIBRARY");

	return env ? env : installed("libsysgate.so");
}

static const char *find_program(const char *name)
{
	static char path[PATH_MAX];
	const char *p = getenv("PATH");
	struct stat st;

	if (strchr(name, '/')) {
		if (stat(name, &st) < 0)
			die(name, ": No such file or directory");
		if (!S_ISREG(st.st_mode) || access(name, X_OK) < 0)
			die(name, ": Permission denied");
		return name;
	}
	if (!p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		snprintf(path, sizeof(path), "%.*s/%s", (int)n, n ? p : ".",
			 name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(path, X_OK) == 0)
			return path;
		p += n + (e ? 1 : 0);
	}
	die(name, ": command not found");
	return 0;
}

/* -S and -U name the count hook's keys and columns: checked here, with
 * or without -c, as strace does. */
static void check_summary_options(const struct sg_options *o)
{
	static char msg[160];

	if (o->sortby && count_sort_key(o->sortby, strlen(o->sortby)) < 0) {
		snprintf(msg, sizeof(msg), "invalid -S key '%s' (time, "
			 "min-time, max-time, avg-time, calls, errors, name, "
			 "nothing)", o->sortby);
		die(msg, 0);
	}
	if (o->columns && count_check_columns(o->columns) < 0) {
		snprintf(msg, sizeof(msg), "invalid -U columns '%s' "
			 "(time-percent, total-time, min-time, max-time, "
			 "avg-time, calls, errors, name)", o->columns);
		die(msg, 0);
	}
}

/* Run each built-in hook's init once here so bad arguments stop us now. */
static void check_builtins(const struct sg_options *o)
{
	const struct sg_builtin *b = sg_builtins;
	static char args[16][2048];
	unsigned int i;

	sg.out_fd = 2;
	for (i = 0; b[i].name && i < ARRAY_SIZE(args); i++) {
		struct sysgate_ctx *c;
		int r = sg_options_hook_args(o, b[i].name, args[i],
					     sizeof(args[i]));

		if (r < 0)
			die("options too long", 0);
		if (!r)
			continue;
		/* fs only checks its arguments here: the program's first
		 * process makes the file system. */
		if (b[i].hook == &sg_builtin_fs &&
		    strlen(args[i]) + 7 < sizeof(args[i]))
			strcat(args[i], "\x1f" "check");
		c = sg_hooks_new(b[i].hook, args[i], 1);
		if (!c || sg_hooks_init(c) < 0)
			die(c ? c->error : "too many hooks", 0);
	}
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

/* The tree's shared state (core/shared.c): a memfd the program inherits,
 * named "fd:N" in SYSGATE_STATE. */
static int state_fd = -1;

static char *make_state(void)
{
	static char name[32];
	long fd = sg_shared_create();

	if (fd < 0) {
		errno = -fd;	/* (raw system calls) */
		return 0;
	}
	state_fd = sg_fd_hide(fd);
	snprintf(name, sizeof(name), "fd:%d", state_fd);
	return name;
}

/* The inherited LD_PRELOAD less sysgate's own libraries: under an outer
 * sysgate, its copy would find GS taken (and say so) in our program. */
static char *user_preloads(void)
{
	const char *env = getenv("LD_PRELOAD");
	char *copy, *out, *tok, *save;

	if (!env)
		return 0;
	copy = strdup(env);
	out = calloc(strlen(env) + 1, 1);
	if (!copy || !out)
		die("out of memory", 0);
	for (tok = strtok_r(copy, ": ", &save); tok;
	     tok = strtok_r(0, ": ", &save)) {
		const char *base = strrchr(tok, '/') ? strrchr(tok, '/') + 1 : tok;

		if (!strcmp(base, "libsysgate.so") ||
		    !strcmp(base, "libsysgate.so.1") ||
		    !strcmp(base, "libsysgate-preload.so"))
			continue;
		if (*out)
			strcat(out, ":");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

/* Does entry e of an environment set the variable that -E item v names
 * (VAR or VAR=VAL)? */
static int same_var(const char *e, const char *v)
{
	size_t n = strcspn(v, "=");

	return !strncmp(e, v, n) && e[n] == '=';
}

/* -E VAR=VAL sets VAR (in place of its old value), -E VAR unsets it, as
 * strace: the later item wins. */
static void apply_env_items(const struct sg_options *o, char **env,
			    size_t *k)
{
	size_t i, j, w;

	for (i = 0; i < (size_t)o->nenv; i++) {
		const char *v = o->env[i];

		for (j = w = 0; j < *k; j++)
			if (!same_var(env[j], v))
				env[w++] = env[j];
		*k = w;
		if (strchr(v, '='))
			env[(*k)++] = (char *)v;
	}
}

/* bare: -m ptrace, where nothing of sysgate runs in the program (its
 * environment is the user's, with -E's changes). */
static char **build_env(const struct sg_options *o, const char *lib,
			const char *opts, const char *state, int bare)
{
	size_t n = 0, i, k = 0;
	char **env, *old = user_preloads();
	char *v;

	while (environ[n])
		n++;
	env = calloc(n + o->nenv + 8, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) &&
		    !sg_env_is_internal(environ[i]))
			env[k++] = environ[i];
	apply_env_items(o, env, &k);
	if (bare) {
		if (old && *old && asprintf(&env[k++], "LD_PRELOAD=%s", old) < 0)
			die("out of memory", 0);
		env[k] = 0;
		return env;
	}
	if (!lib) {
		/* loader mode: the program's own preloads, not ours */
		if (old && *old) {
			if (asprintf(&v, "LD_PRELOAD=%s", old) < 0)
				die("out of memory", 0);
			env[k++] = v;
		}
	} else {
		/* -m preload: the wrappers come right after the library. */
		int pre = o->mechanism && !strcmp(o->mechanism, "preload");

		if (asprintf(&v, "LD_PRELOAD=%s%s%s%s%s", lib, pre ? ":" : "",
			     pre ? installed("libsysgate-preload.so") : "",
			     old && *old ? ":" : "", old ? old : "") < 0)
			die("out of memory", 0);
		env[k++] = v;
	}
	if (asprintf(&v, "SYSGATE_OPTIONS=%s", opts) < 0)
		die("out of memory", 0);
	env[k++] = v;
	if (state) {
		if (asprintf(&v, "SYSGATE_STATE=%s", state) < 0)
			die("out of memory", 0);
		env[k++] = v;
	}
	env[k++] = "SYSGATE_CLI=1";
	env[k] = 0;
	return env;
}

static int out_fd(const struct sg_options *o)
{
	if (!o->outfile || o->follow == 2)
		return 2;
	return open(o->outfile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

void *sg_cli_map_state(const char *state, size_t *len)
{
	void *map;
	struct stat st;
	long fd = sg_env_fd(state);

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	/* (its size follows RLIMIT_AS: core/shared.c) */
	*len = st.st_size;
	map = mmap(0, *len, PROT_READ, MAP_SHARED, fd, 0);
	return map == MAP_FAILED ? 0 : map;
}

void sg_cli_print_summary(const struct sg_options *o, const char *state,
			  int ofd)
{
	static char buf[SYSGATE_NR_MAX * 120 + 512];
	struct count_format f = { o->sortby, o->columns, o->wall, o->json };
	const struct count_table *t;
	size_t len;
	void *map = sg_cli_map_state(state, &len);

	if (!map)
		return;
	t = sg_shared_find(map, COUNT_TABLE_NAME);
	if (t) {
		unsigned long n = count_summary(t, &f, buf, sizeof(buf));

		if (ofd < 0)
			ofd = out_fd(o);
		if (ofd >= 0 && write(ofd, buf, n) < 0)
			perror("sysgate: write");
		if (ofd > 2)
			close(ofd);
	}
	munmap(map, len);
}

/* --hot and --bypass run PROG without tracing unless -e trace= asks. */
static int quiet(const struct sg_options *o)
{
	return (o->hot || o->bypass) && !o->trace && !o->count_and_trace;
}

/* --json: the first line, where a trace follows (not for a -c table
 * alone). */
void sg_cli_json_start(const struct sg_options *o, int fd)
{
	char start[128];
	int n;

	if (fd < 0 || (o->count && !o->count_and_trace) || quiet(o))
		return;
	n = snprintf(start, sizeof(start),
		     "{\"type\":\"start\",\"schema\":2,\"arch\":\"%s\","
		     "\"mechanism\":\"%s\"}\n", SG_ARCH_NAME, o->mechanism);
	if (write(fd, start, n) < 0)
		perror("sysgate: write");
}

static pid_t child;
static volatile sig_atomic_t stop_sig;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static void stop(int sig)
{
	stop_sig = sig;
}

/* Whether /proc/PID maps or holds the tree's state (inode ino). */
static int holds_state(const char *pid, unsigned long ino)
{
	char path[300], line[512];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long i;

		found = sscanf(line, "%*s %*s %*s %*s %lu", &i) == 1 && i == ino &&
			strstr(line, "sysgate-state");
	}
	fclose(f);
	if (!found) {
		struct dirent *d;
		struct stat sb;
		DIR *fds;

		snprintf(path, sizeof(path), "/proc/%s/fd", pid);
		fds = opendir(path);
		while (fds && !found && (d = readdir(fds)))
			found = fstatat(dirfd(fds), d->d_name, &sb, 0) == 0 &&
				sb.st_ino == ino && S_ISREG(sb.st_mode);
		if (fds)
			closedir(fds);
	}
	return found;
}

/*
 * Kill every process of the tree, as strace kills the tracees it started
 * when it is interrupted: those below us, and those that hold the tree's
 * state (orphans that went to init; state_ino 0: none).  Returns how many
 * were signalled.
 */
static int kill_descendants(unsigned long state_ino)
{
	static pid_t pid[65536], ppid[65536];
	char path[300], buf[512];
	struct dirent *d;
	int n = 0, i, more, found = 0;
	unsigned char *in;
	DIR *proc = opendir("/proc");

	if (!proc)
		return 0;
	while ((d = readdir(proc)) && n < (int)ARRAY_SIZE(pid)) {
		char *p;
		int fd;
		ssize_t k;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		k = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (k <= 0)
			continue;
		buf[k] = 0;
		p = strrchr(buf, ')');	/* the name may hold anything */
		if (!p || sscanf(p + 1, " %*c %d", &ppid[n]) != 1)
			continue;
		pid[n++] = atoi(d->d_name);
	}
	closedir(proc);
	in = calloc(n ? n : 1, 1);
	if (in && state_ino)
		for (i = 0; i < n; i++) {
			char num[16];

			snprintf(num, sizeof(num), "%d", pid[i]);
			in[i] = pid[i] != getpid() && holds_state(num, state_ino);
		}
	if (!in)
		return 0;
	do {
		more = 0;
		for (i = 0; i < n; i++) {
			int j;

			if (in[i])
				continue;
			for (j = 0; j < n && !(in[j] && pid[j] == ppid[i]); j++)
				;
			if (ppid[i] == getpid() || j < n) {
				in[i] = 1;
				more = 1;
			}
		}
	} while (more);
	for (i = 0; i < n; i++)
		if (in[i] && kill(pid[i], SIGKILL) == 0)
			found++;
	free(in);
	return found;
}

/*
 * Wait for PROG and, under -f, for every process of its tree (as
 * strace -f does): the tree holds the state with a shared lock
 * (sg_shared_hold), which a write lock through our own description of it
 * waits out.  Not by being the tree's subreaper: an orphaned process group
 * would then keep a parent in the session (us), and its stopped members
 * would never get the SIGHUP and SIGCONT the kernel sends them natively.
 * On SIGTERM, SIGINT, SIGHUP or SIGQUIT: kill the tree, and return 1 so
 * the output is finished.
 */
static int wait_tree(const struct sg_options *o, int *status)
{
	struct flock wr = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	unsigned long ino = 0;
	int st, got = 0;
	struct stat sb;
	pid_t w;

	if (o->follow && state_fd >= 0 && fstat(state_fd, &sb) == 0)
		ino = sb.st_ino;
	for (;;) {
		if (stop_sig) {
			if (o->follow)
				kill_descendants(ino);
			else if (!got)
				kill(child, SIGKILL);
		}
		if (!got) {
			w = waitpid(-1, &st, 0);
			if (w < 0 && errno == EINTR)
				continue;
			if (w == child) {
				*status = st;
				got = 1;
			}
			if (w >= 0 && (!got || o->follow))
				continue;
			if (w < 0 && !got)
				break;
		}
		if (!ino)
			break;
		if (fcntl(state_fd, F_OFD_SETLKW, &wr) == 0 || errno != EINTR)
			break;
	}
	return stop_sig != 0;
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
	if (o->follow == 2)
		die("-p with -ff: the processes share one output; use -f", 0);
	check_builtins(o);
	if (sg_options_join(opts, sizeof(opts), argc - 1, argv + 1) < 0)
		die("options too long", 0);
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

/* How the program is started, as the options and the program decide. */
struct start {
	const char *prog;	/* its path */
	int prog_i;		/* argv[prog_i] is PROG */
	int ptrace, seccomp;	/* -m ptrace, -m seccomp */
	const char *lib;	/* libsysgate.so to preload, or 0 */
	const char *loader;	/* sysgate-loader to start it, or 0 */
	const char *state;	/* the shared state ("fd:N"), or 0 */
	char **env;
};

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
 * Run by another sysgate (sysgate under sysgate): its runtime holds this
 * process (x86-64: our GS base; elsewhere its files in our maps, which
 * the loader's anonymous segments may not show).
 */
static int under_sysgate(void)
{
	static const char *const names[] = {
		"/libsysgate.so\n", "/sysgate-loader\n",
		"/memfd:sysgate-state (deleted)\n",
		"/memfd:sysgate-traps (deleted)\n",
	};
	char line[1024];
	unsigned int i;
	int found = 0;
	FILE *f;

	if (sg_self_runs_sysgate())
		return 1;
	f = fopen("/proc/self/maps", "re");
	while (f && !found && fgets(line, sizeof(line), f))
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			size_t n = strlen(line), m = strlen(names[i]);

			found |= n >= m && !strcmp(line + n - m, names[i]);
		}
	if (f)
		fclose(f);
	return found;
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
	if (!strcmp(o->mechanism, "ptrace") || !under_sysgate())
		return;
	if (o->nhooks || o->fs)
		die("under another sysgate, --hook and --fs cannot run in the "
		    "program: one sysgate runtime per process", 0);
	fprintf(stderr, "sysgate: under another sysgate: tracing the program "
			"with -m ptrace (one sysgate runtime per process)\n");
	o->mechanism = "ptrace";
}

/* Refuse here, in one line, what cannot run, before the program starts;
 * decide how it starts.  A set-ID program runs natively from here. */
static void check_start(const struct sg_options *o, struct start *st,
			char **argv)
{
	const char *why;

	if (!sg_mech_find(o->mechanism))
		die("unknown mechanism ", o->mechanism);
	if (sg_mech_check(sg_mech_find(o->mechanism), o, &why) < 0)
		die(why, 0);
	check_builtins(o);
	check_user_hooks(o);
	st->prog = find_program(argv[st->prog_i]);
	st->ptrace = !strcmp(o->mechanism, "ptrace");
	if (st->ptrace && o->nhooks)
		die(hooks_not_ptrace, 0);
	if (st->ptrace && o->fs)
		die("--fs serves files inside the program: not with -m ptrace",
		    0);
	/* PR_SET_MDWE (inherited, as under systemd's
	 * MemoryDenyWriteExecute=) forbids the code writes of every other
	 * mechanism. */
	if (!st->ptrace && strcmp(o->mechanism, "preload") &&
	    prctl(SG_PR_GET_MDWE, 0, 0, 0, 0) > 0)
		die("memory-deny-write-execute (PR_SET_MDWE) is set: sysgate "
		    "cannot write code here; -m ptrace and -m preload work", 0);
	/* ptrace sees every call of any program: no library, no loader.
	 * A seccomp filter lets only the loader's text reach the kernel. */
	st->seccomp = !strcmp(o->mechanism, "seccomp");
	/* A set-ID program: ld.so ignores LD_PRELOAD, and the loader would
	 * run it with our credentials; it runs as natively, said once. */
	if (!st->ptrace && sg_starts_set_id(st->prog)) {
		char e[1024];

		if (st->seccomp)
			die(st->prog, " is set-ID: -m seccomp cannot run it");
		sg_escape_controls(e, sizeof(e), st->prog);
		fprintf(stderr, "sysgate: %s is set-ID: not traced\n", e);
		execv(st->prog, argv + st->prog_i);
		die("cannot run ", st->prog);
	}
	/* The loader starts every program (hooked from ld.so's first
	 * instruction), and static ones and another C library's, which
	 * LD_PRELOAD cannot reach, whatever the options. */
	if (!st->ptrace &&
	    (sg_options_loader(o) || sg_elf_needs_loader(st->prog) > 0)) {
		if (st->seccomp && o->nhooks)
			die("--hook libraries need LD_PRELOAD: not with -m "
			    "seccomp (it starts programs through "
			    "sysgate-loader)", 0);
		if (o->nhooks)
			die(st->prog, o->loader ?
				": --hook cannot be used with --loader" :
				": static or of another C library: --hook "
				"libraries need a program that loads "
				"libsysgate.so");
		st->loader = installed("sysgate-loader");
	} else if (!st->ptrace) {
		st->lib = library_path();
	}
}

/* The output, the shared state and the program's environment, made
 * before the program starts. */
static void prepare(struct sg_options *o, struct start *st, char **argv)
{
	static char opts[SG_OPT_BUF];

	if (o->outfile && (o->outfile[0] == '|' || o->outfile[0] == '!'))
		start_output_pipe(o, st->prog_i - 1, argv);
	/* The options exactly as given, minus a final "--". */
	if (sg_options_join(opts, sizeof(opts),
			    st->prog_i - 1 - (!strcmp(argv[st->prog_i - 1], "--") &&
					      st->prog_i > 1),
			    argv + 1) < 0)
		die("options too long", 0);
	if (o->outfile && o->follow != 2 && !o->append) {
		int fd = open(o->outfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);

		if (fd < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", o->outfile,
				strerror(errno));
			exit(1);
		}
		close(fd);
	}
	/* hooks' shared memory, and plans shared by the processes of a
	 * followed tree (mechanisms/patch/plans.c) */
	if (o->count || o->nhooks || o->hot || (o->follow && !st->ptrace)) {
		st->state = make_state();
		if (!st->state)
			die("cannot create the shared state (memfd_create): ",
			    strerror(errno));
	}
	st->env = build_env(o, st->lib, opts, st->state, st->ptrace);
	if (o->json) {
		int ofd = out_fd(o);

		sg_cli_json_start(o, ofd);
		if (ofd > 2)
			close(ofd);
	}
	if (!st->ptrace) {
		/* Before the program runs, so no signal meant to stop the
		 * run is lost (execve resets them in the child).  Not
		 * SA_RESTART: the signal ends the wait. */
		static const int stops[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
		struct sigaction sa;
		unsigned int i;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = stop;
		for (i = 0; i < ARRAY_SIZE(stops); i++)
			sigaction(stops[i], &sa, 0);
	}
}

/* In the child: become the program (through the loader, or traced). */
static void __attribute__((noreturn))
run_program(const struct start *st, int argc, char **argv)
{
	char root[64], **env = st->env;
	size_t k;

	snprintf(root, sizeof(root), "SYSGATE_ROOT=%d", getpid());
	for (k = 0; env[k]; k++)
		;
	if (!st->ptrace) {
		env[k] = root;
		env[k + 1] = 0;
	}
	/* The shared state goes to the program (not under ptrace: only this
	 * process reads it). */
	if (state_fd >= 0 && !st->ptrace) {
		/* A description of the state the tree holds, not ours
		 * (wait_tree); not through sg_shared_reopen: map_files may
		 * be closed to us. */
		char self[64];
		int held;

		snprintf(self, sizeof(self), "/proc/self/fd/%d", state_fd);
		held = open(self, O_RDWR | O_CLOEXEC);
		if (held >= 0) {
			sg_shared_hold(held);
			dup2(held, state_fd);
			close(held);
		}
		fcntl(state_fd, F_SETFD, 0);
	}
	if (st->ptrace && sg_cli_ptrace_child() < 0) {
		fprintf(stderr, "sysgate: ptrace: %s\n", strerror(errno));
		_exit(127);
	}
	if (st->loader) {
		/* sysgate-loader PATH ARGV0 ARGS... */
		char **largv = calloc(argc - st->prog_i + 3, sizeof(*largv));

		largv[0] = (char *)st->loader;
		largv[1] = (char *)st->prog;
		memcpy(largv + 2, argv + st->prog_i,
		       (argc - st->prog_i) * sizeof(*largv));
		execve(st->loader, largv, env);
	} else {
		execve(st->prog, argv + st->prog_i, env);
	}
	fprintf(stderr, "sysgate: cannot run %s: %s\n", st->prog,
		strerror(errno));
	_exit(127);
}

/*
 * The child that becomes the program.  vfork: the child only prepares
 * descriptors and its environment's last entry before execve, and a copy
 * of this process's page tables (and the faults that copying costs us
 * after) is start-up time for nothing.  Not under -m ptrace, whose child
 * stops itself before execve for us to attach.
 */
static pid_t __attribute__((noinline))
start_program(const struct start *st, int argc, char **argv)
{
	pid_t pid = st->ptrace ? fork() : vfork();

	if (pid < 0)
		die("fork: ", strerror(errno));
	if (pid == 0)
		run_program(st, argc, argv);
	return pid;
}

/* Once the tree has ended: the -c table and the hot report. */
static void report(const struct sg_options *o, const char *state)
{
	int ofd;

	if (o->count && state)
		sg_cli_print_summary(o, state, -1);
	if (o->hot && state) {
		ofd = out_fd(o);
		if (ofd >= 0)
			sg_cli_hot_report(o, state, ofd);
		if (ofd > 2)
			close(ofd);
	}
}

/* The program was killed by a signal: its line where no trace hook
 * printed one, then the same death for sysgate, as strace does. */
static int die_as_program(const struct sg_options *o, int status)
{
	int sig = WTERMSIG(status), ofd;
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	/* The trace hook prints the line of a signal it sees (all but
	 * SIGKILL) itself, after the signal's. */
	if (!(o->count && !o->count_and_trace) && !quiet(o) &&
	    sig == SIGKILL) {
		char line[128];
		int n;

		if (o->json)
			n = snprintf(line, sizeof(line),
				     "{\"type\":\"exit\",\"pid\":%d,"
				     "\"signal\":\"%s\"}\n", child,
				     sysgate_signal_name(sig));
		else
			n = snprintf(line, sizeof(line),
				     "+++ killed by %s%s +++\n",
				     sysgate_signal_name(sig),
				     WCOREDUMP(status) ? " (core dumped)" : "");
		ofd = out_fd(o);
		if (ofd >= 0 && write(ofd, line, n) < 0)
			perror("sysgate: write");
	}
	end_output_pipe();
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, 0);
	kill(getpid(), sig);
	return 128 + sig;
}

int main(int argc, char **argv)
{
	static struct sg_options o;
	struct start st = { 0 };
	int status = 0, stopped = 0, r;

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
	check_summary_options(&o);
	r = info_request(&o);
	if (r >= 0)
		return r;
	st.prog_i = 1 + o.nwords;
	if (o.attach)
		return attach(&o, argc, argv, st.prog_i);
	if (st.prog_i >= argc)
		die("must have PROG [ARGS] (see sysgate -h)", 0);
	nested_start(&o);
	check_start(&o, &st, argv);
	prepare(&o, &st, argv);
	child = start_program(&st, argc, argv);
	if (st.ptrace) {
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		signal(SIGTERM, forward);
		signal(SIGHUP, forward);
		status = sg_cli_ptrace_loop(&o, child, st.state);
		if (status < 0)
			return 1;
		if (o.follow)
			wait_tree(&o, &status);
	} else {
		stopped = wait_tree(&o, &status);
	}
	report(&o, st.state);
	if (stopped) {
		end_output_pipe();
		return 0;	/* interrupted: output finished, as strace */
	}
	if (WIFSIGNALED(status))
		return die_as_program(&o, status);
	end_output_pipe();
	return WEXITSTATUS(status);
}
