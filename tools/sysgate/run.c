/* SPDX-License-Identifier: MIT */
/*
 * Running a program under sysgate (run.h): the checks before it starts,
 * its environment and the tree's shared state, the wait for its tree,
 * the -c table and the exit as the program's.  No libc: this is the
 * whole of the sysgate command's work on a plain run (front.c), where a
 * libc's start cost more than the rest (doc/benchmarks.md).
 */
#include <elf.h>
#include "sg.h"
#include "options.h"
#include "registry.h"
#include "shared.h"
#include "env.h"
#include "count.h"
#include "install-paths.h"
#include "process.h"
#include "signal_arch.h"
#include "run.h"
#include "../../hooks/lib/sets.h"

char **sg_cli_envp;
const char *sg_cli_execfn;
void (*sg_cli_finish)(void);

#define PATH_LEN 4096
#define AT_FDCWD_ -100
#define IS_REG(mode) (((mode) & 0170000) == 0100000)
#define O_RDONLY_ 0
#define O_WRONLY_ 01
#define O_RDWR_ 02
#define O_CREAT_ 0100
#define O_TRUNC_ 01000
#define O_APPEND_ 02000
#define O_DIRECTORY_ 0200000
#define O_CLOEXEC_ 02000000
#define F_SETFD_ 2
#define F_OFD_SETLKW_ 38
#define SIGKILL_ 9
#define WNOHANG_ 1

static long sys_open(const char *path, long flags, long mode)
{
	return sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, flags, mode);
}

static void sys_close(long fd)
{
	sg_sc1(SG_NR_close, fd);
}

static void say(const char *s)
{
	sg_write_all(2, s, sg_strlen(s));
}

void sg_cli_die(const char *a, const char *b)
{
	char ea[1024], eb[1024];

	sg_escape_controls(ea, sizeof(ea), a);
	sg_escape_controls(eb, sizeof(eb), b ? b : "");
	say("sysgate: ");
	say(ea);
	say(eb);
	say("\n");
	sg_sc1(SG_NR_exit_group, 1);
	__builtin_unreachable();
}

/* "WHAT: strerror(-err)" */
static void die_errno(const char *what, long err)
{
	char m[512];

	sg_strjoin(m, sizeof(m), what, ": ", sysgate_strerror(-err));
	sg_cli_die(m, 0);
}

const char *sg_cli_getenv(const char *name)
{
	size_t n = sg_strlen(name);
	char **v;

	for (v = sg_cli_envp; v && *v; v++)
		if (!sg_strncmp(*v, name, n) && (*v)[n] == '=')
			return *v + n + 1;
	return 0;
}

static int can_access(const char *path, int mode)
{
	return sg_sc2(SG_NR_access, (long)path, mode) == 0;
}

/*
 * This executable's directory.  AT_EXECFN where it is the CLI's own file
 * by an absolute path (LD_PRELOAD and the loader's path outlive a chdir)
 * and no symbolic link (one installed elsewhere may sit beside files of
 * the same names): a readlink of /proc/self/exe made the kernel build
 * this process's /proc entries, a tenth of the command's own time when
 * it runs /bin/true.  Else /proc/self/exe, as run as build/sysgate.
 */
static const char *self_dir(void)
{
	static char self[PATH_LEN];
	const char *path = sg_cli_execfn;
	struct sg_fd_stat st;
	long n;

	if (self[0])
		return self;
	if (path && path[0] == '/' && sg_strlen(path) < sizeof(self) &&
	    sg_path_lstat(path, &st) == 0 && IS_REG(st.mode)) {
		sg_strjoin(self, sizeof(self), path, "", "");
	} else {
		n = sg_sc3(SG_NR_readlink, (long)"/proc/self/exe", (long)self,
			   sizeof(self) - 1);
		if (n <= 0)
			sg_cli_die("cannot find /proc/self/exe", 0);
		self[n] = 0;
	}
	/* (both absolute: a '/' is there) */
	*sg_strrchr(self, '/') = 0;
	return self;
}

/* A file installed with the CLI: next to this executable (the build
 * tree), else where `make install` puts the runtime: found from this
 * executable's directory first, so a DESTDIR tree or a moved prefix
 * works, then at the configured path (mk/install.mk). */
const char *sg_cli_installed(const char *name)
{
	static char path[2][PATH_LEN + 64];
	static int which;
	const char *self = self_dir();
	char *p = path[which ^= 1];
	size_t k = sizeof(path[which]);
	int i;

	for (i = 0; i < 3; i++) {
		if (i < 2)
			sg_strjoin(p, k, self,
				   i ? "/" SG_PKGLIBDIR_FROM_BIN "/" : "/",
				   name);
		else
			sg_strjoin(p, k, SG_PKGLIBDIR, "/", name);
		if (can_access(p, 4 /* R_OK */))
			return p;
	}
	say("sysgate: cannot find ");
	say(name);
	say(" next to ");
	say(self);
	say("\n");
	sg_sc1(SG_NR_exit_group, 1);
	__builtin_unreachable();
}

