/* SPDX-License-Identifier: MIT */
/*
 * The system call path: every patched site arrives here through the arch
 * entry stub with the program's registers in a struct sg_frame.
 *
 * Rules (hot path): no libc, no locks, no allocation except a thread's
 * first hook stack; the program's red zone is never touched (the frame
 * sits below it).  The order of work is:
 *
 *   1. one bit test: calls no hook selects and the core does not handle
 *      go straight to the kernel;
 *   2. a call made while a hook callback runs (t->depth) goes straight to
 *      the kernel too, except those that must run at the program's own
 *      stack pointer (clone with CLONE_VM, vfork, rt_sigreturn);
 *   3. enter callbacks run on the thread's hook stack with depth set, so
 *      signals are held back and hooks never recurse; SYSGATE_SKIP ends
 *      the chain and only the hooks that ran get exit(), in reverse;
 *   4. the call runs, then exit callbacks: the core's own calls in C
 *      (sg_core_call), the others in the entry stub, which comes back
 *      to sg_syscall_exit() for the exit side (core/entry.h).
 *
 * A call one NOFPU hook alone selects takes syscall_lean: the same steps,
 * less what it cannot need (see there).
 *
 * Calls that must run at the program's stack pointer leave through the
 * stub's raw path ("RAW"): entry.S restores every register and jumps to
 * the stub's own `syscall`, after which sg_after_raw() runs the exit side
 * in the caller and sets up the child.
 */
#include "sg.h"
#include "env.h"
#include "context.h"
#include "fpu_arch.h"
#include "dispatch.h"
#include "mech.h"
#include "entry.h"
#include "signal_arch.h"
#include "clock_arch.h"

struct sg_chain {
	struct sysgate_sys *s;
	long nr;		/* number the hooks were selected on */
	int ran;		/* hooks [0, ran) may have seen enter() */
	int skip;
};

/* A call from a stub, in the space the stub reserved (core/entry.h). */
struct sg_call {
	struct sysgate_sys s;
	struct sg_chain c;
	struct sg_thread *t;	/* for SG_ENTRY_KERNEL_EXIT */
	int lean;		/* entered by syscall_lean: its exit too */
};

_Static_assert(sizeof(struct sg_call) <= SG_CALL_SIZE &&
	       SG_CALL_SIZE % 16 == 0, "call record space");

/* What an entry stub's fast path reads (core/entry.h). */
struct sg_fast sg_fast[SYSGATE_NR_MAX];
#define SG_AT(type, field, off) \
	_Static_assert(__builtin_offsetof(type, field) == (off), \
		       "core/entry.h: " #type "." #field " moved")
_Static_assert(sizeof(struct sg_fast) == 1 << SG_FAST_SHIFT &&
	       SG_NR_MAX == SYSGATE_NR_MAX, "core/entry.h: sg_fast");
SG_AT(struct sg_global, sud_on, SG_G_SUD_ON);
SG_AT(struct sg_global, prog_sud, SG_G_SUD_ON + 4);
SG_AT(struct sg_thread, owner, SG_T_OWNER);
SG_AT(struct sg_thread, depth, SG_T_DEPTH);
SG_AT(struct sg_thread, hook_sp, SG_T_HOOK_SP);
SG_AT(struct sg_thread, tid, SG_T_TID);
SG_AT(struct sg_thread, pid, SG_T_TID + 4);
SG_AT(struct sg_thread, hooks_off, SG_T_HOOKS_OFF);
SG_AT(struct sg_thread, pending, SG_T_PENDING);
SG_AT(struct sg_thread, alt_hi, SG_T_ALT_HI);
SG_AT(struct sg_call, s, 0);
SG_AT(struct sysgate_sys, ret, SG_S_RET);
SG_AT(struct sysgate_sys, pc, SG_S_PC);
SG_AT(struct sysgate_sys, pid, SG_S_PID);
SG_AT(struct sysgate_sys, tid, SG_S_PID + 4);
SG_AT(struct sysgate_sys, flags, SG_S_FLAGS);
SG_AT(struct sysgate_sys, note, SG_S_NOTE);
SG_AT(struct sysgate_sys, enter_ns, SG_S_ENTER_NS);
SG_AT(struct sysgate_sys, enter_ticks, SG_S_ENTER_TICKS);
_Static_assert(SYSGATE_SYS_SKIPPED == 0x4, "arch/x86_64/entry.S: SKIPPED");
_Static_assert(SG_RAW_NEWCHILD == 0x10000, "arch/x86_64/entry.S: NEWCHILD");
_Static_assert(sizeof(struct sysgate_sys) == SG_S_SIZE &&
	       SG_CALL_SCRATCH >= SG_S_SIZE &&
	       SG_CALL_SCRATCH + 40 <= SG_CALL_SIZE, "core/entry.h: record");

/* This thread's state, made now if sysgate had not seen the thread. */
static inline struct sg_thread *self_or_new(void)
{
	struct sg_thread *t = sg_self();

	return likely(t) ? t : sg_thread_current();
}

/* Do exit callbacks wait for this call? */
static inline int chain_exit_wanted(const struct sg_chain *c)
{
	return c->ran && sg_bit(sg.exit_sel, c->nr);
}

static inline void chain_start(struct sg_chain *c, struct sysgate_sys *s,
			       int ran)
{
	c->s = s;
	c->nr = s->nr;
	c->ran = ran;
	c->skip = 0;
}

__attribute__((hot))
static void chain_exit_body(struct sg_chain *c)
{
	int i;

	for (i = c->ran - 1; i >= 0; i--) {
		struct sysgate_ctx *h = sg.hooks[i];

		if (sg_bit(h->sel, c->nr) && h->hook->exit)
			h->hook->exit(c->s, h->data);
	}
}

/*
 * A call that does not return (exit, exit_group, rt_sigreturn) when a
 * hook reports what happened (SYSGATE_HOOK_OBSERVES: the trace): its
 * enter() runs after the other hooks', also when one of them answered
 * the call, so that it does not print "exit_group(42) = ?" and the
 * process's end for a call -e fault= made fail.  Exits, where one
 * answered, in the reverse order of the enters.
 */
static void chain_enter_noreturn(struct sg_chain *c)
{
	unsigned char order[SG_MAX_HOOKS];
	int i, n = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sg.nhooks; i++) {
			struct sysgate_ctx *h = sg.hooks[i];
			int obs = !!(h->hook->flags & SYSGATE_HOOK_OBSERVES);

			if (obs != pass || !sg_bit(h->sel, c->nr) ||
			    (c->skip && !obs))
				continue;
			order[n++] = (unsigned char)i;
			if (c->ran < i + 1)
				c->ran = i + 1;
			if (h->hook->enter &&
			    h->hook->enter(c->s, h->data) == SYSGATE_SKIP &&
			    !c->skip) {
				c->s->flags |= SYSGATE_SYS_SKIPPED;
				c->skip = 1;
			}
		}
	if (!c->skip || !chain_exit_wanted(c))
		return;
	while (n-- > 0) {
		struct sysgate_ctx *h = sg.hooks[order[n]];

		if (h->hook->exit)
			h->hook->exit(c->s, h->data);
	}
}

