/* SPDX-License-Identifier: MIT */
/*
 * Start-up, in libsysgate's constructor: options from SYSGATE_OPTIONS,
 * the first thread's state, output, shared state, the hook chain (built-in
 * hooks first, then --hook libraries in order), then the mechanism that
 * routes system calls here.  It runs before the program's main(); what
 * it needs from the process (the environment, the auxiliary vector, a
 * hook library's symbol) comes through core/start.h: the program's libc
 * under LD_PRELOAD, the loader's own code in loader mode, which has no
 * libc.
 *
 * Bad options stop the program here with a one-line message, before it
 * starts; a mechanism that cannot hook something reports it (--stats) and
 * falls back, it never stops the program.
 */
#include <elf.h>
#include "sg.h"
#include "start.h"
#include "options.h"
#include "env.h"
#include "mech.h"
#include "fpu_arch.h"
#include "maps.h"

static struct sg_options opts;
static char hook_args[SG_MAX_HOOKS][2048];

static void die2(const char *a, const char *b, const char *c)
{
	char msg[400];

	sg_die(sg_strjoin(msg, sizeof(msg), a, b, c));
}

/* SYSGATE_CARRY_<hook> from the previous program, decoded into memory
 * of sysgate's own (the loader gives the variable's place to the
 * program's strings). */
static void take_carried(struct sysgate_ctx *c)
{
	char name[64];
	const char *v;
	char *d;
	unsigned long n, i;

	sg_strlcpy(name, "SYSGATE_CARRY_", sizeof(name));
	sg_strlcpy(name + 14, c->env_name, sizeof(name) - 14);
	v = sg_start_getenv(name);
	if (!v)
		return;
	n = sg_strlen(v) / 2;
	d = n ? sg_mmap(n) : (char *)v;	/* (empty: nothing written) */
	if (!d)
		return;
	for (i = 0; i < n; i++) {
		int hi = v[2 * i], lo = v[2 * i + 1];

		hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
		lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
		d[i] = (char)(hi << 4 | lo);
	}
	c->carried = d;
	c->carried_len = n;
	sg_start_unsetenv(name);
}

static void load_builtin(const char *name, const struct sysgate_hook *h)
{
	int slot = sg.nhooks;
	int r = sg_options_hook_args(&opts, name, hook_args[slot],
				     sizeof(hook_args[slot]));
	struct sysgate_ctx *c;

	if (r < 0)
		sg_die("options too long");
	if (!r)
		return;
	c = sg_hooks_new(h, hook_args[slot], 1);
	if (!c)
		sg_die("too many hooks");
	take_carried(c);
	if (sg_hooks_init(c) < 0)
		die2(name, ": ", c->error);
}

static void load_user_hook(const char *spec)
{
	int slot = sg.nhooks;
	char *path = hook_args[slot];
	const struct sysgate_hook *h;
	const char *why;
	struct sysgate_ctx *c;
	char *args;

	sg_strlcpy(path, spec, sizeof(hook_args[slot]));
	args = sg_strchr(path, ':');
	if (args)
		*args++ = 0;
	h = sg_start_user_hook(path, &why);
	if (!h)
		sg_die(why);
	c = sg_hooks_new(h, args, 0);
	if (!c)
		sg_die("too many hooks");
	take_carried(c);
	if (sg_hooks_init(c) < 0)
		die2(path, ": ", c->error);
}

/* The tree's shared state, inherited (without it, the root process makes
 * one when a hook first asks: core/shared.c). */
static void shared_state(const char *state)
{
	long fd = sg_env_fd(state);

	long again;

	if (fd <= 2 || sg_shared_attach(fd) < 0)
		return;
	/* Mapped: the descriptor is needed again only for a followed
	 * execve, which opens it anew where it can (core/exec.c). */
	again = sg_shared_reopen();
	if (again >= 0) {
		sg_sc1(SG_NR_close, again);
		sg_sc1(SG_NR_close, fd);
		sg.state_fd = -1;
		return;
	}
	sg.state_fd = sg_fd_hide(fd);
}

static int is_root_process(void)
{
	const char *r = sg_start_getenv("SYSGATE_ROOT");
	char num[24];

	if (!r)
		return !sg_start_getenv("SYSGATE_STATE");
	return !sg_strcmp(r, sg_utoa(num + sizeof(num), sg.pid));
}

/*
 * The output file as an absolute path, in the options and for children
 * that exec, which re-read them in another working directory (the last
 * -o wins), and for fork children under -ff, which open FILE.<pid> after
 * the program may have changed its own.
 */