/* libsysgate.so: $SYSGATE_LIBRARY, else the installed one. */
static const char *library_path(void)
{
	const char *env = sg_cli_getenv("SYSGATE_LIBRARY");

	return env ? env : sg_cli_installed("libsysgate.so");
}

static int is_exec_file(const char *path)
{
	struct sg_fd_stat st;

	return sg_path_stat(path, &st) == 0 && IS_REG(st.mode) &&
	       can_access(path, 1 /* X_OK */);
}

static const char *find_program(const char *name)
{
	static char path[PATH_LEN];
	const char *p = sg_cli_getenv("PATH");
	struct sg_fd_stat st;

	if (sg_strchr(name, '/')) {
		if (sg_path_stat(name, &st) < 0)
			sg_cli_die(name, ": No such file or directory");
		if (!is_exec_file(name))
			sg_cli_die(name, ": Permission denied");
		return name;
	}
	if (!p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		const char *e = sg_strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : sg_strlen(p);
		char dir[PATH_LEN];

		if (n < sizeof(dir)) {
			memcpy(dir, n ? p : ".", n ? n : 1);
			dir[n ? n : 1] = 0;
			sg_strjoin(path, sizeof(path), dir, "/", name);
			if (is_exec_file(path))
				return path;
		}
		p += n + (e ? 1 : 0);
	}
	sg_cli_die(name, ": command not found");
}

void sg_cli_check_summary_options(const struct sg_options *o)
{
	char msg[256];

	if (o->sortby && count_sort_key(o->sortby, sg_strlen(o->sortby)) < 0) {
		sg_strjoin(msg, sizeof(msg), "invalid -S key '", o->sortby,
			   "' (time, min-time, max-time, avg-time, calls, "
			   "errors, name, nothing)");
		sg_cli_die(msg, 0);
	}
	if (o->columns && count_check_columns(o->columns) < 0) {
		sg_strjoin(msg, sizeof(msg), "invalid -U columns '",
			   o->columns, "' (time-percent, total-time, min-time, "
			   "max-time, avg-time, calls, errors, name)");
		sg_cli_die(msg, 0);
	}
	/* (strace refuses the first two without a summary, and says the
	 * third does nothing) */
	if (!o->count && o->wall)
		sg_cli_die("-w/--summary-wall-clock must be given with "
			   "(-c/--summary-only or -C/--summary)", 0);
	if (!o->count && o->columns)
		sg_cli_die("-U/--summary-columns must be given with "
			   "(-c/--summary-only or -C/--summary)", 0);
	if (!o->count && o->sortby)
		say("sysgate: -S/--summary-sort-by has no effect without "
		    "(-c/--summary-only or -C/--summary)\n");
}

void sg_cli_check_builtins(const struct sg_options *o)
{
	const struct sg_builtin *b = sg_builtins;
	/* each hook's arguments, one after another (the hooks keep them):
	 * only the pages they fill are touched */
	static char pool[16 * 2048];
	char *args = pool, *end = pool + sizeof(pool);
	unsigned int i;

	sg.out_fd = 2;
	for (i = 0; b[i].name && end - args > 8; i++) {
		struct sysgate_ctx *c;
		int r = sg_options_hook_args(o, b[i].name, args, end - args);
		size_t n = sg_strlen(args);

		if (r < 0)
			sg_cli_die("options too long", 0);
		if (!r)
			continue;
		/* (the program's processes do the rest: fs, for one, makes
		 * the file system in the first) */
		c = sg_hooks_new(b[i].hook, args, 1);
		if (c)
			c->only_checks = 1;
		if (!c || sg_hooks_init(c) < 0)
			sg_cli_die(c ? c->error : "too many hooks", 0);
		args += n + 1;
	}
}

/* Whether a line of a maps file ends with one of sysgate's files. */
static int names_sysgate(const char *line, size_t n)
{
	static const char *const names[] = {
		"/libsysgate.so", "/sysgate-loader",
		"/memfd:sysgate-state (deleted)",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		size_t m = sg_strlen(names[i]);

		if (n >= m && !sg_strncmp(line + n - m, names[i], m))
			return 1;
	}
	return 0;
}

/*
 * Call fn on each line of a file of /proc (without its newline) until
 * it returns non-zero: that value, 0 at the end, -1 if it cannot be read.
 */
static int each_line(const char *path, int (*fn)(const char *, size_t,
						 unsigned long),
		     unsigned long arg)
{
	char buf[8192];
	size_t have = 0;
	long fd = sys_open(path, O_RDONLY_ | O_CLOEXEC_, 0), n;
	int r = 0;

	if (fd < 0)
		return -1;
	while (!r && (n = sg_sc3(SG_NR_read, fd, (long)buf + have,
				 sizeof(buf) - have)) > 0) {
		char *s = buf, *nl, *end = buf + have + n;

		for (nl = s; !r && nl < end; nl++)
			if (*nl == '\n') {
				r = fn(s, nl - s, arg);
				s = nl + 1;
			}
		have = end - s;
		if (have == sizeof(buf))	/* (no line is this long) */
			have = 0;
		memmove(buf, s, have);
	}
	sys_close(fd);
	return r;
}