__attribute__((hot))
static long chain_enter(void *p)
{
	struct sg_chain *c = p;
	int i;

	/* (the record's flag first: it is in cache, and rarely set) */
	if (unlikely(c->s->flags & SYSGATE_SYS_NORETURN) && sg.observers) {
		chain_enter_noreturn(c);
		return 0;
	}
	for (i = 0; i < sg.nhooks; i++) {
		struct sysgate_ctx *h = sg.hooks[i];

		if (!sg_bit(h->sel, c->nr))
			continue;
		c->ran = i + 1;
		if (h->hook->enter &&
		    h->hook->enter(c->s, h->data) == SYSGATE_SKIP) {
			c->s->flags |= SYSGATE_SYS_SKIPPED;
			c->skip = 1;
			/* (an answered call with no exit callback to run is
			 * the common emulate case: no loop over the hooks) */
			if (chain_exit_wanted(c))
				chain_exit_body(c);
			break;
		}
	}
	return 0;
}

__attribute__((hot))
static long chain_exit(void *p)
{
	chain_exit_body(p);
	return 0;
}

/*
 * Run fn on the thread's hook stack with signals held back, saving the
 * FPU state first if fpu says a hook that may touch it will run, and
 * with sysgate's thread pointer if tls says a hook may use TLS (a
 * rdfsbase/wrfsbase pair costs ~14 ns here, twice per callback).  Falls
 * back to the current stack if no hook stack can be mapped.
 */
__attribute__((hot))
static void run_hooks(struct sg_thread *t, int fpu, int tls_wanted,
		      long (*fn)(void *), void *arg)
{
	unsigned long prog_tp = 0, mask;
	int tls = 0, held = 0;

	if (unlikely(!t->hook_sp))
		sg_thread_hook_stack(t);
	if (unlikely(t->alt_hi))
		held = sg_signal_hold_on_altstack(t, &mask);
	__atomic_store_n(&t->depth, 1, __ATOMIC_RELAXED);
	if (unlikely(sg.sud_on))
		sg_sud_window_open(t);
	__asm__ volatile("" ::: "memory");
	if (fpu)
		sg_fpu_save(t->fpu_area, sg.fpu_mask);
	/* Loader mode: the hooks' __thread variables are sysgate's own. */
	if (unlikely(sg.tls.memsz) && tls_wanted &&
	    (t->hook_tp || sg_thread_hook_tls(t) == 0)) {
		prog_tp = sg_arch_swap_tls(t->hook_tp);
		tls = 1;
	}
	if (likely(t->hook_sp))
		sg_on_stack(fn, arg, t->hook_sp);
	else
		fn(arg);
	if (unlikely(tls))
		sg_arch_swap_tls(prog_tp);
	if (fpu)
		sg_fpu_restore(t->fpu_area, sg.fpu_mask);
	__asm__ volatile("" ::: "memory");
	__atomic_store_n(&t->depth, 0, __ATOMIC_RELAXED);
	if (unlikely(t->window || sg.sud_on))
		sg_sud_window_close(t);
	if (unlikely(held))
		sg_signal_release(&mask);
	if (unlikely(t->pending))
		sg_deliver_pending(t);
}

