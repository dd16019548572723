/* SPDX-License-Identifier: MIT */
/*
 * Processes: clone and clone3, wait4 status macros, prctl options,
 * resource limits, priorities, rseq.
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "trace.h"

static void p_clone_flags(struct fmt *f, unsigned long fl)
{
	unsigned long sig = fl & 0xff;

	fl &= ~0xffUL;
	if (fl)
		p_flags(f, fl, &xl_clone_flags, 0);
	if (sig) {
		if (fl)
			fmt_chr(f, '|');
		p_signame(f, sig);
	} else if (!fl) {
		fmt_chr(f, '0');
	}
}

/* clone's arguments as the call got them: a vfork child runs on its
 * parent's stack, where the call's record may be (ports), and can
 * overwrite it before the parent's line is printed */
static void clone_enter(struct call *c)
{
	hk_memcpy(trace_saved(c), c->s->args, sizeof(c->s->args));
}

static void d_clone(struct call *c)
{
	const unsigned long *arg = trace_saved(c);
	unsigned long fl = arg[0], ctid, tls;
	struct fmt *f = c->f;

	/* The kernels with the legacy calls (x86-64) take the child's tid
	 * pointer before tls; the asm-generic ones after it. */
	if (sysgate_syscall_number("fork") >= 0) {
		ctid = arg[3];
		tls = arg[4];
	} else {
		tls = arg[3];
		ctid = arg[4];
	}
	a_sep(c);
	fmt_str(f, "child_stack=");
	p_ptr(f, arg[1]);
	a_sep(c);
	fmt_str(f, "flags=");
	p_clone_flags(f, fl);
	/* what the kernel wrote there: the child's pidfd or tid */
	if (fl & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		int v;

		a_exit_next(c);
		a_sep(c);
		fmt_str(f, "parent_tid=");
		if (!c_ok(c))
			p_ptr(f, arg[2]);
		else if (!fetch(f, c->s, &v, arg[2], sizeof(v))) {
			fmt_chr(f, '[');
			if (fl & CLONE_PIDFD) {
				fmt_dec(f, v);
				p_fdpath(f, c->s, v);
			} else {
				p_pid(f, v, PT_TID);
			}
			fmt_chr(f, ']');
		}
	}
	if (fl & CLONE_SETTLS) {
		a_sep(c);
		fmt_str(f, "tls=");
		p_ptr(f, tls);
	}
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		a_sep(c);
		fmt_str(f, "child_tidptr=");
		p_ptr(f, ctid);
	}
}

static void field_hex(struct fmt *f, const char *name, unsigned long v)
{
	fmt_str(f, name);
	p_hex(f, v);
}

static void field_ptr(struct fmt *f, const char *name, unsigned long v)
{
	fmt_str(f, name);
	p_ptr(f, v);
}

/* set_tid=[1, 2] (or its address), set_tid_size=2 */
static void p_set_tid(struct fmt *f, const struct sysgate_sys *s,
		      const struct clone_args *ca)
{
	unsigned long i;
	int v;

	fmt_str(f, ", set_tid=");
	if (!ca->set_tid || !ca->set_tid_size || ca->set_tid_size > 32) {
		p_ptr(f, ca->set_tid);
	} else {
		for (i = 0; i < ca->set_tid_size; i++) {
			unsigned long a = ca->set_tid + i * sizeof(v);

			if (trace_read(s, &v, (void *)a, sizeof(v)) !=
			    sizeof(v)) {
				if (!i) {
					p_ptr(f, ca->set_tid);
					break;
				}
				fmt_str(f, ", ... /* ");
				fmt_hex(f, a);
				fmt_str(f, " */]");
				break;
			}
			fmt_str(f, i ? ", " : "[");
			if (i >= (unsigned long)trace_strsize) {
				fmt_str(f, "...]");
				break;
			}
			fmt_dec(f, v);
			if (i + 1 == ca->set_tid_size)
				fmt_chr(f, ']');
		}
	}
	f_udec(f, ", set_tid_size=", ca->set_tid_size);
}

