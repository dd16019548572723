/* SPDX-License-Identifier: MIT */
/*
 * sysgate's own descriptors in the program: where tracers write (the -o
 * file, FILE.<pid> with -ff, or a duplicate of the stderr sysgate started
 * with) and the shared state (core/shared.c).  Each record is one
 * write(2) to an O_APPEND file.
 *
 * They must never be one of the program's descriptors, so they are kept
 * where the program cannot allocate: at or above its RLIMIT_NOFILE soft
 * limit (raised for a moment to place them there, and again when the
 * program raises it); when the hard limit leaves no room, above the
 * hard limit if it may be raised for a moment (as root), else just below
 * min(limit, 1024).  They are
 * close-on-exec: only a followed execve passes them on (SYSGATE_OUT,
 * SYSGATE_STATE), so a program sysgate lets go never holds them, and a
 * trace keeps going to sysgate's output whatever the program did to its
 * own stderr.  The program's calls cannot reach them: close() fails with
 * EBADF as if they were not open, close_range() skips them, dup2()/dup3()
 * onto one first move it out of the way, and a listing of /proc/PID/fd
 * (or /dev/fd) leaves them out.  Below the limit (no room above it, not
 * root) every call naming one fails with EBADF too (sg_fd_named); what
 * remains visible there is one descriptor fewer before EMFILE, and
 * /proc/self/fd/N opened by its number.  The shared state's is not held at
 * all where the process may open its own mappings' files (core/init.c):
 * mapped, it is opened again only for a followed execve.
 *
 * A third is held the same way once code is first written: /proc/self/mem
 * (sg_fd_mem), which an open and a close at every first trap cost more
 * than the write.  It names the memory of the process that opened it, so
 * it is never handed down: close-on-exec always, and dropped in a fork
 * child (which would write its parent's code through it).
 */
#include "sg.h"
#include "options.h"
#include "shared.h"
#include "maps.h"

#define O_WRONLY_ 01
#define O_CREAT_ 0100
#define O_APPEND_ 02000
#define O_TRUNC_ 01000
#define O_CLOEXEC_ 02000000
#define F_SETFD_ 2
#define FD_CLOEXEC_ 1
#define F_DUPFD_CLOEXEC_ 1030
#define RLIMIT_NOFILE_ 7
#define AT_FDCWD_ -100
#define EBADF_ 9

static const struct sg_options *opts;
static long held_pipe = -1;	/* -p -ff: a child's pipe to the CLI */
static int mem_fd;	/* /proc/self/mem: 0 not yet, -1 not kept */

struct sg_rlimit {
	unsigned long cur, max;
};

/*
 * The same file at a number the program cannot get, close-on-exec: the
 * lowest one above its limit, else near the top of its range.  fd itself
 * is closed, or kept if it is as good: already above the limit (an
 * inherited one stays there: brought down to the limit it would sit
 * among the numbers a parent above the limit handed down, which the
 * program may probe, as CPython's close_fds test does after lowering
 * its limit), or with only_above, nothing is free there.
 */
static long place(long fd, int only_above)
{
	struct sg_rlimit r, up;
	int above;
	long h = -1;

	if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&r) < 0)
		r.cur = r.max = 1024;
	above = fd >= 0 && (unsigned long)fd >= r.cur;
	if (above) {
		sg_sc3(SG_NR_fcntl, fd, F_SETFD_, FD_CLOEXEC_);
		return fd;
	}
	/* Room above the soft limit; or, where the hard limit leaves none,
	 * above the hard one too when we may raise it for a moment
	 * (CAP_SYS_RESOURCE, as root): the descriptor stays open there once
	 * the limit is back, out of reach of every number the program can
	 * use (a program probing descriptors up to its limit, as CPython's
	 * tests do, sees none). */
	up.cur = r.max - r.cur > 8 ? r.cur + 8 : r.max;
	up.max = r.max;
	if (r.max == r.cur && r.cur < (1UL << 30))
		up.cur = up.max = r.cur + 8;
	if (up.cur > r.cur) {
		if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, (long)&up, 0) == 0) {
			h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_, r.cur);
			sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, (long)&r, 0);
		}
	}
	if (h >= 0 && above && h > fd) {
		sg_sc1(SG_NR_close, h);
		h = -1;
	}
	if (h < 0 && !above && !only_above) {
		/* (at most 1024: the kernel sizes the table of descriptors
		 * by the highest one, and each fork copies it: a fork and
		 * exit took 28 us more here with 4033 open than with 960,
		 * doc/benchmarks.md.  Where the soft limit is the hard one,
		 * docker's default, we land here.) */
		unsigned long top = r.cur < 1024 ? r.cur : 1024;

		h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_,
			   top > 128 ? top - 64 : 10);
	}
	if (h < 0) {
		sg_sc3(SG_NR_fcntl, fd, F_SETFD_, FD_CLOEXEC_);
		return fd;
	}
	sg_sc1(SG_NR_close, fd);
	return h;
}

