/* SPDX-License-Identifier: MIT */
/*
 * Signal handlers are wrapped so that a signal arriving while a hook
 * callback runs is held back and re-sent when the callback returns: the
 * program's handlers never run inside a hook, so hooks never see their
 * state change under them and never recurse.  The program sees its own
 * handlers through rt_sigaction, unchanged.  SIG_DFL and SIG_IGN are left
 * to the kernel.
 *
 * The wrapper runs in the interrupted thread, on whatever stack the kernel
 * chose (the program's, its sigaltstack, or the hook stack); it takes no
 * locks and calls no libc.
 */
#include "sg.h"
#include "dispatch.h"
#include "signal_arch.h"

#define SIG_DFL_ 0UL
#define SIG_IGN_ 1UL
#define SA_SIGINFO_ 4UL
#define SA_RESETHAND_ 0x80000000UL
#define SIGKILL_ 9
#define SIGSTOP_ 19

/*
 * The program's view of each signal's action, per set of actions the
 * kernel keeps: the first process's here (a fork child has its own copy
 * of this memory); a child that shares our memory but not our actions
 * (vfork, posix_spawn's clone) has its own table, in its thread state,
 * so that the handlers it resets before exec stay set here.
 */
static struct sg_kact first_acts[SG_NSIG];

#define ACTS_LEN (SG_NSIG * sizeof(struct sg_kact))

static struct sg_kact *acts_of(const struct sg_thread *t)
{
	return t && t->acts ? t->acts : first_acts;
}

void sg_signal_child(struct sg_thread *parent, struct sg_thread *t,
		     int own_actions)
{
	const struct sg_kact *from = acts_of(parent);

	if (!own_actions) {
		if (t->acts_own)
			sg_signal_free(t);
		t->acts = parent ? parent->acts : 0;
		return;
	}
	/* (a reused vfork state keeps its table) */
	if (!t->acts_own) {
		t->acts = sg_mmap(ACTS_LEN);
		if (!t->acts)
			sg_die("out of memory for a child's signal actions");
		t->acts_own = 1;
	}
	memcpy(t->acts, from, ACTS_LEN);
}

void sg_signal_free(struct sg_thread *t)
{
	if (t->acts_own)
		sg_munmap(t->acts, ACTS_LEN);
	t->acts = 0;
	t->acts_own = 0;
}
/* Signals sysgate itself needs (SIGTRAP for trapped sites...). */
static sg_claim_fn claims[SG_NSIG];
/* sysgate_watch_fatal_signals(): the default actions that end the
 * process are wrapped too, so that hooks see those signals. */
static int watch_fatal;

/* Does the default action of sig end the process (1), with a core (2)? */
int sg_default_kills(int sig)
{
	switch (sig) {
	case 3: case 4: case 5: case 6: case 7: case 8: case 11: case 24:
	case 25: case 31:
		return 2;	/* QUIT ILL TRAP ABRT BUS FPE SEGV XCPU XFSZ SYS */
	case 9: case 17: case 18: case 19: case 20: case 21: case 22:
	case 23: case 28:
		return 0;	/* KILL (never caught), CHLD CONT STOP TSTP
				 * TTIN TTOU URG WINCH: ignored or stopped */
	default:
		return 1;
	}
}

/*
 * An action as sysgate hands it to the kernel or reads it back.  qemu-user
 * 7.2 takes rv64's action to be {handler, flags, restorer, mask}, a word
 * longer than the kernel's {handler, flags, mask}: a copy of the mask
 * after the real one makes both see the same action (the kernel reads no
 * further), and a read has room for the longer form.
 */
struct kact_io {
	struct sg_kact k;
	unsigned long mask_again;
};

static long set_action(int sig, const struct sg_kact *k)
{
	struct kact_io a = { *k, k->mask };

	return sg_sc4(SG_NR_rt_sigaction, sig, (long)&a, 0, 8);
}

void sg_signal_set_kernel_action(int sig, const struct sg_kact *k)
{
	set_action(sig, k);
}

static long get_action(int sig, struct sg_kact *k)
{
	struct kact_io a;
	long r = sg_sc4(SG_NR_rt_sigaction, sig, 0, (long)&a, 8);

	if (r == 0)
		*k = a.k;
	return r;
}

static int is_fault(int sig, const struct sg_siginfo *info)
{
	/* Synchronous faults cannot be held back: the instruction would
	 * fault again.  si_code > 0 means "sent by the kernel". */
	return (sig == 4 || sig == 5 || sig == 7 || sig == 8 || sig == 11 ||
		sig == 31) && info->si_code > 0;
}

static long signal_cb(void *p)
{
	struct sg_siginfo *info = p;
	int i;

	for (i = 0; i < sg.nhooks; i++)
		if (sg.hooks[i]->hook->signal)
			sg.hooks[i]->hook->signal(info->si_signo, info,
						  sg.hooks[i]->data);
	return 0;
}