/* Callbacks that are not about one call (signals, threads, exec...). */
__attribute__((hot))
void sg_run_hooks(struct sg_thread *t, long (*fn)(void *), void *arg)
{
	/* Already there (an execve's hooks run from the core's execve,
	 * which runs on sysgate's stack): switching again would start at
	 * the top of the stack, over the frames in use. */
	if (t->depth) {
		fn(arg);
		return;
	}
	run_hooks(t, sg.need_fpu, 1, fn, arg);
}

/* The enter or exit side of call nr. */
__attribute__((hot))
static void run_call_hooks(struct sg_thread *t, long nr, long (*fn)(void *),
			   void *arg)
{
	run_hooks(t, sg_bit(sg.fpu_sel, nr), sg_bit(sg.tls_sel, nr), fn, arg);
}

/* A hook may have changed the number to anything. */
static inline int core_handles(long nr)
{
	return (unsigned long)nr < SYSGATE_NR_MAX && sg_bit(sg.core, nr);
}

static inline int hooks_wanted(const struct sg_thread *t, long nr)
{
	return !t->hooks_off && (unsigned long)nr < SYSGATE_NR_MAX &&
	       sg_bit(sg.any, nr);
}

/*
 * The caller of clone, clone3 or vfork gets its exit callbacks from
 * sg_after_raw_at, after the call ran at the program's stack pointer:
 * the record a stub reserved below that is given back with it (a vfork
 * child runs on that stack), and a signal handler's record too.  Such a
 * call's record is one the thread keeps instead, so that exit() gets the
 * record enter() got, whole, and it stays valid in between: hooks keep
 * in-flight calls by their record (the trace hook's nest of calls a
 * signal may find).  (More than SG_RAW_RECS at once, each in a handler
 * of the one before: the last ones use the record they were given.)
 */
_Static_assert(SG_RAW_RECS - 1 <= SG_RAW_REC_MASK >> SG_RAW_REC_SHIFT,
	       "dispatch.h: SG_RAW_REC_MASK");

static inline struct sysgate_sys *call_record(struct sg_thread *t, long nr,
					      struct sysgate_sys *own)
{
	unsigned int i;

	if (likely(!sg_raw_only(nr)) || nr == SG_NR_rt_sigreturn ||
	    t->raw_rec_busy == (1U << SG_RAW_RECS) - 1 ||
	    !hooks_wanted(t, nr) || t->depth)
		return own;
	i = __builtin_ctz(~t->raw_rec_busy);
	t->raw_rec_busy |= 1U << i;
	return &t->raw_rec[i];
}

/* Which of the thread's records s is, or -1. */
static inline long record_index(const struct sg_thread *t,
				const struct sysgate_sys *s)
{
	unsigned long d = (unsigned long)s - (unsigned long)t->raw_rec;

	return d < sizeof(t->raw_rec) ? (long)(d / sizeof(*s)) : -1;
}

/* s's call is over, or its exit side uses a record of its own. */
static inline void call_record_done(struct sg_thread *t,
				    const struct sysgate_sys *s)
{
	long i = record_index(t, s);

	if (unlikely(i >= 0))
		t->raw_rec_busy &= ~(1U << i);
}

/* sg_raw_info, and which record the exit side is to use. */
static unsigned long raw_info(struct sg_thread *t, struct sysgate_sys *s,
			      int ran, unsigned long *child_sp)
{
	unsigned long info = sg_raw_info(t, s, ran, child_sp);
	long i = record_index(t, s);

	if (info && i >= 0) {
		info |= SG_RAW_THREADREC | (unsigned long)i << SG_RAW_REC_SHIFT;
		if (info & SG_RAW_VFORK)
			t->vfork_info = info;
	}
	/* The info word goes below a clone child's new stack too (entry.S,
	 * without a check).  A stack it cannot go to -- a bad pointer the
	 * kernel refuses the call for (strace's clone3 test), a page the
	 * child would fault on natively -- is not ours to fault on: the
	 * call goes as if the child had none, and only a child can fault. */
	if (info && *child_sp &&
	    sg_write_safe((void *)(*child_sp - SG_RAWINFO_OFF), &info,
			  sizeof(info)) < 0)
		*child_sp = 0;
	return info;
}

/* The record a RAW call's exit side gets in its caller (sg_after_raw_at),
 * which is free again after it. */
static struct sysgate_sys *raw_record(struct sg_thread *t, unsigned long info,
				      struct sysgate_sys *own)
{
	unsigned long i = (info & SG_RAW_REC_MASK) >> SG_RAW_REC_SHIFT;

	if (!t || !sg_raw_info_valid(info) || !(info & SG_RAW_THREADREC))
		return own;
	t->raw_rec_busy &= ~(1U << i);
	return &t->raw_rec[i];
}

/* The program's call, made by the core: a signal that comes meanwhile
 * finds it in the kernel or just back (sysgate_signal_where). */
__attribute__((hot))
static void core_call(struct sg_thread *t, struct sysgate_sys *s)
{
	t->in_call = 1;
	sg_core_call(t, s);
	t->in_call = 0;
}