static long hide(long fd)
{
	return place(fd, 0);
}

/* fd moved to the lowest free number from `from` up, close-on-exec (the
 * soft limit raised for a moment where `from` is past it); hidden as
 * place() does where that fails. */
static long place_from(long fd, unsigned long from)
{
	struct sg_rlimit r, up;
	long h = -1;

	if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&r) < 0)
		return hide(fd);
	if (from < r.cur) {
		h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_, from);
	} else if (from + 8 <= r.max) {
		up.cur = from + 8;
		up.max = r.max;
		if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, (long)&up, 0) == 0) {
			h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_, from);
			sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, (long)&r, 0);
		}
	}
	if (h < 0)
		return hide(fd);
	sg_sc1(SG_NR_close, fd);
	return h;
}

long sg_fd_hide(long fd)
{
	return hide(fd);
}

static long open_output_of(int pid, int truncate)
{
	char path[600], num[24];
	const char *p = opts->outfile;
	long fd;

	if (opts->follow == 2) {
		size_t n = sg_strlcpy(path, p, sizeof(path) - 24);

		path[n] = '.';
		sg_strlcpy(path + n + 1, sg_utoa(num + sizeof(num), pid),
			   sizeof(path) - n - 1);
		p = path;
		truncate = 1;
	}
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)p,
		    O_WRONLY_ | O_CREAT_ | O_APPEND_ | O_CLOEXEC_ |
			    (truncate ? O_TRUNC_ : 0), 0644);
	if (fd < 0)
		return fd;
	return hide(fd);
}

static long open_output(int truncate)
{
	return open_output_of(sg.pid, truncate);
}

/* -ff: a vfork child writes its own file.  (Asked each time: under -p
 * the output starts before the options are read.) */
static inline int split_vfork(void)
{
	return opts && opts->follow == 2 && opts->outfile;
}

/*
 * -ff: a vfork child (posix_spawn's too) runs on its parent's memory,
 * sg.out_fd included, but is a process of its own: its lines, and those
 * of the program it execs, go to its own file, which it opens (in its own
 * descriptor table) at its first line or at its execve.
 */
static long out_fd_of(struct sg_thread *t)
{
	if (!t || !t->vfork_child || !split_vfork() || sg.tracer)
		return sg.out_fd;
	if (!t->out_own) {
		long fd = open_output_of(t->pid, 1);

		t->out_own = fd > 2 ? (int)fd : -1;
	}
	return t->out_own > 2 ? t->out_own : sg.out_fd;
}

long sg_output_fd(void)
{
	return out_fd_of(sg_self());
}

long sg_output_held_take(void)
{
	long fd = held_pipe;

	held_pipe = -1;
	return fd;
}

/*
 * Output to a pipe whose reader has gone (-o '|head -1', 2>&1 | head):
 * the write gets EPIPE and the kernel sends SIGPIPE to the writer, the
 * program's thread, which would die of it because of sysgate.  SIGPIPE
 * is claimed then, and the ones that our own writes raise (inside a hook,
 * sent by the kernel to this process) are dropped; any other goes to the
 * program as it would.
 */
static int our_sigpipe(int sig, struct sg_siginfo *info, void *uc)
{
	struct sg_thread *t = sg_self();

	(void)sig;
	(void)uc;
	return t && t->depth && info->si_code == 0 /* SI_USER */ &&
	       (int)info->fields[0] == (int)sg_sc0(SG_NR_getpid);
}

