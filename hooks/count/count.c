/* SPDX-License-Identifier: MIT */
/*
 * count: strace -c.  Every process of the tree adds its calls, errors and
 * time per syscall into one shared table; the CLI prints the summary when
 * the whole tree has ended (or, without the CLI, the root process prints
 * it when it exits).  Written only against sysgate.h.
 *
 * The time of a call is, as strace's, the system CPU time it took.  A
 * call that may sleep in the kernel (a read, a wait, a poll...) is timed
 * by the calling thread's ru_stime (getrusage(RUSAGE_THREAD), the kernel's
 * accounting that strace reads from wait4) on entry and at exit; any other
 * call is on the CPU from entry to exit, and the clock (the vDSO, no system
 * call) gives its system time without two more system calls around every
 * call (doc/trace.md).  With -w every call gets its wall-clock time.
 * "The clock" is sysgate_ticks() where the process has a usable counter
 * (a third of a vDSO clock_gettime's cost), converted to nanoseconds at
 * the summary.
 */
#include "sysgate.h"
#include "count.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"
#include "../lib/slots.h"

static struct count_table *table;
static struct count_table local;	/* if no shared memory */
static char sortby[16];
static char columns[128];
static int json, wall;
/* without -f: the calls of each process's first thread alone, as strace
 * counts the thread it traces (the others are not followed) */
static int leader_only;
/* -O: taken off each call's time (nanoseconds), as strace does; the
 * time is then the clock's, whose calls are nanoseconds too */
static long overhead;
static long nr_getrusage;
/* Calls that may sleep: their wall time is not CPU time.  0: not asked
 * yet, 1: no, 2: yes; asked at a number's first call (a hundred name
 * lookups at every process start cost more than its start-up calls).
 * Not the calls that wait only on a disk read or a lock held by another
 * thread (mmap and mprotect, the stat family, access, readlink,
 * getdents64, close): the two getrusage calls cost more than such a call
 * (~0.9 us; a shell's child makes a hundred of them at start), and
 * ru_stime, split by ticks, reads 0 for most of them anyway. */
static unsigned char may_sleep[SYSGATE_NR_MAX];
static const char *const sleepers[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
	"pwritev", "preadv2", "pwritev2", "open", "openat", "openat2",
	"creat", "recvfrom", "recvmsg", "recvmmsg", "sendto",
	"sendmsg", "sendmmsg", "accept", "accept4", "connect", "poll",
	"ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait",
	"epoll_pwait2", "nanosleep", "clock_nanosleep", "pause", "wait4",
	"waitid", "futex", "futex_waitv", "flock", "fcntl", "msgrcv",
	"msgsnd", "semop", "semtimedop", "io_getevents", "io_pgetevents",
	"io_uring_enter", "rt_sigsuspend", "rt_sigtimedwait", "sendfile",
	"splice", "tee", "vmsplice", "copy_file_range", "fsync", "fdatasync",
	"sync", "syncfs", "sync_file_range", "msync", "ioctl",
	"mq_timedreceive", "mq_timedsend", "execve", "execveat", "vfork",
	"clone", "clone3", "fork", "ptrace", "fallocate", "ftruncate",
	"truncate", "unlink", "unlinkat", "rename", "renameat", "renameat2",
	"mkdir", "mkdirat", "rmdir", "umount2", "mount",
};
/* Each thread's CPU time at the entry of its calls (handlers' calls nest
 * in the call they interrupted); by thread, without __thread
 * (hooks/lib/slots.h). */
#define MAX_NEST 8
static struct tid_slots threads;
static struct {
	unsigned long long at[MAX_NEST];
	const struct sysgate_sys *call[MAX_NEST];
	int n;
} cpu[TID_SLOTS];

/* This thread's system CPU time so far. */
static unsigned long long thread_cpu_ns(void)
{
	struct {
		long utime_sec, utime_usec, stime_sec, stime_usec;
		long rest[14];
	} ru;

	if (sysgate_syscall(nr_getrusage, 1 /* RUSAGE_THREAD */, (long)&ru,
			    0, 0, 0, 0) < 0)
		return 0;
	return ru.stime_sec * 1000000000ULL + ru.stime_usec * 1000ULL;
}
__attribute__((hot))
static int sleeps(long nr)
{
	unsigned char v;

	if ((unsigned long)nr >= SYSGATE_NR_MAX)
		return 0;
	v = __atomic_load_n(&may_sleep[nr], __ATOMIC_RELAXED);
	if (!v) {
		const char *name = sysgate_syscall_name(nr);
		unsigned int i;

		v = 1;
		for (i = 0; name && i < sizeof(sleepers) / sizeof(*sleepers); i++)
			if (!hk_strcmp(name, sleepers[i]))
				v = 2;
		__atomic_store_n(&may_sleep[nr], v, __ATOMIC_RELAXED);
	}
	return v == 2;
}

