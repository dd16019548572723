/* SPDX-License-Identifier: MIT */
/*
 * bypass: answer hot system calls in user space without changing what the
 * program sees (sysgate --bypass[=LIST], man sysgate.1).
 *
 *   pread   pread64 on a regular file: copied from a read-only MAP_SHARED
 *           mapping of the file, which shares the kernel's page cache, so
 *           data written by anyone is seen at once;
 *   read    read on a file this process opened itself: the same, with the
 *           file offset kept here and given to the kernel (lseek) before
 *           any call that could observe or move it;
 *   ids     getpid and gettid (the core's per-thread pid and tid), getppid
 *           once it is 1 (init never changes);
 *   uname   (opt-in, not in the default) uname, cached until this process
 *           changes host name, namespaces or personality.
 *
 * Size changes are never trusted to a cached size.  A mapping past the end
 * of file raises SIGBUS, and truncation removes the pages past the new end
 * from every mapping before it returns, so after copying [off, off+len) we
 * read one byte at the next page boundary: if it reads, the file is
 * longer than off+len, and the copy raced with nothing that shrank it.
 * Reads that end in the file's last page, or past the mapping (twice the
 * size at first use, at least 1 MiB, so growth is served too), go to the
 * kernel.  Faults (a bad buffer, a truncated page) never reach the
 * program: sysgate_copy_nofault() turns them into a fall-back to the
 * kernel, whose answer is then the program's.
 *
 * The fd table is process state shared by threads (and, in a vfork child,
 * with the parent): each entry names the pid that made it and is changed
 * under a sequence count; readers check the count around the copy.  The
 * read() offset is kept only while the process has one thread.
 *
 * Written only against include/sysgate.h; compiled freestanding.
 */
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include "sysgate.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"
#include "bypass.h"
#include "wlog.h"

#define NSLOT 4096		/* fds tracked; higher ones pass through */
#define PAGE 4096UL		/* x86-64; the probe must use the MMU's page */
#define MAX_RW 0x7ffff000UL	/* the kernel's cap on one read */
#define MAP_MIN (1UL << 20)	/* smallest mapping: room for growth */

enum { S_UNKNOWN, S_NO, S_MAP };
enum { W_UNKNOWN, W_NO, W_YES };

struct fent {
	unsigned int seq;	/* odd while an entry changes */
	int pid;		/* process that made the entry */
	unsigned char state;
	unsigned char opened;	/* opened by pid: the offset is pid's alone */
	unsigned char lazy;	/* read(): offset kept in pos */
	unsigned char dirty;	/* the kernel's offset is not pos */
	unsigned char pos_valid;
	unsigned char wstate;	/* W_*: may wlog queue writes to it? */
	int wpid;		/* process that set wstate */
	char *map;
	unsigned long size;	/* the mapping's length (not the file's) */
	long pos;
};

/* What enter() does with each system call number. */
enum act {
	A_NONE, A_PREAD, A_READ, A_LSEEK, A_CLOSE, A_CLOSE_RANGE, A_DUP,
	A_DUP2, A_FCNTL, A_SYNC0, A_SYNC1, A_SYNC02, A_CLONE, A_CLONE3,
	A_FORK, A_VFORK, A_EXEC, A_SENDMSG, A_OFF, A_OPEN, A_GETPID, A_GETTID,
	A_GETPPID, A_UNAME, A_UNAME_CHANGE, A_WRITE, A_PWRITE, A_FSYNC,
};

static unsigned char act[SYSGATE_NR_MAX];
static struct fent *fds;
static unsigned int want;		/* BYPASS_* */
static int lazy_ok = 1;			/* one thread: read() offsets kept,
					   writes queued (wlog) */
static int files_off;			/* fd numbers no longer ours alone */
static long top = -1;			/* highest fd with an entry */
static long nr_lseek, nr_fstat, nr_fstatfs, nr_fcntl, nr_mmap, nr_munmap,
	nr_getppid, nr_uname;
static unsigned long long ppid_cache;	/* pid << 32 | 1 once seen */
static struct {
	unsigned long word;		/* generation << 2 | state */
	char buf[390];			/* struct utsname */
} uts;

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

static struct fent *ent(long fd)
{
	return fds && fd >= 0 && fd < NSLOT ? &fds[fd] : 0;
}

