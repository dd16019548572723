/* SPDX-License-Identifier: MIT */
/*
 * fs: the hook's front door.  `sysgate --fs=/PREFIX[:STORE]` serves every
 * path under /PREFIX from a store (front.h) and passes everything else to
 * the kernel.  Written only against include/sysgate.h.
 *
 * A call on one of our descriptors goes to its store's fd_call; a call
 * that names a path is found in one table (calls[]), which says where its
 * paths and directory descriptors are, how its arguments become one of the
 * stores' operations (FS_OP_*), and what those take.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"
#include "../lib/fmt.h"

/* How a call's arguments become an operation's. */
enum {
	F_PLAIN,	/* x, y: arguments xa, ya */
	F_CREAT,	/* open(path, O_CREAT | O_WRONLY | O_TRUNC, ya) */
	F_OPENAT2,	/* struct open_how at xa, its size at ya */
	F_UNLINKAT,	/* flags at xa: AT_REMOVEDIR is rmdir */
	F_CHMOD2,	/* fchmodat2: flags at 3 checked */
	F_UTIME,	/* struct utimbuf at xa (seconds) */
	F_UTIMES,	/* struct timeval[2] at xa */
	F_UTIMENS,	/* struct timespec[2] at xa */
	F_EXEC,		/* execve(at): exec_call */
};

/* One call that names a path: its path argument and that path's dirfd
 * argument (-1: AT_FDCWD); a second pair for rename and link. */
struct pcall {
	long nr;
	signed char path, dirfd, path2, dirfd2, xa, ya;
	unsigned char op, form;
};