static void watch_pipe(long fd)
{
	struct {
		unsigned int mask, blksize;
		unsigned long long attributes;
		unsigned int nlink, uid, gid;
		unsigned short mode;
		unsigned char rest[256 - 30];
	} stx;

	if (!sg.tracer &&	/* (-m ptrace: the CLI's own signals) */
	    sg_sc5(SG_NR_statx, fd, (long)"", 0x1000 /* AT_EMPTY_PATH */,
		   1 /* STATX_TYPE */, (long)&stx) == 0 &&
	    ((stx.mode & 0170000) == 0010000 /* FIFO */ ||
	     (stx.mode & 0170000) == 0140000 /* socket */))
		sg_signal_claim(13 /* SIGPIPE */, our_sigpipe);
}

int sg_output_init(const struct sg_options *o, const char *inherited)
{
	long fd = sg_env_fd(inherited);

	opts = o;
	/* A followed execve hands the output down: the file opened once
	 * (this pid's under -ff), or the stderr of the first process,
	 * whatever the program has done to its own since. */
	if (fd > 2 &&
	    sg_sc3(SG_NR_fcntl, fd, F_SETFD_, FD_CLOEXEC_) == 0) {
		sg.out_fd = hide(fd);
		return 0;
	}
	if (o->outfile) {
		/* The CLI creates or truncates the file; a preload-only root
		 * process does it itself. */
		fd = open_output(sg.is_root && !o->append &&
				 !sg.cli);
		if (fd < 0)
			return fd;
	} else {
		fd = sg_sc3(SG_NR_fcntl, 2, F_DUPFD_CLOEXEC_, 3);
		fd = fd < 0 ? 2 : hide(fd);
	}
	sg.out_fd = fd;
	return 0;
}

void sg_output_fork_child(int followed)
{
	long fd;

	/* (the parent's memory: opened again here when needed) */
	if (mem_fd > 2)
		sg_sc1(SG_NR_close, mem_fd);
	mem_fd = 0;
	if (!followed) {
		/* Nothing of it is traced: it must not hold our output
		 * (a pipe, say) open for as long as it lives. */
		if (sg.out_fd > 2)
			sg_sc1(SG_NR_close, sg.out_fd);
		if (sg.state_fd > 2)
			sg_sc1(SG_NR_close, sg.state_fd);
		sg.out_fd = 2;
		sg.state_fd = -1;
		return;
	}
	if (!opts || opts->follow != 2)
		return;
	fd = open_output(1);
	if (fd >= 0) {
		/* (attached, -p: the output pipe is how the CLI finds the
		 * child to detach it; held, not written) */
		if (sg_attach_active() && sg.out_fd > 2)
			held_pipe = sg.out_fd;
		else
			sg_sc1(SG_NR_close, sg.out_fd);
		sg.out_fd = fd;
	}
}

/* Around a followed execve: our descriptors go to the new program
 * (begin) or, if it failed, stay ours alone again. */
void sg_fd_exec(int begin)
{
	int flag = begin ? 0 : FD_CLOEXEC_;
	long out = sg_output_fd();

	if (out > 2)
		sg_sc3(SG_NR_fcntl, out, F_SETFD_, flag);
	if (sg.state_fd > 2)
		sg_sc3(SG_NR_fcntl, sg.state_fd, F_SETFD_, flag);
}

