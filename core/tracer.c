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
 * In the tracee, PTRACE_TRACEME in a vfork child waits for its execve:
 * gdb's child would otherwise stop on the SIGSYS of its next trapped call
 * while gdb, still inside vfork, cannot wait for it.  The parent cannot
 * wait before the child execs or exits, so nothing it could see is lost.
 */
#include "sg.h"

#define PTRACE_TRACEME_ 0
#define PTRACE_CONT_ 7
#define PTRACE_SINGLESTEP_ 9
#define PTRACE_SYSCALL_ 24
#define PTRACE_SYSEMU_ 31
#define PTRACE_SYSEMU_SINGLESTEP_ 32
#define PTRACE_GETSIGINFO_ 0x4202
#define SIGSYS_ 31
#define SYS_SECCOMP_ 1
#define SYS_USER_DISPATCH_ 2
#define CLD_TRAPPED_ 4

/*
 * How the tracer last resumed each thread (tid << 8 | request), so that a
 * hidden stop goes on as the tracer meant (strace's PTRACE_SYSCALL must
 * keep reporting calls); a thread whose slot another took gets the
 * process's last request.
 */
#define NRESUME 256
static unsigned long resumed[NRESUME];
static long last_resume = PTRACE_CONT_;

static int is_resume(long req)
{
	return req == PTRACE_CONT_ || req == PTRACE_SINGLESTEP_ ||
	       req == PTRACE_SYSCALL_ || req == PTRACE_SYSEMU_ ||
	       req == PTRACE_SYSEMU_SINGLESTEP_;
}

static long resume_of(int tid)
{
	unsigned long v = __atomic_load_n(&resumed[(unsigned)tid % NRESUME],
					  __ATOMIC_RELAXED);

	return (long)(v >> 8) == tid ? (long)(v & 0xff)
				     : __atomic_load_n(&last_resume,
						       __ATOMIC_RELAXED);
}

