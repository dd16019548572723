/* SPDX-License-Identifier: MIT */
/*
 * -m ptrace: the CLI is the tracer.  The program runs unmodified (no
 * library preloaded); every system call stops it twice, and at each stop
 * the CLI runs the same hook chain the other mechanisms run in-process:
 * sysgate_read_mem and friends reach the tracee through
 * process_vm_readv, so the built-in hooks work unchanged.  A hook that
 * skips a call turns it into an invalid one (orig_rax = -1) and writes
 * its result at the exit stop; changed arguments and results are written
 * back with PTRACE_SETREGS.  Threads are always followed; child processes
 * with -f.  The slowest mechanism by far, and the reference the others
 * are measured against.
 *
 * 32-bit calls (int $0x80, or a 32-bit program) are told apart by the
 * audit arch PTRACE_GET_SYSCALL_INFO reports, and seen by the hooks as
 * the 64-bit call of the same name, or by a number of their own for calls
 * only the 32-bit ABI has (the compat table of syscalls.csv); the trace
 * says when a process changes mode, as strace does.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sys/auxv.h>
#include <dirent.h>
#include "sg.h"
#include "options.h"
#include "registry.h"
#include "shared.h"
#include "cli.h"
#include "signal_arch.h"

#define TRACER_HOOKS 3		/* count, trace, inject */

/* A tracee between its syscall-enter and syscall-exit stops. */
struct tracee {
	pid_t tid;
	pid_t tgid;		/* its process, once read */
	int in_syscall;
	int fresh;		/* attached, first stop not seen yet */
	int skipped;
	int ran;		/* hooks whose enter ran */
	int compat;		/* this call is a 32-bit one */
	int mode32;		/* the last call was: for the trace's line */
	struct sysgate_sys s;
	/* what the hooks carried at an execve's entry, theirs at its exit
	 * (sysgate_exec_carry: the old program's memory is gone by then) */
	void *carry[TRACER_HOOKS];
	unsigned long carry_len[TRACER_HOOKS];
	/* a signal that ends the process: reported once it has, when the
	 * kernel says whether it dumped core */
	int fatal_sig;
	siginfo_t fatal_info;
};

#define MAX_TRACEES 4096
static struct tracee tracees[MAX_TRACEES];
static int tracing;		/* the trace hook runs: mode lines shown */

static struct tracee *find(pid_t tid, int create)
{
	int i, free_slot = -1;

	for (i = 0; i < MAX_TRACEES; i++) {
		if (tracees[i].tid == tid)
			return &tracees[i];
		if (!tracees[i].tid && free_slot < 0)
			free_slot = i;
	}
	if (!create || free_slot < 0)
		return 0;
	memset(&tracees[free_slot], 0, sizeof(tracees[free_slot]));
	tracees[free_slot].tid = tid;
	return &tracees[free_slot];
}

static void regs_args(const struct user_regs_struct *r, long a[6])
{
	a[0] = r->rdi; a[1] = r->rsi; a[2] = r->rdx;
	a[3] = r->r10; a[4] = r->r8; a[5] = r->r9;
}

static void set_regs_args(struct user_regs_struct *r, const long a[6])
{
	r->rdi = a[0]; r->rsi = a[1]; r->rdx = a[2];
	r->r10 = a[3]; r->r8 = a[4]; r->r9 = a[5];
}

/* A 32-bit call's arguments: ebx, ecx, edx, esi, edi, ebp.  Small
 * negative values (-1, AT_FDCWD) read as such: no 32-bit pointer
 * reaches the top page. */
static long arg32(unsigned long long v)
{
	unsigned int x = (unsigned int)v;

	return x >= 0xfffff001U ? (long)(int)x : (long)x;
}

static void regs_args32(const struct user_regs_struct *r, long a[6])
{
	a[0] = arg32(r->rbx); a[1] = arg32(r->rcx); a[2] = arg32(r->rdx);
	a[3] = arg32(r->rsi); a[4] = arg32(r->rdi); a[5] = arg32(r->rbp);
}

static void set_regs_args32(struct user_regs_struct *r, const long a[6])
{
	r->rbx = (unsigned int)a[0]; r->rcx = (unsigned int)a[1];
	r->rdx = (unsigned int)a[2]; r->rsi = (unsigned int)a[3];
	r->rdi = (unsigned int)a[4]; r->rbp = (unsigned int)a[5];
}

/* Is the call at this entry stop a 32-bit one? */
static int is_compat(pid_t tid)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof(info), &info) <= 0 ||
	    info.op != PTRACE_SYSCALL_INFO_ENTRY)
		return 0;
	return info.arch != SG_AUDIT_ARCH;
}

