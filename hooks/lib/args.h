/* SPDX-License-Identifier: MIT */
/*
 * Arguments of the built-in hooks: "key=value" items separated by '\x1f'
 * (built by the core from the command line).  args_next() walks them.
 */
#ifndef SG_HOOK_ARGS_H
#define SG_HOOK_ARGS_H

#include <stddef.h>

struct arg {
	const char *key, *val;
	size_t klen, vlen;	/* val NULL when there is no '=' */
};

/* Returns 1 and fills a while items remain; *cursor starts at args. */
int args_next(const char **cursor, struct arg *a);
int arg_is(const struct arg *a, const char *key);
/* Is s[0..n) name, whatever the case of its letters? */
int arg_same_nocase(const char *name, const char *s, size_t n);
/* A time as strace takes it: digits, a point, an exponent, a unit (s,
 * ms, us, ns; none: microseconds), into *ns; -1 when invalid. */
int arg_duration_ns(const char *s, size_t n, long *ns);

#endif
