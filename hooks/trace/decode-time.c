/* SPDX-License-Identifier: MIT */
/*
 * Time and waiting: clocks, sleeps, timerfd, eventfd, itimers, and futex
 * with the arguments each operation takes.
 */
#include <linux/futex.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <time.h>
#include "trace.h"

static void a_clock(struct call *c, int i)
{
	a_xlat(c, (unsigned int)c->s->args[i], &xl_clocks, "CLOCK_???");
}

/* An out timespec: the value on success, else the address. */
static void a_timespec_out(struct call *c, unsigned long p)
{
	if (c_ok(c))
		a_timespec(c, p);
	else
		a_ptr(c, p);
}

/* adjtimex's and clock_adjtime's struct timex, as the call left it (the
 * address when it failed): its signed fields in order, by offset, the
 * modes, status and time among them */
static void a_timex(struct call *c, unsigned long p)
{
#define T(m) { #m, __builtin_offsetof(struct timex, m), \
	       sizeof(((struct timex *)0)->m) }
	static const struct {
		const char *name;
		unsigned char off, size;
	} fields[] = {
		T(offset), T(freq), T(maxerror), T(esterror), T(status),
		T(constant), T(precision), T(tolerance), T(time), T(tick),
		T(ppsfreq), T(jitter), T(shift), T(stabil), T(jitcnt),
		T(calcnt), T(errcnt), T(stbcnt), T(tai),
	};
#undef T
	struct timex t;
	const unsigned char *b = (const unsigned char *)&t;
	unsigned int i;
	long v;

	if (!a_out(c, p) || fetch(c->f, c->s, &t, p, sizeof(t)))
		return;
	fmt_str(c->f, "{modes=");
	p_flags_unknown(c->f, t.modes, &xl_adjtimex_modes, "ADJ_???");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		fmt_str(c->f, ", ");
		fmt_str(c->f, fields[i].name);
		fmt_chr(c->f, '=');
		if (fields[i].off == __builtin_offsetof(struct timex, status)) {
			p_flags_unknown(c->f, (unsigned int)t.status,
					&xl_adjtimex_status, "STA_???");
			continue;
		}
		if (fields[i].off == __builtin_offsetof(struct timex, time)) {
			f_dec(c->f, "{tv_sec=", t.time.tv_sec);
			f_udec(c->f, ", tv_usec=",
			       (unsigned long)t.time.tv_usec);
			fmt_chr(c->f, '}');
			continue;
		}
		if (fields[i].size == sizeof(long))
			hk_memcpy(&v, b + fields[i].off, sizeof(v));
		else
			v = *(const int *)(const void *)(b + fields[i].off);
		fmt_dec(c->f, v);
	}
	fmt_chr(c->f, '}');
}

static void d_adjtimex(struct call *c)
{
	a_timex(c, c->s->args[0]);
}

static void d_clock_adjtime(struct call *c)
{
	a_clock(c, 0);
	a_timex(c, c->s->args[1]);
}

/* the clock's state: "5 (TIME_ERROR)" */
static void r_adjtimex(struct call *c)
{
	const char *nm = xlat_name(&xl_adjtimex_states,
				   (unsigned long)c->s->ret);

	fmt_dec(c->f, c->s->ret);
	if (nm) {
		fmt_str(c->f, " (");
		fmt_str(c->f, nm);
		fmt_chr(c->f, ')');
	}
}

static void d_clock_get(struct call *c)
{
	a_clock(c, 0);
	a_timespec_out(c, c->s->args[1]);
}

static void d_sched_rr_get_interval(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_timespec_out(c, c->s->args[1]);
}

static void d_clock_settime(struct call *c)
{
	a_clock(c, 0);
	a_timespec(c, c->s->args[1]);
}

/* The time left, which the kernel writes only when a signal cuts a
 * relative sleep short (a restart: ERESTART*); else the address */
