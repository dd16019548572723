/* SPDX-License-Identifier: MIT */
/*
 * Option parsing for the CLI and the library (see options.h).  strace's
 * letters keep strace's meanings; flags sysgate cannot honour are refused
 * with a one-line message instead of being ignored.
 */
#include "sg.h"
#include "options.h"

static int fail(struct sg_options *o, const char *a, const char *b,
		const char *c)
{
	o->error[0] = 0;
	sg_strlcpy(o->error, a, sizeof(o->error));
	if (b) {
		size_t n = sg_strlen(o->error);

		sg_strlcpy(o->error + n, b, sizeof(o->error) - n);
	}
	if (c) {
		size_t n = sg_strlen(o->error);

		sg_strlcpy(o->error + n, c, sizeof(o->error) - n);
	}
	return -1;
}

static const char *keep(struct sg_options *o, const char *s)
{
	size_t n = sg_strlen(s) + 1;
	char *d;

	if (o->used + n > sizeof(o->buf))
		return 0;
	d = o->buf + o->used;
	memcpy(d, s, n);
	o->used += n;
	return d;
}

/* a, a comma and b, kept (-p given again adds its pids, as strace's) */
static const char *keep_joined(struct sg_options *o, const char *a,
			       const char *b)
{
	char both[SG_OPT_BUF];

	if (sg_strlen(a) + 1 + sg_strlen(b) >= sizeof(both))
		return 0;
	return keep(o, sg_strjoin(both, sizeof(both), a, ",", b));
}

static int add_list(struct sg_options *o, const char **list, int *n,
		    const char *v, const char *what)
{
	if (*n >= SG_OPT_MAX_LIST)
		return fail(o, "too many ", what, " options");
	if (!(list[*n] = keep(o, v)))
		return fail(o, "options too long", 0, 0);
	(*n)++;
	return 0;
}

static int parse_int(const char *s, int *v)
{
	long x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > 100000000)
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = (int)x;
	return 0;
}

static int starts(const char *s, const char *p)
{
	return !sg_strncmp(s, p, sg_strlen(p));
}

/* "A" or "A-B" at w (no longer than the list it stands for) */
static char *put_run(char *w, long a, long b)
{
	char num[24];
	const char *d = sg_utoa(num + sizeof(num), (unsigned long)a);

	while (*d)
		*w++ = *d++;
	if (b > a) {
		*w++ = '-';
		d = sg_utoa(num + sizeof(num), (unsigned long)b);
		while (*d)
			*w++ = *d++;
	}
	return w;
}

/*
 * A descriptor set kept last in o->buf, its runs of consecutive numbers
 * rewritten in place as "A-B" (strace's tests list every descriptor
 * below 1024: more than the buffer and a hook's arguments hold); its
 * end returned.
 */
static char *fd_runs(char *v)
{
	char *w = v, *r = v;

	while (*r == '!')
		*w++ = *r++;
	while (*r) {
		long a = 0, b;
		char *t = r;

		while (*t >= '0' && *t <= '9' && a < 1000000)
			a = a * 10 + (*t++ - '0');
		if (t == r || (*t && *t != ',')) {
			/* (a name: all, none) */
			while (*r && *r != ',')
				*w++ = *r++;
		} else {
			for (b = a; *t == ','; b++) {
				long c = 0;
				char *u = t + 1;

				while (*u >= '0' && *u <= '9' && c < 1000000)
					c = c * 10 + (*u++ - '0');
				if (u == t + 1 || (*u && *u != ',') || c != b + 1)
					break;
				t = u;
			}
			r = t;
			w = put_run(w, a, b);
		}
		if (*r == ',')
			*w++ = *r++;
	}
	*w = 0;
	return w;
}

