/* SPDX-License-Identifier: MIT */
/*
 * Internal definitions shared by the core, the mechanisms and the arch
 * layer.  Nothing here is public: the public API is include/sysgate.h.
 *
 * Rules for every file that includes this one (the library's runtime):
 *  - no libc calls after start-up; reach the kernel with the sg_sc*()
 *    raw syscalls from syscall_arch.h, which are never hooked;
 *  - no locks on the system call path; per-thread state comes from
 *    sg_self(), process state from sg (one global, written only at start-up,
 *    in a fork child, or with atomics);
 *  - no vector or FPU registers (compiled with -mgeneral-regs-only), so
 *    entering the core costs no FPU save.
 */
#ifndef SG_H
#define SG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sysgate.h"
#include "syscall_arch.h"
#include "syscalls.h"

#define SG_HIDDEN __attribute__((visibility("hidden")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define SG_MAX_HOOKS 16
#define SG_BITS_PER_LONG (8 * sizeof(unsigned long))
#define SG_SEL_WORDS (SYSGATE_NR_MAX / SG_BITS_PER_LONG)

static inline int sg_bit(const unsigned long *map, unsigned long nr)
{
	return (map[nr / SG_BITS_PER_LONG] >> (nr % SG_BITS_PER_LONG)) & 1;
}

static inline void sg_set_bit(unsigned long *map, unsigned long nr)
{
	map[nr / SG_BITS_PER_LONG] |= 1UL << (nr % SG_BITS_PER_LONG);
}

static inline void sg_clear_bit(unsigned long *map, unsigned long nr)
{
	map[nr / SG_BITS_PER_LONG] &= ~(1UL << (nr % SG_BITS_PER_LONG));
}

/* Kernel's siginfo is 128 bytes on every Linux arch. */
struct sg_siginfo {
	int si_signo, si_errno, si_code, pad;
	unsigned long fields[14];
};

/* An alternate signal stack, as sigaltstack and a ucontext's uc_stack
 * hold it (every 64-bit Linux). */
struct sg_stack {
	unsigned long ss_sp;
	int ss_flags;
	unsigned long ss_size;
};

/* clone/clone3/vfork calls of a thread in flight at once, a signal
 * handler's inside another's, whose records the thread keeps */
#define SG_RAW_RECS 4