__attribute__((hot))
void sysgate_output(struct sysgate_ctx *ctx, const char *buf, size_t len)
{
	static int checked;

	(void)ctx;
	/* (at the first record, once the signal actions are known: a
	 * claim made before sg_signal_init would be read back as the
	 * program's own action) */
	if (!checked) {
		checked = 1;
		watch_pipe(sg.out_fd);
	}
	long r = sg_write_all(split_vfork() ? sg_output_fd() : sg.out_fd,
			      buf, len);

	/* (a reader gone, EPIPE, is not an error of the output's: above) */
	if (r < 0 && r != -32 && sg.shared_base) {
		struct sg_shared_hdr *h = (struct sg_shared_hdr *)sg.shared_base;
		unsigned int none = 0;

		__atomic_compare_exchange_n(&h->out_errno, &none,
					    (unsigned int)-r, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
}

/* (the kernel reads descriptors as unsigned int) */
static int is_ours(unsigned int fd)
{
	/* (-1: none held, which a program's -1 must not match) */
	struct sg_thread *t = split_vfork() ? sg_self() : 0;

	if (t && t->out_own > 2 && fd == (unsigned int)t->out_own)
		return 1;
	if (held_pipe > 2 && fd == (unsigned int)held_pipe)
		return 1;
	return (sg.out_fd > 2 && fd == (unsigned int)sg.out_fd) ||
	       (sg.state_fd > 2 && fd == (unsigned int)sg.state_fd) ||
	       (mem_fd > 2 && fd == (unsigned int)mem_fd);
}

/* Our descriptors in p (unheld ones as -1), ascending; how many. */
#define NOURS 5
static int ours(unsigned int p[NOURS])
{
	struct sg_thread *t = split_vfork() ? sg_self() : 0;
	int v[NOURS] = { sg.out_fd, sg.state_fd, mem_fd, t ? t->out_own : 0,
			 (int)held_pipe };
	int n = 0, i, j;

	for (i = 0; i < NOURS; i++) {
		if (v[i] <= 2)
			continue;
		for (j = n; j > 0 && p[j - 1] > (unsigned int)v[i]; j--)
			p[j] = p[j - 1];
		p[j] = v[i];
		n++;
	}
	return n;
}

/* close_range() around our descriptors: the ranges between them. */
static int guard_close_range(struct sysgate_sys *s)
{
	unsigned int first = s->args[0], last = s->args[1];
	unsigned int p[NOURS], lo = first;
	long r = 0;
	int i, n = ours(p), in = 0;

	for (i = 0; i < n; i++)
		in |= p[i] >= first && p[i] <= last;
	if (!in)
		return 0;
	for (i = 0; i < n && r >= 0; i++) {
		if (p[i] < lo || p[i] > last)
			continue;
		if (p[i] > lo)
			r = sg_sc3(SG_NR_close_range, lo, p[i] - 1, s->args[2]);
		lo = p[i] + 1;
	}
	if (r >= 0 && lo && lo <= last)
		r = sg_sc3(SG_NR_close_range, lo, last, s->args[2]);
	s->ret = r;
	return 1;
}

/*
 * The program raised its RLIMIT_NOFILE soft limit past our descriptors:
 * they move above it again where the hard limit leaves room (a program
 * that raises it to the hard limit, as Go's runtime does, finds them at
 * its old limit).
 */
static int guard_rlimit(struct sysgate_sys *s)
{
	int at = s->nr == SG_NR_prlimit64;
	long pid = at ? s->args[0] : 0;

	if (s->args[at ? 1 : 0] != RLIMIT_NOFILE_ || !s->args[at ? 2 : 1] ||
	    (pid && pid != sg.pid))
		return 0;
	s->ret = sg_sc4(s->nr, s->args[0], s->args[1], s->args[2], s->args[3]);
	if (s->ret < 0)
		return 1;
	if (sg.out_fd > 2)
		sg.out_fd = place(sg.out_fd, 1);
	if (sg.state_fd > 2)
		sg.state_fd = place(sg.state_fd, 1);
	if (mem_fd > 2)
		mem_fd = place(mem_fd, 1);
	return 1;
}

int sg_fd_guard(struct sysgate_sys *s)
{
	if (s->nr == SG_NR_prlimit64 || s->nr == SG_NR_setrlimit)
		return guard_rlimit(s);
	if (s->nr == SG_NR_close && is_ours(s->args[0])) {
		s->ret = -EBADF_;	/* the program never had it */
		return 1;
	}
	if (s->nr == SG_NR_close_range)
		return guard_close_range(s);
	if (s->nr == SG_NR_dup2 || s->nr == SG_NR_dup3) {
		if (is_ours(s->args[0])) {
			s->ret = -EBADF_;
			return 1;
		}
		/* The program wants the number: ours moves. */
		if ((unsigned int)s->args[1] == (unsigned int)sg.out_fd &&
		    sg.out_fd > 2)
			sg.out_fd = hide(sg.out_fd);
		if ((unsigned int)s->args[1] == (unsigned int)sg.state_fd &&
		    sg.state_fd > 2)
			sg.state_fd = hide(sg.state_fd);
		if ((unsigned int)s->args[1] == (unsigned int)mem_fd &&
		    mem_fd > 2)
			mem_fd = hide(mem_fd);
	}
	return 0;
}

/* The /proc/self/mem descriptor kept for this process (see the top), or
 * -1 where none can be kept: where our descriptors are not hidden from
 * the program (sg_fd_core_set did not run for them), where this one
 * would sit below the program's limit while the others do not (nothing
 * makes the calls that name it fail then), or below a limit so small
 * that programs fill it (one that opens until EMFILE, then execs, would
 * find the number free again after the exec). */
long sg_fd_mem(void)
{
	struct sg_rlimit r;
	int fd = __atomic_load_n(&mem_fd, __ATOMIC_ACQUIRE), none = 0, top;

	if (fd)
		return fd;
	if (!sg_bit(sg.core, SG_NR_getdents64))
		goto no;
	fd = sg_proc_self_open("mem", 02 /* O_RDWR */ | O_CLOEXEC_);
	if (fd < 0)
		return -1;	/* (asked again next time) */
	/* Next to the others: where they came down from a parent above
	 * the program's limit, a number at the limit is one the program
	 * may probe among those its parent used. */
	top = sg.out_fd > sg.state_fd ? sg.out_fd : sg.state_fd;
	fd = top > 2 ? place_from(fd, top + 1) : hide(fd);
	if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&r) < 0 ||
	    ((unsigned long)fd < r.cur && (!sg.fd_below || r.cur <= 128))) {
		sg_sc1(SG_NR_close, fd);
		goto no;
	}
	/* (two threads' first writes at once: one descriptor stays) */
	if (!__atomic_compare_exchange_n(&mem_fd, &none, fd, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		sg_sc1(SG_NR_close, fd);
		return none;
	}
	return fd;
no:
	__atomic_store_n(&mem_fd, -1, __ATOMIC_RELEASE);
	return -1;
}

/* sysgate -p's detach takes it (to close it) and none is kept again. */
long sg_fd_mem_take(void)
{
	return __atomic_exchange_n(&mem_fd, -1, __ATOMIC_ACQ_REL);
}

/*
 * Below the program's limit (no room above it, not root) our descriptors
 * are numbers it may probe, as CPython's fd_status does with fstat up to
 * its limit: every call naming one then fails with EBADF as on a closed
 * descriptor.  Which arguments are descriptors comes from the system call
 * table (kinds f and D); bit i of fd_args[nr] is args[i].
 */
static unsigned char fd_args[SG_NSYSCALLS];

static int below_limit(void)
{
	struct sg_rlimit r;

	if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&r) < 0)
		return 1;
	return (sg.out_fd > 2 && (unsigned long)sg.out_fd < r.cur) ||
	       (sg.state_fd > 2 && (unsigned long)sg.state_fd < r.cur) ||
	       (mem_fd > 2 && (unsigned long)mem_fd < r.cur);
}

