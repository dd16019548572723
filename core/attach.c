/* SPDX-License-Identifier: MIT */
/*
 * sysgate -p PID, inside the process: the CLI (tools/sysgate/attach.c)
 * maps the runtime image (build/sysgate-attach) into a running process,
 * stops every thread, and makes one of them call sg_attach_main with a
 * struct sg_attach_args.
 *
 * START does what init.c does at a program's start, without libc (the
 * process may have none, or its own) and without dying: options, this
 * thread's state (the others get theirs on their first call into
 * sysgate), output to a pipe the CLI reads, the -c state, the built-in
 * hooks, then the patch mechanism.  No rewritten range may hold a busy
 * address strictly inside (a stopped thread's pc, the call a thread is
 * stopped in, a return address): such a site is left as it is.  Every
 * byte written to the program's code is journalled.
 *
 * DETACH puts the journalled bytes back, newest first, each only if it
 * still holds what sysgate wrote (verified after), stops every hook,
 * gives the kernel the program's own signal actions again, and closes
 * sysgate's descriptors.  The CLI then disarms syscall user dispatch and
 * clears GS in each thread, and unmaps the image when no thread is in it.
 */
#include "sg.h"
#include "options.h"
#include "mech.h"
#include "fpu_arch.h"
#include "attach.h"

#define O_WRONLY_ 01
#define O_CLOEXEC_ 02000000
#define AT_FDCWD_ -100

struct journal_entry {
	unsigned long addr;
	unsigned long len;
	unsigned char old[SG_CODE_WRITE_MAX];
	unsigned char now[SG_CODE_WRITE_MAX];
};

static struct sg_options opts;
static char hook_args[SG_MAX_HOOKS][2048];
static const struct sg_attach_args *busy_from;	/* during START only */
static int attached, detached;
static struct journal_entry *journal;
static unsigned long njournal, journal_cap, journal_lost;
long sg_attach_tz_offset;

int sg_attach_busy(unsigned long lo, unsigned long hi)
{
	const struct sg_attach_args *a = busy_from;
	int i;

	for (i = 0; a && i < a->nbusy; i++)
		if (a->busy[i] > lo && a->busy[i] < hi)
			return 1;
	return 0;
}

int sg_attach_starting(void)
{
	return busy_from != 0;
}

int sg_attach_active(void)
{
	return attached;
}

int sg_attach_detached(void)
{
	return __atomic_load_n(&detached, __ATOMIC_ACQUIRE);
}

/*
 * Called before sysgate writes len bytes at addr: noted after -p; -1
 * once detached, when the write must not happen (a thread stopped in the
 * middle of patching finishes its work after the code was put back).
 */
int sg_attach_note(unsigned long addr, const void *bytes, unsigned long len)
{
	struct journal_entry *e;

	if (__atomic_load_n(&detached, __ATOMIC_ACQUIRE))
		return -1;
	/* (longer writes are stubs, in sysgate's own memory) */
	if (!attached || len > SG_CODE_WRITE_MAX)
		return 0;
	if (njournal == journal_cap) {
		unsigned long cap = journal_cap ? journal_cap * 2 : 1024;
		struct journal_entry *n = sg_mmap(cap * sizeof(*n));

		if (!n) {
			journal_lost++;
			return 0;
		}
		if (journal) {
			memcpy(n, journal, njournal * sizeof(*n));
			sg_munmap(journal, journal_cap * sizeof(*n));
		}
		journal = n;
		journal_cap = cap;
	}
	if (sg_read_safe(journal[njournal].old, (const void *)addr, len) < 0) {
		journal_lost++;
		return 0;
	}
	e = &journal[njournal++];
	e->addr = addr;
	e->len = len;
	memcpy(e->now, bytes, len);
	return 0;
}

static long fail(struct sg_attach_args *a, const char *why, long err)
{
	sg_strlcpy(a->error, why, sizeof(a->error));
	a->result = err;
	return err;
}

static long start_output(struct sg_attach_args *a)
{
	int p[2];
	char num[24], name[32];
	long r = sg_sc2(SG_NR_pipe2, (long)p, O_CLOEXEC_);

	if (r < 0)
		return r;
	/* (fd:N, as a followed execve hands the output down) */
	sg_strlcpy(name, "fd:", sizeof(name));
	sg_strlcpy(name + 3, sg_utoa(num + sizeof(num), p[1]),
		   sizeof(name) - 3);
	r = sg_output_init(&opts, name);
	if (r < 0 || sg.out_fd == p[1]) {
		sg_sc1(SG_NR_close, p[0]);
		sg_sc1(SG_NR_close, p[1]);
		return r < 0 ? r : -9;
	}
	a->out_read_fd = p[0];
	return 0;
}

