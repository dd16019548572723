/* SPDX-License-Identifier: MIT */
/*
 * trace: one strace-format line per system call, written at the call's
 * exit with one write(2):
 *
 *   [pid N] HH:MM:SS.uuuuuu openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3 <0.000012>
 *
 * Calls that do not return (exit, exit_group, rt_sigreturn) are printed on
 * entry with "= ?".  A successful execve is printed by the new program's
 * instance of this hook (the line travels with sysgate_exec_carry), so it
 * reads "= 0" exactly as in strace.  --json prints JSON Lines (schema 2,
 * see man/sysgate.7).  Arguments are decoded from the syscall table's
 * argument kinds: integers, pointers, strings and buffers (cut at -s),
 * open/mmap/clone flags, modes, signals, argv/envp, iovecs.
 *
 * Written only against include/sysgate.h; no libc on the call path.
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include "trace.h"
#include "order.h"
#include "chld.h"
#include "../lib/args.h"
#include "../lib/sets.h"
#include "../lib/slots.h"

#define LINE_MAX_ 16384

static struct sc_set set;
static int set_given;	/* -e trace= given: exit_group is selected anyway */
/* -e abbrev=, verbose=, raw= (all calls when not given, none for raw) */
static struct sc_set abbrev_set, verbose_set, raw_set;
static int abbrev_given, verbose_given, raw_given;

int trace_whole(const struct sysgate_sys *s)
{
	return trace_verbose || (abbrev_given && !set_has(&abbrev_set, s->nr));
}

int trace_structs(const struct sysgate_sys *s)
{
	return !verbose_given || set_has(&verbose_set, s->nr);
}
int trace_strsize = 32;
static int tstamp, show_time, json, follow, relative, stack_traces;
/* without -f: strace traces the thread it started, not the threads that
 * thread makes (a process's other threads are not followed) */
static int leader_only;
/* -p with several pids: lines carry the pid, as under -f */
static int several;
/* -b execve: a traced execve's new program is let go of as it starts
 * (its line ends " <detached ...>") */
static int detach_exec;
/* Digits after the point of -t's (-1: the letters' 0 or 6), -r's and
 * -T's times. */
static int tstamp_digits = -1, relative_digits = 6, time_digits = 6;
static int show_ip;	/* -i */
/* Calls whose 'd' arguments are longs (offsets, lengths). */
static unsigned char long_args[SYSGATE_NR_MAX];
/* Calls whose result is a new descriptor (-y shows its path). */
static unsigned char returns_fd[SYSGATE_NR_MAX];
static struct sysgate_ctx *self;
static long nr_rt_sigsuspend, nr_pause;
static long nr_execve, nr_execveat, nr_exit_group, nr_exit, nr_mmap,
	nr_munmap, nr_mremap, nr_brk, nr_shmat, nr_open, nr_openat;
/* Text decoders by system call number, from the areas' tables. */
static const struct decoder *decoders[SYSGATE_NR_MAX];

/* strace starts the result at this column when the call is shorter
 * (-a N changes it). */
static int result_column = 40;
static int no_exit_lines;	/* -qq, -e quiet=exit */
static int no_super_lines;	/* -qqq, -e quiet=thread-execve */
/* The processes whose leader made its own exit while other threads ran
 * (-m ptrace runs this hook for every process of the tree): its "+++
 * exited" line waits for the process's end, with the status of the last
 * thread's exit, which the kernel gives the parent (since Linux 6.0; the
 * leader's before). */
#define GONE_MAX 16
static int leaders_gone[GONE_MAX];

static void leader_gone(int pid)
{
	int i, k = 0;

	for (i = 0; i < GONE_MAX; i++)
		if (leaders_gone[i] == pid || !leaders_gone[i]) {
			k = i;
			break;
		}
	leaders_gone[k] = pid;
}

/* Whether process pid's leader is gone (forgotten then, if take). */
static int leader_is_gone(int pid, int take)
{
	int i;

	for (i = 0; i < GONE_MAX; i++)
		if (leaders_gone[i] == pid) {
			if (take)
				leaders_gone[i] = 0;
			return 1;
		}
	return 0;
}

/* Carried after an execve's line when a thread other than the leader
 * made it: the new program is the leader's pid, and prints the ends
 * strace prints for the old one (exec_line). */
#define EXEC_BY_MARK "sg-thr"
struct exec_by {
	char mark[8];
	int tid;		/* the thread that made it */
	long nr;		/* execve or execveat */
};

/* An execve's entry: its line (buf[0, len), room for cap) carried to the
 * new program, with the thread's id when not the leader's (len 0: the
 * call is outside the set, the id alone). */
static void exec_carry(const struct sysgate_sys *s, char *buf, size_t len,
		       size_t cap)
{
	struct exec_by by = { EXEC_BY_MARK, s->tid, s->nr };

	if (s->tid != s->pid && !json && len + sizeof(by) <= cap) {
		hk_memcpy(buf + len, &by, sizeof(by));
		len += sizeof(by);
	}
	if (len)
		sysgate_exec_carry(self, buf, len);
}
static int show_nr;	/* -n */
/* -f -o FILE: strace's "PID " column instead of "[pid PID] " */
static int pid_column;
static long nr_rt_sigreturn, nr_nanosleep, nr_clock_nanosleep;
static long nr_wait4, nr_waitid, nr_getpid, nr_rt_sigprocmask, nr_getrusage,
	nr_getuid;

/* Under -f on a terminal, strace prefixes "[pid N] " only while it
 * follows more than one task: tasks of the tree beyond the first (shared
 * by the tree), and the threads of this process. */
static long *tree_tasks;
/* What ordering needs (order.c): none for --json's records. */
static int ordered;

static void tasks_gone(long n)
{
	if (tree_tasks)
		__atomic_sub_fetch(tree_tasks, n, __ATOMIC_RELAXED);
}

static void task_new(void)
{
	if (tree_tasks)
		__atomic_add_fetch(tree_tasks, 1, __ATOMIC_RELAXED);
}


/*
 * The calls of this thread whose line waits for their exit (handlers'
 * calls nest): a signal that comes at or during one prints it first, as
 * strace does (a call cut short, "= ? ERESTART..."; one that will be
 * made again is printed once more, whole, at its exit).
 */
#define MAX_NEST 8
enum { LINE_WAITS, LINE_DONE, LINE_AGAIN };
/* (per thread, without __thread: hooks/lib/slots.h) The process's
 * threads are also what exit_group ends: strace prints the call each one
 * waits in "= ?" and its "+++ exited" line. */
static struct tid_slots threads;
static struct in_flight {
	struct sysgate_sys *call[MAX_NEST];
	unsigned char state[MAX_NEST];
	int n;
	/* a wait's children's user and system time at its entry (us):
	 * what a child SIGKILL ended used (waits_before) */
	long children_us[MAX_NEST][2];
} in_flight[TID_SLOTS];

/* Thread tid's calls (claim: taking a slot if it has none); 0 if none. */
static struct in_flight *flight(int tid, int claim)
{
	int fresh = 0, k = claim ? tid_slot(&threads, tid, &fresh) :
				   tid_slot_find(&threads, tid);

	if (k < 0)
		return 0;
	if (fresh)
		in_flight[k].n = 0;
	return &in_flight[k];
}

/* Process pid's threads (those that have a slot: each one takes one
 * when it starts), for the tasks an exit_group or a signal ends. */
static long threads_alive(int pid)
{
	long n = 0;
	int i;

	for (i = 0; i < TID_SLOTS; i++) {
		int tid = __atomic_load_n(&threads.tid[i], __ATOMIC_RELAXED);

		if (tid && tid_of(pid, tid))
			n++;
	}
	return n ? n : 1;
}

static void thread_begins(void)
{
	flight(tid_self(), 1);
}

static void thread_ends(int tid)
{
	int k = tid_slot_find(&threads, tid);

	if (k < 0)
		return;
	in_flight[k].n = 0;
	tid_slot_free(&threads, k);
}

int trace_thread_slot(int tid)
{
	return tid_slot_find(&threads, tid);
}

/* The call thread slot k waits in, its line not printed yet; 0 if none. */
static struct sysgate_sys *waits_in(int k)
{
	const struct in_flight *p = &in_flight[k];
	int n = p->n;

	return n > 0 && n <= MAX_NEST && p->state[n - 1] == LINE_WAITS ?
		       p->call[n - 1] : 0;
}

static void trace_thread_start(void *data)
{
	(void)data;
	task_new();
	thread_begins();
	if (ordered)
		order_thread(tid_self());
}

/* (a vfork child shares this memory: nothing of the parent's is reset) */
static void trace_fork_child(void *data)
{
	(void)data;
	task_new();
	thread_begins();
	if (ordered)
		order_thread(tid_self());
	pids_forked();
	tz_forked();
}

/* --- flag tables (values from the target's own headers) ---------------- */

#define F(x) { x, #x }
static const struct fmt_flag prot_flags[] = {
	F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_GROWSDOWN),
	F(PROT_GROWSUP),
};
static const struct fmt_flag map_flags[] = {
	F(MAP_SHARED_VALIDATE), F(MAP_SHARED), F(MAP_PRIVATE), F(MAP_FIXED),
	F(MAP_ANONYMOUS), F(MAP_GROWSDOWN), F(MAP_DENYWRITE),
	F(MAP_EXECUTABLE), F(MAP_LOCKED), F(MAP_NORESERVE), F(MAP_POPULATE),
	F(MAP_NONBLOCK), F(MAP_STACK), F(MAP_HUGETLB), F(MAP_SYNC),
	F(MAP_FIXED_NOREPLACE),
};
static const struct fmt_flag clone_flags[] = {
	F(CLONE_VM), F(CLONE_FS), F(CLONE_FILES), F(CLONE_SIGHAND),
	F(CLONE_PIDFD), F(CLONE_PTRACE), F(CLONE_VFORK), F(CLONE_PARENT),
	F(CLONE_THREAD), F(CLONE_NEWNS), F(CLONE_SYSVSEM), F(CLONE_SETTLS),
	F(CLONE_PARENT_SETTID), F(CLONE_CHILD_CLEARTID), F(CLONE_DETACHED),
	F(CLONE_UNTRACED), F(CLONE_CHILD_SETTID), F(CLONE_NEWCGROUP),
	F(CLONE_NEWUTS), F(CLONE_NEWIPC), F(CLONE_NEWUSER), F(CLONE_NEWPID),
	F(CLONE_NEWNET), F(CLONE_IO),
};
#undef F

/* --- argument formatting ----------------------------------------------- */

__attribute__((hot))
static void put_ptr(struct fmt *f, unsigned long v)
{
	if (v)
		fmt_hex(f, v);
	else
		fmt_str(f, "NULL");
}

