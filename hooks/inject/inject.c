/* SPDX-License-Identifier: MIT */
/*
 * inject: strace's fault injection, in process.
 *
 *   -e inject=SET[:error=ERRNO|:retval=N][:signal=SIG][:when=EXPR]
 *                [:delay_enter=TIME][:delay_exit=TIME][:syscall=NAME]
 *                [:poke_enter=@argN=HEX,...][:poke_exit=@argN=HEX,...]
 *   -e fault=SET[:error=ERRNO][:when=EXPR]    (error defaults to ENOSYS)
 *   EXPR: FIRST | FIRST+ | FIRST+STEP | FIRST..LAST | FIRST..LAST+STEP
 *   TIME: a decimal number (1.5, 8e5, .16E7), microseconds unless it ends
 *         in s, ms, us or ns
 *
 * With error= or retval= the call is not executed and returns the given
 * result; signal= and delays happen around a call that still runs.  Calls
 * are counted per syscall and per process, as strace counts per tracee.
 * syscall= runs that call (one without side effects, strace's %pure)
 * with the same arguments in place of the original, whose result error=
 * or retval= then gives.  poke_enter= and poke_exit= write bytes where
 * an argument points, before and after the call (strace's tampering:
 * the call is marked "INJECTED: args").
 * Written only against include/sysgate.h.
 */
#include "sysgate.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"
#include "../lib/slots.h"

#define MAX_SPECS 16
#define NO_LAST (~0UL >> 1)
#define WHEN_MAX 65535	/* strace's limit on when='s numbers */

/* A poke: len bytes of poke_data from off, written where argument arg
 * (1..7) points, at the call's entry or exit.  (strace's limits: 1024
 * bytes each, one per argument and side.) */
#define POKES_MAX 14
#define POKE_BYTES_MAX 1024
#define POKE_DATA 16384
struct poke {
	unsigned char arg, enter;
	unsigned short len;
	unsigned int off;
};

struct spec {
	struct sc_set set;
	int has_error, has_retval;
	long error, retval;
	int sig;
	unsigned long first, last, step;
	long delay_enter, delay_exit;	/* nanoseconds */
	long subst;	/* syscall=: the call run instead, or -1 */
	int npokes, poke_exit;
	struct poke pokes[POKES_MAX];
};

static struct spec specs[MAX_SPECS];
static int nspecs;
static int any_delay_exit, any_signal, any_poke_exit;
/* without -f: only the calls of each process's first thread, as strace
 * tampers only with the thread it traces */
static int leader_only;
static unsigned char poke_data[POKE_DATA];
static unsigned int poke_used;
static struct sysgate_ctx *self;

/* "WHAT 'V'", and ": WHY" if given: an argument refused (an invalid one
 * worded as strace words it, with the reason after). */
static int fail(struct sysgate_ctx *ctx, const char *what, const char *v,
		size_t n, const char *why)
{
	char msg[256];
	struct fmt f;

	fmt_init(&f, msg, sizeof(msg) - 1);
	fmt_str(&f, what);
	fmt_str(&f, " '");
	fmt_mem(&f, v, n);
	fmt_str(&f, "'");
	if (why) {
		fmt_str(&f, ": ");
		fmt_str(&f, why);
	}
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
	if (parse_ulong(s, i, &sp->first) || sp->first < 1 ||
	    sp->first > WHEN_MAX)
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
		/* (strace keeps 65535 for "no last") */
		if (parse_ulong(s + j, i - j, &sp->last) ||
		    sp->last < sp->first || sp->last >= WHEN_MAX)
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
	if (parse_ulong(s + i, n - i, &sp->step) || sp->step < 1 ||
	    sp->step > WHEN_MAX)
		return -1;
	return 0;
}

/* name (NUL-terminated) equals s[0, n) but for case */