/*
 * A call made while a hook callback runs (or in a hook's own thread)
 * goes to the kernel as it is, but for what would break sysgate under
 * the program:
 * - a mask: sysgate's signals stay deliverable.  A library a hook calls
 *   (libcephfs) blocks every signal around its work, and its next call
 *   from a site that traps (one not patched yet, where syscall user
 *   dispatch catches it) would have the kernel kill the process: a
 *   trap's signal cannot be blocked;
 * - a signal action: the hook shares the program's actions, as a
 *   library does natively, and sysgate's own handlers stay in place;
 * - a fork (a checkpointing hook, one exploring both outcomes of a
 *   call): the child goes on with the program, so it becomes a process
 *   of its own for sysgate (its ids, syscall user dispatch, output),
 *   as after a fork of the program's.  (A fork with a stack of its own
 *   still goes as it is: sg_raw_info.)
 */
static inline int depth_handles(long nr)
{
	return nr == SG_NR_rt_sigprocmask || nr == SG_NR_rt_sigaction ||
	       nr == SG_NR_fork || nr == SG_NR_clone || nr == SG_NR_clone3;
}

__attribute__((hot))
static long depth_call(struct sg_thread *t, struct sysgate_sys *s)
{
	long *a = s->args;

	switch (s->nr) {
	case SG_NR_rt_sigprocmask:
		return sg_signal_rt_sigprocmask(t, a[0], (const void *)a[1],
						(void *)a[2], a[3]);
	case SG_NR_rt_sigaction:
		return sg_signal_rt_sigaction(a[0], (const void *)a[1],
					      (void *)a[2], a[3]);
	case SG_NR_fork:
	case SG_NR_clone:
	case SG_NR_clone3:
		/* (those with CLONE_VM ran RAW: sg_raw_info) */
		if (sg_raw_call(s) == 0)
			sg_process_forked(t);
		return s->ret;
	}
	return sg_raw_call(s);
}

/* rt_sigreturn has no arguments: hooks get where the frame it restores
 * keeps the signal mask (args[0]) and the interrupted code's result
 * register (args[1]), which is what the call returns. */
static void sigreturn_args(struct sysgate_sys *s, unsigned long sp)
{
	void *uc = sg_arch_sigreturn_uc(sp);

	if (s->nr != SG_NR_rt_sigreturn)
		return;
	s->args[0] = (long)sg_arch_uc_sigmask(uc);
	s->args[1] = (long)sg_arch_uc_result_reg(uc);
}

/* (inlined into the hot path, a call there costs as much as its body;
 * s->args filled by the caller) */
static inline __attribute__((always_inline)) void
sys_init(struct sysgate_sys *s, struct sg_thread *t, long nr,
	 const void *pc, int core)
{
	s->nr = nr;
	s->ret = 0;
	s->ret2 = 0;
	s->pc = pc;
	s->pid = t->pid;
	s->tid = t->tid;
	/* (the calls that do not return are all the core's) */
	s->flags = core && sg_noreturn(nr) ? SYSGATE_SYS_NORETURN : 0;
	s->note = 0;
	s->enter_ns = (unsigned long)nr < SYSGATE_NR_MAX &&
				      sg_bit(sg.timed_sel, nr) ?
			      sysgate_now_ns() : 0;
	/* (set only while this process has a usable counter: hooks.c) */
	s->enter_ticks = (unsigned long)nr < SYSGATE_NR_MAX &&
					 sg_bit(sg.ticked_sel, nr) ?
				 sg_arch_counter() : 0;
}

__attribute__((hot))
void sg_sys_init(struct sysgate_sys *s, struct sg_thread *t, long nr,
		 const long args[6], const void *pc)
{
	int i;

	for (i = 0; i < 6; i++)
		s->args[i] = args[i];
	sys_init(s, t, nr, pc, 1);
}

/*
 * Everything after "some hook or the core wants this call", with the
 * call's record in k.  For SG_ENTRY_RAW the frame holds the jump target
 * (rcx slot), the info word (r11 slot) and a child stack (child_sp).
 */
#define SG_SETTLE_CALLS 4096	/* a power of two */
static unsigned long settle_calls;	/* (counted only while one thread
					   runs) */

/*
 * After the enter callbacks, or where none ran: the call as the chain
 * left it.
 */
static __attribute__((hot, noinline)) int
syscall_rest(struct sg_frame *f, const struct sg_site_desc *d,
	     struct sg_call *k, struct sg_thread *t)
{
	struct sg_chain *c = &k->c;
	struct sysgate_sys *s = c->s;
	unsigned long info, child_sp;