/*
 * The thread's alternate signal stack, from sigaltstack or from a
 * signal's ucontext: every 64-bit Linux ucontext starts with uc_flags,
 * uc_link and uc_stack (the stack as it was when the signal came).
 */
struct uc_head {
	unsigned long flags, link;
	struct sg_stack stack;
};

#define SS_ONSTACK_ 1
#define SS_DISABLE_ 2
#define SS_AUTODISARM_ (1U << 31)
#define SA_ONSTACK_ 0x08000000UL
#define SIGTRAP_ 5
#define SIGSYS_ 31

static void set_altstack(struct sg_thread *t, const struct sg_stack *ss)
{
	/* A self-disarming stack is not reused by a nested signal. */
	if (ss->ss_flags & (SS_DISABLE_ | SS_AUTODISARM_)) {
		t->alt_lo = t->alt_hi = 0;
	} else {
		t->alt_lo = ss->ss_sp;
		t->alt_hi = ss->ss_sp + ss->ss_size;
	}
}

static void note_altstack(struct sg_thread *t)
{
	struct sg_stack ss;

	if (sg_sc2(SG_NR_sigaltstack, 0, (long)&ss) == 0)
		set_altstack(t, &ss);
}

/*
 * sysgate's own alternate signal stack.  The signals that catch calls
 * (SIGSYS, SIGTRAP) have SA_ONSTACK, so their frames (~3.5 KiB with the
 * FPU state here) and the handler's work never go on the program's stack,
 * which may be a page (a clone child's, as strace's tests give theirs):
 * like the kernel's syscall, a trapped call uses none of it.  Self-
 * disarming, so that a signal that comes while its handler runs elsewhere
 * (hooks on the hook stack, a program handler moved back to the program's
 * stack) does not start over at its top.  The kernel keeps it for good;
 * the program's own alternate stack is kept in t->prog_alt, and
 * sigaltstack and the wrapper give the program what the kernel would.
 */
#define OWN_ALT_SIZE (64 * 1024UL)
#define PAGE_ 4096UL

/* Since a mechanism claimed a signal that catches calls, every thread
 * gets one.  (Where none does, -m preload, sysgate does not see the
 * program's signal actions, which may have SA_ONSTACK.) */
static int own_alts;

static void own_alt(const struct sg_thread *t, struct sg_stack *ss)
{
	ss->ss_sp = t->own_alt + PAGE_;
	ss->ss_size = t->own_alt_len - PAGE_;
	ss->ss_flags = SS_AUTODISARM_;
}

void sg_signal_own_altstack(struct sg_thread *t)
{
	unsigned long len = PAGE_ + OWN_ALT_SIZE +
			    ((sg.fpu_size + PAGE_ - 1) & ~(PAGE_ - 1));
	struct sg_stack old, ss;
	char *base;

	/* (a thread sysgate finds with one of the program's keeps it) */
	if (!own_alts || t->own_alt_len ||
	    sg_sc2(SG_NR_sigaltstack, 0, (long)&old) < 0 ||
	    !(old.ss_flags & SS_DISABLE_) || !(base = sg_mmap(len)))
		return;
	sg_sc3(SG_NR_mprotect, (long)base, PAGE_, 0 /* PROT_NONE */);
	t->own_alt = (unsigned long)base;
	t->own_alt_len = len;
	own_alt(t, &ss);
	/* (SS_AUTODISARM: Linux 4.7) */
	if (sg_sc2(SG_NR_sigaltstack, (long)&ss, 0) < 0) {
		sg_munmap(base, len);
		t->own_alt = t->own_alt_len = 0;
		return;
	}
	t->prog_alt.ss_sp = 0;
	t->prog_alt.ss_size = 0;
	t->prog_alt.ss_flags = SS_DISABLE_;
}

void sg_signal_own_altstack_free(struct sg_thread *t)
{
	if (t->own_alt_len)
		sg_munmap((void *)t->own_alt, t->own_alt_len);
	t->own_alt = t->own_alt_len = 0;
}

/* The program's alternate stack as sigaltstack would report it at sp. */
static void prog_view(const struct sg_thread *t, unsigned long sp,
		      struct sg_stack *v)
{
	const struct sg_stack *p = &t->prog_alt;

	*v = *p;
	if (p->ss_flags & SS_DISABLE_)
		return;
	/* the kernel's on_sig_stack() */
	if (!(p->ss_flags & SS_AUTODISARM_) && sp > p->ss_sp &&
	    sp - p->ss_sp <= p->ss_size)
		v->ss_flags |= SS_ONSTACK_;
}

static long raw_sigaltstack(void *ss, void *oss)
{
	return sg_sc2(SG_NR_sigaltstack, (long)ss, (long)oss);
}

