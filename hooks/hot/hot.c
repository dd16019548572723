/* SPDX-License-Identifier: MIT */
/*
 * hot: find hot system call sites the way Userspace Bypass does, without
 * its kernel module (sysgate hot, man sysgate.1).
 *
 * For each call, the gap is the user-space time since the same thread's
 * previous call returned (from our exit callback to the next entry, so it
 * includes sysgate's own entry and exit paths, as UB's includes the
 * kernel's).  A call is short when its gap is under short_ns; every
 * `window` calls of a process, the sites with more than hot_calls short
 * calls in that window are hot for it, if the window took at most 1 s.
 * Per site (pc and pid) we keep calls, short calls, hot windows and a
 * log-linear histogram of gaps (for the median), plus what kinds of file
 * its fd argument named (sampled).  When a process ends or execs, it
 * writes where its sites are (file and offset, from sysgate_locate()) so
 * that the CLI can name symbols.
 *
 * The table is shared by the tree; counters are relaxed atomics, and a
 * window's bookkeeping tolerates races (a profile, not an account).
 * Written only against include/sysgate.h; compiled freestanding.
 */
#include <sys/stat.h>
#include <sys/statfs.h>
#include "sysgate.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../bypass/bypass.h"
#include "hot.h"

#define THREADS 4096		/* last-return times, by tid */

static struct hot_table *table;
static struct {
	int tid;
	unsigned long long last;
} threads[THREADS];
static unsigned long win_calls;
static unsigned long long win_start;
static unsigned char fd_call[SYSGATE_NR_MAX];	/* arg 0 is an fd to type */

static int parse_num(const struct arg *a, unsigned long *v)
{
	long x;

	if (!a->val || hk_parse_long(a->val, a->vlen, &x) || x <= 0)
		return -1;
	*v = x;
	return 0;
}

/* spec: [short-ns=N][,calls=N][,window=N] (commas become separators) */
static int parse_spec(struct sysgate_ctx *ctx, const char *s, size_t n)
{
	char buf[128], *p;
	const char *cur = buf;
	struct arg a;

	if (n >= sizeof(buf))
		return sysgate_error(ctx, "hot: thresholds too long");
	hk_memcpy(buf, s, n);
	buf[n] = 0;
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = '\x1f';
	while (args_next(&cur, &a)) {
		unsigned long *dst = arg_is(&a, "short-ns") ? &table->short_ns :
				     arg_is(&a, "calls") ? &table->hot_calls :
				     arg_is(&a, "window") ? &table->window : 0;

		if (!dst || parse_num(&a, dst))
			return sysgate_error(ctx, "hot: thresholds are short-ns=N, "
						  "calls=N, window=N (N > 0)");
	}
	return 0;
}

static int hot_init(struct sysgate_ctx *ctx, const char *args)
{
	static const char *const fd_calls[] = {
		"read", "pread64", "readv", "preadv", "preadv2", "write",
		"pwrite64", "writev", "pwritev", "pwritev2", "sendto",
		"recvfrom", "sendmsg", "recvmsg", "lseek", "fstat", "ioctl",
	};
	struct arg a;
	unsigned int i;

	table = sysgate_shared(ctx, "sites", sizeof(*table));
	if (!table) {
		/* Without shared memory (no CLI, or a state kept small under
		 * RLIMIT_AS): a table of this process's own, mapped only
		 * then, not in every process's bss. */
		long p = sysgate_syscall(sysgate_syscall_number("mmap"), 0,
					 sizeof(*table), 3 /* RW */,
					 0x22 /* PRIVATE|ANONYMOUS */, -1, 0);

		if (p < 0 && p > -4096)
			return sysgate_error(ctx, "hot: no memory for the "
						  "site table");
		table = (struct hot_table *)p;
	}
	if (!table->short_ns) {
		table->short_ns = HOT_SHORT_NS;
		table->hot_calls = HOT_CALLS;
		table->window = HOT_WINDOW;
	}
	while (args_next(&args, &a)) {
		if (arg_is(&a, "spec") && a.val) {
			if (parse_spec(ctx, a.val, a.vlen))
				return -22;
		} else if (!arg_is(&a, "json")) {
			return sysgate_error(ctx, "hot: unknown argument");
		}
	}
	for (i = 0; i < sizeof(fd_calls) / sizeof(fd_calls[0]); i++) {
		long nr = sysgate_syscall_number(fd_calls[i]);

		if (nr >= 0 && nr < SYSGATE_NR_MAX)
			fd_call[nr] = 1;
	}
	return sysgate_select_all(ctx);
}

static int bucket(unsigned long long g)
{
	int msb, b;

	if (g < 64)
		return g >> 4;
	msb = 63 - __builtin_clzll(g);
	b = 4 + (msb - 6) * 4 + (int)((g >> (msb - 2)) & 3);
	return b < HOT_BUCKETS ? b : HOT_BUCKETS - 1;
}

static struct hot_site *site(const struct sysgate_sys *s)
{
	unsigned long key = (unsigned long)s->pc ^ ((unsigned long)s->pid << 40)
			    ^ ((unsigned long)s->nr << 56);
	unsigned long h = key * 0x9e3779b97f4a7c15UL;
	unsigned int i, n;

