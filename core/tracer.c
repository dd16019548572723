/* SPDX-License-Identifier: MIT */
/*
 * sysgate in a ptracer (gdb, strace run under sysgate) and in its tracees.
 *
 * The mechanisms that trap (-m seccomp, syscall user dispatch) raise a
 * SIGSYS in the program for each call they catch, and the kernel shows
 * every signal of a traced thread to its tracer first: gdb stops on each
 * one, strace prints it.  sysgate in the tracer hides them: its wait4 and
 * waitid resume such a stop with its signal, the way the tracer last
 * resumed that thread, and wait again (WNOHANG still answers "nothing"),
 * so the tracer sees only what it would see natively.  A tracer that
 * sysgate does not run sees them (doc/internals.md).
 *
 * Under -m seccomp each call the filter traps shows a tracer that asks
 * for calls (strace's PTRACE_SYSCALL) an entry, an exit the kernel makes
 * up (the call did not run), and then sysgate's handler: its own calls,
 * the call made again, its rt_sigreturn.  sysgate in the tracer shows the
 * entry, hides the rest, and shows the handler's rt_sigreturn's exit as
 * the call's: by then the program's registers hold its result
 * (hide_trapped).
 *
 * A tracee that execs sysgate-loader (every program under -m seccomp)
 * shows the tracer the loader at the exec event: gdb would read the
 * loader's file and auxiliary vector, not the program's, and never find
 * its libraries.  sysgate in the tracer holds that event back and lets
 * the tracee run (its calls not reported) until the loader has mapped the
 * program and named it in /proc (sg_tracer_loader_ready), and reports the
 * exec event there.
 *
 * In the tracee, PTRACE_TRACEME in a vfork child waits for its execve:
 * gdb's child would otherwise stop on the SIGSYS of its next trapped call
 * while gdb, still inside vfork, cannot wait for it.  The parent cannot
 * wait before the child execs or exits, so nothing it could see is lost.
 */
#include "sg.h"
#include "traps.h"
#include "maps.h"
#include "mech.h"
#include "options.h"
#include "signal_arch.h"

#define PTRACE_TRACEME_ 0
#define PTRACE_CONT_ 7
#define PTRACE_SINGLESTEP_ 9
#define PTRACE_SYSCALL_ 24
#define PTRACE_SYSEMU_ 31
#define PTRACE_SYSEMU_SINGLESTEP_ 32
#define PTRACE_SETOPTIONS_ 0x4200
#define PTRACE_SEIZE_ 0x4206
#define PTRACE_O_TRACESYSGOOD_ 1
#define PTRACE_GETSIGINFO_ 0x4202
#define PTRACE_EVENT_EXEC_ 4
#define PTRACE_GET_SYSCALL_INFO_ 0x420e
#define SIGTRAP_ 5
#define SIGSYS_ 31
#define SYS_SECCOMP_ 1
#define SYS_USER_DISPATCH_ 2
#define CLD_TRAPPED_ 4

/*
 * What the tracer last asked of each thread (tid << 32 | value): how it
 * resumed it, so that a hidden stop goes on as the tracer meant
 * (strace's PTRACE_SYSCALL must keep reporting calls), and its options;
 * a thread whose slot another took gets the process's last value.
 */
#define NNOTES 256
struct notes {
	unsigned long slot[NNOTES];
	unsigned long last;
};
static struct notes resumed = { { 0 }, PTRACE_CONT_ }, options;

static void note(struct notes *n, int tid, unsigned int v)
{
	__atomic_store_n(&n->slot[(unsigned)tid % NNOTES],
			 (unsigned long)(unsigned)tid << 32 | v,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&n->last, v, __ATOMIC_RELAXED);
}

static unsigned int noted(struct notes *n, int tid)
{
	unsigned long v = __atomic_load_n(&n->slot[(unsigned)tid % NNOTES],
					  __ATOMIC_RELAXED);

	return (int)(v >> 32) == tid ? (unsigned int)v
				     : __atomic_load_n(&n->last,
						       __ATOMIC_RELAXED);
}

