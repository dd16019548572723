/* SPDX-License-Identifier: MIT */
/* Signals: sigaction structs, masks and how they change, kill family,
 * sigaltstack. */
#include <asm/signal.h>
#include "trace.h"

/* The kernel's sigaction: sa_restorer exists where SA_RESTORER does. */
struct k_sigaction {
	unsigned long handler, flags;
#ifdef SA_RESTORER
	unsigned long restorer;
#endif
	unsigned long mask;
};

static void p_sigaction(struct fmt *f, const struct sysgate_sys *s,
			unsigned long p)
{
	struct k_sigaction sa;

	if (fetch(f, s, &sa, p, sizeof(sa)))
		return;
	fmt_str(f, "{sa_handler=");
	if (sa.handler == 0)
		fmt_str(f, "SIG_DFL");
	else if (sa.handler == 1)
		fmt_str(f, "SIG_IGN");
	else
		fmt_hex(f, sa.handler);
	fmt_str(f, ", sa_mask=");
	p_sigset(f, &sa.mask, sizeof(sa.mask));
	fmt_str(f, ", sa_flags=");
	p_flags(f, sa.flags, &xl_sa_flags, 0);
#ifdef SA_RESTORER
	if (sa.flags & SA_RESTORER) {
		fmt_str(f, ", sa_restorer=");
		p_ptr(f, sa.restorer);
	}
#endif
	fmt_chr(f, '}');
}

static void d_rt_sigaction(struct call *c)
{
	a_sep(c);
	p_signame(c->f, (int)c->s->args[0]);
	a_sep(c);
	p_sigaction(c->f, c->s, c->s->args[1]);
	if (a_out(c, c->s->args[2]))
		p_sigaction(c->f, c->s, c->s->args[2]);
	a_udec(c, c->s->args[3]);
}

static void a_oldset(struct call *c, unsigned long p, unsigned long size)
{
	if (c_ok(c))
		a_sigset(c, p, size);
	else
		a_ptr(c, p);
}

static void d_rt_sigprocmask(struct call *c)
{
	unsigned long size = c->s->args[3];

	a_xlat(c, (unsigned int)c->s->args[0], &xl_sigprocmask_how, "SIG_???");
	a_sigset(c, c->s->args[1], size);
	a_oldset(c, c->s->args[2], size);
	a_udec(c, size);
}

static void d_rt_sigpending(struct call *c)
{
	a_oldset(c, c->s->args[0], c->s->args[1]);
	a_udec(c, c->s->args[1]);
}

static void d_rt_sigsuspend(struct call *c)
{
	a_sigset(c, c->s->args[0], c->s->args[1]);
	a_udec(c, c->s->args[1]);
}

static void a_sig(struct call *c, int i)
{
	a_sep(c);
	if (c->s->args[i])
		p_signame(c->f, (int)c->s->args[i]);
	else
		fmt_chr(c->f, '0');
}

static void d_kill(struct call *c)
{
	a_int(c, 0);
	a_sig(c, 1);
}

static void d_tgkill(struct call *c)
{
	a_int(c, 0);
	a_int(c, 1);
	a_sig(c, 2);
}

static void p_stack(struct fmt *f, const struct sysgate_sys *s,
		    unsigned long p)
{
	struct {
		unsigned long sp;
		int flags;
		unsigned long size;
	} ss;

	if (fetch(f, s, &ss, p, sizeof(ss)))
		return;
	fmt_str(f, "{ss_sp=");
	p_ptr(f, ss.sp);
	fmt_str(f, ", ss_flags=");
	p_flags(f, ss.flags, &xl_ss_flags, 0);
	fmt_str(f, ", ss_size=");
	fmt_udec(f, ss.size);
	fmt_chr(f, '}');
}

static void d_sigaltstack(struct call *c)
{
	a_sep(c);
	p_stack(c->f, c->s, c->s->args[0]);
	if (a_out(c, c->s->args[1]))
		p_stack(c->f, c->s, c->s->args[1]);
}

const struct decoder dec_signal[] = {
	{ "rt_sigaction", d_rt_sigaction, 0, 0 },
	{ "rt_sigprocmask", d_rt_sigprocmask, 0, 0 },
	{ "rt_sigpending", d_rt_sigpending, 0, 0 },
	{ "rt_sigsuspend", d_rt_sigsuspend, 0, 0 },
	{ "kill", d_kill, 0, 0 },
	{ "tkill", d_kill, 0, 0 },
	{ "tgkill", d_tgkill, 0, 0 },
	{ "sigaltstack", d_sigaltstack, 0, 0 },
	{ 0, 0, 0, 0 },
};