static void a_time_left(struct call *c, unsigned long p, int relative)
{
	long e = -(long)c->s->ret;

	a_exit_next(c);
	if (relative && c->exiting && e >= 512 && e <= 516)
		a_timespec(c, p);
	else
		a_ptr(c, p);
}

static void d_clock_nanosleep(struct call *c)
{
	a_clock(c, 0);
	a_flags(c, c->s->args[1], &xl_timer_flags, 0);
	a_timespec(c, c->s->args[2]);
	a_time_left(c, c->s->args[3], !c->s->args[1]);
}

static void d_nanosleep(struct call *c)
{
	a_timespec(c, c->s->args[0]);
	a_time_left(c, c->s->args[1], 1);
}

static void p_itimerspec(struct fmt *f, const struct sysgate_sys *s,
			 unsigned long p)
{
	long v[4];

	if (fetch(f, s, v, p, sizeof(v)))
		return;
	fmt_str(f, "{it_interval=");
	p_timespec(f, v[0], v[1]);
	fmt_str(f, ", it_value=");
	p_timespec(f, v[2], v[3]);
	fmt_chr(f, '}');
}

static void d_timerfd_create(struct call *c)
{
	a_clock(c, 0);
	a_flags(c, c->s->args[1], &xl_tfd_flags, 0);
}

static void d_timerfd_settime(struct call *c)
{
	a_fd(c, 0);
	a_flags(c, c->s->args[1], &xl_tfd_settime_flags, 0);
	a_sep(c);
	p_itimerspec(c->f, c->s, c->s->args[2]);
	if (a_out(c, c->s->args[3]))
		p_itimerspec(c->f, c->s, c->s->args[3]);
}

static void d_timerfd_gettime(struct call *c)
{
	a_fd(c, 0);
	if (a_out(c, c->s->args[1]))
		p_itimerspec(c->f, c->s, c->s->args[1]);
}

static void d_eventfd2(struct call *c)
{
	a_udec(c, (unsigned int)c->s->args[0]);
	a_flags(c, c->s->args[1], &xl_efd_flags, 0);
}

void p_timeval(struct fmt *f, long sec, long usec)
{
	f_dec(f, "{tv_sec=", sec);
	f_udec(f, ", tv_usec=", usec);
	fmt_chr(f, '}');
}

static void p_itimerval(struct fmt *f, const struct sysgate_sys *s,
			unsigned long p)
{
	long v[4];

	if (fetch(f, s, v, p, sizeof(v)))
		return;
	fmt_str(f, "{it_interval=");
	p_timeval(f, v[0], v[1]);
	fmt_str(f, ", it_value=");
	p_timeval(f, v[2], v[3]);
	fmt_chr(f, '}');
}

static void d_setitimer(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_itimers, "ITIMER_???");
	a_sep(c);
	p_itimerval(c->f, c->s, c->s->args[1]);
	if (a_out(c, c->s->args[2]))
		p_itimerval(c->f, c->s, c->s->args[2]);
}

static void d_getitimer(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_itimers, "ITIMER_???");
	if (a_out(c, c->s->args[1]))
		p_itimerval(c->f, c->s, c->s->args[1]);
}

/* A timeval (out: the call's result) */
static void a_timeval(struct call *c, unsigned long p, int out)
{
	long tv[2];

	if (!fetch_arg(c, tv, p, sizeof(tv), out))
		p_timeval(c->f, tv[0], tv[1]);
}

static void a_timezone(struct call *c, unsigned long p, int out)
{
	int tz[2];

	if (fetch_arg(c, tz, p, sizeof(tz), out))
		return;
	f_dec(c->f, "{tz_minuteswest=", tz[0]);
	f_dec(c->f, ", tz_dsttime=", tz[1]);
	fmt_chr(c->f, '}');
}

static void d_gettimeofday(struct call *c)
{
	a_timeval(c, c->s->args[0], 1);
	a_timezone(c, c->s->args[1], 1);
}

