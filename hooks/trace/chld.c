/* SPDX-License-Identifier: MIT */
/*
 * The SIGCHLD of a parent that has no handler for it.  strace prints
 * "--- SIGCHLD {...} ---" in the parent whenever a child ends, handler or
 * not (a traced process is stopped for every signal, even one it
 * ignores).  In process, a signal with a handler reaches the hooks; the
 * kernel throws a SIGCHLD whose action is the default away as it sends
 * it, unless the parent blocks it (then it waits, and goes when the
 * parent unblocks it or takes it with sigwaitinfo or a signalfd).
 *
 * So under -f each process, as it ends, posts the SIGCHLD it will send
 * (its status, user, CPU times) in the tree's memory, and its parent
 * takes it at its next call boundary: when its action is the default
 * there, the line as strace prints it, then or when the parent unblocks
 * it (glibc's system() blocks it around its wait); none when a handler
 * is there (the signal's own line) or the parent ignores it (no signal),
 * or when the parent took it while blocked.
 */
#include "trace.h"
#include "chld.h"

struct chld_area *chld_area;
unsigned int chld_seen;
int chld_seen_pid, chld_waiting_pid;

#define SIGCHLD_BIT (1UL << (17 - 1))

static long nr_getppid, nr_getuid, nr_times, nr_rt_sigaction,
	nr_rt_sigprocmask, nr_rt_sigpending, nr_waitid;

/* The calls after which a waiting SIGCHLD may be unblocked (a mask set,
 * restored or given for the call) or taken (sigwaitinfo, a signalfd's
 * read), or its child have ended: seen again only then, since looking
 * costs three calls. */
static const char *const recheck_names[] = {
	"rt_sigprocmask", "rt_sigsuspend", "rt_sigtimedwait", "pselect6",
	"ppoll", "epoll_pwait", "epoll_pwait2", "read", "readv", "wait4",
	"waitid",
};
#define RECHECKS (sizeof(recheck_names) / sizeof(recheck_names[0]))
static long recheck_nr[RECHECKS];

int chld_rechecks(long nr)
{
	unsigned int i;

	for (i = 0; i < RECHECKS; i++)
		if (recheck_nr[i] == nr)
			return 1;
	return 0;
}

static long sc(long nr, long a, long b, long c, long d, long e)
{
	return sysgate_syscall(nr, a, b, c, d, e, 0);
}

