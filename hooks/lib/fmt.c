/* SPDX-License-Identifier: MIT */
#include "fmt.h"

__attribute__((hot))
void fmt_init(struct fmt *f, char *buf, size_t cap)
{
	f->buf = buf;
	f->len = 0;
	f->cap = cap;
	f->full = 0;
	f->depth = 0;
}

__attribute__((hot))
char *fmt_bad_value(char *buf, size_t size, const char *what,
		    const char *val, size_t vlen)
{
	struct fmt f;

	fmt_init(&f, buf, size - 1);
	fmt_str(&f, what);
	fmt_str(&f, " '");
	fmt_mem(&f, val, vlen);
	fmt_chr(&f, '\'');
	buf[f.len] = 0;
	return buf;
}

void fmt_mem(struct fmt *f, const char *s, size_t n)
{
	size_t room = f->cap - f->len;

	if (n > room) {
		n = room;
		f->full = 1;
	}
	hk_memcpy(f->buf + f->len, s, n);
	f->len += n;
}

__attribute__((hot))
void fmt_str(struct fmt *f, const char *s)
{
	/* one pass, not a length and then a copy */
	char *d = f->buf + f->len, *end = f->buf + f->cap;

	while (*s && d < end)
		*d++ = *s++;
	f->len = d - f->buf;
	if (*s)
		f->full = 1;
}

__attribute__((hot))
void fmt_udec(struct fmt *f, unsigned long v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	/* from the last digit, then one copy (not a check per digit) */
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	fmt_mem(f, p, tmp + sizeof(tmp) - p);
}

__attribute__((hot))
void fmt_dec(struct fmt *f, long v)
{
	if (v < 0) {
		fmt_chr(f, '-');
		fmt_udec(f, -(unsigned long)v);
	} else {
		fmt_udec(f, v);
	}
}

__attribute__((hot))
void fmt_pad(struct fmt *f, unsigned long v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v || tmp + sizeof(tmp) - p < width);
	fmt_mem(f, p, tmp + sizeof(tmp) - p);
}

__attribute__((hot))
void fmt_hex(struct fmt *f, unsigned long v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	fmt_mem(f, p, tmp + sizeof(tmp) - p);
}

__attribute__((hot))
void fmt_oct(struct fmt *f, unsigned long v)
{
	char tmp[24];
	int i = 0;

	do {
		tmp[i++] = '0' + (v & 7);
		v >>= 3;
	} while (v);
	fmt_chr(f, '0');
	while (i)
		fmt_chr(f, tmp[--i]);
}

__attribute__((hot))
void fmt_quoted(struct fmt *f, const unsigned char *s, size_t n, int json)
{
	fmt_chr(f, '"');
	fmt_quoted_esc(f, s, n, json ? 0 : "");
	fmt_chr(f, '"');
}

/* esc 0: JSON's escapes; hex: an unprintable byte as \x.., not octal
 * (strace --strings-in-hex=non-ascii-chars) */
__attribute__((hot))
static void quoted(struct fmt *f, const unsigned char *s, size_t n,
		   const char *esc, int hex)
{
	int json = !esc;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];
		const char *e;

		switch (c) {
		case '"': fmt_str(f, "\\\""); continue;
		case '\\': fmt_str(f, "\\\\"); continue;
		case '\n': fmt_str(f, "\\n"); continue;
		case '\t': fmt_str(f, "\\t"); continue;
		case '\r': fmt_str(f, "\\r"); continue;
		case '\f': fmt_str(f, "\\f"); continue;
		case '\v':
			fmt_str(f, json ? "\\u000b" : "\\v");
			continue;
		}
		for (e = esc; e && *e && *e != (char)c; e++)
			;
		if (c >= 0x20 && c < 0x7f && !(e && *e)) {
			fmt_chr(f, c);
		} else if (json || hex) {
			fmt_str(f, json ? "\\u00" : "\\x");
			fmt_chr(f, "0123456789abcdef"[c >> 4]);
			fmt_chr(f, "0123456789abcdef"[c & 15]);
		} else {
			/* strace: octal, shortest form unless a digit follows */
			int next_digit = i + 1 < n && s[i + 1] >= '0' &&
					 s[i + 1] <= '7';

			fmt_chr(f, '\\');
			if (c >= 64 || next_digit)
				fmt_chr(f, '0' + (c >> 6));
			if (c >= 8 || next_digit)
				fmt_chr(f, '0' + ((c >> 3) & 7));
			fmt_chr(f, '0' + (c & 7));
		}
	}
}

__attribute__((hot))
void fmt_quoted_esc(struct fmt *f, const unsigned char *s, size_t n,
		    const char *esc)
{
	quoted(f, s, n, esc, 0);
}

void fmt_quoted_hex(struct fmt *f, const unsigned char *s, size_t n)
{
	fmt_chr(f, '"');
	quoted(f, s, n, "", 1);
	fmt_chr(f, '"');
}

__attribute__((hot))
void fmt_flags(struct fmt *f, unsigned long v, const struct fmt_flag *tab,
	       int n, const char *zero)
{
	int i, any = 0;

	for (i = 0; i < n; i++) {
		if (tab[i].value && (v & tab[i].value) == tab[i].value) {
			if (any)
				fmt_chr(f, '|');
			fmt_str(f, tab[i].name);
			v &= ~tab[i].value;
			any = 1;
		}
	}
	if (v || !any) {
		if (any)
			fmt_chr(f, '|');
		if (!v && zero)
			fmt_str(f, zero);
		else
			fmt_hex(f, v);
	}
}

__attribute__((hot))
size_t hk_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int hk_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int hk_strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

__attribute__((hot))
void hk_memcpy(void *d, const void *s, size_t n)
{
	char *dp = d;
	const char *sp = s;

	while (n--)
		*dp++ = *sp++;
}

void hk_memset(void *d, int c, size_t n)
{
	char *dp = d;

	while (n--)
		*dp++ = (char)c;
}

int hk_parse_long(const char *s, size_t n, long *v)
{
	long x = 0;
	int neg = 0;
	size_t i = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > 0x0fffffffffffffffL / 10)
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	*v = neg ? -x : x;
	return 0;
}