/* execve's argv (and envp under -v) as strace prints them: at most -s
 * strings unless -v, each cut at -s; "... / * addr * /" where the array
 * can no longer be read, its address when not even its first word can */
static void put_argv(struct fmt *f, struct sysgate_sys *s, unsigned long p)
{
	unsigned long ptr, at, n;

	if (!p || !trace_structs(s)) {
		put_ptr(f, p);
		return;
	}
	for (n = 0, at = p; ; n++, at += sizeof(ptr)) {
		if (at < p || sysgate_read_mem(s, &ptr, (void *)at,
					       sizeof(ptr)) != sizeof(ptr)) {
			if (!n) {
				put_ptr(f, at);
				return;
			}
			fmt_str(f, ", ... /* ");
			fmt_hex(f, at);
			fmt_str(f, " */");
			break;
		}
		if (!n)
			fmt_chr(f, '[');
		if (!ptr)
			break;
		if (n)
			fmt_str(f, ", ");
		if (!trace_whole(s) && n >= (unsigned long)trace_strsize) {
			fmt_str(f, "...");
			break;
		}
		p_str_max(f, s, ptr, -1UL);
	}
	fmt_chr(f, ']');
}

/* envp unless -v: its address and how many strings it holds
 * ("unterminated" when the array cannot be read to its NULL) */
static void put_envp(struct fmt *f, struct sysgate_sys *s, unsigned long p)
{
	unsigned long ptr, at, n;

	put_ptr(f, p);
	if (!p || !trace_structs(s))
		return;
	for (n = 0, at = p; at >= p; n++, at += sizeof(ptr)) {
		if (sysgate_read_mem(s, &ptr, (void *)at, sizeof(ptr)) !=
		    sizeof(ptr)) {
			if (!n)
				return;
			at = 0;
			break;
		}
		if (!ptr)
			break;
	}
	fmt_str(f, " /* ");
	fmt_udec(f, n);
	fmt_str(f, n == 1 ? " var" : " vars");
	fmt_str(f, at < p ? ", unterminated */" : " */");
}

struct iov {
	unsigned long base, len;
};

/* What put_iov's elements need: the process, and the bytes left to show
 * (-1: all of each, IOV_ADDR: none, the bases as addresses). */
struct iov_ctx {
	const struct sysgate_sys *s;
	long avail;
};

static void put_iov_elem(struct fmt *f, const void *e, void *ctx)
{
	const struct iov *v = e;
	struct iov_ctx *x = ctx;
	unsigned long n = v->len;

	fmt_str(f, "{iov_base=");
	if (x->avail == IOV_ADDR) {
		put_ptr(f, v->base);
	} else {
		if (x->avail >= 0) {
			if ((unsigned long)x->avail < n)
				n = (unsigned long)x->avail;
			x->avail -= (long)n;
		}
		p_data(f, x->s, v->base, n, 0);
	}
	fmt_str(f, ", iov_len=");
	fmt_udec(f, v->len);
	fmt_chr(f, '}');
}

/* iovec array of count entries as strace's arrays go (-s of them unless
 * -v, "... / * addr * /" where reading stops). */
void put_iov(struct fmt *f, struct sysgate_sys *s, unsigned long p,
	     unsigned long count, long avail)
{
	struct iov_ctx x = { s, avail };

	p_array_ctx(f, s, p, count, sizeof(struct iov), 0, put_iov_elem, &x);
}

/* Argument i, an iovec array whose count is argument i + 1: the call's
 * input (in), or what it read: the data once it succeeded, else the
 * buffers' addresses (as strace prints them). */
void a_iov(struct call *c, int i, int in)
{
	if (!in)
		a_exit_next(c);
	a_sep(c);
	put_iov(c->f, c->s, c->s->args[i], c->s->args[i + 1],
		in ? -1 : c_ok(c) ? c->s->ret : IOV_ADDR);
}

__attribute__((hot))
static void put_symbolic(struct fmt *f, char kind, unsigned long v)
{
	const char *nm;

	switch (kind) {
	case 'o':
		p_open_flags(f, v);
		break;
	case 'm':
		/* the kernel's umode_t: 16 bits */
		p_mode(f, (unsigned short)v);
		break;
	case 'P':
		fmt_flags(f, v, prot_flags,
			  sizeof(prot_flags) / sizeof(prot_flags[0]), "PROT_NONE");
		break;
	case 'M':
		fmt_flags(f, v, map_flags,
			  sizeof(map_flags) / sizeof(map_flags[0]), 0);
		break;
	case 'c': {
		unsigned long sig = v & 0xff;

		fmt_flags(f, v & ~0xffUL, clone_flags,
			  sizeof(clone_flags) / sizeof(clone_flags[0]), 0);
		if (sig) {
			fmt_chr(f, '|');
			nm = sysgate_signal_name(sig);
			if (nm)
				fmt_str(f, nm);
			else
				fmt_udec(f, sig);
		}
		break;
	}
	case 'S':
		nm = sysgate_signal_name((int)v);
		if (nm)
			fmt_str(f, nm);
		else
			fmt_dec(f, (int)v);
		break;
	case 'w': {
		static const char *const w[] = { "SEEK_SET", "SEEK_CUR",
						 "SEEK_END", "SEEK_DATA",
						 "SEEK_HOLE" };
		if (v < 5)
			fmt_str(f, w[v]);
		else
			fmt_udec(f, v);
		break;
	}
	case 'x':
		p_hex(f, v);
		break;
	case 'h':
		p_hex(f, (unsigned int)v);
		break;
	default:
		put_ptr(f, v);
		break;
	}
}

__attribute__((hot))
static void put_arg(struct fmt *f, struct sysgate_sys *s, int i,
		    const char *kinds, int at_exit)
{
	char k = kinds[i];
	unsigned long v = s->args[i];
	unsigned long next = i < 5 ? s->args[i + 1] : 0;
	int failed = sysgate_is_error(s->ret) || !at_exit;
	size_t start;

	switch (k) {
	case 'd':
		/* Most 'd' arguments are C ints (pids, ids, flags): the kernel
		 * reads 32 bits, and -1 is -1 as strace prints it.  The calls
		 * in long_args take offsets and lengths. */
		if (!(s->nr >= 0 && s->nr < SYSGATE_NR_MAX && long_args[s->nr]))
			fmt_dec(f, (int)v);
		else
			fmt_dec(f, (long)v);
		return;
	case 'u':
		fmt_udec(f, v);
		return;
	case 'U':
		/* a uid or gid: 32 bits, -1 ("unchanged") as -1 */
		if ((unsigned int)v == (unsigned int)-1)
			fmt_str(f, "-1");
		else
			fmt_udec(f, (unsigned int)v);
		return;
	case 'f':
		fmt_dec(f, (int)v);
		p_fdpath(f, s, (int)v);
		return;
	case 'D':
		if ((int)v == AT_FDCWD)
			p_named(f, "AT_FDCWD", (unsigned long)AT_FDCWD, 'd');
		else
			fmt_dec(f, (int)v);
		p_fdpath(f, s, (int)v);
		return;
	case 's':
		p_string(f, s, v);
		return;
	case 'b':
		p_data(f, s, v, next, 0);
		return;
	case 'B':
		if (failed)
			put_ptr(f, v);
		else
			p_data(f, s, v, s->ret, 0);
		return;
	case 'v':
		put_iov(f, s, v, next, -1);
		return;
	case 'V':
		/* (a call that failed: the buffers' addresses, as strace) */
		if (!at_exit)
			put_ptr(f, v);
		else
			put_iov(f, s, v, next, failed ? IOV_ADDR : s->ret);
		return;
	case 'a':
		put_argv(f, s, v);
		return;
	case 'e':
		if (trace_whole(s))
			put_argv(f, s, v);
		else
			put_envp(f, s, v);
		return;
	}
	/* (modes, hex and pointers are numbers already) */
	start = x_begin(f);
	put_symbolic(f, k, v);
	if (k == 'o' || k == 'P' || k == 'M' || k == 'c' || k == 'S' ||
	    k == 'w')
		x_end(f, start, k == 'S' ? (unsigned int)v : v,
		      k == 'S' ? 'd' : 'x');
	else
		f->depth--;
}

/* Call nr is in -e trace='s set (all without one); the others that
 * the hook selects (exit, execve, the waits) print only their events. */
static inline int in_set(long nr)
{
	return !set_given || set_has(&set, nr);
}

/* A call cut short (its process's end, another thread's execve) gets
 * its "= ?" line: in the set, and unfinished calls shown. */
static int cut_printed(long nr)
{
	return in_set(nr) && filter_status(FILTER_UNFINISHED);
}

/* --- lines -------------------------------------------------------------- */

__attribute__((hot))
static void put_name(struct fmt *f, long nr)
{
	const char *nm = sysgate_syscall_name(nr);

	if (nm) {
		fmt_str(f, nm);
	} else {
		fmt_str(f, "syscall_");
		fmt_hex(f, nr);
	}
}

/* "[pid  1234] " under -f, with strace's width. */
__attribute__((hot))
static void put_pid(struct fmt *f, int pid)
{
	int digits = 1, v, proc = pid;

	if (!(follow || several) ||
	    (!pid_column && tree_tasks &&
			__atomic_load_n(tree_tasks, __ATOMIC_RELAXED) <= 0))
		return;
	pid = pids_leader(pid, &proc);
	if (pid_column) {
		/* "%-5d ", or "%d<comm> " */
		fmt_dec(f, pid);
		if (trace_decode_pids & DECODE_COMM) {
			pids_leader_comm(f, proc);
			fmt_chr(f, ' ');
			return;
		}
		for (v = pid; v >= 10; v /= 10)
			digits++;
		for (; digits < 6; digits++)
			fmt_chr(f, ' ');
		return;
	}
	for (v = pid; v >= 10; v /= 10)
		digits++;
	fmt_str(f, "[pid ");
	for (; digits < 5; digits++)
		fmt_chr(f, ' ');
	fmt_dec(f, pid);
	if (trace_decode_pids & DECODE_COMM)
		pids_leader_comm(f, proc);
	fmt_str(f, "] ");
}

/* ".000123": the fraction of a time of ns nanoseconds in digits. */
__attribute__((hot))
static void put_fraction(struct fmt *f, unsigned long long ns, int digits)
{
	unsigned long long div = 1000000000ULL;
	int i;

	if (digits <= 0)
		return;
	for (i = 0; i < digits; i++)
		div /= 10;
	fmt_chr(f, '.');
	fmt_pad(f, ns % 1000000000ULL / div, digits);
}

/* -r: "     0.000123 ", the time since the previous call's start (in
 * this process: each one has its own hook); "(+     0.000123) " after
 * -t's time. */
