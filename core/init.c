/* SPDX-License-Identifier: MIT */
/*
 * Start-up, in libsysgate's constructor: options from SYSGATE_OPTIONS,
 * the first thread's state, output, shared state, the hook chain (built-in
 * hooks first, then --hook libraries in order), then the mechanism that
 * routes system calls here.  This is the only code that calls libc
 * (getenv, dlopen): it runs before the program's main().
 *
 * Bad options stop the program here with a one-line message, before it
 * starts; a mechanism that cannot hook something reports it (--stats) and
 * falls back, it never stops the program.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <link.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "sg.h"
#include "options.h"
#include "env.h"
#include "mech.h"
#include "fpu_arch.h"

static struct sg_options opts;
static char hook_args[SG_MAX_HOOKS][2048];

static void die2(const char *a, const char *b, const char *c)
{
	char msg[400];
	size_t n = sg_strlcpy(msg, a, sizeof(msg));

	n += sg_strlcpy(msg + n, b, n < sizeof(msg) ? sizeof(msg) - n : 0);
	if (n < sizeof(msg))
		sg_strlcpy(msg + n, c, sizeof(msg) - n);
	sg_die(msg);
}

/* SYSGATE_CARRY_<hook> from the previous program, decoded into memory
 * of sysgate's own (the loader gives the variable's place to the
 * program's strings). */
static void take_carried(struct sysgate_ctx *c)
{
	char name[64];
	char *v, *d;
	unsigned long n, i;

	sg_strlcpy(name, "SYSGATE_CARRY_", sizeof(name));
	sg_strlcpy(name + 14, c->env_name, sizeof(name) - 14);
	v = getenv(name);
	if (!v)
		return;
	n = sg_strlen(v) / 2;
	d = n ? sg_mmap(n) : v;
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
	unsetenv(name);
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
	const struct sysgate_hook **sym;
	struct sysgate_ctx *c;
	char *args;
	void *dl;

	sg_strlcpy(path, spec, sizeof(hook_args[slot]));
	args = sg_strchr(path, ':');
	if (args)
		*args++ = 0;
	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		die2("cannot load hook: ", dlerror(), "");
	sym = dlsym(dl, "sysgate_hook_v1");
	if (!sym || !*sym)
		die2("hook ", path, " does not export sysgate_hook_v1 "
				    "(SYSGATE_HOOK_DEFINE)");
	c = sg_hooks_new(*sym, args, 0);
	if (!c)
		sg_die("too many hooks");
	take_carried(c);
	if (sg_hooks_init(c) < 0)
		die2(path, ": ", c->error);
}

/* What a followed execve preloads: this library, or in loader mode the
 * libsysgate.so installed beside the loader. */
static const char *self_path(void)
{
	static char path[4096];
	Dl_info info;

	if (sg.loader && sg.loader_file) {
		sg_strlcpy(path, sg.loader_file, sizeof(path) - 32);
		if (strrchr(path, '/')) {
			sg_strlcpy(strrchr(path, '/') + 1, "libsysgate.so", 32);
			return path;
		}
	}
	if (dladdr((void *)self_path, &info) && info.dli_fname)
		return info.dli_fname;
	return "libsysgate.so";
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
	const char *r = getenv("SYSGATE_ROOT");
	char num[24];

	if (!r)
		return !getenv("SYSGATE_STATE");
	return !sg_strcmp(r, sg_utoa(num + sizeof(num), sg.pid));
}

/*
 * Children that exec re-read the options in another working directory:
 * hand them the output file as an absolute path (the last -o wins).
 */