#define P1(nr, p, d, op, x, y, f) { nr, p, d, -1, -1, x, y, op, f }
static const struct pcall calls[] = {
	P1(__NR_open, 0, -1, FS_OP_OPEN, 1, 2, F_PLAIN),
	P1(__NR_creat, 0, -1, FS_OP_OPEN, -1, 1, F_CREAT),
	P1(__NR_openat, 1, 0, FS_OP_OPEN, 2, 3, F_PLAIN),
	P1(__NR_openat2, 1, 0, FS_OP_OPEN, 2, 3, F_OPENAT2),
	P1(__NR_stat, 0, -1, FS_OP_STAT, 1, -1, F_PLAIN),
	P1(__NR_lstat, 0, -1, FS_OP_STAT, 1, -1, F_PLAIN),
	P1(__NR_newfstatat, 1, 0, FS_OP_STAT, 2, -1, F_PLAIN),
	P1(__NR_statx, 1, 0, FS_OP_STATX, 4, -1, F_PLAIN),
	P1(__NR_access, 0, -1, FS_OP_ACCESS, 1, -1, F_PLAIN),
	P1(__NR_faccessat, 1, 0, FS_OP_ACCESS, 2, -1, F_PLAIN),
	P1(__NR_faccessat2, 1, 0, FS_OP_ACCESS, 2, -1, F_PLAIN),
	P1(__NR_mkdir, 0, -1, FS_OP_MKDIR, 1, -1, F_PLAIN),
	P1(__NR_mkdirat, 1, 0, FS_OP_MKDIR, 2, -1, F_PLAIN),
	P1(__NR_mknod, 0, -1, FS_OP_MKNOD, 1, -1, F_PLAIN),
	P1(__NR_mknodat, 1, 0, FS_OP_MKNOD, 2, -1, F_PLAIN),
	P1(__NR_rmdir, 0, -1, FS_OP_RMDIR, -1, -1, F_PLAIN),
	P1(__NR_unlink, 0, -1, FS_OP_UNLINK, -1, -1, F_PLAIN),
	P1(__NR_unlinkat, 1, 0, FS_OP_UNLINK, 2, -1, F_UNLINKAT),
	{ __NR_rename, 0, -1, 1, -1, -1, -1, FS_OP_RENAME, F_PLAIN },
	{ __NR_renameat, 1, 0, 3, 2, -1, -1, FS_OP_RENAME, F_PLAIN },
	{ __NR_renameat2, 1, 0, 3, 2, 4, -1, FS_OP_RENAME, F_PLAIN },
	{ __NR_link, 0, -1, 1, -1, -1, -1, FS_OP_LINK, F_PLAIN },
	{ __NR_linkat, 1, 0, 3, 2, -1, -1, FS_OP_LINK, F_PLAIN },
	P1(__NR_symlink, 1, -1, FS_OP_SYMLINK, 0, -1, F_PLAIN),
	P1(__NR_symlinkat, 2, 1, FS_OP_SYMLINK, 0, -1, F_PLAIN),
	P1(__NR_readlink, 0, -1, FS_OP_READLINK, 1, 2, F_PLAIN),
	P1(__NR_readlinkat, 1, 0, FS_OP_READLINK, 2, 3, F_PLAIN),
	P1(__NR_chmod, 0, -1, FS_OP_CHMOD, 1, -1, F_PLAIN),
	P1(__NR_fchmodat, 1, 0, FS_OP_CHMOD, 2, -1, F_PLAIN),
	P1(__NR_fchmodat2, 1, 0, FS_OP_CHMOD, 2, -1, F_CHMOD2),
	P1(__NR_chown, 0, -1, FS_OP_CHOWN, 1, 2, F_PLAIN),
	P1(__NR_lchown, 0, -1, FS_OP_CHOWN, 1, 2, F_PLAIN),
	P1(__NR_fchownat, 1, 0, FS_OP_CHOWN, 2, 3, F_PLAIN),
	P1(__NR_utime, 0, -1, FS_OP_UTIMENS, 1, -1, F_UTIME),
	P1(__NR_utimes, 0, -1, FS_OP_UTIMENS, 1, -1, F_UTIMES),
	P1(__NR_futimesat, 1, 0, FS_OP_UTIMENS, 2, -1, F_UTIMES),
	P1(__NR_utimensat, 1, 0, FS_OP_UTIMENS, 2, -1, F_UTIMENS),
	P1(__NR_truncate, 0, -1, FS_OP_TRUNCATE, 1, -1, F_PLAIN),
	P1(__NR_chdir, 0, -1, FS_OP_CHDIR, -1, -1, F_PLAIN),
	P1(__NR_statfs, 0, -1, FS_OP_STATFS, 1, -1, F_PLAIN),
	P1(__NR_setxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_lsetxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_getxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_lgetxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_listxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_llistxattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_removexattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_lremovexattr, 0, -1, FS_OP_XATTR, -1, -1, F_PLAIN),
	P1(__NR_execve, 0, -1, 0, -1, -1, F_EXEC),
	P1(__NR_execveat, 1, 0, 0, -1, -1, F_EXEC),
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

/* calls[] by number (entry + 1; 0: none), made once. */
static unsigned char call_index[SYSGATE_NR_MAX];

void fs_calls_index(void)
{
	unsigned int i;

	for (i = 0; i < NCALLS; i++)
		if (calls[i].nr >= 0 && calls[i].nr < SYSGATE_NR_MAX)
			call_index[calls[i].nr] = i + 1;
}

const struct fs_store *fs_store = &fs_arena_store;

/*
 * execve of ours: the program from a memfd, or a script's interpreter,
 * which may be ours again (fs_exec_prepare).
 */
static long exec_call(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, int *run)
{
	char name[FS_PATH_MAX];
	int depth;
	long r = -ELOOP;

	for (depth = 0; depth < 5; depth++) {
		int at = s->nr == __NR_execveat;

		if (fs_get_path(s, pr, at, at ? s->args[0] : AT_FDCWD, p, 0) ==
		    KERNEL) {
			*run = 1;
			return 0;
		}
		if ((r = fs_need(p)))
			break;
		if (fs_store != &fs_arena_store) {
			r = fs_ceph_exec(s, p);
			if (!r)
				*run = 1;
			if (r <= 0)
				break;
			r = -ELOOP;
			continue;
		}
		/* What the interpreter of a script is to open. */
		if (!at || p->buf[0] == '/')
			hk_memcpy(name, p->buf, hk_strlen(p->buf) + 1);
		else if ((r = fs_ino_path(p->ino, name, sizeof(name))) < 0)
			break;
		r = fs_exec_prepare(s, p->ino, name);
		if (!r)
			*run = 1;
		if (r <= 0)
			break;
		r = -ELOOP;
	}
	if (r < 0)
		fs_exec_failed();
	return r;
}

/* The program's times, in whichever form the call has, as utimensat's. */
static long read_times(struct sysgate_sys *s, int form, long uptr,
		       struct fs_ts *ts)
{
	long v[4];
	int usec = form == F_UTIMES;

	if (form == F_UTIMENS)
		return fs_read_mem(s, ts, (void *)uptr,
					2 * sizeof(*ts)) < 0 ? -EFAULT : 0;
	if (fs_read_mem(s, v, (void *)uptr,
			     (usec ? 4 : 2) * sizeof(long)) < 0)
		return -EFAULT;
	ts[0].sec = v[0];
	ts[0].nsec = usec ? v[1] * 1000 : 0;
	ts[1].sec = usec ? v[2] : v[1];
	ts[1].nsec = usec ? v[3] * 1000 : 0;
	return 0;
}

/* Other calls on a path of ours (inotify...): not served. */
static long other_path_call(struct sysgate_sys *s, struct proc *pr,
			    struct fs_path *p, int *run)
{
	const char *k = sysgate_syscall_args(s->nr);
	int i;

	for (i = 0; k && k[i] && i < 6; i++)
		if (k[i] == 's')
			break;
	if (k && k[i] && i < 6 &&
	    fs_get_path(s, pr, i, i && k[i - 1] == 'D' ? s->args[i - 1] :
			AT_FDCWD, p, 0) == OURS)
		return fs_need(p) ? fs_need(p) : -EOPNOTSUPP;
	*run = 1;
	return 0;
}

static long path_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	struct fs_path p[2];
	const struct pcall *c;
	long *a = s->args, x, y, r;
	struct fs_ts ts[2];
	int op;

	if (s->nr < 0 || s->nr >= SYSGATE_NR_MAX || !call_index[s->nr])
		return other_path_call(s, pr, p, run);
	c = &calls[call_index[s->nr] - 1];
	if (c->form == F_EXEC)
		return exec_call(s, pr, p, run);
	if (c->path2 < 0) {
		if (fs_get_path(s, pr, c->path, c->dirfd < 0 ? AT_FDCWD :
					       a[c->dirfd], &p[0], 0) == KERNEL) {
			*run = 1;
			return 0;
		}
	} else {
		/* Two paths: both ours, or EXDEV once the first is known to
		 * exist. */
		int k1 = fs_get_path(s, pr, c->path, c->dirfd < 0 ? AT_FDCWD :
						     a[c->dirfd], &p[0], 0);
		int k2 = fs_get_path(s, pr, c->path2, c->dirfd2 < 0 ?
				     AT_FDCWD : a[c->dirfd2], &p[1], 1);

		if (k1 == KERNEL && k2 == KERNEL) {
			*run = 1;
			return 0;
		}
		/* (the kernel reads both names before it looks at either:
		 * a second one it cannot read is EFAULT, too long or empty
		 * ENAMETOOLONG or ENOENT, not EXDEV) */
		if (k1 == OURS && k2 == KERNEL &&
		    (r = fs_symlink_target(s, p[1].buf, sizeof(p[1].buf),
					   a[c->path2])) < 0)
			return r;
		if (k1 != k2)
			return k1 == OURS ? (fs_need(&p[0]) ? fs_need(&p[0]) :
					     -EXDEV) :
					    fs_kernel_exists(s, c->path);
	}
	op = c->op;
	x = c->xa < 0 ? 0 : a[c->xa];
	y = c->ya < 0 ? 0 : a[c->ya];
	switch (c->form) {
	case F_CREAT:
		x = O_CREAT | O_WRONLY | O_TRUNC;
		break;
	case F_OPENAT2: {
		unsigned long how[3];

		if (y < 24 || fs_read_mem(s, how, (void *)x,
					       sizeof(how)) < 0)
			return y < 24 ? -EINVAL : -EFAULT;
		x = how[0];
		y = how[1];
		break;
	}
	case F_UNLINKAT:
		if (x & ~(long)AT_REMOVEDIR)
			return -EINVAL;
		if (x)
			op = FS_OP_RMDIR;
		break;
	case F_CHMOD2:
		if (a[3] & ~(long)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		break;
	case F_UTIME:
	case F_UTIMES:
	case F_UTIMENS:
		if ((r = fs_need(p)))
			return r;
		if (x && (r = read_times(s, c->form, x, ts)) < 0)
			return r;
		x = x ? (long)ts : 0;
		break;
	}
	return fs_store->ops[op](s, pr, p, x, y);
}

/* A call that names a path, or utimensat/statx on a descriptor of ours. */
static int takes_path(long nr)
{
	const char *k = sysgate_syscall_args(nr);

	if (nr == __NR_fchmodat2)
		return 1;	/* newer than the table */
	return (sysgate_syscall_classes(nr) & SYSGATE_CLASS_FILE) && k &&
	       hk_strlen(k) > 0 && (k[0] == 's' || (k[0] == 'D' && k[1] == 's') ||
				    nr == __NR_symlinkat
				    || nr == __NR_symlink || nr == __NR_rename ||
				    nr == __NR_link
				    );
}

long fs_symlink_target(struct sysgate_sys *s, char *buf, unsigned long size,
		       long target)
{
	int trunc = 0;
	long n = fs_read_str(s, buf, (const void *)target, size, &trunc);

	if (n < 0)
		return -EFAULT;
	if (trunc)
		return -ENAMETOOLONG;
	return n ? n : -ENOENT;
}

long fs_getcwd(struct sysgate_sys *s, struct proc *pr)
{
	char buf[FS_PATH_MAX];
	long n = fs_store == &fs_arena_store ?
			 fs_dir_path(pr->cwd, buf, sizeof(buf)) :
			 (long)hk_strlen(pr->scwd);

	if (fs_store != &fs_arena_store)
		hk_memcpy(buf, pr->scwd, n + 1);

	if (n < 0)
		return n;
	if ((unsigned long)n + 1 > (unsigned long)s->args[1])
		return -ERANGE;
	if (fs_write_mem(s, (void *)s->args[0], buf, n + 1) < 0)
		return -EFAULT;
	return n + 1;
}

static long fd_call_any(struct sysgate_sys *s, struct proc *pr, int *run)
{
	unsigned int o = fs_ofd_of(pr, s->args[fs_virtual_fd_arg(pr, s->nr,
							    s->args)]);

	(void)run;
	return fs_ofd(o)->ino ? fs_store->fd_call(s, pr, o) : -EBADF;
}

static long locked(struct sysgate_sys *s, long (*fn)(struct sysgate_sys *,
						     struct proc *, int *),
		   struct proc *pr, int *run)
{
	long r;

	/* A store that talks to a server takes the lock itself, only
	 * around what it changes in the arena. */
	if (!fs_store->arena_locked && (fn == path_call || fn == fd_call_any))
		return fn(s, pr, run);
	/* (a copy may wait on a pipe: it locks around the store's calls) */
	if (fn == fs_copy_call)
		return fn(s, pr, run);
	fs_lock(s->tid);
	r = fn(s, pr, run);
	fs_unlock();
	return r;
}


static long getcwd_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	(void)run;
	return fs_getcwd(s, pr);
}