static int is_resume(long req)
{
	return req == PTRACE_CONT_ || req == PTRACE_SINGLESTEP_ ||
	       req == PTRACE_SYSCALL_ || req == PTRACE_SYSEMU_ ||
	       req == PTRACE_SYSEMU_SINGLESTEP_;
}

static long resume_of(int tid)
{
	return noted(&resumed, tid);
}

int sg_tracer_ptrace(struct sg_thread *t, struct sysgate_sys *s)
{
	long req = s->args[0];

	if (req == PTRACE_TRACEME_ && t->vfork_parent) {
		t->traceme = 1;
		s->ret = 0;
		return 1;
	}
	if (is_resume(req) || req == PTRACE_SETOPTIONS_ ||
	    req == PTRACE_SEIZE_) {
		int tid = (int)s->args[1];

		if (sg_raw_call(s) == 0)
			note(is_resume(req) ? &resumed : &options, tid,
			     is_resume(req) ? req : s->args[3]);
		return 1;
	}
	return 0;
}

void sg_tracer_traceme_now(struct sg_thread *t)
{
	if (t && t->traceme) {
		t->traceme = 0;
		sg_sc4(SG_NR_ptrace, PTRACE_TRACEME_, 0, 0, 0);
	}
}

/*
 * What runs in thread tid, from its maps: sysgate (its library or its
 * loader mapped), and where its table of breakpoints is (0: none).  A
 * thread that runs sysgate has sysgate's syscall user dispatch (a program
 * arming its own would take it from sysgate anyway).  (The kernel's
 * PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG reads nothing useful at the
 * signal's stop.)  On the hook stack: two pages of buffer.
 */
struct tracee {
	int tid;
	int sysgate;
	unsigned long traps;
};

/* A read of a tracee's maps: and the pages there that may be the header
 * of its table of breakpoints (core/traps.c), looked at after it. */
#define NHEADS 8
struct maps_read {
	struct tracee *q;
	unsigned long head[NHEADS];
	int heads;
};

static int ends_with(const char *s, unsigned long n, const char *end)
{
	unsigned long len = sg_strlen(end);

	return n >= len && !memcmp(s + n - len, end, len);
}

/* line: NUL-terminated, n bytes long */
static void maps_line(struct maps_read *r, const char *line, unsigned long n)
{
	struct sg_mapping m;

	/* (once /proc/PID/exe names the program, the loader's segments
	 * are sysgate-loader.text's or anonymous: then the shared state's
	 * memfd says so) */
	if (ends_with(line, n, "/libsysgate.so") ||
	    ends_with(line, n, "/sysgate-loader") ||
	    ends_with(line, n, "/sysgate-loader.text") ||
	    ends_with(line, n, "/memfd:sysgate-state (deleted)"))
		r->q->sysgate = 1;
	/* an anonymous private read-only page */
	if (r->heads < NHEADS && sg_maps_parse_line(line, &m) == 0 &&
	    m.hi - m.lo == SG_TRAPS_HEAD && m.prot == PROT_R && !m.shared &&
	    !m.off && !m.dev_ino[0] && !m.dev_ino[1] && !*m.path)
		r->head[r->heads++] = m.lo;
}