/* An errno by number (1..4095) or name, in any case as strace takes it. */
static int lookup_errno(const char *s, size_t n, long *e)
{
	int i;

	if (!hk_parse_long(s, n, e))
		return *e > 0 && *e < 4096 ? 0 : -1;
	for (i = 1; i < 4096; i++) {
		const char *nm = sysgate_errno_name(i);

		if (nm && arg_same_nocase(nm, s, n)) {
			*e = i;
			return 0;
		}
	}
	return -1;
}

/* A hexadecimal digit's value (0..15), or -1. */
static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 :
	       -1;
}

/* retval=: a 64-bit number as strtoull(, 0) reads it (0x hex, 0 octal,
 * decimal; a leading - negates), without overflow. */
static int parse_retval(const char *s, size_t n, long *v)
{
	unsigned long x = 0, base = 10;
	size_t i = 0;
	int neg = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i + 1 < n && s[i] == '0' && (s[i + 1] | 0x20) == 'x') {
		base = 16;
		i += 2;
	} else if (i + 1 < n && s[i] == '0') {
		base = 8;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned long)d >= base ||
		    x > (~0UL - d) / base)
			return -1;
		x = x * base + d;
	}
	*v = (long)(neg ? -x : x);
	return 0;
}

static int lookup_signal(const char *s, size_t n, int *sig)
{
	*sig = signal_lookup(s, n);
	return *sig < 0 ? -1 : 0;
}

/* A call chosen for a signal or a delay at its exit, by thread (when=
 * counted it at entry; handlers' calls nest). */
static struct tid_slots threads;
static struct {
	const struct sysgate_sys *call;
	const struct spec *sp;
	int marks;	/* MARK_* given at entry */
} chosen[TID_SLOTS];

/* strace's marks on a tampered call's line: "(INJECTED)" for a result,
 * ": args" with a poke, "(DELAYED)" after a delay; the trace prints the
 * note in parentheses, so ") (" separates two. */
enum { MARK_ARGS = 1, MARK_RESULT = 2, MARK_DELAYED = 4 };
static const char *const notes[8] = {
	0, "INJECTED: args", "INJECTED", "INJECTED: args, retval",
	"DELAYED", "INJECTED: args) (DELAYED", "INJECTED) (DELAYED",
	"INJECTED: args, retval) (DELAYED",
};
static unsigned long counts[SYSGATE_NR_MAX];

/* The options an inject or fault argument may give once each. */
enum { O_RESULT = 1, O_SIGNAL = 2, O_DELAY_ENTER = 4, O_DELAY_EXIT = 8,
       O_SYSCALL = 16, O_POKE_ENTER = 32, O_POKE_EXIT = 64 };

/* "@argN=HEX,..." of poke_enter= or poke_exit= into sp; NULL or why it
 * is invalid. */
static const char *parse_pokes(struct spec *sp, int enter, const char *v,
			       size_t vl)
{
	size_t i = 0, j, k;

	if (!vl)
		return "a poke takes @argN=HEX,... (N 1..7)";
	for (; i < vl; i = j + 1) {
		struct poke *p;
		size_t n;

		for (j = i; j < vl && v[j] != ','; j++)
			;
		if (j == i)
			continue;	/* (empty items, as strtok skips them) */
		if (j - i < 6 || hk_strncmp(v + i, "@arg", 4) ||
		    v[i + 4] < '1' || v[i + 4] > '7' || v[i + 5] != '=')
			return "a poke takes @argN=HEX,... (N 1..7)";
		n = j - i - 6;
		if (!n || n % 2 || n > 2 * POKE_BYTES_MAX)
			return "a poke's data is 1..1024 bytes in hexadecimal";
		for (k = 0; k < (size_t)sp->npokes; k++)
			if (sp->pokes[k].enter == enter &&
			    sp->pokes[k].arg == v[i + 4] - '0')
				return "an argument poked twice";
		if (sp->npokes == POKES_MAX || poke_used + n / 2 > POKE_DATA)
			return "too much poke data";
		p = &sp->pokes[sp->npokes];
		p->arg = (unsigned char)(v[i + 4] - '0');
		p->enter = (unsigned char)enter;
		p->len = (unsigned short)(n / 2);
		p->off = poke_used;
		for (k = 0; k < n; k += 2) {
			int hi = hex_digit(v[i + 6 + k]),
			    lo = hex_digit(v[i + 7 + k]);

			if (hi < 0 || lo < 0)
				return "a poke's data is 1..1024 bytes in "
				       "hexadecimal";
			poke_data[poke_used + k / 2] = (unsigned char)(hi << 4 |
								       lo);
		}
		poke_used += p->len;
		sp->npokes++;
		sp->poke_exit |= !enter;
	}
	return 0;
}