static const char *options_for_children(const char *o)
{
	static char buf[SG_OPT_BUF + 4096 + 16];
	char abs[4096 + 8], cwd[4096];
	char *argv[2] = { "-o", abs };
	size_t n;

	if (!opts.outfile || opts.outfile[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return o;
	if ((size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, opts.outfile) >=
	    sizeof(abs))
		return o;
	n = snprintf(buf, sizeof(buf), "%s ", o ? o : "");
	if (n >= sizeof(buf) ||
	    sg_options_join(buf + n, sizeof(buf) - n, 2, argv) < 0)
		return o;
	return buf;
}

/*
 * A fork sysgate did not see (libc's fork under -m preload, a raw fork
 * from unpatched code) leaves the child with its parent's pid in the
 * thread state, and memory reads would go to the parent: libc's fork at
 * least tells us.
 */
static void forked_unseen(void)
{
	struct sg_thread *t = sg_self();
	int pid = sg_sc0(SG_NR_getpid);

	sg.pid = pid;
	if (t && t->pid != pid) {
		t->pid = pid;
		t->tid = pid;
	}
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
	sg_env_init(self_path(), "-m seccomp", 0);
	for (i = 0; i < ARRAY_SIZE(vars); i++)
		unsetenv(vars[i]);
	sg_hooks_core_set();
	sg_hooks_recompute();
	sg.initialised = 1;
	if (sg_mech_start(&opts) < 0)
		sg_die("-m seccomp: cannot start in an unfollowed program");
	sg_mech_release();
}

/*
 * Loader mode: where sysgate's own TLS image is, so that its hooks'
 * thread-local variables get a block of sysgate's per thread (the
 * program's libc owns the thread pointer).  The first thread keeps the
 * block the loader's libc set up.
 */
static int find_tls(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_TLS || !ph->p_memsz)
			continue;
		sg.tls.init = (const void *)(info->dlpi_addr + ph->p_vaddr);
		sg.tls.filesz = ph->p_filesz;
		sg.tls.memsz = ph->p_memsz;
		sg.tls.align = ph->p_align;
	}
	return 1;	/* the first object is the loader itself */
}

static void loader_tls(struct sg_thread *t)
{
	dl_iterate_phdr(find_tls, 0);
	if (sg.tls.memsz)
		t->hook_tp = (unsigned long)__builtin_thread_pointer();
}

/* The loader started a program from a close-on-exec descriptor that
 * execve kept open for it (core/exec.c): closed now, as the kernel's
 * execve would have. */
static void close_exec_fd(void)
{
	long fd = sg_env_fd(getenv("SYSGATE_EXEC_FD"));

	if (fd > 2)
		sg_sc1(SG_NR_close, fd);
	unsetenv("SYSGATE_EXEC_FD");
}

/* Called by libsysgate.so's constructor (lib/preload.c), or by the
 * loader (tools/loader) once the program is mapped. */
void sg_init(const struct sg_registry *r)
{
	const struct sg_builtin *b;
	const char *o = getenv("SYSGATE_OPTIONS");
	const char *state;
	struct sg_thread *t;
	char num[24];

	if (sg_thread_arch_init(getauxval(AT_HWCAP2)) < 0) {
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
	sg.seccomp_inherited = getenv("SYSGATE_SECCOMP") != 0;
	sg.passive = getenv("SYSGATE_PASSIVE") != 0;
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
	if (sg.is_root && !getenv("SYSGATE_ROOT"))
		setenv("SYSGATE_ROOT", sg_utoa(num + sizeof(num), sg.pid), 1);
	state = getenv("SYSGATE_STATE");
	sg.cli = getenv("SYSGATE_CLI") != 0;

	t = sg_thread_new(sg.pid);
	if (!t)
		sg_die("cannot allocate thread state");
	t->pid = sg.pid;
	sg_set_self(t);
	sg.live_threads = 1;
	if (!sg.loader)
		pthread_atfork(0, 0, forked_unseen);
	else
		loader_tls(t);
	sg_fpu_probe(&sg.fpu_size, &sg.fpu_mask);
	sg_vdso_init(getauxval(AT_SYSINFO_EHDR));
	if (sg_output_init(&opts, getenv("SYSGATE_OUT")) < 0)
		die2("cannot open output file ", opts.outfile, "");
	shared_state(state);
	{
		const char *start[3] = { o, getenv("SYSGATE_STATE"),
					 getenv("SYSGATE_ROOT") };

		sg_env_init(self_path(), options_for_children(o), start);
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
	if (opts.stats)
		sg_mech_stats();
	sg_tracer_outside();
	sg_mech_release();
}
