/* SPDX-License-Identifier: MIT */
/*
 * Syscall user dispatch (Linux 5.11+) as the catch-all behind the patch
 * mechanism: once code exists that no patch covers (anonymous executable
 * memory from a JIT, or sites without unwind info), every thread gets
 * PR_SET_SYSCALL_USER_DISPATCH with sysgate's own text as the allowed
 * range.  Patched sites enter sysgate and make their calls from that
 * text, so they never trap; a `syscall` anywhere else raises SIGSYS,
 * which runs the call through the hook chain and writes the result back.
 * It stays off until needed, and goes off again when nothing is left
 * for it to catch (mechanisms/patch/watch.c): when on, every system call
 * pays the kernel's selector check.
 *
 * The selector byte lives in each thread's state and stays BLOCK, except
 * around the raw clone/vfork that a stub makes itself (entry.S, then
 * sg_after_raw).  New threads are armed in sg_raw_child_setup, threads
 * that existed before on their next call into sysgate.
 *
 * The same SIGSYS handler serves -m seccomp (mechanisms/seccomp), whose
 * filter traps the calls instead.
 */
#include "sg.h"
#include "dispatch.h"
#include "signal_arch.h"
#include "mech.h"
#include "traps.h"

#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#define SI_TKILL_ -6
#define O_DIRECTORY_CLOEXEC 02200000
#define SYS_USER_DISPATCH 2		/* si_code of its SIGSYS */
#define SYS_SECCOMP 1			/* si_code of a filter's SIGSYS */
#define SIGSYS_ 31
#define SIGTRAP_ 5

void sg_sud_arm(struct sg_thread *t)
{
	t->sud_selector = SG_SUD_BLOCK;
	if (!t->sud_armed && !sg_attach_detached() &&
	    sg_sc5(SG_NR_prctl, PR_SET_SYSCALL_USER_DISPATCH,
		   PR_SYS_DISPATCH_ON, sg.self_text_lo,
		   sg.self_text_hi - sg.self_text_lo,
		   (long)&t->sud_selector) == 0)
		t->sud_armed = 1;
}

/*
 * A new thread or child: the kernel did not carry SUD into it, so arm it
 * before its first call from outside a patched site.  Its mask may still
 * block SIGSYS (blocked by its creator before SUD was on, e.g. all
 * signals around pthread_create's clone); a SUD trap while SIGSYS is
 * blocked kills the process, and sysgate keeps the signals it claims
 * deliverable anyway.
 */
void sg_sud_arm_new(struct sg_thread *t)
{
	unsigned long sigsys = 1UL << (SIGSYS_ - 1);

	t->sud_armed = 0;	/* (a copied or reused state may say so) */
	sg_sc4(SG_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&sigsys, 0, 8);
	sg_sud_arm(t);
}

/*
 * While a thread's hook callbacks run (t->depth), the calls they make go
 * to the kernel anyway (core/dispatch.c), but for the few the core must
 * see (depth_call: signal actions and masks, forks).  A library a hook
 * uses, such as libcephfs, would pay a SIGSYS for each of its calls from
 * code no patch covers: they go through untrapped, clones included, so a
 * thread made meanwhile would be one sysgate never saw: the mark the new
 * thread inherits (sg_thread_hooks_mark) makes it a hook's own when it
 * first enters sysgate (sg_thread_current), and a fork is told by
 * sg.unforked when the callbacks end.  A signal action set there goes to
 * the kernel unseen (doc/status.md).  Where no mark exists, or no fork
 * can be told, calls stay trapped.  (Trapping a callback's first calls
 * too, so the core saw them, left a program exec'd under --fs on CephFS
 * killed by SIGTRAP: c552f57.)
 */
/* A window was open: a hook's library may have made threads unseen. */
static int windows_opened;

void sg_sud_window_open(struct sg_thread *t)
{
	if (!t->sud_armed || !sg_thread_hooks_markable() || !sg.unforked)
		return;
	if (!windows_opened)
		__atomic_store_n(&windows_opened, 1, __ATOMIC_SEQ_CST);
	sg_thread_hooks_mark(t, 1);
	t->sud_selector = SG_SUD_ALLOW;
	t->window = 1;
}