__attribute__((hot))
static void put_relative(struct fmt *f, unsigned long long enter_ns)
{
	static unsigned long long last;
	unsigned long long d = last && enter_ns > last ? enter_ns - last : 0;
	unsigned long sec = d / 1000000000ULL, v;
	int digits = 1;

	last = enter_ns;
	if (tstamp)
		fmt_str(f, "(+");
	for (v = sec; v >= 10; v /= 10)
		digits++;
	for (; digits < 6; digits++)
		fmt_chr(f, ' ');
	fmt_udec(f, sec);
	put_fraction(f, d, relative_digits);
	fmt_str(f, tstamp ? ") " : " ");
}

static void put_time(struct fmt *f, unsigned long long enter_ns);

/* -n: "[  12] " */
__attribute__((hot))
static void put_nr(struct fmt *f, long nr)
{
	int digits = 1;
	long v;

	if (!show_nr)
		return;
	for (v = nr; v >= 10; v /= 10)
		digits++;
	fmt_chr(f, '[');
	for (; digits < 4; digits++)
		fmt_chr(f, ' ');
	fmt_dec(f, nr);
	fmt_str(f, "] ");
}

/* -i: "[00007f0123456789] "; '?'s where there is no address (exits) or
 * it is not known (pc 0). */
__attribute__((hot))
static void put_pc(struct fmt *f, unsigned long pc)
{
	int i;

	if (!show_ip)
		return;
	fmt_chr(f, '[');
	for (i = 15; i >= 0; i--)
		fmt_chr(f, pc ? "0123456789abcdef"[pc >> (4 * i) & 15] : '?');
	fmt_str(f, "] ");
}

/* -i: where call s returns to. */
__attribute__((hot))
static void put_ip(struct fmt *f, const struct sysgate_sys *s)
{
	if (show_ip)
		put_pc(f, s ? (unsigned long)sysgate_return_pc(s) : 0);
}

__attribute__((hot))
static void put_prefix(struct fmt *f, int tid, unsigned long long enter_ns)
{
	put_pid(f, tid);
	put_time(f, enter_ns);
	if (relative)
		put_relative(f, enter_ns ? enter_ns : sysgate_now_ns());
}

/* -t, -tt, -ttt: when the call started, on the wall clock. */
__attribute__((hot))
static void put_time(struct fmt *f, unsigned long long enter_ns)
{
	unsigned long long now, wall;

	if (!tstamp)
		return;
	/* The time the call started, on the wall clock. */
	now = sysgate_now_ns();
	wall = sysgate_realtime_ns();
	if (enter_ns && enter_ns <= now)
		wall -= now - enter_ns;
	if (tstamp >= 3) {
		fmt_udec(f, wall / 1000000000ULL);
	} else {
		long long sec = (long long)(wall / 1000000000ULL);
		unsigned long day = (unsigned long)(sec + tz_offset(sec)) %
				    86400;

		fmt_pad(f, day / 3600, 2);
		fmt_chr(f, ':');
		fmt_pad(f, day / 60 % 60, 2);
		fmt_chr(f, ':');
		fmt_pad(f, day % 60, 2);
	}
	put_fraction(f, wall, tstamp_digits >= 0 ? tstamp_digits :
				    tstamp >= 2 ? 6 : 0);
	fmt_chr(f, ' ');
}

/* How many arguments to show, and their kinds. */
__attribute__((hot))
static int shown_args(const struct sysgate_sys *s, const char **kinds)
{
	int n = sysgate_syscall_nargs(s->nr);

	*kinds = sysgate_syscall_args(s->nr);
	if (n < 0 || !*kinds) {
		*kinds = "xxxxxx";
		return 6;
	}
	/* open's mode means something only when a file may be created. */
	if ((s->nr == nr_open || s->nr == nr_openat) &&
	    !(s->args[n - 2] & O_CREAT) &&
	    !(s->args[n - 2] & 020000000 /* the kernel's __O_TMPFILE */))
		n--;
	return n;
}

void a_default(struct call *c, int i)
{
	a_sep(c);
	put_arg(c->f, c->s, i, c->kinds, c->exiting);
}

static long lookup(const char *name)
{
	return sysgate_syscall_number(name);
}

static void add_decoders(const struct decoder *d)
{
	for (; d->name; d++) {
		long nr = lookup(d->name);

		if (nr >= 0 && nr < SYSGATE_NR_MAX)
			__atomic_store_n(&decoders[nr], d, __ATOMIC_RELAXED);
	}
}

/*
 * The table is filled when a process first decodes a call: some 300
 * lookups by name and the pages of the tables, which every process paid
 * at start, -e trace=none's and those that make no call traced
 * included.  Threads that meet an empty table fill it alike.
 */
static int decoders_filled;

static void fill_decoders(void)
{
	static const struct decoder *const tables[] = {
		dec_file, dec_desc, dec_mem, dec_proc, dec_signal, dec_net,
		dec_poll, dec_time, dec_misc, dec_ioctl, dec_ipc, dec_prctl,
		dec_seccomp, dec_pids, dec_quota, dec_sec, dec_mount,
		dec_uring, dec_aio, dec_perf, dec_bpf, dec_ldt, dec_ptrace,
	};
	unsigned int i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		add_decoders(tables[i]);
	__atomic_store_n(&decoders_filled, 1, __ATOMIC_RELEASE);
}

static const struct decoder *decoder_of(long nr)
{
	if (!__atomic_load_n(&decoders_filled, __ATOMIC_ACQUIRE))
		fill_decoders();
	return nr >= 0 && nr < SYSGATE_NR_MAX ?
		__atomic_load_n(&decoders[nr], __ATOMIC_RELAXED) : 0;
}

/* Kinds of arguments the kernel fills: decoded at exit. */
static int out_kind(char k)
{
	return k == 'B' || k == 'V';
}

/*
 * "arg, arg": the call's decoder, or the table's kinds.  With cut, *cut
 * is where the arguments decoded at exit begin (after the ", " before
 * the first), or the end; with stop, nothing is left after it: what
 * strace shows of a call at its entry.  Returns 1 when some arguments
 * are decoded at exit (with cut).
 */
__attribute__((hot))
static int put_args_cut(struct fmt *f, struct sysgate_sys *s, int at_exit,
			size_t *cut, int stop)
{
	const struct decoder *d = decoder_of(s->nr);
	const char *kinds;
	int n = shown_args(s, &kinds), i, later = 0;

	if (raw_given && set_has(&raw_set, s->nr)) {
		/* -e raw=: every argument the kernel takes, in hex */
		n = sysgate_syscall_nargs(s->nr);
		for (i = 0; i < (n < 0 ? 6 : n); i++) {
			if (i)
				fmt_str(f, ", ");
			p_hex(f, s->args[i]);
		}
		if (cut)
			*cut = f->len;
		return 0;
	}
	if (d && d->args) {
		struct call c = { f, s, kinds, at_exit, 0, cut != 0, 0 };

		d->args(&c);
		if (cut)
			*cut = c.cut_at ? c.cut_at : f->len;
		if (stop && c.cut_at) {
			f->len = c.cut_at;
			f->full = 0;
		}
		return c.cut_at != 0;
	}
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(f, ", ");
		if (cut && out_kind(kinds[i])) {
			*cut = f->len;
			if (stop)
				return 1;
			cut = 0;
			later = 1;
		}
		put_arg(f, s, i, kinds, at_exit);
	}
	if (cut)
		*cut = f->len;
	return later;
}

__attribute__((hot))
static void put_args(struct fmt *f, struct sysgate_sys *s, int at_exit)
{
	put_args_cut(f, s, at_exit, 0, 0);
}

/* "name(": a line's start, stamped ns */
__attribute__((hot))
static void put_call_head(struct fmt *f, struct sysgate_sys *s,
			  unsigned long long ns)
{
	put_prefix(f, s->tid, ns);
	put_ip(f, s);
	put_nr(f, s->nr);
	put_name(f, s->nr);
	fmt_chr(f, '(');
}

/* "name(arg, arg" — without the closing parenthesis; stamped ns. */
__attribute__((hot))
static void put_call_at(struct fmt *f, struct sysgate_sys *s, int at_exit,
			unsigned long long ns)
{
	put_call_head(f, s, ns);
	put_args(f, s, at_exit);
}

/* "<... name resumed>" (thread tid's call nr, w's where known), stamped
 * now */
static void put_resumed_head(struct fmt *f, int tid,
			     const struct sysgate_sys *w, long nr)
{
	put_prefix(f, tid, 0);
	put_ip(f, w);
	put_nr(f, nr);
	fmt_str(f, "<... ");
	put_name(f, nr);
	fmt_str(f, " resumed>");
}

static int *order_hint(const struct sysgate_sys *s)
{
	return &trace_scratch(s)->order_slot;
}

/* "<... name resumed>rest": the line of a call whose start was shown
 * "<unfinished ...>", stamped now. */
__attribute__((hot))
static void put_resumed(struct fmt *f, struct sysgate_sys *s)
{
	size_t at, cut = 0;

	put_resumed_head(f, s->tid, s, s->nr);
	/* (the arguments at exit, less those shown at entry: where the
	 * decoder marks none, those the start showed if they begin them,
	 * as a structure's " => " and what follows) */
	at = f->len;
	if (!put_args_cut(f, s, 1, &cut, 0) && cut == f->len) {
		int n;
		const char *shown = order_shown_args(s->tid, order_hint(s), &n);

		if (shown && at + n <= f->len &&
		    !hk_strncmp(f->buf + at, shown, n))
			cut = at + n;
	}
	if (cut > at && cut <= f->len) {
		size_t i;

		for (i = 0; cut + i < f->len; i++)	/* (overlapping) */
			f->buf[at + i] = f->buf[cut + i];
		f->len -= cut - at;
	}
}

/* An event's lines (ordered: they may come between another task's
 * call and its end): its time, and what order_begin said. */
struct ev {
	unsigned long long ts;	/* 0: now */
	int held, shown;
};

static void ev_begin(struct ev *e, int tid, const struct sysgate_sys *call)
{
	int none = 0;

	e->shown = ordered &&
		   order_begin(self, tid, call != 0,
			       call ? order_hint(call) : &none, &e->ts,
			       &e->held);
}

static void ev_end(const struct ev *e)
{
	if (ordered)
		order_end(e->held);
}

/* The start of a line: "[pid N] HH:MM:SS " at ns. */
static void order_head(struct fmt *f, int tid, unsigned long long ns)
{
	put_pid(f, tid);
	put_time(f, ns);
}

/* At entry: the start of the call's line, should another line come
 * before its end (other threads; under -f, other processes; a clone's
 * new task). */
