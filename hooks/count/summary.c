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
 * Times are wall-clock times measured in the process around each call
 * (strace -c -w).  No floating point: fixed-point on nanoseconds.
 */
#include "count.h"
#include "../lib/fmt.h"

static const char rule[] =
	"------ ----------- ----------- --------- --------- ----------------\n";

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

static int before(const struct count_table *t, int a, int b, char by)
{
	switch (by) {
	case 'c':
		if (t->calls[a] != t->calls[b])
			return t->calls[a] > t->calls[b];
		break;
	case 'e':
		if (t->errors[a] != t->errors[b])
			return t->errors[a] > t->errors[b];
		break;
	case 'n':
		break;
	case 'x':
		return a < b;
	default:
		if (t->ns[a] != t->ns[b])
			return t->ns[a] > t->ns[b];
		if (t->calls[a] != t->calls[b])
			return t->calls[a] > t->calls[b];
		break;
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

unsigned long count_summary(const struct count_table *t, const char *sortby,
			    int json, char *buf, unsigned long cap)
{
	static int order[SYSGATE_NR_MAX];
	unsigned long total_ns = 0, total_calls = 0, total_errors = 0;
	char by = sortby ? sortby[0] : 't';
	struct fmt f;
	int n = 0, i, j;

	if (sortby && !hk_strcmp(sortby, "nothing"))
		by = 'x';
	for (i = 0; i < SYSGATE_NR_MAX; i++) {
		if (!t->calls[i] && !t->errors[i])
			continue;
		total_ns += t->ns[i];
		total_calls += t->calls[i];
		total_errors += t->errors[i];
		for (j = n; j > 0 && before(t, i, order[j - 1], by); j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	fmt_init(&f, buf, cap);
	if (json) {
		fmt_str(&f, "{\"type\":\"summary\",\"wall\":true,\"rows\":[");
		for (i = 0; i < n; i++) {
			int k = order[i];

			fmt_str(&f, i ? ",{\"name\":\"" : "{\"name\":\"");
			row_name(&f, k);
			fmt_str(&f, "\",\"nr\":");
			fmt_udec(&f, k);
			fmt_str(&f, ",\"calls\":");
			fmt_udec(&f, t->calls[k]);
			fmt_str(&f, ",\"errors\":");
			fmt_udec(&f, t->errors[k]);
			fmt_str(&f, ",\"total_ns\":");
			fmt_udec(&f, t->ns[k]);
			fmt_chr(&f, '}');
		}
		fmt_str(&f, "],\"total\":{\"calls\":");
		fmt_udec(&f, total_calls);
		fmt_str(&f, ",\"errors\":");
		fmt_udec(&f, total_errors);
		fmt_str(&f, ",\"total_ns\":");
		fmt_udec(&f, total_ns);
		fmt_str(&f, "}}\n");
		return f.len;
	}
	fmt_str(&f, "% time     seconds  usecs/call     calls    errors syscall\n");
	fmt_str(&f, rule);
	for (i = 0; i < n; i++) {
		int k = order[i];

		col_fixed(&f, total_ns ? t->ns[k] * 100 : 0,
			  total_ns ? total_ns : 1, 2, 6);
		fmt_chr(&f, ' ');
		col_fixed(&f, t->ns[k], 1000000000UL, 6, 11);
		fmt_chr(&f, ' ');
		col_udec(&f, t->calls[k] ? t->ns[k] / 1000 / t->calls[k] : 0,
			 11, 0);
		fmt_chr(&f, ' ');
		col_udec(&f, t->calls[k], 9, 0);
		fmt_chr(&f, ' ');
		col_udec(&f, t->errors[k], 9, 1);
		fmt_chr(&f, ' ');
		row_name(&f, k);
		fmt_chr(&f, '\n');
	}
	fmt_str(&f, rule);
	fmt_str(&f, "100.00 ");
	col_fixed(&f, total_ns, 1000000000UL, 6, 11);
	fmt_chr(&f, ' ');
	col_udec(&f, total_calls ? total_ns / 1000 / total_calls : 0, 11, 0);
	fmt_chr(&f, ' ');
	col_udec(&f, total_calls, 9, 0);
	fmt_chr(&f, ' ');
	col_udec(&f, total_errors, 9, 1);
	fmt_str(&f, " total\n");
	return f.len;
}