/*
 * After the callbacks (t->depth is 0 again); also blocks again after a
 * raw clone made inside them, and arms a thread SUD met there.  A fork
 * made in the window from code no patch covers went to the kernel
 * unseen, and the child goes on with the program: it is set up here, as
 * core/dispatch.c's depth_call does for one it sees (its callbacks ran
 * with the parent's ids until now).
 */
void sg_sud_window_close(struct sg_thread *t)
{
	if (t->window) {
		t->window = 0;
		sg_thread_hooks_mark(t, 0);
		if (unlikely(!*sg.unforked))
			sg_process_forked(t);
	}
	if (sg.sud_on)
		sg_sud_check(t);
}

/* The page behind sg.unforked; without MADV_WIPEONFORK (Linux 4.14) no
 * window opens: calls from callbacks then trap, which sees every fork. */
static void unforked_map(void)
{
	volatile int *p;

	if (sg.unforked)
		return;
	p = sg_mmap(4096);
	if (!p)
		return;
	if (sg_sc3(SG_NR_madvise, (long)p, 4096, 18 /* MADV_WIPEONFORK */)) {
		sg_munmap((void *)p, 4096);
		return;
	}
	*p = 1;
	sg.unforked = p;
}

void sg_sud_disarm(struct sg_thread *t)
{
	if (t->sud_armed)
		sg_sc5(SG_NR_prctl, PR_SET_SYSCALL_USER_DISPATCH,
		       PR_SYS_DISPATCH_OFF, 0, 0, 0);
	t->sud_armed = 0;
}

/*
 * sg_sud_enable's requests to the other threads, and their answers: the
 * round in the high half of `asks`, answers to it in the low, and who
 * answered in `answered`.  A thread answers a round once, by its SIGSYS
 * or, when it waits inside sysgate with every signal blocked (a patch
 * lock's spin, while the enabler holds that lock), by itself; the
 * enabler also stops waiting for one that has exited meanwhile.  Either
 * used to leave it waiting its whole two seconds (tests/behave/jit-churn
 * under --eager, at many re-enables).
 */
#define ASKED_MAX 256
static unsigned long asks;
static unsigned long answered[ASKED_MAX];	/* round << 32 | tid */