long sg_signal_sigaltstack(struct sg_thread *t, const void *ss, void *oss)
{
	struct sg_stack view, ns, k;
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	long r;

	if (!t || !t->own_alt_len) {
		/* The kernel holds the program's: made where the program
		 * is (a trapped call's handler may run on that stack). */
		r = t && t->trap_sp ?
			    sg_on_stack_call((const void *)raw_sigaltstack,
					     (void *)ss, oss, t->trap_sp) :
			    raw_sigaltstack((void *)ss, oss);
		if (r == 0 && ss && t)
			note_altstack(t);
		return r;
	}
	if (t->trap_sp)
		sp = t->trap_sp;
	prog_view(t, sp, &view);
	if (ss) {
		if (sg_read_safe(&ns, ss, sizeof(ns)) < 0)
			return -14;	/* EFAULT */
		if (view.ss_flags & SS_ONSTACK_)
			return -1;	/* EPERM */
		/* The kernel's own checks (EINVAL, ENOMEM): it takes the
		 * stack and at once gets back what it had. */
		r = sg_sc2(SG_NR_sigaltstack, (long)&ns, (long)&k);
		if (r < 0)
			return r;
		sg_sc2(SG_NR_sigaltstack, (long)&k, 0);
		if (ns.ss_flags & SS_DISABLE_) {
			ns.ss_sp = ns.ss_size = 0;
			ns.ss_flags = SS_DISABLE_;
		}
		ns.ss_flags &= SS_DISABLE_ | SS_AUTODISARM_;
		t->prog_alt = ns;
	}
	if (oss && sg_write_safe(oss, &view, sizeof(view)) < 0)
		return -14;
	return 0;
}

/*
 * A signal that comes while hooks run on the hook stack finds the thread
 * off its alternate stack, so the kernel puts its frame at the top of
 * that stack: over the frame of a handler that was running there and
 * made the call.  Such signals wait in the kernel instead (synchronous
 * faults excepted, see is_fault).
 */
int sg_signal_hold_on_altstack(struct sg_thread *t, unsigned long *old)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	unsigned long hold = ~(1UL << (4 - 1) | 1UL << (5 - 1) | 1UL << (7 - 1) |
			       1UL << (8 - 1) | 1UL << (11 - 1) | 1UL << (31 - 1));

	if (sp - t->alt_lo >= t->alt_hi - t->alt_lo)
		return 0;
	return sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&hold,
		      (long)old, 8) == 0;
}

void sg_signal_release(const unsigned long *old)
{
	sg_sc4(SG_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)old, 0, 8);
}

static unsigned long claimed_mask(void);

/*
 * The program's handler sees the masks it would see natively: the
 * interrupted code's in uc_sigmask, and its own (that mask, its sa_mask
 * and the signal) through rt_sigprocmask, sysgate's signals included
 * where the program blocked them though the kernel never does.  A mask
 * the handler leaves in uc_sigmask for its return is the program's to
 * set, and is followed like any other.
 */
static void run_handler(struct sg_thread *t, int sig, const struct sg_kact *a,
			struct sg_siginfo *info, void *uc)
{
	unsigned long claimed = claimed_mask(), *uc_mask = sg_arch_uc_sigmask(uc);

	if (t) {
		t->handlers_run++;
		*uc_mask |= t->claimed_blocked;
		t->claimed_blocked |= a->mask & claimed;
		if (!(a->flags & 0x40000000 /* SA_NODEFER */))
			t->claimed_blocked |= (1UL << (sig - 1)) & claimed;
	}
	/* (what the kernel left to us: see kernel_act) */
	if (claims[sig] && (a->mask & ~claimed)) {
		unsigned long m = a->mask & ~claimed;

		sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&m, 0, 8);
	}
	/* (code the handler interrupted may sit anywhere: see sg.h) */
	__atomic_add_fetch(&sg.handlers_running, 1, __ATOMIC_SEQ_CST);
	if (a->flags & SA_SIGINFO_)
		((void (*)(int, void *, void *))a->handler)(sig, info, uc);
	else
		((void (*)(int))a->handler)(sig);
	__atomic_sub_fetch(&sg.handlers_running, 1, __ATOMIC_SEQ_CST);
	if (t) {
		t->claimed_blocked = *uc_mask & claimed;
		*uc_mask &= ~claimed;
	}
}

/*
 * Where the signal finds the thread, for sysgate_signal_where(): inside
 * the program's hooked call (between its enter and exit callbacks), the
 * kernel has either rewound it to its instruction to make it again, or
 * left its result (-EINTR when it cut it short).
 */
static void where(struct sg_thread *t, void *uc)
{
	unsigned long pc = *sg_arch_uc_pc(uc);

	/* (in sysgate's own code: not a place of the program's) */
	t->sig_pc = pc >= sg.self_text_lo && pc < sg.self_text_hi ? 0 : pc;
	t->sig_where = SYSGATE_SIG_OUTSIDE;
	if (!t->in_call)
		return;
	t->sig_ret = *sg_arch_uc_result_reg(uc);
	t->sig_where = sg_arch_at_syscall(*sg_arch_uc_pc(uc)) ?
			       SYSGATE_SIG_RESTART : SYSGATE_SIG_RETURNED;
}

