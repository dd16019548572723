/* SPDX-License-Identifier: MIT */
/*
 * Freestanding line building for the built-in hooks: they run inside
 * system calls, on any thread, possibly while the program holds libc's
 * locks, so they use no libc at all.  A struct fmt never overflows: output
 * past the end is dropped and ->full is set.
 */
#ifndef SG_HOOK_FMT_H
#define SG_HOOK_FMT_H

#include <stddef.h>

struct fmt {
	char *buf;
	size_t len, cap;
	int full;
	int depth;	/* (trace -X: open symbolic groups) */
};

void fmt_init(struct fmt *f, char *buf, size_t cap);
/* "WHAT 'VALUE'" into buf, NUL-terminated (strace's words for a bad
 * option value: "invalid signal 'X'"); returns buf */
char *fmt_bad_value(char *buf, size_t size, const char *what,
		    const char *val, size_t vlen);
void fmt_mem(struct fmt *f, const char *s, size_t n);

/* (inline: a traced call's line is built a character at a time in
 * places, and a call per character was a tenth of its cost) */
static inline void fmt_chr(struct fmt *f, char c)
{
	if (f->len < f->cap)
		f->buf[f->len++] = c;
	else
		f->full = 1;
}
void fmt_str(struct fmt *f, const char *s);
void fmt_dec(struct fmt *f, long v);
void fmt_udec(struct fmt *f, unsigned long v);
void fmt_hex(struct fmt *f, unsigned long v);	/* 0x... */
void fmt_oct(struct fmt *f, unsigned long v);	/* 0644 style */
/* Zero-padded decimal of at least width digits. */
void fmt_pad(struct fmt *f, unsigned long v, int width);
/* strace-style quoted bytes; json selects JSON escaping. */
void fmt_quoted(struct fmt *f, const unsigned char *s, size_t n, int json);
/* The same with unprintable bytes as \x.. (not octal). */
void fmt_quoted_hex(struct fmt *f, const unsigned char *s, size_t n);
/* The same without the quotes; esc: characters written escaped as
 * well (NULL: JSON's escapes). */
void fmt_quoted_esc(struct fmt *f, const unsigned char *s, size_t n,
		    const char *esc);
/* Flags as NAME|NAME|0x..; names[i] describes bit values[i]. */
struct fmt_flag {
	unsigned long value;
	const char *name;
};
void fmt_flags(struct fmt *f, unsigned long v, const struct fmt_flag *tab,
	       int n, const char *zero);

size_t hk_strlen(const char *s);
int hk_strcmp(const char *a, const char *b);
int hk_strncmp(const char *a, const char *b, size_t n);
void hk_memcpy(void *d, const void *s, size_t n);
void hk_memset(void *d, int c, size_t n);
/* Parse a decimal (optionally negative) integer; 0 on success. */
int hk_parse_long(const char *s, size_t n, long *v);

#endif