/*
 * One KEY=VALUE of an argument into sp; NULL or why it is invalid.  As in
 * strace: fault= takes only error=, when= and syscall=; each option once
 * (error= and retval= exclude each other).
 */
static const char *parse_option(struct spec *sp, int fault, unsigned *seen,
				const char *k, size_t kl, const char *v,
				size_t vl)
{
	unsigned once = 0;

#define KEY(name) (kl == sizeof(name) - 1 && !hk_strncmp(k, name, kl))
	if (KEY("when")) {
		if (parse_when(sp, v, vl))
			return "when= takes FIRST[..LAST][+[STEP]], 1..65535";
		return 0;
	} else if (KEY("error")) {
		if (lookup_errno(v, vl, &sp->error))
			return "error= takes an errno name or 1..4095";
		sp->has_error = 1;
		once = O_RESULT;
	} else if (KEY("syscall")) {
		char name[64];

		if (vl >= sizeof(name))
			return "syscall= takes a call's name";
		hk_memcpy(name, v, vl);
		name[vl] = 0;
		sp->subst = sysgate_syscall_number(name);
		if (sp->subst < 0 || !(sysgate_syscall_classes(sp->subst) &
				       SYSGATE_CLASS_PURE))
			return "syscall= takes a call without side effects "
			       "(%pure)";
		once = O_SYSCALL;
	} else if (fault) {
		return "fault= takes error=, when= and syscall=";
	} else if (KEY("retval")) {
		if (parse_retval(v, vl, &sp->retval))
			return "retval= takes a number";
		sp->has_retval = 1;
		once = O_RESULT;
	} else if (KEY("signal")) {
		if (lookup_signal(v, vl, &sp->sig))
			return "signal= takes a signal name or 1..64";
		once = O_SIGNAL;
	} else if (KEY("poke_enter") || KEY("poke_exit")) {
		int enter = KEY("poke_enter");
		const char *why;

		once = enter ? O_POKE_ENTER : O_POKE_EXIT;
		if (*seen & once)	/* (before parse_pokes adds to sp) */
			return "an option given twice";
		why = parse_pokes(sp, enter, v, vl);
		if (why)
			return why;
	} else if (KEY("delay_enter") || KEY("delay_exit")) {
		long *d = KEY("delay_enter") ? &sp->delay_enter :
			&sp->delay_exit;

		if (arg_duration_ns(v, vl, d))
			return "a delay takes a time (microseconds, or with "
			       "s, ms, us or ns)";
		once = d == &sp->delay_enter ? O_DELAY_ENTER : O_DELAY_EXIT;
	} else {
		return "unknown option";
	}
#undef KEY
	if (*seen & once)
		return once == O_RESULT ? "error= or retval= given twice" :
		       "an option given twice";
	*seen |= once;
	return 0;
}

/* "SET:OPT..." (after inject= or fault=) into a new spec; NULL or why it
 * is invalid. */