/*
 * A signal that came as the program's rt_sigprocmask returned (the new
 * mask let it in): its old mask gets the claimed signals the program had
 * blocked now, before the hooks see the call (a tracer prints the call
 * before the signal).  (Or before the kernel wrote it, which then writes
 * over it; the memory may be the program's bad pointer: the safe copies.)
 */
static void fix_old_mask(struct sg_thread *t)
{
	unsigned long m;

	if (t->mask_fix &&
	    sg_read_safe(&m, t->mask_fix, sizeof(m)) == sizeof(m)) {
		m |= t->mask_fix_bits;
		sg_write_safe(t->mask_fix, &m, sizeof(m));
	}
}

struct handler_call {
	struct sg_thread *t;
	int sig;
	const struct sg_kact *a;
	struct sg_siginfo *info;
	void *uc;
};

static long handler_call(void *p)
{
	struct handler_call *h = p;

	run_handler(h->t, h->sig, h->a, h->info, h->uc);
	return 0;
}

/* The program's alternate stack as a ucontext gives it back. */
static void prog_alt_set(struct sg_thread *t, const struct sg_stack *ss)
{
	t->prog_alt = *ss;
	t->prog_alt.ss_flags &= SS_DISABLE_ | SS_AUTODISARM_;
	if (ss->ss_flags & SS_DISABLE_) {
		t->prog_alt.ss_sp = t->prog_alt.ss_size = 0;
		t->prog_alt.ss_flags = SS_DISABLE_;
	}
}

/*
 * A program handler, where the thread has sysgate's own alternate stack:
 * on the stack the kernel would have chosen without it -- the program's
 * alternate stack (SA_ONSTACK, one set and not in use), else below the
 * interrupted code's stack pointer (the trapped call's, where that code
 * is sysgate's handler on its own stack).  uc_stack shows the program's,
 * and what the handler leaves there is the program's from its return on,
 * as rt_sigreturn would make it.
 */
static void run_handler_own_alt(struct sg_thread *t, int sig,
				const struct sg_kact *a,
				struct sg_siginfo *info, void *uc)
{
	struct handler_call h = { t, sig, a, info, uc };
	struct sg_stack *ucs = sg_arch_uc_stack(uc), kept = *ucs, view;
	unsigned long here = (unsigned long)__builtin_frame_address(0);
	unsigned long sp = sg_arch_uc_stack_top(uc), top = 0;

	if (sg_on_own_alt(t, sp))
		sp = t->trap_sp;
	prog_view(t, sp, &view);
	if ((a->flags & SA_ONSTACK_) &&
	    !(view.ss_flags & (SS_DISABLE_ | SS_ONSTACK_))) {
		top = (t->prog_alt.ss_sp + t->prog_alt.ss_size) & ~15UL;
		if (t->prog_alt.ss_flags & SS_AUTODISARM_) {
			struct sg_stack off = { 0, SS_DISABLE_, 0 };

			prog_alt_set(t, &off);
		}
	} else if (sp && sg_on_own_alt(t, here)) {
		top = sp;
	}
	*ucs = view;
	t->trap_sp = 0;		/* (the handler's calls are its own) */
	if (top)
		sg_on_stack(handler_call, &h, top);
	else
		run_handler(t, sig, a, info, uc);
	prog_alt_set(t, ucs);
	*ucs = kept;
}