	if (!t->depth && !core_handles(s->nr)) {
		/* entry.S makes the call, then calls sg_syscall_exit() if
		 * exit callbacks wait. */
		sg_frame_set_nr(f, s->nr);
		if (unlikely(s != &k->s)) {
			/* (a hook made clone something else: the exit
			 * side is k's) */
			k->s = *s;
			c->s = &k->s;
			call_record_done(t, s);
		}
		if (!chain_exit_wanted(c))
			return SG_ENTRY_KERNEL;
		k->t = t;
		k->lean = 0;
		t->in_call = 1;	/* until sg_syscall_exit */
		return SG_ENTRY_KERNEL_EXIT;
	}
	info = raw_info(t, s, c->ran, &child_sp);
	if (info) {
		unsigned long target = d->raw;

		sg_frame_set_nr(f, s->nr);
		if (s->nr == SG_NR_rt_sigreturn)
			/* From sysgate's own text, where SUD never traps. */
			target = sg_arch_raw_sigreturn();
		else if (sg.sud_on)
			t->sud_selector = SG_SUD_ALLOW;	/* see sg_after_raw */
		sg_frame_set_raw(f, target, info, child_sp);
		return SG_ENTRY_RAW;
	}
	if (t->depth && !depth_handles(s->nr)) {
		sg_frame_set_nr(f, s->nr);
		return SG_ENTRY_KERNEL;
	}
	if (t->depth)
		s->ret = depth_call(t, s);
	else
		core_call(t, s);
	if (chain_exit_wanted(c))
		run_call_hooks(t, c->nr, chain_exit, c);
	sg_frame_set_result(f, s->ret);
	call_record_done(t, s);
	return SG_ENTRY_DONE;
}

static __attribute__((hot, noinline)) int
syscall_hooked(struct sg_frame *f, const struct sg_site_desc *d,
	       struct sg_call *k)
{
	struct sg_thread *t = self_or_new();
	long nr = sg_frame_nr(f);
	struct sysgate_sys *s = call_record(t, nr, &k->s);
	struct sg_chain *c = &k->c;

	sg_frame_args(f, s->args);
	sys_init(s, t, nr, sg_site_pc(d), 1);
	/* SUD taxes every call while code waits for its first trap: a
	 * process that keeps calling has the mechanism patch the rest
	 * (while it runs alone; checked every SG_SETTLE_CALLS calls). */
	if (unlikely(sg.sud_on) && !sg.vm_shared &&
	    !(++settle_calls & (SG_SETTLE_CALLS - 1)))
		sg_mech_threads(0);
	if (unlikely(s->nr == SG_NR_rt_sigreturn))
		sigreturn_args(s, sg_frame_app_sp(f));
	chain_start(c, s, 0);

	if (!t->depth && hooks_wanted(t, s->nr)) {
		run_call_hooks(t, c->nr, chain_enter, c);
		if (c->skip) {
			sg_frame_set_result(f, s->ret);
			call_record_done(t, s);
			return SG_ENTRY_DONE;
		}
		sg_frame_set_args(f, s->args);
	}
	return syscall_rest(f, d, k, t);
}

/*
 * The common case, kept lean: a call one hook alone selects (sg.lean_sel),
 * in a thread that is set up and outside any callback, with nothing for
 * the core to do.  The same steps as syscall_hooked and run_hooks in the
 * same order, less what such a call does not need: no thread pointer
 * switch, no signal mask for the alternate stack, no loop over the chain;
 * the FPU save only for a hook without SYSGATE_HOOK_NOFPU.
 */
static inline __attribute__((always_inline)) int
lean_ok(const struct sg_thread *t, unsigned long nr)
{
	return t && !t->depth && !t->hooks_off && t->hook_sp && !t->alt_hi &&
	       !(sg.tls.memsz && sg_bit(sg.tls_sel, nr));
}

/* On the hook stack: the one hook's enter callback, and its exit
 * callback at once for a call it answers (as chain_enter). */
__attribute__((hot))
static long lean_enter(void *p)
{
	struct sg_call *k = p;
	struct sysgate_ctx *h = sg.hooks[k->c.ran - 1];
	long v = h->hook->enter(&k->s, h->data);

	if (v == SYSGATE_SKIP) {
		k->s.flags |= SYSGATE_SYS_SKIPPED;
		if (h->hook->exit)
			h->hook->exit(&k->s, h->data);
	}
	return v;
}

__attribute__((hot))
static long lean_exit(void *p)
{
	struct sg_call *k = p;
	struct sysgate_ctx *h = sg.hooks[k->c.ran - 1];

	h->hook->exit(&k->s, h->data);
	return 0;
}

/* run_hooks for a call on the lean path (lean_ok held at its entry):
 * fn(a, b) on the hook stack, the FPU state kept if fpu. */
static inline __attribute__((always_inline)) long
run_lean(struct sg_thread *t, int fpu, const void *fn, void *a, void *b)
{
	long v;

	__atomic_store_n(&t->depth, 1, __ATOMIC_RELAXED);
	__asm__ volatile("" ::: "memory");
	if (fpu)
		sg_fpu_save(t->fpu_area, sg.fpu_mask);
	v = sg_on_stack_call(fn, a, b, t->hook_sp);
	if (fpu)
		sg_fpu_restore(t->fpu_area, sg.fpu_mask);
	__asm__ volatile("" ::: "memory");
	__atomic_store_n(&t->depth, 0, __ATOMIC_RELAXED);
	if (unlikely(t->pending))
		sg_deliver_pending(t);
	return v;
}

/* fpu: the hook lacks SYSGATE_HOOK_NOFPU (a constant: one copy each,
 * so that the NOFPU path carries no test) */
/* After enter() let the call run: the arguments it may have changed go
 * back into the frame, and a number it changed to one of the core's
 * takes the general path's rest. */