/* The built-in hooks the options ask for (not --fs: refused with -p). */
static long start_hooks(struct sg_attach_args *a, const struct sg_registry *reg)
{
	const struct sg_builtin *b;

	for (b = reg->builtins; b->name; b++) {
		int slot = sg.nhooks;
		int r = !sg_strcmp(b->name, "fs") ? 0 :
			sg_options_hook_args(&opts, b->name, hook_args[slot],
					     sizeof(hook_args[slot]));
		struct sysgate_ctx *c;

		if (r < 0)
			return fail(a, "options too long", -22);
		if (!r)
			continue;
		c = sg_hooks_new(b->hook, hook_args[slot], 1);
		if (!c)
			return fail(a, "too many hooks", -22);
		if (sg_hooks_init(c) < 0)
			return fail(a, c->error, -22);
	}
	return 0;
}

/* The --hook libraries the CLI linked into the process (attach.h). */
struct user_hook {
	struct sysgate_ctx *ctx;
	unsigned long fini, fini_array, fini_count;
};
static struct user_hook users[SG_ATTACH_HOOKS_MAX];
static int nusers;

typedef void (*init_fn)(int argc, char **argv, char **envp);

/* Destructors in the order ld.so runs them: they also unregister what
 * the library gave atexit (__cxa_finalize), so its pages can go. */
static void run_fini(const struct user_hook *u)
{
	unsigned long k = u->fini_count;

	while (k-- > 0)
		((void (*)(void))((unsigned long *)u->fini_array)[k])();
	if (u->fini)
		((void (*)(void))u->fini)();
}

/* Bind its indirect functions, run its constructors (argv and envp are
 * empty: the program's are not at hand), then the hook's init. */
static long start_user_hook(struct sg_attach_args *a,
			    const struct sg_attach_hook *h)
{
	static char *none[1];
	struct user_hook *u = &users[nusers];
	int slot = sg.nhooks, k;
	const struct sysgate_hook *table;

	for (k = 0; k < h->nifunc; k++)
		*(unsigned long *)h->ifunc[k].slot =
			((unsigned long (*)(void))h->ifunc[k].resolver)() +
			h->ifunc[k].addend;
	if (h->init)
		((init_fn)h->init)(0, none, none);
	for (k = 0; k < (int)h->init_count; k++)
		((init_fn)((unsigned long *)h->init_array)[k])(0, none, none);
	u->fini = h->fini;
	u->fini_array = h->fini_array;
	u->fini_count = h->fini_count;
	nusers++;
	table = *(const struct sysgate_hook *const *)h->table;
	sg_strlcpy(hook_args[slot], h->args, sizeof(hook_args[slot]));
	if (!table)
		return fail(a, "the hook's sysgate_hook_v1 is NULL", -22);
	u->ctx = sg_hooks_new(table, hook_args[slot], 0);
	if (!u->ctx)
		return fail(a, "too many hooks", -22);
	u->ctx->program_tls = 1;
	if (sg_hooks_init(u->ctx) < 0)
		return fail(a, u->ctx->error, -22);
	return 0;
}

static long start_user_hooks(struct sg_attach_args *a)
{
	int i;

	for (i = 0; i < a->nhooks && i < SG_ATTACH_HOOKS_MAX; i++)
		if (start_user_hook(a, &a->hooks[i]) < 0) {
			/* the CLI unmaps them: nothing of theirs may stay
			 * registered in the program */
			while (nusers > 0)
				run_fini(&users[--nusers]);
			return a->result;
		}
	return 0;
}

/* Detaching: each hook's fini, then its library's destructors. */
static void stop_user_hooks(void)
{
	while (nusers > 0) {
		struct user_hook *u = &users[--nusers];

		if (u->ctx && u->ctx->hook->fini)
			u->ctx->hook->fini(u->ctx->data);
		run_fini(u);
	}
}

static void drop_fd(long fd, int quiet);

/*
 * The CLI reading the output pipe is gone (killed): the next trace line
 * would kill the program with SIGPIPE.  A SIGPIPE that comes while that
 * pipe has no reader is taken as ours: the output goes to /dev/null from
 * then on and the program never sees it.  Any other is the program's.
 */
static int on_sigpipe(int sig, struct sg_siginfo *info, void *uc)
{
	struct { int fd; short events, revents; } p = { sg.out_fd, 4, 0 };
	unsigned long zero[2] = { 0, 0 };

	(void)sig;
	(void)info;
	(void)uc;
	if (sg.out_fd < 0 ||
	    sg_sc5(SG_NR_ppoll, (long)&p, 1, (long)zero, 0, 8) != 1 ||
	    !(p.revents & 8 /* POLLERR: no reader */))
		return 0;
	drop_fd(sg.out_fd, 0);
	return 1;
}