static void d_clone3(struct call *c)
{
	struct clone_args ca = { 0 };
	unsigned long size = c->s->args[1], p = c->s->args[0],
		      got = size < sizeof(ca) ? size : sizeof(ca),
		      page = size < 4096 ? size : 4096;
	struct fmt *f = c->f;
	const char *sep;
	int tid;

	a_sep(c);
	if (got < offsetof(struct clone_args, set_tid) ||
	    fetch(f, c->s, &ca, p, got)) {
		if (got < offsetof(struct clone_args, set_tid))
			p_ptr(f, p);
		a_udec(c, size);
		return;
	}
	fmt_str(f, "{flags=");
	p_flags_unknown(f, ca.flags, &xl_clone_flags, "CLONE_???");
	if (ca.flags & CLONE_PIDFD)
		field_ptr(f, ", pidfd=", ca.pidfd);
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		field_ptr(f, ", child_tid=", ca.child_tid);
	if (ca.flags & CLONE_PARENT_SETTID)
		field_ptr(f, ", parent_tid=", ca.parent_tid);
	fmt_str(f, ", exit_signal=");
	if (ca.exit_signal >= 0x7fffffff)
		fmt_udec(f, ca.exit_signal);
	else if (ca.exit_signal)
		p_signame(f, ca.exit_signal);
	else
		fmt_chr(f, '0');
	field_ptr(f, ", stack=", ca.stack);
	field_hex(f, ", stack_size=", ca.stack_size);
	if (ca.flags & CLONE_SETTLS)
		field_ptr(f, ", tls=", ca.tls);
	if (ca.set_tid || ca.set_tid_size)
		p_set_tid(f, c->s, &ca);
	if (got > offsetof(struct clone_args, cgroup) &&
	    (ca.cgroup || (ca.flags & CLONE_INTO_CGROUP)))
		f_udec(f, ", cgroup=", ca.cgroup);
	p_nonzero_tail(f, c->s, p, got, page, ", ");
	fmt_chr(f, '}');
	/* what the kernel wrote: the pidfd, the parent's tid, the tail;
	 * at entry, strace stops here (the size follows them) */
	a_exit_here(c);
	if (c_ok(c)) {
		sep = " => {";
		if (trace_read(c->s, &ca, (void *)p, got) != (long)got) {
			fmt_str(f, " => ");
			p_ptr(f, p);
			sep = 0;
		}
		if (sep && (ca.flags & CLONE_PIDFD)) {
			fmt_str(f, sep);
			fmt_str(f, "pidfd=");
			if (!fetch(f, c->s, &tid, ca.pidfd, sizeof(tid))) {
				f_dec(f, "[", tid);
				p_fdpath(f, c->s, tid);
				fmt_chr(f, ']');
			}
			sep = ", ";
		}
		if (sep && (ca.flags & CLONE_PARENT_SETTID)) {
			fmt_str(f, sep);
			fmt_str(f, "parent_tid=");
			if (!fetch(f, c->s, &tid, ca.parent_tid, sizeof(tid))) {
				fmt_chr(f, '[');
				p_pid(f, tid, PT_TID);
				fmt_chr(f, ']');
			}
			sep = ", ";
		}
		if (sep && p_nonzero_tail(f, c->s, p, got, page, sep))
			sep = ", ";
		if (sep && sep[0] == ',')
			fmt_chr(f, '}');
	}
	a_udec(c, size);
}

/* A wait status's signal: its name whatever -X asks, as strace's */
static void p_wsig(struct fmt *f, int sig)
{
	const char *nm = sysgate_signal_name(sig);

	if (nm)
		fmt_str(f, nm);
	else
		fmt_dec(f, sig);
}

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 0}] */
static void p_wstatus(struct fmt *f, int st)
{
	fmt_str(f, "[{");
	if (WIFEXITED(st)) {
		f_dec(f, "WIFEXITED(s) && WEXITSTATUS(s) == ", WEXITSTATUS(st));
	} else if (WIFSIGNALED(st)) {
		fmt_str(f, "WIFSIGNALED(s) && WTERMSIG(s) == ");
		p_wsig(f, WTERMSIG(st));
		if (WCOREDUMP(st))
			fmt_str(f, " && WCOREDUMP(s)");
	} else if (WIFSTOPPED(st)) {
		fmt_str(f, "WIFSTOPPED(s) && WSTOPSIG(s) == ");
		p_wsig(f, WSTOPSIG(st));
	} else if (WIFCONTINUED(st)) {
		fmt_str(f, "WIFCONTINUED(s)");
	} else {
		p_hex(f, st);
	}
	fmt_str(f, "}]");
}