/* (numbers <= -1000: a call this arch lacks) */
static void not_fds(long nr, unsigned int args)
{
	if (nr >= 0 && nr < SG_NSYSCALLS)
		fd_args[nr] &= ~args;
}

/* The calls the core takes for our descriptors' sake, set before any
 * mechanism starts (a patched site is chosen by the calls it makes). */
void sg_fd_core_set(void)
{
	long nr;
	int i;

	if (sg.out_fd <= 2 && sg.state_fd <= 2)
		return;
	sg_set_bit(sg.core, SG_NR_getdents64);
	sg.fd_below = below_limit();
	if (!sg.fd_below)
		return;
	for (nr = 0; nr < SG_NSYSCALLS && nr < SYSGATE_NR_MAX; nr++) {
		const char *k = sg_syscall_table[nr].args;

		for (i = 0; i < sg_syscall_table[nr].nargs; i++)
			if (k[i] == 'f' || k[i] == 'D')
				fd_args[nr] |= 1 << i;
	}
	/* Not the program's descriptors: the number asked for (dup2, dup3:
	 * sg_fd_guard), a range (close_range), another process's
	 * (pidfd_getfd), one an anonymous mapping ignores (mmap). */
	not_fds(SG_NR_dup2, 2);
	not_fds(SG_NR_dup3, 2);
	not_fds(SG_NR_close_range, 3);
	not_fds(SG_NR_pidfd_getfd, 2);
	not_fds(SG_NR_mmap, 1 << 4);
	for (nr = 0; nr < SG_NSYSCALLS && nr < SYSGATE_NR_MAX; nr++)
		if (fd_args[nr])
			sg_set_bit(sg.core, nr);
}