/* -e EXPR */
static int parse_expr(struct sg_options *o, const char *e)
{
	static const char *const unsupported[] = {
		"kvm=", "qualify=",
	};
	unsigned int i;

	if (starts(e, "trace=") || starts(e, "t=")) {
		o->trace = keep(o, sg_strchr(e, '=') + 1);
		return o->trace ? 0 : fail(o, "options too long", 0, 0);
	}
	if (starts(e, "decode-fds=") || starts(e, "decode-fd=")) {
		/* a set of path, socket, dev, pidfd (-y: path, -yy: all);
		 * strace also takes "decode-fd" */
		static const char *const kinds[] = {
			"path", "socket", "dev", "pidfd", "all", "none",
		};
		const char *v = sg_strchr(e, '=') + 1;

		o->decode_fds = 0;
		while (*v) {
			size_t n = 0;
			unsigned int k;

			while (v[n] && v[n] != ',')
				n++;
			for (k = 0; k < ARRAY_SIZE(kinds); k++)
				if (n == sg_strlen(kinds[k]) &&
				    !sg_strncmp(v, kinds[k], n))
					break;
			if (k == ARRAY_SIZE(kinds))
				return fail(o, "-e ", e, ": not supported "
					    "(path, socket, dev, pidfd, all, "
					    "none)");
			o->decode_fds |= k < 4 ? 1 << k : k == 4 ? 15 : 0;
			v += n + (v[n] == ',');
		}
		return 0;
	}
	if (starts(e, "decode-pids=") || starts(e, "decode-pid=")) {
		/* strace's comm (-Y) and pidns, comma-separated */
		const char *v = sg_strchr(e, '=') + 1, *end;

		o->decode_pids = 0;
		for (; *v; v = *end ? end + 1 : end) {
			size_t n;

			end = sg_strchr(v, ',');
			if (!end)
				end = v + sg_strlen(v);
			n = (size_t)(end - v);
			if (n == 4 && !sg_strncmp(v, "comm", 4))
				o->decode_pids |= 1;
			else if (n == 5 && !sg_strncmp(v, "pidns", 5))
				o->decode_pids |= 2;
			else if (n == 3 && !sg_strncmp(v, "all", 3))
				o->decode_pids |= 3;
			else if (!(n == 4 && !sg_strncmp(v, "none", 4)))
				return fail(o, "-e ", e,
					    ": not supported (comm, pidns, "
					    "all, none)");
		}
		return 0;
	}
	if (starts(e, "quiet=") || starts(e, "silent=") ||
	    starts(e, "silence=") || starts(e, "q=")) {
		/* sysgate prints no personality or path messages: of what
		 * -e quiet= silences, the exit lines, the "superseded by
		 * execve" lines and -p's attach and detach lines remain */
		static const char *const known[] = {
			"attach", "personality", "exit", "exits",
			"thread-execve", "superseded", "path-resolution",
			"all", "none",
		};
		const char *v = sg_strchr(e, '=') + 1, *end;
		char w[32];
		unsigned int k;

		for (; *v; v = *end ? end + 1 : end) {
			end = sg_strchr(v, ',');
			if (!end)
				end = v + sg_strlen(v);
			sg_strlcpy(w, v, (size_t)(end - v) + 1 < sizeof(w) ?
					     (size_t)(end - v) + 1 : sizeof(w));
			for (k = 0; k < ARRAY_SIZE(known); k++)
				if (!sg_strcmp(w, known[k]))
					break;
			if (k == ARRAY_SIZE(known))
				return fail(o, "invalid quiet '", w, "'");
			if (k == 2 || k == 3 || k == 7)
				o->quiet_exit = 1;
			if (k == 0 || k == 7)
				o->quiet_attach = 1;
			if (k == 4 || k == 5 || k == 7)
				o->quiet_super = 1;
		}
		return 0;
	}
	if (starts(e, "read=") || starts(e, "reads=") || starts(e, "r=") ||
	    starts(e, "write=") || starts(e, "writes=") || starts(e, "w=")) {
		const char *v = sg_strchr(e, '=') + 1;

		if (sg_strchr(v, '-'))
			return fail(o, "invalid descriptor set '", v, "'");
		v = keep(o, v);
		if (v)
			o->used = (unsigned int)(fd_runs((char *)v) + 1 -
						 o->buf);
		*(e[0] == 'r' ? &o->dump_read : &o->dump_write) = v;
		return v ? 0 : fail(o, "options too long", 0, 0);
	}
	if (starts(e, "signal=") || starts(e, "signals=") || starts(e, "s=")) {
		o->signals = keep(o, sg_strchr(e, '=') + 1);
		return o->signals ? 0 : fail(o, "options too long", 0, 0);
	}
	if (starts(e, "abbrev=") || starts(e, "a=") || starts(e, "verbose=") ||
	    starts(e, "v=") || starts(e, "raw=") || starts(e, "x=")) {
		const char *v = keep(o, sg_strchr(e, '=') + 1);

		*(e[0] == 'a' ? &o->abbrev : e[0] == 'v' ? &o->verbose_set :
				&o->raw) = v;
		return v ? 0 : fail(o, "options too long", 0, 0);
	}
	if (starts(e, "status=")) {
		o->status = keep(o, e + 7);
		return o->status ? 0 : fail(o, "options too long", 0, 0);
	}
	if (starts(e, "inject=") || starts(e, "fault="))
		return add_list(o, o->inject, &o->ninject, e, "-e inject");
	for (i = 0; i < ARRAY_SIZE(unsupported); i++)
		if (starts(e, unsupported[i]))
			return fail(o, "-e ", e, ": not supported by sysgate");
	if (sg_strchr(e, '='))
		return fail(o, "invalid -e expression '", e, "'");
	o->trace = keep(o, e);
	return o->trace ? 0 : fail(o, "options too long", 0, 0);
}

/* Options that take a value, as short letters. */
static const char short_with_value[] = "oesSUmEpuPXaIbO";