/* {ru_utime=..., ru_stime=..., ...}; every field under -v */
static void a_rusage(struct call *c, unsigned long p)
{
	struct rusage ru;
	struct fmt *f = c->f;

	if (fetch_out(c, &ru, p, sizeof(ru)))
		return;
	f_dec(f, "{ru_utime={tv_sec=", ru.ru_utime.tv_sec);
	f_udec(f, ", tv_usec=", ru.ru_utime.tv_usec);
	f_dec(f, "}, ru_stime={tv_sec=", ru.ru_stime.tv_sec);
	f_udec(f, ", tv_usec=", ru.ru_stime.tv_usec);
	if (!trace_whole(c->s)) {
		fmt_str(f, "}, ...}");
		return;
	}
	fmt_chr(f, '}');
	/* (strace's: unsigned) */
	f_udec(f, ", ru_maxrss=", ru.ru_maxrss);
	f_udec(f, ", ru_ixrss=", ru.ru_ixrss);
	f_udec(f, ", ru_idrss=", ru.ru_idrss);
	f_udec(f, ", ru_isrss=", ru.ru_isrss);
	f_udec(f, ", ru_minflt=", ru.ru_minflt);
	f_udec(f, ", ru_majflt=", ru.ru_majflt);
	f_udec(f, ", ru_nswap=", ru.ru_nswap);
	f_udec(f, ", ru_inblock=", ru.ru_inblock);
	f_udec(f, ", ru_oublock=", ru.ru_oublock);
	f_udec(f, ", ru_msgsnd=", ru.ru_msgsnd);
	f_udec(f, ", ru_msgrcv=", ru.ru_msgrcv);
	f_udec(f, ", ru_nsignals=", ru.ru_nsignals);
	f_udec(f, ", ru_nvcsw=", ru.ru_nvcsw);
	f_udec(f, ", ru_nivcsw=", ru.ru_nivcsw);
	fmt_chr(f, '}');
}

static void d_getrusage(struct call *c)
{
	a_xlat(c, (long)(int)c->s->args[0], &xl_rusage_who, "RUSAGE_???");
	a_rusage(c, c->s->args[1]);
}

static void d_wait4(struct call *c)
{
	unsigned long p = c->s->args[1];
	int st;

	a_wait4_pid(c);
	a_exit_next(c);
	a_sep(c);
	if (c_ok(c) && c->s->ret > 0 && p &&
	    trace_read(c->s, &st, (void *)p, sizeof(st)) == sizeof(st))
		p_wstatus(c->f, st);
	else
		p_ptr(c->f, p);
	a_flags(c, (unsigned int)c->s->args[2], &xl_wait_options, 0);
	/* (filled only when a child was reaped) */
	if (c->s->ret > 0)
		a_rusage(c, c->s->args[3]);
	else
		a_ptr(c, c->s->args[3]);
}

/* 8192*1024, RLIM64_INFINITY (strace's RLIM_INFINITY is the 32-bit
 * ABIs' only: getrlimit and setrlimit print the 64-bit name too) */
static void p_rlim(struct fmt *f, unsigned long v)
{
	size_t start = x_begin(f);

	if (v == ~0UL) {
		fmt_str(f, "RLIM64_INFINITY");
	} else if (v && !(v % 1024)) {
		fmt_udec(f, v / 1024);
		fmt_str(f, "*1024");
	} else {
		fmt_udec(f, v);
	}
	x_end(f, start, v, 'u');
}

static void p_rlimit(struct fmt *f, const struct sysgate_sys *s,
		     unsigned long p)
{
	unsigned long r[2];

	if (fetch(f, s, r, p, sizeof(r)))
		return;
	fmt_str(f, "{rlim_cur=");
	p_rlim(f, r[0]);
	fmt_str(f, ", rlim_max=");
	p_rlim(f, r[1]);
	fmt_chr(f, '}');
}

static void d_prlimit64(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_xlat(c, (unsigned int)c->s->args[1], &xl_rlimits, "RLIMIT_???");
	a_sep(c);
	p_rlimit(c->f, c->s, c->s->args[2]);
	if (a_out(c, c->s->args[3]))
		p_rlimit(c->f, c->s, c->s->args[3]);
}

static void d_setrlimit(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_rlimits, "RLIMIT_???");
	a_sep(c);
	p_rlimit(c->f, c->s, c->s->args[1]);
}

static void d_getrlimit(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_rlimits, "RLIMIT_???");
	if (a_out(c, c->s->args[1]))
		p_rlimit(c->f, c->s, c->s->args[1]);
}