/* Per-thread state, reached through the arch's thread register. */
struct sg_thread {
	struct sg_thread *self;		/* first: arch code loads it */
	unsigned long owner;		/* thread pointer (TLS base) of the
					   thread this state belongs to */
	unsigned long sud_selector;	/* syscall user dispatch selector
					   (the kernel reads its first byte) */
	int sud_armed;
	int hook_own;			/* made by a hook callback's library
					   (SG_RAW_HOOKTHREAD): never trapped */
	unsigned long depth;		/* > 0 while hook callbacks run */
	unsigned long hook_sp;		/* top of the hook stack, 0 if none */
	void *hook_stack;		/* mapping incl. guard page */
	unsigned long hook_stack_len;
	void *fpu_area;			/* xsave area inside the hook stack */
	int tid;
	int pid;			/* per thread: a vfork child shares sg */
	int hooks_off;			/* unfollowed child: no callbacks */
	int vfork_child;		/* this state serves a vfork child */
	char *exec_buf;			/* scratch for execve's new envp */
	unsigned long exec_buf_len;
	struct sg_thread *vfork_spare;	/* state handed to vfork children */
	unsigned long claimed_blocked;	/* sysgate's signals the program
					 * blocked (the kernel's mask keeps
					 * them deliverable) */
	unsigned long vfork_info;	/* a vfork in flight: its RAW info word
					 * (the child may overwrite the copy
					 * below the shared stack) */
	unsigned long vfork_next;	/* and its way back, for one a signal
					   caught (sg_dispatch_raw) */
	struct sg_thread *vfork_parent;	/* in a vfork child's state: whose
					   thread register it shares */
	unsigned long hook_tp;		/* loader mode: thread pointer of
					   sysgate's TLS while hooks run */
	void *hook_tls;			/* its block, if this state owns it */
	unsigned long hook_tls_len;
	unsigned long long pending;	/* signals held back while in a hook */
	struct sg_siginfo pending_info[64];
	struct sg_kact *acts;		/* the program's signal actions as this
					 * thread's process sees them; 0: the
					 * first process's (core/signal.c) */
	int acts_own;			/* acts is this state's own mapping */
	unsigned long handlers_run;	/* program handlers sysgate called */
	unsigned long alt_lo, alt_hi;	/* the program's alternate signal
					 * stack as its last signal saw it,
					 * 0 if none or self-disarming */
	unsigned long unmap_lo, unmap_len; /* its own stack, which it
					 * unmapped: unmapped at its exit */
	int traceme;			/* PTRACE_TRACEME deferred to the next
					   call (core/tracer.c) */
	int in_call;			/* the program's hooked call is with
					 * the kernel (or just back) */
	int sig_where;			/* for sysgate_signal_where() */
	long sig_ret;
	int window;			/* callbacks' calls untrapped now
					 * (core/sud.c) */
	/* sysgate's own alternate signal stack (core/signal.c), mapping
	 * incl. guard page; 0 if the kernel holds the program's */
	unsigned long own_alt, own_alt_len;
	struct sg_stack prog_alt;	/* the program's, as it set it
					 * (where own_alt is set) */
	unsigned long trap_sp;		/* a trapped call's program stack
					 * (below any red zone), while a
					 * signal handler makes it */
	/* the records of clone, clone3 and vfork calls between their
	 * enter and exit sides, those whose bit is set (core/dispatch.c) */
	struct sysgate_sys raw_rec[SG_RAW_RECS];
	unsigned int raw_rec_busy;
	int patch_locks;		/* mechanisms/patch/lock.c's held */
	unsigned int sud_round;		/* the last request to arm it answered
					   (core/sud.c) */
	int stepping;			/* the program's trap flag, taken off
					   in sysgate (core/traps.c) */
	int step_reblock;		/* the trap flag set to block SUD again
					   one instruction on (core/sud.c) */
	/* the program's own syscall user dispatch (core/psud.c): on, the
	 * range always allowed (as the kernel keeps it), the selector; and
	 * where the call a breakpoint stands for returns (sg_arch_psud_trap) */
	int psud_on;
	unsigned long psud_off, psud_len, psud_sel;
	unsigned long psud_next;
	int out_own;			/* -ff, a vfork child: its own output
					   file (0: not opened yet) */
	unsigned long *mask_fix;	/* rt_sigprocmask's old mask, which
					   gets mask_fix_bits once the kernel
					   wrote it (core/signal.c) */
	unsigned long mask_fix_bits;
	unsigned long sig_pc;		/* for sysgate_signal_pc() */
};

/* Is sp on the thread's own alternate signal stack? */
static inline int sg_on_own_alt(const struct sg_thread *t, unsigned long sp)
{
	return sp - t->own_alt < t->own_alt_len;
}

/* A hook loaded into the chain (struct sysgate_ctx of the public API). */
struct sysgate_ctx {
	const struct sysgate_hook *hook;
	void *data;
	unsigned long sel[SG_SEL_WORDS];
	const char *args;
	char error[160];
	int builtin;
	int only_checks;		/* sysgate_init_only_checks() */
	char env_name[40];		/* NAME in SYSGATE_CARRY_NAME */
	void *carry;			/* sysgate_exec_carry() data */
	unsigned long carry_len;
	void *carried;			/* what the previous program carried */
	unsigned long carried_len;
	int program_tls;		/* linked to the program's libc (-p):
					   runs on the program's thread
					   pointer, whatever its flags say */
	int nofpu;			/* SYSGATE_HOOK_NOFPU, or enter() and
					   exit() shown to touch no FPU state
					   (hooks.c) */
};

struct sg_options;