static inline __attribute__((always_inline)) int
lean_run_call(struct sg_frame *f, struct sg_call *k, unsigned long nr,
	      struct sg_thread *t, int exit_wanted)
{
	struct sysgate_sys *s = &k->s;
	struct sg_chain *c = &k->c;

	sg_frame_set_args(f, s->args);
	if (unlikely(s->nr != (long)nr) && core_handles(s->nr)) {
		chain_start(c, s, sg.lean_hook[nr] + 1);
		c->nr = nr;	/* the number the hook was selected on */
		return syscall_rest(f, sg_frame_site(f), k, t);
	}
	sg_frame_set_nr(f, s->nr);
	if (!exit_wanted)
		return SG_ENTRY_KERNEL;
	k->t = t;
	k->lean = 1;
	t->in_call = 1;	/* until sg_syscall_exit */
	return SG_ENTRY_KERNEL_EXIT;
}

static inline __attribute__((always_inline)) int
lean_call(struct sg_frame *f, struct sg_call *k, unsigned long nr, int fpu)
{
	const struct sg_site_desc *d = sg_frame_site(f);
	struct sg_thread *t = sg_self();
	struct sysgate_sys *s = &k->s;
	struct sysgate_ctx *x = sg.hooks[sg.lean_hook[nr]];
	const struct sysgate_hook *h = x->hook;
	int v = SYSGATE_RUN;

	if (unlikely(!lean_ok(t, nr)))
		return syscall_hooked(f, d, k);
	sg_frame_args(f, s->args);
	sys_init(s, t, nr, sg_site_pc(d), 0);
	if (likely(!h->exit)) {
		/* enter() straight from the stack switch, no wrapper between
		 * (~1.6 ns); nothing but the record, the frame, the thread
		 * and nr live across it */
		if (h->enter)
			v = (int)run_lean(t, fpu, (const void *)h->enter, s,
					  x->data);
		if (v == SYSGATE_SKIP) {
			s->flags |= SYSGATE_SYS_SKIPPED;
			sg_frame_set_result(f, s->ret);
			return SG_ENTRY_DONE;
		}
		return lean_run_call(f, k, nr, t, 0);
	}
	/* (the chain record only where something reads it: an exit
	 * callback, or syscall_rest) */
	chain_start(&k->c, s, sg.lean_hook[nr] + 1);
	if (h->enter &&
	    (int)run_lean(t, fpu, (const void *)lean_enter, k, 0) ==
		    SYSGATE_SKIP) {
		sg_frame_set_result(f, s->ret);
		return SG_ENTRY_DONE;
	}
	return lean_run_call(f, k, nr, t, 1);
}

static __attribute__((hot, noinline)) int
syscall_lean(struct sg_frame *f, struct sg_call *k, unsigned long nr)
{
	return lean_call(f, k, nr, 0);
}

/* The fast path's FPU save (before the hook's callbacks) and restore
 * (after), for a hook without the NOFPU promise: run_lean's. */
__attribute__((hot))
void sg_fast_fpu(struct sg_thread *t, int restore)
{
	if (restore)
		sg_fpu_restore(t->fpu_area, sg.fpu_mask);
	else
		sg_fpu_save(t->fpu_area, sg.fpu_mask);
}

/* An entry stub's fast path ran enter(), which let the call run with
 * another number or has exit() to run after it: the rest as lean_call's. */
__attribute__((hot))
int sg_fast_ran(struct sg_frame *f, struct sg_call *k, unsigned long nr)
{
	int i = sg.lean_hook[nr], ex = sg.hooks[i]->hook->exit != 0;

	if (ex)
		chain_start(&k->c, &k->s, i + 1);
	return lean_run_call(f, k, nr, sg_self(), ex);
}

/* The program's own dispatch takes the call: entry.S leaves for the
 * breakpoint that stands for it, as a RAW call (core/psud.c). */
static __attribute__((noinline)) int psud_taken(struct sg_frame *f)
{
	const struct sg_site_desc *d = sg_frame_site(f);
	unsigned long next = (unsigned long)sg_site_pc(d) + SG_SYSCALL_INSN_LEN;

	if (!sg_psud_entry(sg_self(), next))
		return 0;
	sg_frame_set_raw(f, sg_arch_psud_trap(), 0, 0);
	return 1;
}

static __attribute__((hot, noinline)) int
syscall_other(struct sg_frame *f, struct sg_call *k, unsigned long nr)
{
	if (likely(nr < SYSGATE_NR_MAX) && sg_bit(sg.lean_fpu_sel, nr) &&
	    likely(!sg.sud_on && !sg.prog_sud))
		return lean_call(f, k, nr, 1);
	if (unlikely(sg.sud_on))
		sg_sud_check(sg_self());
	if (unlikely(sg.prog_sud) && psud_taken(f))
		return SG_ENTRY_RAW;
	if (likely(nr >= SYSGATE_NR_MAX || !sg_bit(sg.wanted, nr))) {
		sg_frame_site(f);
		return SG_ENTRY_KERNEL;
	}
	return syscall_hooked(f, sg_frame_site(f), k);
}