static void d_priority(struct call *c)
{
	int i, n = sysgate_syscall_nargs(c->s->nr);

	a_xlat(c, (unsigned int)c->s->args[0], &xl_prio_which, "PRIO_???");
	a_pid(c, 1, c->s->args[0] == PRIO_PROCESS ? PT_TGID :
		    c->s->args[0] == PRIO_PGRP ? PT_PGID : PT_NONE);
	for (i = 2; i < n; i++)
		a_int(c, i);
}

/* [int] the call reads, or writes when out */
static void a_int_at(struct call *c, unsigned long p, int out)
{
	int v;

	if (fetch_arg(c, &v, p, sizeof(v), out))
		return;
	fmt_chr(c->f, '[');
	fmt_dec(c->f, v);
	fmt_chr(c->f, ']');
}

static void d_sched_getscheduler(struct call *c)
{
	a_pid(c, 0, PT_TGID);
}

static void r_sched_getscheduler(struct call *c)
{
	const char *nm = xlat_name(&xl_schedulers, c->s->ret);

	fmt_dec(c->f, c->s->ret);
	if (nm) {
		fmt_str(c->f, " (");
		fmt_str(c->f, nm);
		fmt_chr(c->f, ')');
	}
}

static void d_sched_setscheduler(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_xlat(c, (unsigned int)c->s->args[1], &xl_schedulers, "SCHED_???");
	a_int_at(c, c->s->args[2], 0);
}

static void d_sched_priority(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_schedulers, "SCHED_???");
}

static void d_sched_xetparam(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_int_at(c, c->s->args[1], c->s->nr == sysgate_syscall_number(
						       "sched_getparam"));
}

/* The kernel's struct sched_attr: 48 bytes first, 56 with the
 * utilisation clamps. */
struct sched_attr_k {
	unsigned int size, sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime, sched_deadline, sched_period;
	unsigned int sched_util_min, sched_util_max;
};
#define SCHED_ATTR_V0 48u
#define SCHED_ATTR_V1 56u

/* {size=..., ...}: a setattr's as given (size: what the caller said, 0
 * standing for the first version), a getattr's as the kernel wrote it
 * into a buffer of size bytes; ", ..." for bytes beyond what we know. */
static void p_sched_attr(struct call *c, unsigned long p, unsigned int size,
			 int set)
{
	struct sched_attr_k a = { 0 };
	unsigned int given, n;
	int keep_policy, keep_params;

	if (set) {
		if (fetch(c->f, c->s, &a.size, p, sizeof(a.size)))
			return;
		/* (the size the call's entry saw: E2BIG rewrites it) */
		a.size = (unsigned int)trace_saved(c)[0];
		given = a.size ? a.size : SCHED_ATTR_V0;
		n = given < sizeof(a) ? given : (unsigned int)sizeof(a);
		if (n >= SCHED_ATTR_V0) {
			if (fetch(c->f, c->s, &a, p, n))
				return;
			a.size = (unsigned int)trace_saved(c)[0];
		}
	} else {
		n = size < sizeof(a) ? size : (unsigned int)sizeof(a);
		if (fetch(c->f, c->s, &a, p, n))
			return;
		given = n = a.size;
	}
	f_udec(c->f, "{size=", a.size);
	if (n < SCHED_ATTR_V0)
		goto end;
	keep_policy = set && (int)a.sched_policy >= 0 &&
		      (a.sched_flags & (SCHED_FLAG_KEEP_POLICY |
					SCHED_FLAG_KEEP_PARAMS));
	keep_params = set && (a.sched_flags & SCHED_FLAG_KEEP_PARAMS);
	if (!keep_policy) {
		fmt_str(c->f, ", sched_policy=");
		p_xlat(c->f, a.sched_policy, &xl_schedulers, "SCHED_???");
	}
	fmt_str(c->f, ", sched_flags=");
	p_flags_unknown(c->f, a.sched_flags, &xl_sched_flags,
			"SCHED_FLAG_???");
	if (!keep_params) {
		f_dec(c->f, ", sched_nice=", a.sched_nice);
		f_udec(c->f, ", sched_priority=", a.sched_priority);
		f_udec(c->f, ", sched_runtime=", a.sched_runtime);
		f_udec(c->f, ", sched_deadline=", a.sched_deadline);
		f_udec(c->f, ", sched_period=", a.sched_period);
	}
	if (n >= SCHED_ATTR_V1) {
		f_udec(c->f, ", sched_util_min=", a.sched_util_min);
		f_udec(c->f, ", sched_util_max=", a.sched_util_max);
	}
end:
	if (given > n)
		fmt_str(c->f, ", ...");
	fmt_chr(c->f, '}');
}

