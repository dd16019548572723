/* SPDX-License-Identifier: MIT */
/*
 * The hook chain: registration, selection bitmaps and the selection part of
 * the public API.  Linked into the CLI too, which runs every hook's init()
 * once before starting the program so that bad arguments stop it early.
 */
#include "sg.h"
#include "options.h"
#include "fpu_arch.h"

struct sg_global sg;

static struct sysgate_ctx ctx_store[SG_MAX_HOOKS];

/* The calls the core itself must see, whatever the hooks select. */
void sg_hooks_core_set(void)
{
	static const long core[] = {
		SG_NR_clone, SG_NR_clone3, SG_NR_fork, SG_NR_vfork,
		SG_NR_execve, SG_NR_execveat, SG_NR_exit, SG_NR_exit_group,
		SG_NR_rt_sigaction, SG_NR_rt_sigreturn, SG_NR_close,
		SG_NR_close_range, SG_NR_dup2, SG_NR_dup3, SG_NR_arch_prctl,
		SG_NR_rt_sigprocmask, SG_NR_mmap, SG_NR_mprotect,
		SG_NR_pkey_mprotect, SG_NR_munmap, SG_NR_mremap,
		SG_NR_madvise, SG_NR_prlimit64, SG_NR_setrlimit,
		SG_NR_sigaltstack, SG_NR_rt_sigsuspend,
		SG_NR_ppoll, SG_NR_pselect6, SG_NR_epoll_pwait,
		SG_NR_epoll_pwait2, SG_NR_signalfd, SG_NR_signalfd4,
		SG_NR_rt_sigtimedwait, SG_NR_ptrace, SG_NR_wait4,
		SG_NR_waitid, SG_NR_seccomp, SG_NR_prctl, SG_NR_membarrier,
		/* (they may take away the state's reopening: core/shared.c) */
		SG_NR_setuid, SG_NR_setreuid, SG_NR_setresuid, SG_NR_setfsuid,
		SG_NR_capset, SG_NR_unshare, SG_NR_setns,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(core); i++)
		if (core[i] >= 0)
			sg_set_bit(sg.core, core[i]);
	sg_fd_core_set();
	/* The loader answers for /proc/self/exe (core/exec.c). */
	if (sg.exe_path) {
		if (SG_NR_readlink >= 0)
			sg_set_bit(sg.core, SG_NR_readlink);
		sg_set_bit(sg.core, SG_NR_readlinkat);
	}
}

static void set_env_name(struct sysgate_ctx *c, const char *name)
{
	unsigned int i;

	for (i = 0; name && name[i] && i < sizeof(c->env_name) - 1; i++) {
		char ch = name[i];

		c->env_name[i] = ((ch >= 'a' && ch <= 'z') ||
				  (ch >= 'A' && ch <= 'Z') ||
				  (ch >= '0' && ch <= '9')) ? ch : '_';
	}
	c->env_name[i] = 0;
}

struct sysgate_ctx *sg_hooks_new(const struct sysgate_hook *h,
				 const char *args, int builtin)
{
	struct sysgate_ctx *c;

	if (sg.nhooks >= SG_MAX_HOOKS)
		return 0;
	c = &ctx_store[sg.nhooks];
	memset(c, 0, sizeof(*c));
	c->hook = h;
	c->args = args ? args : "";
	c->builtin = builtin;
	set_env_name(c, h->name);
	return c;
}

