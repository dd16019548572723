/* SPDX-License-Identifier: MIT */
/*
 * --json's arguments: the decoders' text (strace's grammar) read back as
 * JSON values, so every decoder's structures reach --json without a
 * second printer per call:
 *
 *   "text"...           a string (C escapes undone), "..." appended when cut
 *   {k=v, ...}          an object ({"k":v,"...":true}); {a, b} an array
 *   [a, b] / [A B]      an array; ~[A B] {"not":[...]}
 *   -12, 0, 34          numbers
 *   NULL                null
 *   anything else       a string: 0x7ffd..., O_RDONLY|O_CLOEXEC, 0644,
 *                       htons(80), makedev(0x1, 0x3)
 *   v / * c * /         {"value":v,"comment":"c"}
 *   a => b              {"in":a,"out":b} (sendfile's offset, clone3's struct)
 *   name=v (clone's)    {"name":v}
 *
 * Text this cannot read (a line cut at its size limit) is one string.
 * No libc: this runs inside system calls.
 */
#include "trace.h"

struct rd {
	const char *p, *end;
	struct fmt *out;
	int bad;
};

static int at(const struct rd *r, const char *s)
{
	size_t n = hk_strlen(s);

	return (size_t)(r->end - r->p) >= n && !hk_strncmp(r->p, s, n);
}

static void spaces(struct rd *r)
{
	while (r->p < r->end && *r->p == ' ')
		r->p++;
}

static int ident_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* "name=" (not "=="): the name's length, or 0. */
static size_t key_len(const struct rd *r)
{
	const char *q = r->p;

	if (q >= r->end || !ident_char(*q, 1))
		return 0;
	while (q < r->end && ident_char(*q, 0))
		q++;
	if (q + 1 < r->end && q[0] == '=' && q[1] != '=')
		return (size_t)(q - r->p);
	if (q + 1 == r->end && q[0] == '=')
		return (size_t)(q - r->p);
	return 0;
}

static int octal(char c)
{
	return c >= '0' && c <= '7';
}

/* A quoted string, its escapes undone, then JSON-quoted. */
static void string(struct rd *r)
{
	unsigned char b[4096];
	size_t n = 0;

	r->p++;
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;

		if (c == '\\' && r->p < r->end) {
			c = (unsigned char)*r->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			case 'x': {
				int k;

				for (c = 0, k = 0; k < 2 && r->p < r->end; k++) {
					char h = *r->p++;

					c = (unsigned char)(c << 4 |
						(h <= '9' ? h - '0' : (h | 32) - 'a' + 10));
				}
				break;
			}
			default:
				if (octal((char)c)) {
					int k;

					c -= '0';
					for (k = 1; k < 3 && r->p < r->end &&
						    octal(*r->p); k++)
						c = (unsigned char)(c * 8 + (*r->p++ - '0'));
				}
			}
		}
		if (n < sizeof(b) - 3)
			b[n++] = c;
	}
	if (r->p >= r->end) {
		r->bad = 1;
		return;
	}
	r->p++;
	if (at(r, "...")) {
		r->p += 3;
		b[n++] = '.', b[n++] = '.', b[n++] = '.';
	}
	fmt_quoted(r->out, b, n, 1);
}