static int maps_line_is_ours(const char *line, size_t n, unsigned long arg)
{
	(void)arg;
	return names_sysgate(line, n);
}

/*
 * Run by another sysgate (sysgate under sysgate): its runtime holds this
 * process (x86-64: our GS base, read where the instruction exists; else
 * its files in our maps, which the loader's anonymous segments may not
 * show).
 */
int sg_cli_under_sysgate(unsigned long hwcap2)
{
	int r = sg_self_runs_sysgate(hwcap2);

	if (r >= 0)
		return r;
	return each_line("/proc/self/maps", maps_line_is_ours, 0) > 0;
}

static const char hooks_not_ptrace[] =
	"--hook libraries run inside the program: not with -m ptrace";

void sg_cli_check_start(const struct sg_options *o, struct sg_run *st,
			char **argv,
			void (*check_hooks)(const struct sg_options *))
{
	const char *why;

	if (!sg_mech_find(o->mechanism))
		sg_cli_die("unknown mechanism ", o->mechanism);
	if (sg_mech_check(sg_mech_find(o->mechanism), o, &why) < 0)
		sg_cli_die(why, 0);
	sg_cli_check_builtins(o);
	if (check_hooks)
		check_hooks(o);
	st->prog = find_program(argv[st->prog_i]);
	st->ptrace = !sg_strcmp(o->mechanism, "ptrace");
	if (st->ptrace && o->nhooks)
		sg_cli_die(hooks_not_ptrace, 0);
	if (st->ptrace && o->fs)
		sg_cli_die("--fs serves files inside the program: not with "
			   "-m ptrace", 0);
	/* PR_SET_MDWE (inherited, as under systemd's
	 * MemoryDenyWriteExecute=) forbids the code writes of every other
	 * mechanism. */
	if (!st->ptrace && sg_strcmp(o->mechanism, "preload") &&
	    sg_sc5(SG_NR_prctl, SG_PR_GET_MDWE, 0, 0, 0, 0) > 0)
		sg_cli_die("memory-deny-write-execute (PR_SET_MDWE) is set: "
			   "sysgate cannot write code here; -m ptrace and -m "
			   "preload work", 0);
	/* ptrace sees every call of any program: no library, no loader.
	 * A seccomp filter lets only the loader's text reach the kernel. */
	st->seccomp = !sg_strcmp(o->mechanism, "seccomp");
	/* A set-ID program: ld.so ignores LD_PRELOAD, and the loader would
	 * run it with our credentials; it runs as natively, said once.
	 * (Under -u the command gives it its set-ID ids itself, as strace
	 * does: st->ids.) */
	if (!st->ptrace && !o->user && sg_starts_set_id(st->prog, 0)) {
		char e[1024];
		long r;

		if (st->seccomp)
			sg_cli_die(st->prog, " is set-ID: -m seccomp cannot "
					     "run it");
		sg_escape_controls(e, sizeof(e), st->prog);
		say("sysgate: ");
		say(e);
		say(" is set-ID: not traced\n");
		r = sg_sc3(SG_NR_execve, (long)st->prog,
			   (long)(argv + st->prog_i), (long)sg_cli_envp);
		(void)r;
		sg_cli_die("cannot run ", st->prog);
	}
	/* The loader starts every program (hooked from ld.so's first
	 * instruction), and static ones and another C library's, which
	 * LD_PRELOAD cannot reach, whatever the options. */
	if (!st->ptrace &&
	    (sg_options_loader(o) || sg_elf_needs_loader(st->prog) > 0)) {
		if (st->seccomp && o->nhooks)
			sg_cli_die("--hook libraries need LD_PRELOAD: not with "
				   "-m seccomp (it starts programs through "
				   "sysgate-loader)", 0);
		if (o->nhooks)
			sg_cli_die(st->prog, o->loader ?
				   ": --hook cannot be used with --loader" :
				   ": static or of another C library: --hook "
				   "libraries need a program that loads "
				   "libsysgate.so");
		st->loader = sg_cli_installed("sysgate-loader");
	} else if (!st->ptrace) {
		st->lib = library_path();
	}
}

/* The tree's shared state (core/shared.c): a memfd the program inherits,
 * named "fd:N" in SYSGATE_STATE. */
static long state_fd = -1;

static const char *make_state(void)
{
	static char name[32];
	char num[24];
	long fd = sg_shared_create();

	if (fd < 0)
		die_errno("cannot create the shared state (memfd_create)", fd);
	state_fd = sg_fd_hide(fd);
	return sg_strjoin(name, sizeof(name), "fd:",
			  sg_utoa(num + sizeof(num), state_fd), "");
}

/* A bump allocator for the program's environment, from one mapping. */
struct arena {
	char *cur, *end;
};

static char *arena_take(struct arena *a, size_t n)
{
	char *p = a->cur;

	if (n > (size_t)(a->end - a->cur))
		sg_cli_die("out of memory", 0);
	a->cur += n;
	return p;
}

/* "A" "B" "C" one after the other, in the arena */
static char *arena_join(struct arena *a, const char *x, const char *y,
			const char *z)
{
	size_t n = sg_strlen(x) + sg_strlen(y) + sg_strlen(z) + 1;

	return sg_strjoin(arena_take(a, n), n, x, y, z);
}