static void wrapped_signal(int sig, struct sg_siginfo *info, void *uc,
			   unsigned long ret)
{
	struct sg_thread *t;
	struct sg_kact a, *app_act;
	unsigned long trap_sp = 0;
	int was_in_call = 0;

	if (claims[sig]) {
		int c = claims[sig](sig, info, uc);

		if (c == SG_CLAIM_AS)
			sig = info->si_signo;	/* (claimed too: SIGSYS) */
		else if (c)
			return;
	}
	t = sg_self();
	/* A fork child the signal reached at its first instruction (a kill
	 * right after fork): its state is still the parent's -- ids, output,
	 * whether it is followed -- until set up, which happens now rather
	 * than after the handler (once: sg_process_forked). */
	if (t && !t->depth && sg.unforked && !*sg.unforked)
		sg_process_forked(t);
	if (t)
		set_altstack(t, &((const struct uc_head *)uc)->stack);
	app_act = acts_of(t);
	if (t && t->depth) {
		if (is_fault(sig, info)) {
			/* A hook crashed: let the kernel's default action run. */
			struct sg_kact dfl = { 0 };

			sg_warn("a hook callback crashed; see the signal that follows");
			set_action(sig, &dfl);
			return;
		}
		memcpy(&t->pending_info[sig - 1], info, sizeof(*info));
		__atomic_or_fetch(&t->pending, 1ULL << (sig - 1),
				  __ATOMIC_RELAXED);
		return;
	}
	if (t && !t->hooks_off && sg.nhooks) {
		fix_old_mask(t);
		where(t, uc);
		sg_run_hooks(t, signal_cb, info);
		t->sig_where = SYSGATE_SIG_OUTSIDE;
		t->sig_pc = 0;
	}
	a = app_act[sig];
	if (a.flags & SA_RESETHAND_) {
		app_act[sig].handler = SIG_DFL_;
		app_act[sig].flags &= ~SA_SIGINFO_;
	}
	if (a.handler == SIG_IGN_)
		return;
	if (a.handler == SIG_DFL_) {
		/* A claimed signal that was not ours, or a race with a change
		 * to SIG_DFL: take the default action. */
		struct sg_kact dfl = { 0 };

		set_action(sig, &dfl);
		/* A fault recurs when its instruction reruns; a breakpoint
		 * (SIGTRAP) is reported after it and must be sent again. */
		if (!is_fault(sig, info) || sig == 5)
			sg_sc4(SG_NR_rt_tgsigqueueinfo, t ? t->pid : sg.pid,
			       t ? t->tid : sg.pid, sig, (long)info);
		return;
	}
	/* The handler's own calls are not the one it interrupted, which
	 * goes on if the kernel restarts it. */
	if (t) {
		was_in_call = t->in_call;
		t->in_call = 0;
		trap_sp = t->trap_sp;
	}
	if (t && t->own_alt_len)
		run_handler_own_alt(t, sig, &a, info, uc);
	else
		run_handler(t, sig, &a, info, uc);
	if (t) {
		t->in_call = was_in_call;
		t->trap_sp = trap_sp;
	}
	/* Where the kernel returns through sysgate's restorer instead of
	 * the program's (syscall user dispatch is on), the program's
	 * rt_sigreturn is made from sysgate's text: hooks see it here, as
	 * they would at the program's restorer (strace -c counts it). */
	if (t && (a.flags & SG_SA_RESTORER) &&
	    (ret == sg_arch_restorer() || ret == sg_arch_own_restorer()))
		sg_dispatch_sigreturn(uc, (const void *)ret);
}

/*
 * A thread sysgate first saw in this handler got its own alternate stack
 * here, which the return would take away again (uc_stack has none): the
 * return puts it on.  (Elsewhere uc_stack is right as it is: one without
 * the stack came while another signal used it.)
 */
static void sg_signal_wrapper(int sig, struct sg_siginfo *info, void *uc)
{
	struct sg_thread *before = sg_self(), *t;

	wrapped_signal(sig, info, uc,
		       (unsigned long)__builtin_return_address(0));
	if (!before && (t = sg_self()) && t->own_alt_len)
		own_alt(t, sg_arch_uc_stack(uc));
}

void sg_deliver_pending(struct sg_thread *t)
{
	unsigned long long p;

	while ((p = __atomic_load_n(&t->pending, __ATOMIC_RELAXED))) {
		int sig = __builtin_ctzll(p) + 1;
		struct sg_siginfo info;

		memcpy(&info, &t->pending_info[sig - 1], sizeof(info));
		__atomic_and_fetch(&t->pending, ~(1ULL << (sig - 1)),
				   __ATOMIC_RELAXED);
		sg_sc4(SG_NR_rt_tgsigqueueinfo, t->pid, t->tid, sig,
		       (long)&info);
	}
}

static int wrapped(const struct sg_kact *a)
{
	return a->handler != SIG_DFL_ && a->handler != SIG_IGN_;
}

static int watched(int sig, const struct sg_kact *a)
{
	return watch_fatal && a->handler == SIG_DFL_ && sg_default_kills(sig);
}

static unsigned long claimed_mask(void)
{
	unsigned long m = 0;
	int i;

	for (i = 1; i < SG_NSIG; i++)
		if (claims[i])
			m |= 1UL << (i - 1);
	return m;
}

static void refresh(int all);

/* The action to give the kernel for the program's action a. */
static void kernel_act(int sig, const struct sg_kact *a, struct sg_kact *k)
{
	*k = *a;
	/* A claimed signal must never be blocked while a handler runs. */
	k->mask &= ~claimed_mask();
	if (wrapped(a) || claims[sig] || watched(sig, a)) {
		k->handler = (unsigned long)sg_signal_wrapper;
		k->flags |= SA_SIGINFO_ | SG_SA_RESTORER;
		k->flags &= ~SA_RESETHAND_;
		if (!wrapped(a)) {
			/* SIG_DFL/SIG_IGN stand-in: no restart surprises. */
			k->flags |= 0x10000000;	/* SA_RESTART */
			k->mask = 0;
		}
		/* A claimed signal stays deliverable inside its own handler:
		 * a program handler nested in it may hit a trapped site.
		 * And the kernel blocks nothing more while it runs: a call
		 * trapped there runs for the interrupted code, under its
		 * mask (valgrind gives every signal a handler that blocks
		 * all: its trapped rt_sigprocmask read that mask as its own
		 * and set it back, SIGSEGV blocked).  The wrapper blocks
		 * the program's sa_mask before the program's handler. */
		if (claims[sig]) {
			k->flags |= 0x40000000;	/* SA_NODEFER */
			k->mask = 0;
		}
		/* The signals that catch calls: on sysgate's own stack;
		 * and the program's, whose handlers the wrapper then runs
		 * where the kernel would have (run_handler_own_alt), so
		 * that the kernel's frame and sysgate's own are not on the
		 * program's stack. */
		if ((claims[sig] && (sig == SIGSYS_ || sig == SIGTRAP_)) ||
		    (own_alts && wrapped(a)))
			k->flags |= SA_ONSTACK_;
		/* Under syscall user dispatch the return from a handler
		 * must come from sysgate's text too (it is never let
		 * through, which would leave the selector open); and a
		 * claimed signal's always: the program's restorer may be a
		 * trapped site (SIGSYS under the seccomp filter, an int3
		 * under -m int3), whose trap returns through it again, for
		 * ever.  (A claimed signal's return is sysgate's own call:
		 * a filter of the program's does not judge it.) */
		if (claims[sig])
			sg_kact_set_restorer(k, sg_arch_own_restorer());
		else if (!(a->flags & SG_SA_RESTORER) || !wrapped(a) ||
			 sg.sud_on)
			sg_kact_set_restorer(k, sg_arch_restorer());
	}
}

