/* SPDX-License-Identifier: MIT */
/*
 * Waiting for descriptors: pollfd arrays in and out, fd_sets (kept at
 * entry, since the kernel rewrites them), epoll events, timeouts.
 */
#include <poll.h>
#include <sys/epoll.h>
#include "trace.h"

#define MAX_SHOWN 32

/* {fd=3, events=POLLIN}: a negative descriptor, which poll skips,
 * alone (ctx: the call, for -y's paths) */
static void elem_pollfd(struct fmt *f, const void *e, void *ctx)
{
	const struct pollfd *pf = e;

	f_dec(f, "{fd=", pf->fd);
	if (pf->fd >= 0) {
		p_fdpath(f, ctx, pf->fd);
		fmt_str(f, ", events=");
		p_flags(f, (unsigned short)pf->events, &xl_poll_events, 0);
	}
	fmt_chr(f, '}');
}

/* The entries with revents, at most -s of them unless -v, up to the
 * first that cannot be read (its address); 0 when none printed. */
static int p_revents(struct call *c, unsigned long p, unsigned long n)
{
	struct fmt *f = c->f;
	unsigned long max = trace_whole(c->s) ? ~0UL :
				(unsigned long)trace_strsize, shown = 0, i;
	struct pollfd pf;
	int any = 0;

	for (i = 0; i < n; i++) {
		unsigned long at = p + i * sizeof(pf);
		int ok = sysgate_read_mem(c->s, &pf, (void *)at,
					  sizeof(pf)) == sizeof(pf);

		if (ok && !pf.revents)
			continue;
		fmt_str(f, any ? ", " : "[");
		any = 1;
		if (!ok) {
			fmt_hex(f, at);
			break;
		}
		if (shown++ >= max) {
			fmt_str(f, "...");
			break;
		}
		f_dec(f, "{fd=", pf.fd);
		fmt_str(f, ", revents=");
		p_flags(f, (unsigned short)pf.revents, &xl_poll_events, 0);
		fmt_chr(f, '}');
	}
	if (any)
		fmt_chr(f, ']');
	return any;
}

/* The timeout the kernel will overwrite with the time left, kept at
 * entry in trace_saved(c)[4..5] (bit 3 of [3] says it was read). */
static void e_timeout(struct call *c, unsigned long p)
{
	if (p && trace_read(c->s, &trace_saved(c)[4], (void *)p,
				  2 * sizeof(long)) == 2 * sizeof(long))
		trace_saved(c)[3] |= 8;
}

static void a_timeout(struct call *c, unsigned long p)
{
	a_sep(c);
	if (trace_saved(c)[3] & 8)
		p_timespec(c->f, trace_saved(c)[4], trace_saved(c)[5]);
	else
		p_ptr(c->f, p);
}

static void e_ppoll(struct call *c)
{
	trace_saved(c)[3] = 0;
	e_timeout(c, c->s->args[2]);
}

static void a_pollfds(struct call *c)
{
	a_sep(c);
	p_array_ctx(c->f, c->s, c->s->args[0], (unsigned int)c->s->args[1],
		    sizeof(struct pollfd), !trace_structs(c->s), elem_pollfd,
		    (void *)c->s);
}

static void d_poll(struct call *c)
{
	a_pollfds(c);
	a_udec(c, (unsigned int)c->s->args[1]);
	a_int(c, 2);
}

static void d_ppoll(struct call *c)
{
	a_pollfds(c);
	a_udec(c, (unsigned int)c->s->args[1]);
	a_timeout(c, c->s->args[2]);
	a_sigset(c, c->s->args[3], c->s->args[4]);
	a_udec(c, c->s->args[4]);
}

static void r_timeout(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	if (!c->s->ret)
		fmt_str(c->f, " (Timeout)");
}

static void r_poll(struct call *c)
{
	unsigned long p = c->s->args[0], n = (unsigned int)c->s->args[1];
	unsigned long pts = c->s->nr == sysgate_syscall_number("ppoll") ?
				    c->s->args[2] : 0;
	long ts[2];
	size_t start;
	int any;

	if (!c->s->ret) {
		r_timeout(c);
		return;
	}
	fmt_dec(c->f, c->s->ret);
	if (!trace_structs(c->s) || !p || !n)
		return;
	fmt_str(c->f, " (");
	start = c->f->len;
	any = p_revents(c, p, n);
	if (pts) {
		fmt_str(c->f, any ? ", left " : "left ");
		if (trace_read(c->s, ts, (void *)pts, sizeof(ts)) ==
		    sizeof(ts))
			p_timespec(c->f, ts[0], ts[1]);
		else
			fmt_hex(c->f, pts);
	}
	if (c->f->len == start)
		c->f->len -= 2;	/* (nothing to say: no " (") */
	else
		fmt_chr(c->f, ')');
}

/* The descriptors select looks at: its int nfds, none when negative,
 * at most 1 << 20 (as strace); its sets are that many bits in words. */