static void answer(struct sg_thread *t)
{
	unsigned long a = __atomic_load_n(&asks, __ATOMIC_ACQUIRE);
	int tid = t ? t->tid : (int)sg_sc0(SG_NR_gettid);

	sg_sud_check(t);
	if (t && t->sud_round == (unsigned int)(a >> 32))
		return;
	if (t)
		t->sud_round = a >> 32;
	do
		if (t && t->sud_round != (unsigned int)(a >> 32))
			return;	/* (a newer round: its request comes too) */
	while (!__atomic_compare_exchange_n(&asks, &a, a + 1, 1,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if ((unsigned int)a < ASKED_MAX)
		__atomic_store_n(&answered[(unsigned int)a],
				 (a >> 32 << 32) | (unsigned int)tid,
				 __ATOMIC_RELEASE);
}

void sg_sud_answer(struct sg_thread *t)
{
	if (__atomic_load_n(&sg.sud_on, __ATOMIC_ACQUIRE))
		answer(t);
}

/* Said once, by whichever mechanism meets one first. */
void sg_warn_compat(void)
{
	static int said;

	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		sg_warn("32-bit system calls (int $0x80, sysenter) in this "
			"64-bit program are not hooked: they run as they are");
}

/* SIGTRAP where no mechanism claims it: single steps (core/traps.c). */
static int on_step(int sig, struct sg_siginfo *info, void *uc)
{
	(void)sig;
	return info->si_code == SG_STEP_SI_CODE && sg_step_trap(uc, 0);
}

/*
 * The kernel's uretprobe return trampoline (perf's or bpftrace's
 * uretprobe:) ends in a call that only its own page may make: made from
 * sysgate's text, it ended the program by SIGILL.  It runs where it is,
 * the selector open; the trap flag brings the thread back one instruction
 * later (the kernel gives no trap for the call itself), where it blocks
 * again (core/traps.c).  A program that steps itself already gets that
 * trap: the selector stays open until sysgate's next entry, as for a raw
 * call let through (below).
 */
static void uretprobe_through(void *uc, long nr)
{
	struct sg_thread *t = sg_self();

	if (t) {
		t->sud_selector = SG_SUD_ALLOW;
		if (!sg_signal_claimed(SIGTRAP_))
			sg_signal_claim(SIGTRAP_, on_step);
		if (sg_signal_claimed(SIGTRAP_) && sg_arch_uc_step_on(uc))
			t->step_reblock = 1;
	}
	sg_arch_uc_restart_syscall(uc, nr);
}

/* Calls whose site is told to the mechanism before they run (below). */
static int told_before(long nr)
{
	return nr == SG_NR_rt_sigreturn || sg_raw_only(nr) ||
	       nr == SG_NR_exit_group || nr == SG_NR_exit ||
	       nr == SG_NR_execve || nr == SG_NR_execveat;
}

static int on_sigsys(int sig, struct sg_siginfo *info, void *uc)
{
	long nr = (int)info->fields[1], args[6], r;
	unsigned long mask, handlers, trap_sp;
	int before, dispatch = info->si_code == SYS_USER_DISPATCH;
	const void *pc;
	struct sg_thread *t;

	(void)sig;
	if (info->si_code == SI_TKILL_ && (int)info->fields[0] == sg.pid) {
		/* sg_sud_enable or sg_sud_disable asks every thread to
		 * follow sg.sud_on (whichever came last). */
		t = sg_self();
		t = t ? t : sg_thread_current();
		if (__atomic_load_n(&sg.sud_on, __ATOMIC_ACQUIRE)) {
			answer(t);
		} else if (t) {
			sg_sud_disarm(t);
		}
		return 1;
	}
	if (info->si_code == SYS_SECCOMP &&
	    (unsigned int)info->si_errno == SG_STRICT_COOKIE) {
		/* strict mode's end: SIGKILL, as the kernel gives it */
		sg_sc2(SG_NR_kill, sg_sc0(SG_NR_getpid), 9);
		return 1;
	}
	if ((info->si_code != SYS_SECCOMP ||
	     (unsigned int)info->si_errno != SG_SECCOMP_COOKIE) &&
	    info->si_code != SYS_USER_DISPATCH)
		return 0;
	if ((unsigned int)(info->fields[1] >> 32) != SG_AUDIT_ARCH) {
		/* (si_arch) A 32-bit call: its numbers and registers are
		 * not the ones hooks speak. */
		sg_warn_compat();
		if (sg_arch_uc_compat_call(uc, nr) < 0)
			sg_arch_uc_set_result(uc, -38);	/* ENOSYS */
		return 1;
	}
	sg_arch_uc_syscall_args(uc, args);
	pc = (void *)(*sg_arch_uc_pc(uc) - SG_SYSCALL_INSN_LEN);
	if (nr == SG_ARCH_NR_URETPROBE && info->si_code == SYS_USER_DISPATCH) {
		uretprobe_through(uc, nr);
		return 1;
	}
	/* The program's own dispatch takes it: this frame is the one the
	 * kernel would give it (core/psud.c), the signal the program's. */
	if (unlikely(sg.prog_sud) &&
	    sg_psud_takes(sg_self(), *sg_arch_uc_pc(uc))) {
		sg_psud_siginfo(info, *sg_arch_uc_pc(uc), nr);
		return SG_CLAIM_AS;
	}
	/* A call caught: the mechanism may patch its site now, and its next
	 * calls need not trap (told after the call, below).  These run from
	 * sysgate's text once this handler returns (or, a fork, in it), or
	 * do not come back here (exit_group, a working execve): theirs is
	 * told first, and a fork's child starts with it patched (a shell's
	 * fork and a signal handler's return trapped at every call). */
	__atomic_add_fetch(&sg.sigsys_calls, 1, __ATOMIC_RELAXED);
	before = told_before(nr);
	if (before && dispatch)
		sg_mech_trapped((unsigned long)pc);
	if (nr == SG_NR_rt_sigreturn) {
		/* Hooks see it, then it is made again from sysgate's text
		 * (never trapped) at the program's stack pointer, which is
		 * where its signal frame is, once this handler returns. */
		sg_dispatch_sigreturn(sg_arch_sigreturn_uc(sg_arch_uc_sp(uc)),
				      pc);
		*sg_arch_uc_pc(uc) = sg_arch_restorer();
		return 1;
	}
	if (sg_raw_only(nr)) {
		/* SUD only (the filter lets these through): clone and vfork
		 * must run at the program's own stack, made from sysgate's
		 * text there; where that cannot be, let this one through
		 * and the next entry into sysgate blocks again. */
		if (sg_dispatch_raw(nr, args, pc, uc))
			return 1;
		t = sg_self();
		if (t)
			t->sud_selector = SG_SUD_ALLOW;
		sg_arch_uc_restart_syscall(uc, nr);
		return 1;
	}
	t = sg_self();
	handlers = t ? t->handlers_run : 0;
	/* (where the program's own handlers and sigaltstack would be,
	 * while this one runs on a signal stack) */
	trap_sp = t ? t->trap_sp : 0;
	if (t)
		t->trap_sp = sg_arch_uc_stack_top(uc);
	r = sg_dispatch_call(nr, args, pc);
	if (t)
		t->trap_sp = trap_sp;
	sg_arch_uc_set_result(uc, r);
	/* The call ran inside this handler, whose mask is the interrupted
	 * code's (SIGSYS is SA_NODEFER, with no mask of its own unless the
	 * program gave it one); returning puts uc_sigmask back, so a mask
	 * the call changed, or that a program handler run by a signal the
	 * call raised left for its return, must be written there or it
	 * would be undone (after EFAULT too: a bad pointer for the old
	 * mask fails once the new one is set). */
	if (((nr == SG_NR_rt_sigprocmask && (r == 0 || r == -14)) ||
	     (t && t->handlers_run != handlers)) &&
	    sg_sc4(SG_NR_rt_sigprocmask, 0, 0, (long)&mask, 8) == 0)
		*sg_arch_uc_sigmask(uc) = mask;
	/* The same for the signal stack, which the return puts back from
	 * uc_stack: a thread's new sigaltstack (Go sets one in each) would
	 * be gone, and the next signal would find none. */
	if (nr == SG_NR_sigaltstack && r == 0 && args[0] && t &&
	    !t->own_alt_len)
		sg_sc2(SG_NR_sigaltstack, 0, (long)sg_arch_uc_stack(uc));
	/* Its next calls need not trap: the mechanism may patch it now. */
	if (dispatch && !before)
		sg_mech_trapped((unsigned long)pc);
	return 1;
}

/* Ask every other thread to follow sg.sud_on; how many were asked, the
 * first ASKED_MAX of them in tids (if given). */
static int signal_other_threads(int self, int *tids)
{
	char buf[4096];
	long fd, n;
	int sent = 0;

	/* None yet: the first is announced before it runs, and reads
	 * sg.sud_on as it starts; but sysgate -p finds threads it never
	 * saw made, and a hook's library may make some in a window.
	 * Reading /proc/self/task costs more than the rest of the switch
	 * (at start-up, every process). */
	if (!__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&windows_opened, __ATOMIC_SEQ_CST) &&
	    !sg_attach_starting())
		return 0;
	fd = sg_sc4(SG_NR_openat, -100, (long)"/proc/self/task",
		    O_DIRECTORY_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	while ((n = sg_sc3(SG_NR_getdents64, fd, (long)buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < n) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			const char *name = buf + off + 19;
			int tid = 0;

			while (*name >= '0' && *name <= '9')
				tid = tid * 10 + *name++ - '0';
			if (tid && tid != self &&
			    sg_sc3(SG_NR_tgkill, sg.pid, tid, SIGSYS_) == 0) {
				if (tids && sent < ASKED_MAX)
					tids[sent] = tid;
				sent++;
			}
			off += reclen;
		}
	}
	sg_sc1(SG_NR_close, fd);
	return sent;
}

/* Of the threads asked in this round (the first ASKED_MAX), how many
 * neither answered it nor have exited? */
static int unanswered(unsigned long round, const int *tids, int sent,
		      unsigned int got)
{
	int i, left = 0;
	unsigned int k;

	for (i = 0; i < sent && i < ASKED_MAX; i++) {
		for (k = 0; k < got && k < ASKED_MAX; k++)
			if (__atomic_load_n(&answered[k], __ATOMIC_ACQUIRE) ==
			    (round << 32 | (unsigned int)tids[i]))
				break;
		if (k == got &&
		    sg_sc3(SG_NR_tgkill, sg.pid, tids[i], 0) != -3 /* ESRCH */)
			left++;
	}
	return left + (sent > ASKED_MAX ? sent - ASKED_MAX : 0);
}

/* Ask every other thread to arm itself; wait a little for the answers
 * (a thread that has blocked every signal arms on its next entry). */
static void arm_other_threads(struct sg_thread *t, int self)
{
	unsigned long a = __atomic_load_n(&asks, __ATOMIC_ACQUIRE),
		      round = (unsigned int)((a >> 32) + 1);
	unsigned long long deadline;
	int tids[ASKED_MAX], sent, tries = 0;

	if (t)
		t->sud_round = round;	/* (not asked) */
	__atomic_store_n(&asks, round << 32, __ATOMIC_RELEASE);
	sent = signal_other_threads(self, tids);

	/* sysgate -p: the others are stopped, and answer once let go. */
	if (sg_attach_starting())
		return;
	/* Up to two seconds: a loaded machine may take a while to run
	 * every handler; a thread that never answers arms on its next
	 * entry into sysgate.  (A newer round, another enabler's, waits
	 * for everyone itself.) */
	deadline = sysgate_now_ns() + 2000000000ULL;
	while ((a = __atomic_load_n(&asks, __ATOMIC_ACQUIRE)) >> 32 == round &&
	       (unsigned int)a < (unsigned int)sent &&
	       sysgate_now_ns() < deadline) {
		/* (every so often: one may have exited instead) */
		if (++tries % 16 == 0 &&
		    !unanswered(round, tids, sent, (unsigned int)a))
			return;
		sg_sc0(SG_NR_sched_yield);
	}
}

int sg_sigsys_claim(void)
{
	return sg_signal_claim(SIGSYS_, on_sigsys);
}

void sg_sud_enable(void)
{
	struct sg_thread *t;

	/* Under -m seccomp the filter already catches every call.  Once
	 * -p let go, a thread still in the runtime (a lazy patch's end) must
	 * not: the SIGSYS it sends the others now meets the program's action,
	 * by default death. */
	if (sg.sud_on || sg.seccomp_on || !sg.self_text_hi ||
	    sg_attach_detached())
		return;
	if (sg_sigsys_claim() < 0)
		return;
	__atomic_store_n(&sg.sud_on, 1, __ATOMIC_RELEASE);
	sg_signal_refresh();
	t = sg_self();
	if (t)
		sg_sud_arm(t);
	if (t && !t->sud_armed) {
		/* No SUD here (kernel, ISA or emulator): say so, not more. */
		__atomic_store_n(&sg.sud_on, 0, __ATOMIC_RELEASE);
		sg_signal_refresh();
		return;
	}
	sg.sud_ons++;
	unforked_map();
	arm_other_threads(t, t ? t->tid : (int)sg_sc0(SG_NR_gettid));
}

/*
 * The caller (the patch mechanism, under its locks) found nothing left
 * that SUD must catch.  Other threads disarm when their signal comes; a
 * thread still armed meanwhile is only slower (its traps are handled as
 * before), and sg_sud_enable may turn it on again at any time.  Signal
 * actions keep sysgate's restorer: it is right either way.
 */
void sg_sud_disable(void)
{
	struct sg_thread *t = sg_self();

	if (!__atomic_load_n(&sg.sud_on, __ATOMIC_ACQUIRE) ||
	    sg_attach_detached())
		return;
	__atomic_store_n(&sg.sud_on, 0, __ATOMIC_RELEASE);
	sg.sud_offs++;
	if (t)
		sg_sud_disarm(t);
	signal_other_threads(t ? t->tid : (int)sg_sc0(SG_NR_gettid), 0);
}