static const char *options_for_children(const char *o)
{
	static char buf[SG_OPT_BUF + 4096 + 16], abs[4096 + 8];
	char *argv[2] = { "-o", abs };
	size_t n;

	if (!opts.outfile || opts.outfile[0] == '/' ||
	    sg_sc2(SG_NR_getcwd, (long)abs, 4096) <= 0 || abs[0] != '/')
		return o;
	n = sg_strlen(abs);
	n += sg_strlcpy(abs + n, "/", sizeof(abs) - n);
	if (sg_strlcpy(abs + n, opts.outfile, sizeof(abs) - n) >=
	    sizeof(abs) - n)
		return o;
	opts.outfile = abs;
	n = sg_strlcpy(buf, o ? o : "", sizeof(buf));
	n += sg_strlcpy(buf + n, " ", n < sizeof(buf) ? sizeof(buf) - n : 0);
	if (n >= sizeof(buf) ||
	    sg_options_join(buf + n, sizeof(buf) - n, 2, argv) < 0)
		return o;
	return buf;
}

/*
 * A program -m seccomp's filter reached without being followed (no -f):
 * the filter is there for good, so sysgate stays to pass its calls on,
 * with no hook, no output and none of its variables in the program's
 * environment (they are put back when it execs another program).
 */
static void start_passive(void)
{
	static const char *const vars[] = {
		"SYSGATE_OPTIONS", "SYSGATE_PASSIVE", "SYSGATE_SECCOMP",
		"SYSGATE_STATE", "SYSGATE_ROOT", "SYSGATE_CLI", "SYSGATE_OUT",
	};
	struct sg_thread *t = sg_thread_new(sg.pid);
	unsigned int i;

	if (!t)
		sg_die("cannot allocate thread state");
	t->pid = sg.pid;
	t->hooks_off = 1;
	sg_set_self(t);
	sg.live_threads = 1;
	sg.opts = &opts;
	sg_env_init(sg_start_library(), "-m seccomp", 0);
	for (i = 0; i < ARRAY_SIZE(vars); i++)
		sg_start_unsetenv(vars[i]);
	sg_hooks_core_set();
	sg_hooks_recompute();
	sg.initialised = 1;
	if (sg_mech_start(&opts) < 0)
		sg_die("-m seccomp: cannot start in an unfollowed program");
	sg_signal_unblock_claimed(t);
	sg_mech_release();
}

/* The loader started a program from a close-on-exec descriptor that
 * execve kept open for it (core/exec.c): closed now, as the kernel's
 * execve would have. */
static void close_exec_fd(void)
{
	long fd = sg_env_fd(sg_start_getenv("SYSGATE_EXEC_FD"));

	if (fd > 2)
		sg_sc1(SG_NR_close, fd);
	sg_start_unsetenv("SYSGATE_EXEC_FD");
}

/* The FPU save area's size and features: the process whose execve
 * started this one hands its answer down (SYSGATE_CPU=SIZE:MASK in hex,
 * core/env.c), as CPUID exits to the hypervisor in a VM (most of
 * sg_init's time there) and the probe asks three times.  Taken where the
 * arch finds it plausible. */
static void fpu_probe(void)
{
	const char *v = sg_start_getenv("SYSGATE_CPU"), *p, *q;
	unsigned long c[2];

	if (v) {
		int ok = (p = sg_xparse(v, &c[0])) != v && *p == ':' &&
			 (q = sg_xparse(p + 1, &c[1])) != p + 1 && !*q &&
			 sg_fpu_carried_ok(c[0], c[1]);

		sg_start_unsetenv("SYSGATE_CPU");
		if (ok) {
			sg.fpu_size = c[0];
			sg.fpu_mask = c[1];
			return;
		}
	}
	sg_fpu_probe(&sg.fpu_size, &sg.fpu_mask);
}

/* SYSGATE_SIG=SIGIGN in hex: the ignored signals the execve that started
 * this program read of /proc/self/status, finding no tracer
 * (core/exec.c), which the loader would read again (core/signal.c). */
static void exec_status(void)
{
	const char *v = sg_start_getenv("SYSGATE_SIG"), *end;
	unsigned long ign;

	if (!v)
		return;
	end = sg_xparse(v, &ign);
	if (sg.loader && end != v && !*end) {
		sg.exec_sigign = ign;
		sg.tracer_at_start = 1;
	}
	sg_start_unsetenv("SYSGATE_SIG");
}