/* Run init and append to the chain; -errno with ctx->error on failure. */
int sg_hooks_init(struct sysgate_ctx *c)
{
	int r = 0;

	if (c->hook->abi != SYSGATE_HOOK_ABI) {
		sysgate_error(c, "hook ABI version mismatch");
		return -22;
	}
	if (c->hook->init)
		r = c->hook->init(c, c->args);
	if (r < 0) {
		if (!c->error[0])
			sysgate_error(c, "init failed");
		return r;
	}
	sg.hooks[sg.nhooks++] = c;
	if (c->hook->flags & SYSGATE_HOOK_OBSERVES)
		sg.observers = 1;
	if (!(c->hook->flags & SYSGATE_HOOK_NOFPU))
		sg.need_fpu = 1;
	/* A hook without the promise whose call callbacks (and all they
	 * call) are shown to leave vector, x87 and MXCSR state alone is
	 * run as one with it (its other callbacks keep the save). */
	c->nofpu = (c->hook->flags & SYSGATE_HOOK_NOFPU) ||
		   ((c->hook->enter || c->hook->exit) &&
		    (!c->hook->enter ||
		     sg_fpu_free_code((const void *)c->hook->enter)) &&
		    (!c->hook->exit ||
		     sg_fpu_free_code((const void *)c->hook->exit)));
	return 0;
}

/* sg_fast[nr] (core/entry.h): an entry stub runs the call's callbacks
 * itself where x, the one hook that selects it, allows (the conditions of dispatch.c's lean_ok that do not change
 * while the process runs).  Written only where it changes: the table's
 * pages stay untouched in most processes. */
static unsigned long fast_on[SG_SEL_WORDS];	/* sg_fast[nr] not zeros */

static void fast_set(long nr, const struct sysgate_ctx *x, unsigned long fpu)
{
	const struct sysgate_hook *h = x ? x->hook : 0;
	void *fn = 0, *data = 0, *ex = 0;

	if (h && h->enter && !sg_bit(sg.timed_sel, nr) &&
	    !sg_bit(sg.ticked_sel, nr) &&
	    !(sg.tls.memsz && sg_bit(sg.tls_sel, nr))) {
		fn = (void *)h->enter;
		data = x->data;
		ex = (void *)h->exit;
	}
	if (!fn)
		fpu = 0;
	/* (not even read where it stays zeros: a read of each of the
	 * table's 8 pages was a fault at every start) */
	if (!fn && !sg_bit(fast_on, nr))
		return;
	if (fn)
		sg_set_bit(fast_on, nr);
	else
		sg_clear_bit(fast_on, nr);
	if (sg_fast[nr].enter == fn && sg_fast[nr].data == data &&
	    sg_fast[nr].exit == ex && sg_fast[nr].fpu == fpu)
		return;
	/* (enter last when set, first when cleared: a thread that reads
	 * them meanwhile never pairs an enter() with another's data) */
	__atomic_store_n(&sg_fast[nr].enter, 0, __ATOMIC_RELEASE);
	sg_fast[nr].data = data;
	sg_fast[nr].exit = ex;
	sg_fast[nr].fpu = fpu;
	__atomic_store_n(&sg_fast[nr].enter, fn, __ATOMIC_RELEASE);
}

/* Calls one hook alone selects and the core leaves alone:
 * core/dispatch.c's lean path. */
static void lean_recompute(void)
{
	long nr;
	int i;

	for (nr = 0; nr < SYSGATE_NR_MAX; nr++) {
		int n = 0, one = 0;

		for (i = 0; i < sg.nhooks; i++)
			if (sg_bit(sg.hooks[i]->sel, nr)) {
				n++;
				one = i;
			}
		sg.lean_hook[nr] = one;
		sg_clear_bit(sg.lean_sel, nr);
		sg_clear_bit(sg.lean_fpu_sel, nr);
		if (n == 1 && !sg_bit(sg.core, nr))
			sg_set_bit(sg.hooks[one]->nofpu ? sg.lean_sel :
							   sg.lean_fpu_sel, nr);
		fast_set(nr, sg_bit(sg.lean_sel, nr) ||
			     sg_bit(sg.lean_fpu_sel, nr) ? sg.hooks[one] : 0,
			 sg_bit(sg.lean_fpu_sel, nr));
	}
}