static int short_opt(struct sg_options *o, char c, const char *val)
{
	char s[2] = { c, 0 };
	unsigned int i;

	switch (c) {
	case 'o': o->outfile = keep(o, val); return 0;
	case 'e': return parse_expr(o, val);
	case 's':
		if (parse_int(val, &o->strsize))
			return fail(o, "invalid -s value '", val, "'");
		return 0;
	/* (their values are the count hook's to check: the CLI checks them
	 * at once, the library when the hook starts) */
	case 'S': o->sortby = keep(o, val); return 0;
	case 'U': o->columns = keep(o, val); return 0;
	case 'O': o->overhead = keep(o, val); return 0;
	case 'm': o->mechanism = keep(o, val); return 0;
	case 'E': return add_list(o, o->env, &o->nenv, val, "-E");
	case 'u': o->user = keep(o, val); return 0;
	case 'f': o->follow++; return 0;
	case 'D': o->daemonize++; return 0;
	case 'c': o->count = 1; return 0;
	case 'C': o->count = 1; o->count_and_trace = 1; return 0;
	case 'A': o->append = 1; return 0;
	case 'q': o->quiet++; return 0;
	case 't':
		if (o->ts_prec)
			return fail(o, "-t and --timestamps cannot be given "
				       "together", 0, 0);
		o->timestamps++;
		return 0;
	case 'T': o->syscall_times = 1; return 0;
	case 'x': o->hexstr += o->hexstr < 2; return 0;
	case 'P': return add_list(o, o->paths, &o->npaths, val, "-P");
	case 'X': {
		static const char *const styles[] = { "abbrev", "raw", "verbose" };

		for (i = 0; i < ARRAY_SIZE(styles); i++)
			if (!sg_strcmp(val, styles[i])) {
				o->xlat_style = (int)i;
				return 0;
			}
		return fail(o, "invalid -X style '", val,
			    "' (abbrev, raw, verbose)");
	}
	case 'r': o->relative = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	case 'n': o->numbers = 1; return 0;
	case 'a': {
		int col;

		if (parse_int(val, &col) || col > 999)
			return fail(o, "invalid -a value '", val, "'");
		o->column = col + 1;
		return 0;
	}
	case 'z': o->status = "successful"; return 0;
	case 'Z': o->status = "failed"; return 0;
	case 'y':
		/* -y: paths; -yy: every kind */
		o->decode_fds = o->decode_fds ? 15 : 1;
		return 0;
	case 'Y': o->decode_pids |= 1; return 0;
	case 'd': o->debug++; return 0;
	case 'h': o->help = 1; return 0;
	case 'V': o->version = 1; return 0;
	case 'j': o->json = 1; return 0;
	case 'w': o->wall = 1; return 0;
	case 'b':
		/* strace's words: execve is its only one */
		if (sg_strcmp(val, "execve"))
			return fail(o, "Syscall '", val, "' for -b isn't supported");
		o->detach_execve = 1;
		return 0;
	case 'p':
		o->attach = o->attach ? keep_joined(o, o->attach, val) :
					keep(o, val);
		return o->attach ? 0 : fail(o, "options too long", 0, 0);
	case 'I': {
		/* strace's words, and its numbers */
		static const char *const names[] = {
			"anywhere", "always", "waiting", "never", "never_tstp"
		};
		static const char levels[] = { 1, 1, 2, 3, 4 };
		int v;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!sg_strcmp(val, names[i])) {
				o->intr = levels[i];
				return 0;
			}
		if (parse_int(val, &v) || v < 1 || v > 4)
			return fail(o, "invalid -I argument: '", val, "'");
		o->intr = v;
		return 0;
	}
	case 'k': o->stack_traces = 1; return 0;
	case 'i': o->instruction_pointer = 1; return 0;
	default:
		return fail(o, "unknown option -", s, " (see sysgate -h)");
	}
}

struct long_opt {
	const char *name;
	int has_value;		/* 0 no, 1 yes, 2 optional (only after '=') */
	char short_equiv;	/* handled as that letter, if not 0 */
};

static const struct long_opt long_opts[] = {
	{ "output", 1, 'o' },
	{ "trace", 1, 0 },
	{ "inject", 1, 0 },
	{ "fault", 1, 0 },
	{ "string-limit", 1, 's' },
	{ "summary-sort-by", 1, 'S' },
	{ "summary-syscall-overhead", 1, 'O' },
	{ "summary-columns", 1, 'U' },
	{ "mechanism", 1, 'm' },
	{ "hook", 1, 0 },
	{ "fs", 1, 0 },
	{ "fs-size", 1, 0 },
	{ "bypass", 2, 0 },
	{ "hot", 2, 0 },
	{ "follow-forks", 0, 'f' },
	{ "output-separately", 0, 0 },
	{ "summary-only", 0, 'c' },
	{ "summary", 0, 'C' },
	{ "syscall-times", 2, 0 },
	{ "json", 0, 'j' },
	{ "stats", 0, 0 },
	{ "loader", 0, 0 },
	{ "preload", 0, 0 },
	{ "patch-all", 0, 0 },
	{ "eager", 0, 0 },
	{ "lazy", 0, 0 },
	{ "stub-reach", 1, 0 },
	{ "attach", 1, 'p' },
	{ "interruptible", 1, 'I' },
	{ "detach-after", 1, 0 },
	{ "detach-on", 1, 'b' },
	{ "daemonize", 2, 0 },
	{ "zeropage-readable-null", 0, 0 },
	{ "quiet", 2, 0 },
	{ "silent", 2, 0 },
	{ "silence", 2, 0 },
	/* strace's long names for its letters and -e expressions */
	{ "columns", 1, 'a' },
	{ "env", 1, 'E' },
	{ "user", 1, 'u' },
	{ "no-abbrev", 0, 'v' },
	{ "syscall-number", 0, 'n' },
	{ "successful-only", 0, 'z' },
	{ "failed-only", 0, 'Z' },
	{ "trace-path", 1, 'P' },
	{ "const-print-style", 1, 'X' },
	{ "stack-trace", 0, 'k' },
	{ "instruction-pointer", 0, 'i' },
	{ "signal", 1, 0 },
	{ "status", 1, 0 },
	{ "abbrev", 1, 0 },
	{ "verbose", 1, 0 },
	{ "raw", 1, 0 },
	{ "read", 1, 0 },
	{ "write", 1, 0 },
	{ "decode-fds", 2, 0 },
	{ "decode-pids", 1, 0 },
	{ "pidns-translation", 0, 0 },
	{ "strings-in-hex", 2, 0 },
	{ "absolute-timestamps", 2, 0 },
	{ "timestamps", 2, 0 },
	{ "relative-timestamps", 2, 0 },
	{ "debug", 0, 'd' },
	{ "help", 0, 'h' },
	{ "version", 0, 'V' },
	{ "list-syscalls", 0, 0 },
	{ "list-mechanisms", 0, 0 },
	{ "seccomp-bpf", 0, 0 },
	{ "summary-wall-clock", 0, 'w' },
};