static int lock(struct fent *e)
{
	unsigned int s = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);

	return !(s & 1) &&
	       __atomic_compare_exchange_n(&e->seq, &s, s + 1, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void unlock(struct fent *e)
{
	__atomic_add_fetch(&e->seq, 1, __ATOMIC_RELEASE);
}

/* Give the kernel the offset read() kept here (entry locked). */
static void sync_locked(struct fent *e, long fd)
{
	if (e->lazy && e->dirty && e->pos_valid)
		sc(nr_lseek, fd, e->pos, SEEK_SET, 0, 0, 0);
	e->dirty = 0;
}

/* Forget an entry (locked); its mapping goes too. */
static void drop_locked(struct fent *e, long fd)
{
	sync_locked(e, fd);
	if (e->state == S_MAP)
		sc(nr_munmap, (long)e->map, e->size, 0, 0, 0, 0);
	e->state = S_UNKNOWN;
	e->opened = e->lazy = e->pos_valid = 0;
	e->map = 0;
	e->size = 0;
}

/* For one of this process's entries: sync (and stop keeping the offset
 * when the call may move it or share the file), or drop it. */
enum { K_SYNC, K_SHARED, K_DROP };
static void settle(long fd, int pid, int how)
{
	struct fent *e = ent(fd);

	if (e && how == K_DROP && e->wpid == pid)
		e->wstate = W_UNKNOWN;
	if (!e || e->pid != pid || e->state == S_UNKNOWN)
		return;
	while (!lock(e))
		;	/* writers hold it for a system call or two */
	if (how == K_DROP) {
		drop_locked(e, fd);
	} else {
		sync_locked(e, fd);
		e->pos_valid = 0;	/* the call may move it */
		if (how == K_SHARED)
			e->opened = e->lazy = 0;
	}
	unlock(e);
}

static void note_fd(long fd)
{
	long t = __atomic_load_n(&top, __ATOMIC_RELAXED);

	while (fd > t && !__atomic_compare_exchange_n(&top, &t, fd, 0,
						     __ATOMIC_RELAXED,
						     __ATOMIC_RELAXED))
		;
}

static void settle_all(int pid, int how)
{
	long fd, t = __atomic_load_n(&top, __ATOMIC_RELAXED);

	for (fd = 0; fd <= t; fd++)
		settle(fd, pid, how);
}

/* The mapping covers room to grow: pages past the end of file raise
 * SIGBUS until the file reaches them (the probe in serve() sees which),
 * so an empty or growing file is served without mapping it again. */
static unsigned long map_len(long size)
{
	unsigned long n = (unsigned long)size * 2;

	if (n < MAP_MIN)
		n = MAP_MIN;
	return (n + PAGE - 1) & ~(PAGE - 1);
}

/* First use of an fd by this process: is it a file we can map? */
static void classify(struct fent *e, long fd, int pid)
{
	struct stat st;
	struct statfs sf;
	long fl, m;
	unsigned long len;

	if (!lock(e))
		return;
	if (e->pid == pid && e->state != S_UNKNOWN)
		goto out;	/* another thread did it */
	if (e->pid != pid) {
		/* Made by the parent of a fork (a copy: left mapped) or of a
		 * vfork (shared memory: the parent's own mapping). */
		e->opened = 0;
		e->map = 0;
	}
	e->pid = pid;
	e->state = S_NO;
	note_fd(fd);
	e->lazy = e->dirty = e->pos_valid = 0;
	if (files_off || sc(nr_fstat, fd, (long)&st, 0, 0, 0, 0) < 0 ||
	    !S_ISREG(st.st_mode))
		goto out;
	if (sc(nr_fstatfs, fd, (long)&sf, 0, 0, 0, 0) < 0 ||
	    !bypass_mappable_fs(sf.f_type))
		goto out;
	fl = sc(nr_fcntl, fd, F_GETFL, 0, 0, 0, 0);
	if (fl < 0 || (fl & O_ACCMODE) == O_WRONLY || (fl & (O_DIRECT | O_PATH)))
		goto out;
	len = map_len(st.st_size);
	m = sc(nr_mmap, 0, len, PROT_READ, MAP_SHARED, fd, 0);
	if (sysgate_is_error(m))
		goto out;
	e->map = (char *)m;
	e->size = len;
	e->state = S_MAP;
	if (e->opened && lazy_ok && (want & BYPASS_READ)) {
		e->pos = sc(nr_lseek, fd, 0, SEEK_CUR, 0, 0, 0);
		e->lazy = e->pos >= 0;
		e->pos_valid = e->lazy;
	}
out:
	unlock(e);
}

/* The call is answered here; tracers print the note. */
static enum sysgate_verdict answered(struct sysgate_sys *s, long ret)
{
	s->ret = ret;
	s->note = "BYPASS";
	return SYSGATE_SKIP;
}

/* Copy [off, off+len) of the file into buf; 0, or -1 for the kernel. */
static int serve(const struct fent *e, char *map, unsigned long size,
		 void *buf, unsigned long off, unsigned long len)
{
	unsigned long end = off + len, probe = (end + PAGE - 1) & ~(PAGE - 1);

	(void)e;
	if (!len || len > MAX_RW || off >= size || end < off || probe >= size)
		return -1;
	if (sysgate_copy_nofault(buf, map + off, len) ||
	    sysgate_probe_nofault(map + probe))
		return -1;
	return 0;
}

/* An entry of this process, classified; NULL to pass through. */
static struct fent *mine(long fd, int pid)
{
	struct fent *e = ent(fd);

	if (!e)
		return 0;
	if (__atomic_load_n(&e->pid, __ATOMIC_RELAXED) != pid ||
	    __atomic_load_n(&e->state, __ATOMIC_RELAXED) == S_UNKNOWN)
		classify(e, fd, pid);
	return e;
}

static enum sysgate_verdict do_pread(struct sysgate_sys *s)
{
	struct fent *e = mine(s->args[0], s->pid);
	unsigned int seq;
	char *map;
	unsigned long size;

	if (!e)
		return SYSGATE_RUN;
	seq = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
	if ((seq & 1) || e->pid != s->pid || e->state != S_MAP)
		return SYSGATE_RUN;
	map = __atomic_load_n(&e->map, __ATOMIC_RELAXED);
	size = __atomic_load_n(&e->size, __ATOMIC_RELAXED);
	if (serve(e, map, size, (void *)s->args[1], s->args[3], s->args[2]))
		return SYSGATE_RUN;
	/* Unchanged entry: the mapping was not replaced during the copy. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) != seq)
		return SYSGATE_RUN;
	return answered(s, s->args[2]);
}

static enum sysgate_verdict do_read(struct sysgate_sys *s)
{
	long fd = s->args[0];
	struct fent *e;

	if (!lazy_ok)
		return SYSGATE_RUN;
	e = mine(fd, s->pid);
	if (!e || e->state != S_MAP || !e->lazy || !lock(e))
		return SYSGATE_RUN;
	if (!e->pos_valid) {
		e->pos = sc(nr_lseek, fd, 0, SEEK_CUR, 0, 0, 0);
		e->pos_valid = e->pos >= 0;
		e->dirty = 0;
	}
	if (e->pos_valid &&
	    !serve(e, e->map, e->size, (void *)s->args[1], e->pos, s->args[2])) {
		e->pos += s->args[2];
		e->dirty = 1;
		unlock(e);
		return answered(s, s->args[2]);
	}
	/* The kernel reads from the offset it is given now, and moves it. */
	sync_locked(e, fd);
	e->pos_valid = 0;
	unlock(e);
	return SYSGATE_RUN;
}

/* lseek on a file whose offset we keep: SEEK_SET and SEEK_CUR inside the
 * mapped size need no kernel (any such offset is valid for a file). */
static enum sysgate_verdict do_lseek(struct sysgate_sys *s)
{
	long fd = s->args[0], off = s->args[1], whence = s->args[2], to;
	struct fent *e = ent(fd);

	if (!e || e->pid != s->pid || e->state != S_MAP || !e->lazy ||
	    !lock(e))
		return SYSGATE_RUN;
	if (e->pos_valid && (whence == SEEK_SET || whence == SEEK_CUR)) {
		to = whence == SEEK_SET ? off : e->pos + off;
		if (to >= 0 && (unsigned long)to <= e->size &&
		    (whence == SEEK_SET || (off >= 0 ? to >= e->pos : to <= e->pos))) {
			e->dirty |= to != e->pos;
			e->pos = to;
			unlock(e);
			return answered(s, to);
		}
	}
	sync_locked(e, fd);
	e->pos_valid = 0;
	unlock(e);
	return SYSGATE_RUN;
}

/* wlog: may writes to fd be queued?  A regular file written through the
 * page cache (no O_DIRECT, O_SYNC or O_DSYNC), in a process with one
 * thread; for write(), not a file whose read() offset we keep. */
static int wlog_ok(struct fent *e, long fd, int pid)
{
	struct stat st;
	long fl;

	if (e->wpid != pid || e->wstate == W_UNKNOWN) {
		int ok = !files_off &&
			 sc(nr_fstat, fd, (long)&st, 0, 0, 0, 0) == 0 &&
			 S_ISREG(st.st_mode) &&
			 (fl = sc(nr_fcntl, fd, F_GETFL, 0, 0, 0, 0)) >= 0 &&
			 (fl & O_ACCMODE) != O_RDONLY &&
			 !(fl & (O_DIRECT | O_SYNC | O_DSYNC | O_PATH));

		e->wpid = pid;
		e->wstate = ok ? W_YES : W_NO;
	}
	return e->wstate == W_YES;
}

static enum sysgate_verdict do_write(struct sysgate_sys *s, long off)
{
	long fd = s->args[0], r;
	struct fent *e = ent(fd);

	if ((r = wlog_take_error(s->pid, s->tid, fd)))
		return answered(s, r);
	if (!e || !__atomic_load_n(&lazy_ok, __ATOMIC_RELAXED) ||
	    (off < 0 && e->pid == s->pid && e->lazy) ||
	    !wlog_ok(e, fd, s->pid))
		goto kernel;
	r = wlog_queue(s->pid, s->tid, fd, (const void *)s->args[1],
		       s->args[2], off);
	if (r >= 0)
		return answered(s, r);
kernel:
	wlog_flush(s->pid, s->tid);
	if (off < 0)
		settle(fd, s->pid, K_SYNC);	/* a kept read() offset */
	return SYSGATE_RUN;
}

static enum sysgate_verdict do_uname(struct sysgate_sys *s)
{
	unsigned long w = __atomic_load_n(&uts.word, __ATOMIC_ACQUIRE), busy;
	long r;

	if ((w & 3) == 1) {
		if (sysgate_copy_nofault((void *)s->args[0], uts.buf,
					 sizeof(uts.buf)))
			return SYSGATE_RUN;
		if (__atomic_load_n(&uts.word, __ATOMIC_ACQUIRE) == w)
			return answered(s, 0);
		return SYSGATE_RUN;
	}
	/* Fill the cache: only if nothing invalidated it meanwhile. */
	busy = (w & ~3UL) | 2;
	if ((w & 3) || !__atomic_compare_exchange_n(&uts.word, &w, busy, 0,
						    __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED))
		return SYSGATE_RUN;
	r = sc(nr_uname, (long)uts.buf, 0, 0, 0, 0, 0);
	__atomic_compare_exchange_n(&uts.word, &busy,
				    (busy & ~3UL) | (r == 0 ? 1 : 0), 0,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return SYSGATE_RUN;
}

static void uname_changed(void)
{
	__atomic_add_fetch(&uts.word, 4, __ATOMIC_ACQ_REL);
	__atomic_and_fetch(&uts.word, ~3UL, __ATOMIC_ACQ_REL);
}

/* Every clone: the child shares the files' offsets (or the fd table, or
 * our memory), so offsets go back to the kernel first. */
static void cloning(int pid, unsigned long flags)
{
	settle_all(pid, K_SHARED);
	if (flags & CLONE_VM)
		__atomic_store_n(&lazy_ok, 0, __ATOMIC_RELAXED);
	if ((flags & CLONE_FILES) && !(flags & CLONE_VM)) {
		/* Another process can now close and reuse our fd numbers. */
		__atomic_store_n(&files_off, 1, __ATOMIC_RELAXED);
		settle_all(pid, K_DROP);
	}
}

static int has_control(const struct msghdr *m)
{
	struct msghdr h;

	return sysgate_copy_nofault(&h, m, sizeof(h)) || h.msg_controllen;
}

static enum sysgate_verdict bypass_enter(struct sysgate_sys *s, void *data)
{
	long *a = s->args;
	unsigned long flags;

	(void)data;
	if (want & BYPASS_WLOG) {
		unsigned char k = act[s->nr];

		if (k == A_WRITE)
			return do_write(s, -1);
		if (k == A_PWRITE)
			return s->args[3] >= 0 ? do_write(s, s->args[3]) :
						 SYSGATE_RUN;
		/* every other call sees the thread's writes done */
		wlog_flush(s->pid, s->tid);
		if (k == A_FSYNC || k == A_CLOSE) {
			long r = wlog_take_error(s->pid, s->tid, a[0]);

			if (r && k == A_FSYNC)
				return answered(s, r);
			if (r) {
				/* close still closes; its result is the
				 * error the queued write had */
				settle(a[0], s->pid, K_DROP);
				s->ret = sc(s->nr, a[0], 0, 0, 0, 0, 0);
				s->ret = s->ret < 0 ? s->ret : r;
				return SYSGATE_SKIP;
			}
		}
	}
	switch (act[s->nr]) {
	case A_PREAD:
		return do_pread(s);
	case A_READ:
		return do_read(s);
	case A_LSEEK:
		return do_lseek(s);
	case A_GETPID:
		return s->pid > 0 ? answered(s, s->pid) : SYSGATE_RUN;
	case A_GETTID:
		return s->tid > 0 ? answered(s, s->tid) : SYSGATE_RUN;
	case A_GETPPID:
		if (__atomic_load_n(&ppid_cache, __ATOMIC_RELAXED) ==
		    ((unsigned long long)s->pid << 32 | 1))
			return answered(s, 1);
		s->ret = sc(nr_getppid, 0, 0, 0, 0, 0, 0);
		if (s->ret == 1)
			__atomic_store_n(&ppid_cache,
					 (unsigned long long)s->pid << 32 | 1,
					 __ATOMIC_RELAXED);
		return SYSGATE_SKIP;
	case A_UNAME:
		return do_uname(s);
	case A_UNAME_CHANGE:
		uname_changed();
		break;
	case A_CLOSE:
		settle(a[0], s->pid, K_DROP);
		break;
	case A_CLOSE_RANGE:
		if (!(a[2] & 4 /* CLOSE_RANGE_CLOEXEC */)) {
			unsigned long fd;

			for (fd = a[0]; fd <= (unsigned long)a[1] && fd < NSLOT;
			     fd++)
				settle(fd, s->pid, K_DROP);
		}
		break;
	case A_DUP:
		settle(a[0], s->pid, K_SHARED);
		break;
	case A_DUP2:
		if (a[0] != a[1]) {
			settle(a[0], s->pid, K_SHARED);
			settle(a[1], s->pid, K_DROP);
		}
		break;
	case A_FCNTL:
		if (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC)
			settle(a[0], s->pid, K_SHARED);
		else if (a[1] == F_SETFL)	/* O_DIRECT changes read() */
			settle(a[0], s->pid, K_DROP);
		break;
	case A_SYNC0:
		settle(a[0], s->pid, K_SYNC);
		break;
	case A_SYNC1:
		settle(a[1], s->pid, K_SYNC);
		break;
	case A_SYNC02:
		settle(a[0], s->pid, K_SYNC);
		settle(a[2], s->pid, K_SYNC);
		break;
	case A_CLONE:
		cloning(s->pid, a[0]);
		break;
	case A_CLONE3:
		/* struct clone_args starts with the flags */
		if (sysgate_copy_nofault(&flags, (void *)a[0], sizeof(flags)))
			flags = CLONE_VM | CLONE_FILES | CLONE_VFORK;
		cloning(s->pid, flags);
		break;
	case A_FORK:
		cloning(s->pid, 0);
		break;
	case A_VFORK:
		cloning(s->pid, CLONE_VM | CLONE_VFORK);
		break;
	case A_EXEC:
		/* The new program's sysgate knows nothing of our offsets. */
		settle_all(s->pid, K_SYNC);
		break;
	case A_SENDMSG:
		/* SCM_RIGHTS hands our files to another process. */
		if (a[1] && has_control((const struct msghdr *)a[1]))
			settle_all(s->pid, K_SHARED);
		break;
	case A_OFF:
		/* io_uring reads and closes files behind our back. */
		__atomic_store_n(&files_off, 1, __ATOMIC_RELAXED);
		settle_all(s->pid, K_DROP);
		break;
	case A_OPEN:
		/* /proc/self/fdinfo shows offsets: give them back first. */
		settle_all(s->pid, K_SYNC);
		break;
	}
	return SYSGATE_RUN;
}

/* The second table: opens, whose result names a file this process alone
 * reads through its own offset.  A separate hook so that only these calls
 * pay for an exit callback. */
static void track_exit(struct sysgate_sys *s, void *data)
{
	struct fent *e = ent(s->ret);

	(void)data;
	if (!e || sysgate_is_error(s->ret) || (s->flags & SYSGATE_SYS_CHILD))
		return;
	while (!lock(e))
		;
	if (e->pid == s->pid)
		drop_locked(e, s->ret);
	e->state = S_UNKNOWN;	/* a parent's mapping stays its own */
	e->map = 0;
	e->pid = s->pid;
	note_fd(s->ret);
	e->opened = !files_off;
	e->wstate = W_UNKNOWN;
	unlock(e);
}

static const struct {
	const char *name;
	unsigned char act;
	unsigned int need;	/* BYPASS_* that need it */
} calls[] = {
	{ "pread64", A_PREAD, BYPASS_PREAD },
	{ "read", A_READ, BYPASS_READ },
	{ "lseek", A_LSEEK, BYPASS_READ },
	{ "getpid", A_GETPID, BYPASS_IDS },
	{ "gettid", A_GETTID, BYPASS_IDS },
	{ "getppid", A_GETPPID, BYPASS_IDS },
	{ "uname", A_UNAME, BYPASS_UNAME },
	{ "write", A_WRITE, BYPASS_WLOG },	/* before write's A_SYNC0 */
	{ "pwrite64", A_PWRITE, BYPASS_WLOG },
	{ "fsync", A_FSYNC, BYPASS_WLOG },
	{ "fdatasync", A_FSYNC, BYPASS_WLOG },
	{ "sethostname", A_UNAME_CHANGE, BYPASS_UNAME },
	{ "setdomainname", A_UNAME_CHANGE, BYPASS_UNAME },
	{ "setns", A_UNAME_CHANGE, BYPASS_UNAME },
	{ "unshare", A_UNAME_CHANGE, BYPASS_UNAME },
	{ "personality", A_UNAME_CHANGE, BYPASS_UNAME },
	{ "close", A_CLOSE, BYPASS_FILES },
	{ "close_range", A_CLOSE_RANGE, BYPASS_FILES },
	{ "dup", A_DUP, BYPASS_FILES },
	{ "dup2", A_DUP2, BYPASS_FILES },
	{ "dup3", A_DUP2, BYPASS_FILES },
	{ "fcntl", A_FCNTL, BYPASS_FILES },
	{ "clone", A_CLONE, BYPASS_FILES },
	{ "clone3", A_CLONE3, BYPASS_FILES },
	{ "fork", A_FORK, BYPASS_FILES },
	{ "vfork", A_VFORK, BYPASS_FILES },
	{ "io_uring_setup", A_OFF, BYPASS_FILES },
	{ "io_uring_enter", A_OFF, BYPASS_FILES },
	{ "io_uring_register", A_OFF, BYPASS_FILES },
	/* Calls that use or move a kept read() offset. */
	{ "readv", A_SYNC0, BYPASS_READ },
	{ "write", A_SYNC0, BYPASS_READ },
	{ "writev", A_SYNC0, BYPASS_READ },
	{ "preadv2", A_SYNC0, BYPASS_READ },
	{ "pwritev2", A_SYNC0, BYPASS_READ },
	{ "ioctl", A_SYNC0, BYPASS_READ },	/* FIONREAD: size - offset */
	{ "sendfile", A_SYNC1, BYPASS_READ },
	{ "splice", A_SYNC02, BYPASS_READ },
	{ "copy_file_range", A_SYNC02, BYPASS_READ },
	{ "execve", A_EXEC, BYPASS_READ },
	{ "execveat", A_EXEC, BYPASS_READ },
	{ "sendmsg", A_SENDMSG, BYPASS_READ },
	{ "sendmmsg", A_OFF, BYPASS_READ },
	{ "open", A_OPEN, BYPASS_READ },
	{ "openat", A_OPEN, BYPASS_READ },
	{ "openat2", A_OPEN, BYPASS_READ },
	{ "creat", A_OPEN, BYPASS_READ },
};

static const char *const opens[] = { "open", "openat", "openat2", "creat" };

static int bypass_init(struct sysgate_ctx *ctx, const char *args)
{
	static const struct nr_want nrs[] = {
		{ &nr_lseek, "lseek" }, { &nr_fstat, "fstat" },
		{ &nr_fstatfs, "fstatfs" }, { &nr_fcntl, "fcntl" },
		{ &nr_mmap, "mmap" }, { &nr_munmap, "munmap" },
		{ &nr_getppid, "getppid" }, { &nr_uname, "uname" },
	};
	struct arg a;
	unsigned int i;
	long m;

	while (args_next(&args, &a)) {
		if (!arg_is(&a, "list") || !a.val)
			return sysgate_error(ctx, "bypass: unknown argument");
		if (bypass_parse_list(a.val, a.vlen, &want) < 0)
			return sysgate_error(ctx, "bypass: unknown item in "
						  "--bypass list (pread, read, "
						  "ids, uname, all, wlog)");
	}
	if (nr_lookup(nrs, sizeof(nrs) / sizeof(nrs[0])) < 0)
		return sysgate_error(ctx, "bypass: a system call it needs is "
					  "unknown");
	if (want & (BYPASS_PREAD | BYPASS_READ | BYPASS_WLOG))
		want |= BYPASS_FILES;
	if (want & BYPASS_WLOG) {
		if (wlog_init((int)sc(sysgate_syscall_number("getpid"), 0, 0, 0,
				      0, 0, 0)) < 0)
			return sysgate_error(ctx, "bypass: wlog needs io_uring");
		/* every call flushes the thread's queued writes first */
		sysgate_select_all(ctx);
	}
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		long nr = sysgate_syscall_number(calls[i].name);

		if (nr < 0 || nr >= SYSGATE_NR_MAX || !(want & calls[i].need) ||
		    act[nr])
			continue;	/* e.g. no open() on this arch */
		act[nr] = calls[i].act;
		sysgate_select(ctx, nr);
	}
	if (want & BYPASS_FILES) {
		m = sc(nr_mmap, 0, NSLOT * sizeof(*fds), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (sysgate_is_error(m))
			return sysgate_error(ctx, "bypass: out of memory");
		fds = (struct fent *)m;
	}
	return 0;
}

static int track_init(struct sysgate_ctx *ctx, const char *args)
{
	unsigned int i;

	(void)args;
	for (i = 0; i < sizeof(opens) / sizeof(opens[0]); i++)
		sysgate_select_name(ctx, opens[i]);	/* absent on some arches */
	return 0;
}

/* A signal may end the process: its queued writes are made first. */
static void bypass_signal(int sig, const void *info, void *data)
{
	(void)sig;
	(void)info;
	(void)data;
	if (want & BYPASS_WLOG)
		wlog_flush((int)sc(sysgate_syscall_number("getpid"), 0, 0, 0,
				   0, 0, 0),
			   (int)sc(sysgate_syscall_number("gettid"), 0, 0, 0,
				   0, 0, 0));
}

static void bypass_fork_child(void *data)
{
	(void)data;
	if (want & BYPASS_WLOG)
		wlog_fork_child((int)sc(sysgate_syscall_number("getpid"), 0, 0,
					0, 0, 0, 0));
}

const struct sysgate_hook sg_builtin_bypass = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "bypass",
	.init = bypass_init,
	.enter = bypass_enter,
	.signal = bypass_signal,
	.fork_child = bypass_fork_child,
};

const struct sysgate_hook sg_builtin_bypass_track = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "bypass-track",
	.init = track_init,
	.exit = track_exit,
};

int bypass_mappable_fs(long t)
{
	return t == TMPFS_MAGIC || t == EXT4_SUPER_MAGIC ||
	       t == XFS_SUPER_MAGIC || t == BTRFS_SUPER_MAGIC;
}

int bypass_parse_list(const char *s, size_t n, unsigned int *mask)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} items[] = {
		{ "pread", BYPASS_PREAD }, { "read", BYPASS_READ },
		{ "ids", BYPASS_IDS }, { "uname", BYPASS_UNAME },
		{ "wlog", BYPASS_WLOG },
		{ "all", BYPASS_DEFAULT | BYPASS_UNAME },
	};
	size_t i = 0, j, k;

	*mask = n ? 0 : BYPASS_DEFAULT;
	while (i < n) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		for (k = 0; k < sizeof(items) / sizeof(items[0]); k++)
			if (hk_strlen(items[k].name) == j - i &&
			    !hk_strncmp(items[k].name, s + i, j - i))
				break;
		if (k == sizeof(items) / sizeof(items[0]))
			return -1;
		*mask |= items[k].bit;
		i = j + 1;
	}
	return 0;
}