static void e_sched_setattr(struct call *c)
{
	unsigned int size = 0;

	trace_read(c->s, &size, (void *)c->s->args[1], sizeof(size));
	trace_saved(c)[0] = size;
}

static void d_sched_setattr(struct call *c)
{
	unsigned int size;

	a_pid(c, 0, PT_TGID);
	a_sep(c);
	p_sched_attr(c, c->s->args[1], 0, 1);
	/* E2BIG: the kernel wrote the size it knows */
	if (c->s->ret == -E2BIG && trace_structs(c->s) &&
	    trace_read(c->s, &size, (void *)c->s->args[1], sizeof(size)) ==
		    sizeof(size))
		f_udec(c->f, " => {size=", size), fmt_chr(c->f, '}');
	a_udec(c, (unsigned int)c->s->args[2]);
}

static void d_sched_getattr(struct call *c)
{
	unsigned int size = (unsigned int)c->s->args[2];

	a_pid(c, 0, PT_TGID);
	if (a_out(c, c->s->args[1])) {
		if (size)
			p_sched_attr(c, c->s->args[1], size, 0);
		else
			p_ptr(c->f, c->s->args[1]);
	}
	a_udec(c, size);
	a_udec(c, (unsigned int)c->s->args[3]);
}

/* process_vm_readv/writev: the local buffers' data (readv's: what was
 * read, once it succeeded), the remote ones' addresses */
static void d_process_vm(struct call *c)
{
	int wr = c->s->nr == sysgate_syscall_number("process_vm_writev");

	a_pid(c, 0, PT_TGID);
	a_iov(c, 1, wr);
	a_udec(c, c->s->args[2]);
	a_sep(c);
	put_iov(c->f, c->s, c->s->args[3], c->s->args[4], IOV_ADDR);
	a_udec(c, c->s->args[4]);
	a_udec(c, c->s->args[5]);
}

/* get_robust_list(tid, [head], [len]) */
static void d_get_robust_list(struct call *c)
{
	unsigned long v;
	int i;

	a_pid(c, 0, PT_TID);
	for (i = 1; i < 3; i++) {
		if (fetch_out(c, &v, c->s->args[i], sizeof(v)))
			continue;
		fmt_chr(c->f, '[');
		if (i == 1)
			p_ptr(c->f, v);
		else
			fmt_udec(c->f, v);
		fmt_chr(c->f, ']');
	}
}

/* (no exit signal in these flags, unlike clone's) */
static void d_unshare(struct call *c)
{
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[0], &xl_unshare_flags, "CLONE_???");
}

static void d_setns(struct call *c)
{
	a_fd(c, 0);
	a_int_flags(c, c->s->args[1], &xl_setns_types, "CLONE_NEW???");
}

static void d_migrate_pages(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_nodemask(c, c->s->args[2], c->s->args[1], 0);
	a_sep(c);
	p_nodemask(c, c->s->args[3], c->s->args[1], 0);
}

/* Descriptor fd of process pid (with -y's path from its /proc). */
static void p_fd_of(struct fmt *f, const struct sysgate_sys *s, int pid,
		    int fd)
{
	struct sysgate_sys other = *s;

	fmt_dec(f, fd);
	other.pid = pid;
	if (pid > 0)
		p_fdpath(f, &other, fd);
}

/* targetfd: a descriptor of the pidfd's process */
static void d_pidfd_getfd(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_fd_of(c->f, c->s, trace_fdpaths ? pidfd_pid(c->s, (int)c->s->args[0]) :
					    0, (int)c->s->args[1]);
	a_hex(c, (unsigned int)c->s->args[2]);
}

