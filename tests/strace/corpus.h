/* SPDX-License-Identifier: MIT */
/*
 * Shared by the golden corpus programs: each main() starts with begin(),
 * whose write (or, for -Z, failing close) is the first line compared (the
 * loader's calls before it are another issue's), and works in a scratch
 * directory it is given.
 */
#ifndef STRACE_CORPUS_H
#define STRACE_CORPUS_H
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <unistd.h>

static inline void begin(void)
{
	static const char m[] = "corpus begins\n";

	/* malloc's first use asks for random bytes and grows the heap
	 * (under sysgate, its start-up may have done it already): do it
	 * before the marker, with room left for what the program allocates
	 * later. */
	static void *volatile heap;

	mallopt(M_TRIM_THRESHOLD, 64 << 20);	/* and never shrink it */
	heap = malloc(100000);
	(void)heap;
	if (write(1, m, sizeof(m) - 1) < 0 || close(-1000) == 0)
		exit(2);
}

static inline void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

/* n bytes from `from`, each step more than the last (distinct values
 * that show where a structure's fields come from) */
static inline void fill_bytes(void *p, size_t n, unsigned char from,
			      unsigned int step)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(from + i * step);
}
#endif
