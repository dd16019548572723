/* SPDX-License-Identifier: MIT */
/*
 * inject: strace's fault injection, in process.
 *
 *   -e inject=SET[:error=ERRNO|:retval=N][:signal=SIG][:when=EXPR]
 *                [:delay_enter=USEC][:delay_exit=USEC][:syscall=NAME]
 *   -e fault=SET[:error=ERRNO][:when=EXPR]    (error defaults to ENOSYS)
 *   EXPR: FIRST | FIRST+ | FIRST+STEP | FIRST..LAST | FIRST..LAST+STEP
 *
 * With error= or retval= the call is not executed and returns the given
 * result; signal= and delays happen around a call that still runs.  Calls
 * are counted per syscall and per process, as strace counts per tracee.
 * syscall= runs that call (one without side effects, strace's %pure)
 * with the same arguments in place of the original, whose result error=
 * or retval= then gives.
 * Written only against include/sysgate.h.
 */
#include "sysgate.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"

#define MAX_SPECS 16
#define NO_LAST (~0UL >> 1)

struct spec {
	struct sc_set set;
	int has_error, has_retval;
	long error, retval;
	int sig;
	unsigned long first, last, step;
	long delay_enter, delay_exit;	/* microseconds */
	long subst;	/* syscall=: the call run instead, or -1 */
};

static struct spec specs[MAX_SPECS];
static int nspecs;
static int any_delay_exit;
static unsigned long counts[SYSGATE_NR_MAX];

static int fail(struct sysgate_ctx *ctx, const char *what, const char *v,
		size_t n)
{
	char msg[160];
	struct fmt f;

	fmt_init(&f, msg, sizeof(msg) - 1);
	fmt_str(&f, what);
	fmt_str(&f, " '");
	fmt_mem(&f, v, n);
	fmt_str(&f, "'");
	msg[f.len] = 0;
	return sysgate_error(ctx, msg);
}

static int parse_ulong(const char *s, size_t n, unsigned long *v)
{
	long x;

	if (hk_parse_long(s, n, &x) || x < 0)
		return -1;
	*v = x;
	return 0;
}

static int parse_when(struct spec *sp, const char *s, size_t n)
{
	size_t i = 0, j;

	sp->last = NO_LAST;
	sp->step = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (parse_ulong(s, i, &sp->first) || sp->first < 1)
		return -1;
	if (i == n) {		/* FIRST: only that call */
		sp->last = sp->first;
		sp->step = 1;
		return 0;
	}
	if (i + 1 < n && s[i] == '.' && s[i + 1] == '.') {
		j = i += 2;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (parse_ulong(s + j, i - j, &sp->last) || sp->last < sp->first)
			return -1;
		if (i == n) {
			sp->step = 1;
			return 0;
		}
	}
	if (s[i] != '+')
		return -1;
	i++;
	if (i == n) {
		sp->step = 1;
		return 0;
	}
	if (parse_ulong(s + i, n - i, &sp->step) || sp->step < 1)
		return -1;
	return 0;
}

static int lookup_errno(const char *s, size_t n, long *e)
{
	char name[32];
	int i;

	if (!hk_parse_long(s, n, e))
		return *e > 0 && *e < 4096 ? 0 : -1;
	if (n >= sizeof(name))
		return -1;
	hk_memcpy(name, s, n);
	name[n] = 0;
	for (i = 1; i < 4096; i++) {
		const char *nm = sysgate_errno_name(i);

		if (nm && !hk_strcmp(nm, name)) {
			*e = i;
			return 0;
		}
	}
	return -1;
}

static int lookup_signal(const char *s, size_t n, int *sig)
{
	long v;
	int i;

	if (!hk_parse_long(s, n, &v))
		return v > 0 && v < 65 ? (*sig = v, 0) : -1;
	for (i = 1; i < 65; i++) {
		const char *nm = sysgate_signal_name(i);

		if (!nm)
			continue;
		if ((hk_strlen(nm) == n && !hk_strncmp(nm, s, n)) ||
		    (hk_strlen(nm) == n + 3 && !hk_strncmp(nm + 3, s, n))) {
			*sig = i;
			return 0;
		}
	}
	return -1;
}