/* The number hooks see for 32-bit call nr (see syscalls.h). */
static long compat_nr(unsigned long nr)
{
	if (nr < SG_NCOMPAT && sg_compat_nr[nr] >= 0)
		return sg_compat_nr[nr];
	return -1;
}

/* strace's line when a process changes between 64- and 32-bit calls. */
static void mode_line(struct tracee *tr)
{
	char line[96];
	int n;

	if (tr->compat == tr->mode32)
		return;
	tr->mode32 = tr->compat;
	if (!tracing)
		return;
	n = snprintf(line, sizeof(line), "[ Process PID=%d runs in %s mode. ]\n",
		     tr->tid, tr->compat ? "32 bit" : "64 bit");
	sg_write_all(sg.out_fd, line, n);
}

/* A line of /proc/TID/status as a number (base 10, or 16 for the
 * signal masks), or dflt. */
static unsigned long long status_field(pid_t tid, const char *name, int base,
				       unsigned long long dflt)
{
	char path[64], line[128];
	size_t n = strlen(name);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			dflt = strtoull(line + n + 1, 0, base);
			break;
		}
	if (f)
		fclose(f);
	return dflt;
}

static pid_t tgid_of(struct tracee *tr)
{
	if (!tr->tgid)
		tr->tgid = (pid_t)status_field(tr->tid, "Tgid", 10, tr->tid);
	return tr->tgid;
}

static int is_exec(long nr)
{
	return nr == SG_NR_execve || nr == SG_NR_execveat;
}

/* An execve's entry: keep what the hooks carried for its exit. */
static void carry_take(struct tracee *tr)
{
	int i;

	for (i = 0; i < sg.nhooks && i < TRACER_HOOKS; i++) {
		struct sysgate_ctx *c = sg.hooks[i];

		free(tr->carry[i]);
		tr->carry[i] = 0;
		tr->carry_len[i] = 0;
		if (!c->carry_len || !(tr->carry[i] = malloc(c->carry_len)))
			continue;
		memcpy(tr->carry[i], c->carry, c->carry_len);
		tr->carry_len[i] = c->carry_len;
		c->carry_len = 0;
	}
}

/* Its exit: a new program's hooks would find it carried (give = 1);
 * afterwards, or when the execve failed, it is dropped. */
static void carry_give(struct tracee *tr, int give)
{
	int i;

	for (i = 0; i < sg.nhooks && i < TRACER_HOOKS; i++) {
		sg.hooks[i]->carried = give ? tr->carry[i] : 0;
		sg.hooks[i]->carried_len = give ? tr->carry_len[i] : 0;
		if (give)
			continue;
		free(tr->carry[i]);
		tr->carry[i] = 0;
		tr->carry_len[i] = 0;
	}
}

/* The tracer is detaching (a signal, --detach-after). */
static int letting_go;

static void on_syscall_stop(struct tracee *tr)
{
	struct user_regs_struct r;
	long args[6], before[6];

	if (ptrace(PTRACE_GETREGS, tr->tid, 0, &r) < 0)
		return;
	if (!tr->in_syscall) {
		long nr = (long)r.orig_rax;

		tr->in_syscall = 1;
		tr->compat = is_compat(tr->tid);
		mode_line(tr);
		if (tr->compat) {
			regs_args32(&r, args);
			nr = compat_nr((unsigned long)nr);
		} else {
			regs_args(&r, args);
		}
		if (nr == SG_NR_rt_sigreturn && !tr->compat) {
			/* (what hooks get in-process: where the frame keeps
			 * the mask and the result it restores) */
			void *uc = sg_arch_sigreturn_uc(r.rsp);

			args[0] = (long)sg_arch_uc_sigmask(uc);
			args[1] = (long)sg_arch_uc_result_reg(uc);
		}
		memcpy(before, args, sizeof(args));
		sg_sys_init_traced(&tr->s, tgid_of(tr), tr->tid,
				   nr, args, (void *)(r.rip - 2));
		tr->skipped = sg_chain_enter_traced(&tr->s, &tr->ran);
		if (is_exec(tr->s.nr) && !tr->skipped)
			carry_take(tr);
		if (tr->skipped) {
			r.orig_rax = -1;	/* the kernel runs nothing */
			ptrace(PTRACE_SETREGS, tr->tid, 0, &r);
		} else if (tr->compat) {
			/* (a 32-bit call keeps its number: the hooks'
			 * is another ABI's) */
			if (memcmp(before, tr->s.args, sizeof(before))) {
				set_regs_args32(&r, tr->s.args);
				ptrace(PTRACE_SETREGS, tr->tid, 0, &r);
			}
		} else if (tr->s.nr != nr ||
			   memcmp(before, tr->s.args, sizeof(before))) {
			r.orig_rax = tr->s.nr;
			set_regs_args(&r, tr->s.args);
			ptrace(PTRACE_SETREGS, tr->tid, 0, &r);
		}
		return;
	}
	tr->in_syscall = 0;
	if (tr->skipped) {
		r.rax = tr->s.ret;
		ptrace(PTRACE_SETREGS, tr->tid, 0, &r);
		return;
	}
	/* (rt_sigreturn: its line, as in-process, came at its entry) */
	if (tr->s.flags & SYSGATE_SYS_NORETURN)
		return;
	tr->s.ret = (long)r.rax;
	/* Let go while it slept: the kernel restarts the call once
	 * detached (ERESTART*), strace's " <detached ...>". */
	if (letting_go && tr->s.ret <= -512 && tr->s.ret >= -516) {
		tr->s.flags |= SYSGATE_SYS_DETACHED;
		sg_chain_exit_traced(&tr->s, tr->ran);
		return;
	}
	if (is_exec(tr->s.nr) && !tr->s.ret) {
		tr->s.flags |= SYSGATE_SYS_EXECVE;
		tr->tgid = 0;	/* (a thread's execve: now the leader) */
		carry_give(tr, 1);
	}
	if (sg_chain_exit_traced(&tr->s, tr->ran) && (long)r.rax != tr->s.ret) {
		r.rax = tr->s.ret;
		ptrace(PTRACE_SETREGS, tr->tid, 0, &r);
	}
	if (is_exec(tr->s.nr))
		carry_give(tr, 0);
}

