/* SPDX-License-Identifier: MIT */
/*
 * The system calls the core handles itself, once, for every mechanism:
 * clone/clone3/fork/vfork (each new thread and child gets its own state),
 * execve (sysgate follows into the new program, or leaves it), exit and
 * exit_group (fini callbacks, freeing thread state), rt_sigaction (signal
 * handlers are wrapped, see signal.c), the descriptors sysgate writes
 * its output to, and mmap/mprotect that make code executable (the
 * mechanism scans it).
 */
#include "sg.h"
#include "dispatch.h"
#include "process.h"
#include "mech.h"

#define CLONE_VM	0x00000100UL
#define CLONE_SIGHAND	0x00000800UL
#define CLONE_VFORK	0x00004000UL
#define CLONE_THREAD	0x00010000UL
#define CLONE_SETTLS	0x00080000UL

struct sg_clone_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal;
	unsigned long long stack, stack_size, tls;
};

long sg_raw_call(struct sysgate_sys *s)
{
	long *a = s->args;

	sg_prog_sc6_2(s->nr, a[0], a[1], a[2], a[3], a[4], a[5], &s->ret,
		      &s->ret2);
	return s->ret;
}

unsigned long sg_raw_info(struct sg_thread *t, struct sysgate_sys *s, int ran,
			  unsigned long *child_sp)
{
	unsigned long flags, info;
	struct sg_clone_args ca;

	*child_sp = 0;
	if (s->nr == SG_NR_rt_sigreturn)
		return SG_RAW_MAGIC | SG_NR_rt_sigreturn | SG_RAW_NOCB;
	if (s->nr == SG_NR_vfork) {
		flags = CLONE_VM | CLONE_VFORK;
	} else if (s->nr == SG_NR_clone) {
		flags = s->args[0];
		*child_sp = s->args[1];
	} else if (s->nr == SG_NR_clone3) {
		/* A bad pointer or size is left for the kernel to refuse. */
		if ((unsigned long)s->args[1] < sizeof(ca) ||
		    sysgate_read_mem(s, &ca, (void *)s->args[0], sizeof(ca)) !=
			    sizeof(ca))
			return 0;
		flags = ca.flags;
		if (ca.stack)
			*child_sp = ca.stack + ca.stack_size;
	} else {
		return 0;
	}
	if (!(flags & CLONE_VM)) {
		/* A copy of the process on a stack of its own (clone's
		 * stack argument without CLONE_VM): it must return at the
		 * program's stack pointer, where that stack is, so it runs
		 * RAW too, and the child is set up as fork's.  (Inside a
		 * callback the call goes to the kernel as it is.) */
		if (!*child_sp || t->depth) {
			*child_sp = 0;
			return 0;
		}
		return SG_RAW_MAGIC | s->nr | SG_RAW_NEWCHILD | SG_RAW_FORK |
		       (ran ? 0 : SG_RAW_NOCB);
	}
	info = SG_RAW_MAGIC | s->nr | SG_RAW_NEWCHILD;
	/* Said before the child runs: from now on code another thread may
	 * be running is only ever patched one store at a time (the
	 * mechanism gets a last chance to patch more at once). */
	if (!(flags & CLONE_VFORK) &&
	    !__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST)) {
		sg_mech_threads((unsigned long)s->pc);
		__atomic_store_n(&sg.vm_shared, 1, __ATOMIC_SEQ_CST);
	}
	if (flags & CLONE_VFORK)
		info |= SG_RAW_VFORK;
	if (flags & CLONE_THREAD)
		info |= SG_RAW_THREAD;
	if (flags & CLONE_SIGHAND)
		info |= SG_RAW_SIGHAND;
	if (!(flags & (CLONE_VFORK | CLONE_SETTLS)))
		info |= SG_RAW_SAME_TLS;
	if (t->depth)
		info |= SG_RAW_NOCB | SG_RAW_HOOKTHREAD;
	else if (!ran)
		info |= SG_RAW_NOCB;
	if ((info & SG_RAW_VFORK) && !t->vfork_spare)
		t->vfork_spare = sg_thread_new(0);
	if (info & SG_RAW_VFORK)
		t->vfork_info = info;
	return info;
}