/* A directory descriptor of ours with the path that goes with it: a
 * relative (or empty) path would use it, an absolute one ignores it. */
static int dirfd_used(const struct sysgate_sys *s, int i)
{
	char c = 0;

	if (i + 1 >= 6 || !s->args[i + 1])
		return 1;
	if (sg_read_safe(&c, (const void *)s->args[i + 1], 1) < 0)
		return 0;	/* the kernel's EFAULT comes first */
	return c != '/';
}

int sg_fd_named(struct sysgate_sys *s)
{
	unsigned int m;
	int i;

	if ((unsigned long)s->nr >= SG_NSYSCALLS)
		return 0;
	m = fd_args[s->nr];
	for (i = 0; m; i++, m >>= 1)
		if ((m & 1) && is_ours(s->args[i]) &&
		    (sg_syscall_table[s->nr].args[i] != 'D' ||
		     dirfd_used(s, i))) {
			s->ret = -EBADF_;
			return 1;
		}
	return 0;
}

struct sg_dirent64 {
	unsigned long ino;
	long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Is this directory a process's descriptor list (/proc/PID/fd,
 * /proc/PID/task/TID/fd, /dev/fd)?  1 for our own process, 2 for
 * another's, 0 if not. */
static int fd_dir(long dirfd)
{
	char path[64], link[80], num[24];
	const char *p;
	long n, pid = 0;

	n = sg_strlcpy(path, "/proc/self/fd/", sizeof(path));
	sg_strlcpy(path + n, sg_utoa(num + sizeof(num), (unsigned int)dirfd),
		   sizeof(path) - n);
	n = sg_sc4(SG_NR_readlinkat, AT_FDCWD_, (long)path, (long)link,
		   sizeof(link) - 1);
	if (n <= 6 || sg_strncmp(link, "/proc/", 6))
		return 0;
	link[n] = 0;
	for (p = link + 6; *p >= '0' && *p <= '9'; p++)
		pid = pid * 10 + *p - '0';
	if (p == link + 6)
		return 0;
	if (!sg_strncmp(p, "/task/", 6)) {
		for (p += 6; *p >= '0' && *p <= '9'; p++)
			;
	}
	if (sg_strcmp(p, "/fd"))
		return 0;
	return pid == sg.pid ? 1 : 2;
}

/* An entry for one of our numbers: in our own list, ours; in another
 * process's (a child of the tree holds them at the numbers it
 * inherited), only where it is the same file. */
static int hidden_entry(long dirfd, int where, const char *name)
{
	unsigned int fds[NOURS];
	int n = ours(fds), i;
	char num[24];
	struct sg_fd_stat a, b;

	for (i = 0; i < n; i++) {
		if (sg_strcmp(name, sg_utoa(num + sizeof(num), fds[i])))
			continue;
		if (where == 1)
			return 1;
		if (sg_at_stat(dirfd, name, &a) == 0 &&
		    sg_fd_stat(fds[i], &b) == 0 && a.dev == b.dev &&
		    a.ino == b.ino)
			return 1;
	}
	return 0;
}

/* getdents64: a descriptor list without our entries (a chunk left empty
 * by that is read again: 0 would end the listing). */
void sg_fd_list(struct sysgate_sys *s)
{
	int where = -1;
	long n, at;

	do {
		n = sg_raw_call(s);
		if (n <= 0)
			return;
		for (at = 0; at < n;) {
			struct sg_dirent64 *d =
				(struct sg_dirent64 *)((char *)s->args[1] + at);
			unsigned short len = d->reclen;

			if (d->name[0] >= '1' && d->name[0] <= '9') {
				if (where < 0)
					where = fd_dir(s->args[0]);
				if (where && hidden_entry(s->args[0], where,
							  d->name)) {
					memmove(d, (char *)d + len, n - at - len);
					n -= len;
					continue;
				}
			}
			at += len;
		}
	} while (n == 0);
	s->ret = n;
}