__attribute__((hot))
int sg_syscall_entry(struct sg_frame *f, struct sg_call *k)
{
	unsigned long nr = sg_frame_nr(f);

	if (likely(nr < SYSGATE_NR_MAX) && sg_bit(sg.lean_sel, nr) &&
	    likely(!sg.sud_on && !sg.prog_sud))
		return syscall_lean(f, k, nr);
	return syscall_other(f, k, nr);
}

/* After SG_ENTRY_KERNEL_EXIT: entry.S made the call, its results are in
 * the frame and the record is as syscall_hooked left it. */
__attribute__((hot))
void sg_syscall_exit(struct sg_frame *f, struct sg_call *k)
{
	struct sg_thread *t = k->t;

	t->in_call = 0;
	k->s.ret = sg_frame_result(f);
	k->s.ret2 = sg_frame_result2(f);
	/* (a signal handler that ran meanwhile may have left the thread on
	 * its alternate stack) */
	if (k->lean && likely(!t->alt_hi))
		run_lean(t, sg_bit(sg.fpu_sel, k->c.nr),
			 (const void *)lean_exit, k, 0);
	else
		run_call_hooks(t, k->c.nr, chain_exit, &k->c);
	sg_frame_set_result(f, k->s.ret);
}

/* The exit side of a RAW call from the site at pc, in the caller and in
 * the child. */
void sg_after_raw_at(struct sg_frame *f, unsigned long info, const void *pc)
{
	struct sg_thread *t;
	struct sysgate_sys own, *s = &own;
	struct sg_chain c;
	long args[6];
	long ret = sg_frame_result(f);
	int child = sg_raw_info_valid(info) && ret == 0 &&
		    (info & SG_RAW_NEWCHILD);

	/* A new thread with TLS of its own has no state yet, and the thread
	 * register it inherited (x86-64's GS) names its creator's, which is
	 * freed when the creator exits, as it may have by now. */
	if (child && !(info & (SG_RAW_SAME_TLS | SG_RAW_VFORK | SG_RAW_FORK)))
		sg_set_self(0);
	if (unlikely(sg.sud_on))
		sg_sud_check(sg_self());	/* the caller: block again */
	if (child && (info & SG_RAW_FORK)) {
		/* a copy of the process, its thread's state included */
		t = sg_self();
		if (t) {
			raw_record(t, info, s);	/* (the caller's, copied) */
			sg_process_forked(t);
		}
	} else if (child) {
		t = sg_raw_child_setup(info);
		/* The kernel does not carry SUD into a new thread or child:
		 * arm it now, or none of its calls outside patched sites
		 * would be seen.  Not in a hook's own thread (a library a
		 * hook calls, such as libcephfs, made it): its calls all go
		 * to the kernel anyway, and one that blocks SIGSYS (as
		 * libcephfs's threads block every signal) would be killed
		 * by its first trap. */
		if (unlikely(sg.sud_on) && t && !t->hook_own)
			sg_sud_arm_new(t);
	} else {
		/* A vfork child ran first on this same stack and may have
		 * overwritten the info word below it (its own calls build
		 * frames there): the caller kept a copy. */
		int vfork_ret = !sg_raw_info_valid(info) ||
				(info & SG_RAW_VFORK);

		t = sg_self();
		/* Where a vfork child shares the thread register (rv64's tp),
		 * its state stood in for ours until now. */
		if (t && t->vfork_parent && vfork_ret) {
			struct sg_thread *p = t->vfork_parent;

			t->vfork_parent = 0;
			sg_set_self(p);
			t = p;
		}
		if (t && t->vfork_info && vfork_ret) {
			info = t->vfork_info;
			t->vfork_info = 0;
		}
		s = raw_record(t, info, s);
	}
	if (!t || !sg_raw_info_valid(info) || (info & SG_RAW_NOCB))
		return;
	sg_frame_args(f, args);
	sg_sys_init(s, t, info & SG_RAW_NR_MASK, args, pc);
	s->ret = ret;
	if (ret == 0 && (info & SG_RAW_NEWCHILD))
		s->flags |= SYSGATE_SYS_CHILD;
	chain_start(&c, s, sg.nhooks);
	if (hooks_wanted(t, s->nr))
		run_call_hooks(t, c.nr, chain_exit, &c);
}

void sg_after_raw(struct sg_frame *f, unsigned long info)
{
	sg_after_raw_at(f, info, sg_site_pc(sg_frame_site(f)));
}

/*
 * A call that a signal handler caught and will have made elsewhere
 * (rt_sigreturn): the enter callbacks only.
 */
static void enter_only(long nr, long args[6], const void *pc, void *uc)
{
	struct sg_thread *t = self_or_new();
	struct sysgate_sys s;
	struct sg_chain c;

	if (t->depth || !hooks_wanted(t, nr))
		return;
	sg_sys_init(&s, t, nr, args, pc);
	if (nr == SG_NR_rt_sigreturn) {
		/* (the frame, where it is known: see sigreturn_args) */
		s.args[0] = uc ? (long)sg_arch_uc_sigmask(uc) : 0;
		s.args[1] = uc ? (long)sg_arch_uc_result_reg(uc) : 0;
	}
	chain_start(&c, &s, 0);
	run_call_hooks(t, c.nr, chain_enter, &c);
}