enum sysgate_verdict fs_enter(struct sysgate_sys *s, void *data)
{
	long (*fn)(struct sysgate_sys *, struct proc *, int *) = 0;
	struct proc *pr = fs_proc_of(s->pid);
	long nr = s->nr;
	int run = 0;
	long r;

	(void)data;
	if (!fs_ready)
		return SYSGATE_RUN;
	if (nr == __NR_clone || nr == __NR_clone3 || nr == __NR_vfork) {
		fs_note_clone(s);
		return SYSGATE_RUN;
	}
	if (nr == __NR_close && fs_hidden(s->args[0])) {
		s->ret = -EBADF;	/* the program never had it */
		return SYSGATE_SKIP;
	}
	if (fs_poll_is_call(nr))
		return fs_poll_enter(s) ? SYSGATE_SKIP : SYSGATE_RUN;
	if (fs_epoll_is_wait(nr)) {
		if (!fs_ofd_of(pr, s->args[0]))
			return SYSGATE_RUN;	/* fs_exit puts ours in */
		s->ret = -EINVAL;		/* a file is no epoll instance */
		return SYSGATE_SKIP;
	}
	if (fs_shmaps && (nr == __NR_munmap || nr == __NR_msync ||
			  nr == __NR_mremap ||
			  (nr == __NR_mmap && (s->args[3] & MAP_FIXED)))) {
		fs_shmap_enter(s);	/* our mappings there, written back */
		if (nr != __NR_mmap || !fs_ofd_of(pr, s->args[4]))
			return SYSGATE_RUN;
	}
	if (nr == __NR_mmap && (s->args[3] & MAP_ANONYMOUS))
		return SYSGATE_RUN;
	if (nr == __NR_dup2 || nr == __NR_dup3)
		fn = fs_dup_call;
	else if (nr == __NR_close_range)
		fn = fs_close_range_call;
	else if (nr == __NR_getcwd && pr->cwd)
		fn = getcwd_call;
	else if (fs_virtual_fd_arg(pr, nr, s->args) >= 0)
		fn = fs_copy_is_call(nr) ? fs_copy_call : fd_call_any;
	else if (takes_path(nr))
		fn = path_call;
	if (!fn)
		return SYSGATE_RUN;
	r = locked(s, fn, pr, &run);
	if (run)
		return SYSGATE_RUN;
	s->ret = r;
	return SYSGATE_SKIP;
}

