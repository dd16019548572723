/* SPDX-License-Identifier: MIT */
#include "sets.h"
#include "fmt.h"
#include "args.h"

/* old: strace also takes the name without '%' (trace=file) */
static const struct {
	const char *name;
	unsigned int cls;
	int old;
} classes[] = {
	{ "file", SYSGATE_CLASS_FILE, 1 },
	{ "process", SYSGATE_CLASS_PROCESS, 1 },
	{ "network", SYSGATE_CLASS_NETWORK, 1 },
	{ "net", SYSGATE_CLASS_NETWORK, 0 },
	{ "signal", SYSGATE_CLASS_SIGNAL, 1 },
	{ "ipc", SYSGATE_CLASS_IPC, 1 },
	{ "desc", SYSGATE_CLASS_DESC, 1 },
	{ "memory", SYSGATE_CLASS_MEMORY, 1 },
	{ "creds", SYSGATE_CLASS_CREDS, 0 },
	{ "stat", SYSGATE_CLASS_STAT, 0 },
	{ "clock", SYSGATE_CLASS_CLOCK, 0 },
	{ "pure", SYSGATE_CLASS_PURE, 0 },
};

/* strace's stat families, by name: one class bit (stat, strace's
 * %%stat) cannot tell them apart.  Names the arch lacks select nothing. */
static const struct {
	const char *cls;
	const char *names[6];
} families[] = {
	{ "%stat", { "stat", "stat64", "oldstat" } },
	{ "%lstat", { "lstat", "lstat64", "oldlstat" } },
	{ "%fstat", { "fstat", "fstat64", "oldfstat", "newfstatat",
		      "fstatat64", "statx" } },
	{ "%statfs", { "statfs", "statfs64" } },
	{ "%fstatfs", { "fstatfs", "fstatfs64" } },
	{ "%%statfs", { "statfs", "statfs64", "fstatfs", "fstatfs64",
			"ustat" } },
};

static void add(struct sc_set *s, long nr)
{
	s->bits[nr / (8 * sizeof(long))] |= 1UL << (nr % (8 * sizeof(long)));
}

static void add_class(struct sc_set *s, unsigned int cls)
{
	long nr;

	for (nr = 0; nr < SYSGATE_NR_MAX; nr++)
		if (sysgate_syscall_classes(nr) & cls)
			add(s, nr);
}

static int error(char *err, size_t errlen, const char *what, const char *item,
		 size_t n)
{
	fmt_bad_value(err, errlen, what, item, n);
	return -1;
}

/*
 * A call only the 32-bit personality has (mmap2, fcntl64: strace takes
 * every personality's names): the number -m ptrace sees it under (the
 * in-process mechanisms see only native calls), or -1.
 */
static long other_personality(const char *name)
{
	long nr;

	for (nr = SYSGATE_NR_MAX - 1; nr >= 0; nr--) {
		const char *nm = sysgate_syscall_name(nr);

		if (nm && !hk_strcmp(nm, name))
			return nr;
	}
	return -1;
}

/* The length of item's "@designator" suffix (the last '@' on), or 0. */
static size_t personality(const char *item, size_t n)
{
	size_t i = n;

	while (i && item[i - 1] != '@')
		i--;
	return i ? n - i + 1 : 0;
}

/* strace's words for a designator that names no personality */
static int bad_personality(char *err, size_t errlen, const char *item,
			   size_t n, size_t pers)
{
	struct fmt f;

	fmt_init(&f, err, errlen - 1);
	fmt_str(&f, "incorrect personality designator '");
	fmt_mem(&f, item + n - pers + 1, pers - 1);
	fmt_str(&f, "' in qualification '");
	fmt_mem(&f, item, n);
	fmt_str(&f, "'");
	err[f.len] = 0;
	return -1;
}