void sg_hooks_recompute(void)
{
	unsigned int w;
	int i, any = 0;

	for (w = 0; w < SG_SEL_WORDS; w++) {
		unsigned long m = 0, fpu = 0, tls = 0, timed = 0, ex = 0;
		unsigned long ticked = 0;

		for (i = 0; i < sg.nhooks; i++) {
			unsigned int fl = sg.hooks[i]->hook->flags;

			m |= sg.hooks[i]->sel[w];
			if (!sg.hooks[i]->nofpu)
				fpu |= sg.hooks[i]->sel[w];
			if (!(fl & SYSGATE_HOOK_NOTLS) &&
			    !sg.hooks[i]->program_tls)
				tls |= sg.hooks[i]->sel[w];
			if (fl & SYSGATE_HOOK_TIMED)
				timed |= sg.hooks[i]->sel[w];
			/* no usable counter: the clock instead */
			if ((fl & SYSGATE_HOOK_TICKED) && sg.hooks[i]->sel[w]) {
				if (sg_ticks_usable())
					ticked |= sg.hooks[i]->sel[w];
				else
					timed |= sg.hooks[i]->sel[w];
			}
			if (sg.hooks[i]->hook->exit)
				ex |= sg.hooks[i]->sel[w];
		}
		sg.any[w] = m;
		sg.fpu_sel[w] = fpu;
		sg.tls_sel[w] = tls;
		sg.timed_sel[w] = timed;
		sg.ticked_sel[w] = ticked;
		sg.exit_sel[w] = ex;
		any |= m != 0;
	}
	lean_recompute();
	/* -m seccomp and the loader need the core's calls even with nothing
	 * to hook: every execve followed through the loader, /proc/self/exe
	 * answered where the kernel still names the loader (in every
	 * library, so new mappings are followed too).  So does
	 * --patch-all: a patched rt_sigreturn, clone or vfork must run at the
	 * program's own stack pointer, which only the core's path does (the
	 * stub's plain path returned from a handler into garbage), and
	 * wrapped handlers need sysgate's restorer. */
	if (sg.opts && sg.opts->patch_all)
		any = 1;
	for (w = 0; w < SG_SEL_WORDS; w++)
		sg.wanted[w] = any || sg.seccomp_on ||
			       (sg.exe_path && (!sg.exe_set || sg.follow)) ?
			       sg.any[w] | sg.core[w] : 0;
}

static long exec_cb(void *p)
{
	const char *path = p;
	int i;

	for (i = 0; i < sg.nhooks; i++)
		if (sg.hooks[i]->hook->exec)
			sg.hooks[i]->hook->exec(path, sg.hooks[i]->data);
	return 0;
}

void sg_hooks_exec(struct sg_thread *t, const char *path)
{
	sg_run_hooks(t, exec_cb, (void *)path);
}

int sysgate_select(struct sysgate_ctx *ctx, long nr)
{
	if (nr < 0 || nr >= SYSGATE_NR_MAX)
		return -22;
	sg_set_bit(ctx->sel, nr);
	return 0;
}

int sysgate_select_name(struct sysgate_ctx *ctx, const char *name)
{
	long nr = sg_syscall_lookup(name);

	return nr < 0 ? -22 : sysgate_select(ctx, nr);
}

int sysgate_select_all(struct sysgate_ctx *ctx)
{
	unsigned int w;

	for (w = 0; w < SG_SEL_WORDS; w++)
		ctx->sel[w] = ~0UL;
	return 0;
}

int sysgate_select_class(struct sysgate_ctx *ctx, unsigned int classes)
{
	long nr;

	for (nr = 0; nr < SG_NSYSCALLS && nr < SYSGATE_NR_MAX; nr++)
		if (sg_syscall_table[nr].name &&
		    (sg_syscall_table[nr].classes & classes))
			sg_set_bit(ctx->sel, nr);
	return 0;
}

void sysgate_set_data(struct sysgate_ctx *ctx, void *data)
{
	ctx->data = data;
}

int sysgate_init_only_checks(const struct sysgate_ctx *ctx)
{
	return ctx->only_checks;
}

void sysgate_hook_threads(void)
{
	sg_hook_thread_seen();
}

int sysgate_error(struct sysgate_ctx *ctx, const char *msg)
{
	sg_strlcpy(ctx->error, msg, sizeof(ctx->error));
	return -22;
}