static long child_start_cb(void *p)
{
	int vfork_like = *(int *)p;
	int i;

	for (i = 0; i < sg.nhooks; i++) {
		const struct sysgate_hook *h = sg.hooks[i]->hook;

		if (vfork_like && h->fork_child)
			h->fork_child(sg.hooks[i]->data);
		else if (!vfork_like && h->thread_start)
			h->thread_start(sg.hooks[i]->data);
	}
	return 0;
}

struct sg_thread *sg_raw_child_setup(unsigned long info)
{
	struct sg_thread *parent = sg_self();
	struct sg_thread *t = 0;
	int tid = sg_sc0(SG_NR_gettid);
	int new_process = !(info & SG_RAW_THREAD);

	if ((info & SG_RAW_VFORK) && parent && parent->vfork_spare) {
		/* The caller sleeps until we exec or exit: borrow its spare. */
		t = parent->vfork_spare;
		t->depth = 0;
		t->pending = 0;
		t->vfork_spare = 0;
		t->vfork_child = 1;
		t->vfork_parent = parent;
		t->out_own = 0;
	} else {
		t = sg_thread_new(tid);
		if (!t)
			sg_die("out of memory for a new thread's state");
		/* (the kernel gives a thread on our memory no signal stack;
		 * a vfork child uses its sleeping parent's) */
		sg_signal_own_altstack(t);
		if (!new_process)
			__atomic_add_fetch(&sg.live_threads, 1,
					   __ATOMIC_RELAXED);
		else
			t->vfork_child = 1;	/* shares sg with its parent */
	}
	t->tid = tid;
	t->pid = new_process ? tid : (parent ? parent->pid : sg.pid);
	t->hooks_off = parent ? parent->hooks_off : 0;
	sg_psud_reset(t);	/* (the kernel's is the caller's alone) */
	/* The kernel copied the caller's mask: the program's view too. */
	t->claimed_blocked = parent ? parent->claimed_blocked : 0;
	/* A child process on our memory (vfork, posix_spawn) has actions of
	 * its own: what it changes must not change them here. */
	sg_signal_child(parent, t, !(info & SG_RAW_SIGHAND));
	if (new_process && !sg.follow)
		t->hooks_off = 1;
	t->hook_own = (info & SG_RAW_HOOKTHREAD) != 0;
	if (t->hook_own)
		t->depth = 1;
	if (t->hook_own && !new_process)
		sg_hook_thread_seen();
	/* A child on its parent's TLS (vfork, CLONE_VM without SETTLS)
	 * shares the hooks' thread-local variables too, as it would with
	 * libsysgate.so preloaded. */
	if ((info & (SG_RAW_VFORK | SG_RAW_SAME_TLS)) && parent &&
	    parent->hook_tp)
		t->hook_tp = parent->hook_tp;
	if ((info & SG_RAW_SAME_TLS) && parent)
		sg_thread_share_owner(parent, t);
	else
		sg_set_self(t);
	/* Its own clones that sysgate does not see make hook threads too. */
	if (t->hook_own)
		sg_thread_hooks_mark(t, 1);
	if (!t->depth && !t->hooks_off)
		sg_run_hooks(t, child_start_cb, &new_process);
	return t;
}

/* In a child of fork (or clone without CLONE_VM): a copy of the process
 * (forked inside a hook callback too: t->depth, core/dispatch.c). */
void sg_process_forked(struct sg_thread *t)
{
	int one = 1, window = t->window;

	/* (set up already: a signal came first, core/signal.c) */
	if (sg.unforked && *sg.unforked)
		return;

	t->tid = sg_sc0(SG_NR_gettid);
	t->pid = t->tid;
	sg_set_self(t);		/* found by thread id where that is the key */
	sg_mech_forked();
	/* The kernel does not copy SUD into a child: arm it again (and
	 * reopen the window of the callback it was forked in). */
	t->sud_armed = 0;
	t->window = 0;
	if (sg.sud_on)
		sg_sud_arm_new(t);
	sg_psud_reset(t);	/* (nor the program's own) */
	if (sg.unforked)
		*sg.unforked = 1;
	if (window)
		sg_sud_window_open(t);
	sg.pid = t->pid;
	sg.live_threads = 1;
	sg.vm_shared = 0;	/* (a fork child has this thread alone) */
	sg.hook_threads = 0;
	sg.is_root = 0;
	if (!sg.follow)
		t->hooks_off = 1;
	sg_output_fork_child(!t->hooks_off);
	if (!t->hooks_off)
		sg_run_hooks(t, child_start_cb, &one);
}