/* "NAME=VALUE" into e; -1 when it does not fit. */
static int name_eq_val(char *e, size_t size, const char *name,
		       const char *val)
{
	size_t n = sg_strlen(name);

	if (n + 1 + sg_strlen(val) >= size)
		return -1;
	sg_strlcpy(e, name, size);
	e[n] = '=';
	sg_strlcpy(e + n + 1, val, size - n - 1);
	return 0;
}

/* --NAME=VALUE as -e NAME=VALUE */
static int expr_opt(struct sg_options *o, const char *name, const char *val)
{
	char e[512];

	if (name_eq_val(e, sizeof(e), name, val))
		return fail(o, "options too long", 0, 0);
	return parse_expr(o, e);
}

/* Where p occurs in s, or NULL. */
static const char *find(const char *s, const char *p)
{
	size_t n = sg_strlen(p);

	for (; *s; s++)
		if (!sg_strncmp(s, p, n))
			return s;
	return 0;
}

/* A time's precision, strace's s, ms, us or ns (up to a ',' or the end):
 * the digits after the point plus 1, or 0 when v is none of them. */
static int precision(const char *v)
{
	static const char *const units[] = { "s", "ms", "us", "ns" };
	size_t len = sg_strchr(v, ',') ? (size_t)(sg_strchr(v, ',') - v) :
					 sg_strlen(v);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (len == sg_strlen(units[i]) && !sg_strncmp(v, units[i], len))
			return (int)(3 * i + 1);
	return 0;
}

/* --timestamps / --absolute-timestamps=[format:]none|time|unix and
 * [precision:]s|ms|us|ns, comma-separated; a later option keeps what
 * this one leaves out (format:time and precision:s at first). */
static int timestamps_opt(struct sg_options *o, const char *name,
			  const char *val)
{
	static const char *const formats[] = { "none", "time", "", "unix" };
	const char *v, *end;

	if (o->timestamps && !o->ts_prec)
		return fail(o, "-t and --", name, " cannot be given together");
	if (!o->ts_prec)
		o->timestamps = 1, o->ts_prec = 1;
	for (v = val; v; v = *end ? end + 1 : 0) {
		int format = 1, prec = 1;
		unsigned int i;
		size_t len;

		end = v + sg_strlen(v);
		if (sg_strchr(v, ','))
			end = sg_strchr(v, ',');
		if (end == v)
			continue;	/* (strace skips empty items) */
		if (starts(v, "format:"))
			v += 7, prec = 0;
		else if (starts(v, "precision:"))
			v += 10, format = 0;
		len = (size_t)(end - v);
		for (i = 0; format && i < ARRAY_SIZE(formats); i++)
			if (len && sg_strlen(formats[i]) == len &&
			    !sg_strncmp(v, formats[i], len))
				break;
		if (format && i < ARRAY_SIZE(formats))
			o->timestamps = (int)i;
		else if (!prec || !(o->ts_prec = precision(v)))
			return fail(o, "invalid --", name, " value");
	}
	return 0;
}

/* --quiet and strace's other spellings of it */
static int quiet_name(const char *name)
{
	return !sg_strcmp(name, "quiet") || !sg_strcmp(name, "silent") ||
	       !sg_strcmp(name, "silence");
}

/*
 * strace's long options whose value is optional: without one they are
 * their letter; with one, the letter repeated as strace documents it,
 * or the -e expression of the same name.
 */