static int add_item(struct sc_set *s, const char *item, size_t n, char *err,
		    size_t errlen)
{
	char name[64];
	size_t pers;
	int quiet = 0;
	long nr;
	unsigned int i;

	if (n && item[0] == '?') {
		quiet = 1;
		item++;
		n--;
	}
	if ((pers = personality(item, n))) {
		/* name@64, %class@32, /regex@x32, N@32, all@32 (strace's
		 * designators): sysgate sees the native personality's calls
		 * only, so a token for another adds none, checked as one. */
		const char *d = item + n - pers + 1;
		struct sc_set none = { { 0 } };

		n -= pers;
		if (pers == 3 && !hk_strncmp(d, "64", 2))
			;	/* the native one: as if unsuffixed */
		else if ((pers == 3 && !hk_strncmp(d, "32", 2)) ||
			 (pers == 4 && !hk_strncmp(d, "x32", 3)))
			return add_item(&none, item - quiet, n + quiet, err,
					errlen);
		else
			return bad_personality(err, errlen, item, n + pers,
					       pers);
	}
	if (n == 3 && !hk_strncmp(item, "all", 3)) {
		for (nr = 0; nr < SYSGATE_NR_MAX; nr++)
			add(s, nr);
		return 0;
	}
	if (n == 4 && !hk_strncmp(item, "none", 4))
		return 0;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		const char *const *nm = families[i].names;

		if (hk_strlen(families[i].cls) != n ||
		    hk_strncmp(families[i].cls, item, n))
			continue;
		for (; *nm && nm < families[i].names + 6; nm++)
			if ((nr = sysgate_syscall_number(*nm)) >= 0 &&
			    nr < SYSGATE_NR_MAX)
				add(s, nr);
		return 0;
	}
	if (n && item[0] == '%') {
		/* strace also accepts the old "%%stat"-free spellings */
		const char *c = item + 1;
		size_t cn = n - 1;

		if (cn && c[0] == '%') {	/* %%stat: the whole family */
			c++;
			cn--;
		}

		for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
			if (hk_strlen(classes[i].name) == cn &&
			    !hk_strncmp(classes[i].name, c, cn)) {
				add_class(s, classes[i].cls);
				return 0;
			}
		return quiet ? 0 : error(err, errlen, "unknown syscall class",
					 item, n);
	}
	if (n && item[0] == '/') {
		int any = 0;

		for (nr = 0; nr < SYSGATE_NR_MAX; nr++) {
			const char *nm = sysgate_syscall_name(nr);

			if (nm && hk_regex_match(item + 1, n - 1, nm)) {
				add(s, nr);
				any = 1;
			}
		}
		return any || quiet ? 0 : error(err, errlen,
					      "regex matches no syscall", item, n);
	}
	if (!n || n >= sizeof(name))
		return error(err, errlen, "invalid syscall", item, n);
	hk_memcpy(name, item, n);
	name[n] = 0;
	nr = sysgate_syscall_number(name);
	if (nr < 0) {
		/* A bare number names a syscall too. */
		long v;

		if (!hk_parse_long(item, n, &v) && v >= 0 &&
		    v < SYSGATE_NR_MAX) {
			add(s, v);
			return 0;
		}
		/* strace's old class names without '%': trace=file... */
		for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
			if (classes[i].old && !hk_strcmp(classes[i].name, name)) {
				add_class(s, classes[i].cls);
				return 0;
			}
		/* (after the class names: i386's "ipc" is a call) */
		nr = other_personality(name);
		if (nr >= 0) {
			add(s, nr);
			return 0;
		}
		return quiet ? 0 : error(err, errlen, "unknown syscall", item, n);
	}
	add(s, nr);
	return 0;
}

