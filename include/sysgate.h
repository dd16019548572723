/* SPDX-License-Identifier: MIT */
/*
 * sysgate.h - the sysgate hook API.
 *
 * A hook is a table of optional callbacks (struct sysgate_hook) that the
 * sysgate core calls around the system calls a hook has selected.  The core
 * runs the real system call itself, between the enter and exit callbacks,
 * and handles clone, vfork, execve, exit and rt_sigreturn centrally; hooks
 * never need to special-case them.
 *
 * Rules a hook can rely on:
 *  - enter() callbacks run in registration order.  SYSGATE_SKIP stops the
 *    chain: the system call is not executed, ->ret is its result, and only
 *    the hooks whose enter() already ran get exit(), in reverse order.
 *  - A system call made while a callback runs (directly or by libc) goes
 *    straight to the kernel: hooks never recurse.
 *  - Signals that arrive while a callback runs are held back and delivered
 *    when it returns, so program signal handlers never run inside a hook.
 *  - exit() gets the struct sysgate_sys that enter() got, valid from
 *    enter() until exit() returns: a hook may keep calls in flight by it
 *    (in the caller of clone, clone3 and vfork too; a new child's exit()
 *    gets one of its own, with SYSGATE_SYS_CHILD).
 *  - Results use the kernel convention: -4095..-1 is -errno.
 *  - Callbacks run on a per-thread sysgate stack of SYSGATE_HOOK_STACK bytes,
 *    in the thread that made the system call.  Thread-local variables work.
 *  - Hooks that do not set SYSGATE_HOOK_NOFPU get the program's vector and
 *    floating-point registers saved and restored around each callback
 *    (on x86-64 not around enter() and exit() where sysgate finds at
 *    load that the code they reach touches none of them).
 *
 * A hook shared object exports its table with SYSGATE_HOOK_DEFINE() and is
 * loaded with `sysgate --hook=PATH.so[:ARGS]`.
 */
#ifndef SYSGATE_H
#define SYSGATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYSGATE_VERSION_MAJOR 1
#define SYSGATE_VERSION_MINOR 10
/* Bumped whenever struct sysgate_hook or struct sysgate_sys changes layout. */
#define SYSGATE_HOOK_ABI 1

/* System call numbers at or above this are passed to the kernel unhooked. */
#define SYSGATE_NR_MAX 1024
#define SYSGATE_HOOK_STACK (256 * 1024)

#define SYSGATE_API __attribute__((visibility("default")))

/* One in-flight system call, owned by the core. */
struct sysgate_sys {
	long nr;		/* enter() may change it */
	long args[6];		/* enter() may change them */
	long ret;		/* result (exit(), or set before SYSGATE_SKIP) */
	long ret2;		/* second result register (rdx, a1 or x1) */
	const void *pc;		/* the system call instruction, or NULL */
	int pid;		/* process and thread the call belongs to */
	int tid;
	unsigned int flags;	/* SYSGATE_SYS_* */
	const char *note;	/* set by a skipping hook; tracers print it */
	unsigned long long enter_ns; /* CLOCK_MONOTONIC at entry, when some
					hook has SYSGATE_HOOK_TIMED, else 0 */
	unsigned long long enter_ticks;	/* sysgate_ticks() at entry, when some
					   hook has SYSGATE_HOOK_TICKED and the
					   counter is usable, else 0 (1.4) */
};

/* sysgate_sys.flags */
#define SYSGATE_SYS_NORETURN 0x1 /* exit, exit_group, rt_sigreturn: no exit() */
#define SYSGATE_SYS_CHILD    0x2 /* exit() in the new child of fork/clone */
#define SYSGATE_SYS_SKIPPED  0x4 /* a hook skipped the call */
#define SYSGATE_SYS_EXECVE   0x8 /* execve(at) that succeeded: exit() runs in
				    the new program only if it is hooked too */
#define SYSGATE_SYS_DETACHED 0x10 /* (1.10) exit() of a call sysgate let go
				    of while it slept (-p's end under -m
				    ptrace): it goes on without sysgate, and
				    ->ret is not its result */

enum sysgate_verdict {
	SYSGATE_RUN = 0,	/* let the call run (with any changed args) */
	SYSGATE_SKIP = 1,	/* do not run it; ->ret is the result */
};

struct sysgate_ctx;		/* opaque, one per loaded hook */