static void order_entry(struct sysgate_sys *s)
{
	char rb[480];
	struct fmt r;
	size_t cut = 0;
	int later;

	if (!ordered)
		return;
	/* (an execve by a thread: the new program's pid is not its tid) */
	if (s->nr == nr_execve || s->nr == nr_execveat) {
		if (s->tid != s->pid)
			return;
	}
	fmt_init(&r, rb, sizeof(rb));
	put_ip(&r, s);
	put_nr(&r, s->nr);
	put_name(&r, s->nr);
	fmt_chr(&r, '(');
	later = put_args_cut(&r, s, 0, &cut, 1);
	order_pending(s->tid, order_hint(s), s->nr, later, &r, order_head);
}

__attribute__((hot))
static void put_call(struct fmt *f, struct sysgate_sys *s, int at_exit)
{
	put_call_at(f, s, at_exit, s->enter_ns);
}

static int ret_is_pointer(long nr)
{
	return nr == nr_mmap || nr == nr_mremap || nr == nr_brk ||
	       nr == nr_shmat;
}

/* ") = " with strace's alignment of short lines. */
__attribute__((hot))
static void put_equals(struct fmt *f)
{
	static const char spaces[] = "                                        ";

	fmt_chr(f, ')');
	if (f->len >= (size_t)result_column) {
		fmt_str(f, " = ");
		return;
	}
	while (f->len < (size_t)result_column) {
		size_t n = result_column - f->len;

		fmt_mem(f, spaces, n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1);
		if (f->full)
			break;
	}
	fmt_str(f, "= ");
}

/* A call that failed, as strace sees it: those that cannot fail
 * (%pure: getuid, getpid...) return what they return, even an injected
 * -2, which strace prints as the unsigned number it is. */
static int failed(const struct sysgate_sys *s)
{
	return sysgate_is_error(s->ret) &&
	       !(sysgate_syscall_classes(s->nr) & SYSGATE_CLASS_PURE);
}

__attribute__((hot))
static void put_ret(struct fmt *f, struct sysgate_sys *s)
{
	const struct decoder *d = decoder_of(s->nr);

	put_equals(f);
	if (failed(s)) {
		int e = sysgate_errno(s->ret);
		const char *nm, *msg;

		/* The kernel's ERESTARTNOHAND reaches a program as EINTR once
		 * its handler ran; strace, stopped before that, prints it. */
		if (e == 4 && (s->nr == nr_rt_sigsuspend || s->nr == nr_pause))
			e = 514;
		if (e >= 512 && e <= 516) {
			fmt_str(f, "? ");
		} else {
			fmt_str(f, "-1 ");
		}
		nm = sysgate_errno_name(e);
		msg = sysgate_strerror(e);
		if (nm)
			fmt_str(f, nm);
		else
			fmt_udec(f, e);
		if (msg) {
			fmt_str(f, " (");
			fmt_str(f, msg);
			fmt_chr(f, ')');
		}
	} else if (raw_given && set_has(&raw_set, s->nr)) {
		p_hex(f, s->ret);
	} else if (d && d->ret) {
		struct call c = { f, s, 0, 1, 0, 0, 0 };

		d->ret(&c);
	} else if (s->nr >= 0 && s->nr < SYSGATE_NR_MAX && returns_fd[s->nr]) {
		fmt_dec(f, s->ret);
		p_fdpath_now(f, s, (int)s->ret);
	} else if (ret_is_pointer(s->nr)) {
		fmt_hex(f, s->ret);
	} else {
		fmt_dec(f, s->ret);
	}
	if (s->note) {
		fmt_str(f, " (");
		fmt_str(f, s->note);
		fmt_chr(f, ')');
	}
	if (show_time && s->enter_ns) {
		unsigned long long d = sysgate_now_ns() - s->enter_ns;

		fmt_str(f, " <");
		fmt_udec(f, d / 1000000000ULL);
		put_fraction(f, d, time_digits);
		fmt_chr(f, '>');
	}
}

static void json_call(struct fmt *f, struct sysgate_sys *s, int at_exit)
{
	const char *nm = sysgate_syscall_name(s->nr);
	unsigned long long wall = sysgate_realtime_ns();
	char text[LINE_MAX_];
	struct fmt t;

	fmt_str(f, "{\"type\":\"syscall\",\"ts\":");
	fmt_udec(f, wall / 1000000000ULL);
	fmt_chr(f, '.');
	fmt_pad(f, wall / 1000 % 1000000, 6);
	fmt_str(f, ",\"pid\":");
	fmt_dec(f, s->pid);
	fmt_str(f, ",\"tid\":");
	fmt_dec(f, s->tid);
	fmt_str(f, ",\"nr\":");
	fmt_dec(f, s->nr);
	fmt_str(f, ",\"name\":\"");
	if (nm)
		fmt_str(f, nm);
	else
		put_name(f, s->nr);
	fmt_str(f, "\",\"args\":");
	/* the text line's arguments, read back as JSON values (json.c) */
	fmt_init(&t, text, sizeof(text));
	put_args(&t, s, at_exit);
	json_args(f, text, t.full ? 0 : t.len);
}

/* ,"ret_info":[...]: what a result decoder prints in parentheses after
 * the number (poll's revents, fcntl's flags, select's sets). */
static void json_ret_info(struct fmt *f, struct sysgate_sys *s)
{
	const struct decoder *d = decoder_of(s->nr);
	char text[LINE_MAX_];
	struct fmt t;
	struct call c = { &t, s, 0, 1, 0, 0, 0 };
	size_t i;

	if (!d || !d->ret)
		return;
	fmt_init(&t, text, sizeof(text));
	d->ret(&c);
	for (i = 0; i + 1 < t.len && !(text[i] == ' ' && text[i + 1] == '(');
	     i++)
		;
	if (t.full || i + 3 > t.len || text[t.len - 1] != ')')
		return;
	fmt_str(f, ",\"ret_info\":");
	json_args(f, text + i + 2, t.len - i - 3);
}

static void json_ret(struct fmt *f, struct sysgate_sys *s, int noreturn)
{
	if (noreturn) {
		fmt_str(f, ",\"ret\":null}\n");
		return;
	}
	fmt_str(f, ",\"ret\":");
	fmt_dec(f, s->ret);
	if (failed(s)) {
		const char *nm = sysgate_errno_name(sysgate_errno(s->ret));

		fmt_str(f, ",\"err\":\"");
		fmt_str(f, nm ? nm : "?");
		fmt_chr(f, '"');
	} else {
		json_ret_info(f, s);
	}
	if (s->note) {
		/* (several marks, "A) (B" for the text line: "A, B") */
		const char *n;

		fmt_str(f, ",\"note\":\"");
		for (n = s->note; *n; n++) {
			if (!hk_strncmp(n, ") (", 3)) {
				fmt_str(f, ", ");
				n += 2;
			} else {
				fmt_chr(f, *n);
			}
		}
		fmt_chr(f, '"');
	}
	if (s->enter_ns) {
		fmt_str(f, ",\"dur_ns\":");
		fmt_udec(f, sysgate_now_ns() - s->enter_ns);
	}
	fmt_str(f, "}\n");
}

__attribute__((hot))
static void emit(struct fmt *f)
{
	if (f->full) {
		/* Keep the line a line, even when cut. */
		f->len = f->cap - 5;
		f->full = 0;
		fmt_str(f, json ? "\"}\n" : "...\n");
	}
	sysgate_output(self, f->buf, f->len);
}

/* emit() for a record written in parts (hex dumps): f starts over. */
__attribute__((hot))
static void emit_part(struct fmt *f)
{
	emit(f);
	f->len = 0;
}

/* An event line's start (thread tid's): prefix, time, -i's address pc
 * (0: none known). */
static void put_event_head_at(struct fmt *f, int tid, unsigned long pc)
{
	put_pid(f, tid);
	put_time(f, 0);
	if (relative)
		put_relative(f, sysgate_now_ns());
	put_pc(f, pc);
}

/* A process event's: no address. */
static void put_event_head(struct fmt *f, int tid)
{
	put_event_head_at(f, tid, 0);
}

static void exited_line(struct fmt *f, long nr, int who, int code)
{
	if (no_exit_lines)
		return;
	if (json) {
		fmt_str(f, "{\"type\":\"exit\",\"pid\":");
		fmt_dec(f, who);
		fmt_str(f, ",\"status\":");
		fmt_dec(f, code);
		fmt_str(f, "}\n");
		return;
	}
	put_event_head(f, who);
	put_nr(f, nr);
	fmt_str(f, "+++ exited with ");
	fmt_dec(f, code);
	fmt_str(f, " +++\n");
}

/*
 * A thread's own exit is its own line; the leader's, while other threads
 * run, is the process's: at its end, with the last thread's code, or
 * superseded by an execve (a thread just made may have no slot yet: the
 * kernel's count).  exit_group's: the caller's line, then the leader's.
 * Returns the process's exit status when this ends it, else -1.
 */
static int exited(struct fmt *f, struct sysgate_sys *s)
{
	int code = (int)s->args[0] & 0xff;

	if (s->nr == nr_exit && s->tid == s->pid &&
	    (threads_alive(s->pid) > 1 || pids_threads(s->pid) > 1)) {
		leader_gone(s->pid);
		return -1;
	}
	if (s->nr == nr_exit) {
		exited_line(f, s->nr, s->tid, code);
		if (s->tid == s->pid)
			return code;
		/* (the slots are counted only once the leader is gone: each
		 * costs a call) */
		if (leader_is_gone(s->pid, 0) && threads_alive(s->pid) == 1) {
			leader_is_gone(s->pid, 1);
			exited_line(f, s->nr, s->pid, code);
			return code;
		}
		return -1;
	}
	leader_is_gone(s->pid, 1);
	if (s->tid != s->pid)
		exited_line(f, s->nr, s->tid, code);
	exited_line(f, s->nr, s->pid, code);
	return code;
}

static struct trace_scratch scratch[TID_SLOTS], no_slot;

__attribute__((hot))
struct trace_scratch *trace_scratch(const struct sysgate_sys *s)
{
	struct in_flight *p = flight(s->tid, 1);

	return p ? &scratch[p - in_flight] : &no_slot;
}

/* rt_sigreturn "returns" what the interrupted code gets back, which the
 * core says where to find (args[1]): s as returning it, in r; 0 when it
 * cannot be read. */
static int sigreturn_value(const struct sysgate_sys *s, struct sysgate_sys *r)
{
	*r = *s;
	r->enter_ns = 0;
	return s->nr == nr_rt_sigreturn && s->args[1] &&
	       sysgate_read_mem(s, &r->ret, (void *)s->args[1],
				sizeof(r->ret)) == sizeof(r->ret);
}

