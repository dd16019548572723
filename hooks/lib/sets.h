/* SPDX-License-Identifier: MIT */
/*
 * strace's syscall set grammar, shared by -e trace= and -e inject=:
 *   [!]item[,item...]   item: name | ?name | %class | /regex | all | none
 * A leading '!' negates the whole set; '?' ignores an unknown name.
 */
#ifndef SG_HOOK_SETS_H
#define SG_HOOK_SETS_H

#include "sysgate.h"

#define SET_WORDS (SYSGATE_NR_MAX / (8 * sizeof(unsigned long)))

struct sc_set {
	unsigned long bits[SET_WORDS];
};

static inline int set_has(const struct sc_set *s, long nr)
{
	return nr >= 0 && nr < SYSGATE_NR_MAX &&
	       (s->bits[nr / (8 * sizeof(long))] >> (nr % (8 * sizeof(long)))) & 1;
}

/* Parse expr (length n) into set; on error writes a one-line message to
 * err and returns -1. */
int set_parse(struct sc_set *set, const char *expr, size_t n, char *err,
	      size_t errlen);
/* Select every member of set in the hook's context. */
void set_select(struct sysgate_ctx *ctx, const struct sc_set *set);
/* set = set & with */
static inline void set_and(struct sc_set *set, const struct sc_set *with)
{
	unsigned long i;

	for (i = 0; i < SET_WORDS; i++)
		set->bits[i] &= with->bits[i];
}

/* Fill each *nrs[i].nr with the number of nrs[i].name on this arch;
 * -1 if one is unknown (all are tried). */
struct nr_want {
	long *nr;
	const char *name;
};
int nr_lookup(const struct nr_want *nrs, size_t n);

/* A signal by number (1..64) or name, with or without "SIG", any case,
 * as strace takes it; -1 if none. */
int signal_lookup(const char *s, size_t n);
/* strace's -e signal= set ("USR1,SIGCHLD,9", "all", "none", "!SET"):
 * bit sig - 1 of *set for each signal in it; -1 for an item that names
 * no signal (*set unchanged). */
int signal_set_parse(const char *v, size_t n, unsigned long long *set);

/* Minimal regex (^ $ . * + ? [] and |) for /regex items. */
int hk_regex_match(const char *re, size_t relen, const char *s);

#endif