static int parse_spec(struct sysgate_ctx *ctx, const char *s, size_t n)
{
	struct spec *sp = &specs[nspecs];
	int fault = !hk_strncmp(s, "fault=", 6);
	size_t i, j;
	char err[160];

	if (nspecs == MAX_SPECS)
		return sysgate_error(ctx, "too many -e inject options");
	hk_memset(sp, 0, sizeof(*sp));
	sp->first = 1;
	sp->last = NO_LAST;
	sp->step = 1;
	sp->subst = -1;
	i = fault ? 6 : 7;	/* after "fault=" or "inject=" */
	for (j = i; j < n && s[j] != ':'; j++)
		;
	if (set_parse(&sp->set, s + i, j - i, err, sizeof(err)))
		return sysgate_error(ctx, err);
	while (j < n) {
		const char *k = s + j + 1, *v;
		size_t kl, vl;

		for (i = j + 1; i < n && s[i] != ':'; i++)
			;
		for (v = k; v < s + i && *v != '='; v++)
			;
		if (v == s + i)
			return fail(ctx, "invalid inject option", k, i - j - 1);
		kl = v - k;
		v++;
		vl = s + i - v;
		if (kl == 5 && !hk_strncmp(k, "error", 5)) {
			if (lookup_errno(v, vl, &sp->error))
				return fail(ctx, "invalid error code", v, vl);
			sp->has_error = 1;
		} else if (kl == 6 && !hk_strncmp(k, "retval", 6)) {
			if (hk_parse_long(v, vl, &sp->retval))
				return fail(ctx, "invalid retval", v, vl);
			sp->has_retval = 1;
		} else if (kl == 6 && !hk_strncmp(k, "signal", 6)) {
			if (lookup_signal(v, vl, &sp->sig))
				return fail(ctx, "invalid signal", v, vl);
		} else if (kl == 4 && !hk_strncmp(k, "when", 4)) {
			if (parse_when(sp, v, vl))
				return fail(ctx, "invalid when expression", v, vl);
		} else if (kl == 11 && !hk_strncmp(k, "delay_enter", 11)) {
			if (hk_parse_long(v, vl, &sp->delay_enter) ||
			    sp->delay_enter < 0)
				return fail(ctx, "invalid delay", v, vl);
		} else if (kl == 10 && !hk_strncmp(k, "delay_exit", 10)) {
			if (hk_parse_long(v, vl, &sp->delay_exit) ||
			    sp->delay_exit < 0)
				return fail(ctx, "invalid delay", v, vl);
		} else if (kl == 7 && !hk_strncmp(k, "syscall", 7)) {
			char name[64];

			if (vl >= sizeof(name))
				return fail(ctx, "invalid syscall", v, vl);
			hk_memcpy(name, v, vl);
			name[vl] = 0;
			sp->subst = sysgate_syscall_number(name);
			if (sp->subst < 0 || !(sysgate_syscall_classes(sp->subst) &
					       SYSGATE_CLASS_PURE))
				return fail(ctx, "syscall= takes a call without "
					    "side effects (%pure), not", v, vl);
		} else {
			return fail(ctx, "unknown inject option", k, kl);
		}
		j = i;
	}
	if (fault && !sp->has_error) {
		sp->has_error = 1;
		sp->error = 38;	/* ENOSYS */
	}
	if (sp->has_error && sp->has_retval)
		return sysgate_error(ctx, "inject: error= and retval= are "
					  "mutually exclusive");
	if (sp->subst >= 0 && !sp->has_error && !sp->has_retval)
		return fail(ctx, "syscall= needs error= or retval=", s, n);
	if (!sp->has_error && !sp->has_retval && !sp->sig &&
	    !sp->delay_enter && !sp->delay_exit)
		return fail(ctx, "inject needs error=, retval=, signal= or "
				 "a delay", s, n);
	set_select(ctx, &sp->set);
	any_delay_exit |= sp->delay_exit != 0;
	nspecs++;
	return 0;
}

static int inject_init(struct sysgate_ctx *ctx, const char *args)
{
	struct arg a;

	while (args_next(&args, &a)) {
		if (!arg_is(&a, "spec") || !a.val)
			return fail(ctx, "unknown argument", a.key, a.klen);
		if (parse_spec(ctx, a.val, a.vlen))
			return -22;
	}
	return 0;
}

static void sleep_us(long us)
{
	struct {
		long sec, nsec;
	} ts = { us / 1000000, (us % 1000000) * 1000 };

	while (sysgate_syscall(sysgate_syscall_number("nanosleep"), (long)&ts,
			       (long)&ts, 0, 0, 0, 0) == -4)
		;
}

static struct spec *match(long nr)
{
	int i;

	for (i = 0; i < nspecs; i++)
		if (set_has(&specs[i].set, nr))
			return &specs[i];
	return 0;
}

static enum sysgate_verdict inject_enter(struct sysgate_sys *s, void *data)
{
	struct spec *sp = match(s->nr);
	unsigned long n;

	(void)data;
	if (!sp)
		return SYSGATE_RUN;
	if (sp->first != 1 || sp->last != NO_LAST || sp->step != 1) {
		n = __atomic_add_fetch(&counts[s->nr], 1, __ATOMIC_RELAXED);
		if (n < sp->first || n > sp->last ||
		    (n - sp->first) % sp->step)
			return SYSGATE_RUN;
	}
	if (sp->delay_enter)
		sleep_us(sp->delay_enter);
	if (sp->sig)
		sysgate_syscall(sysgate_syscall_number("tgkill"), s->pid,
				s->tid, sp->sig, 0, 0, 0);
	if (sp->subst >= 0)
		sysgate_syscall(sp->subst, s->args[0], s->args[1], s->args[2],
				s->args[3], s->args[4], s->args[5]);
	if (sp->has_error || sp->has_retval) {
		s->ret = sp->has_error ? -sp->error : sp->retval;
		s->note = "INJECTED";
		return SYSGATE_SKIP;
	}
	return SYSGATE_RUN;
}

static void inject_exit(struct sysgate_sys *s, void *data)
{
	struct spec *sp;

	(void)data;
	if (!any_delay_exit)
		return;
	sp = match(s->nr);
	if (sp && sp->delay_exit && !(s->flags & SYSGATE_SYS_CHILD))
		sleep_us(sp->delay_exit);
}

static void inject_fork_child(void *data)
{
	(void)data;
	hk_memset(counts, 0, sizeof(counts));
}

const struct sysgate_hook sg_builtin_inject = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU | SYSGATE_HOOK_NOTLS,
	.name = "inject",
	.init = inject_init,
	.enter = inject_enter,
	.exit = inject_exit,
	.fork_child = inject_fork_child,
};
