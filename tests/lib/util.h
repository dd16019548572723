/* SPDX-License-Identifier: MIT */
/*
 * Helpers for test programs (after rr's util.h): test_assert() reports the
 * failing expression and exits 1; atomic_puts() writes a whole line with
 * one write(2) so lines from threads never interleave.  A test prints
 * "EXIT-SUCCESS" last; exit 77 means "skipped" with the reason printed.
 */
#ifndef SG_TEST_UTIL_H
#define SG_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define test_assert(c)                                                     \
	do {                                                               \
		if (!(c)) {                                                \
			fprintf(stderr, "%s:%d: assertion failed: %s\n",   \
				__FILE__, __LINE__, #c);                   \
			exit(1);                                           \
		}                                                          \
	} while (0)

static inline void atomic_puts(const char *s)
{
	char buf[4096];
	size_t n = strlen(s);

	if (n > sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\n';
	if (write(1, buf, n + 1) < 0)
		exit(1);
}

static inline void atomic_printf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || write(1, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1) < 0)
		exit(1);
}

static inline void test_skip(const char *why)
{
	printf("%s\n", why);
	exit(77);
}

#endif