static long read_maps(void *p)
{
	struct maps_read *mr = p;
	struct tracee *q = mr->q;
	char path[48], num[16], buf[8192];
	unsigned long keep = 0, n, i, from;
	long fd, r;

	sg_strlcpy(path, "/proc/", sizeof(path));
	sg_strlcpy(path + 6, sg_utoa(num + sizeof(num), q->tid),
		   sizeof(path) - 6);
	sg_strlcpy(path + sg_strlen(path), "/maps", 8);
	fd = sg_sc4(SG_NR_openat, -100 /* AT_FDCWD */, (long)path,
		    02000000 /* O_CLOEXEC */, 0);
	if (fd < 0)
		return 0;
	while ((r = sg_sc3(SG_NR_read, fd, (long)(buf + keep),
			   sizeof(buf) - keep)) > 0) {
		n = keep + r;
		for (i = from = 0; i < n; i++)
			if (buf[i] == '\n') {
				buf[i] = 0;
				maps_line(mr, buf + from, i - from);
				from = i + 1;
			}
		/* the line the read cut (one longer than the buffer is
		 * dropped) */
		keep = n - from < sizeof(buf) / 2 ? n - from : 0;
		memmove(buf, buf + n - keep, keep);
	}
	sg_sc1(SG_NR_close, fd);
	for (i = 0; i < (unsigned long)mr->heads && !q->traps; i++)
		q->traps = sg_traps_at(q->tid, mr->head[i]);
	return 0;
}

/* The last answers, per thread, until that thread stops for another
 * reason (it may have exec'd something else). */
#define NKNOWN 64
static struct tracee known[NKNOWN];

static struct tracee tracee(struct sg_thread *t, int tid)
{
	struct tracee *k = &known[(unsigned)tid % NKNOWN], q = { tid, 0, 0 };
	struct maps_read r = { &q, { 0 }, 0 };

	if (__atomic_load_n(&k->tid, __ATOMIC_ACQUIRE) == tid) {
		q = *k;
		if (q.tid == tid)
			return q;
		q = (struct tracee){ tid, 0, 0 };
	}
	sg_run_hooks(t, read_maps, &r);
	__atomic_store_n(&k->tid, 0, __ATOMIC_RELAXED);
	k->sysgate = q.sysgate;
	k->traps = q.traps;
	__atomic_store_n(&k->tid, tid, __ATOMIC_RELEASE);
	return q;
}