static void d_kcmp(struct call *c)
{
	const long *a = c->s->args;
	struct {
		unsigned int efd, tfd, toff;
	} slot;

	a_pid(c, 0, PT_TGID);
	a_pid(c, 1, PT_TGID);
	a_xlat(c, (unsigned int)a[2], &xl_kcmp_types, "KCMP_???");
	switch ((int)a[2]) {
	case 0:	/* KCMP_FILE */
		a_sep(c);
		p_fd_of(c->f, c->s, (int)a[0], (int)a[3]);
		a_sep(c);
		p_fd_of(c->f, c->s, (int)a[1], (int)a[4]);
		return;
	case 7:	/* KCMP_EPOLL_TFD */
		a_sep(c);
		p_fd_of(c->f, c->s, (int)a[0], (int)a[3]);
		a_sep(c);
		if (fetch(c->f, c->s, &slot, a[4], sizeof(slot)))
			return;
		fmt_str(c->f, "{efd=");
		p_fd_of(c->f, c->s, (int)a[1], (int)slot.efd);
		fmt_str(c->f, ", tfd=");
		p_fd_of(c->f, c->s, (int)a[1], (int)slot.tfd);
		f_udec(c->f, ", toff=", slot.toff);
		fmt_chr(c->f, '}');
		return;
	case 1: case 2: case 3: case 4: case 5: case 6:
		return;
	}
	a_hex(c, a[3]);
	a_hex(c, a[4]);
}

static void d_rseq(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_hex(c, (unsigned int)c->s->args[1]);
	a_hex(c, (unsigned int)c->s->args[2]);
	a_hex(c, (unsigned int)c->s->args[3]);
}

/* A gid as strace prints ids: -1 as -1, else unsigned. */
static void e_gid(struct fmt *f, const void *e)
{
	unsigned int g = *(const unsigned int *)e;

	if (g == ~0U)
		fmt_str(f, "-1");
	else
		fmt_udec(f, g);
}

/* getgroups' list on success (its result is the count), setgroups': an
 * array, or the address of one longer than the kernel takes (65536). */
static void a_gids(struct call *c, unsigned long p, unsigned int n)
{
	a_sep(c);
	if (n > 65536)
		p_ptr(c->f, p);
	else
		p_array(c, p, n, sizeof(unsigned int), 0, e_gid);
}

static void d_getgroups(struct call *c)
{
	a_int(c, 0);
	a_exit_next(c);
	if (c_ok(c))
		a_gids(c, c->s->args[1], (unsigned int)c->s->ret);
	else
		a_ptr(c, c->s->args[1]);
}

static void d_setgroups(struct call *c)
{
	a_int(c, 0);
	a_gids(c, c->s->args[1], (unsigned int)c->s->args[0]);
}

void p_cpus(struct call *c, unsigned long p, unsigned long size)
{
	unsigned long set[128], w, i, cpu, n = size;
	int first = 1;

	if (n > sizeof(set))
		n = sizeof(set);
	/* (the whole set, or its address when it cannot be read) */
	if (!trace_structs(c->s) ||
	    (n && trace_read(c->s, set, (void *)p, n) != (long)n)) {
		p_ptr(c->f, p);
		return;
	}
	fmt_chr(c->f, '[');
	for (i = 0; i * sizeof(w) < n; i++) {
		w = set[i];
		if ((i + 1) * sizeof(w) > n)
			w &= (1UL << (n % sizeof(w) * 8)) - 1;
		for (cpu = 0; cpu < 64; cpu++) {
			if (!(w >> cpu & 1))
				continue;
			if (!first)
				fmt_chr(c->f, ' ');
			first = 0;
			fmt_udec(c->f, i * 64 + cpu);
		}
	}
	fmt_chr(c->f, ']');
}

static void d_sched_getaffinity(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_udec(c, c->s->args[1]);
	if (a_out(c, c->s->args[2]))
		p_cpus(c, c->s->args[2], c->s->ret);
}

static void d_sched_setaffinity(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_cpus(c, c->s->args[2], c->s->args[1]);
}

static void d_waitid(struct call *c)
{
	unsigned char si[128];

	a_xlat(c, (unsigned int)c->s->args[0], &xl_idtypes, "P_???");
	a_waitid_pid(c);
	a_exit_next(c);
	a_sep(c);
	/* with WNOHANG and no child ready the kernel leaves si_signo 0 */
	if (c_ok(c) && c->s->args[2] &&
	    trace_read(c->s, si, (void *)c->s->args[2], sizeof(si)) ==
		    sizeof(si) && si[0])
		p_siginfo(c->f, c->s, si);
	else if (c_ok(c) && c->s->args[2] && trace_structs(c->s))
		fmt_str(c->f, "{}");
	else
		p_ptr(c->f, c->s->args[2]);
	a_flags(c, (unsigned int)c->s->args[3], &xl_wait_options, 0);
	a_rusage(c, c->s->args[4]);
}