/* nr's record (marked used first: the summary skips unmarked ones) */
static struct count_row *row(long nr)
{
	unsigned long *w = &table->used[nr / (8 * sizeof(long))];
	unsigned long bit = 1UL << (nr % (8 * sizeof(long)));

	if (!(__atomic_load_n(w, __ATOMIC_RELAXED) & bit))
		__atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
	return &table->row[nr];
}

/* The first process with a counter leaves the pair the summary needs. */
static void anchor(struct count_table *t)
{
	unsigned long long ns = sysgate_now_ns(), ticks = sysgate_ticks(), no = 0;

	if (ticks && !__atomic_load_n(&t->anchor_ticks, __ATOMIC_RELAXED) &&
	    __atomic_compare_exchange_n(&t->anchor_ticks, &no, ticks, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		__atomic_store_n(&t->anchor_ns, ns, __ATOMIC_RELAXED);
}

static struct sysgate_ctx *self;
static long nr_execve, nr_execveat, nr_rt_sigreturn, nr_exit;
/* -b execve: an execve that succeeds lets its program go, uncounted, as
 * in strace -c; only one that fails comes back to be counted */
static int detach_exec;

extern struct sysgate_hook sg_builtin_count;

static int count_init(struct sysgate_ctx *ctx, const char *args)
{
	struct sc_set set;
	char err[160];
	struct arg a;
	int have_set = 0;

	self = ctx;
	while (args_next(&args, &a)) {
		if (arg_is(&a, "trace") && a.val) {
			if (set_parse(&set, a.val, a.vlen, err, sizeof(err)))
				return sysgate_error(ctx, err);
			have_set = 1;
		} else if (arg_is(&a, "S") && a.val) {
			if (count_sort_key(a.val, a.vlen) < 0 ||
			    a.vlen >= sizeof(sortby))
				return sysgate_error(ctx, "invalid -S sort key");
			hk_memcpy(sortby, a.val, a.vlen);
			sortby[a.vlen] = 0;
		} else if (arg_is(&a, "U") && a.val) {
			if (a.vlen >= sizeof(columns))
				return sysgate_error(ctx, "-U: too long");
			hk_memcpy(columns, a.val, a.vlen);
			columns[a.vlen] = 0;
			if (count_check_columns(columns) < 0)
				return sysgate_error(ctx, "invalid -U column");
		} else if (arg_is(&a, "leader")) {
			leader_only = 1;
		} else if (arg_is(&a, "w")) {
			wall = 1;
		} else if (arg_is(&a, "b")) {
			detach_exec = 1;
		} else if (arg_is(&a, "O") && a.val) {
			char err[96];

			if (arg_duration_ns(a.val, a.vlen, &overhead) ||
			    overhead < 0)
				return sysgate_error(ctx, fmt_bad_value(err,
					sizeof(err), "invalid -O argument:",
					a.val, a.vlen));
		} else if (arg_is(&a, "json")) {
			json = 1;
		} else {
			return sysgate_error(ctx, "count: unknown argument");
		}
	}
	if (sysgate_init_only_checks(ctx))
		return 0;
	if (overhead) {
		sg_builtin_count.flags &= ~SYSGATE_HOOK_TICKED;
		sg_builtin_count.flags |= SYSGATE_HOOK_TIMED;
	}
	if (have_set)
		set_select(ctx, &set);
	else
		sysgate_select_all(ctx);
	nr_execve = sysgate_syscall_number("execve");
	nr_execveat = sysgate_syscall_number("execveat");
	nr_rt_sigreturn = sysgate_syscall_number("rt_sigreturn");
	nr_exit = sysgate_syscall_number("exit");
	/* (a thread's end frees its slot, whatever the set) */
	if (nr_exit >= 0)
		sysgate_select(ctx, nr_exit);
	nr_getrusage = sysgate_syscall_number("getrusage");
	table = sysgate_shared(ctx, "table", sizeof(*table));
	if (!table)
		table = &local;
	anchor(table);
	return 0;
}

__attribute__((hot))
static enum sysgate_verdict count_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (leader_only && s->tid != s->pid)
		return SYSGATE_RUN;
	/* Calls that come back elsewhere are counted on the way in; exit and
	 * exit_group never come back and, as in strace -c, are not counted. */
	if (s->nr == nr_rt_sigreturn ||
	    (!detach_exec && (s->nr == nr_execve || s->nr == nr_execveat)))
		__atomic_add_fetch(&row(s->nr)->calls, 1, __ATOMIC_RELAXED);
	/* rt_sigreturn "fails" as strace counts it when the code it returns
	 * to gets an error (a call a handler cut short: EINTR); the core
	 * says where that result is (args[1]) */
	if (s->nr == nr_rt_sigreturn && s->args[1]) {
		long ret;

		if (sysgate_read_mem(s, &ret, (void *)s->args[1], sizeof(ret)) ==
			    sizeof(ret) && sysgate_is_error(ret))
			__atomic_add_fetch(&row(s->nr)->errors, 1,
					   __ATOMIC_RELAXED);
	}
	if (s->nr == nr_exit) {
		/* the thread ends: its slot is free again */
		int k = tid_slot_find(&threads, s->tid);

		if (k >= 0) {
			cpu[k].n = 0;
			tid_slot_free(&threads, k);
		}
	}
	if (!wall && !(s->flags & SYSGATE_SYS_NORETURN) && sleeps(s->nr)) {
		int fresh = 0, k = tid_slot(&threads, s->tid, &fresh), n;

		if (k >= 0 && fresh)
			cpu[k].n = 0;
		if (k >= 0 && (n = cpu[k].n) >= 0 && n < MAX_NEST) {
			cpu[k].call[n] = s;
			cpu[k].at[n] = thread_cpu_ns();
			cpu[k].n = n + 1;
		}
	}
	return SYSGATE_RUN;
}

/* The CPU time since s's entry, taken off the thread's list; 0 if not
 * there (a new child's exit). */
static unsigned long long cpu_since(const struct sysgate_sys *s)
{
	int k = tid_slot_find(&threads, s->tid), i;

	for (i = k >= 0 ? cpu[k].n - 1 : -1; i >= 0 && i < MAX_NEST; i--)
		if (cpu[k].call[i] == s) {
			unsigned long long now = thread_cpu_ns();

			cpu[k].n = i;
			return now > cpu[k].at[i] ? now - cpu[k].at[i] : 0;
		}
	return 0;
}

/* One time into a row's sum, minimum (+1) and maximum of its unit. */
static void add_time(unsigned long *sum, unsigned long *min1,
		     unsigned long *max, unsigned long v)
{
	unsigned long m;

	__atomic_add_fetch(sum, v, __ATOMIC_RELAXED);
	m = __atomic_load_n(min1, __ATOMIC_RELAXED);
	while ((!m || v + 1 < m) &&
	       !__atomic_compare_exchange_n(min1, &m, v + 1, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	m = __atomic_load_n(max, __ATOMIC_RELAXED);
	while (v > m &&
	       !__atomic_compare_exchange_n(max, &m, v, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

__attribute__((hot))
static void count_exit(struct sysgate_sys *s, void *data)
{
	unsigned long long ns = 0, now = 0;
	struct count_row *r;
	int slept = !wall && sleeps(s->nr);

	(void)data;
	if (slept)
		ns = cpu_since(s);	/* (also pops a new child's copy) */
	if ((s->flags & SYSGATE_SYS_CHILD) || s->nr < 0 ||
	    s->nr >= SYSGATE_NR_MAX || (leader_only && s->tid != s->pid))
		return;
	r = row(s->nr);
	if ((s->nr != nr_execve && s->nr != nr_execveat) || detach_exec)
		__atomic_add_fetch(&r->calls, 1, __ATOMIC_RELAXED);
	if (sysgate_is_error(s->ret))
		__atomic_add_fetch(&r->errors, 1, __ATOMIC_RELAXED);
	if (!slept && s->enter_ticks && (now = sysgate_ticks())) {
		add_time(&r->ticks, &r->min_ticks1, &r->max_ticks,
			 now > s->enter_ticks ? now - s->enter_ticks : 0);
		return;
	}
	if (!slept && s->enter_ns) {
		now = sysgate_now_ns();
		ns = now > s->enter_ns ? now - s->enter_ns : 0;
	}
	ns = ns > (unsigned long long)overhead ? ns - overhead : 0;
	add_time(&r->ns, &r->min_ns1, &r->max_ns, ns);
}

static void count_fini(void *data)
{
	static char buf[SYSGATE_NR_MAX * 120 + 512];
	struct count_format o = { sortby[0] ? sortby : 0,
				  columns[0] ? columns : 0, wall, json };

	(void)data;
	if (!sysgate_report_here())
		return;
	sysgate_output(self, buf, count_summary(table, &o, buf, sizeof(buf)));
}

struct sysgate_hook sg_builtin_count = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU | SYSGATE_HOOK_TICKED | SYSGATE_HOOK_NOTLS,
	.name = "count",
	.init = count_init,
	.enter = count_enter,
	.exit = count_exit,
	.fini = count_fini,
};