/* The end of a call (w's, or number nr's: w NULL) whose start was shown
 * unfinished, which its process's end or an execve cut short: "<... name
 * resumed>", " <unfinished ...>" for the arguments strace would have
 * decoded at its exit (later), "= ?". */
static void put_cut_short(struct fmt *f, int tid, const struct sysgate_sys *w,
			  long nr, int later)
{
	put_resumed_head(f, tid, w, nr);
	if (later)
		fmt_str(f, " <unfinished ...>");
	put_equals(f);
	fmt_str(f, "?\n");
}

/* A call of thread tid's (slot k) that its process's end cuts short:
 * "= ?", as strace prints it. */
static void ends_unfinished(struct fmt *f, int k, int tid)
{
	struct sysgate_sys *w = k >= 0 ? waits_in(k) : 0;
	int none = 0;

	if (!w || !cut_printed(w->nr) || json)
		return;
	if (ordered && order_shown(tid, &none)) {
		char b[480];
		struct fmt r;
		size_t cut = 0;

		fmt_init(&r, b, sizeof(b));
		put_cut_short(f, tid, w, w->nr,
			      put_args_cut(&r, w, 0, &cut, 1));
	} else {
		put_call(f, w, 0);
		put_equals(f);
		fmt_str(f, "?\n");
	}
	emit(f);
	f->len = 0;
}

/* exit_group: the calls the process's other threads wait in end "= ?",
 * and each thread's "+++ exited" line, as strace prints them. */
static void others_end(struct fmt *f, const struct sysgate_sys *s)
{
	int i;

	/* (without -f the other threads are not followed: no line) */
	for (i = 0; !leader_only && i < TID_SLOTS; i++) {
		struct sysgate_sys other = *s;
		int tid = __atomic_load_n(&threads.tid[i], __ATOMIC_RELAXED);

		/* (a slot may be a vfork child's, or a forked parent's) */
		if (!tid || tid == s->tid || !tid_of(s->pid, tid))
			continue;
		ends_unfinished(f, i, tid);
		if (ordered) {
			int none = 0;

			order_forget(s->tid, tid, &none);
		}
		other.nr = nr_exit;	/* (its own line) */
		other.tid = tid;
		exited(f, &other);
		emit(f);
		f->len = 0;
	}
}

/* After the exit lines of exit (the thread's) or exit_group (the
 * process's): the task count and the slots they leave (a slot kept
 * would be a thread that SIGKILL ends later: process_killed). */
static void exit_settled(const struct sysgate_sys *s)
{
	int none = 0;

	if (s->nr == nr_exit) {
		tasks_gone(1);
		thread_ends(s->tid);
		if (ordered)
			order_forget(s->tid, s->tid, &none);
	} else if (s->nr == nr_exit_group) {
		tasks_gone(threads_alive(s->pid));
		if (ordered)
			order_forget_process(s->tid, s->pid, 0);
	}
}

static void sigchld_line(const struct chld_end *c, void *arg);

/* The user and system time of a wait's rusage (RUSAGE_CHILDREN's, or
 * the one given), in microseconds. */
static void rusage_us(const long *ru, long *us)
{
	us[0] = ru[0] * 1000000 + ru[1];
	us[1] = ru[2] * 1000000 + ru[3];
}

/*
 * At the entry of wait call s: the children's times so far, from which
 * a child that SIGKILL ends is told the CPU time of (its SIGCHLD's
 * si_utime and si_stime, which its parent prints: chld.c).  Only where
 * that line may be printed and the call brings no rusage of its own;
 * -1 otherwise.
 */
static void waits_before(const struct sysgate_sys *s, long *us)
{
	long ru[18];

	us[0] = -1;
	if (chld_area && filter_signal(17) &&
	    !s->args[s->nr == nr_wait4 ? 3 : 4] &&
	    sysgate_syscall(nr_getrusage, -1 /* RUSAGE_CHILDREN */, (long)ru,
			    0, 0, 0, 0) == 0)
		rusage_us(ru, us);
}

__attribute__((hot))
static enum sysgate_verdict trace_enter(struct sysgate_sys *s, void *data)
{
	const struct decoder *d;
	char buf[LINE_MAX_];
	struct ev e = { 0 };
	struct sysgate_sys r;
	struct fmt f;
	int restored, status = -1;
	/* (a call another hook answered returns: -e fault=exit_group) */
	int noret = (s->flags & SYSGATE_SYS_NORETURN) &&
		    !(s->flags & SYSGATE_SYS_SKIPPED);

	(void)data;
	if (leader_only && s->tid != s->pid)
		return SYSGATE_RUN;
	if (chld_due(s->pid, -1))
		chld_deliver(s->pid, sigchld_line, s);
	if (!noret) {
		struct in_flight *p = flight(s->tid, 1);

		if (p && p->n >= 0 && p->n < MAX_NEST) {
			p->call[p->n] = s;
			p->state[p->n] = LINE_WAITS;
			if (s->nr == nr_wait4 || s->nr == nr_waitid)
				waits_before(s, p->children_us[p->n]);
			p->n++;
		}
	}
	if (set_given && (s->nr == nr_wait4 || s->nr == nr_waitid ||
			  s->nr == nr_rt_sigprocmask) &&
	    !in_set(s->nr))
		return SYSGATE_RUN;	/* (selected for reaped(), or for
					   chld_deliver, alone) */
	if (!filter_enter(s) && s->nr != nr_exit_group && s->nr != nr_exit)
		return SYSGATE_RUN;
	if (trace_fdpaths & FDS_SOCKET)
		fdpaths_at_entry(s, 0, 0);
	/* (exit and exit_group have none, and a call not printed needs
	 * none: no table filled for them) */
	d = s->nr == nr_exit_group || s->nr == nr_exit || !in_set(s->nr) ?
		    0 : decoder_of(s->nr);
	if (d && d->enter) {
		struct call c = { 0, s, 0, 0, 0, 0, 0 };

		d->enter(&c);
	}
	if ((trace_fdpaths & FDS_SOCKET) && !json) {
		const char *kinds;
		int n = shown_args(s, &kinds);

		fdpaths_at_entry(s, kinds, n);
	}
	if (!noret &&
	    in_set(s->nr) && filter_selected(s))
		order_entry(s);
	if (!noret && s->nr != nr_execve &&
	    s->nr != nr_execveat)
		return SYSGATE_RUN;
	if (!in_set(s->nr) && !noret) {
		/* an execve selected only for a thread's: the new program
		 * tells the old one superseded (no line of the call) */
		exec_carry(s, buf, 0, sizeof(buf));
		return SYSGATE_RUN;
	}
	fmt_init(&f, buf, sizeof(buf));
	if (!in_set(s->nr) || !filter_selected(s)) {
		/* exit and exit_group, selected only for the exit lines */
		ev_begin(&e, s->tid, 0);
		if (s->nr == nr_exit_group)
			others_end(&f, s);
		status = exited(&f, s);
		emit(&f);
		ev_end(&e);
		exit_settled(s);
		if (status >= 0)
			chld_post(s->pid, 1 /* CLD_EXITED */, status);
		return SYSGATE_RUN;
	}
	if (json)
		json_call(&f, s, 0);
	else
		put_call(&f, s, 0);
	if (!noret) {
		/* execve: the new program prints the line if it succeeds */
		exec_carry(s, buf, f.len, sizeof(buf));
		return SYSGATE_RUN;
	}
	restored = sigreturn_value(s, &r);
	e.ts = s->enter_ns;
	ev_begin(&e, s->tid, 0);
	if (!filter_status(!restored ? FILTER_UNFINISHED :
			   failed(&r) ? FILTER_FAILED : FILTER_SUCCESSFUL)) {
		f.len = 0;	/* no "= ?" line; "+++ exited" still */
	} else if (json) {
		json_ret(&f, s, 1);
	} else if (restored) {
		put_ret(&f, &r);
		fmt_chr(&f, '\n');
	} else {
		put_equals(&f);
		fmt_str(&f, "?\n");
	}
	if (stack_traces && f.len)
		trace_stack(&f, s, 0);
	if (s->nr == nr_exit_group) {
		emit(&f);
		f.len = 0;
		others_end(&f, s);
	}
	/* A thread's end is reported too, as strace does. */
	if (s->nr == nr_exit_group || s->nr == nr_exit)
		status = exited(&f, s);
	emit(&f);
	ev_end(&e);
	exit_settled(s);
	if (status >= 0)
		chld_post(s->pid, 1 /* CLD_EXITED */, status);
	return SYSGATE_RUN;
}

/* The state of s's line, taken off this thread's in-flight calls. */
__attribute__((hot))
static int inflight_pop(struct sysgate_sys *s)
{
	struct in_flight *p = flight(s->tid, 0);
	int i;

	for (i = p ? p->n - 1 : -1; i >= 0 && i < MAX_NEST; i--)
		if (p->call[i] == s) {
			p->n = i;
			return p->state[i];
		}
	return LINE_WAITS;
}

static void print_call(struct sysgate_sys *s);
static void reaped(const struct sysgate_sys *s);
static long exec_line(struct sysgate_ctx *ctx, int tid);

__attribute__((hot))
static void trace_exit(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (leader_only && s->tid != s->pid)
		return;
	/* (a fork child's s->pid is its parent's) */
	if (inflight_pop(s) == LINE_DONE || (s->flags & SYSGATE_SYS_CHILD))
		return;
	/* (an execve outside the set: selected for exec_by_thread) */
	if (set_given && (s->nr == nr_execve || s->nr == nr_execveat) &&
	    !in_set(s->nr))
		return;
	if (s->flags & SYSGATE_SYS_EXECVE) {
		exec_line(self, s->tid);	/* (-m ptrace: the old
						   program's memory is gone) */
		return;
	}
	print_call(s);
	if (chld_due(s->pid, s->nr))
		chld_deliver(s->pid, sigchld_line, s);
}

/* A returned call's "name(args) = ret\n" (or its resumed form). */
__attribute__((hot))
static void put_line(struct fmt *f, struct sysgate_sys *s,
		     const struct ev *e)
{
	if (__builtin_expect(!!(s->flags & SYSGATE_SYS_DETACHED), 0)) {
		/* (let go of while it slept: strace's end, no result) */
		if (e->shown) {
			put_resumed_head(f, s->tid, s, s->nr);
		} else {
			size_t cut = 0;

			/* (what strace shows of a call at its entry) */
			put_call_head(f, s, e->ts);
			put_args_cut(f, s, 0, &cut, 1);
		}
		fmt_str(f, " <detached ...>\n");
		return;
	}
	if (e->shown)
		put_resumed(f, s);
	else
		put_call_at(f, s, 1, e->ts);
	put_ret(f, s);
	fmt_chr(f, '\n');
}