int set_parse(struct sc_set *set, const char *expr, size_t n, char *err,
	      size_t errlen)
{
	int neg = 0, any = 0;
	size_t i = 0, w;

	hk_memset(set, 0, sizeof(*set));
	if (n && expr[0] == '!') {
		neg = 1;
		i = 1;
	}
	if (i == n)
		return error(err, errlen, "empty syscall set", expr, n);
	while (i <= n) {
		size_t j = i;

		/* A regex may hold commas only inside [...]; keep it simple:
		 * items end at ',' */
		while (j < n && expr[j] != ',')
			j++;
		/* (strace skips empty items, "trace=,mmap") */
		if (j > i && add_item(set, expr + i, j - i, err, errlen))
			return -1;
		any |= j > i;
		i = j + 1;
	}
	if (!any)
		return error(err, errlen, "invalid syscall", expr, n);
	if (neg)
		for (w = 0; w < SET_WORDS; w++)
			set->bits[w] = ~set->bits[w];
	return 0;
}

void set_select(struct sysgate_ctx *ctx, const struct sc_set *set)
{
	long nr;

	for (nr = 0; nr < SYSGATE_NR_MAX; nr++)
		if (set_has(set, nr))
			sysgate_select(ctx, nr);
}

/* --- a small backtracking regex ---------------------------------------- */

static const char *hk_memchr_(const char *p, char c, size_t n)
{
	for (; n; n--, p++)
		if (*p == c)
			return p;
	return 0;
}

struct re {
	const char *p, *end;
};

static int match_here(const char *p, const char *pe, const char *s);

static const char *atom_end(const char *p, const char *pe)
{
	if (*p == '[') {
		const char *q = p + 1;

		if (q < pe && *q == '^')
			q++;
		if (q < pe && *q == ']')
			q++;
		while (q < pe && *q != ']')
			q++;
		return q < pe ? q + 1 : pe;
	}
	if (*p == '\\' && p + 1 < pe)
		return p + 2;
	return p + 1;
}

static int atom_match(const char *p, const char *ae, char c)
{
	if (!c)
		return 0;
	if (*p == '.')
		return 1;
	if (*p == '\\')
		return p[1] == c;
	if (*p == '[') {
		const char *q = p + 1;
		int neg = 0, hit = 0;

		if (*q == '^') {
			neg = 1;
			q++;
		}
		for (; q < ae - 1; q++) {
			if (q + 2 < ae - 1 && q[1] == '-') {
				hit |= c >= q[0] && c <= q[2];
				q += 2;
			} else {
				hit |= c == *q;
			}
		}
		return hit != neg;
	}
	return *p == c;
}

static int match_here(const char *p, const char *pe, const char *s)
{
	const char *ae;

	if (p == pe)
		return 1;
	if (*p == '$' && p + 1 == pe)
		return !*s;
	ae = atom_end(p, pe);
	if (ae < pe && (*ae == '*' || *ae == '+' || *ae == '?')) {
		char op = *ae;
		const char *t = s;
		int min = op == '+', max = op == '?' ? 1 : 1 << 30, k = 0;

		while (k < max && atom_match(p, ae, *t)) {
			t++;
			k++;
		}
		for (; k >= min; k--, t--)
			if (match_here(ae + 1, pe, t))
				return 1;
		return 0;
	}
	return atom_match(p, ae, *s) && match_here(ae, pe, s + 1);
}

static int match_branch(const char *p, const char *pe, const char *s)
{
	if (p < pe && *p == '^')
		return match_here(p + 1, pe, s);
	do {
		if (match_here(p, pe, s))
			return 1;
	} while (*s++);
	return 0;
}

/* Where the '(' at p closes, or NULL (brackets skipped). */
static const char *group_end(const char *p, const char *pe)
{
	int depth = 0;

	for (; p < pe; p = atom_end(p, pe)) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			return p;
	}
	return 0;
}

/* The next top-level '|' of [p, pe), or pe. */
static const char *next_bar(const char *p, const char *pe)
{
	const char *g;

	for (; p < pe && *p != '|'; p = atom_end(p, pe))
		if (*p == '(' && (g = group_end(p, pe)))
			p = g;
	return p;
}

/* One branch with a group replaced by one of its alternatives. */
static int expand(const char *p, const char *pe, struct fmt *out, int depth);