static long fini_cb(void *p)
{
	int i;

	(void)p;
	for (i = sg.nhooks - 1; i >= 0; i--)
		if (sg.hooks[i]->hook->fini)
			sg.hooks[i]->hook->fini(sg.hooks[i]->data);
	return 0;
}

/* Once per process, when it ends on purpose. */
void sg_process_fini(struct sg_thread *t)
{
	if (t->vfork_child || t->hooks_off)
		return;
	if (__atomic_exchange_n(&sg.fini_done, 1, __ATOMIC_ACQ_REL))
		return;
	sg_run_hooks(t, fini_cb, 0);
	if (sg.stats)
		sg_mech_exit_stats();
}

static void __attribute__((noreturn)) thread_exit(struct sg_thread *t,
						  long code)
{
	static const unsigned long all = ~0UL;
	unsigned long lo, len;

	if (!t->vfork_child &&
	    __atomic_sub_fetch(&sg.live_threads, 1, __ATOMIC_ACQ_REL) == 0)
		sg_process_fini(t);
	/* No handler may run on the state after it is gone, and the kernel
	 * must not read a SUD selector inside it. */
	sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&all, 0, 8);
	sg_sud_disarm(t);
	sg_set_self(0);
	lo = t->unmap_lo;
	len = t->unmap_len;
	/* An exit a signal caught runs on sysgate's own signal stack,
	 * which goes last; nothing of sysgate's is on the program's stack
	 * then. */
	if (sg_on_own_alt(t, (unsigned long)__builtin_frame_address(0))) {
		if (len)
			sg_sc2(SG_NR_munmap, lo, len);
		lo = t->own_alt;
		len = t->own_alt_len;
		t->own_alt_len = 0;
	}
	/* A vfork child's state is its parent's spare, which the parent's
	 * next vfork child borrows again (a CLONE_VM|CLONE_VFORK child of
	 * clone() ends with exit): freed with the parent's. */
	if (!t->vfork_parent)
		sg_thread_free(t);
	if (len)
		sg_unmap_exit(lo, len, code);
	for (;;)
		sg_sc1(SG_NR_exit, code);
}

/*
 * membarrier as the program's own registrations make it answer.  sysgate
 * registers PRIVATE_EXPEDITED_SYNC_CORE for itself (patching code other
 * threads run, mechanisms/patch/write.c), which the kernel keeps per
 * process: a program's unregistered SYNC_CORE barrier then succeeded
 * where natively it fails with EPERM, and GET_REGISTRATIONS showed
 * sysgate's.  Registrations go to the kernel and are remembered (a fork
 * child keeps them, as the kernel copies them; a new program has none).
 */
#define MB_PRIVATE_EXPEDITED_SYNC_CORE 32
#define MB_REGISTER_PRIVATE_EXPEDITED 16
#define MB_REGISTER_SYNC_CORE 64
#define MB_REGISTER_ANY (4 | 16 | 64 | 256)
#define MB_GET_REGISTRATIONS 512