static void d_settimeofday(struct call *c)
{
	a_timeval(c, c->s->args[0], 0);
	a_timezone(c, c->s->args[1], 0);
}

/* utimes' and futimesat's [{tv_sec=..., tv_usec=...}, {...}] */
static void a_timeval_pair(struct call *c, unsigned long p)
{
	long tv[4];

	a_sep(c);
	if (fetch(c->f, c->s, tv, p, sizeof(tv)))
		return;
	fmt_chr(c->f, '[');
	p_timeval(c->f, tv[0], tv[1]);
	p_date_us(c->f, tv[0], tv[1]);
	fmt_str(c->f, ", ");
	p_timeval(c->f, tv[2], tv[3]);
	p_date_us(c->f, tv[2], tv[3]);
	fmt_chr(c->f, ']');
}

static void d_utimes(struct call *c)
{
	a_path(c, 0);
	a_timeval_pair(c, c->s->args[1]);
}

static void d_futimesat(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_timeval_pair(c, c->s->args[2]);
}

/* A time in seconds and its date: 1492350678 / * 2017-04-16T... * / */
static void p_seconds(struct fmt *f, long t)
{
	fmt_dec(f, t);
	p_date(f, t, 0);
}

static void d_utime(struct call *c)
{
	long ut[2];

	a_path(c, 0);
	a_sep(c);
	if (fetch(c->f, c->s, ut, c->s->args[1], sizeof(ut)))
		return;
	fmt_str(c->f, "{actime=");
	p_seconds(c->f, ut[0]);
	fmt_str(c->f, ", modtime=");
	p_seconds(c->f, ut[1]);
	fmt_chr(c->f, '}');
}

static void d_time(struct call *c)
{
	long t;

	if (fetch_out(c, &t, c->s->args[0], sizeof(t)))
		return;
	fmt_chr(c->f, '[');
	p_seconds(c->f, t);
	fmt_chr(c->f, ']');
}

/* The time, and its date in parentheses */
static void r_time(struct call *c)
{
	size_t start;

	fmt_dec(c->f, c->s->ret);
	start = c->f->len;
	fmt_str(c->f, " (");
	if (p_date_text(c->f, c->s->ret, 0))
		fmt_chr(c->f, ')');
	else
		c->f->len = start;
}

static void d_utimensat(struct call *c)
{
	long ts[4];
	int i;

	a_dirfd(c, 0);
	a_path(c, 1);
	a_sep(c);
	if (c->s->args[2] && !fetch(c->f, c->s, ts, c->s->args[2], sizeof(ts))) {
		fmt_chr(c->f, '[');
		for (i = 0; i < 2; i++) {
			long sec = ts[2 * i], nsec = ts[2 * i + 1];

			if (i)
				fmt_str(c->f, ", ");
			if (nsec == UTIME_NOW || nsec == UTIME_OMIT) {
				/* -X: the timespec is the number */
				const char *nm = nsec == UTIME_NOW ?
					"UTIME_NOW" : "UTIME_OMIT";

				if (trace_xstyle == XS_ABBREV) {
					fmt_str(c->f, nm);
					continue;
				}
				p_timespec(c->f, sec, nsec);
				if (trace_xstyle == XS_VERBOSE) {
					fmt_str(c->f, " /* ");
					fmt_str(c->f, nm);
					fmt_str(c->f, " */");
				}
			} else {
				p_timespec(c->f, sec, nsec);
				p_date(c->f, sec, nsec);
			}
		}
		fmt_chr(c->f, ']');
	} else if (!c->s->args[2]) {
		fmt_str(c->f, "NULL");
	}
	a_flags(c, (unsigned int)c->s->args[3], &xl_at_flags, 0);
}

/* {sigev_signo=SIGALRM, sigev_notify=SIGEV_SIGNAL}: the value only when
 * its pointer is set, the signal by name where one is sent, the thread
 * or the function and attributes by how it notifies. */