static int is_our_library(const char *tok, size_t n)
{
	static const char *const ours[] = {
		"libsysgate.so", "libsysgate.so.1", "libsysgate-preload.so",
	};
	size_t b = n;
	unsigned int i;

	while (b && tok[b - 1] != '/')
		b--;
	for (i = 0; i < ARRAY_SIZE(ours); i++)
		if (n - b == sg_strlen(ours[i]) &&
		    !sg_strncmp(tok + b, ours[i], n - b))
			return 1;
	return 0;
}

/* The inherited LD_PRELOAD less sysgate's own libraries (under an outer
 * sysgate, its copy would find GS taken, and say so, in our program), or
 * 0 if there is none. */
static char *user_preloads(struct arena *a)
{
	const char *env = sg_cli_getenv("LD_PRELOAD"), *p;
	char *out, *w;

	if (!env)
		return 0;
	out = w = arena_take(a, sg_strlen(env) + 1);
	for (p = env; *p;) {
		size_t n = 0;

		while (p[n] && p[n] != ':' && p[n] != ' ')
			n++;
		if (n && !is_our_library(p, n)) {
			if (w != out)
				*w++ = ':';
			memcpy(w, p, n);
			w += n;
		}
		p += n + (p[n] ? 1 : 0);
	}
	*w = 0;
	return out;
}

/* Does entry e of an environment set the variable that -E item v names
 * (VAR or VAR=VAL)? */
static int same_var(const char *e, const char *v)
{
	const char *eq = sg_strchr(v, '=');
	size_t n = eq ? (size_t)(eq - v) : sg_strlen(v);

	return !sg_strncmp(e, v, n) && e[n] == '=';
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
		if (sg_strchr(v, '='))
			env[(*k)++] = (char *)v;
	}
}

/* bare: -m ptrace, where nothing of sysgate runs in the program (its
 * environment is the user's, with -E's changes).  Two entries stay free
 * at the end (SYSGATE_ROOT, sg_cli_exec_program). */
/* -u: the output file the command opened for PROG, or -1 */
static long out_given = -1;

static char **build_env(const struct sg_options *o, const char *lib,
			const char *opts, const char *state, int bare)
{
	char num[24];
	size_t n = 0, i, k = 0, room;
	const char *old_env = sg_cli_getenv("LD_PRELOAD");
	struct arena a;
	char **env, *old;

	while (sg_cli_envp[n])
		n++;
	room = (n + o->nenv + 8) * sizeof(*env) + 3 * PATH_LEN +
	       SG_OPT_BUF + 2 * (old_env ? sg_strlen(old_env) : 0) + 256;
	a.cur = sg_mmap(room);
	if (!a.cur)
		sg_cli_die("out of memory", 0);
	a.end = a.cur + room;
	env = (char **)arena_take(&a, (n + o->nenv + 8) * sizeof(*env));
	old = user_preloads(&a);
	for (i = 0; i < n; i++)
		if (sg_strncmp(sg_cli_envp[i], "LD_PRELOAD=", 11) &&
		    !sg_env_is_internal(sg_cli_envp[i]))
			env[k++] = sg_cli_envp[i];
	apply_env_items(o, env, &k);
	if (bare || !lib) {
		/* the program's own preloads, not ours (-m ptrace, loader) */
		if (old && *old)
			env[k++] = arena_join(&a, "LD_PRELOAD=", old, "");
		if (bare) {
			env[k] = 0;
			return env;
		}
	} else {
		/* -m preload: the wrappers come right after the library. */
		int pre = o->mechanism && !sg_strcmp(o->mechanism, "preload");
		const char *w = pre ? sg_cli_installed("libsysgate-preload.so")
				    : "";
		char *head = arena_join(&a, lib, pre ? ":" : "", w);

		env[k++] = arena_join(&a, "LD_PRELOAD=", head,
				      old && *old ? ":" : "");
		if (old && *old) {
			a.cur--;	/* (over the terminating zero) */
			arena_join(&a, old, "", "");
		}
	}
	env[k++] = arena_join(&a, "SYSGATE_OPTIONS=", opts, "");
	if (state)
		env[k++] = arena_join(&a, "SYSGATE_STATE=", state, "");
	if (out_given >= 0)
		env[k++] = arena_join(&a, "SYSGATE_OUT=fd:",
				      sg_utoa(num + sizeof(num), out_given), "");
	env[k++] = "SYSGATE_CLI=1";
	env[k] = 0;
	return env;
}

int sg_cli_out_fd(const struct sg_options *o)
{
	if (!o->outfile || o->follow == 2)
		return 2;
	return sys_open(o->outfile, O_WRONLY_ | O_APPEND_ | O_CREAT_ |
			O_CLOEXEC_, 0644);
}

int sg_cli_quiet(const struct sg_options *o)
{
	return (o->hot || o->bypass) && !o->trace && !o->count_and_trace;
}