void chld_init(struct sysgate_ctx *ctx)
{
	unsigned int i;

	nr_getppid = sysgate_syscall_number("getppid");
	nr_getuid = sysgate_syscall_number("getuid");
	nr_times = sysgate_syscall_number("times");
	nr_rt_sigaction = sysgate_syscall_number("rt_sigaction");
	nr_rt_sigprocmask = sysgate_syscall_number("rt_sigprocmask");
	nr_rt_sigpending = sysgate_syscall_number("rt_sigpending");
	nr_waitid = sysgate_syscall_number("waitid");
	for (i = 0; i < RECHECKS; i++) {
		recheck_nr[i] = sysgate_syscall_number(recheck_names[i]);
		if (recheck_nr[i] < 0)
			recheck_nr[i] = -2;	/* (not -1: an entry) */
	}
	chld_area = sysgate_shared(ctx, "trace-chld", sizeof(*chld_area));
	if (chld_area) {
		int none = 0, pid;

		/* (the first process to get here is the root) */
		sysgate_task_tid(&pid);
		__atomic_compare_exchange_n(&chld_area->root, &none, pid, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
}

/* From this process's stat, in /proc's pid namespace: its parent (field
 * 4), 0 if unknown, itself (field 1) in *self, and the signal it sends
 * its parent as it ends (field 38: clone's exit signal). */
static int stat_parent(int *self, int *exit_signal)
{
	char stat[1024], *p;
	long at = trace_read_stat("/proc/self/stat", stat, sizeof(stat));
	int field = 2, ppid = 0, v;

	*self = 0;
	*exit_signal = 17;
	if (at < 0)
		return 0;
	for (p = stat; *p >= '0' && *p <= '9'; p++)
		*self = *self * 10 + (*p - '0');
	/* " S ppid ...": a field after each space */
	for (p = stat + at - 1; *p && field < 38; p++) {
		if (*p != ' ')
			continue;
		field++;
		for (v = 0; p[1] >= '0' && p[1] <= '9'; p++)
			v = v * 10 + (p[1] - '0');
		if (field == 4)
			ppid = v;
		else if (field == 38)
			*exit_signal = v;
	}
	return ppid;
}

/* End e of a child of process parent, for its next look. */
void chld_post_end(int parent, const struct chld_end *e)
{
	struct chld_slot *p;
	unsigned int n = __atomic_fetch_add(&chld_area->next, 1,
					    __ATOMIC_RELAXED),
		     tag = (n << 1) + 2 ? (n << 1) + 2 : 2;

	p = &chld_area->slot[n % CHLD_ENDS];
	/* (a reader that copied the slot meanwhile fails to take it) */
	__atomic_store_n(&p->tag, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	p->parent = parent;
	p->was_pending = 0;
	p->end = *e;
	__atomic_store_n(&p->tag, tag, __ATOMIC_RELEASE);
	__atomic_add_fetch(&chld_area->posted, 1, __ATOMIC_RELEASE);
}

/* (getppid only where /proc cannot tell: a program's tracer of this
 * process counts its calls) */
void chld_post(int pid, int code, int status)
{
	struct chld_end e;
	long tms[4] = { 0 };	/* clock ticks, as si_utime and si_stime */
	int parent, sig, self;

	/* (none for the root, whose parent is outside the tree: its end
	 * reads no /proc file) */
	if (!chld_area ||
	    pid == __atomic_load_n(&chld_area->root, __ATOMIC_RELAXED))
		return;
	parent = stat_parent(&self, &sig);
	if (self != pid) {
		/* /proc of another pid namespace (unshare --pid without
		 * --mount-proc), or none: a parent in this one has this one's
		 * ids, one outside likely /proc's */
		int inside = (int)sc(nr_getppid, 0, 0, 0, 0, 0);

		if (inside > 0 || !self)
			parent = inside;
		else
			pid = self;
	}
	/* (a parent outside this pid namespace; a clone whose end sends
	 * another signal, or none) */
	if (parent <= 0 || sig != 17)
		return;
	e.code = code;
	e.pid = pid;
	e.uid = (int)sc(nr_getuid, 0, 0, 0, 0, 0);
	e.status = status;
	sc(nr_times, (long)tms, 0, 0, 0, 0);
	e.utime = tms[0];
	e.stime = tms[1];
	chld_post_end(parent, &e);
}

/* The program's action for SIGCHLD is the default (a handler of its is
 * sysgate's wrapper in the kernel: its signal reaches the hooks). */
static int sigchld_default(void)
{
	unsigned long act[4] = { 1 };

	return sc(nr_rt_sigaction, 17, 0, (long)act, 8, 0) == 0 && !act[0];
}

static int sigchld_blocked(void)
{
	unsigned long set = 0;

	sc(nr_rt_sigprocmask, 0 /* SIG_BLOCK */, 0, (long)&set, 8, 0);
	return !!(set & SIGCHLD_BIT);
}

static int sigchld_pending(void)
{
	unsigned long set = 0;

	sc(nr_rt_sigpending, (long)&set, 8, 0, 0, 0);
	return !!(set & SIGCHLD_BIT);
}

/* Child pid has ended: it is a zombie, or reaped already. */
static int ended(int pid)
{
	int si[32] = { 0 };	/* siginfo: si_pid at [4] */
	long r = sc(nr_waitid, 1 /* P_PID */, pid, (long)si,
		    4 | 1 | 0x01000000 /* WEXITED|WNOHANG|WNOWAIT */, 0);

	return r < 0 || si[4] == pid;
}

static int take(struct chld_slot *p, unsigned int tag)
{
	return __atomic_compare_exchange_n(&p->tag, &tag, 0, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/*
 * What the kernel did with each end posted for process pid since its last
 * look.  Blocked, one SIGCHLD waits (a second is dropped while one
 * does); it is delivered when unblocked (a line) unless the program took
 * it first.
 */
void chld_deliver(int pid, void (*line)(const struct chld_end *e, void *arg),
		  void *arg)
{
	struct chld_slot *mine[CHLD_ENDS];
	unsigned int tags[CHLD_ENDS];
	int i, n = 0, waits = 0, pending, first = -1;

	chld_seen = __atomic_load_n(&chld_area->posted, __ATOMIC_ACQUIRE);
	chld_seen_pid = pid;
	for (i = 0; i < CHLD_ENDS; i++) {
		struct chld_slot *p = &chld_area->slot[i];
		unsigned int tag = __atomic_load_n(&p->tag, __ATOMIC_ACQUIRE);

		if (tag && tag != 1 && p->parent == pid) {
			mine[n] = p;
			tags[n++] = tag;
		}
	}
	if (!n)
		goto out;
	if (!sigchld_default()) {
		/* a handler's own line, or ignored: no signal */
		for (i = 0; i < n; i++)
			take(mine[i], tags[i]);
		goto out;
	}
	if (!sigchld_blocked()) {
		for (i = 0; i < n; i++) {
			struct chld_end e = mine[i]->end;

			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (take(mine[i], tags[i]))
				line(&e, arg);
		}
		goto out;
	}
	/* the one waiting: seen so before, else the oldest */
	pending = sigchld_pending();
	for (i = 0; pending && i < n; i++)
		if (first < 0 || mine[i]->was_pending ||
		    (!mine[first]->was_pending &&
		     (int)(tags[i] - tags[first]) < 0))
			first = i;
	for (i = 0; i < n; i++) {
		struct chld_slot *p = mine[i];

		if (i == first) {
			p->was_pending = 1;
			waits = 1;
		} else if (pending || p->was_pending || ended(p->end.pid)) {
			take(p, tags[i]);	/* dropped, or taken */
		} else {
			waits = 1;	/* (posted before its exit) */
		}
	}
out:
	if (waits)
		chld_waiting_pid = pid;
	else if (chld_waiting_pid == pid)
		chld_waiting_pid = 0;
}