static void forget(int tid)
{
	struct tracee *k = &known[(unsigned)tid % NKNOWN];

	__atomic_compare_exchange_n(&k->tid, &tid, 0, 0, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
}

/* The siginfo layout before the fields: the start of
 * struct ptrace_syscall_info, with the thread's instruction pointer. */
struct syscall_info_head {
	unsigned char op, pad[3];
	unsigned int arch;
	unsigned long long ip, sp;
};

/* (what follows it at a call's entry, and at its exit) */
struct syscall_info_entry {
	struct syscall_info_head head;
	unsigned long long nr, args[6];
};

struct syscall_info_exit {
	struct syscall_info_head head;
	long long rval;
	unsigned char is_error;
};

/*
 * The signal thread tid stopped with was raised by sysgate's mechanism:
 * a SIGSYS of its seccomp filter (its data, as core/sud.c checks) or of
 * its syscall user dispatch, or a SIGTRAP at one of its breakpoints.
 */
static int sysgates_signal(struct sg_thread *t, int tid, int sig)
{
	struct syscall_info_head head;
	struct sg_siginfo si;
	struct tracee q;

	if (sg_sc4(SG_NR_ptrace, PTRACE_GETSIGINFO_, tid, 0, (long)&si) < 0 ||
	    si.si_signo != sig)
		return 0;
	if (sig == SIGSYS_ && si.si_code == SYS_SECCOMP_)
		return (unsigned int)si.si_errno == SG_SECCOMP_COOKIE;
	if (sig == SIGSYS_)
		return si.si_code == SYS_USER_DISPATCH_ &&
		       (sg_tracee_runs_sysgate(tid) || tracee(t, tid).sysgate);
	if (si.si_code != SG_TRAP_SI_CODE)
		return 0;
	q = tracee(t, tid);
	return q.traps &&
	       sg_sc4(SG_NR_ptrace, PTRACE_GET_SYSCALL_INFO_, tid,
		      sizeof(head), (long)&head) > 0 &&
	       sg_traps_of(tid, q.traps, head.ip - SG_TRAP_PC_BACK);
}

/*
 * The loader's last call before it jumps to the program (after it set
 * /proc/self/exe and auxv, tools/loader): one no program makes, which
 * returns 0 (a tracer resuming from the exec event with PTRACE_SYSCALL
 * takes its exit for the execve's).
 */
#define READY_ADVICE 0	/* MADV_NORMAL */
void sg_tracer_loader_ready(void)
{
	sg_sc3(SG_NR_madvise, 0, 0, READY_ADVICE);
}


static int loader_ready(int tid)
{
	struct syscall_info_entry e;

	return sg_sc4(SG_NR_ptrace, PTRACE_GET_SYSCALL_INFO_, tid, sizeof(e),
		      (long)&e) >= (long)sizeof(e) &&
	       e.head.op == 1 /* PTRACE_SYSCALL_INFO_ENTRY */ &&
	       e.nr == (unsigned long long)SG_NR_madvise && !e.args[0] &&
	       !e.args[1] && e.args[2] == READY_ADVICE;
}

/* Exec events held back, per thread: what wait returned for them. */
#define NHELD 16
static struct held_exec {
	int tid;
	int status;
	struct sg_siginfo info;
} held[NHELD];

static struct held_exec *held_of(int tid)
{
	unsigned int i;

	for (i = 0; i < NHELD; i++)
		if (__atomic_load_n(&held[i].tid, __ATOMIC_ACQUIRE) == tid)
			return &held[i];
	return 0;
}

/* An exec event of a tracee that now runs sysgate-loader: held (0 where
 * the table is full: reported as it is). */
static int hold_exec(int tid, int status, const struct sg_siginfo *info)
{
	char path[48], num[16], link[512];
	unsigned int i;
	long n;
	int free;

	sg_strlcpy(path, "/proc/", sizeof(path));
	sg_strlcpy(path + 6, sg_utoa(num + sizeof(num), tid), sizeof(path) - 6);
	sg_strlcpy(path + sg_strlen(path), "/exe", 8);
	n = sg_sc4(SG_NR_readlinkat, -100 /* AT_FDCWD */, (long)path,
		   (long)link, sizeof(link) - 1);
	if (n <= 0 || !ends_with(link, n, "/sysgate-loader"))
		return 0;
	for (i = 0; i < NHELD; i++) {
		free = 0;
		if (__atomic_compare_exchange_n(&held[i].tid, &free, -1, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			held[i].status = status;
			held[i].info = *info;
			__atomic_store_n(&held[i].tid, tid, __ATOMIC_RELEASE);
			return 1;
		}
	}
	return 0;
}

/*
 * Per thread, the calls the filter trapped whose handler is still
 * running (a signal handler of the program's may trap calls inside one):
 * each from its made-up exit until its handler's rt_sigreturn comes back
 * to the call (at), or, where the handler returns to make the call
 * itself at the program's stack (raw: clone, vfork, the program's
 * rt_sigreturn, core/dispatch.c), until that call's exit.  One thread's
 * record per slot: a thread that lost its slot shows what the kernel
 * shows.
 */
#define NCALLS 64
#define NTRAPPED 8
static struct call_state {
	int tid, depth;
	unsigned long long nr, arg0;		/* of the last entry */
	unsigned long long ip;
	struct trapped {
		unsigned long long at;
		int raw;
	} trapped[NTRAPPED];
} calls[NCALLS];

/* A SIGSYS pending for thread tid (the filter's, after a trapped call). */
static int sigsys_pending(int tid)
{
	char buf[4096];
	const char *p = sg_proc_status(tid, "SigPnd", buf, sizeof(buf));
	unsigned long pnd = 0;

	for (; p && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')); p++)
		pnd = pnd << 4 |
		      (unsigned long)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
	return (pnd >> (SIGSYS_ - 1)) & 1;
}

/*
 * A call stop of thread tid (PTRACE_O_TRACESYSGOOD) that the tracer
 * must not see: 1 to resume it unseen.
 */
static int hide_trapped(struct sg_thread *t, int tid)
{
	struct call_state *c = &calls[(unsigned)tid % NCALLS];
	union {
		struct syscall_info_entry e;
		struct syscall_info_exit x;
	} u;
	long n = sg_sc4(SG_NR_ptrace, PTRACE_GET_SYSCALL_INFO_, tid,
			sizeof(u), (long)&u);
	struct trapped *top;

	if (c->tid != tid) {
		c->tid = tid;
		c->depth = 0;
		c->nr = c->arg0 = ~0ULL;	/* (no entry seen yet) */
	}
	if (n < (long)sizeof(u.e.head))
		return 0;
	if (u.e.head.op == 1 /* PTRACE_SYSCALL_INFO_ENTRY */) {
		c->nr = u.e.nr;
		c->arg0 = u.e.args[0];
		c->ip = u.e.head.ip;
		return c->depth > 0;
	}
	if (u.x.head.op != 2 /* PTRACE_SYSCALL_INFO_EXIT */)
		return 0;
	/* The filter's trap: the kernel put back the registers the call
	 * had (x86-64 the number, others the first argument) and queued
	 * the SIGSYS; sysgate's if the thread runs sysgate (a program's
	 * own filter's trap shows as natively). */
	if (((unsigned long long)u.x.rval == c->nr ||
	     (unsigned long long)u.x.rval == c->arg0) &&
	    c->depth < NTRAPPED && sigsys_pending(tid) &&
	    (sg_tracee_runs_sysgate(tid) || tracee(t, tid).sysgate)) {
		c->trapped[c->depth].at = c->ip;
		c->trapped[c->depth++].raw = 0;
		return 1;
	}
	if (!c->depth)
		return 0;
	top = &c->trapped[c->depth - 1];
	if (top->raw) {
		/* the call made at the program's stack: its exit */
		c->depth--;
		return c->depth > 0;
	}
	if (c->nr != (unsigned long long)SG_NR_rt_sigreturn)
		return 1;	/* the handler's own call */
	if (u.x.head.ip == top->at) {
		/* back at the call, with its result */
		c->depth--;
		return c->depth > 0;
	}
	top->raw = 1;	/* back to make the call at the program's stack */
	return 1;
}

/* After an exec, the thread starts afresh. */
static void calls_reset(int tid)
{
	calls[(unsigned)tid % NCALLS].tid = 0;
}

/* A stop at an execve: its event, or without PTRACE_O_TRACEEXEC (gdb
 * starting its inferior) the SIGTRAP the kernel sends itself. */
static int exec_stop(int tid, int stop)
{
	struct sg_siginfo si;

	if (stop == (SIGTRAP_ | PTRACE_EVENT_EXEC_ << 8))
		return 1;
	return stop == SIGTRAP_ &&
	       sg_sc4(SG_NR_ptrace, PTRACE_GETSIGINFO_, tid, 0, (long)&si) == 0 &&
	       si.si_signo == SIGTRAP_ && si.si_code == 0 /* SI_USER */ &&
	       (int)si.fields[0] == tid;
}

/* wait4 or waitid, with the stops above resumed and never reported. */
void sg_tracer_wait(struct sg_thread *t, struct sysgate_sys *s)
{
	int wid = s->nr == SG_NR_waitid, arg = wid ? 2 : 1, status = 0;
	long orig = s->args[arg];
	struct sg_siginfo info = { 0 };
	void *out = orig ? (void *)orig : wid ? (void *)&info : (void *)&status;
	struct held_exec *h;
	int tid, sig, stop;

	for (;;) {
		s->args[arg] = (long)out;
		sg_raw_call(s);
		s->args[arg] = orig;
		if (sysgate_is_error(s->ret))
			return;
		if (wid) {
			if (sg_read_safe(&info, out, sizeof(info)) < 0)
				return;
			tid = (int)info.fields[0];
			stop = info.si_code == CLD_TRAPPED_ ? (int)info.fields[1]
							    : 0;
		} else {
			if (!s->ret ||
			    sg_read_safe(&status, out, sizeof(status)) < 0)
				return;
			tid = (int)s->ret;
			stop = (status & 0xff) == 0x7f ? status >> 8 : 0;
		}
		if (!tid)
			return;
		/* (a signal's stop: no ptrace event in the high bits) */
		sig = stop & ~0xff ? 0 : stop;
		h = held_of(tid);
		if (h && !stop) {
			/* (gone before the loader was done) */
			__atomic_store_n(&h->tid, 0, __ATOMIC_RELEASE);
		} else if (h && (stop & 0x7f) == SIGTRAP_ && loader_ready(tid)) {
			/* The program is in place: the exec event now. */
			sg_sc4(SG_NR_ptrace, PTRACE_SETOPTIONS_, tid, 0,
			       noted(&options, tid));
			if (wid)
				sg_write_safe(out, &h->info, sizeof(h->info));
			else
				sg_write_safe(out, &h->status, sizeof(status));
			__atomic_store_n(&h->tid, 0, __ATOMIC_RELEASE);
			calls_reset(tid);
			forget(tid);
			return;
		} else if (h) {
			/* the loader at work, unseen (a signal goes on to
			 * it; a SIGTRAP is a call's stop unless sysgate's) */
			if ((sig & 0x80) || (sig == SIGTRAP_ &&
					       !sysgates_signal(t, tid, sig)))
				sig = 0;
			sg_sc4(SG_NR_ptrace, PTRACE_SYSCALL_, tid, 0, sig);
			continue;
		}
		if (exec_stop(tid, stop) && hold_exec(tid, status, &info)) {
			forget(tid);
			/* (a call's stops tell entry from exit only so) */
			sg_sc4(SG_NR_ptrace, PTRACE_SETOPTIONS_, tid, 0,
			       noted(&options, tid) | PTRACE_O_TRACESYSGOOD_);
			sg_sc4(SG_NR_ptrace, PTRACE_SYSCALL_, tid, 0, 0);
			continue;
		}
		if (sig == (SIGTRAP_ | 0x80) && hide_trapped(t, tid)) {
			sg_sc4(SG_NR_ptrace, resume_of(tid), tid, 0, 0);
			continue;
		}
		if (stop == (SIGTRAP_ | PTRACE_EVENT_EXEC_ << 8))
			calls_reset(tid);
		if ((sig != SIGSYS_ && sig != SIGTRAP_) ||
		    !sysgates_signal(t, tid, sig)) {
			forget(tid);
			return;
		}
		/* (a thread killed meanwhile is reported by the next wait) */
		sg_sc4(SG_NR_ptrace, resume_of(tid), tid, 0, sig);
	}
}

/*
 * A tracer that sysgate does not run (strace or gdb around the sysgate
 * command) sees the signal of each trapped call, and nothing here can
 * hide it from that tracer: said once, by the tree's first process.
 */
void sg_tracer_outside(void)
{
	char buf[4096];
	const char *v;

	if (!sg.is_root || !(sg.seccomp_on || sg.sud_on ||
			     (sg.opts && !sg_strcmp(sg.opts->mechanism, "int3"))))
		return;
	/* (known from the loader's read of status at start, else read) */
	if (sg.tracer_at_start ? sg.tracer_at_start == 2 :
	    (v = sg_proc_status(0, "TracerPid", buf, sizeof(buf))) &&
	    *v >= '1' && *v <= '9')
		sg_warn("this program is traced from outside sysgate: "
			"its tracer sees a signal for each call "
			"sysgate traps (run the tracer under sysgate "
			"-f, or in gdb: handle SIGSYS nostop noprint)");
}