static int optional_value_opt(struct sg_options *o, const char *name,
			      const char *val)
{
	if (!val && find(name, "timestamps") && name[0] != 'r')
		return timestamps_opt(o, name, "time");
	if (!val && sg_strcmp(name, "strings-in-hex"))
		return short_opt(o, quiet_name(name) ? 'q' :
				    !sg_strcmp(name, "decode-fds") ? 'y' :
				    !sg_strcmp(name, "syscall-times") ? 'T' :
				    name[0] == 'r' ? 'r' : 't', 0);
	if (quiet_name(name) || !sg_strcmp(name, "decode-fds"))
		return expr_opt(o, name, val);
	if (!sg_strcmp(name, "strings-in-hex")) {
		/* strace's values; alone, all */
		static const char *const v[] = { "none", "non-ascii", "all",
						  "non-ascii-chars" };
		unsigned int k;

		for (k = 0; val && k < ARRAY_SIZE(v) && sg_strcmp(val, v[k]);
		     k++)
			;
		if (k == ARRAY_SIZE(v))
			return fail(o, "invalid --strings-in-hex argument: '",
				    val, "'");
		o->hexstr_long = (val ? (int)k : 2) + 1;
		return 0;
	}
	if (!sg_strcmp(name, "syscall-times") || name[0] == 'r') {
		int p = precision(val);

		if (!p || sg_strchr(val, ','))
			return fail(o, "invalid --", name, " value (s, ms, us, ns)");
		*(name[0] == 'r' ? &o->rel_prec : &o->dur_prec) = p;
		return short_opt(o, name[0] == 'r' ? 'r' : 'T', 0);
	}
	return timestamps_opt(o, name, val);
}

static int long_opt(struct sg_options *o, const char *name, size_t nlen,
		    const char *val)
{
	const struct long_opt *l = 0;
	unsigned int i;
	char tmp[128];

	for (i = 0; i < ARRAY_SIZE(long_opts); i++)
		if (sg_strlen(long_opts[i].name) == nlen &&
		    !sg_strncmp(long_opts[i].name, name, nlen))
			l = &long_opts[i];
	sg_strlcpy(tmp, name, nlen + 1 < sizeof(tmp) ? nlen + 1 : sizeof(tmp));
	if (!l)
		return fail(o, "unknown option --", tmp, " (see sysgate -h)");
	if (l->has_value == 1 && !val)
		return fail(o, "option --", tmp, " needs a value");
	if (!l->has_value && val)
		return fail(o, "option --", tmp, " takes no value");
	if (l->short_equiv)
		return short_opt(o, l->short_equiv, val);
	if (!sg_strcmp(l->name, "trace")) {
		o->trace = keep(o, val);
		return 0;
	}
	if (!sg_strcmp(l->name, "inject") || !sg_strcmp(l->name, "fault")) {
		char e[512];

		if (name_eq_val(e, sizeof(e), l->name, val))
			return fail(o, "options too long", 0, 0);
		return add_list(o, o->inject, &o->ninject, e, "--inject");
	}
	if (!sg_strcmp(l->name, "hook"))
		return add_list(o, o->hooks, &o->nhooks, val, "--hook");
	if (!sg_strcmp(l->name, "fs") || !sg_strcmp(l->name, "fs-size")) {
		const char *v = keep(o, val);

		if (!v)
			return fail(o, "options too long", 0, 0);
		if (l->name[2])
			o->fs_size = v;
		else
			o->fs = v;
		return 0;
	}
	if (!sg_strcmp(l->name, "bypass") || !sg_strcmp(l->name, "hot")) {
		const char *v = keep(o, val ? val : "");

		if (!v)
			return fail(o, "options too long", 0, 0);
		*(l->name[1] == 'y' ? &o->bypass : &o->hot) = v;
		return 0;
	}
	if (!sg_strcmp(l->name, "stub-reach")) {
		if (parse_int(val, &o->stub_reach) < 0 || o->stub_reach > 4096)
			return fail(o, "--stub-reach takes MiB, 0 to 4096: ", val, 0);
		return 0;
	}
	if (!sg_strcmp(l->name, "daemonize")) {
		static const char *const how[] = { "grandchild", "pgroup",
						   "session" };

		for (i = 0; val && i < ARRAY_SIZE(how); i++)
			if (!sg_strcmp(val, how[i]))
				break;
		if (val && i == ARRAY_SIZE(how))
			return fail(o, "invalid --daemonize argument: '", val,
				    "'");
		o->daemonize = val ? (int)i + 1 : 1;
		return 0;
	}
	if (!sg_strcmp(l->name, "detach-after")) {
		if (parse_int(val, &o->detach_after) < 0 || o->detach_after > 1000000)
			return fail(o, "--detach-after takes seconds: ", val, 0);
		o->detach_after++;
		return 0;
	}
	if (quiet_name(l->name) || !sg_strcmp(l->name, "decode-fds") ||
	    !sg_strcmp(l->name, "strings-in-hex") ||
	    !sg_strcmp(l->name, "syscall-times") ||
	    find(l->name, "timestamps"))
		return optional_value_opt(o, l->name, val);
	if (l->has_value == 1)
		return expr_opt(o, l->name, val);
	if (!sg_strcmp(l->name, "output-separately"))
		o->follow = 2;
	else if (!sg_strcmp(l->name, "stats"))
		o->stats = 1;
	else if (!sg_strcmp(l->name, "loader"))
		o->loader = 1, o->preload = 0;
	else if (!sg_strcmp(l->name, "preload"))
		o->preload = 1, o->loader = 0;
	else if (!sg_strcmp(l->name, "patch-all"))
		o->patch_all = 1;
	else if (!sg_strcmp(l->name, "eager"))
		o->eager = 1;
	else if (!sg_strcmp(l->name, "lazy"))
		o->eager = 0;
	else if (!sg_strcmp(l->name, "zeropage-readable-null"))
		o->zeropage_readable_null = 1;
	else if (!sg_strcmp(l->name, "list-syscalls"))
		o->list_syscalls = 1;
	else if (!sg_strcmp(l->name, "list-mechanisms"))
		o->list_mechanisms = 1;
	else if (!sg_strcmp(l->name, "pidns-translation"))
		o->decode_pids |= 2;
	/* --seccomp-bpf: sysgate needs no seccomp filter; accepted. */
	return 0;
}

