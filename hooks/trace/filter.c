/* SPDX-License-Identifier: MIT */
/*
 * Which lines print: -e status= (by outcome), -e signal= (which signal
 * lines) and -P PATH (calls that name PATH or use a descriptor open on
 * it, decided at entry as strace does, while the descriptors a call
 * closes are still open).
 */
#include "trace.h"

/* -e status=: which lines print (FILTER_* bits) */
static unsigned int status_mask = ~0u;
/* -e signal=: bit sig - 1 for each signal whose line prints */
static unsigned long long signal_mask = ~0ULL;
/* -P: only calls that name one of these paths or use a descriptor open
 * on one; decided at entry, while the descriptors a call closes are
 * still open. */
#define MAX_PATHS 16
static const char *paths[MAX_PATHS];
static size_t path_len[MAX_PATHS];
static int npaths;
/* Path arguments -P does not look at, as strace: a symlink's target,
 * rename's new name.  Bit i: argument i. */
static unsigned char path_skip[SYSGATE_NR_MAX];

static int is_path(const char *p, long n)
{
	int i;

	for (i = 0; i < npaths; i++)
		if ((size_t)n == path_len[i] && !hk_strncmp(p, paths[i], n))
			return 1;
	return 0;
}

/* Does the call name a -P path, or use a descriptor open on one? */
static int names_path(struct sysgate_sys *s)
{
	const char *kinds = sysgate_syscall_args(s->nr);
	int n = sysgate_syscall_nargs(s->nr), i;
	char buf[4096];

	if (!kinds)
		return 0;
	for (i = 0; i < n; i++) {
		long len = -1;

		if (s->nr >= 0 && s->nr < SYSGATE_NR_MAX &&
		    (path_skip[s->nr] >> i & 1))
			continue;
		if (kinds[i] == 's' && s->args[i]) {
			len = sysgate_read_str(s, buf, (void *)s->args[i],
					       sizeof(buf), 0);
		} else if ((kinds[i] == 'f' || kinds[i] == 'D') &&
			   (int)s->args[i] >= 0) {
			len = fd_path(s, (int)s->args[i], buf, sizeof(buf));
		}
		if (len >= 0 && is_path(buf, len))
			return 1;
	}
	return 0;
}

/* "successful,failed", "!failed", "all", "none" */
int filter_parse_status(const char *v, size_t n)
{
	static const char *const names[] = { "successful", "failed",
		"unfinished", "unavailable", "detached" };
	unsigned int mask = 0;
	int neg = n && *v == '!';
	size_t i = neg, j;

	while (i < n) {
		size_t e = i;
		unsigned int k;

		while (e < n && v[e] != ',')
			e++;
		if (e - i == 3 && !hk_strncmp(v + i, "all", 3)) {
			mask = ~0u;
		} else if (e - i == 4 && !hk_strncmp(v + i, "none", 4)) {
			mask |= 0;
		} else {
			for (k = 0; k < 5; k++) {
				j = hk_strlen(names[k]);
				if (e - i == j && !hk_strncmp(v + i, names[k], j))
					break;
			}
			if (k == 5)
				return -1;
			mask |= 1u << k;
		}
		i = e + 1;
	}
	status_mask = neg ? ~mask : mask;
	return 0;
}

static int same_name(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((a[i] | 0x20) != (b[i] | 0x20) || !b[i])
			return 0;
	return !b[n];
}

/* "USR1,SIGCHLD,9", "all", "none", "!SET" */
int filter_parse_signals(const char *v, size_t n)
{
	unsigned long long mask = 0;
	int neg = n && *v == '!';
	size_t i = neg;

	while (i < n) {
		size_t e = i;
		long num;
		int sig;

		while (e < n && v[e] != ',')
			e++;
		if (same_name(v + i, "all", e - i)) {
			mask = ~0ULL;
		} else if (same_name(v + i, "none", e - i)) {
			mask |= 0;
		} else if (!hk_parse_long(v + i, e - i, &num) && num >= 1 &&
			   num <= 64) {
			mask |= 1ULL << (num - 1);
		} else {
			for (sig = 1; sig <= 64; sig++) {
				const char *nm = sysgate_signal_name(sig);

				if (nm && (same_name(v + i, nm, e - i) ||
					   same_name(v + i, nm + 3, e - i)))
					break;
			}
			if (sig > 64)
				return -1;
			mask |= 1ULL << (sig - 1);
		}
		i = e + 1;
	}
	signal_mask = neg ? ~mask : mask;
	return 0;
}

void filter_add_path(const char *p, size_t n)
{
	if (npaths < MAX_PATHS) {
		paths[npaths] = p;
		path_len[npaths++] = n;
	}
}

void filter_init(void)
{
	long v;

	if ((v = sysgate_syscall_number("rename")) >= 0 && v < SYSGATE_NR_MAX)
		path_skip[v] = 2;
	if ((v = sysgate_syscall_number("symlink")) >= 0 && v < SYSGATE_NR_MAX)
		path_skip[v] = 1;
	if ((v = sysgate_syscall_number("symlinkat")) >= 0 &&
	    v < SYSGATE_NR_MAX)
		path_skip[v] = 1;
}

__attribute__((hot))
int filter_enter(struct sysgate_sys *s)
{
	if (!npaths)
		return 1;
	int unselected = !names_path(s);

	trace_scratch(s)->unselected = unselected;
	return !unselected;
}

__attribute__((hot))
int filter_selected(const struct sysgate_sys *s)
{
	return !npaths || !trace_scratch(s)->unselected;
}

__attribute__((hot))
int filter_status(unsigned int what)
{
	return (status_mask & what) != 0;
}

int filter_signal(int sig)
{
	return sig >= 1 && sig <= 64 && (signal_mask >> (sig - 1) & 1);
}