void p_sigevent(struct call *c, unsigned long p)
{
	struct {
		unsigned long value;
		int signo, notify;
		unsigned long fn, attr;
	} ev;
	struct fmt *f = c->f;

	if (fetch(f, c->s, &ev, p, sizeof(ev)))
		return;
	fmt_chr(f, '{');
	if (ev.value) {
		f_dec(f, "sigev_value={sival_int=", (int)ev.value);
		fmt_str(f, ", sival_ptr=");
		p_ptr(f, ev.value);
		fmt_str(f, "}, ");
	}
	fmt_str(f, "sigev_signo=");
	if (ev.notify == SIGEV_SIGNAL || ev.notify == SIGEV_THREAD ||
	    ev.notify == SIGEV_THREAD_ID)
		p_signame(f, ev.signo);
	else
		fmt_udec(f, (unsigned int)ev.signo);
	fmt_str(f, ", sigev_notify=");
	p_xlat(f, (unsigned int)ev.notify, &xl_sigev_notify, "SIGEV_???");
	if (ev.notify == SIGEV_THREAD_ID) {
		f_dec(f, ", sigev_notify_thread_id=", (int)ev.fn);
	} else if (ev.notify == SIGEV_THREAD) {
		fmt_str(f, ", sigev_notify_function=");
		p_ptr(f, ev.fn);
		fmt_str(f, ", sigev_notify_attributes=");
		p_ptr(f, ev.attr);
	}
	fmt_chr(f, '}');
}

static void d_timer_create(struct call *c)
{
	int id;

	a_clock(c, 0);
	a_sep(c);
	p_sigevent(c, c->s->args[1]);
	if (fetch_out(c, &id, c->s->args[2], sizeof(id)))
		return;
	fmt_chr(c->f, '[');
	fmt_dec(c->f, id);
	fmt_chr(c->f, ']');
}

static void d_timer_settime(struct call *c)
{
	a_int(c, 0);
	a_flags(c, c->s->args[1], &xl_timer_flags, 0);
	a_sep(c);
	p_itimerspec(c->f, c->s, c->s->args[2]);
	if (a_out(c, c->s->args[3]))
		p_itimerspec(c->f, c->s, c->s->args[3]);
}

static void d_timer_gettime(struct call *c)
{
	a_int(c, 0);
	if (a_out(c, c->s->args[1]))
		p_itimerspec(c->f, c->s, c->s->args[1]);
}

static void a_bitset(struct call *c, unsigned long v)
{
	if ((unsigned int)v == FUTEX_BITSET_MATCH_ANY) {
		a_sep(c);
		p_named(c->f, "FUTEX_BITSET_MATCH_ANY", FUTEX_BITSET_MATCH_ANY,
			'x');
	} else
		a_hex(c, (unsigned int)v);
}

/* The command, as strace takes it (other bits only make op unnamed) */
#define FUTEX_CMD_BITS 127

/* Whether strace names op: a command, FUTEX_PRIVATE_FLAG, and
 * FUTEX_CLOCK_REALTIME only with the waits that take it */
static int futex_op_named(unsigned int op)
{
	unsigned int cmd = op & FUTEX_CMD_BITS;

	if (cmd > FUTEX_LOCK_PI2 ||
	    (op & ~(FUTEX_CMD_BITS | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)))
		return 0;
	return !(op & FUTEX_CLOCK_REALTIME) || cmd == FUTEX_WAIT ||
	       cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAIT_REQUEUE_PI;
}

/* A FUTEX_WAKE_OP part: its name (or number) shifted, unknown noted
 * (-X raw: always, as strace, which names nothing then) */
static void p_wake_part(struct fmt *f, unsigned int v, const struct xlat *t,
			const char *shift, const char *unknown)
{
	p_xlat(f, v, t, 0);
	fmt_str(f, shift);
	if (!xlat_name(t, v) || trace_xstyle == XS_RAW) {
		fmt_str(f, " /* ");
		fmt_str(f, unknown);
		fmt_str(f, " */");
	}
}