int sg_options_parse(struct sg_options *o, int argc, char **argv)
{
	int i;

	o->strsize = 32;
	o->stub_reach = -1;
	o->mechanism = "patch";
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!sg_strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		if (a[1] == '-') {
			const char *eq = sg_strchr(a + 2, '=');
			size_t nlen = eq ? (size_t)(eq - a - 2) : sg_strlen(a + 2);
			const char *val = eq ? eq + 1 : 0;
			unsigned int k;

			/* "--hook X": value in the next word. */
			for (k = 0; !val && k < ARRAY_SIZE(long_opts); k++)
				if (long_opts[k].has_value == 1 &&
				    sg_strlen(long_opts[k].name) == nlen &&
				    !sg_strncmp(long_opts[k].name, a + 2, nlen) &&
				    i + 1 < argc)
					val = argv[++i];
			if (long_opt(o, a + 2, nlen, val))
				return -1;
			continue;
		}
		for (a++; *a; a++) {
			if (sg_strchr(short_with_value, *a)) {
				const char *val = a[1] ? a + 1 : 0;
				char s[2] = { *a, 0 };

				if (!val) {
					if (i + 1 >= argc)
						return fail(o, "option -", s,
							    " needs a value");
					val = argv[++i];
				}
				if (short_opt(o, *a, val))
					return -1;
				break;
			}
			if (short_opt(o, *a, 0))
				return -1;
		}
	}
	if (o->follow > 2)
		o->follow = 2;
	/* (the new program lets go of sysgate as it starts: in the
	 * loader, not past a seccomp filter, not in a tracer) */
	if (o->detach_execve && o->mechanism &&
	    (!sg_strcmp(o->mechanism, "seccomp") ||
	     !sg_strcmp(o->mechanism, "ptrace")))
		return fail(o, "-b execve is not available with -m ",
			    o->mechanism, "");
	if (o->detach_execve && !sg_options_loader(o))
		return fail(o, "-b execve needs the loader (not --preload, "
			       "--hook or -m preload)", 0, 0);
	if (o->hexstr_long) {
		if (o->hexstr)
			return fail(o, "-x and --strings-in-hex cannot be "
				       "provided simultaneously", 0, 0);
		o->hexstr = o->hexstr_long - 1;
		o->hexstr_long = 0;
	}
	if (o->follow == 2 && !o->outfile)
		return fail(o, "-ff needs -o FILE", 0, 0);
	if (o->daemonize > 3) {
		char n[24];

		return fail(o, "Too many -D's (",
			    sg_utoa(n + sizeof(n), o->daemonize),
			    "), maximum supported -D count is 3");
	}
	if (o->daemonize && o->outfile &&
	    (o->outfile[0] == '|' || o->outfile[0] == '!'))
		return fail(o, "-D with -o |COMMAND would leave the program "
			       "a child it did not make: not together", 0, 0);
	if (o->user && o->attach)
		return fail(o, "-u runs PROG as another user: not with -p", 0,
			    0);
	if (o->daemonize && o->attach)
		return fail(o, "PROG [ARGS] must be specified with "
			       "-D/--daemonize", 0, 0);
	if (o->daemonize && !sg_strcmp(o->mechanism, "ptrace"))
		return fail(o, "-D leaves the program this process, and "
			       "-m ptrace traces it from a child: not together",
			    0, 0);
	if ((o->decode_pids & 2) && !sg_strcmp(o->mechanism, "ptrace"))
		return fail(o, "--decode-pids=pidns translates in the traced "
			       "process: not with -m ptrace", 0, 0);
	if (o->stack_traces && !sg_strcmp(o->mechanism, "ptrace"))
		return fail(o, "-k unwinds in the traced process: not with "
			       "-m ptrace", 0, 0);
	if (o->fs_size && !o->fs)
		return fail(o, "--fs-size needs --fs", 0, 0);
	/* (-v only makes --json's structures whole) */
	if (o->json && (o->hexstr || o->decode_fds || o->xlat_style ||
			o->stack_traces || o->instruction_pointer ||
			o->numbers || o->column || o->relative ||
			o->dump_read || o->dump_write || o->decode_pids))
		return fail(o, "-x, -y, -Y, -X, -k, -i, -n, -a, -r, -e read=, "
			       "-e write= shape text lines: not with --json",
			    0, 0);
	o->nwords = i;
	return 0;
}

/*
 * Programs start through sysgate-loader, hooked from the first
 * instruction of ld.so (of _start for a static one), unless LD_PRELOAD is
 * asked for (--preload), or needed: by --hook libraries (the loader
 * cannot dlopen them) and by -m preload (libc's wrappers).  -m seccomp's
 * filter lets only the loader's text reach the kernel; -m ptrace needs
 * neither.
 */
