/* SPDX-License-Identifier: MIT */
#include "args.h"
#include "fmt.h"

int args_next(const char **cursor, struct arg *a)
{
	const char *p = *cursor, *end, *eq;

	while (*p == '\x1f')
		p++;
	if (!*p)
		return 0;
	end = p;
	while (*end && *end != '\x1f')
		end++;
	for (eq = p; eq < end && *eq != '='; eq++)
		;
	a->key = p;
	a->klen = eq - p;
	a->val = eq < end ? eq + 1 : 0;
	a->vlen = eq < end ? (size_t)(end - eq - 1) : 0;
	*cursor = end;
	return 1;
}

int arg_is(const struct arg *a, const char *key)
{
	return a->klen == hk_strlen(key) && !hk_strncmp(a->key, key, a->klen);
}

int arg_same_nocase(const char *name, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && name[i]; i++)
		if ((name[i] | 0x20) != (s[i] | 0x20))
			return 0;
	return i == n && !name[i];
}

/*
 * A time as strace takes it (inject's delays, -c's -O), into nanoseconds,
 * without floating point (hooks run FPU-free): digits with an optional
 * point, an optional exponent, an optional unit.  -1 when invalid or too
 * large.
 */
int arg_duration_ns(const char *s, size_t n, long *ns)
{
	static const struct {
		const char *name;
		int pow10;
	} units[] = { { "s", 9 }, { "ms", 6 }, { "us", 3 }, { "ns", 0 },
		      { "", 3 } };
	unsigned long m = 0;
	size_t i = 0, u;
	int pow = 0, digits = 0, point = 0;
	long e = 0;

	if (i < n && s[i] == '+')
		i++;
	for (; i < n && ((s[i] >= '0' && s[i] <= '9') ||
			 (s[i] == '.' && !point)); i++) {
		if (s[i] == '.') {
			point = 1;
			continue;
		}
		digits++;
		if (m > (~0UL >> 1) / 10)
			return -1;
		m = m * 10 + (s[i] - '0');
		pow -= point;
	}
	if (!digits)
		return -1;
	if (i < n && (s[i] | 0x20) == 'e') {
		size_t j = ++i;

		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (hk_parse_long(s + j, i - j, &e) || e > 30 || e < -30)
			return -1;
	}
	for (u = 0; u < sizeof(units) / sizeof(*units); u++)
		if (arg_same_nocase(units[u].name, s + i, n - i))
			break;
	if (u == sizeof(units) / sizeof(*units))
		return -1;
	for (pow += e + units[u].pow10; pow > 0; pow--) {
		if (m > (~0UL >> 1) / 10)
			return -1;
		m *= 10;
	}
	for (; pow < 0; pow++)
		m /= 10;
	*ns = (long)m;
	return 0;
}