static const char *parse_spec(const char *s, size_t n, int fault,
			      char *err, size_t errlen)
{
	struct spec *sp = &specs[nspecs];
	unsigned seen = 0;
	size_t i, j;

	if (nspecs == MAX_SPECS)
		return "too many -e inject options";
	hk_memset(sp, 0, sizeof(*sp));
	sp->first = 1;
	sp->last = NO_LAST;
	sp->step = 1;
	sp->subst = -1;
	for (j = 0; j < n && s[j] != ':'; j++)
		;
	if (set_parse(&sp->set, s, j, err, errlen))
		return err;
	while (j < n) {
		const char *k = s + j + 1, *v, *why;

		for (i = j + 1; i < n && s[i] != ':'; i++)
			;
		for (v = k; v < s + i && *v != '='; v++)
			;
		if (v == s + i)
			return "an option without =";
		why = parse_option(sp, fault, &seen, k, v - k, v + 1,
				   s + i - v - 1);
		if (why)
			return why;
		j = i;
	}
	if (fault && !sp->has_error) {
		sp->has_error = 1;
		sp->error = 38;	/* ENOSYS */
	}
	if (!sp->has_error && !sp->has_retval && !sp->sig &&
	    !sp->delay_enter && !sp->delay_exit && !sp->npokes)
		return "it needs error=, retval=, signal=, a delay or a poke";
	any_delay_exit |= sp->delay_exit != 0;
	any_signal |= sp->sig != 0;
	any_poke_exit |= sp->poke_exit;
	nspecs++;
	return 0;
}

static int inject_init(struct sysgate_ctx *ctx, const char *args)
{
	struct sc_set traced;
	int have_traced = 0, i;
	char err[160];
	struct arg a;

	self = ctx;
	while (args_next(&args, &a)) {
		if (arg_is(&a, "trace") && a.val) {
			/* strace tampers only with the calls it traces */
			if (set_parse(&traced, a.val, a.vlen, err, sizeof(err)))
				return sysgate_error(ctx, err);
			have_traced = 1;
		} else if (arg_is(&a, "leader")) {
			leader_only = 1;
		} else if (arg_is(&a, "spec") && a.val) {
			int fault = !hk_strncmp(a.val, "fault=", 6);
			size_t skip = fault ? 6 : 7;	/* or "inject=" */
			const char *why = parse_spec(a.val + skip,
						     a.vlen - skip, fault,
						     err, sizeof(err));

			if (why)
				return fail(ctx, fault ?
					    "invalid fault argument" :
					    "invalid inject argument",
					    a.val + skip, a.vlen - skip, why);
		} else {
			return fail(ctx, "unknown argument", a.key, a.klen, 0);
		}
	}
	for (i = 0; i < nspecs; i++) {
		if (have_traced)
			set_and(&specs[i].set, &traced);
		set_select(ctx, &specs[i].set);
	}
	return 0;
}

static void sleep_ns(long ns)
{
	struct {
		long sec, nsec;
	} ts = { ns / 1000000000, ns % 1000000000 };

	while (sysgate_syscall(sysgate_syscall_number("nanosleep"), (long)&ts,
			       (long)&ts, 0, 0, 0, 0) == -4)
		;
}

/* strace's words for a poke that could not be made, in the output. */
static void poke_failed(const struct sysgate_sys *s, const struct poke *p,
			int nargs)
{
	char msg[256];
	struct fmt f;

	fmt_init(&f, msg, sizeof(msg));
	fmt_str(&f, "sysgate: Failed to tamper with process ");
	fmt_dec(&f, s->pid);
	if (nargs >= 0) {
		fmt_str(&f, ": requested to tamper with argument #");
		fmt_dec(&f, p->arg);
		fmt_str(&f, ", but system call '");
		fmt_str(&f, sysgate_syscall_name(s->nr));
		fmt_str(&f, "' has only ");
		fmt_dec(&f, nargs);
		fmt_str(&f, " arguments\n");
	} else {
		fmt_str(&f, ": couldn't poke\n");
	}
	sysgate_output(self, msg, f.len);
}

/* The pokes of one side; 1 if any wrote something. */
static int poke(struct sysgate_sys *s, const struct spec *sp, int enter)
{
	int i, poked = 0, nargs;

	if (!sp->npokes)
		return 0;
	nargs = sysgate_syscall_nargs(s->nr);
	for (i = 0; i < sp->npokes; i++) {
		const struct poke *p = &sp->pokes[i];

		if (p->enter != enter)
			continue;
		if (nargs >= 0 && p->arg > nargs)
			poke_failed(s, p, nargs);
		else if (sysgate_write_mem(s, (void *)s->args[p->arg - 1],
					   poke_data + p->off, p->len) > 0)
			poked = 1;
		else
			poke_failed(s, p, -1);
	}
	return poked;
}