void sg_cli_json_start(const struct sg_options *o, int fd)
{
	char start[128];

	if (fd < 0 || (o->count && !o->count_and_trace) || sg_cli_quiet(o))
		return;
	sg_strjoin(start, sizeof(start),
		   "{\"type\":\"start\",\"schema\":2,\"arch\":\"" SG_ARCH_NAME
		   "\",\"mechanism\":\"", o->mechanism, "\"}\n");
	if (sg_write_all(fd, start, sg_strlen(start)) < 0)
		say("sysgate: write: cannot write the output\n");
}

static volatile int stop_sig;

static void stop(int sig)
{
	stop_sig = sig;
}

/* A signal's action (not SA_RESTART: the signal ends the wait). */
static void set_action(int sig, unsigned long handler)
{
	struct sg_kact k = { .handler = handler, .flags = SG_SA_RESTORER };

	sg_kact_set_restorer(&k, sg_arch_restorer());
	sg_sc4(SG_NR_rt_sigaction, sig, (long)&k, 0, 8);
}

/* Ignored when sysgate started (nohup's SIGHUP; SIGINT in a script's
 * background job): left so until the program has started, for it to
 * inherit as it would natively (sg_cli_wait_tree then handles them). */
static int ignored(int sig)
{
	struct sg_kact k;

	return sg_sc4(SG_NR_rt_sigaction, sig, 0, (long)&k, 8) == 0 &&
	       k.handler == 1 /* SIG_IGN */;
}

static unsigned long stops_later;

void sg_cli_prepare(struct sg_options *o, struct sg_run *st, char **argv)
{
	static char opts[SG_OPT_BUF];

	/* The options exactly as given, minus a final "--". */
	if (sg_options_join(opts, sizeof(opts),
			    st->prog_i - 1 -
			    (!sg_strcmp(argv[st->prog_i - 1], "--") &&
			     st->prog_i > 1),
			    argv + 1) < 0)
		sg_cli_die("options too long", 0);
	if (o->outfile && o->follow != 2 && !o->append) {
		long fd = sys_open(o->outfile, O_WRONLY_ | O_CREAT_ | O_TRUNC_ |
				   O_CLOEXEC_, 0644);

		if (fd < 0) {
			char e[256];

			sg_strjoin(e, sizeof(e), ": ", sysgate_strerror(-fd),
				   "");
			sg_cli_die(o->outfile, e);
		}
		sys_close(fd);
	}
	/* -u: PROG's user may not open FILE (the command made it, in a
	 * directory of its own choosing): handed down open, as a followed
	 * execve hands it.  (-ff's files are each process's to make.) */
	if (o->user && !st->ptrace && o->outfile && o->follow != 2) {
		long fd = sg_cli_out_fd(o);

		/* (a copy above the standard ones, without close-on-exec) */
		out_given = fd < 0 ? fd : sg_sc3(SG_NR_fcntl, fd,
						 0 /* F_DUPFD */, 3);
		if (fd >= 0)
			sys_close(fd);
		if (out_given < 0)
			sg_cli_die("cannot open output file ", o->outfile);
	}
	/* hooks' shared memory (-m ptrace: the tracer's; -f's count of the
	 * tree's tasks), plans shared by the processes of a followed tree
	 * (mechanisms/patch/plans.c), and where -o FILE's writes tell their
	 * first error (sg_cli_output_error) */
	if (o->count || o->nhooks || o->hot || o->follow ||
	    (o->outfile && o->outfile[0] != '|' && o->outfile[0] != '!'))
		st->state = make_state();
	st->daemonize = o->daemonize;
	st->env = build_env(o, st->lib, opts, st->state, st->ptrace);
	if (o->json) {
		int ofd = sg_cli_out_fd(o);

		sg_cli_json_start(o, ofd);
		if (ofd > 2)
			sys_close(ofd);
	}
	if (!st->ptrace && sg_options_intr(o) > 1) {
		/* Before the program runs, so no signal meant to stop the
		 * run is lost (execve resets them in the child, where
		 * SIG_IGN would stay): SIGTERM, SIGINT, SIGHUP, SIGQUIT,
		 * SIGPIPE, and with -I never_tstp SIGTSTP, which -I never
		 * and never_tstp then let pass (sg_cli_wait_tree). */
		static const int stops[] = { 15, 2, 1, 3, 13, 20 };
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(stops) - (sg_options_intr(o) < 4);
		     i++)
			if (ignored(stops[i]))
				stops_later |= 1UL << stops[i];
			else
				set_action(stops[i], (unsigned long)stop);
	}
}

/* A description of the state that the tree holds with a shared lock, not
 * ours (sg_cli_wait_tree waits for a write lock through ours); not
 * through sg_shared_reopen: map_files may be closed to us.  -1 if none. */
static long tree_description(void)
{
	char self[64], num[24];
	long held;

	if (state_fd < 0)
		return -1;
	sg_strjoin(self, sizeof(self), "/proc/self/fd/",
		   sg_utoa(num + sizeof(num), state_fd), "");
	held = sys_open(self, O_RDWR_ | O_CLOEXEC_, 0);
	return sg_shared_hold(held);
}

/* -D: that description, taken before the grandchild that waits for the
 * tree starts (it must not find the tree gone before it began). */