/* Called by libsysgate.so's constructor (lib/preload.c), or by the
 * loader (tools/loader) once the program is mapped. */
void sg_init(const struct sg_registry *r)
{
	const struct sg_builtin *b;
	const char *o = sg_start_getenv("SYSGATE_OPTIONS");
	const char *state;
	struct sg_thread *t;
	char num[24];

	if (sg_thread_arch_init(sg_start_auxv(AT_HWCAP2)) < 0) {
		/* Another copy of sysgate (or the program) owns GS. */
		sg_warn("GS is already in use; this copy of sysgate stays "
			"inactive");
		return;
	}
	sg_mech_use(r->mechanisms);
	sg.pid = sg_sc0(SG_NR_getpid);
	sg.out_fd = 2;
	if (sg.loader)
		close_exec_fd();
	sg.seccomp_inherited = sg_start_getenv("SYSGATE_SECCOMP") != 0;
	sg.passive = sg_start_getenv("SYSGATE_PASSIVE") != 0;
	if (sg_options_parse_string(&opts, o ? o : ""))
		sg_die(opts.error);
	/* PR_SET_MDWE (systemd's MemoryDenyWriteExecute=) forbids writing
	 * code or making memory executable, which every in-process
	 * mechanism but preload needs: say so and stay out of the way
	 * rather than leave code unexecutable behind. */
	if (sg_strcmp(opts.mechanism, "preload") &&
	    sg_sc5(SG_NR_prctl, SG_PR_GET_MDWE, 0, 0, 0, 0) > 0) {
		sg_warn("memory-deny-write-execute (PR_SET_MDWE) is set: this "
			"program runs unhooked (-m preload or -m ptrace work)");
		return;
	}
	/* A filter that came through execve lets only the loader's text
	 * reach the kernel, whatever these options (a nested sysgate's)
	 * ask for. */
	if (sg.seccomp_inherited)
		opts.mechanism = "seccomp";
	if (sg.passive) {
		start_passive();
		return;
	}
	sg.opts = &opts;
	/* --fs serves the whole tree: every child keeps the hook. */
	sg.follow = opts.follow != 0 || opts.fs;
	sg.stats = opts.stats;
	sg.is_root = is_root_process();
	if (sg.is_root && !sg_start_getenv("SYSGATE_ROOT"))
		sg_start_setenv("SYSGATE_ROOT", sg_utoa(num + sizeof(num), sg.pid));
	state = sg_start_getenv("SYSGATE_STATE");
	sg.cli = sg_start_getenv("SYSGATE_CLI") != 0;

	t = sg_thread_new(sg.pid);
	if (!t)
		sg_die("cannot allocate thread state");
	t->pid = sg.pid;
	sg_set_self(t);
	sg.live_threads = 1;
	sg_start_thread(t);
	fpu_probe();
	exec_status();
	{
		/* one descriptor of the maps for the kernel's answers */
		long maps = sg_maps_open();

		sg_vdso_init(sg_start_auxv(AT_SYSINFO_EHDR), maps);
		sg_stack_init(maps);
		if (maps >= 0)
			sg_sc1(SG_NR_close, maps);
	}
	if (sg_output_init(&opts, sg_start_getenv("SYSGATE_OUT")) < 0)
		die2("cannot open output file ", opts.outfile, "");
	shared_state(state);
	{
		const char *start[3] = { o, sg_start_getenv("SYSGATE_STATE"),
					 sg_start_getenv("SYSGATE_ROOT") };

		sg_env_init(sg_start_library(), options_for_children(o), start);
	}

	for (b = r->builtins; b->name; b++)
		load_builtin(b->name, b->hook);
	if (opts.nhooks && sg.loader)
		sg_die("--hook needs the program to be started with LD_PRELOAD "
		       "(not available in loader mode)");
	for (int i = 0; i < opts.nhooks; i++)
		load_user_hook(opts.hooks[i]);
	sg_hooks_core_set();
	sg_hooks_recompute();
	sg.initialised = 1;
	if (sg.nhooks || sg.exe_path)	/* (trapped sites need SIGTRAP) */
		sg_signal_init();
	if (sg_mech_start(&opts) < 0)
		sg_warn("no mechanism could start: system calls run unhooked");
	/* (-m preload lets a program's raw rt_sigprocmask block them) */
	if (sg_strcmp(opts.mechanism, "preload"))
		sg_mem_claim_faults();
	sg_signal_unblock_claimed(t);
	if (opts.stats)
		sg_mech_stats();
	sg_tracer_outside();
	sg_mech_release();
}
