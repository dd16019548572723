/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the fs tests: each program takes a directory (a real one,
 * or the --fs prefix) and prints one line per call with its result and
 * errno name, never a path or a time, so the two runs must print the same.
 */
#ifndef SG_FS_TEST_H
#define SG_FS_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dir;
static char pbuf[4][4096];
static int pnext;

/* dir/name, from a ring of buffers so several can be live at once */
static inline const char *P(const char *name)
{
	char *b = pbuf[pnext++ & 3];

	snprintf(b, sizeof(pbuf[0]), "%s/%s", dir, name);
	return b;
}

#define T(expr)                                                            \
	do {                                                               \
		long r_;                                                   \
		errno = 0;                                                 \
		r_ = (long)(expr);                                         \
		printf("%-60s = %ld %s\n", #expr, r_ < 0 ? -1L : r_,       \
		       r_ < 0 ? strerrorname_np(errno) : "");              \
	} while (0)

/* A result whose value differs between runs (descriptor numbers). */
#define OK(expr)                                                           \
	do {                                                               \
		long r_;                                                   \
		errno = 0;                                                 \
		r_ = (long)(expr);                                         \
		printf("%-60s %s\n", #expr,                                \
		       r_ < 0 ? strerrorname_np(errno) : "ok");            \
	} while (0)

static inline void start(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		exit(2);
	}
	dir = argv[1];
	setvbuf(stdout, 0, _IOLBF, 0);
}

#endif