#define MAX_NFDS (1 << 20)
static int select_nfds(const struct call *c)
{
	int nfds = (int)c->s->args[0];

	return nfds < 0 ? 0 : nfds > MAX_NFDS ? MAX_NFDS : nfds;
}

static unsigned long set_bytes(int nfds)
{
	return ((unsigned long)nfds + 63) / 64 * 8;
}

/* Sets past 64 descriptors, kept at entry by one call at a time (the
 * thread in big_owner; another meanwhile shows its sets' addresses). */
static unsigned long big_sets[3][MAX_NFDS / 64];
static int big_owner;

/* select's sets as the call gets them, the kernel rewrites them:
 * trace_saved(c)[0..2] holds sets of up to 64 descriptors, big_sets
 * larger ones ([3] bit 4), [3] bits 0-2 which of them were read. */
static void e_select(struct call *c)
{
	int nfds = select_nfds(c), i, free_slot = 0;
	unsigned long size = set_bytes(nfds);
	unsigned long *set[3];

	trace_saved(c)[3] = 0;
	e_timeout(c, c->s->args[4]);
	if (!nfds)
		return;
	for (i = 0; i < 3; i++)
		set[i] = &trace_saved(c)[i];
	if (nfds > 64) {
		/* (the same thread may take it again: its last call is over) */
		if (!__atomic_compare_exchange_n(&big_owner, &free_slot,
						 c->s->tid, 0, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED) &&
		    free_slot != c->s->tid)
			return;
		trace_saved(c)[3] |= 16;
		for (i = 0; i < 3; i++)
			set[i] = big_sets[i];
	}
	for (i = 0; i < 3; i++) {
		unsigned long p = c->s->args[1 + i];

		if (p && trace_read(c->s, set[i], (void *)p, size) ==
				 (long)size)
			trace_saved(c)[3] |= 1UL << i;
	}
}

/* [3 4]: the descriptors set in the nfds bits of set, with -y's paths */
static void p_fdset(struct fmt *f, const struct sysgate_sys *s,
		    const unsigned long *set, int nfds)
{
	int fd, first = 1;

	fmt_chr(f, '[');
	for (fd = 0; fd < nfds; fd++) {
		if (!(set[fd / 64] >> (fd % 64) & 1))
			continue;
		if (!first)
			fmt_chr(f, ' ');
		first = 0;
		fmt_dec(f, fd);
		p_fdpath(f, s, fd);
	}
	fmt_chr(f, ']');
}

static void a_sets(struct call *c)
{
	int nfds = select_nfds(c), i;
	unsigned long saved = trace_saved(c)[3];

	a_int(c, 0);
	for (i = 0; i < 3; i++) {
		a_sep(c);
		if (saved >> i & 1)
			p_fdset(c->f, c->s, saved & 16 ? big_sets[i] :
				&trace_saved(c)[i], nfds);
		else
			p_ptr(c->f, c->s->args[1 + i]);
	}
	if ((saved & 16) && c->exiting)
		__atomic_store_n(&big_owner, 0, __ATOMIC_RELEASE);
}

void a_kernel_sigset(struct call *c, unsigned long p)
{
	struct {
		unsigned long set, size;
	} sm;

	a_sep(c);
	if (fetch(c->f, c->s, &sm, p, sizeof(sm)))
		return;
	fmt_str(c->f, "{sigmask=");
	if (sm.set) {
		unsigned long set[1];

		if (sm.size == sizeof(set) &&
		    trace_read(c->s, set, (void *)sm.set, sizeof(set)) ==
			    sizeof(set))
			p_sigset(c->f, set, sizeof(set));
		else
			fmt_hex(c->f, sm.set);
	} else {
		fmt_str(c->f, "NULL");
	}
	f_udec(c->f, ", sigsetsize=", sm.size);
	fmt_chr(c->f, '}');
}

static void d_pselect6(struct call *c)
{
	a_sets(c);
	a_timeout(c, c->s->args[4]);
	a_kernel_sigset(c, c->s->args[5]);
}

static void d_select(struct call *c)
{
	a_sets(c);
	a_sep(c);
	if (!(trace_saved(c)[3] & 8)) {
		p_ptr(c->f, c->s->args[4]);
		return;
	}
	f_dec(c->f, "{tv_sec=", trace_saved(c)[4]);
	f_udec(c->f, ", tv_usec=", trace_saved(c)[5]);
	fmt_chr(c->f, '}');
}

/* The ready descriptors (at most the result's count), read at exit
 * in pieces: each set is shown only when it can be read whole. */
