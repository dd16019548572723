/* SPDX-License-Identifier: MIT */
/*
 * strace -c's table:
 *
 * % time     seconds  usecs/call     calls    errors syscall
 * ------ ----------- ----------- --------- --------- ----------------
 *  62.50    0.000050          50         1           execve
 * ...
 * ------ ----------- ----------- --------- --------- ----------------
 * 100.00    0.000080           2        31         2 total
 *
 * Times are the system CPU time of each call by default, wall-clock
 * times with -w (doc/count.md says how each is measured); -S sorts and
 * -U chooses columns with strace's names.  No floating point:
 * fixed-point on nanoseconds.
 */
#include "count.h"
#include "../lib/fmt.h"


/* Right-align the text produced by fn into width columns. */
static void col_udec(struct fmt *f, unsigned long v, int width, int blank0)
{
	char tmp[32];
	struct fmt t;
	int i;

	fmt_init(&t, tmp, sizeof(tmp));
	if (!(blank0 && !v))
		fmt_udec(&t, v);
	for (i = t.len; i < width; i++)
		fmt_chr(f, ' ');
	fmt_mem(f, tmp, t.len);
}

/* v / 10^scale with `decimals` decimals, rounded, right-aligned. */
static void col_fixed(struct fmt *f, unsigned long v, unsigned long scale,
		      int decimals, int width)
{
	unsigned long div = 1, ip, fp;
	char tmp[40];
	struct fmt t;
	int i;

	for (i = 0; i < decimals; i++)
		div *= 10;
	/* v is in units of 1/scale; round to 1/div */
	v = (v * div + scale / 2) / scale;
	ip = v / div;
	fp = v % div;
	fmt_init(&t, tmp, sizeof(tmp));
	fmt_udec(&t, ip);
	fmt_chr(&t, '.');
	fmt_pad(&t, fp, decimals);
	for (i = t.len; i < width; i++)
		fmt_chr(f, ' ');
	fmt_mem(f, tmp, t.len);
}

/* strace's names for each column (-U, -S), the first one canonical. */
static const char *const col_names[COL_N][6] = {
	[COL_PERCENT] = { "time-percent", "time_percent", "percent", "time" },
	[COL_TOTAL] = { "total-time", "total_time", "time-total",
			"time_total" },
	[COL_MIN] = { "min-time", "min_time", "shortest", "time-min",
		      "time_min" },
	[COL_MAX] = { "max-time", "max_time", "longest", "time-max",
		      "time_max" },
	[COL_AVG] = { "avg-time", "avg_time", "time-avg", "time_avg" },
	[COL_CALLS] = { "calls", "count" },
	[COL_ERRORS] = { "errors", "error" },
	[COL_NAME] = { "name", "syscall", "syscall-name", "syscall_name" },
	[COL_NOTHING] = { "nothing", "none" },
};

/* Header and width of each column as strace prints them. */
static const struct {
	const char *head;
	int width;
} cols[COL_N] = {
	[COL_PERCENT] = { "% time", 6 },
	[COL_TOTAL] = { "seconds", 11 },
	[COL_MIN] = { "shortest", 8 },
	[COL_MAX] = { "longest", 8 },
	[COL_AVG] = { "usecs/call", 11 },
	[COL_CALLS] = { "calls", 9 },
	[COL_ERRORS] = { "errors", 9 },
	[COL_NAME] = { "syscall", 16 },
};

static int col_of(const char *v, unsigned long n)
{
	int c, i;

	for (c = 0; c < COL_N; c++)
		for (i = 0; i < 6 && col_names[c][i]; i++)
			if (hk_strlen(col_names[c][i]) == n &&
			    !hk_strncmp(col_names[c][i], v, n))
				return c;
	return -1;
}

int count_sort_key(const char *v, unsigned long n)
{
	return col_of(v, n);
}

/* -U LIST as columns; name is added last when not given.  The count,
 * or -1. */
static int parse_columns(const char *v, unsigned char *out)
{
	static const unsigned char dflt[] = { COL_PERCENT, COL_TOTAL, COL_AVG,
					      COL_CALLS, COL_ERRORS,
					      COL_NAME };
	int n = 0, name = 0, c, i;

	if (!v) {
		for (i = 0; i < 6; i++)
			out[i] = dflt[i];
		return 6;
	}
	while (*v) {
		const char *e = v;

		while (*e && *e != ',')
			e++;
		c = col_of(v, e - v);
		if (c < 0 || c == COL_NOTHING || n >= COL_N)
			return -1;
		name |= c == COL_NAME;
		out[n++] = c;
		v = *e ? e + 1 : e;
	}
	if (!name)
		out[n++] = COL_NAME;
	return n;
}

int count_check_columns(const char *v)
{
	unsigned char c[COL_N + 1];

	return parse_columns(v, c) < 0 ? -1 : 0;
}