static long attach_start(struct sg_attach_args *a,
			 const struct sg_registry *reg)
{
	struct sg_thread *t;
	long r;

	a->out_read_fd = a->state_fd = -1;
	if (attached || sg.initialised)
		return fail(a, "sysgate is already in this process", -16);
	if (sg_thread_arch_init(a->hwcap2) < 0)
		return fail(a, "GS is in use in this process", -16);
	if (sg_sc5(SG_NR_prctl, SG_PR_GET_MDWE, 0, 0, 0, 0) > 0)
		return fail(a, "memory-deny-write-execute (PR_SET_MDWE) is set "
			       "in this process: -m ptrace works", -1);
	if (sg_options_parse_string(&opts, a->options))
		return fail(a, opts.error, -22);
	sg_mech_use(reg->mechanisms);
	sg.pid = sg_sc0(SG_NR_getpid);
	sg.out_fd = 2;
	sg.opts = &opts;
	sg.stats = opts.stats;
	/* -f: a child forked while attached keeps the runtime, hooked
	 * (the CLI finds it by the output pipe it holds, to detach it) */
	sg.follow = opts.follow != 0;
	sg.is_root = 1;
	sg.cli = 1;
	sg_attach_tz_offset = a->tz_offset;
	sg.tls.init = (const void *)a->tls_init;
	sg.tls.filesz = a->tls_filesz;
	sg.tls.memsz = a->tls_memsz;
	sg.tls.align = a->tls_align;
	t = sg_thread_new(sg.pid);
	if (!t)
		return fail(a, "cannot allocate thread state", -12);
	t->tid = sg_sc0(SG_NR_gettid);
	t->pid = sg.pid;
	sg_set_self(t);
	sg.live_threads = 1;
	sg_fpu_probe(&sg.fpu_size, &sg.fpu_mask);
	sg_vdso_init(a->vdso, -1);
	r = start_output(a);
	if (r < 0)
		return fail(a, "cannot make the output pipe", r);
	if (opts.count || opts.hot) {
		r = sg_shared_create();
		if (r < 0)
			return fail(a, "cannot create the shared state", r);
		sg.state_fd = sg_fd_hide(r);
		a->state_fd = sg.state_fd;
	}
	r = start_hooks(a, reg);
	if (r < 0)
		return r;
	r = start_user_hooks(a);
	if (r < 0)
		return r;
	sg_hooks_core_set();
	sg_hooks_recompute();
	sg.initialised = 1;
	attached = 1;
	sg_signal_init();
	sg_signal_claim(13 /* SIGPIPE */, on_sigpipe);
	busy_from = a;
	r = sg_mech_start(&opts);
	busy_from = 0;
	if (r < 0)
		sg_warn("no mechanism could start: system calls run unhooked");
	if (opts.stats)
		sg_mech_stats();
	sg_mech_release();
	a->sud_used = sg.sud_ons > 0;
	return 0;
}

static void put_back(struct sg_attach_args *a)
{
	unsigned long i;

	for (i = njournal; i-- > 0;) {
		struct journal_entry *e = &journal[i];
		unsigned char cur[SG_CODE_WRITE_MAX];

		if (sg_read_safe(cur, (const void *)e->addr, e->len) < 0 ||
		    memcmp(cur, e->now, e->len) ||
		    sg_poke_code(e->addr, e->old, e->len) < 0 ||
		    sg_read_safe(cur, (const void *)e->addr, e->len) < 0 ||
		    memcmp(cur, e->old, e->len)) {
			if (!a->changed++)
				a->first_changed = e->addr;
		}
		else
			a->restored++;
	}
	a->changed += journal_lost;
	njournal = 0;
}

/* sysgate's descriptor fd, gone or (while a thread may still write to it)
 * pointing at /dev/null. */
static void drop_fd(long fd, int quiet)
{
	long null;

	if (fd <= 2)
		return;
	if (!quiet) {
		null = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)"/dev/null",
			      O_WRONLY_ | O_CLOEXEC_, 0);
		if (null >= 0) {
			sg_sc3(SG_NR_dup3, null, fd, O_CLOEXEC_);
			sg_sc1(SG_NR_close, null);
		}
		return;
	}
	sg_sc1(SG_NR_close, fd);
}

static long attach_detach(struct sg_attach_args *a)
{
	if (!attached)
		return fail(a, "sysgate is not attached to this process", -22);
	/* Calls in flight finish; later ones meet no hook. */
	sg.nhooks = 0;
	sg_hooks_recompute();
	attached = 0;
	put_back(a);
	__atomic_store_n(&detached, 1, __ATOMIC_RELEASE);
	/* With a thread inside one, the hooks stay as they are (the CLI
	 * leaves their libraries mapped). */
	if (a->quiet)
		stop_user_hooks();
	sg_signal_detach();
	a->sud_used = sg.sud_ons > 0;
	drop_fd(sg.out_fd, a->quiet);
	sg.out_fd = -1;
	drop_fd(sg_output_held_take(), a->quiet);
	drop_fd(sg_fd_mem_take(), a->quiet);
	if (sg.state_fd > 2) {
		drop_fd(sg.state_fd, a->quiet);
		if (a->quiet && sg.shared_base)
			sg_munmap(sg.shared_base, sg.shared_size);
	}
	return 0;
}

long sg_attach_main(struct sg_attach_args *a, const struct sg_registry *reg)
{
	if (a->magic != SG_ATTACH_MAGIC)
		return -22;
	a->result = 0;
	a->error[0] = 0;
	if (a->op == SG_ATTACH_START)
		return attach_start(a, reg);
	if (a->op == SG_ATTACH_DETACH)
		return attach_detach(a);
	return fail(a, "unknown request", -22);
}