static long tree_held = -1;

/* -u: the groups first, while this process may still set them. */
static void become(const struct sg_ids *ids)
{
	const char *what = "setgroups";
	long r = sg_sc2(SG_NR_setgroups, ids->ngroups, (long)ids->groups);

	if (!r) {
		what = "setregid";
		r = sg_sc2(SG_NR_setregid, ids->gid, ids->egid);
	}
	if (!r) {
		what = "setreuid";
		r = sg_sc2(SG_NR_setreuid, ids->uid, ids->euid);
	}
	if (!r)
		return;
	say("sysgate: ");
	say(what);
	say(": ");
	say(sysgate_strerror(-r));
	say("\n");
	sg_sc1(SG_NR_exit, 127);
}

void sg_cli_exec_program(const struct sg_run *st, int argc, char **argv)
{
	char root[64], num[24], **env = st->env;
	size_t k;
	long r;

	for (k = 0; env[k]; k++)
		;
	if (!st->ptrace) {
		env[k] = sg_strjoin(root, sizeof(root), "SYSGATE_ROOT=",
				    sg_utoa(num + sizeof(num),
					    sg_sc0(SG_NR_getpid)), "");
		env[k + 1] = 0;
	}
	/* The shared state goes to the program (not under ptrace: only this
	 * process reads it). */
	if (state_fd >= 0 && !st->ptrace) {
		long held = tree_held >= 0 ? tree_held : tree_description();

		if (held >= 0) {
			sg_sc3(SG_NR_dup3, held, state_fd, 0);
			sys_close(held);
		}
		sg_sc3(SG_NR_fcntl, state_fd, F_SETFD_, 0);
	}
	if (st->ids)
		become(st->ids);
	if (st->loader) {
		/* sysgate-loader PATH ARGV0 ARGS... */
		char **largv = sg_mmap((argc - st->prog_i + 3) * sizeof(char *));

		r = -12;	/* ENOMEM */
		if (largv) {
			largv[0] = (char *)st->loader;
			largv[1] = (char *)st->prog;
			memcpy(largv + 2, argv + st->prog_i,
			       (argc - st->prog_i + 1) * sizeof(*largv));
			r = sg_sc3(SG_NR_execve, (long)st->loader, (long)largv,
				   (long)env);
		}
	} else {
		r = sg_sc3(SG_NR_execve, (long)st->prog,
			   (long)(argv + st->prog_i), (long)env);
	}
	say("sysgate: cannot run ");
	say(st->prog);
	say(": ");
	say(sysgate_strerror(-r));
	say("\n");
	sg_sc1(SG_NR_exit, 127);
	__builtin_unreachable();
}

/*
 * vfork: the child only prepares descriptors and its environment's last
 * entry before execve, and a copy of this process's page tables (and the
 * faults that copying costs us after) is start-up time for nothing.  The
 * child never returns here: it runs below this frame and leaves it as it
 * was.
 */
static long sys_fork(void)
{
	return sg_sc5(SG_NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0);
}

/*
 * -D: the program keeps this process, so that its pid and its parent (the
 * shell that waits for it, and gets its exit status) are what they are
 * natively; a grandchild waits for the tree to end and prints what was
 * counted (0 is returned there; without a shared state it has nothing to
 * do).  The child between is reaped before the program starts: no child
 * it did not make.  -DD puts the grandchild in a process group of its
 * own, -DDD in a session of its own, out of reach of the terminal's
 * signals.
 */
static int start_daemonized(const struct sg_run *st, int argc, char **argv)
{
	long c, g;
	int status;

	tree_held = tree_description();
	c = sys_fork();
	if (c < 0)
		die_errno("fork", c);
	if (c == 0) {
		g = sys_fork();
		if (g != 0 || !st->state)
			sg_sc1(SG_NR_exit_group, g < 0);
		if (tree_held >= 0)
			sys_close(tree_held);
		if (out_given >= 0)
			sys_close(out_given);
		tree_held = -1;
		if (st->daemonize == 2)
			sg_sc2(SG_NR_setpgid, 0, 0);
		else if (st->daemonize == 3)
			sg_sc0(SG_NR_setsid);
		return 0;
	}
	while (sg_sc4(SG_NR_wait4, c, (long)&status, 0, 0) == -4 /* EINTR */)
		;
	sg_cli_exec_program(st, argc, argv);
}

int __attribute__((noinline))
sg_cli_start_program(const struct sg_run *st, int argc, char **argv)
{
	long pid;

	if (st->daemonize)
		return start_daemonized(st, argc, argv);
	pid = sg_sc0(SG_NR_vfork);

	if (pid < 0)
		die_errno("fork", pid);
	if (pid == 0)
		sg_cli_exec_program(st, argc, argv);
	if (out_given >= 0)
		sys_close(out_given);
	return pid;
}

/*
 * Wait for PROG and, under -f, for every process of its tree (as
 * strace -f does): the tree holds the state with a shared lock
 * (sg_shared_hold), which a write lock through our own description of it
 * waits out.  Not by being the tree's subreaper: an orphaned process group
 * would then keep a parent in the session (us), and its stopped members
 * would never get the SIGHUP and SIGCONT the kernel sends them natively.
 * SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE: as strace's -I says (see
 * sg_cli_prepare).  Killing the tree instead, as this once did, cut short
 * what a program does on such a signal natively (Python's
 * KeyboardInterrupt) and lost its exit status.
 */