static int expand_choice(const char *p, const char *g, const char *a,
			 const char *ae, const char *rest, const char *bar,
			 struct fmt *out, int depth)
{
	char buf[256];
	size_t n = (g - p) + (ae - a) + (bar - rest);

	if (n > sizeof(buf))
		return -1;
	hk_memcpy(buf, p, g - p);
	hk_memcpy(buf + (g - p), a, ae - a);
	hk_memcpy(buf + (g - p) + (ae - a), rest, bar - rest);
	return expand(buf, buf + n, out, depth + 1);
}

/* Groups multiplied out: "^(a|b)c" becomes "^ac|^bc", "x(y)?" "xy|x",
 * which the matcher above (no groups) takes.  -1 when it does not fit
 * or a group repeats (* +). */
static int expand(const char *p, const char *pe, struct fmt *out, int depth)
{
	const char *bar, *g, *ge, *rest, *a, *ae;

	if (depth > 8)
		return -1;
	for (;; p = bar + 1) {
		bar = next_bar(p, pe);
		for (g = p; g < bar && *g != '('; g = atom_end(g, bar))
			;
		if (g == bar) {
			if (out->len)
				fmt_chr(out, '|');
			fmt_mem(out, p, bar - p);
		} else {
			ge = group_end(g, bar);
			if (!ge)
				return -1;
			rest = ge + 1;
			if (rest < bar && (*rest == '*' || *rest == '+'))
				return -1;
			if (rest < bar && *rest == '?') {
				rest++;
				if (expand_choice(p, g, g, g, rest, bar, out,
						  depth))
					return -1;
			}
			for (a = g + 1; a <= ge; a = ae + 1) {
				ae = next_bar(a, ge);
				if (expand_choice(p, g, a, ae, rest, bar, out,
						  depth))
					return -1;
			}
		}
		if (out->full)
			return -1;
		if (bar == pe)
			return 0;
	}
}

int hk_regex_match(const char *re, size_t n, const char *s)
{
	const char *p = re, *pe = re + n, *bar;
	char flat[1024];
	struct fmt f;

	if (hk_memchr_(re, '(', n)) {
		fmt_init(&f, flat, sizeof(flat));
		if (expand(re, re + n, &f, 0))
			return 0;
		p = flat;
		pe = flat + f.len;
	}

	for (;;) {
		bar = p;
		while (bar < pe && *bar != '|')
			bar++;
		if (match_branch(p, bar, s))
			return 1;
		if (bar == pe)
			return 0;
		p = bar + 1;
	}
}

int nr_lookup(const struct nr_want *nrs, size_t n)
{
	int rc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((*nrs[i].nr = sysgate_syscall_number(nrs[i].name)) < 0)
			rc = -1;
	return rc;
}

int signal_lookup(const char *s, size_t n)
{
	long num;
	int sig;

	if (!hk_parse_long(s, n, &num))
		return num >= 1 && num <= 64 ? (int)num : -1;
	for (sig = 1; sig <= 64; sig++) {
		const char *nm = sysgate_signal_name(sig);

		if (nm && (arg_same_nocase(nm, s, n) ||
			   arg_same_nocase(nm + 3, s, n)))
			return sig;
	}
	return -1;
}

int signal_set_parse(const char *v, size_t n, unsigned long long *set)
{
	unsigned long long mask = 0;
	int neg = n && *v == '!';
	size_t i = neg;

	while (i < n) {
		size_t e = i;

		while (e < n && v[e] != ',')
			e++;
		if (arg_same_nocase("all", v + i, e - i)) {
			mask = ~0ULL;
		} else if (!arg_same_nocase("none", v + i, e - i)) {
			int sig = signal_lookup(v + i, e - i);

			if (sig < 0)
				return -1;
			mask |= 1ULL << (sig - 1);
		}
		i = e + 1;
	}
	*set = neg ? ~mask : mask;
	return 0;
}