static void r_select(struct call *c)
{
	static const char *const what[] = { "in", "out", "except" };
	int nfds = select_nfds(c), i, any = 0;
	unsigned long size = set_bytes(nfds), off, w[16];
	long left = c->s->ret, ts[2];

	if (!c->s->ret) {
		r_timeout(c);
		return;
	}
	fmt_dec(c->f, c->s->ret);
	fmt_str(c->f, " (");
	for (i = 0; i < 3 && left > 0; i++) {
		unsigned long p = c->s->args[1 + i];
		int first = 1, fd;

		/* (strace shows the sets whatever -e verbose= says) */
		if (!p || !nfds || !trace_readable(c->s, p, size))
			continue;
		for (off = 0; off < size && left > 0; off += sizeof(w)) {
			unsigned long n = size - off < sizeof(w) ?
						  size - off : sizeof(w);

			if (sysgate_read_mem(c->s, w, (void *)(p + off), n) !=
			    (long)n)
				break;
			for (fd = 0; fd < (int)n * 8 && left > 0; fd++) {
				int at = (int)off * 8 + fd;

				if (at >= nfds || !(w[fd / 64] >> (fd % 64) & 1))
					continue;
				if (first) {
					fmt_str(c->f, any ? ", " : "");
					fmt_str(c->f, what[i]);
					fmt_str(c->f, " [");
				} else {
					fmt_chr(c->f, ' ');
				}
				first = 0;
				any = 1;
				fmt_dec(c->f, at);
				left--;
			}
		}
		if (!first)
			fmt_chr(c->f, ']');
	}
	if (c->s->args[4]) {
		fmt_str(c->f, any ? ", left " : "left ");
		if (trace_read(c->s, ts, (void *)c->s->args[4], sizeof(ts)) ==
		    sizeof(ts)) {
			f_dec(c->f, "{tv_sec=", ts[0]);
			fmt_str(c->f, c->s->nr ==
					      sysgate_syscall_number("select") ?
					      ", tv_usec=" : ", tv_nsec=");
			fmt_udec(c->f, ts[1]);
			fmt_chr(c->f, '}');
		} else {
			fmt_hex(c->f, c->s->args[4]);
		}
	}
	fmt_chr(c->f, ')');
}

static void p_epoll_event(struct fmt *f, const struct epoll_event *ev)
{
	fmt_str(f, "{events=");
	p_flags(f, ev->events, &xl_epoll_events, 0);
	f_udec(f, ", data={u32=", (unsigned int)ev->data.u64);
	f_udec(f, ", u64=", ev->data.u64);
	fmt_str(f, "}}");
}

static void d_epoll_create1(struct call *c)
{
	a_flags(c, c->s->args[0], &xl_epoll_create_flags, 0);
}

static void d_epoll_ctl(struct call *c)
{
	struct epoll_event ev;

	a_fd(c, 0);
	a_xlat(c, (unsigned int)c->s->args[1], &xl_epoll_ops, "EPOLL_CTL_???");
	a_fd(c, 2);
	a_sep(c);
	/* (EPOLL_CTL_DEL ignores the event) */
	if ((unsigned int)c->s->args[1] == EPOLL_CTL_DEL)
		p_ptr(c->f, c->s->args[3]);
	else if (!fetch(c->f, c->s, &ev, c->s->args[3], sizeof(ev)))
		p_epoll_event(c->f, &ev);
}

static void a_epoll_events(struct call *c)
{
	unsigned long p = c->s->args[1];
	struct epoll_event ev;
	long i;

	a_exit_next(c);
	a_sep(c);
	/* (none returned: strace prints [] whatever -e verbose= says) */
	if (!c_ok(c) || (c->s->ret > 0 && !trace_structs(c->s))) {
		p_ptr(c->f, p);
		return;
	}
	fmt_chr(c->f, '[');
	for (i = 0; i < c->s->ret && i < MAX_SHOWN; i++) {
		if (trace_read(c->s, &ev, (void *)(p + i * sizeof(ev)),
				     sizeof(ev)) != sizeof(ev))
			break;
		if (i)
			fmt_str(c->f, ", ");
		p_epoll_event(c->f, &ev);
	}
	if (i < c->s->ret)
		fmt_str(c->f, ", ...");
	fmt_chr(c->f, ']');
}

static void d_epoll_wait(struct call *c)
{
	a_fd(c, 0);
	a_epoll_events(c);
	a_int(c, 2);
	a_int(c, 3);
}

static void d_epoll_pwait(struct call *c)
{
	d_epoll_wait(c);
	a_sigset(c, c->s->args[4], c->s->args[5]);
	a_udec(c, c->s->args[5]);
}

const struct decoder dec_poll[] = {
	{ "poll", d_poll, r_poll, 0 },
	{ "ppoll", d_ppoll, r_poll, e_ppoll },
	{ "select", d_select, r_select, e_select },
	{ "pselect6", d_pselect6, r_select, e_select },
	{ "epoll_create1", d_epoll_create1, 0, 0 },
	{ "epoll_ctl", d_epoll_ctl, 0, 0 },
	{ "epoll_wait", d_epoll_wait, 0, 0 },
	{ "epoll_pwait", d_epoll_pwait, 0, 0 },
	{ 0, 0, 0, 0 },
};