int sg_options_loader(const struct sg_options *o)
{
	const char *m = o->mechanism ? o->mechanism : "";

	if (!sg_strcmp(m, "seccomp"))
		return 1;
	if (!sg_strcmp(m, "ptrace") || !sg_strcmp(m, "preload"))
		return 0;
	/* --fs on CephFS loads libcephfs with the program's own dlopen */
	if (o->fs && sg_strchr(o->fs, ':') &&
	    !sg_strncmp(sg_strchr(o->fs, ':') + 1, "ceph:", 5))
		return 0;
	return o->loader || !(o->preload || o->nhooks);
}

int sg_options_parse_string(struct sg_options *o, const char *s)
{
	static char words[SG_OPT_BUF];
	char *argv[256];
	int argc = 0;
	char *w = words, *end = words + sizeof(words) - 1;

	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		if (argc >= (int)ARRAY_SIZE(argv) - 1)
			return fail(o, "SYSGATE_OPTIONS has too many words", 0, 0);
		argv[argc++] = w;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			if (w >= end)
				return fail(o, "SYSGATE_OPTIONS is too long", 0, 0);
			if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					if (w < end)
						*w++ = *s;
				if (!*s)
					return fail(o, "SYSGATE_OPTIONS has an "
						       "unterminated quote", 0, 0);
				s++;
			} else if (*s == '\\' && s[1]) {
				*w++ = s[1];
				s += 2;
			} else {
				*w++ = *s++;
			}
		}
		*w++ = 0;
	}
	argv[argc] = 0;
	if (sg_options_parse(o, argc, argv))
		return -1;
	if (o->nwords != argc)
		return fail(o, "SYSGATE_OPTIONS: unexpected word '",
			    argv[o->nwords], "'");
	return 0;
}

static int plain(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || sg_strchr("-_=,.:/%+@!", *s)))
			return 0;
	return 1;
}

int sg_options_join(char *dst, unsigned long size, int argc, char **argv)
{
	unsigned long n = 0;
	int i;

#define PUT(c) do { if (n + 1 >= size) return -1; dst[n++] = (c); } while (0)
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (i)
			PUT(' ');
		if (plain(s)) {
			for (; *s; s++)
				PUT(*s);
			continue;
		}
		PUT('\'');
		for (; *s; s++) {
			if (*s == '\'') {
				PUT('\'');
				PUT('\\');
				PUT('\'');
				PUT('\'');
			} else {
				PUT(*s);
			}
		}
		PUT('\'');
	}
#undef PUT
	dst[n] = 0;
	return (int)n;
}

/* -p given more than one process: strace prefixes each line with its pid,
 * as under -f */
static int several_pids(const struct sg_options *o)
{
	return o->attach && sg_strchr(o->attach, ',');
}

static int put_item(char *dst, unsigned long size, unsigned long *n,
		    const char *key, const char *val)
{
	unsigned long k = sg_strlen(key), v = val ? sg_strlen(val) : 0;

	if (*n + k + v + 3 >= size)
		return -1;
	if (*n)
		dst[(*n)++] = '\x1f';
	memcpy(dst + *n, key, k);
	*n += k;
	if (val) {
		dst[(*n)++] = '=';
		memcpy(dst + *n, val, v);
		*n += v;
	}
	dst[*n] = 0;
	return 0;
}

static const char *num(char *buf, int v)
{
	return sg_utoa(buf + 16, v);
}