	if (!key)
		key = 1;
	for (n = 0; n < 16; n++) {
		struct hot_site *e;
		unsigned long k;

		i = (unsigned int)((h >> 40) + n) & (HOT_SITES - 1);
		e = &table->sites[i];
		k = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);
		if (k == key)
			return e;
		if (!k) {
			if (__atomic_compare_exchange_n(&e->key, &k, key, 0,
							__ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				e->pc = (unsigned long)s->pc;
				e->pid = s->pid;
				e->nr = (int)s->nr;
				return e;
			}
			if (k == key)
				return e;
		}
	}
	__atomic_add_fetch(&table->full, 1, __ATOMIC_RELAXED);
	return 0;
}

static int fd_kind(long fd)
{
	struct stat st;
	struct statfs sf;

	if (sysgate_syscall(sysgate_syscall_number("fstat"), fd, (long)&st, 0,
			    0, 0, 0) < 0)
		return HOT_FD_OTHER;
	if (S_ISSOCK(st.st_mode))
		return HOT_FD_SOCKET;
	if (S_ISFIFO(st.st_mode))
		return HOT_FD_PIPE;
	if (S_ISCHR(st.st_mode))
		return HOT_FD_CHAR;
	if (!S_ISREG(st.st_mode))
		return HOT_FD_OTHER;
	if (sysgate_syscall(sysgate_syscall_number("fstatfs"), fd, (long)&sf,
			    0, 0, 0, 0) == 0 && bypass_mappable_fs(sf.f_type))
		return HOT_FD_MAPPABLE;
	return HOT_FD_FILE;
}

/* A window of `window` calls ended: its hot sites get a hot window. */
static void end_window(int pid, unsigned long long now)
{
	unsigned int i;
	int fast = now - win_start <= HOT_WINDOW_NS;

	for (i = 0; i < HOT_SITES; i++) {
		struct hot_site *e = &table->sites[i];

		if (!e->key || e->pid != pid)
			continue;
		if (fast && e->win_short > table->hot_calls)
			__atomic_add_fetch(&e->hot_windows, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&e->win_short, 0, __ATOMIC_RELAXED);
	}
	win_start = now;
}

static enum sysgate_verdict hot_enter(struct sysgate_sys *s, void *data)
{
	unsigned int ti = (unsigned int)s->tid & (THREADS - 1);
	unsigned long long now = s->enter_ns, last = 0;
	struct hot_site *e;

	(void)data;
	if (threads[ti].tid == s->tid)
		last = threads[ti].last;
	if (!win_start)
		win_start = now;
	if (__atomic_add_fetch(&win_calls, 1, __ATOMIC_RELAXED) %
	    table->window == 0)
		end_window(s->pid, now);
	e = site(s);
	if (!e)
		return SYSGATE_RUN;
	if (__atomic_add_fetch(&e->calls, 1, __ATOMIC_RELAXED) %
		    HOT_FD_SAMPLE == 1 && fd_call[s->nr])
		__atomic_add_fetch(&e->fdkinds[fd_kind(s->args[0])], 1,
				   __ATOMIC_RELAXED);
	if (last && now >= last) {
		unsigned long long gap = now - last;

		__atomic_add_fetch(&e->gaps[bucket(gap)], 1, __ATOMIC_RELAXED);
		if (gap < table->short_ns) {
			__atomic_add_fetch(&e->shorts, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&e->win_short, 1, __ATOMIC_RELAXED);
		}
	}
	return SYSGATE_RUN;
}

static void hot_exit(struct sysgate_sys *s, void *data)
{
	unsigned int ti = (unsigned int)s->tid & (THREADS - 1);

	(void)data;
	threads[ti].tid = s->tid;
	threads[ti].last = sysgate_now_ns();
}

static void hot_fork_child(void *data)
{
	(void)data;
	win_calls = 0;
	win_start = 0;
}

/* Index + 1 of path in the module table, added if new. */
static int intern(const char *path, size_t n)
{
	unsigned int i, k;

	if (n >= HOT_PATH)
		n = HOT_PATH - 1;
	for (i = 0; i < __atomic_load_n(&table->nmods, __ATOMIC_ACQUIRE) &&
		    i < HOT_MODS; i++)
		if (!hk_strncmp(table->mods[i], path, n) && !table->mods[i][n])
			return i + 1;
	k = __atomic_fetch_add(&table->nmods, 1, __ATOMIC_ACQ_REL);
	if (k >= HOT_MODS)
		return 0;
	hk_memcpy(table->mods[k], path, n);
	table->mods[k][n] = 0;
	return k + 1;
}

/* Name the file and offset of each of this process's sites. */
static void locate_sites(void)
{
	int pid = (int)sysgate_syscall(sysgate_syscall_number("getpid"), 0, 0,
				       0, 0, 0, 0);
	char path[HOT_PATH];
	unsigned long off;
	unsigned int i;

	for (i = 0; i < HOT_SITES; i++) {
		struct hot_site *e = &table->sites[i];

		if (e->key && e->pid == pid && !e->mod &&
		    sysgate_locate((const void *)e->pc, path, sizeof(path),
				   &off) == 0 && path[0]) {
			e->mod = intern(path, hk_strlen(path));
			e->file_off = off;
		}
	}
}

static void hot_exec(const char *path, void *data)
{
	(void)path;
	(void)data;
	locate_sites();
}

static void hot_fini(void *data)
{
	(void)data;
	locate_sites();
}

const struct sysgate_hook sg_builtin_hot = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU | SYSGATE_HOOK_TIMED,
	.name = "hot",
	.init = hot_init,
	.enter = hot_enter,
	.exit = hot_exit,
	.fork_child = hot_fork_child,
	.exec = hot_exec,
	.fini = hot_fini,
};