void fs_exit(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (!fs_ready)
		return;
	if (!(s->flags & SYSGATE_SYS_SKIPPED) && fs_poll_is_call(s->nr))
		fs_poll_exit(s);
	if (!(s->flags & SYSGATE_SYS_SKIPPED) && fs_epoll_is_wait(s->nr))
		fs_epoll_wait_exit(s);
	if ((s->nr == __NR_clone || s->nr == __NR_clone3 ||
	     s->nr == __NR_vfork) && !(s->flags & SYSGATE_SYS_CHILD)) {
		fs_vforking = 0;	/* the child has started (or failed to) */
		/* A vfork child's execve of ours, in this memory, is over:
		 * its copy was the child's descriptor. */
		fs_exec_fd = 0;
		fs_exec_failed();
		if (fs_store == &fs_ceph_store)
			fs_ceph_vfork_back();
	}
	if (s->nr == __NR_mremap)
		fs_shmap_exit(s);
	if ((s->nr == __NR_execve || s->nr == __NR_execveat) &&
	    !(s->flags & SYSGATE_SYS_EXECVE))
		fs_exec_failed();	/* it returned */
	if (sysgate_is_error(s->ret) || (s->flags & SYSGATE_SYS_SKIPPED))
		return;
	/* The kernel's working directory changed: follow it as text. */
	if (s->nr == __NR_chdir || s->nr == __NR_fchdir) {
		struct proc *pr = fs_proc_of(s->pid);

		fs_refresh_kcwd(pr);
		pr->cwd = 0;
	}
}