int sg_tracer_ptrace(struct sg_thread *t, struct sysgate_sys *s)
{
	long req = s->args[0];

	if (req == PTRACE_TRACEME_ && t->vfork_parent) {
		t->traceme = 1;
		s->ret = 0;
		return 1;
	}
	if (is_resume(req)) {
		int tid = (int)s->args[1];

		if (sg_raw_call(s) == 0) {
			__atomic_store_n(&resumed[(unsigned)tid % NRESUME],
					 (unsigned long)tid << 8 | req,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&last_resume, req, __ATOMIC_RELAXED);
		}
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
 * Does thread tid run sysgate (its library or its loader mapped)?  Then
 * its syscall user dispatch is taken to be sysgate's (a program arming
 * its own would take it from sysgate anyway).  (The kernel's
 * PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG reads nothing useful at the
 * signal's stop.)  On the hook stack: a page of buffer.
 */
struct maps_query {
	int tid;
	int found;
};

static long maps_name_sysgate(void *p)
{
	struct maps_query *q = p;
	static const char *const names[] = { "/libsysgate.so\n",
					     "/sysgate-loader\n" };
	char path[48], num[16], buf[4096 + 32];
	unsigned long keep = 0, i, j, n;
	long fd, r;
	int found = 0;

	sg_strlcpy(path, "/proc/", sizeof(path));
	sg_strlcpy(path + 6, sg_utoa(num + sizeof(num), q->tid),
		   sizeof(path) - 6);
	sg_strlcpy(path + sg_strlen(path), "/maps", 8);
	fd = sg_sc4(SG_NR_openat, -100 /* AT_FDCWD */, (long)path,
		    02000000 /* O_CLOEXEC */, 0);
	if (fd < 0)
		return 0;
	while (!found &&
	       (r = sg_sc3(SG_NR_read, fd, (long)(buf + keep), 4096)) > 0) {
		n = keep + r;
		for (j = 0; j < ARRAY_SIZE(names); j++) {
			unsigned long len = sg_strlen(names[j]);

			for (i = 0; i + len <= n && !found; i++)
				found = !memcmp(buf + i, names[j], len);
		}
		/* a name cut by the read is found whole in the next one */
		keep = n < 31 ? n : 31;
		memmove(buf, buf + n - keep, keep);
	}
	sg_sc1(SG_NR_close, fd);
	q->found = found;
	return 0;
}

/* The last answers, per thread, until that thread stops for another
 * reason (it may have exec'd something else). */
#define NKNOWN 64
static unsigned long known[NKNOWN];	/* tid << 1 | runs sysgate */

static int runs_sysgate(struct sg_thread *t, int tid)
{
	unsigned long *k = &known[(unsigned)tid % NKNOWN], v;
	struct maps_query q = { tid, 0 };

	v = __atomic_load_n(k, __ATOMIC_RELAXED);
	if ((long)(v >> 1) == tid)
		return v & 1;
	sg_run_hooks(t, maps_name_sysgate, &q);
	__atomic_store_n(k, (unsigned long)tid << 1 | q.found,
			 __ATOMIC_RELAXED);
	return q.found;
}

static void forget(int tid)
{
	unsigned long *k = &known[(unsigned)tid % NKNOWN];

	if ((long)(__atomic_load_n(k, __ATOMIC_RELAXED) >> 1) == tid)
		__atomic_store_n(k, 0, __ATOMIC_RELAXED);
}

/* The signal thread tid stopped with is a SIGSYS of sysgate's mechanism
 * (seccomp's carries sysgate's filter data, as core/sud.c checks). */
static int sysgates_sigsys(struct sg_thread *t, int tid)
{
	struct sg_siginfo si;

	if (sg_sc4(SG_NR_ptrace, PTRACE_GETSIGINFO_, tid, 0, (long)&si) < 0 ||
	    si.si_signo != SIGSYS_)
		return 0;
	if (si.si_code == SYS_SECCOMP_)
		return (unsigned int)si.si_errno == SG_SECCOMP_COOKIE;
	return si.si_code == SYS_USER_DISPATCH_ && runs_sysgate(t, tid);
}

/* wait4 or waitid, with the stops above resumed and never reported. */
void sg_tracer_wait(struct sg_thread *t, struct sysgate_sys *s)
{
	int wid = s->nr == SG_NR_waitid, arg = wid ? 2 : 1, status;
	long orig = s->args[arg];
	struct sg_siginfo info;
	void *out = orig ? (void *)orig : wid ? (void *)&info : (void *)&status;
	int tid;

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
			if (tid)
				forget(tid);
			if (info.si_code != CLD_TRAPPED_ ||
			    (int)info.fields[1] != SIGSYS_)
				return;
		} else {
			if (!s->ret ||
			    sg_read_safe(&status, out, sizeof(status)) < 0)
				return;
			tid = (int)s->ret;
			if (status != (SIGSYS_ << 8 | 0x7f)) {
				forget(tid);
				return;
			}
		}
		if (!tid || !sysgates_sigsys(t, tid))
			return;
		/* (a thread killed meanwhile is reported by the next wait) */
		sg_sc4(SG_NR_ptrace, resume_of(tid), tid, 0, SIGSYS_);
	}
}

/*
 * A tracer that sysgate does not run (strace or gdb around the sysgate
 * command) sees the signal of each trapped call, and nothing here can
 * hide it from that tracer: said once, by the tree's first process.
 */
void sg_tracer_outside(void)
{
	static const char key[] = "\nTracerPid:\t";
	char buf[1024];
	long fd, n = 0, r;
	unsigned int i;

	if (!sg.is_root || !(sg.seccomp_on || sg.sud_on))
		return;
	fd = sg_sc4(SG_NR_openat, -100 /* AT_FDCWD */, (long)"/proc/self/status",
		    02000000 /* O_CLOEXEC */, 0);
	if (fd < 0)
		return;
	while (n < (long)sizeof(buf) - 1 &&
	       (r = sg_sc3(SG_NR_read, fd, (long)(buf + n),
			   sizeof(buf) - 1 - n)) > 0)
		n += r;
	sg_sc1(SG_NR_close, fd);
	buf[n] = 0;
	for (i = 0; buf[i]; i++)
		if (!sg_strncmp(buf + i, key, sizeof(key) - 1)) {
			const char *p = buf + i + sizeof(key) - 1;

			if (*p >= '1' && *p <= '9')
				sg_warn("this program is traced from outside sysgate: "
					"its tracer sees a SIGSYS for each call "
					"sysgate traps (run the tracer under sysgate "
					"-f, or in gdb: handle SIGSYS nostop noprint)");
			return;
		}
}