/* Process-wide state. */
struct sg_global {
	int pid;
	int nhooks;
	struct sysgate_ctx *hooks[SG_MAX_HOOKS];
	unsigned long any[SG_SEL_WORDS];	/* union of hook selections */
	unsigned long core[SG_SEL_WORDS];	/* calls the core itself handles */
	unsigned long wanted[SG_SEL_WORDS];	/* any | core: what to patch */
	int need_fpu;			/* some hook lacks SYSGATE_HOOK_NOFPU */
	unsigned long fpu_sel[SG_SEL_WORDS];	/* calls such a hook selects */
	unsigned long tls_sel[SG_SEL_WORDS];	/* calls a hook without
						   SYSGATE_HOOK_NOTLS selects */
	unsigned long timed_sel[SG_SEL_WORDS];	/* calls a SYSGATE_HOOK_TIMED
						   hook selects */
	unsigned long exit_sel[SG_SEL_WORDS];	/* calls a hook with an exit
						   callback selects */
	unsigned long lean_sel[SG_SEL_WORDS];	/* calls for dispatch.c's
						   lean path (hooks.c) */
	unsigned long lean_fpu_sel[SG_SEL_WORDS];	/* the same, where the
						   hook lacks NOFPU */
	unsigned char lean_hook[SYSGATE_NR_MAX];	/* the one hook that
						   selects such a call */
	int follow;			/* -f */
	int follow_files;		/* -ff */
	int is_root;			/* first process of the hooked tree */
	int out_fd;			/* trace output, protected */
	int state_fd;			/* shared state (memfd), protected */
	int fd_below;			/* one of them below the program's
					   limit: calls naming it get EBADF */
	int stats;			/* --stats */
	int initialised;
	int cli;			/* started by the sysgate CLI */
	int live_threads;
	int vm_shared;			/* a thread (or CLONE_VM child that is
					   no vfork) may run beside this one:
					   code is patched one store at a time */
	int hook_threads;		/* a hook's library made threads
					   (sg_hook_thread_seen): no code is
					   patched from then on */
	int handlers_running;		/* program signal handlers not yet
					   returned (one left by longjmp
					   counts for good): the code they
					   interrupted may be inside any
					   site's bytes */
	int fini_done;
	const struct sg_options *opts;
	const char *self_path;		/* path of libsysgate.so */
	unsigned long self_lo, self_hi;	/* our own text, never patched */
	unsigned long self_text_lo, self_text_hi;	/* its executable part */
	int sud_on;			/* unpatched code is caught by SUD */
	int prog_sud;			/* a thread set syscall user dispatch
					   of its own (core/psud.c); read
					   with sud_on as one word by entry.S */
	unsigned int prog_membarrier;	/* the program's own membarrier
					   registrations (core/process.c) */
	unsigned long ticked_sel[SG_SEL_WORDS];	/* calls a SYSGATE_HOOK_TICKED
						   hook selects (counter usable) */
	int sud_ons, sud_offs;		/* times turned on, and off again */
	/* 1 in a page the kernel zeroes in a fork child (MADV_WIPEONFORK):
	 * tells a fork sysgate did not see (core/sud.c's window) */
	volatile int *unforked;
	unsigned long sigsys_calls;	/* calls run from the SIGSYS handler */
	int seccomp_on;			/* -m seccomp: every call from outside
					   our text traps (SIGSYS) */
	int seccomp_inherited;		/* SYSGATE_SECCOMP: the filter came
					   through execve */
	int passive;			/* an unfollowed program under -m
					   seccomp: no hooks, calls passed on */
	int loader;			/* started by sysgate-loader */
	const char *exe_path;		/* loader: the program it runs, which
					   /proc/self/exe does not name */
	const char *loader_file;	/* loader: its own path */
	int exe_set;			/* loader: the kernel's
					   /proc/self/exe is the program */
	int tracer_at_start;		/* loader: 0 unknown, 1 no tracer at
					   start (TracerPid), 2 one */
	unsigned long exec_sigign;	/* loader: the kernel's ignored
					   signals then, where tracer_at_start
					   came with them (SYSGATE_SIG) */
	int own_loader;			/* loader: that program has no
					   interpreter, so it maps any later
					   code itself */
	int tracer;			/* the CLI under -m ptrace: hooks see
					   another process's calls */
	unsigned long fpu_size;		/* xsave area size, 0 if no xsave */
	unsigned long long fpu_mask;
	struct {			/* loader mode: sysgate's PT_TLS */
		const void *init;
		unsigned long filesz, memsz, align;
	} tls;
	char *shared_base;		/* SYSGATE_STATE mapping */
	unsigned long shared_size;
	int observers;			/* a SYSGATE_HOOK_OBSERVES hook is
					   loaded (core/dispatch.c) */
};