/*
 * The program made itself traced: PTRACE_TRACEME names its parent, this
 * process, which it would not have natively (an anti-debugging check does
 * it to see that no debugger is there).  Each signal then stops it, the
 * SIGSYS of every trapped call among them: it goes on as without a
 * tracer, its signal delivered with its siginfo.  The trap the kernel
 * sends after an exec is a tracer's to take, not the program's (the
 * first one a SIGTRAP it sent itself; later ones an exec event).  At a
 * group stop (SIGSTOP, SIGTSTP) it is let go, stopped, as it would be.
 */
static void pass_stop(long pid, int st)
{
	struct sg_siginfo si;
	int sig = (st >> 8) & 0xff;

	if (st >> 16) {		/* an event stop: the exec we asked for */
		sg_sc4(SG_NR_ptrace, 7 /* PTRACE_CONT */, pid, 0, 0);
		return;
	}
	if (sg_sc4(SG_NR_ptrace, 0x4202 /* PTRACE_GETSIGINFO */, pid, 0,
		   (long)&si) < 0) {
		sg_sc4(SG_NR_ptrace, 17 /* PTRACE_DETACH */, pid, 0, 0);
		return;
	}
	sg_sc4(SG_NR_ptrace, 0x4200 /* PTRACE_SETOPTIONS */, pid, 0,
	       0x10 /* PTRACE_O_TRACEEXEC */);
	if (sig == 5 /* SIGTRAP */ && si.si_code == 0 /* SI_USER */ &&
	    (int)si.fields[0] == pid)
		sig = 0;
	sg_sc4(SG_NR_ptrace, 7 /* PTRACE_CONT */, pid, 0, sig);
}

/*
 * Once the program has its descriptors, this process keeps none of its
 * standard input and output, as strace does: a program that closes them
 * (a daemon, `exec >&-`) then ends a pipeline or a $(...) as natively,
 * where a copy held here kept the reader waiting until the whole run
 * ended.  Standard output stays where -o names it (the summary is written
 * there at the end, by name).
 */
void sg_cli_release_stdio(const struct sg_options *o)
{
	struct sg_fd_stat out, named;
	long nul = sys_open("/dev/null", O_RDWR_ | O_CLOEXEC_, 0);

	if (nul < 0)
		return;
	sg_sc3(SG_NR_dup3, nul, 0, 0);
	if (!(o->outfile && o->follow != 2 && sg_fd_stat(1, &out) == 0 &&
	      sg_path_stat(o->outfile, &named) == 0 && out.dev == named.dev &&
	      out.ino == named.ino))
		sg_sc3(SG_NR_dup3, nul, 1, 0);
	sys_close(nul);
}

