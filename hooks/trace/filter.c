/* SPDX-License-Identifier: MIT */
/*
 * Which lines print: -e status= (by outcome), -e signal= (which signal
 * lines) and -P PATH (calls that name PATH or use a descriptor open on
 * it, decided at entry as strace does, while the descriptors a call
 * closes are still open).
 */
#include <fcntl.h>
#include "trace.h"
#include "../lib/sets.h"

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
/* The absolute forms of the paths given, with symbolic links resolved
 * (strace's realpath): a descriptor's path is absolute. */
static char resolved[8192];
static size_t resolved_used;
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

/* Calls whose descriptors are not (all) arguments of an 'f' kind */
enum { PC_SELECT = 1, PC_POLL, PC_FSCONFIG };
static unsigned char path_call[SYSGATE_NR_MAX];

static int fd_is_path(const struct sysgate_sys *s, int fd)
{
	char buf[4096];
	long len;

	if (fd < 0)
		return 0;
	len = fd_path(s, fd, buf, sizeof(buf));
	return len >= 0 && is_path(buf, len);
}

/* select's descriptor sets (args 1-3, nfds in arg 0): a set is looked
 * at only when it can be read whole, as strace. */
static int select_names_path(const struct sysgate_sys *s)
{
	int nfds = (int)s->args[0], i, fd;
	unsigned long size, off;
	unsigned long long w[16];

	if (nfds <= 0)
		return 0;
	if (nfds > 1 << 20)
		nfds = 1 << 20;
	size = ((unsigned long)nfds + 63) / 64 * 8;
	for (i = 1; i <= 3; i++) {
		unsigned long p = s->args[i];

		if (!p || !trace_readable(s, p, size))
			continue;
		for (off = 0; off < size; off += sizeof(w)) {
			unsigned long n = size - off < sizeof(w) ?
						  size - off : sizeof(w);

			if (sysgate_read_mem(s, w, (void *)(p + off), n) !=
			    (long)n)
				break;
			for (fd = 0; fd < (int)(n * 8); fd++) {
				int at = (int)(off * 8) + fd;

				if (at < nfds && (w[fd / 64] >> (fd % 64) & 1) &&
				    fd_is_path(s, at))
					return 1;
			}
		}
	}
	return 0;
}

/* poll's pollfd array (arg 0, count in arg 1), up to the first entry
 * that cannot be read */
static int poll_names_path(const struct sysgate_sys *s)
{
	unsigned long n = (unsigned int)s->args[1], i;
	struct { int fd; short events, revents; } pfd;

	if (n > 1 << 20)
		n = 1 << 20;
	for (i = 0; i < n; i++) {
		if (sysgate_read_mem(s, &pfd, (void *)(s->args[0] + i *
						       sizeof(pfd)),
				     sizeof(pfd)) != sizeof(pfd))
			break;
		if (fd_is_path(s, pfd.fd))
			return 1;
	}
	return 0;
}

static int str_is_path(const struct sysgate_sys *s, unsigned long p)
{
	char buf[4096];
	long len;

	if (!p)
		return 0;
	len = sysgate_read_str(s, buf, (void *)p, sizeof(buf), 0);
	return len >= 0 && is_path(buf, len);
}

/* Does the call name a -P path, or use a descriptor open on one? */
static int names_path(struct sysgate_sys *s)
{
	const char *kinds = sysgate_syscall_args(s->nr);
	int n = sysgate_syscall_nargs(s->nr), i;

	switch (s->nr >= 0 && s->nr < SYSGATE_NR_MAX ? path_call[s->nr] : 0) {
	case PC_SELECT:
		return select_names_path(s);
	case PC_POLL:
		return poll_names_path(s);
	case PC_FSCONFIG: {
		/* an aux descriptor and a path value, by the command:
		 * FSCONFIG_SET_PATH, _SET_PATH_EMPTY, _SET_FD */
		unsigned int cmd = (unsigned int)s->args[1];

		if (cmd == 3 || cmd == 4)
			return fd_is_path(s, (int)s->args[4]) ||
			       str_is_path(s, s->args[3]);
		return cmd == 5 && fd_is_path(s, (int)s->args[4]);
	}
	}
	if (!kinds)
		return 0;
	for (i = 0; i < n; i++) {
		if (s->nr >= 0 && s->nr < SYSGATE_NR_MAX &&
		    (path_skip[s->nr] >> i & 1))
			continue;
		if ((kinds[i] == 's' && str_is_path(s, s->args[i])) ||
		    ((kinds[i] == 'f' || kinds[i] == 'D') &&
		     fd_is_path(s, (int)s->args[i])))
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

/* "USR1,SIGCHLD,9", "all", "none", "!SET" */
int filter_parse_signals(const char *v, size_t n)
{
	return signal_set_parse(v, n, &signal_mask);
}

void filter_add_path(const char *p, size_t n)
{
	if (npaths < MAX_PATHS) {
		paths[npaths] = p;
		path_len[npaths++] = n;
	}
}

/* The path p names as /proc shows descriptors' paths (absolute, links
 * followed, as strace's realpath): opened and read back from
 * /proc/self/fd; added when it differs from those given. */
static void add_resolved(const char *p, size_t n)
{
	char name[4096], link[64];
	struct fmt l;
	long fd, len;

	if (n >= sizeof(name))
		return;
	hk_memcpy(name, p, n);
	name[n] = 0;
	fd = sysgate_syscall(sysgate_syscall_number("openat"), -100,
			     (long)name, O_PATH | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	fmt_init(&l, link, sizeof(link) - 1);
	fmt_str(&l, "/proc/self/fd/");
	fmt_dec(&l, fd);
	link[l.len] = 0;
	len = sysgate_syscall(trace_nr_readlinkat, -100, (long)link,
			      (long)(resolved + resolved_used),
			      sizeof(resolved) - resolved_used, 0, 0);
	sysgate_syscall(sysgate_syscall_number("close"), fd, 0, 0, 0, 0, 0);
	if (len <= 0 || (size_t)len >= sizeof(resolved) - resolved_used ||
	    is_path(resolved + resolved_used, len))
		return;
	filter_add_path(resolved + resolved_used, (size_t)len);
	resolved_used += (size_t)len;
}

void filter_init(void)
{
	static const struct { const char *name; unsigned char kind; } calls[] = {
		{ "select", PC_SELECT }, { "pselect6", PC_SELECT },
		{ "poll", PC_POLL }, { "ppoll", PC_POLL },
		{ "fsconfig", PC_FSCONFIG },
	};
	int i, given = npaths;
	long v;

	for (i = 0; i < given; i++)
		add_resolved(paths[i], path_len[i]);
	for (i = 0; i < (int)(sizeof(calls) / sizeof(calls[0])); i++)
		if ((v = sysgate_syscall_number(calls[i].name)) >= 0 &&
		    v < SYSGATE_NR_MAX)
			path_call[v] = calls[i].kind;

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

/* Every status selected: strace then splits a call another line comes
 * into ("<unfinished ...>"); with a status filter it holds the whole line
 * until it knows whether to print it. */
int filter_status_all(void)
{
	return (status_mask & 31) == 31;
}

int filter_signal(int sig)
{
	return sig >= 1 && sig <= 64 && (signal_mask >> (sig - 1) & 1);
}