/*
 * A line that did not fit f (LINE_MAX_): strace prints it whole, so it
 * is built again in mapped memory four times larger each try, written,
 * and f starts over empty.  Only lines that long pay for this; past
 * 64 MiB f keeps the cut line.
 */
static void long_line(struct fmt *f, struct sysgate_sys *s,
		      const struct ev *e)
{
	size_t cap;

	for (cap = (size_t)LINE_MAX_ * 16; cap <= (64u << 20); cap *= 4) {
		long p = sysgate_syscall(nr_mmap, 0, cap, 3 /* RW */,
					 0x22 /* PRIVATE|ANONYMOUS */, -1, 0);
		struct fmt g;

		if (sysgate_is_error(p))
			return;
		fmt_init(&g, (char *)p, cap);
		put_line(&g, s, e);
		if (!g.full)
			sysgate_output(self, g.buf, g.len);
		sysgate_syscall(nr_munmap, p, cap, 0, 0, 0, 0);
		if (!g.full) {
			f->len = 0;
			f->full = 0;
			return;
		}
	}
}

/* A returned call's line. */
__attribute__((hot))
static void print_call(struct sysgate_sys *s)
{
	char buf[LINE_MAX_];
	struct ev e = { 0 };
	struct fmt f;

	if (s->nr == nr_wait4 || s->nr == nr_waitid)
		reaped(s);
	/* (selected for that, or for chld_deliver, alone: trace_init) */
	if (!in_set(s->nr))
		return;
	if (!filter_selected(s) ||
	    !filter_status(failed(s) ? FILTER_FAILED : FILTER_SUCCESSFUL)) {
		if (ordered)
			order_drop(s->tid, order_hint(s));
		return;
	}
	fmt_init(&f, buf, sizeof(buf));
	if (json) {
		json_call(&f, s, 1);
		json_ret(&f, s, 0);
		emit(&f);
		return;
	}
	e.ts = s->enter_ns;
	ev_begin(&e, s->tid, s);
	put_line(&f, s, &e);
	if (f.full)
		long_line(&f, s, &e);
	/* (one write: another process's lines cannot come between) */
	if (stack_traces)
		trace_stack(&f, s, 0);
	trace_dump(&f, s, emit_part);
	emit(&f);
	ev_end(&e);
}

static long lookup(const char *name);

/* What the kernel had made of a call that a handler's signal cut short
 * (it gives the program EINTR), as strace sees it before. */
__attribute__((hot))
static long interrupted(long nr)
{
	static long nohand[6] = { -2 }, plain[4];
	unsigned int i;

	if (nohand[0] == -2) {
		static const char *const nh[6] = { "pause", "rt_sigsuspend",
			"poll", "ppoll", "select", "pselect6" };
		static const char *const pl[4] = { "epoll_wait", "epoll_pwait",
			"epoll_pwait2", "rt_sigtimedwait" };

		for (i = 0; i < 6; i++)
			nohand[i] = lookup(nh[i]);
		for (i = 0; i < 4; i++)
			plain[i] = lookup(pl[i]);
	}
	for (i = 0; i < 6; i++)
		if (nr == nohand[i])
			return -514;	/* ERESTARTNOHAND */
	for (i = 0; i < 4; i++)
		if (nr == plain[i])
			return -4;	/* EINTR */
	return -512;			/* ERESTARTSYS */
}

/* What the kernel returned to a sleep a signal cut short: it restarts
 * a relative one with the time left, an absolute one (clock_nanosleep's
 * TIMER_ABSTIME) as it was. */
static long sleep_interrupted(const struct sysgate_sys *s)
{
	if (s->nr == nr_clock_nanosleep && (s->args[1] & TIMER_ABSTIME))
		return -514;		/* ERESTARTNOHAND */
	return -516;			/* ERESTART_RESTARTBLOCK */
}

/* A signal at or during a call whose line waits: the line comes first. */
static void signal_in_call(void)
{
	struct sysgate_sys *s;
	struct in_flight *p;
	long ret, saved;
	int where = sysgate_signal_where(&ret);

	if ((where != SYSGATE_SIG_RETURNED && where != SYSGATE_SIG_RESTART) ||
	    !(p = flight(tid_self(), 0)) || p->n <= 0 || p->n > MAX_NEST ||
	    p->state[p->n - 1] != LINE_WAITS)
		return;
	s = p->call[p->n - 1];
	if (s->flags & SYSGATE_SYS_CHILD)
		return;
	saved = s->ret;
	if (s->nr == nr_nanosleep || s->nr == nr_clock_nanosleep)
		s->ret = where == SYSGATE_SIG_RESTART || ret == -4 ?
				 sleep_interrupted(s) : ret;
	else if (where == SYSGATE_SIG_RESTART)
		s->ret = -512;
	else
		s->ret = ret == -4 ? interrupted(s->nr) : ret;
	print_call(s);
	s->ret = saved;
	p->state[p->n - 1] = where == SYSGATE_SIG_RESTART ? LINE_AGAIN :
							   LINE_DONE;
}

/* "+++ killed by SIG +++" of thread tid (in --json, one record for
 * process pid: its leader's). */
static void put_killed(struct fmt *f, int pid, int tid, int sig, int fatal)
{
	const char *nm = sysgate_signal_name(sig);

	if (json && tid != pid)
		return;
	if (!json && !filter_signal(sig))
		return;	/* (strace's -e signal= holds its line back too) */
	if (json) {
		fmt_str(f, "{\"type\":\"exit\",\"pid\":");
		fmt_dec(f, pid);
		fmt_str(f, ",\"signal\":\"");
		fmt_str(f, nm ? nm : "?");
		fmt_str(f, fatal == 2 ? "\",\"core\":true}\n" : "\"}\n");
		return;
	}
	put_event_head(f, tid);
	fmt_str(f, "+++ killed by ");
	fmt_str(f, nm ? nm : "SIG?");
	fmt_str(f, fatal == 2 ? " (core dumped) +++\n" : " +++\n");
}

/* The call a thread was in when its process's end (an execve of another
 * thread, a signal) cut it short, as strace ends it: "= ?". */
static void put_cut(struct fmt *f, int tid, const struct order_cut *c)
{
	if (!cut_printed(c->nr))
		return;
	if (c->shown) {
		put_cut_short(f, tid, 0, c->nr, c->exit_args);
		return;
	}
	fmt_mem(f, c->text, c->len);
	if (c->exit_args)
		fmt_str(f, " <unfinished ...>");
	put_equals(f);
	fmt_str(f, "?\n");
}

/* True when the hooks run in a tracer (-m ptrace) for another process:
 * it sees every death itself, SIGKILL's included. */
static int hooks_in_tracer(void)
{
	int pid;

	sysgate_task_tid(&pid);
	return pid != (int)sysgate_syscall(nr_getpid, 0, 0, 0, 0, 0, 0);
}

/* Thread tid's end in its process pid's death: the call it was in (g's,
 * if any) cut short, "+++ killed by". */
static void thread_killed(struct fmt *f, int pid, int tid,
			  const struct order_gone *g, int sig, int fatal)
{
	if (g && g->in_call)
		put_cut(f, tid, &g->cut);
	put_killed(f, pid, tid, sig, fatal);
	if (f->len)	/* (--json: the process's record alone) */
		emit(f);
	f->len = 0;
	tasks_gone(1);	/* (the prefix goes as the tasks do) */
}

/*
 * Process pid ended by signal sig: what strace prints at its death, for
 * each of its threads, the leader last: the call it was in cut short and
 * "+++ killed by".  self: the thread that saw the signal (its call is
 * already ended), 0 when another process saw the death (SIGKILL, which a
 * process cannot see: its parent's SIGCHLD or wait).  The threads are
 * those with a slot in the tree's order (each takes one as it starts).
 */
static void process_killed(int pid, int self_tid, int sig, int fatal)
{
	struct order_gone g[32];
	char buf[LINE_MAX_];
	struct fmt f;
	int i, n = 0, held = 0, leader = -1, self_seen = !self_tid;

	if (ordered) {
		int shows = filter_signal(sig);

		n = order_gone(self_tid ? self_tid : tid_self(), pid, g, 32,
			       &held);
		for (i = 0; i < n && !shows; i++)
			shows = g[i].in_call && cut_printed(g[i].cut.nr);
		if (shows)
			order_gone_shows(self);
	}
	fmt_init(&f, buf, sizeof(buf));
	for (i = 0; i < n; i++) {
		self_seen |= g[i].tid == self_tid;
		if (g[i].tid == pid)
			leader = i;
		else
			thread_killed(&f, pid, g[i].tid, &g[i], sig, fatal);
	}
	if (!self_seen && self_tid != pid)
		thread_killed(&f, pid, self_tid, 0, sig, fatal);
	thread_killed(&f, pid, pid, leader >= 0 ? &g[leader] : 0, sig, fatal);
	if (ordered)
		order_end(held);
	if (self_tid)	/* (SIGKILL's: the parent saw it) */
		chld_post(pid, fatal == 2 ? 3 /* CLD_DUMPED */ :
					    2 /* CLD_KILLED */, sig);
}

/* Processes whose SIGKILL was reported here (a parent may see one death
 * twice: SIGCHLD, then wait). */
#define KILLS_SEEN 16
static int kills_seen[KILLS_SEEN];
static unsigned int kills_next;

/* A process of the tree gone by SIGKILL (seen by its parent): 1 when
 * not reported before. */
static int killed_elsewhere(int pid)
{
	unsigned int i;

	if (!follow || pid <= 0 || hooks_in_tracer())
		return 0;
	for (i = 0; i < KILLS_SEEN; i++)
		if (kills_seen[i] == pid)
			return 0;
	kills_seen[kills_next++ % KILLS_SEEN] = pid;
	process_killed(pid, 0, 9 /* SIGKILL */, 1);
	return 1;
}

/*
 * The SIGCHLD that child pid, which SIGKILL ended, sent its parent: what
 * wait call s knows of it (waitid its uid; the uid of the parent
 * otherwise, which the child inherited) and the CPU time the wait added
 * to the parent's children's (the child's own, with that of any child
 * it reaped).  The parent's next look prints it as strace does when it
 * has no handler (chld.c).
 */