int sg_options_hook_args(const struct sg_options *o, const char *hook,
			 char *dst, unsigned long size)
{
	unsigned long n = 0;
	char b[16];
	int i;

	dst[0] = 0;
	if (!sg_strcmp(hook, "trace")) {
		if (o->count && !o->count_and_trace)
			return 0;
		/* --fs, --bypass and --hot are the action: trace only when
		 * asked to, by -e trace=, -C or, for --fs and --bypass, by
		 * naming an output (-o, --json).  --hot's report is its
		 * output. */
		if ((o->fs || o->bypass || o->hot) && !o->trace &&
		    !o->count_and_trace &&
		    (o->hot || (!o->outfile && !o->json)))
			return 0;
		/* -e trace=none: no calls, but the process events strace
		 * prints (exits, signals), unless -qq and -e signal=none
		 * leave nothing to print */
		if (o->trace && !sg_strcmp(o->trace, "none") &&
		    (o->quiet >= 2 || o->quiet_exit) && o->signals &&
		    !sg_strcmp(o->signals, "none"))
			return 0;
		if (put_item(dst, size, &n, "trace", o->trace ? o->trace : "all") ||
		    put_item(dst, size, &n, "s", num(b, o->strsize)) ||
		    put_item(dst, size, &n, "t", num(b, o->timestamps)) ||
		    (o->syscall_times && put_item(dst, size, &n, "T", 0)) ||
		    (o->ts_prec && put_item(dst, size, &n, "tp",
					    num(b, o->ts_prec - 1))) ||
		    (o->rel_prec && put_item(dst, size, &n, "rp",
					     num(b, o->rel_prec - 1))) ||
		    (o->dur_prec && put_item(dst, size, &n, "Tp",
					     num(b, o->dur_prec - 1))) ||
		    (o->json && put_item(dst, size, &n, "json", 0)) ||
		    (o->detach_execve && put_item(dst, size, &n, "b", 0)) ||
		    (o->follow == 1 && put_item(dst, size, &n, "f", 0)) ||
		    (!o->follow && put_item(dst, size, &n, "leader", 0)) ||
		    (o->follow == 1 && o->outfile &&
		     put_item(dst, size, &n, "pidcol", 0)) ||
		    (o->follow != 1 && several_pids(o) &&
		     (put_item(dst, size, &n, "pfx", 0) ||
		      (o->outfile && put_item(dst, size, &n, "pidcol", 0)))) ||
		    (o->hexstr && put_item(dst, size, &n, "x",
					   num(b, o->hexstr))) ||
		    (o->decode_fds && put_item(dst, size, &n,
					       o->decode_fds == 1 ? "y" :
					       o->decode_fds == 15 ? "yy" : "fds",
					       o->decode_fds == 1 ||
					       o->decode_fds == 15 ? 0 :
					       num(b, o->decode_fds))) ||
		    (o->relative && put_item(dst, size, &n, "r", 0)) ||
		    (o->decode_pids && put_item(dst, size, &n, "pids",
						num(b, o->decode_pids))) ||
		    (o->verbose && put_item(dst, size, &n, "v", 0)) ||
		    (o->stack_traces && put_item(dst, size, &n, "k", 0)) ||
		    (o->instruction_pointer && put_item(dst, size, &n, "i", 0)) ||
		    (o->xlat_style && put_item(dst, size, &n, "X",
					       o->xlat_style > 1 ? "verbose" :
								   "raw")) ||
		    ((o->quiet >= 2 || o->quiet_exit) &&
		     put_item(dst, size, &n, "noexit", 0)) ||
		    ((o->quiet >= 3 || o->quiet_super) &&
		     put_item(dst, size, &n, "nosuper", 0)) ||
		    (o->numbers && put_item(dst, size, &n, "n", 0)) ||
		    (o->column && put_item(dst, size, &n, "a",
					   num(b, o->column - 1))) ||
		    (o->status && put_item(dst, size, &n, "status", o->status)) ||
		    (o->abbrev && put_item(dst, size, &n, "abbrev", o->abbrev)) ||
		    (o->verbose_set && put_item(dst, size, &n, "verbose",
						o->verbose_set)) ||
		    (o->raw && put_item(dst, size, &n, "raw", o->raw)) ||
		    (o->signals && put_item(dst, size, &n, "signal", o->signals)) ||
		    (o->dump_read && put_item(dst, size, &n, "read",
					      o->dump_read)) ||
		    (o->dump_write && put_item(dst, size, &n, "write",
					       o->dump_write)))
			return -1;
		for (i = 0; i < o->npaths; i++)
			if (put_item(dst, size, &n, "P", o->paths[i]))
				return -1;
		return 1;
	}
	if (!sg_strcmp(hook, "count")) {
		if (!o->count)
			return 0;
		if (put_item(dst, size, &n, "trace", o->trace ? o->trace : "all") ||
		    (o->sortby && put_item(dst, size, &n, "S", o->sortby)) ||
		    (o->columns && put_item(dst, size, &n, "U", o->columns)) ||
		    (o->wall && put_item(dst, size, &n, "w", 0)) ||
		    (o->detach_execve && put_item(dst, size, &n, "b", 0)) ||
		    (o->overhead && put_item(dst, size, &n, "O", o->overhead)) ||
		    (!o->follow && put_item(dst, size, &n, "leader", 0)) ||
		    (o->json && put_item(dst, size, &n, "json", 0)))
			return -1;
		return 1;
	}
	if (!sg_strcmp(hook, "fs")) {
		const char *colon;
		char prefix[SG_OPT_BUF];

		if (!o->fs)
			return 0;
		colon = sg_strchr(o->fs, ':');
		sg_strlcpy(prefix, o->fs, colon ? (size_t)(colon - o->fs + 1) :
						  sizeof(prefix));
		if (put_item(dst, size, &n, "prefix", prefix) ||
		    (colon && put_item(dst, size, &n, "backing", colon + 1)) ||
		    (o->fs_size && put_item(dst, size, &n, "size", o->fs_size)))
			return -1;
		return 1;
	}
	if (!sg_strcmp(hook, "hot")) {
		if (!o->hot)
			return 0;
		if (put_item(dst, size, &n, "spec", o->hot) ||
		    (o->json && put_item(dst, size, &n, "json", 0)))
			return -1;
		return 1;
	}
	if (!sg_strcmp(hook, "bypass-track"))
		return o->bypass != 0;
	if (!sg_strcmp(hook, "bypass")) {
		if (!o->bypass)
			return 0;
		if (put_item(dst, size, &n, "list", o->bypass))
			return -1;
		return 1;
	}
	if (!sg_strcmp(hook, "inject")) {
		if (!o->ninject)
			return 0;
		/* As strace, tamper only with traced calls; -e trace=none,
		 * which strace would make inject nothing, is sysgate's way
		 * to inject without a trace (README). */
		if ((o->trace && sg_strcmp(o->trace, "none") &&
		     put_item(dst, size, &n, "trace", o->trace)) ||
		    (!o->follow && put_item(dst, size, &n, "leader", 0)))
			return -1;
		for (i = 0; i < o->ninject; i++)
			if (put_item(dst, size, &n, "spec", o->inject[i]))
				return -1;
		return 1;
	}
	return 0;
}