int sg_cli_wait_tree(const struct sg_options *o, int child, int *status)
{
	struct {
		short type, whence;
		long start, len;
		int pid;
	} wr = { .type = 1 /* F_WRLCK */ };
	unsigned long ino = 0;
	struct sg_fd_stat sb;
	int st, sig, got = !child;	/* (-D's grandchild: no child) */
	long w;

	sg_cli_release_stdio(o);
	if ((o->follow || got) && state_fd >= 0 &&
	    sg_fd_stat(state_fd, &sb) == 0)
		ino = sb.ino;
	for (sig = 1; sig < 64; sig++)
		if (stops_later & (1UL << sig))
			set_action(sig, (unsigned long)stop);
	for (;;) {
		/* -I waiting (strace's default without -o FILE): the
		 * program gets the signal too, and the run ends, the rest
		 * of the tree left to go on; -I never: signals pass. */
		if (stop_sig && sg_options_intr(o) > 2)
			stop_sig = 0;
		if (stop_sig) {
			if (!got) {
				sg_sc2(SG_NR_kill, child, 18 /* SIGCONT */);
				sg_sc2(SG_NR_kill, child, stop_sig);
			}
			break;
		}
		if (!got) {
			w = sg_sc4(SG_NR_wait4, -1, (long)&st, 0, 0);
			if (w == -4 /* EINTR */)
				continue;
			if (w > 0 && (st & 0xff) == 0x7f) {
				pass_stop(w, st);
				continue;
			}
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
		if (sg_sc3(SG_NR_fcntl, state_fd, F_OFD_SETLKW_, (long)&wr) !=
		    -4 /* EINTR */)
			break;
	}
	return stop_sig;
}

void *sg_cli_map_state(const char *state, unsigned long *len)
{
	struct sg_fd_stat st;
	long fd = sg_env_fd(state), map;

	if (fd < 0 || sg_fd_stat(fd, &st) < 0)
		return 0;
	/* (its size follows RLIMIT_AS: core/shared.c) */
	*len = st.size;
	map = sg_sc6(SG_NR_mmap, 0, *len, 1 /* PROT_READ */,
		     1 /* MAP_SHARED */, fd, 0);
	return sysgate_is_error(map) ? 0 : (void *)map;
}

/* The tree's state: ours, mapped since we made it, or mapped now (*len
 * then set, for the munmap). */
static void *tree_state(const char *state, unsigned long *len)
{
	*len = 0;
	if (state_fd >= 0 && sg_env_fd(state) == state_fd && sg.shared_base)
		return sg.shared_base;
	return sg_cli_map_state(state, len);
}

void sg_cli_print_summary(const struct sg_options *o, const char *state,
			  int ofd)
{
	static char buf[SYSGATE_NR_MAX * 120 + 512];
	struct count_format f = { o->sortby, o->columns, o->wall, o->json };
	const struct count_table *t;
	unsigned long len;
	void *map = tree_state(state, &len);

	if (!map)
		return;
	t = sg_shared_find(map, COUNT_TABLE_NAME);
	if (t) {
		unsigned long n = count_summary(t, &f, buf, sizeof(buf));

		if (ofd < 0)
			ofd = sg_cli_out_fd(o);
		if (ofd >= 0 && sg_write_all(ofd, buf, n) < 0)
			say("sysgate: write: cannot write the summary\n");
		if (ofd > 2)
			sys_close(ofd);
	}
	if (len)
		sg_sc2(SG_NR_munmap, (long)map, len);
}

/* A write of the output that failed in the tree (ENOSPC, EIO): said at
 * the end, as strace says it; the exit status stays the program's. */
void sg_cli_output_error(const struct sg_options *o, const char *state)
{
	unsigned long len;
	const struct sg_shared_hdr *h = tree_state(state, &len);
	unsigned int err = h ? __atomic_load_n(&h->out_errno,
					       __ATOMIC_RELAXED) : 0;
	char path[1024];

	if (err && o->outfile && o->outfile[0] != '|' &&
	    o->outfile[0] != '!') {
		sg_escape_controls(path, sizeof(path), o->outfile);
		say("sysgate: ");
		say(path);
		say(": ");
		say(sysgate_strerror((int)err));
		say("\n");
	}
	if (len)
		sg_sc2(SG_NR_munmap, (long)h, len);
}

/* The program was killed by a signal: its line where no trace hook
 * printed one, then the same death for sysgate, as strace does. */
static int die_as_program(const struct sg_options *o, int child, int status)
{
	int sig = status & 0x7f, ofd;

	/* The trace hook prints the line of a signal it sees (all but
	 * SIGKILL, except in the tracer of -m ptrace) itself, after the
	 * signal's. */
	unsigned long long shown = ~0ULL;	/* -e signal= */

	if (o->signals)
		signal_set_parse(o->signals, sg_strlen(o->signals), &shown);
	if (!(o->count && !o->count_and_trace) && !sg_cli_quiet(o) &&
	    sig == SIGKILL_ && (shown >> (SIGKILL_ - 1) & 1) &&
	    sg_strcmp(o->mechanism, "ptrace")) {
		char line[128], num[24];

		if (o->json) {
			sg_strjoin(line, sizeof(line),
				   "{\"type\":\"exit\",\"pid\":",
				   sg_utoa(num + sizeof(num), child),
				   ",\"signal\":\"");
			sg_strjoin(line + sg_strlen(line),
				   sizeof(line) - sg_strlen(line),
				   sysgate_signal_name(sig), "\"}\n", "");
		} else {
			/* (-f -o FILE: strace's "PID " column, "%-5d ") */
			char *at = line;

			if (o->follow == 1 && o->outfile) {
				const char *p = sg_utoa(num + sizeof(num), child);

				sg_strjoin(line, sizeof(line), p, "", "");
				at = line + sg_strlen(line);
				do
					*at++ = ' ';
				while (at - line < 6);
			}
			sg_strjoin(at, sizeof(line) - (at - line),
				   "+++ killed by ", sysgate_signal_name(sig),
				   status & 0x80 ? " (core dumped) +++\n"
						 : " +++\n");
		}
		ofd = sg_cli_out_fd(o);
		if (ofd >= 0 && sg_write_all(ofd, line, sg_strlen(line)) < 0)
			say("sysgate: write: cannot write the output\n");
		if (ofd > 2)
			sys_close(ofd);
	}
	return sg_cli_die_by(sig);
}

int sg_cli_die_by(int sig)
{
	unsigned long no_core[2] = { 0, 0 }, set = 1UL << (sig - 1);

	if (sg_cli_finish)
		sg_cli_finish();
	sg_sc4(SG_NR_prlimit64, 0, 4 /* RLIMIT_CORE */, (long)no_core, 0);
	set_action(sig, 0 /* SIG_DFL */);
	sg_sc4(SG_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&set, 0, 8);
	sg_sc2(SG_NR_kill, sg_sc0(SG_NR_getpid), sig);
	return 128 + sig;
}

int sg_cli_exit_as_program(const struct sg_options *o, int child, int status)
{
	if ((status & 0x7f) && (status & 0x7f) != 0x7f)
		return die_as_program(o, child, status);
	if (sg_cli_finish)
		sg_cli_finish();
	return (status >> 8) & 0xff;
}