static void killed_sigchld(const struct sysgate_sys *s, int pid, int uid)
{
	struct in_flight *p = flight(s->tid, 0);
	long ru[18], after[2], *before = 0, *given;
	struct chld_end e = { 2 /* CLD_KILLED */, pid, uid, 9, 0, 0 };

	if (!chld_area || !filter_signal(17))
		return;
	/* (inflight_pop left s's level as the thread's depth) */
	if (p && p->n >= 0 && p->n < MAX_NEST && p->call[p->n] == s)
		before = p->children_us[p->n];
	given = (long *)s->args[s->nr == nr_wait4 ? 3 : 4];
	if (given && sysgate_read_mem(s, ru, given, 4 * sizeof(long)) ==
			     4 * sizeof(long)) {
		rusage_us(ru, after);
		e.utime = after[0] / 10000;	/* (clock ticks) */
		e.stime = after[1] / 10000;
	} else if (before && before[0] >= 0 &&
		   sysgate_syscall(nr_getrusage, -1, (long)ru, 0, 0, 0, 0) ==
			   0) {
		rusage_us(ru, after);
		e.utime = (after[0] - before[0]) / 10000;
		e.stime = (after[1] - before[1]) / 10000;
	}
	chld_post_end(s->pid, &e);
}

/* A wait4 or waitid that returned a child's end: one SIGKILL made? */
static void reaped(const struct sysgate_sys *s)
{
	int st[7];	/* wait4's status; waitid's siginfo: code, pid, status */

	if (s->nr == nr_wait4 && s->ret > 0 && s->args[1] &&
	    sysgate_read_mem(s, st, (void *)s->args[1], 4) == 4 &&
	    (st[0] & 0x7f) == 9) {
		if (killed_elsewhere((int)s->ret))
			killed_sigchld(s, (int)s->ret,
				       (int)sysgate_syscall(nr_getuid, 0, 0, 0,
							    0, 0, 0));
	} else if (s->nr == nr_waitid && s->ret == 0 && s->args[2] &&
		   sysgate_read_mem(s, st, (void *)s->args[2], sizeof(st)) ==
			   sizeof(st) &&
		   st[2] == 2 /* CLD_KILLED */ && st[6] == 9) {
		if (killed_elsewhere(st[4]))
			killed_sigchld(s, st[4], st[5]);
	}
}

static void killed(int sig, int fatal)
{
	int pid, tid = sysgate_task_tid(&pid);
	char buf[256];
	struct fmt f;

	struct ev e = { 0 };

	/* (-qq and -e quiet=exit leave strace's "+++ killed by" lines) */
	if (!hooks_in_tracer()) {
		process_killed(pid, tid, sig, fatal);
		return;
	}
	ev_begin(&e, tid, 0);
	fmt_init(&f, buf, sizeof(buf));
	/* (a call SIGKILL found it in: only a tracer sees that) */
	ends_unfinished(&f, tid_slot_find(&threads, tid), tid);
	if (ordered) {
		int none = 0;

		order_forget(tid, tid, &none);
	}
	put_killed(&f, pid, tid, sig, fatal);
	emit(&f);
	ev_end(&e);
	/* (each thread's end comes, the leader's last) */
	tasks_gone(1);
	thread_ends(tid);
}

/* The call a signal found this thread in (its instruction is where the
 * signal came, as strace -i shows it), or NULL. */
static const struct sysgate_sys *call_at_signal(void)
{
	struct in_flight *p;
	long ret;
	int where = sysgate_signal_where(&ret);

	if (!show_ip ||
	    (where != SYSGATE_SIG_RETURNED && where != SYSGATE_SIG_RESTART) ||
	    !(p = flight(tid_self(), 0)) || p->n <= 0 || p->n > MAX_NEST)
		return 0;
	return p->call[p->n - 1];
}

/* A signal's line, "--- SIG {siginfo} ---" (--json: its record): at the
 * call it came in or after (-i: where that returns), else at pc. */
static void put_signal(struct fmt *f, int sig, const void *info, int tid,
		       int pid, const struct sysgate_sys *at, unsigned long pc)
{
	const char *nm = sysgate_signal_name(sig);
	const int *si = info;	/* si_signo, si_errno, si_code */

	if (json) {
		fmt_str(f, "{\"type\":\"signal\",\"pid\":");
		fmt_dec(f, pid);
		fmt_str(f, ",\"sig\":\"");
		fmt_str(f, nm ? nm : "?");
		fmt_str(f, "\",\"code\":");
		fmt_dec(f, si[2]);
		fmt_str(f, "}\n");
		return;
	}
	put_event_head_at(f, tid,
			  at ? (unsigned long)sysgate_return_pc(at) : pc);
	fmt_str(f, "--- ");
	fmt_str(f, nm ? nm : "SIG?");
	fmt_chr(f, ' ');
	p_siginfo(f, 0, info);
	fmt_str(f, " ---\n");
}

static void trace_signal(int sig, const void *info, void *data)
{
	const struct sysgate_sys *at = call_at_signal();
	const int *si = info;	/* si_signo, si_errno, si_code */
	int fatal = sysgate_signal_fatal(sig), pid, tid = sysgate_task_tid(&pid);
	char buf[LINE_MAX_];	/* (-k's stack lines follow) */
	struct fmt f;

	struct ev e = { 0 };

	(void)data;
	/* (a child's SIGKILL: its end comes first, as at its death) */
	if (sig == 17 /* SIGCHLD */ && si[2] == 2 /* CLD_KILLED */ &&
	    si[6] == 9)
		killed_elsewhere(si[4]);
	signal_in_call();
	/* (SIGKILL is seen only by a tracer: its end, as strace shows it;
	 * so is a thread that another's signal ends, and one not followed,
	 * whose fatal signal ends the process that is) */
	if (!filter_signal(sig) || sig == 9 ||
	    sysgate_signal_where(0) == SYSGATE_SIG_ENDED ||
	    (leader_only && tid != pid)) {
		if (fatal)
			killed(sig, fatal);
		return;
	}
	fmt_init(&f, buf, sizeof(buf));
	ev_begin(&e, tid, 0);
	put_signal(&f, sig, info, tid, pid, at, at ? 0 : sysgate_signal_pc());
	if (stack_traces && !json)
		trace_stack(&f, 0, 0);
	emit(&f);
	if (fatal)
		killed(sig, fatal);
	ev_end(&e);
}

/* A child's end that the kernel told its parent with a SIGCHLD the
 * program has no handler for (chld.c): strace's line, at call s. */
static void sigchld_line(const struct chld_end *c, void *arg)
{
	const struct sysgate_sys *s = arg;
	unsigned long info[16];
	char buf[LINE_MAX_];
	struct ev e = { 0 };
	struct fmt f;

	if (!filter_signal(17))
		return;
	k_siginfo_chld(info, c);
	fmt_init(&f, buf, sizeof(buf));
	ev_begin(&e, s->tid, 0);
	put_signal(&f, 17, info, s->tid, s->pid, s, 0);
	if (stack_traces && !json)
		trace_stack(&f, s, 0);
	emit(&f);
	ev_end(&e);
}

/*
 * An execve made by thread by->tid of process pid (the leader's, which
 * the new program has):
 * strace prints the call's start ("<unfinished ...>" when the end of a
 * call the leader was in, "= ?", comes next, else "<pid changed to PID
 * ...>"), "+++ superseded by execve in pid TID +++", and the call's end
 * as the leader's.  Under a status filter, lines whole; for an execve
 * outside the set (n 0), no line of its own.
 */
static void exec_by_thread(struct sysgate_ctx *ctx, int pid, char *start,
			   long n, const struct exec_by *by)
{
	char buf[LINE_MAX_];
	struct order_cut cut;
	struct fmt f;
	unsigned long long ts = 0;
	int held = 0, none = 0, in_call = 0;

	leader_is_gone(pid, 1);	/* (superseded instead) */
	if (ordered) {
		order_begin(ctx, pid, 0, &none, &ts, &held);
		in_call = order_exec_leader(ctx, pid,
					    n > 0 && filter_status_all(),
					    &cut) &&
			  cut_printed(cut.nr);
	}
	if (n > 0 && filter_status_all()) {
		fmt_init(&f, start, LINE_MAX_);
		f.len = n;
		if (in_call) {
			fmt_str(&f, " <unfinished ...>\n");
		} else {
			fmt_str(&f, " <pid changed to ");
			fmt_dec(&f, pid);
			fmt_str(&f, " ...>\n");
		}
		sysgate_output(ctx, f.buf, f.len);
	}
	/* (a line at a time: the result's column is the line's) */
	fmt_init(&f, buf, sizeof(buf));
	if (in_call)
		put_cut(&f, pid, &cut);
	sysgate_output(ctx, f.buf, f.len);
	f.len = 0;
	if (!no_super_lines) {
		put_prefix(&f, pid, 0);
		fmt_str(&f, "+++ superseded by execve in pid ");
		fmt_dec(&f, by->tid);
		fmt_str(&f, " +++\n");
	}
	if (n > 0 && filter_status_all()) {
		sysgate_output(ctx, f.buf, f.len);
		f.len = 0;
		put_prefix(&f, pid, 0);
		fmt_str(&f, "<... ");
		put_name(&f, by->nr);
		fmt_str(&f, " resumed>");
		put_equals(&f);
		fmt_str(&f, "0\n");
	}
	sysgate_output(ctx, f.buf, f.len);
	if (ordered)
		order_end(held);
}

/* The line of the execve that started this program, which the execve's
 * entry formatted and carried (sysgate_exec_carry): at the new program's
 * start, or at the call's exit under -m ptrace (tid's).
 * What was carried: its length, or < 0 where no traced execve started
 * this program. */
static long exec_line(struct sysgate_ctx *ctx, int tid)
{
	char carried[LINE_MAX_];
	long n = sysgate_exec_carried(ctx, carried, sizeof(carried) - 64);
	unsigned long long ts = 0;
	struct sysgate_sys e = { 0 };
	struct exec_by by;
	struct fmt f;
	int none = 0, held = 0;

	if (n >= (long)sizeof(by)) {
		/* (the line, empty for an execve outside the set) */
		hk_memcpy(&by, carried + n - sizeof(by), sizeof(by));
		if (!hk_strncmp(by.mark, EXEC_BY_MARK, sizeof(EXEC_BY_MARK))) {
			exec_by_thread(ctx, tid, carried, n - sizeof(by), &by);
			return n;
		}
	}
	if (n <= 0 || !filter_status(detach_exec ? FILTER_DETACHED :
						   FILTER_SUCCESSFUL))
		return n;
	fmt_init(&f, carried, sizeof(carried));
	f.len = n;
	if (json) {
		fmt_str(&f, detach_exec ? ",\"detached\":true}\n" :
					  ",\"ret\":0}\n");
	} else if (ordered &&
		   order_begin(ctx, e.tid = tid, 1, &none, &ts, &held)) {
		/* (another line came after its start) */
		e.pid = e.tid;
		e.nr = nr_execve;
		f.len = 0;
		put_prefix(&f, e.tid, 0);
		fmt_str(&f, "<... execve resumed>");
	}
	if (!json && detach_exec) {
		fmt_str(&f, " <detached ...>\n");
	} else if (!json) {
		put_equals(&f);
		fmt_str(&f, "0\n");
	}
	sysgate_output(ctx, carried, f.len);
	if (ordered && !json && e.tid)
		order_end(held);
	return n;
}