/* FUTEX_OP_ADD<<28|0x345<<12|FUTEX_OP_CMP_LT<<24|0x678 */
static void a_wake_op(struct call *c, unsigned int v)
{
	struct fmt *f = c->f;

	a_sep(c);
	if ((v >> 28) & FUTEX_OP_OPARG_SHIFT) {
		p_named(f, "FUTEX_OP_OPARG_SHIFT", FUTEX_OP_OPARG_SHIFT, 'x');
		fmt_str(f, "<<28|");
	}
	p_wake_part(f, (v >> 28) & 7, &xl_futex_wake_ops, "<<28",
		    "FUTEX_OP_???");
	fmt_chr(f, '|');
	p_hex(f, (v >> 12) & 0xfff);
	fmt_str(f, "<<12|");
	p_wake_part(f, (v >> 24) & 0xf, &xl_futex_wake_cmps, "<<24",
		    "FUTEX_OP_CMP_???");
	fmt_chr(f, '|');
	p_hex(f, v & 0xfff);
}

/* (strace prints the values as unsigned ints) */
static void d_futex(struct call *c)
{
	const long *a = c->s->args;
	unsigned int op = (unsigned int)a[1], cmd = op & FUTEX_CMD_BITS;
	struct fmt *f = c->f;
	size_t start;

	a_ptr(c, a[0]);
	a_sep(c);
	if (!futex_op_named(op)) {
		p_xlat(f, op, &xl_futex_ops, "FUTEX_???");
	} else {
		start = x_begin(f);
		p_xlat(f, cmd, &xl_futex_ops, "FUTEX_???");
		if (op & FUTEX_PRIVATE_FLAG)
			fmt_str(f, cmd == FUTEX_FD ? "|FUTEX_PRIVATE_FLAG" :
						     "_PRIVATE");
		if (op & FUTEX_CLOCK_REALTIME)
			fmt_str(f, "|FUTEX_CLOCK_REALTIME");
		x_end(f, start, op, 'x');
	}
	switch (cmd) {
	case FUTEX_LOCK_PI: case FUTEX_LOCK_PI2:
		a_timespec(c, a[3]);
		return;
	case FUTEX_UNLOCK_PI: case FUTEX_TRYLOCK_PI:
		return;
	}
	a_udec(c, (unsigned int)a[2]);
	switch (cmd) {
	case FUTEX_WAIT:
		a_timespec(c, a[3]);
		return;
	case FUTEX_WAKE: case FUTEX_FD:
		return;
	case FUTEX_REQUEUE:
		a_udec(c, (unsigned int)a[3]);
		a_ptr(c, a[4]);
		return;
	case FUTEX_CMP_REQUEUE: case FUTEX_CMP_REQUEUE_PI:
		a_udec(c, (unsigned int)a[3]);
		a_ptr(c, a[4]);
		a_udec(c, (unsigned int)a[5]);
		return;
	case FUTEX_WAKE_OP:
		a_udec(c, (unsigned int)a[3]);
		a_ptr(c, a[4]);
		a_wake_op(c, (unsigned int)a[5]);
		return;
	case FUTEX_WAIT_BITSET:
		a_timespec(c, a[3]);
		a_bitset(c, a[5]);
		return;
	case FUTEX_WAKE_BITSET:
		a_bitset(c, a[5]);
		return;
	case FUTEX_WAIT_REQUEUE_PI:
		a_timespec(c, a[3]);
		a_ptr(c, a[4]);
		return;
	}
	a_ptr(c, a[3]);
	a_ptr(c, a[4]);
	a_hex(c, (unsigned int)a[5]);
}