/* The last -e inject= or -e fault= that names the call: a later one
 * replaces an earlier one for its calls, as in strace (-e fault=all
 * -e fault=exit:when=2+ leaves the first exit alone). */
static struct spec *match(long nr)
{
	int i;

	for (i = nspecs - 1; i >= 0; i--)
		if (set_has(&specs[i].set, nr))
			return &specs[i];
	return 0;
}

static enum sysgate_verdict inject_enter(struct sysgate_sys *s, void *data)
{
	struct spec *sp = match(s->nr);
	unsigned long n;
	int marks = 0;

	(void)data;
	if (!sp || (leader_only && s->tid != s->pid))
		return SYSGATE_RUN;
	if (sp->first != 1 || sp->last != NO_LAST || sp->step != 1) {
		n = __atomic_add_fetch(&counts[s->nr], 1, __ATOMIC_RELAXED);
		if (n < sp->first || n > sp->last ||
		    (n - sp->first) % sp->step)
			return SYSGATE_RUN;
	}
	if (sp->delay_enter) {
		sleep_ns(sp->delay_enter);
		marks |= MARK_DELAYED;
	}
	if (poke(s, sp, 1))
		marks |= MARK_ARGS;
	if (sp->has_error || sp->has_retval)
		marks |= MARK_RESULT;
	s->note = notes[marks];
	if (sp->sig || sp->delay_exit || sp->poke_exit) {
		int fresh, k = tid_slot(&threads, s->tid, &fresh);

		if (k >= 0) {
			chosen[k].call = s;
			chosen[k].sp = sp;
			chosen[k].marks = marks;
		}
	}
	/* (syscall= replaces the call only where a result is injected) */
	if (sp->subst >= 0 && (sp->has_error || sp->has_retval))
		sysgate_syscall(sp->subst, s->args[0], s->args[1], s->args[2],
				s->args[3], s->args[4], s->args[5]);
	if (sp->has_error || sp->has_retval) {
		s->ret = sp->has_error ? -sp->error : sp->retval;
		return SYSGATE_SKIP;
	}
	return SYSGATE_RUN;
}

/*
 * The signal comes as strace's does: after the call, from the kernel
 * (SI_KERNEL, which only a process's own signals may claim; another
 * process's, under -m ptrace, are sent with tgkill).
 */
static void send_signal(const struct sysgate_sys *s, int sig)
{
	struct {
		int signo, err, code, pad;
		long rest[14];
	} info = { sig, 0, 0x80 /* SI_KERNEL */, 0, { 0 } };

	if (sysgate_syscall(sysgate_syscall_number("rt_tgsigqueueinfo"),
			    s->pid, s->tid, sig, (long)&info, 0, 0) < 0)
		sysgate_syscall(sysgate_syscall_number("tgkill"), s->pid,
				s->tid, sig, 0, 0, 0);
}

static void inject_exit(struct sysgate_sys *s, void *data)
{
	const struct spec *sp;
	int k, marks;

	(void)data;
	if ((!any_delay_exit && !any_signal && !any_poke_exit) ||
	    (k = tid_slot_find(&threads, s->tid)) < 0 || chosen[k].call != s)
		return;
	sp = chosen[k].sp;
	marks = chosen[k].marks;
	chosen[k].call = 0;
	if (s->flags & SYSGATE_SYS_CHILD)
		return;
	if (sp->poke_exit && poke(s, sp, 0))
		marks |= MARK_ARGS;
	if (sp->delay_exit) {
		sleep_ns(sp->delay_exit);
		marks |= MARK_DELAYED;
	}
	s->note = notes[marks];
	if (sp->sig)
		send_signal(s, sp->sig);
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