int sg_signal_claimed(int sig)
{
	return claims[sig] != 0;
}

int sg_signal_claim(int sig, sg_claim_fn fn)
{
	struct sg_kact k;
	int was = claims[sig] != 0;

	claims[sig] = fn;
	if ((sig == SIGSYS_ || sig == SIGTRAP_) && !own_alts) {
		own_alts = 1;
		if (sg_self())
			sg_signal_own_altstack(sg_self());
	}
	kernel_act(sig, &acts_of(sg_self())[sig], &k);
	if (set_action(sig, &k) < 0)
		return -1;
	/* The program's other handlers must not block it either. */
	if (!was)
		refresh(0);
	return 0;
}

/*
 * A program may start with signals sysgate claims blocked (its parent's
 * mask, kept across execve: strace's set_sigblock, a shell's trap), and
 * a trapped call would then kill it with SIGSYS: at the end of start-up
 * they are unblocked, and stay blocked in the program's view.
 */
void sg_signal_unblock_claimed(struct sg_thread *t)
{
	unsigned long claimed = claimed_mask(), cur = 0, blocked;

	if (!claimed || !t ||
	    sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, 0, (long)&cur,
		   8) < 0 || !(blocked = cur & claimed))
		return;
	t->claimed_blocked |= blocked;
	sg_sc4(SG_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&blocked, 0,
	       8);
}

/*
 * A claimed signal must stay deliverable: take it out of new masks.  The
 * program still reads back the mask it asked for: the claimed signals it
 * blocked are kept per thread and put into every old mask it is given
 * (posix_spawn's child, for one, resets the action of each signal that
 * the mask it reads has blocked).
 */
long sg_signal_rt_sigprocmask(struct sg_thread *t, long how, const void *set,
			      void *oset, long size)
{
	unsigned long m = 0, claimed = claimed_mask();
	unsigned long was = t ? t->claimed_blocked : 0, now = was;
	long r;

	if (size != 8)
		return sg_sc4(SG_NR_rt_sigprocmask, how, (long)set, (long)oset,
			      size);
	if (set) {
		if (sg_read_safe(&m, set, sizeof(m)) < 0)
			return -14;
		if (how == 0 /* SIG_BLOCK */)
			now = was | (m & claimed);
		else if (how == 1 /* SIG_UNBLOCK */)
			now = was & ~m;
		else if (how == 2 /* SIG_SETMASK */)
			now = m & claimed;
		if (how != 1)
			m &= ~claimed;
	}
	/* (a signal the new mask lets in is delivered as the call returns,
	 * and hooks may read the old mask then: fix_old_mask) */
	if (t && oset && was) {
		t->mask_fix_bits = was;
		t->mask_fix = oset;
	}
	r = sg_sc4(SG_NR_rt_sigprocmask, how, set ? (long)&m : 0, (long)oset,
		   size);
	if (t) {
		t->mask_fix = 0;
		/* (EFAULT is then the old mask's pointer, which the kernel
		 * writes once the new mask is set) */
		if (r == 0 || (r == -14 && set))
			t->claimed_blocked = now;
	}
	if (r < 0)
		return r;
	if (oset)
		*(volatile unsigned long *)oset |= was;
	return r;
}

/* Which argument of call nr is a signal mask or set, and which its size
 * (pselect6: a {mask, size} pair); -1 if none. */