/* A signal-delivery stop: hooks see the signal now where the program
 * catches it or it does not end the process; one whose default action
 * ends the process is reported at the end (process_ended).  Returns
 * the signal to deliver; 0 for a group-stop (not a delivery). */
static int on_signal_stop(struct tracee *tr, int sig)
{
	siginfo_t si;
	unsigned long long bit = 1ULL << (sig - 1), caught, ignored;

	if (ptrace(PTRACE_GETSIGINFO, tr->tid, 0, &si) < 0)
		return errno == EINVAL ? 0 : sig;
	caught = status_field(tr->tid, "SigCgt", 16, 0);
	ignored = status_field(tr->tid, "SigIgn", 16, 0);
	if (!(caught & bit) && !(ignored & bit) && sg_default_kills(sig)) {
		tr->fatal_sig = sig;
		tr->fatal_info = si;
		return sig;
	}
	sg_signal_traced(tgid_of(tr), tr->tid, &si, 0, 0);
	return sig;
}

/* A tracee has ended: a process killed by a signal says so for each
 * thread, as strace does: the one the signal hit (its line, then its
 * end), the others only ending with it (SIGKILL, which has no delivery
 * stop: all of them). */
static void process_ended(struct tracee *tr, int status)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	int ended = !tr->fatal_sig;

	if (!sig)
		return;
	if (ended) {
		memset(&tr->fatal_info, 0, sizeof(tr->fatal_info));
		tr->fatal_info.si_signo = sig;
	}
	sg_signal_traced(tgid_of(tr), tr->tid, &tr->fatal_info,
			 WCOREDUMP(status) ? 2 : 1, ended);
}

/* The built-in hooks, set up in the tracer as init.c does in-process. */
static int tracer_hooks(const struct sg_options *o, const char *state)
{
	static const struct { const char *name; const struct sysgate_hook *h; }
		builtins[] = {
			{ "count", &sg_builtin_count },
			{ "trace", &sg_builtin_trace },
			{ "inject", &sg_builtin_inject },
		};
	static char args[3][2048];
	unsigned int i;

	sg.nhooks = 0;		/* the CLI's validation ran them once */
	sg.tracer = 1;
	sg.pid = getpid();
	sg.out_fd = 2;
	sg.opts = o;
	sg.follow = o->follow != 0;
	sg.cli = 1;
	sg_vdso_init(getauxval(AT_SYSINFO_EHDR), -1);
	if (sg_output_init(o, 0) < 0)
		return -1;
	if (state && sg_shared_attach(sg_env_fd(state)) < 0)
		return -1;
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		struct sysgate_ctx *c;
		int r = sg_options_hook_args(o, builtins[i].name, args[i],
					     sizeof(args[i]));

		if (r <= 0)
			continue;
		tracing |= builtins[i].h == &sg_builtin_trace;
		c = sg_hooks_new(builtins[i].h, args[i], 1);
		if (!c || sg_hooks_init(c) < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", builtins[i].name,
				c ? c->error : "too many hooks");
			return -1;
		}
	}
	sg_hooks_recompute();
	sg.initialised = 1;
	return 0;
}

int sg_cli_ptrace_child(void)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
		return -1;
	raise(SIGSTOP);
	return 0;
}