extern struct sg_global sg SG_HIDDEN;

/* arch thread register: sg_self(), sg_set_self() */
#include "thread_arch.h"

/* core/thread.c */
struct sg_thread *sg_thread_new(int tid) SG_HIDDEN;
void sg_thread_free(struct sg_thread *t) SG_HIDDEN;
int sg_thread_hook_stack(struct sg_thread *t) SG_HIDDEN;
int sg_thread_hook_tls(struct sg_thread *t) SG_HIDDEN;
unsigned long sg_tls_block(void **block, unsigned long *block_len) SG_HIDDEN;
unsigned long sg_tls_start_static(const void *ehdr) SG_HIDDEN;
struct sg_thread *sg_thread_current(void) SG_HIDDEN;
/*
 * A thread a hook's library made (libcephfs's) runs the program's code
 * with a mask sysgate may never have seen: libcephfs's threads block
 * every signal, SIGTRAP too, and one that meets a live patch's
 * breakpoint (mechanisms/patch) with SIGTRAP blocked kills the process.
 * Made inside a callback, such a thread may also have run before
 * sysgate knew of it, while the process seemed alone.  So once one is
 * known, the sites that trap stay trapped (syscall user dispatch).
 */
void sg_hook_thread_seen(void) SG_HIDDEN;

/* core/dispatch.c (see also dispatch.h) */
struct sg_frame;
struct sg_call;
/* sg_fast[nr] (core/entry.h): the hook's enter(), data and exit(), or
 * zeros */
struct sg_fast {
	void *enter;
	void *data;
	void *exit;
	unsigned long fpu;	/* keep the FPU state around them */
};
extern struct sg_fast sg_fast[SYSGATE_NR_MAX] SG_HIDDEN;
int sg_fast_ran(struct sg_frame *f, struct sg_call *k,
		unsigned long nr) SG_HIDDEN;
void sg_fast_fpu(struct sg_thread *t, int restore) SG_HIDDEN;
int sg_syscall_entry(struct sg_frame *f, struct sg_call *k) SG_HIDDEN;
void sg_syscall_exit(struct sg_frame *f, struct sg_call *k) SG_HIDDEN;
void sg_after_raw(struct sg_frame *f, unsigned long info) SG_HIDDEN;
void sg_after_raw_at(struct sg_frame *f, unsigned long info,
		     const void *pc) SG_HIDDEN;
/* Run a system call through the hook chain from a non-stub mechanism
 * (signal handlers, preload wrappers).  Returns the result. */
long sg_dispatch_call(long nr, long args[6], const void *pc) SG_HIDDEN;
/* The same for a RAW call, redirecting the signal's context uc; 0 if the
 * caller must let it through instead. */
int sg_dispatch_raw(long nr, long args[6], const void *pc,
		    void *uc) SG_HIDDEN;
/* The rt_sigreturn that will restore the signal frame uc. */
void sg_dispatch_sigreturn(void *uc, const void *pc) SG_HIDDEN;
void sg_run_hooks(struct sg_thread *t, long (*fn)(void *),
		  void *arg) SG_HIDDEN;
/* The execve that started the first program, for the hooks to see. */
void sg_dispatch_started(long nr, const long args[6]) SG_HIDDEN;
void sg_sys_init(struct sysgate_sys *s, struct sg_thread *t, long nr,
		 const long args[6], const void *pc) SG_HIDDEN;
void sg_deliver_pending(struct sg_thread *t) SG_HIDDEN;
/* fn(a, b) on the stack whose top is sp (arch/<isa>/entry.S): fn is a
 * function of one or two pointer arguments, such as a hook's enter()
 * called with no wrapper between (the lean path, core/dispatch.c). */