/* getresuid([0], [0], [0]) */
static void d_getresid(struct call *c)
{
	unsigned int id;
	int i;

	for (i = 0; i < 3; i++) {
		if (fetch_out(c, &id, c->s->args[i], sizeof(id)))
			continue;
		fmt_chr(c->f, '[');
		fmt_udec(c->f, id);
		fmt_chr(c->f, ']');
	}
}

/* strace always comments XSAVE feature masks (but under -X raw):
 * 0xe7 / * XFEATURE_MASK_FPSSE|... * / */
static void p_xfeatures(struct fmt *f, unsigned long v)
{
	p_hex(f, v);
	if (trace_xstyle == XS_RAW || !v)
		return;
	fmt_str(f, " /* ");
	if (!p_flag_names(f, v, &xl_x86_xfeatures))
		fmt_str(f, "XFEATURE_MASK_???");
	fmt_str(f, " */");
}

static void d_arch_prctl(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[0];
	unsigned long v, arg = c->s->args[1];
	const char *nm;

	a_xlat(c, op, &xl_arch_prctl, "ARCH_???");
	switch (op) {
	case 0x1011:	/* ARCH_GET_CPUID */
		return;
	case 0x1003: case 0x1004:	/* ARCH_GET_FS, ARCH_GET_GS */
	case 0x1021: case 0x1022: case 0x1024:	/* ARCH_GET_XCOMP_* */
		if (fetch_out(c, &v, arg, sizeof(v)))
			return;
		fmt_chr(c->f, '[');
		if (op < 0x1021)
			p_ptr(c->f, v);
		else
			p_xfeatures(c->f, v);
		fmt_chr(c->f, ']');
		return;
	case 0x1023: case 0x1025:	/* ARCH_REQ_XCOMP_*PERM: a feature */
		a_hex(c, arg);
		if (trace_xstyle == XS_RAW)
			return;
		nm = xlat_name(&xl_x86_xfeature_bits, arg);
		fmt_str(c->f, " /* ");
		fmt_str(c->f, nm ? nm : "XFEATURE_???");
		fmt_str(c->f, " */");
		return;
	}
	a_hex(c, arg);
}

static void r_arch_prctl(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[0];
	long r = c->s->ret;

	if ((op != 0x1023 && op != 0x1025) || r <= 0) {
		fmt_dec(c->f, r);
		return;
	}
	/* the features granted */
	p_hex(c->f, r);
	r_flags_comment(c->f, r, &xl_x86_xfeatures);
}

/*
 * capget and capset: the header {version=..., pid=...} as given (capget's
 * kernel writes its preferred version back into a bad one), then one set
 * of capabilities per 32 bits the version has: 1<<CAP_X|..., the bits no
 * name has as the hex of their word.
 */
static void p_capword(struct fmt *f, unsigned int w, int first_bit)
{
	size_t start = x_begin(f);
	unsigned int left = w;
	int i, any = 0;

	for (i = 0; i < 32; i++) {
		const char *nm = w >> i & 1 ?
			xlat_name(&xl_caps, first_bit + i) : 0;

		if (!nm)
			continue;
		fmt_str(f, any++ ? "|1<<" : "1<<");
		fmt_str(f, nm);
		left &= ~(1U << i);
	}
	if (left) {
		if (any)
			fmt_chr(f, '|');
		p_hex(f, left);
	} else if (!any) {
		fmt_chr(f, '0');
	}
	x_end(f, start, w, 'x');
}

/* (each word its own, as strace: under -X raw 0xfeffffff|0x1ff) */
static void p_capset(struct fmt *f, const char *name, unsigned int lo,
		     unsigned int hi)
{
	fmt_str(f, name);
	if (lo || !hi)
		p_capword(f, lo, 0);
	if (lo && hi)
		fmt_chr(f, '|');
	if (hi)
		p_capword(f, hi, 32);
}

static void cap_enter(struct call *c)
{
	unsigned int h[2];
	unsigned long *saved = trace_saved(c);

	saved[0] = trace_read(c->s, h, (void *)c->s->args[0], sizeof(h)) ==
		   sizeof(h);
	saved[1] = h[0];
	saved[2] = (unsigned long)(long)(int)h[1];
}