static int mask_arg(long nr, int *size_arg)
{
	static const struct { long nr; signed char arg, size; } calls[] = {
		{ SG_NR_rt_sigsuspend, 0, 1 }, { SG_NR_rt_sigtimedwait, 0, 3 },
		{ SG_NR_ppoll, 3, 4 }, { SG_NR_epoll_pwait, 4, 5 },
		{ SG_NR_epoll_pwait2, 4, 5 }, { SG_NR_signalfd, 1, 2 },
		{ SG_NR_signalfd4, 1, 2 }, { SG_NR_pselect6, 5, -1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (calls[i].nr == nr && nr >= 0) {
			*size_arg = calls[i].size;
			return calls[i].arg;
		}
	return -1;
}

/*
 * A mask in force while such a call sleeps is also the mask a handler
 * that interrupts it starts from (sigsuspend with all but one signal
 * blocked, then a call trapped in that signal's handler): sysgate's
 * signals are taken out of it, as out of every mask.  A set of signals to
 * take (signalfd, sigtimedwait) must not take sysgate's own either.  Only
 * the kernel is given the copy: a hook that prints the call while it
 * sleeps (a signal's line) sees the program's own.
 */
int sg_signal_swap_mask(const struct sysgate_sys *s, struct sg_mask_swap *w)
{
	unsigned long claimed = claimed_mask();
	int size_arg, arg = claimed ? mask_arg(s->nr, &size_arg) : -1;
	const void *p;
	int i;

	if (arg < 0 || !s->args[arg])
		return 0;
	if (size_arg < 0) {
		/* pselect6: {const sigset_t *, size_t} */
		if (sg_read_safe(w->pselect, (void *)s->args[arg],
				 sizeof(w->pselect)) < 0 || w->pselect[1] != 8 ||
		    !w->pselect[0])
			return 0;
		p = (const void *)w->pselect[0];
	} else {
		if (s->args[size_arg] != 8)
			return 0;
		p = (const void *)s->args[arg];
	}
	if (sg_read_safe(&w->mask, p, sizeof(w->mask)) < 0 ||
	    !(w->mask & claimed))
		return 0;
	w->mask &= ~claimed;
	for (i = 0; i < 6; i++)
		w->args[i] = s->args[i];
	if (size_arg < 0) {
		w->pselect[0] = (unsigned long)&w->mask;
		w->args[arg] = (long)w->pselect;
	} else {
		w->args[arg] = (long)&w->mask;
	}
	return 1;
}

long sg_signal_rt_sigaction(long sig, const void *act, void *oact, long size)
{
	struct sg_kact new, old, k, *app_act = acts_of(sg_self());
	long r;

	if (size != 8 || sig < 1 || sig >= SG_NSIG || sig == SIGKILL_ ||
	    sig == SIGSTOP_)
		return sg_sc4(SG_NR_rt_sigaction, sig, (long)act, (long)oact,
			      size);
	if (act && sg_read_safe(&new, act, sizeof(new)) < 0)
		return -14;	/* EFAULT */
	old = app_act[sig];
	if (act) {
		app_act[sig] = new;
		kernel_act(sig, &new, &k);
		r = set_action(sig, &k);
		if (r < 0) {
			app_act[sig] = old;
			return r;
		}
	}
	if (oact && sg_write_safe(oact, &old, sizeof(old)) < 0)
		return -14;
	return 0;
}

/*
 * In the loader, just after execve: the kernel left every action SIG_DFL
 * but the ignored ones (SIG_IGN), with no flags, mask or restorer, so one
 * read of /proc/self/status (SigIgn) gives them all, where a process
 * would otherwise start with 64 rt_sigaction calls.  The same read tells
 * sg_tracer_outside whether a tracer is there.  Where the execve made
 * that read itself, both came down with the program (core/init.c).  0 if
 * known.
 */
static int actions_after_exec(struct sg_kact *app_act)
{
	char buf[4096];
	const char *ign = 0, *tracer = 0;
	unsigned long mask = sg.exec_sigign;
	int sig;

	if (!sg.loader)
		return -1;
	if (!sg.tracer_at_start) {
		ign = sg_proc_status(0, "SigIgn", buf, sizeof(buf));
		if (!ign || sg_xparse(ign, &mask) != ign + 16)
			return -1;
		tracer = sg_status_field(buf, "TracerPid");
	}
	for (sig = 1; sig < SG_NSIG; sig++) {
		memset(&app_act[sig], 0, sizeof(app_act[sig]));
		if (mask >> (sig - 1) & 1)
			app_act[sig].handler = 1;	/* SIG_IGN */
	}
	if (tracer)
		sg.tracer_at_start = *tracer >= '1' && *tracer <= '9' ? 2 : 1;
	return 0;
}

int sg_signal_init(void)
{
	struct sg_kact *app_act = acts_of(sg_self());
	int sig, known = actions_after_exec(app_act) == 0;

	for (sig = 1; sig < SG_NSIG; sig++) {
		struct sg_kact k;

		if (sig == SIGKILL_ || sig == SIGSTOP_)
			continue;
		if (!known && get_action(sig, &app_act[sig]) < 0)
			continue;
		if (wrapped(&app_act[sig]) || watched(sig, &app_act[sig])) {
			kernel_act(sig, &app_act[sig], &k);
			set_action(sig, &k);
		}
	}
	return 0;
}

/*
 * Give the kernel again the actions that depend on what changed.  Which
 * signals are claimed, and whether SUD is on, shape only the kernel
 * action of a program handler (its mask, its restorer); a claimed signal's
 * and a SIG_DFL stand-in's are the same whatever they are (kernel_act).
 * So after a claim or SUD's arming only the program's handlers are given
 * again (none at a process's start: execve resets them, which spared two
 * rounds of 60 rt_sigaction calls per process); all: every action
 * sysgate installs (the fatal-signal watch just turned on).
 */
static void refresh(int all)
{
	struct sg_kact k, *app_act = acts_of(sg_self());
	int sig;

	for (sig = 1; sig < SG_NSIG; sig++)
		if (wrapped(&app_act[sig]) ||
		    (all && (claims[sig] || watched(sig, &app_act[sig])))) {
			kernel_act(sig, &app_act[sig], &k);
			set_action(sig, &k);
		}
}

void sg_signal_refresh(void)
{
	refresh(0);
}

/* sysgate -p detaching: the kernel gets the program's own actions back,
 * and sysgate claims no signal any more. */
void sg_signal_detach(void)
{
	struct sg_kact *app_act = acts_of(sg_self());
	int sig;

	for (sig = 1; sig < SG_NSIG; sig++)
		if (wrapped(&app_act[sig]) || claims[sig]) {
			claims[sig] = 0;
			set_action(sig, &app_act[sig]);
		}
}

int sysgate_watch_fatal_signals(struct sysgate_ctx *ctx)
{
	(void)ctx;
	watch_fatal = 1;
	/* (from a hook's init, before sg_signal_init, or later) */
	if (sg.initialised)
		refresh(1);
	return 0;
}

/* -m ptrace: the traced thread the CLI runs hooks for, and whether the
 * signal it reports ended the process (known once the tracee is gone). */
static struct {
	int pid, tid, fatal, ended;
} traced;

void sg_tracer_task(int pid, int tid)
{
	traced.pid = pid;
	traced.tid = tid;
}

void sg_signal_traced(int pid, int tid, const void *siginfo, int fatal,
		      int ended)
{
	sg_tracer_task(pid, tid);
	traced.fatal = fatal;
	traced.ended = ended;
	signal_cb((void *)siginfo);
	traced.ended = 0;
}

void sg_thread_start_traced(int pid, int tid)
{
	int i;

	sg_tracer_task(pid, tid);
	for (i = 0; i < sg.nhooks; i++)
		if (sg.hooks[i]->hook->thread_start)
			sg.hooks[i]->hook->thread_start(sg.hooks[i]->data);
}

int sysgate_task_tid(int *pid)
{
	if (sg.tracer) {
		if (pid)
			*pid = traced.pid;
		return traced.tid;
	}
	if (pid)
		*pid = (int)sg_sc0(SG_NR_getpid);
	return (int)sg_sc0(SG_NR_gettid);
}

int sysgate_signal_where(long *ret)
{
	struct sg_thread *t;

	/* (-m ptrace reports a signal at its delivery stop, after the
	 * exit stop of any call it cut short) */
	if (sg.tracer)
		return traced.ended ? SYSGATE_SIG_ENDED : SYSGATE_SIG_OUTSIDE;
	if (!(t = sg_self()))
		return SYSGATE_SIG_OUTSIDE;
	if (ret)
		*ret = t->sig_ret;
	return t->sig_where;
}

unsigned long sysgate_signal_pc(void)
{
	struct sg_thread *t;

	if (sg.tracer || !(t = sg_self()))
		return 0;
	return t->sig_pc;
}

int sysgate_signal_fatal(int sig)
{
	struct sg_rlimit_ {
		unsigned long cur, max;
	} core;
	char pattern[2] = "";
	long fd;

	if (sg.tracer)
		return traced.fatal;
	if (sig < 1 || sig >= SG_NSIG || sig == SIGKILL_)
		return sig == SIGKILL_;
	if (acts_of(sg_self())[sig].handler != SIG_DFL_ || !sg_default_kills(sig))
		return 0;
	if (sg_default_kills(sig) < 2 ||
	    sg_sc5(SG_NR_prctl, 3 /* PR_GET_DUMPABLE */, 0, 0, 0, 0) <= 0 ||
	    sg_sc4(SG_NR_prlimit64, 0, 4 /* RLIMIT_CORE */, 0,
		   (long)&core) < 0)
		return 1;
	/* A core piped to a helper is written whatever the limit (but 1). */
	fd = sg_sc4(SG_NR_openat, -100, (long)"/proc/sys/kernel/core_pattern",
		    0, 0);
	if (fd >= 0) {
		if (sg_sc3(SG_NR_read, fd, (long)pattern, 1) != 1)
			pattern[0] = 0;
		sg_sc1(SG_NR_close, fd);
	}
	if (pattern[0] == '|')
		return core.cur != 1 ? 2 : 1;
	return core.cur ? 2 : 1;
}