long sg_on_stack_call(const void *fn, void *a, void *b,
		      unsigned long sp) SG_HIDDEN;
static inline long sg_on_stack(long (*fn)(void *), void *arg,
			       unsigned long sp)
{
	return sg_on_stack_call((const void *)fn, arg, 0, sp);
}

/* core/signal.c */
int sg_signal_init(void) SG_HIDDEN;
long sg_signal_rt_sigaction(long sig, const void *act, void *oact,
			    long size) SG_HIDDEN;
long sg_signal_rt_sigprocmask(struct sg_thread *t, long how,
			       const void *set, void *oset, long size) SG_HIDDEN;
/* Claim a signal for sysgate: fn sees it first and returns 1 if it was
 * sysgate's own (then the program never sees it). */
/* A claim's answer: 0 not sysgate's (the program's, as it came), 1
 * handled, SG_CLAIM_AS (in *info) the program's signal info->si_signo. */
#define SG_CLAIM_AS 2
typedef int (*sg_claim_fn)(int sig, struct sg_siginfo *info, void *uc);
void sg_signal_set_kernel_action(int sig, const struct sg_kact *k) SG_HIDDEN;

/* The program's own syscall user dispatch (core/psud.c). */
int sg_psud_prctl(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
void sg_psud_reset(struct sg_thread *t) SG_HIDDEN;
int sg_psud_takes(struct sg_thread *t, unsigned long next) SG_HIDDEN;
int sg_psud_entry(struct sg_thread *t, unsigned long next) SG_HIDDEN;
void sg_psud_siginfo(struct sg_siginfo *info, unsigned long next,
		     long nr) SG_HIDDEN;
int sg_psud_trap(struct sg_siginfo *info, void *uc) SG_HIDDEN;
int sg_signal_claim(int sig, sg_claim_fn fn) SG_HIDDEN;
int sg_signal_claimed(int sig) SG_HIDDEN;
/* The claimed signals this thread blocks: unblocked, blocked in its view. */
void sg_signal_unblock_claimed(struct sg_thread *t) SG_HIDDEN;
void sg_signal_refresh(void) SG_HIDDEN;
void sg_signal_detach(void) SG_HIDDEN;
/* A new thread or child that shares its creator's memory: its view of the
 * signal actions (shared, or its own copy where the kernel gave it its
 * own actions). */
void sg_signal_child(struct sg_thread *parent, struct sg_thread *t,
		     int own_actions) SG_HIDDEN;
void sg_signal_free(struct sg_thread *t) SG_HIDDEN;
/* Before hooks run on the hook stack: if the thread is on its alternate
 * signal stack, hold signals back in the kernel (1, old mask in *old)
 * until sg_signal_release. */
int sg_signal_hold_on_altstack(struct sg_thread *t, unsigned long *old) SG_HIDDEN;
void sg_signal_release(const unsigned long *old) SG_HIDDEN;
/* A call that carries a signal mask or set (sigsuspend, ppoll, pselect6,
 * epoll_pwait, signalfd, sigtimedwait): 1 if it had signals of sysgate's
 * in it, and w->args are s->args with a copy without them, for the
 * kernel (s->args stay the program's: hooks see them). */
struct sg_mask_swap {
	long args[6];
	unsigned long mask, pselect[2];
};
int sg_signal_swap_mask(const struct sysgate_sys *s,
			struct sg_mask_swap *w) SG_HIDDEN;
/* sigaltstack for the program. */
long sg_signal_sigaltstack(struct sg_thread *t, const void *ss,
			   void *oss) SG_HIDDEN;
/* Give the thread sysgate's own alternate signal stack (if it has none of
 * the program's); free it. */
void sg_signal_own_altstack(struct sg_thread *t) SG_HIDDEN;
void sg_signal_own_altstack_free(struct sg_thread *t) SG_HIDDEN;

/* core/sud.c: syscall user dispatch catches calls from code no patch
 * covers (JIT, unverified sites) once such code exists. */
/* prctl: is memory-deny-write-execute set (Linux 6.3+; EINVAL before) */
#define SG_PR_GET_MDWE 66

#define SG_SUD_ALLOW 0
#define SG_SUD_BLOCK 1
void sg_sud_enable(void) SG_HIDDEN;
/* Nothing is left for it to catch: off in every thread. */
void sg_sud_disable(void) SG_HIDDEN;
void sg_sud_arm(struct sg_thread *t) SG_HIDDEN;
void sg_sud_disarm(struct sg_thread *t) SG_HIDDEN;
/* The SIGSYS handler for both syscall user dispatch and -m seccomp; the
 * seccomp filter's SECCOMP_RET_DATA, which tells its SIGSYS apart. */
int sg_sigsys_claim(void) SG_HIDDEN;
#define SG_SECCOMP_COOKIE 0x5347U
/* The same for the filter that stands for a thread's strict mode
 * (mechanisms/seccomp/seccomp.c): the thread made a call it forbids. */
#define SG_STRICT_COOKIE 0x5348U
void sg_sud_arm_new(struct sg_thread *t) SG_HIDDEN;
/* Around a thread's hook callbacks: their calls go through untrapped. */
void sg_sud_window_open(struct sg_thread *t) SG_HIDDEN;
void sg_sud_window_close(struct sg_thread *t) SG_HIDDEN;
/* After any entry into sysgate: arm a thread that predates SUD, block
 * again after a let-through (not while its callbacks run: see
 * sg_sud_window_open). */
static inline void sg_sud_check(struct sg_thread *t)
{
	if (t && !t->hook_own && !t->depth &&
	    (!t->sud_armed || t->sud_selector != SG_SUD_BLOCK))
		sg_sud_arm(t);
}

/* A thread that waits inside sysgate with every signal blocked: arm it
 * now if sg_sud_enable asked (its SIGSYS would come too late). */
void sg_sud_answer(struct sg_thread *t) SG_HIDDEN;

/* core/dispatch.c, for the ptrace mechanism (another process's calls) */
void sg_sys_init_traced(struct sysgate_sys *s, int pid, int tid, long nr,
			const long args[6], const void *pc) SG_HIDDEN;
int sg_chain_enter_traced(struct sysgate_sys *s, int *ran) SG_HIDDEN;
int sg_chain_exit_traced(struct sysgate_sys *s, int ran) SG_HIDDEN;
/* -m ptrace (tools/sysgate/ptrace.c): the traced task hooks run for, a
 * signal it is given, a new task (thread_start callbacks) */
void sg_tracer_task(int pid, int tid) SG_HIDDEN;
void sg_signal_traced(int pid, int tid, const void *siginfo, int fatal,
		      int ended) SG_HIDDEN;
void sg_thread_start_traced(int pid, int tid) SG_HIDDEN;
int sg_default_kills(int sig) SG_HIDDEN;

/* core/init.c: start sysgate in this process, with the mechanisms and
 * built-in hooks the library was composed of (lib/registry.c). */
struct sg_registry;
void sg_init(const struct sg_registry *r) SG_HIDDEN;

/* core/hooks.c */
struct sysgate_ctx *sg_hooks_new(const struct sysgate_hook *h,
				 const char *args, int builtin) SG_HIDDEN;
int sg_hooks_init(struct sysgate_ctx *c) SG_HIDDEN;
void sg_hooks_recompute(void) SG_HIDDEN;
void sg_hooks_core_set(void) SG_HIDDEN;

/* core/attach.c (sysgate -p): does a stopped thread have an address
 * strictly inside [lo, hi)?  And a note of code about to be rewritten,
 * so that detaching can put it back (-1: detached, do not write). */
int sg_attach_busy(unsigned long lo, unsigned long hi) SG_HIDDEN;
int sg_attach_starting(void) SG_HIDDEN;
/* Attached by sysgate -p: an execve is not followed (the new program
 * could not be detached again: it runs natively). */
int sg_attach_active(void) SG_HIDDEN;
/* sysgate -p has let go of this process (core/attach.c): a thread still
 * inside the runtime finishes its call, and nothing may arm syscall user
 * dispatch or signal the other threads any more. */
int sg_attach_detached(void) SG_HIDDEN;
int sg_attach_note(unsigned long addr, const void *bytes,
		   unsigned long len) SG_HIDDEN;
void sg_hooks_exec(struct sg_thread *t, const char *path) SG_HIDDEN;

/* core/process.c: the calls the core itself handles */
void sg_core_call(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
/* The call in s made as it is (results in s->ret, s->ret2), hooks aside. */
long sg_raw_call(struct sysgate_sys *s) SG_HIDDEN;

/* core/tracer.c: sysgate in a ptracer and in its tracees */
int sg_tracer_ptrace(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
void sg_tracer_traceme_now(struct sg_thread *t) SG_HIDDEN;
void sg_tracer_wait(struct sg_thread *t, struct sysgate_sys *s) SG_HIDDEN;
void sg_tracer_outside(void) SG_HIDDEN;
void sg_tracer_loader_ready(void) SG_HIDDEN;

/* core/mem.c: program memory, -EFAULT instead of a crash */
long sg_read_safe(void *dst, const void *src, size_t len) SG_HIDDEN;
/* At start-up: SIGSEGV and SIGBUS claimed for copies of this process's
 * memory that turn a fault into EFAULT (core/mem.c). */
void sg_mem_claim_faults(void) SG_HIDDEN;
/* Loader mode: the main stack's mapping, found by a query on a
 * descriptor of /proc/self/maps, is copied to and from directly until a
 * call of the program changes any of [lo, hi) (sg_stack_changed). */
void sg_stack_init(long maps_fd) SG_HIDDEN;
void sg_stack_changed(unsigned long lo, unsigned long hi) SG_HIDDEN;
/* /proc/self/mem for writing: the kept descriptor (*own = 0), else one
 * the caller closes (*own = 1); -1 on failure. */
long sg_mem_open(int *own) SG_HIDDEN;
/* Write [buf, buf+len) over code at addr through /proc/self/mem (read+exec
 * pages as they are): safe from any thread.  The old bytes are noted for
 * sysgate -p's detach first. */
int sg_poke_code(unsigned long addr, const void *buf, unsigned long len) SG_HIDDEN;
/* The most bytes one such write changes (a patched site's region). */
#define SG_CODE_WRITE_MAX 32
/* arch/<isa>/process_arch.c: make code written as data visible to
 * instruction fetch. */
void sg_arch_flush_code(unsigned long lo, unsigned long hi) SG_HIDDEN;
long sg_write_safe(void *dst, const void *src, size_t len) SG_HIDDEN;
long sg_read_str_safe(char *dst, const char *src, size_t max) SG_HIDDEN;
/* The first width-1 bytes of each of n strings, in a few calls. */
long sg_peek_strs(char *const *strs, unsigned long n, char *peeks,
		  size_t width) SG_HIDDEN;

/* core/env.c: "fd:N" (a descriptor named in a variable) -> N, or -1 */
long sg_env_fd(const char *var) SG_HIDDEN;
long sg_env_fd_number(const char *digits) SG_HIDDEN;

/* core/output.c */
int sg_output_init(const struct sg_options *o, const char *inherited)
	SG_HIDDEN;
int sg_fd_guard(struct sysgate_sys *s) SG_HIDDEN;
void sg_fd_core_set(void) SG_HIDDEN;
int sg_fd_named(struct sysgate_sys *s) SG_HIDDEN;
void sg_fd_list(struct sysgate_sys *s) SG_HIDDEN;
long sg_fd_hide(long fd) SG_HIDDEN;
/* /proc/self/mem kept open for this process, or -1 (one is opened for
 * each write then) */
long sg_fd_mem(void) SG_HIDDEN;
long sg_fd_mem_take(void) SG_HIDDEN;
void sg_fd_exec(int begin) SG_HIDDEN;
/* The output descriptor of the calling thread's process (-ff: a vfork
 * child's own file). */
long sg_output_fd(void) SG_HIDDEN;
/* -p -ff: the output pipe a child holds for the CLI to find it (-1:
 * none), given up by a detach. */
long sg_output_held_take(void) SG_HIDDEN;

/* core/shared.c: memory shared by the hooked process tree (a memfd) */
long sg_shared_create(void) SG_HIDDEN;		/* -> its descriptor */
int sg_shared_attach(long fd) SG_HIDDEN;
long sg_shared_hold(long fd) SG_HIDDEN;	/* the tree holds fd's description */
long sg_shared_reopen(void) SG_HIDDEN;	/* -> a new descriptor, or -errno */
/* Before call s, which may take away what sg_shared_reopen needs: the
 * state's descriptor kept from then on. */
void sg_shared_keep_for(const struct sysgate_sys *s) SG_HIDDEN;
/* The region named full ("owner/name") of the tree's shared state, made
 * zero-filled on first use; NULL without one or when it is full. */
void *sg_shared_alloc(const char *full, size_t size) SG_HIDDEN;

/* core/vdso.c */
/* (maps_fd: a descriptor of /proc/self/maps to ask, or -1) */
void sg_vdso_init(unsigned long base, long maps_fd) SG_HIDDEN;
void sg_vdso_forget(unsigned long lo, unsigned long hi) SG_HIDDEN;
/* sysgate_ticks' counter: usable in this process (asked once)? */
int sg_ticks_usable(void) SG_HIDDEN;
/* A core call that may take the counter away (PR_SET_TSC): run it, and
 * time with the clock from then on.  1 when it was such a call. */
int sg_ticks_call(struct sysgate_sys *s) SG_HIDDEN;
/* core/sud.c: one line saying 32-bit calls are not hooked. */
void sg_warn_compat(void) SG_HIDDEN;

/* core/log.c: diagnostics to the sysgate output */
size_t sg_escape_controls(char *dst, size_t size, const char *src) SG_HIDDEN;
void sg_warn(const char *msg) SG_HIDDEN;
void sg_die(const char *msg) SG_HIDDEN __attribute__((noreturn));

/* core/util.c: freestanding helpers */
size_t sg_strlen(const char *s) SG_HIDDEN;
int sg_strcmp(const char *a, const char *b) SG_HIDDEN;
int sg_strncmp(const char *a, const char *b, size_t n) SG_HIDDEN;
char *sg_strchr(const char *s, int c) SG_HIDDEN;
char *sg_strrchr(const char *s, int c) SG_HIDDEN;
size_t sg_strlcpy(char *d, const char *s, size_t n) SG_HIDDEN;
char *sg_strjoin(char *d, size_t n, const char *a, const char *b,
		 const char *c) SG_HIDDEN;
void *sg_mmap(size_t len) SG_HIDDEN;
/* The same of fd's first len bytes, private (a memfd named in maps). */
void *sg_mmap_fd(size_t len, int fd) SG_HIDDEN;
void sg_munmap(void *p, size_t len) SG_HIDDEN;
unsigned long sg_mem_fit(unsigned long want, unsigned long min) SG_HIDDEN;
long sg_write_all(int fd, const char *buf, size_t len) SG_HIDDEN;
char *sg_utoa(char *end, unsigned long v) SG_HIDDEN;	/* writes backwards */
char *sg_xtoa(char *end, unsigned long v) SG_HIDDEN;	/* the same, in hex */
/* Up to 16 lower-case hex digits at p into *v: where they end. */
const char *sg_xparse(const char *p, unsigned long *v) SG_HIDDEN;
struct sg_fd_stat {
	unsigned int mode, uid, gid;
	unsigned long ino, size;
	unsigned long dev;		/* major << 32 | minor */
};
long sg_fd_stat(long fd, struct sg_fd_stat *st) SG_HIDDEN;	/* 0 or -errno */
long sg_path_stat(const char *path, struct sg_fd_stat *st) SG_HIDDEN;
long sg_path_lstat(const char *path, struct sg_fd_stat *st) SG_HIDDEN;
const char *sg_proc_status(int tid, const char *field, char *buf,
			   size_t size) SG_HIDDEN;
const char *sg_status_field(const char *buf, const char *field) SG_HIDDEN;
long sg_at_stat(long dirfd, const char *path, struct sg_fd_stat *st)
	SG_HIDDEN;			/* follows a last symlink */

#endif