static int membarrier_view(struct sysgate_sys *s)
{
	unsigned long cmd = s->args[0];

	if (cmd == MB_PRIVATE_EXPEDITED_SYNC_CORE &&
	    !(__atomic_load_n(&sg.prog_membarrier, __ATOMIC_RELAXED) &
	      MB_REGISTER_SYNC_CORE)) {
		s->ret = -1;	/* EPERM */
		return 1;
	}
	if (cmd != MB_GET_REGISTRATIONS && !(cmd & MB_REGISTER_ANY))
		return 0;
	sg_raw_call(s);
	if (s->ret < 0)
		return 1;
	if (cmd == MB_GET_REGISTRATIONS) {
		/* (every private registration shows PRIVATE_EXPEDITED) */
		unsigned long own = sg.prog_membarrier;

		if (own & ~(4UL | 16))
			own |= MB_REGISTER_PRIVATE_EXPEDITED;
		s->ret &= ~(MB_REGISTER_PRIVATE_EXPEDITED |
			    MB_REGISTER_SYNC_CORE) | own;
	} else if (!(cmd & (cmd - 1))) {
		__atomic_or_fetch(&sg.prog_membarrier, (unsigned int)cmd,
				  __ATOMIC_RELAXED);
	}
	return 1;
}

/*
 * munmap of the stack this code runs on: a thread ending itself (musl's
 * detached threads, bionic's) unmaps its stack and exits with raw calls
 * that need none, but sysgate's way back to the program goes through
 * that stack (a stub's frame, the signal frame of a trapped call), and
 * so does its way into the exit that follows.  The unmap waits for the
 * thread's exit (thread_exit); the program sees it succeed now.  1 if
 * the call was taken so.
 */
static int unmap_own_stack(struct sg_thread *t, struct sysgate_sys *s)
{
	unsigned long lo = s->args[0], len = s->args[1],
		      sp = (unsigned long)__builtin_frame_address(0);

	if (s->nr != SG_NR_munmap || (lo & 4095) || !len || lo + len < lo ||
	    sp < lo || sp >= lo + len || t->unmap_len)
		return 0;
	t->unmap_lo = lo;
	t->unmap_len = len;
	sg_stack_changed(lo, lo + len);
	s->ret = 0;
	return 1;
}

/* Does call s change or drop code that is already there? */
static int changes_code(const struct sysgate_sys *s)
{
	if (s->nr == SG_NR_mmap)
		return (s->args[3] & 0x10 /* MAP_FIXED */) != 0;
	if (s->nr == SG_NR_madvise)
		return s->args[2] == 4 /* DONTNEED */ || s->args[2] == 8 /* FREE */ ||
		       s->args[2] == 9 /* REMOVE */ ||
		       s->args[2] == 24 /* DONTNEED_LOCKED */;
	return 1;
}

/*
 * Calls that map, unmap or re-protect memory: code patched after it
 * started running must be put back first (mechanisms/patch/lazy.c), and
 * new code (dlopen, JIT) is scanned before anyone runs it.
 */
static void memory_call(struct sysgate_sys *s)
{
	const long *a = s->args;
	unsigned long lo = a[0], hi = a[0] + a[1], code;
	int token = 0, changes = changes_code(s);

	/* mremap to a fixed address drops what was there too. */
	if (s->nr == SG_NR_mremap && (a[3] & 2 /* MREMAP_FIXED */)) {
		unsigned long to = a[4], to_end = a[4] + a[2];

		lo = to < lo ? to : lo;
		hi = to_end > hi ? to_end : hi;
	}
	/* (a new mapping without MAP_FIXED lands where nothing was; any
	 * other call may leave memory there unreadable, a madvise guard
	 * region included) */
	if (s->nr != SG_NR_mmap || (a[3] & 0x10 /* MAP_FIXED */))
		sg_stack_changed(lo, hi);
	if (changes) {
		sg_vdso_forget(lo, hi);
		token = sg_mech_code_begin(s, lo, hi);
	}
	sg_raw_call(s);
	if (!sysgate_is_error(s->ret) &&
	    (s->nr == SG_NR_mmap || s->nr == SG_NR_mprotect ||
	     s->nr == SG_NR_pkey_mprotect) && (a[2] & 4 /* PROT_EXEC */)) {
		code = s->nr == SG_NR_mmap ? (unsigned long)s->ret : (unsigned long)a[0];
		sg_mech_new_code(code, code + a[1],
				 s->nr == SG_NR_mmap && (int)a[4] >= 0 &&
					 !(a[3] & 0x20 /* MAP_ANONYMOUS */));
	}
	if (changes)
		sg_mech_code_end(token, s, lo, hi);
}