/* x * n / d without overflow, for n and d below 2^32. */
static unsigned long mul_div(unsigned long x, unsigned long n, unsigned long d)
{
	return x / d * n + x % d * n / d;
}

/*
 * The table with every time in nanoseconds: ticks at the rate between the
 * anchor and now (0 where that rate is unknown: no process had a counter,
 * or this one has none).
 */
static const struct count_table *in_ns(const struct count_table *t)
{
	static struct count_table f;
	unsigned long long now_ns = sysgate_now_ns(), now = sysgate_ticks();
	unsigned long dt = t->anchor_ticks && now > t->anchor_ticks ?
		now - t->anchor_ticks : 0;
	unsigned long dn = dt && now_ns > t->anchor_ns ?
		now_ns - t->anchor_ns : 0;
	int i;

	while (dt >> 32 || dn >> 32) {
		dt >>= 1;
		dn >>= 1;
	}
	hk_memcpy(f.used, t->used, sizeof(f.used));
	for (i = 0; i < SYSGATE_NR_MAX; i++) {
		const struct count_row *r = &t->row[i];
		struct count_row *w = &f.row[i];
		unsigned long lo, hi;

		if (!(t->used[i / (8 * sizeof(long))] >>
		      (i % (8 * sizeof(long))) & 1))
			continue;	/* (its page may be untouched) */
		*w = *r;
		if (!r->min_ticks1)
			continue;
		lo = dt ? mul_div(r->min_ticks1 - 1, dn, dt) : 0;
		hi = dt ? mul_div(r->max_ticks, dn, dt) : 0;
		w->ns += dt ? mul_div(r->ticks, dn, dt) : 0;
		if (!w->min_ns1 || lo + 1 < w->min_ns1)
			w->min_ns1 = lo + 1;
		if (hi > w->max_ns)
			w->max_ns = hi;
	}
	return &f;
}

static unsigned long min_of(const struct count_table *t, int k)
{
	return t->row[k].min_ns1 ? t->row[k].min_ns1 - 1 : 0;
}

static unsigned long avg_of(unsigned long ns, unsigned long calls)
{
	return calls ? ns / 1000 / calls : 0;
}

/* The value a row sorts by (larger first). */
static unsigned long key(const struct count_table *t, int k, int by)
{
	switch (by) {
	case COL_MIN: return min_of(t, k);
	case COL_MAX: return t->row[k].max_ns;
	case COL_AVG:
		return t->row[k].calls ? t->row[k].ns / t->row[k].calls : 0;
	case COL_CALLS: return t->row[k].calls;
	case COL_ERRORS: return t->row[k].errors;
	default: return t->row[k].ns;
	}
}

static int before(const struct count_table *t, int a, int b, int by)
{
	if (by == COL_NOTHING)
		return a < b;
	if (by != COL_NAME) {
		if (key(t, a, by) != key(t, b, by))
			return key(t, a, by) > key(t, b, by);
		if (t->row[a].calls != t->row[b].calls)
			return t->row[a].calls > t->row[b].calls;
	}
	return hk_strcmp(sysgate_syscall_name(a) ? sysgate_syscall_name(a) : "",
			 sysgate_syscall_name(b) ? sysgate_syscall_name(b) : "") < 0;
}

static void row_name(struct fmt *f, int nr)
{
	const char *nm = sysgate_syscall_name(nr);

	if (nm) {
		fmt_str(f, nm);
	} else {
		fmt_str(f, "syscall_");
		fmt_udec(f, nr);
	}
}

/* Spaces after a left-aligned cell that started at from. */
static void pad(struct fmt *f, unsigned long from, int width)
{
	long i;

	for (i = (long)(f->len - from); i < width; i++)
		fmt_chr(f, ' ');
}

/* One row's cells (k < 0: the total row, with these totals). */
struct row {
	unsigned long ns, calls, errors, min, max, pct_num, pct_den;
	int nr;
};

static void put_row(struct fmt *f, const unsigned char *c, int n,
		    const struct row *r)
{
	int i;

	for (i = 0; i < n; i++) {
		int w = cols[c[i]].width;
		unsigned long start;

		if (i)
			fmt_chr(f, ' ');
		start = f->len;
		switch (c[i]) {
		case COL_PERCENT:
			if (r->nr < 0)
				fmt_str(f, "100.00");
			else
				col_fixed(f, r->pct_den ? r->pct_num * 100 : 0,
					  r->pct_den ? r->pct_den : 1, 2, w);
			break;
		case COL_TOTAL:
			col_fixed(f, r->ns, 1000000000UL, 6, w);
			break;
		case COL_MIN:
			col_fixed(f, r->min, 1000000000UL, 6, w);
			break;
		case COL_MAX:
			col_fixed(f, r->max, 1000000000UL, 6, w);
			break;
		case COL_AVG:
			col_udec(f, avg_of(r->ns, r->calls), w, 0);
			break;
		case COL_CALLS:
			col_udec(f, r->calls, w, 0);
			break;
		case COL_ERRORS:
			col_udec(f, r->errors, w, 1);
			break;
		case COL_NAME:
			if (r->nr < 0)
				fmt_str(f, "total");
			else
				row_name(f, r->nr);
			/* (left-aligned; the last column is not padded) */
			if (i < n - 1)
				pad(f, start, w);
			break;
		}
	}
	fmt_chr(f, '\n');
}