int sg_cli_ptrace_loop(const struct sg_options *o, int child,
		       const char *state)
{
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL |
		    PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC;
	int status, child_status = 0, live = 1;
	pid_t w;

	if (o->follow)
		opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	if (tracer_hooks(o, state) < 0) {
		kill(child, SIGKILL);
		return -1;
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, child, 0, opts) < 0) {
		fprintf(stderr, "sysgate: cannot trace %d: %s\n", child,
			strerror(errno));
		kill(child, SIGKILL);
		return -1;
	}
	find(child, 1);
	ptrace(PTRACE_SYSCALL, child, 0, 0);
	while (live > 0) {
		struct tracee *tr;
		int sig, event;

		w = waitpid(-1, &status, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			tr = find(w, 0);
			if (tr) {
				process_ended(tr, status);
				carry_give(tr, 0);
				tr->tid = 0;
				live--;
			}
			if (w == child)
				child_status = status;
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		tr = find(w, 0);
		if (!tr) {
			tr = find(w, 1);	/* a new thread or child */
			tr->fresh = 1;
			live++;
			sg_thread_start_traced(tgid_of(tr), w);
		}
		sig = WSTOPSIG(status);
		event = status >> 16;
		if (sig == (SIGTRAP | 0x80)) {
			on_syscall_stop(tr);
			sig = 0;
		} else if (event) {
			sig = 0;	/* clone/fork/exec: the syscall stops
					   follow as usual */
		} else if (sig == SIGSTOP && tr->fresh) {
			sig = 0;	/* the first stop of a new tracee */
		} else {
			sig = on_signal_stop(tr, sig);
		}
		tr->fresh = 0;
		ptrace(PTRACE_SYSCALL, w, 0, sig);
	}
	return child_status;
}

/*
 * sysgate -m ptrace -p PID[,PID...]: strace's way, to compare with
 * sysgate -p: every thread of each process seized with the same options
 * and traced by the loop above until *stop is set (a signal, or
 * --detach-after's alarm), then interrupted and let go.  A thread caught
 * at a call's entry then runs it natively; at its exit, the exit hooks
 * run first.  Returns 0, or -1 if no process could be attached.
 */
static int seize_all(pid_t pid, long opts)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);

		if (tid <= 0 || find(tid, 0))
			continue;
		if (ptrace(PTRACE_SEIZE, tid, 0, opts) < 0)
			continue;
		find(tid, 1);
		ptrace(PTRACE_INTERRUPT, tid, 0, 0);
		n++;
	}
	closedir(dir);
	return n;
}

int sg_cli_ptrace_attach(const struct sg_options *o, const pid_t *pids,
			 int npids, const char *state,
			 volatile sig_atomic_t *stop)
{
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE;
	int live = 0, i, detaching = 0, status;
	pid_t w;

	/* -f: children forked while attached are traced too (and let go
	 * with the rest) */
	if (o->follow)
		opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	if (tracer_hooks(o, state) < 0)
		return -1;
	for (i = 0; i < npids; i++) {
		int n = seize_all(pids[i], opts);

		if (n <= 0) {
			fprintf(stderr, "sysgate: attach %d: %s\n", pids[i],
				strerror(n < 0 ? ESRCH : errno));
			continue;
		}
		live += n;
		if (!o->quiet && !o->quiet_attach)
			fprintf(stderr, "sysgate: Process %d attached\n",
				pids[i]);
	}
	if (!live)
		return -1;
	while (live > 0) {
		struct tracee *tr;
		int sig, event;

		if (*stop && !detaching) {
			detaching = letting_go = 1;
			for (i = 0; i < MAX_TRACEES; i++)
				if (tracees[i].tid)
					ptrace(PTRACE_INTERRUPT, tracees[i].tid, 0, 0);
		}
		w = waitpid(-1, &status, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		tr = find(w, 0);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tr) {
				process_ended(tr, status);
				carry_give(tr, 0);
				tr->tid = 0;
				live--;
			}
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (!tr) {
			tr = find(w, 1);	/* a new thread */
			live++;
			sg_thread_start_traced(tgid_of(tr), w);
		}
		sig = WSTOPSIG(status);
		event = status >> 16;
		if (sig == (SIGTRAP | 0x80)) {
			if (!detaching || tr->in_syscall)
				on_syscall_stop(tr);
			sig = 0;
		} else if (event) {
			sig = 0;	/* clone, or our interrupt */
		} else {
			sig = on_signal_stop(tr, sig);
		}
		if (detaching) {
			ptrace(PTRACE_DETACH, w, 0, sig);
			for (i = 0; i < npids && !o->quiet && !o->quiet_attach; i++)
				if (pids[i] == w)
					fprintf(stderr, "sysgate: Process %d "
						"detached\n", w);
			tr->tid = 0;
			live--;
			continue;
		}
		ptrace(PTRACE_SYSCALL, w, 0, sig);
	}
	return 0;
}