static void d_cap(struct call *c, int out)
{
	const unsigned long *saved = trace_saved(c);
	struct fmt *f = c->f;
	unsigned int d[6];
	unsigned long n;

	a_sep(c);
	if (!saved[0]) {
		p_ptr(f, c->s->args[0]);
	} else {
		fmt_str(f, "{version=");
		p_xlat(f, saved[1], &xl_cap_versions,
		       "_LINUX_CAPABILITY_VERSION_???");
		f_dec(f, ", pid=", (long)saved[2]);
		fmt_chr(f, '}');
	}
	/* (the data's words: one for version 1, two for 2 and 3) */
	n = !saved[0] ? 0 : saved[1] == _LINUX_CAPABILITY_VERSION_1 ? 1 :
	    xlat_name(&xl_cap_versions, saved[1]) ? 2 : 0;
	if (out)
		a_exit_next(c);
	a_sep(c);
	if (!n || (out && !c_ok(c)) || !c->s->args[1] ||
	    trace_read(c->s, d, (void *)c->s->args[1], n * 12) != (long)n * 12) {
		p_ptr(f, c->s->args[1]);
		return;
	}
	if (n == 1)
		d[3] = d[4] = d[5] = 0;
	p_capset(f, "{effective=", d[0], d[3]);
	p_capset(f, ", permitted=", d[1], d[4]);
	p_capset(f, ", inheritable=", d[2], d[5]);
	fmt_chr(f, '}');
}

static void d_capget(struct call *c)
{
	d_cap(c, 1);
}

static void d_capset(struct call *c)
{
	d_cap(c, 0);
}

/* A user or group id comes back unsigned (an injected result shows it) */
static void r_id(struct call *c)
{
	fmt_udec(c->f, (unsigned long)c->s->ret);
}

const struct decoder dec_proc[] = {
	{ "capget", d_capget, 0, cap_enter },
	{ "capset", d_capset, 0, cap_enter },
	{ "getuid", 0, r_id, 0 },
	{ "geteuid", 0, r_id, 0 },
	{ "getgid", 0, r_id, 0 },
	{ "getegid", 0, r_id, 0 },
	{ "getgroups", d_getgroups, 0, 0 },
	{ "setgroups", d_setgroups, 0, 0 },
	{ "arch_prctl", d_arch_prctl, r_arch_prctl, 0 },
	{ "sched_getaffinity", d_sched_getaffinity, 0, 0 },
	{ "sched_setaffinity", d_sched_setaffinity, 0, 0 },
	{ "clone", d_clone, r_tid, clone_enter },
	{ "clone3", d_clone3, r_tid, 0 },
	{ "wait4", d_wait4, r_tgid, pids_enter_wait4 },
	{ "waitid", d_waitid, 0, pids_enter_waitid },
	{ "getresuid", d_getresid, 0, 0 },
	{ "getresgid", d_getresid, 0, 0 },
	{ "getrusage", d_getrusage, 0, 0 },
	{ "prlimit64", d_prlimit64, 0, 0 },
	{ "setrlimit", d_setrlimit, 0, 0 },
	{ "getrlimit", d_getrlimit, 0, 0 },
	{ "getpriority", d_priority, 0, 0 },
	{ "setpriority", d_priority, 0, 0 },
	{ "rseq", d_rseq, 0, 0 },
	{ "sched_getscheduler", d_sched_getscheduler, r_sched_getscheduler,
	  0 },
	{ "sched_setscheduler", d_sched_setscheduler, 0, 0 },
	{ "sched_getparam", d_sched_xetparam, 0, 0 },
	{ "sched_get_priority_min", d_sched_priority, 0, 0 },
	{ "sched_get_priority_max", d_sched_priority, 0, 0 },
	{ "sched_setparam", d_sched_xetparam, 0, 0 },
	{ "sched_setattr", d_sched_setattr, 0, e_sched_setattr },
	{ "sched_getattr", d_sched_getattr, 0, 0 },
	{ "process_vm_readv", d_process_vm, 0, 0 },
	{ "process_vm_writev", d_process_vm, 0, 0 },
	{ "get_robust_list", d_get_robust_list, 0, 0 },
	{ "migrate_pages", d_migrate_pages, 0, 0 },
	{ "unshare", d_unshare, 0, 0 },
	{ "setns", d_setns, 0, 0 },
	{ "kcmp", d_kcmp, 0, 0 },
	{ "pidfd_getfd", d_pidfd_getfd, 0, 0 },
	{ 0, 0, 0, 0 },
};