static void put_head(struct fmt *f, const unsigned char *c, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		const char *h = cols[c[i]].head;
		int w = cols[c[i]].width;

		if (i)
			fmt_chr(f, ' ');
		if (c[i] == COL_NAME) {
			fmt_str(f, h);
			if (i < n - 1)
				for (j = hk_strlen(h); j < w; j++)
					fmt_chr(f, ' ');
			continue;
		}
		for (j = hk_strlen(h); j < w; j++)
			fmt_chr(f, ' ');
		fmt_str(f, h);
	}
	fmt_chr(f, '\n');
}

static void put_rule(struct fmt *f, const unsigned char *c, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (i)
			fmt_chr(f, ' ');
		for (j = 0; j < cols[c[i]].width; j++)
			fmt_chr(f, '-');
	}
	fmt_chr(f, '\n');
}

static void json_summary(struct fmt *f, const struct count_table *t,
			 const int *order, int n, const struct row *tot,
			 int wall)
{
	int i;

	fmt_str(f, "{\"type\":\"summary\",\"wall\":");
	fmt_str(f, wall ? "true" : "false");
	fmt_str(f, ",\"rows\":[");
	for (i = 0; i < n; i++) {
		int k = order[i];

		fmt_str(f, i ? ",{\"name\":\"" : "{\"name\":\"");
		row_name(f, k);
		fmt_str(f, "\",\"nr\":");
		fmt_udec(f, k);
		fmt_str(f, ",\"calls\":");
		fmt_udec(f, t->row[k].calls);
		fmt_str(f, ",\"errors\":");
		fmt_udec(f, t->row[k].errors);
		fmt_str(f, ",\"total_ns\":");
		fmt_udec(f, t->row[k].ns);
		fmt_str(f, ",\"min_ns\":");
		fmt_udec(f, min_of(t, k));
		fmt_str(f, ",\"max_ns\":");
		fmt_udec(f, t->row[k].max_ns);
		fmt_chr(f, '}');
	}
	fmt_str(f, "],\"total\":{\"calls\":");
	fmt_udec(f, tot->calls);
	fmt_str(f, ",\"errors\":");
	fmt_udec(f, tot->errors);
	fmt_str(f, ",\"total_ns\":");
	fmt_udec(f, tot->ns);
	fmt_str(f, "}}\n");
}

unsigned long count_summary(const struct count_table *t,
			    const struct count_format *o, char *buf,
			    unsigned long cap)
{
	static int order[SYSGATE_NR_MAX];
	unsigned char c[COL_N + 1];
	struct row tot = { 0, 0, 0, ~0UL, 0, 0, 0, -1 };
	int by = o->sortby ? count_sort_key(o->sortby, hk_strlen(o->sortby)) :
			     COL_TOTAL;
	int n = 0, ncol = parse_columns(o->columns, c), i, j;
	struct fmt f;

	t = in_ns(t);
	if (ncol < 0)
		ncol = parse_columns(0, c);
	for (i = 0; i < SYSGATE_NR_MAX; i++) {
		if (!(t->used[i / (8 * sizeof(long))] >>
		      (i % (8 * sizeof(long))) & 1) ||
		    (!t->row[i].calls && !t->row[i].errors))
			continue;
		tot.ns += t->row[i].ns;
		tot.calls += t->row[i].calls;
		tot.errors += t->row[i].errors;
		if (min_of(t, i) < tot.min)
			tot.min = min_of(t, i);
		if (t->row[i].max_ns > tot.max)
			tot.max = t->row[i].max_ns;
		for (j = n; j > 0 && before(t, i, order[j - 1], by); j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	if (!n)
		tot.min = 0;
	fmt_init(&f, buf, cap);
	if (o->json) {
		json_summary(&f, t, order, n, &tot, o->wall);
		return f.len;
	}
	put_head(&f, c, ncol);
	put_rule(&f, c, ncol);
	for (i = 0; i < n; i++) {
		int k = order[i];
		const struct count_row *w = &t->row[k];
		struct row r = { w->ns, w->calls, w->errors, min_of(t, k),
				 w->max_ns, w->ns, tot.ns, k };

		put_row(&f, c, ncol, &r);
	}
	put_rule(&f, c, ncol);
	put_row(&f, c, ncol, &tot);
	return f.len;
}