/* sysgate_hook.flags */
#define SYSGATE_HOOK_NOFPU 0x1	/* callbacks touch no FPU/vector registers
				   (compiled with -mgeneral-regs-only) */
#define SYSGATE_HOOK_TIMED 0x2	/* wants sysgate_sys.enter_ns filled */
#define SYSGATE_HOOK_NOTLS 0x4	/* enter/exit touch no thread-local storage
				   (no __thread, no libc call that may set
				   errno): where sysgate's hooks have TLS of
				   their own (the loader's start), the thread
				   pointer is then not switched per call */
#define SYSGATE_HOOK_TICKED 0x8	/* wants sysgate_sys.enter_ticks filled
				   (1.4); where this process has no usable
				   counter, enter_ns is filled instead */
#define SYSGATE_HOOK_OBSERVES 0x10 /* reports what happened (1.10): its
				   enter() of a call that does not return
				   (SYSGATE_SYS_NORETURN) runs after the
				   other hooks', also when one of them
				   answered it (SYSGATE_SYS_SKIPPED set:
				   exit() follows), so that it can tell an
				   exit_group that ends the process from one
				   a fault injector made fail */

struct sysgate_hook {
	unsigned int abi;	/* SYSGATE_HOOK_ABI, checked at load */
	unsigned int flags;	/* SYSGATE_HOOK_* */
	const char *name;
	/* Select system calls and set data; 0 or -errno (aborts start-up
	 * with a message).  args is the text after ':' in --hook=. */
	int (*init)(struct sysgate_ctx *ctx, const char *args);
	enum sysgate_verdict (*enter)(struct sysgate_sys *s, void *data);
	void (*exit)(struct sysgate_sys *s, void *data);
	/* A signal is about to reach a program handler (or kill it). */
	void (*signal)(int sig, const void *siginfo, void *data);
	/* In each new thread before it runs program code. */
	void (*thread_start)(void *data);
	/* In the child of fork, vfork or clone without CLONE_VM. */
	void (*fork_child)(void *data);
	/* Just before execve(at) is attempted with this path. */
	void (*exec)(const char *path, void *data);
	/* Once, when the process ends (exit_group or the last thread). */
	void (*fini)(void *data);
};

/* A hook shared object exports exactly one table with this macro. */
#define SYSGATE_HOOK_DEFINE(table) \
	SYSGATE_API const struct sysgate_hook *sysgate_hook_v1 = &(table)

/* Version of the loaded library, e.g. "1.0.0". */
SYSGATE_API const char *sysgate_version(void);

/* Selection: which system calls reach this hook's callbacks.  Others cost
 * one bit test.  Return 0 or -EINVAL. */
SYSGATE_API int sysgate_select(struct sysgate_ctx *ctx, long nr);
SYSGATE_API int sysgate_select_name(struct sysgate_ctx *ctx, const char *name);
SYSGATE_API int sysgate_select_all(struct sysgate_ctx *ctx);
SYSGATE_API int sysgate_select_class(struct sysgate_ctx *ctx,
				     unsigned int classes);
SYSGATE_API void sysgate_set_data(struct sysgate_ctx *ctx, void *data);

/* System call classes (strace's vocabulary), for sysgate_select_class(). */
#define SYSGATE_CLASS_FILE    0x001	/* %file: takes a file name */
#define SYSGATE_CLASS_PROCESS 0x002	/* %process */
#define SYSGATE_CLASS_NETWORK 0x004	/* %network */
#define SYSGATE_CLASS_SIGNAL  0x008	/* %signal */
#define SYSGATE_CLASS_IPC     0x010	/* %ipc */
#define SYSGATE_CLASS_DESC    0x020	/* %desc: file descriptors */
#define SYSGATE_CLASS_MEMORY  0x040	/* %memory */
#define SYSGATE_CLASS_CREDS   0x080	/* %creds */
#define SYSGATE_CLASS_STAT    0x100	/* %stat */
#define SYSGATE_CLASS_CLOCK   0x200	/* %clock */
#define SYSGATE_CLASS_PURE    0x400	/* %pure: no arguments, cannot fail */

/* Raw system calls that are never hooked.  They return -errno and leave
 * errno alone. */
struct sysgate_result {
	long ret;		/* rax / a0 / x0 */
	long ret2;		/* rdx / a1 / x1 */
};
SYSGATE_API long sysgate_syscall(long nr, long a0, long a1, long a2,
				 long a3, long a4, long a5);
SYSGATE_API struct sysgate_result sysgate_syscall2(long nr, long a0, long a1,
						   long a2, long a3, long a4,
						   long a5);

/* Syscall table: names, numbers and shapes for the running architecture. */
SYSGATE_API const char *sysgate_syscall_name(long nr);	   /* NULL if none */
SYSGATE_API long sysgate_syscall_number(const char *name); /* -1 if none */
SYSGATE_API int sysgate_syscall_nargs(long nr);		   /* -1 if unknown */
/* Argument kinds, one letter per argument (see man/sysgate.7). */
SYSGATE_API const char *sysgate_syscall_args(long nr);
SYSGATE_API unsigned int sysgate_syscall_classes(long nr);
SYSGATE_API const char *sysgate_errno_name(int err);	/* "ENOENT" or NULL */
SYSGATE_API const char *sysgate_signal_name(int sig);	/* "SIGSEGV" */
SYSGATE_API const char *sysgate_strerror(int err);	/* libc's wording */

/* Program memory, read and written safely: a bad pointer gives -EFAULT,
 * never a crash.  Return bytes copied or -errno. */
SYSGATE_API long sysgate_read_mem(const struct sysgate_sys *s, void *dst,
				  const void *src, size_t len);
/* Reads a NUL-terminated string of at most max-1 bytes; dst is always
 * terminated.  Returns the length, or -EFAULT.  Sets *truncated (if not
 * NULL) when the string is longer. */
SYSGATE_API long sysgate_read_str(const struct sysgate_sys *s, char *dst,
				  const void *src, size_t max, int *truncated);
SYSGATE_API long sysgate_write_mem(const struct sysgate_sys *s, void *dst,
				   const void *src, size_t len);
/* The same for hooks that answer calls from memory on the hot path (1.1):
 * no system call (the first use installs sysgate's SIGSEGV and SIGBUS
 * handling).  A fault on either side, including a file mapping that no
 * longer covers src, gives -EFAULT; dst may then be partly written.
 * Returns 0 or -EFAULT.  sysgate_probe_nofault() reads one byte. */
SYSGATE_API long sysgate_copy_nofault(void *dst, const void *src, size_t len);
SYSGATE_API long sysgate_probe_nofault(const void *addr);
/* Where addr lies (1.1): the path of its mapping as /proc/self/maps names
 * it ("" for anonymous memory, "[vdso]"...) and addr's offset in that
 * file.  0, -ENOENT if nothing is mapped there, or -ENOMEM.  Reads
 * /proc/self/maps: for reports, not for the hot path. */
SYSGATE_API long sysgate_locate(const void *addr, char *path, size_t size,
				unsigned long *file_off);
/* Where call s returns to (1.3): the address after its system call
 * instruction (what strace -i prints), or NULL when s->pc is NULL. */
SYSGATE_API const void *sysgate_return_pc(const struct sysgate_sys *s);

/* Output for tracers: one call writes one whole record with one write(2)
 * to the -o destination (stderr by default, never the program's fd 2). */
SYSGATE_API void sysgate_output(struct sysgate_ctx *ctx, const char *buf,
				size_t len);
/* Zeroed memory shared by every process of the hooked process tree (for
 * counters); the same name gives the same memory.  NULL on failure. */
SYSGATE_API void *sysgate_shared(struct sysgate_ctx *ctx, const char *name,
				 size_t size);
/* Nanoseconds from CLOCK_MONOTONIC / CLOCK_REALTIME, without a syscall. */
SYSGATE_API unsigned long long sysgate_now_ns(void);
SYSGATE_API unsigned long long sysgate_realtime_ns(void);
/*
 * A cheap counter for timing calls (1.4): the time-stamp counter (x86-64,
 * where it is invariant and this thread may read it), the generic timer
 * (aarch64), the time CSR (RISC-V); it costs a fraction of sysgate_now_ns.
 * Its rate is not given: convert a sum of differences by two
 * (sysgate_ticks(), sysgate_now_ns()) pairs taken far apart.  0 when this
 * process has no usable counter (or the program took it away with
 * PR_SET_TSC): time with sysgate_now_ns() then.
 */
SYSGATE_API unsigned long long sysgate_ticks(void);
/* True when this process follows the hooked tree (-f), or is its root. */
SYSGATE_API int sysgate_process_followed(void);
/* True in the process that prints tree-wide reports (summaries) when it
 * exits: the root process, when no sysgate CLI is waiting to print them. */
SYSGATE_API int sysgate_report_here(void);

/* Signals (1.2).  Hooks see a signal that a program handler catches;
 * after this call (from init()), also one whose default action ends the
 * process, just before it does (the process still ends as it would).
 * Signals the program ignores, or whose default is to ignore or stop,
 * and SIGKILL, stay unseen. */
SYSGATE_API int sysgate_watch_fatal_signals(struct sysgate_ctx *ctx);
/* In a signal() callback: 0 when a program handler runs or the signal is
 * ignored, 1 when it ends the process, 2 when with a core dump (as far
 * as RLIMIT_CORE, the dumpable flag and core_pattern tell). */
SYSGATE_API int sysgate_signal_fatal(int sig);
/* In a signal() callback: where the signal found this thread.  Inside a
 * call whose enter() callbacks ran and exit() callbacks did not yet:
 * SYSGATE_SIG_RETURNED when the call has its result (*ret, -EINTR when
 * the signal cut it short), SYSGATE_SIG_RESTART when the kernel cut it
 * short and will make it again once the handler returns (the hooks see
 * one call).  Elsewhere SYSGATE_SIG_OUTSIDE. */
#define SYSGATE_SIG_OUTSIDE 0
#define SYSGATE_SIG_RETURNED 1
#define SYSGATE_SIG_RESTART 2
/* (1.9, -m ptrace only) The signal that ended the process reached
 * another thread: this one only ends with it (no delivery here). */
#define SYSGATE_SIG_ENDED 3
SYSGATE_API int sysgate_signal_where(long *ret);
/* In a signal() callback (1.8): the program's address the signal came at
 * (a fault's instruction); 0 where it is not the program's (inside a
 * call: sysgate_return_pc() of the call is) or under -m ptrace. */
SYSGATE_API unsigned long sysgate_signal_pc(void);

/* In a callback: the thread it runs for (1.7), and its process in *pid
 * unless pid is NULL.  The calling thread, except under -m ptrace, where
 * the CLI runs the hooks for the threads it traces (thread_start() then
 * runs for every new traced thread and process, fork_child() never). */
SYSGATE_API int sysgate_task_tid(int *pid);

/* True while init() runs only to check its arguments (1.5): the CLI runs
 * its built-in hooks' init() once before it starts the program, so that
 * bad options fail at once with their message.  Such an init() may
 * return 0 once its arguments are parsed; no other callback of that
 * instance ever runs. */
SYSGATE_API int sysgate_init_only_checks(const struct sysgate_ctx *ctx);

/* Call before a hook, or a library it uses, starts threads of its own
 * (1.6).  Such threads run the program's code (its C library) with
 * signal masks sysgate never sees, often every signal blocked, as
 * libcephfs's: from then on sysgate patches no code while they may run
 * it, since a thread that met a patch being written with SIGTRAP
 * blocked would be killed.  Calls that trap keep their traps. */
SYSGATE_API void sysgate_hook_threads(void);

/* Report why init() fails, in one line; returns -EINVAL for convenience:
 *   return sysgate_error(ctx, "unknown option 'x'"); */
SYSGATE_API int sysgate_error(struct sysgate_ctx *ctx, const char *msg);

/* Hand up to 32 KiB of state to this hook's instance in the program that
 * an execve starts, when sysgate follows it (call from the execve enter()
 * or exec() callback).  The new instance reads it in init().  Returns 0 or
 * -errno; sysgate_exec_carried() returns the length or -ENOENT. */
SYSGATE_API int sysgate_exec_carry(struct sysgate_ctx *ctx, const void *data,
				   size_t len);
SYSGATE_API long sysgate_exec_carried(struct sysgate_ctx *ctx, void *buf,
				      size_t len);

static inline int sysgate_is_error(long ret)
{
	return (unsigned long)ret >= (unsigned long)-4095;
}

static inline int sysgate_errno(long ret)
{
	return sysgate_is_error(ret) ? (int)-ret : 0;
}

#ifdef __cplusplus
}
#endif
#endif /* SYSGATE_H */