struct exec_call {
	struct sg_thread *t;
	struct sysgate_sys *s;
};

static long execve_on_own_stack(void *p)
{
	struct exec_call *c = p;

	c->s->ret = sg_execve(c->t, c->s);
	return 0;
}

void sg_core_call(struct sg_thread *t, struct sysgate_sys *s)
{
	long *a = s->args;
	struct sg_mask_swap swap;

	if (unlikely(sg.fd_below) && sg_fd_named(s))
		return;
	switch (s->nr) {
	case SG_NR_rt_sigaction:
		s->ret = sg_signal_rt_sigaction(a[0], (const void *)a[1],
						(void *)a[2], a[3]);
		return;
	case SG_NR_fork:
	case SG_NR_clone:
	case SG_NR_clone3:
		/* Calls with CLONE_VM never get here: they run RAW. */
		sg_shared_keep_for(s);
		if (sg_raw_call(s) == 0) {
			sg_process_forked(t);
			s->flags |= SYSGATE_SYS_CHILD;
		}
		return;
	case SG_NR_execve:
	case SG_NR_execveat:
		sg_tracer_traceme_now(t);
		/* On sysgate's stack: a few KiB of frames, too many for the
		 * small stack a vfork child may run on (musl's posix_spawn
		 * gives it about 5 KiB inside the parent's frame, which an
		 * overflow would corrupt). */
		{
			struct exec_call c = { t, s };

			sg_run_hooks(t, execve_on_own_stack, &c);
		}
		return;
	case SG_NR_readlink:
	case SG_NR_readlinkat:
		if (sg.exe_path && sg_readlink_self_exe(t, s))
			return;
		break;
	case SG_NR_exit:
		thread_exit(t, a[0]);
	case SG_NR_exit_group:
		sg_process_fini(t);
		sg_raw_call(s);
		return;
	case SG_NR_mmap:
	case SG_NR_mprotect:
	case SG_NR_pkey_mprotect:
	case SG_NR_munmap:
	case SG_NR_mremap:
	case SG_NR_madvise:
		if (!unmap_own_stack(t, s))
			memory_call(s);
		return;
	case SG_NR_rt_sigprocmask:
		s->ret = sg_signal_rt_sigprocmask(t, a[0], (const void *)a[1],
						  (void *)a[2], a[3]);
		return;
	case SG_NR_ptrace:
		if (sg_tracer_ptrace(t, s))
			return;
		break;
	case SG_NR_wait4:
	case SG_NR_waitid:
		sg_tracer_wait(t, s);
		return;
	case SG_NR_getdents64:
		sg_fd_list(s);
		return;
	case SG_NR_membarrier:
		if (membarrier_view(s))
			return;
		break;
	case SG_NR_seccomp:
	case SG_NR_prctl:
		if (sg_seccomp_wrap(s) || sg_ticks_call(s) ||
		    sg_psud_prctl(t, s))
			return;
		break;
	case SG_NR_sigaltstack:
		s->ret = sg_signal_sigaltstack(t, (const void *)a[0],
					       (void *)a[1]);
		return;
	case SG_NR_setuid:
	case SG_NR_setreuid:
	case SG_NR_setresuid:
	case SG_NR_setfsuid:
	case SG_NR_capset:
	case SG_NR_unshare:
	case SG_NR_setns:
		sg_shared_keep_for(s);
		break;
	case SG_NR_close:
	case SG_NR_close_range:
	case SG_NR_dup2:
	case SG_NR_dup3:
	case SG_NR_prlimit64:
	case SG_NR_setrlimit:
		if (sg_fd_guard(s))
			return;
		break;
	default:
		if (sg_arch_core_call(t, s))
			return;
		if (sg_signal_swap_mask(s, &swap)) {
			long *a2 = swap.args;

			sg_prog_sc6_2(s->nr, a2[0], a2[1], a2[2], a2[3], a2[4],
				      a2[5], &s->ret, &s->ret2);
			return;
		}
		break;
	}
	sg_raw_call(s);
}