extern struct sysgate_hook sg_builtin_trace;

static int trace_init(struct sysgate_ctx *ctx, const char *args)
{
	char err[160];
	struct arg a;
	long v;
	int have_set = 0, leaving;

	self = ctx;
	while (args_next(&args, &a)) {
		if (arg_is(&a, "trace") && a.val) {
			if (set_parse(&set, a.val, a.vlen, err, sizeof(err)))
				return sysgate_error(ctx, err);
			have_set = 1;
		} else if (arg_is(&a, "s") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v) && v >= 0) {
			/* (no longer bound by the line buffer: a long line
			 * grows; each reader caps at its own buffer) */
			trace_strsize = v > (1 << 24) ? 1 << 24 : (int)v;
		} else if (arg_is(&a, "t") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v)) {
			tstamp = (int)v;
		} else if ((arg_is(&a, "tp") || arg_is(&a, "rp") ||
			    arg_is(&a, "Tp")) && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v) && v >= 0 &&
			   v <= 9) {
			*(a.key[0] == 't' ? &tstamp_digits :
			  a.key[0] == 'r' ? &relative_digits : &time_digits) =
				(int)v;
		} else if (arg_is(&a, "T")) {
			show_time = 1;
		} else if (arg_is(&a, "json")) {
			json = 1;
		} else if (arg_is(&a, "f")) {
			follow = 1;
		} else if (arg_is(&a, "leader")) {
			leader_only = 1;
		} else if (arg_is(&a, "pfx")) {
			several = 1;
		} else if (arg_is(&a, "b")) {
			detach_exec = 1;
		} else if (arg_is(&a, "x") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v)) {
			trace_xflag = (int)v;
		} else if (arg_is(&a, "y")) {
			trace_fdpaths = FDS_PATH;
		} else if (arg_is(&a, "yy")) {
			trace_fdpaths = FDS_PATH | FDS_SOCKET | FDS_DEV |
					FDS_PIDFD;
		} else if (arg_is(&a, "fds") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v)) {
			trace_fdpaths = (int)v;
		} else if (arg_is(&a, "v")) {
			trace_verbose = 1;
		} else if ((arg_is(&a, "abbrev") || arg_is(&a, "verbose") ||
			    arg_is(&a, "raw")) && a.val) {
			struct sc_set *q = a.key[0] == 'a' ? &abbrev_set :
					   a.key[0] == 'v' ? &verbose_set :
							     &raw_set;

			if (set_parse(q, a.val, a.vlen, err, sizeof(err)))
				return sysgate_error(ctx, err);
			*(a.key[0] == 'a' ? &abbrev_given :
			  a.key[0] == 'v' ? &verbose_given : &raw_given) = 1;
		} else if (arg_is(&a, "k")) {
			stack_traces = 1;
		} else if (arg_is(&a, "i")) {
			show_ip = 1;
		} else if (arg_is(&a, "X") && a.val) {
			trace_xstyle = a.val[0] == 'r' ? XS_RAW : XS_VERBOSE;
		} else if (arg_is(&a, "noexit")) {
			no_exit_lines = 1;
		} else if (arg_is(&a, "nosuper")) {
			no_super_lines = 1;
		} else if (arg_is(&a, "n")) {
			show_nr = 1;
		} else if (arg_is(&a, "pidcol")) {
			pid_column = 1;
		} else if (arg_is(&a, "a") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v) && v >= 0 &&
			   v < 1000) {
			result_column = (int)v;
		} else if (arg_is(&a, "r")) {
			relative = 1;
		} else if (arg_is(&a, "pids") && a.val &&
			   !hk_parse_long(a.val, a.vlen, &v)) {
			trace_decode_pids = (int)v;
		} else if (arg_is(&a, "P") && a.val) {
			filter_add_path(a.val, a.vlen);
		} else if ((arg_is(&a, "read") || arg_is(&a, "write")) &&
			   a.val) {
			if (trace_dump_arg(a.key[0] == 'w', a.val, a.vlen))
				return sysgate_error(ctx, "-e read=/write=: "
					"descriptors, all or none");
		} else if (arg_is(&a, "signal") && a.val) {
			if (filter_parse_signals(a.val, a.vlen))
				return sysgate_error(ctx, fmt_bad_value(err,
					sizeof(err), "invalid signal", a.val,
					a.vlen));
		} else if (arg_is(&a, "status") && a.val) {
			if (filter_parse_status(a.val, a.vlen))
				return sysgate_error(ctx, "-e status: unknown "
					"status (successful, failed, unfinished, "
					"unavailable, detached, all, none)");
		} else {
			return sysgate_error(ctx, "trace: unknown argument");
		}
	}
	if (sysgate_init_only_checks(ctx))
		return 0;
	set_given = have_set;
	thread_begins();
	if (follow && !pid_column)
		tree_tasks = sysgate_shared(ctx, "tasks", sizeof(*tree_tasks));
	pids_init(ctx, follow);
	trace_nr_readlinkat = lookup("readlinkat");
	filter_init();
	{
		static const char *const longs[] = {
			"fadvise64", "fallocate", "ftruncate", "truncate",
			"pread64", "pwrite64", "preadv", "preadv2", "pwritev",
			"pwritev2", "readahead", "sync_file_range",
			"io_getevents", "io_pgetevents", "io_submit", "ptrace",
			"add_key", "request_key", "keyctl", "syslog",
		};
		unsigned int i;

		for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
			v = lookup(longs[i]);
			if (v >= 0 && v < SYSGATE_NR_MAX)
				long_args[v] = 1;
		}
	}
	if (trace_fdpaths) {
		static const char *const fd_calls[] = {
			"open", "openat", "openat2", "creat", "dup", "dup2",
			"dup3", "socket", "accept", "accept4", "epoll_create",
			"epoll_create1", "eventfd", "eventfd2", "timerfd_create",
			"signalfd", "signalfd4", "memfd_create", "inotify_init",
			"inotify_init1", "pidfd_open", "pidfd_getfd",
			"fanotify_init", "perf_event_open", "userfaultfd",
			"open_by_handle_at", "open_tree", "fsopen", "fsmount",
			"fspick", "memfd_secret", "mq_open",
		};
		unsigned int i;

		for (i = 0; i < sizeof(fd_calls) / sizeof(fd_calls[0]); i++) {
			v = lookup(fd_calls[i]);
			if (v >= 0 && v < SYSGATE_NR_MAX)
				returns_fd[v] = 1;
		}
	}
	if (have_set)
		set_select(ctx, &set);
	else
		sysgate_select_all(ctx);
	nr_execve = lookup("execve");
	nr_execveat = lookup("execveat");
	nr_exit_group = lookup("exit_group");
	nr_exit = lookup("exit");
	nr_rt_sigsuspend = lookup("rt_sigsuspend");
	nr_pause = lookup("pause");
	nr_rt_sigreturn = lookup("rt_sigreturn");
	nr_nanosleep = lookup("nanosleep");
	nr_clock_nanosleep = lookup("clock_nanosleep");
	nr_getpid = lookup("getpid");
	/* "+++ killed by SIG... +++", as strace, needs the signals that end
	 * a process by default. */
	sysgate_watch_fatal_signals(ctx);
	nr_mmap = lookup("mmap");
	nr_munmap = lookup("munmap");
	nr_mremap = lookup("mremap");
	nr_brk = lookup("brk");
	nr_shmat = lookup("shmat");
	nr_open = lookup("open");
	nr_openat = lookup("openat");
	/* "+++ exited with N +++" whatever the set, as strace does, for the
	 * process and each thread. */
	if (nr_exit_group >= 0)
		sysgate_select(ctx, nr_exit_group);
	if (nr_exit >= 0)
		sysgate_select(ctx, nr_exit);
	/* (and execve: "+++ superseded by execve" after a thread's) */
	if (nr_execve >= 0)
		sysgate_select(ctx, nr_execve);
	if (nr_execveat >= 0)
		sysgate_select(ctx, nr_execveat);
	/* (and the waits that tell a child's SIGKILL, which it cannot) */
	nr_wait4 = lookup("wait4");
	nr_waitid = lookup("waitid");
	nr_getrusage = lookup("getrusage");
	nr_getuid = lookup("getuid");
	if (follow && nr_wait4 >= 0)
		sysgate_select(ctx, nr_wait4);
	if (follow && nr_waitid >= 0)
		sysgate_select(ctx, nr_waitid);
	/* (without -f, lines carry no pid to say whose a resumed call is:
	 * each is written whole, as it ends) */
	ordered = follow && !json;
	if (ordered)
		order_init(ctx, !filter_status_all(),
			   relative ? put_relative : 0);
	/* (a tracer sees every signal itself; a SIGCHLD the program
	 * blocked comes as rt_sigprocmask unblocks it) */
	nr_rt_sigprocmask = lookup("rt_sigprocmask");
	if (follow && !hooks_in_tracer()) {
		chld_init(ctx);
		if (nr_rt_sigprocmask >= 0)
			sysgate_select(ctx, nr_rt_sigprocmask);
	}
	/* The execve that started this program, if a traced one did. */
	/* (-b execve: the program leaves the tree as it starts) */
	leaving = exec_line(ctx, tid_self()) >= 0 && detach_exec;
	if (leaving)
		tasks_gone(1);
	if (ordered && !hooks_in_tracer()) {
		/* (the old program's other threads are gone; this one is
		 * known from its start: process_killed) */
		int pid, tid = sysgate_task_tid(&pid);

		order_forget_process(tid, pid, tid);
		if (!leaving)
			order_thread(tid);
	}
	/* Each call's start time only where a line shows it (-t, -r, -T,
	 * --json's dur_ns): a clock read is a tenth of a traced call. */
	if (tstamp || relative || show_time || json)
		sg_builtin_trace.flags |= SYSGATE_HOOK_TIMED;
	else
		sg_builtin_trace.flags &= ~SYSGATE_HOOK_TIMED;
	return 0;
}

struct sysgate_hook sg_builtin_trace = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU | SYSGATE_HOOK_TIMED | SYSGATE_HOOK_NOTLS |
		 SYSGATE_HOOK_OBSERVES,
	.name = "trace",
	.init = trace_init,
	.enter = trace_enter,
	.exit = trace_exit,
	.signal = trace_signal,
	.thread_start = trace_thread_start,
	.fork_child = trace_fork_child,
};