static int is_number(const char *s, size_t n)
{
	size_t i = s[0] == '-';

	if (i == n || (s[i] == '0' && n > i + 1) || n > 20)
		return 0;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* A bare word up to the next ',', '}' or ']' outside parentheses and
 * quotes (or ' ' between set members, when words_end). */
static void scalar(struct rd *r, int words_end)
{
	const char *s = r->p;
	int depth = 0, quoted = 0;
	size_t n;

	for (; r->p < r->end; r->p++) {
		char c = *r->p;

		if (quoted) {
			if (c == '\\')
				r->p++;
			else if (c == '"')
				quoted = 0;
			continue;
		}
		if (c == '"')
			quoted = 1;
		else if (c == '(')
			depth++;
		else if (c == ')' && depth)
			depth--;
		else if (!depth && (c == ',' || c == '}' || c == ']' ||
				    (c == ' ' && (words_end || at(r, " /*")))))
			break;
	}
	n = (size_t)(r->p - s);
	if (!n || quoted) {
		r->bad = 1;
		return;
	}
	if (n == 4 && !hk_strncmp(s, "NULL", 4))
		fmt_str(r->out, "null");
	else if (is_number(s, n))
		fmt_mem(r->out, s, n);
	else
		fmt_quoted(r->out, (const unsigned char *)s, n, 1);
}

static void value(struct rd *r, int words_end);

/* Members up to close: an object when the first has a name. */
static void members(struct rd *r, char close)
{
	int object = close == '}' && key_len(r) > 0, i = 0;

	fmt_chr(r->out, object ? '{' : '[');
	spaces(r);
	while (!r->bad && r->p < r->end && *r->p != close) {
		size_t k = key_len(r);

		if (i)
			fmt_chr(r->out, ',');
		if (object) {
			fmt_chr(r->out, '"');
			if (k) {
				fmt_mem(r->out, r->p, k);
				r->p += k + 1;
			} else if (at(r, "...")) {
				fmt_str(r->out, "...\":true");
				r->p += 3;
				goto next;
			} else {
				fmt_udec(r->out, (unsigned long)i);
			}
			fmt_str(r->out, "\":");
		}
		value(r, close == ']');
next:
		i++;
		spaces(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			spaces(r);
		}
	}
	if (r->p >= r->end) {
		r->bad = 1;
		return;
	}
	r->p++;
	fmt_chr(r->out, object ? '}' : ']');
}

/* Moves what was written from start on to after prefix. */
static void insert(struct fmt *f, size_t start, const char *prefix)
{
	size_t n = hk_strlen(prefix), i;

	if (f->len + n > f->cap) {
		f->full = 1;
		return;
	}
	for (i = f->len; i > start; i--)
		f->buf[i - 1 + n] = f->buf[i - 1];
	hk_memcpy(f->buf + start, prefix, n);
	f->len += n;
}

static void value(struct rd *r, int words_end)
{
	size_t start = r->out->len;

	spaces(r);
	if (r->p >= r->end) {
		r->bad = 1;
		return;
	}
	if (*r->p == '"') {
		string(r);
	} else if (*r->p == '{' || *r->p == '[') {
		r->p++;
		members(r, r->p[-1] == '{' ? '}' : ']');
	} else if (at(r, "~[")) {
		r->p += 2;
		fmt_str(r->out, "{\"not\":");
		members(r, ']');
		fmt_chr(r->out, '}');
	} else if (at(r, "...")) {
		r->p += 3;
		fmt_str(r->out, "\"...\"");
	} else {
		scalar(r, words_end);
	}
	if (!r->bad && at(r, " => ")) {
		/* what the call read, then what it wrote back */
		insert(r->out, start, "{\"in\":");
		fmt_str(r->out, ",\"out\":");
		r->p += 4;
		value(r, words_end);
		fmt_chr(r->out, '}');
	}
	if (r->bad || !at(r, " /* "))
		return;
	{
		const char *c = r->p + 4, *e = c;

		while (e + 1 < r->end && !(e[0] == '*' && e[1] == '/'))
			e++;
		if (e + 1 >= r->end || e == c || e[-1] != ' ') {
			r->bad = 1;
			return;
		}
		insert(r->out, start, "{\"value\":");
		fmt_str(r->out, ",\"comment\":");
		fmt_quoted(r->out, (const unsigned char *)c, (size_t)(e - 1 - c),
			   1);
		fmt_chr(r->out, '}');
		r->p = e + 2;
	}
}

/* Where the argument starting at p ends: the next ", " outside brackets,
 * parentheses and quotes, or end. */
static const char *arg_end(const char *p, const char *end)
{
	int depth = 0, quoted = 0;

	for (; p < end; p++) {
		if (quoted) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				quoted = 0;
			continue;
		}
		if (*p == '"')
			quoted = 1;
		else if (*p == '{' || *p == '[' || *p == '(')
			depth++;
		else if ((*p == '}' || *p == ']' || *p == ')') && depth)
			depth--;
		else if (!depth && *p == ',' && p + 1 < end && p[1] == ' ')
			return p;
	}
	return end;
}

void json_args(struct fmt *out, const char *text, size_t n)
{
	const char *p = text, *end = text + n;
	int i = 0;

	fmt_chr(out, '[');
	while (p < end) {
		const char *e = arg_end(p, end);
		struct rd r = { p, e, out, 0 };
		size_t start = out->len, k;

		if (i++)
			fmt_chr(out, ',');
		k = key_len(&r);
		if (k) {
			fmt_str(out, "{\"");
			fmt_mem(out, p, k);
			fmt_str(out, "\":");
			r.p += k + 1;
		}
		value(&r, 0);
		if (k)
			fmt_chr(out, '}');
		if (r.bad || r.p != e) {
			/* not strace's grammar after all: the text */
			out->len = start + (i > 1);
			fmt_quoted(out, (const unsigned char *)p,
				   (size_t)(e - p), 1);
		}
		p = e < end ? e + 2 : end;
	}
	fmt_chr(out, ']');
}