/* strace shows at most FUTEX_WAITV_MAX waiters, then "..." */
static void e_waiter(struct fmt *f, const void *e, void *ctx)
{
	const struct futex_waitv *w = e;
	unsigned int *n = ctx;

	if ((*n)++ == FUTEX_WAITV_MAX) {
		fmt_str(f, "...");
		return;
	}
	fmt_str(f, "{val=");
	p_hex(f, w->val);
	fmt_str(f, ", uaddr=");
	p_ptr(f, w->uaddr);
	fmt_str(f, ", flags=");
	p_flags_unknown(f, w->flags, &xl_futex_waiter_flags, "FUTEX_???");
	if (w->__reserved) {
		fmt_str(f, ", __reserved=");
		p_hex(f, w->__reserved);
	}
	fmt_chr(f, '}');
}

static void d_futex_waitv(struct call *c)
{
	unsigned int nr = (unsigned int)c->s->args[1], n = 0;

	a_sep(c);
	p_array_ctx(c->f, c->s, c->s->args[0],
		    nr > FUTEX_WAITV_MAX ? FUTEX_WAITV_MAX + 1 : nr,
		    sizeof(struct futex_waitv), 0, e_waiter, &n);
	a_udec(c, nr);
	a_hex(c, (unsigned int)c->s->args[2]);
	a_timespec(c, c->s->args[3]);
	a_xlat(c, (unsigned int)c->s->args[4], &xl_clocks, "CLOCK_???");
}

static void d_times(struct call *c)
{
	unsigned long t[4];

	if (fetch_out(c, t, c->s->args[0], sizeof(t)))
		return;
	fmt_str(c->f, "{tms_utime=");
	p_clock_t(c->f, t[0]);
	fmt_str(c->f, ", tms_stime=");
	p_clock_t(c->f, t[1]);
	fmt_str(c->f, ", tms_cutime=");
	p_clock_t(c->f, t[2]);
	fmt_str(c->f, ", tms_cstime=");
	p_clock_t(c->f, t[3]);
	fmt_chr(c->f, '}');
}

/* (the kernel's unsigned int seconds) */
static void d_alarm(struct call *c)
{
	a_udec(c, (unsigned int)c->s->args[0]);
}

const struct decoder dec_time[] = {
	{ "alarm", d_alarm, 0, 0 },
	{ "times", d_times, 0, 0 },
	{ "adjtimex", d_adjtimex, r_adjtimex, 0 },
	{ "clock_adjtime", d_clock_adjtime, r_adjtimex, 0 },
	{ "clock_gettime", d_clock_get, 0, 0 },
	{ "clock_getres", d_clock_get, 0, 0 },
	{ "sched_rr_get_interval", d_sched_rr_get_interval, 0, 0 },
	{ "clock_settime", d_clock_settime, 0, 0 },
	{ "clock_nanosleep", d_clock_nanosleep, 0, 0 },
	{ "nanosleep", d_nanosleep, 0, 0 },
	{ "timerfd_create", d_timerfd_create, 0, 0 },
	{ "timerfd_settime", d_timerfd_settime, 0, 0 },
	{ "timerfd_gettime", d_timerfd_gettime, 0, 0 },
	{ "eventfd2", d_eventfd2, 0, 0 },
	{ "setitimer", d_setitimer, 0, 0 },
	{ "getitimer", d_getitimer, 0, 0 },
	{ "gettimeofday", d_gettimeofday, 0, 0 },
	{ "settimeofday", d_settimeofday, 0, 0 },
	{ "utimes", d_utimes, 0, 0 },
	{ "futimesat", d_futimesat, 0, 0 },
	{ "utime", d_utime, 0, 0 },
	{ "time", d_time, r_time, 0 },
	{ "futex", d_futex, 0, 0 },
	{ "futex_waitv", d_futex_waitv, 0, 0 },
	{ "utimensat", d_utimensat, 0, 0 },
	{ "timer_create", d_timer_create, 0, 0 },
	{ "timer_settime", d_timer_settime, 0, 0 },
	{ "timer_gettime", d_timer_gettime, 0, 0 },
	{ 0, 0, 0, 0 },
};