void sg_dispatch_sigreturn(void *uc, const void *pc)
{
	long none[6] = { 0 };

	enter_only(SG_NR_rt_sigreturn, none, pc, uc);
}

/* After the enter callbacks: the call, then the exit callbacks. */
static long dispatch_rest(struct sg_thread *t, struct sg_chain *c)
{
	core_call(t, c->s);
	if (chain_exit_wanted(c))
		run_call_hooks(t, c->nr, chain_exit, c);
	return c->s->ret;
}

/*
 * A call caught by a mechanism without a stub (signal handlers, preload
 * wrappers).  RAW calls cannot be run from here; callers handle them.
 */
long sg_dispatch_call(long nr, long args[6], const void *pc)
{
	struct sg_thread *t = self_or_new();
	struct sysgate_sys s;
	struct sg_chain c;

	sg_sys_init(&s, t, nr, args, pc);
	if (t->depth)
		return depth_call(t, &s);
	chain_start(&c, &s, 0);
	if (hooks_wanted(t, nr)) {
		run_call_hooks(t, c.nr, chain_enter, &c);
		if (c.skip)
			return s.ret;
	}
	return dispatch_rest(t, &c);
}

/*
 * The execve that started the tree's first program ran before sysgate
 * was there (in the CLI's child): hooks see it here, as the loader
 * enters the program, as a call that returned 0 -- strace's first line,
 * counted by -c.  The state a hook carries across an execve is the next
 * one's to set.
 */
void sg_dispatch_started(long nr, const long args[6])
{
	struct sg_thread *t = sg_self();
	struct sysgate_sys s;
	struct sg_chain c;

	if (!t || !hooks_wanted(t, nr))
		return;
	sg_sys_init(&s, t, nr, args, 0);
	chain_start(&c, &s, 0);
	run_call_hooks(t, c.nr, chain_enter, &c);
	if (!c.skip && chain_exit_wanted(&c)) {
		s.ret = 0;
		run_call_hooks(t, c.nr, chain_exit, &c);
	}
	sg_env_exec_failed();
}

/*
 * A RAW call (clone, clone3, vfork) that a signal handler caught at a site
 * without a stub: rather than letting the program's own instruction make
 * it, which would leave a new thread or child unseen (no state, no
 * syscall user dispatch, no callbacks), the handler's return makes it
 * from sysgate's text, and sg_after_raw_at follows in both.  0 where the
 * arch cannot: the caller lets it through.
 */
int sg_dispatch_raw(long nr, long args[6], const void *pc, void *uc)
{
	struct sg_thread *t;
	struct sysgate_sys own, *s;
	struct sg_chain c;
	unsigned long info, child_sp;

	if (!SG_ARCH_TRAP_RAW)
		return 0;
	t = self_or_new();
	s = call_record(t, nr, &own);
	sg_sys_init(s, t, nr, args, pc);
	chain_start(&c, s, 0);
	if (!t->depth && hooks_wanted(t, nr)) {
		run_call_hooks(t, c.nr, chain_enter, &c);
		if (c.skip) {
			sg_arch_uc_set_result(uc, s->ret);
			call_record_done(t, s);
			return 1;
		}
	}
	info = raw_info(t, s, c.ran, &child_sp);
	if (!info) {
		/* a fork after all (clone without CLONE_VM): made here */
		sg_arch_uc_set_result(uc, t->depth ? depth_call(t, s) :
						     dispatch_rest(t, &c));
		call_record_done(t, s);
		return 1;
	}
	if (info & SG_RAW_VFORK)
		t->vfork_next = *sg_arch_uc_pc(uc);
	sg_arch_uc_trap_raw(uc, s->args, info, child_sp);
	return 1;
}

/*
 * The ptrace mechanism runs the chain in the tracer (tools/sysgate/
 * ptrace.c) for another process's calls: the same callbacks, on the
 * tracer's own thread state.
 */
static struct sg_thread *tracer_thread(void)
{
	static struct sg_thread *t;

	if (!t)
		t = sg_thread_new(0);
	return t;
}

void sg_sys_init_traced(struct sysgate_sys *s, int pid, int tid, long nr,
			const long args[6], const void *pc)
{
	struct sg_thread *t = tracer_thread();

	t->pid = pid;
	t->tid = tid;
	sg_tracer_task(pid, tid);
	sg_sys_init(s, t, nr, args, pc);
}

int sg_chain_enter_traced(struct sysgate_sys *s, int *ran)
{
	struct sg_thread *t = tracer_thread();
	struct sg_chain c = { s, s->nr, 0, 0 };

	*ran = 0;
	if (!t || !hooks_wanted(t, s->nr))
		return 0;
	run_call_hooks(t, c.nr, chain_enter, &c);
	*ran = c.ran;
	return c.skip;
}

int sg_chain_exit_traced(struct sysgate_sys *s, int ran)
{
	struct sg_thread *t = tracer_thread();
	struct sg_chain c = { s, s->nr, ran, 0 };

	if (!t || !chain_exit_wanted(&c))
		return 0;
	run_call_hooks(t, c.nr, chain_exit, &c);
	return 1;
}
