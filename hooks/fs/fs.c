/* SPDX-License-Identifier: MIT */
/*
 * fs: the hook.  `sysgate --fs=/PREFIX[:BACKING] [--fs-size=N]` serves
 * every path under /PREFIX from the arena (store.c) and passes everything
 * else to the kernel.  Written only against include/sysgate.h.
 *
 * Descriptors: opening one of our files opens a placeholder in the kernel
 * (procfd.c: a duplicate of an empty sealed memfd, never a real file) and
 * uses its number, so the kernel never hands that number out twice,
 * close-on-exec and close_range behave, and a call we do not know meets
 * the memfd instead of a real file.  The per-process table maps those
 * numbers to open file descriptions in the arena; fork copies the table
 * (and takes references), threads share it, a vfork child gets its own
 * copy so it cannot change its parent's, and execve carries it to the
 * next program.  Paths that name a descriptor (/proc/self/fd/N...) are
 * procfd.c's; execve of a program of ours is exec.c's.
 *
 * The working directory is tracked: the kernel's as text (relative paths
 * can reach the prefix through it), or one of our directories, while the
 * kernel's stays where it was.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "fs.h"
#include "../lib/args.h"
#include "../lib/fmt.h"

#define MAXFD 65536
#define SEEK_SET_ 0
#define SEEK_CUR_ 1
#define SEEK_END_ 2
#define SEEK_DATA_ 3
#define SEEK_HOLE_ 4
#define RENAME_NOREPLACE_ 1
#define RENAME_EXCHANGE_ 2
#define UTIME_NOW_ ((1L << 30) - 1)
#define UTIME_OMIT_ ((1L << 30) - 2)
#define CLONE_VM_ 0x100
#define CLONE_THREAD_ 0x10000
#define CLOSE_RANGE_CLOEXEC_ 4
#define PR_SET_NAME_ 15
#define ST_DEV ((0x47UL) | (0xfff00UL << 12))	/* major 0, minor 0xfff47 */
#define TMPFS_MAGIC_ 0x01021994
#define OPEN_KEEP (O_ACCMODE | O_APPEND | O_NONBLOCK | O_DIRECTORY | \
		   O_PATH | O_NOATIME | O_DIRECT | O_SYNC | O_DSYNC | \
		   O_LARGEFILE | O_NOFOLLOW)
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME | O_DIRECT)

struct proc {
	int pid;
	unsigned int cwd;		/* our directory; 0: the kernel's */
	int maxfd;			/* highest fd ever in ofd[] + 1 */
	char kcwd[FS_PATH_MAX];		/* the kernel's working directory */
	unsigned short ofd[MAXFD];
};

/* What execve hands to the next program. */
struct carry {
	int arena_fd;
	int ep_fd;
	int ph_fd;
	unsigned int cwd;
	int exec_fd;			/* a program of ours, copied (exec.c) */
	char comm[16];			/* its name */
	int n;
	struct { int fd; unsigned short ofd, cloexec; } e[2048];
};

static struct proc *procs;		/* [0] this process, [1] vfork child */
static __thread int vforking;		/* set around vfork-like clones */
static __thread char rewritten[2][FS_PATH_MAX + 2];
static int ready;

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

static struct proc *proc_of(int pid)
{
	return procs[1].pid == pid ? &procs[1] : &procs[0];
}

/* Descriptors are ints: the upper half of the register is junk. */
static unsigned int ofd_of(struct proc *p, long fd)
{
	int f = (int)fd;

	return f >= 0 && f < MAXFD ? p->ofd[f] : 0;
}

unsigned int fs_fd_ofd(const struct sysgate_sys *s, long fd)
{
	return ofd_of(proc_of(s->pid), fd);
}

int fs_fd_virtual(const struct sysgate_sys *s, long fd)
{
	return fs_fd_ofd(s, fd) != 0;
}

unsigned int fs_cwd(const struct sysgate_sys *s)
{
	return proc_of(s->pid)->cwd;
}

/* Descriptors of ours the program never had: the arena, the sentinel,
 * what placeholders duplicate (-1: none). */
static int *const hides[] = { &fs_ar.fd, &fs_ep_fd, &fs_ph_fd };
#define NHIDE (int)(sizeof(hides) / sizeof(hides[0]))

static int hidden(long fd)
{
	int i;

	for (i = 0; i < NHIDE; i++)
		if ((int)fd == *hides[i])
			return 1;
	return 0;
}

static void install(struct proc *p, int fd, unsigned int ofd)
{
	p->ofd[fd] = ofd;
	if (fd >= p->maxfd)
		p->maxfd = fd + 1;
}

static void drop(struct proc *p, int fd)
{
	unsigned int o = ofd_of(p, fd);

	if (o) {
		p->ofd[fd] = 0;
		fs_ofd_unref(p->pid, o);
	}
}

static void refresh_kcwd(struct proc *p)
{
	if (sc(__NR_getcwd, (long)p->kcwd, sizeof(p->kcwd), 0, 0, 0, 0) < 0)
		p->kcwd[0] = 0;
}

/* ---- paths ---- */

enum { KERNEL, OURS };

/* Does the call follow a symbolic link that its path argument i ends in?
 * Calls that look the name up do when it ends in '/'; calls that make or
 * remove the name (unlink, rename, mkdir...) never do. */
static int follows(struct sysgate_sys *s, int i)
{
	long *a = s->args, f;

	switch (s->nr) {
	case __NR_open:
	case __NR_openat:
	case __NR_openat2:
		f = a[i + 1];	/* the flags, or openat2's struct open_how */
		if (s->nr == __NR_openat2 &&
		    sysgate_read_mem(s, &f, (void *)a[i + 1], sizeof(f)) < 0)
			f = 0;
		return (f & O_NOFOLLOW) ||
		       (f & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ?
			       FS_SLASH_FOLLOWS : FS_FOLLOW;
	case __NR_lstat:
	case __NR_lchown:
	case __NR_readlink:
	case __NR_readlinkat:
		return FS_SLASH_FOLLOWS;
	case __NR_unlink:
	case __NR_unlinkat:
	case __NR_rmdir:
	case __NR_rename:
	case __NR_renameat:
	case __NR_renameat2:
	case __NR_symlink:
	case __NR_symlinkat:
	case __NR_mkdir:
	case __NR_mkdirat:
	case __NR_mknod:
	case __NR_mknodat:
		return FS_NOFOLLOW;
	case __NR_link:
		return i == 0 ? FS_SLASH_FOLLOWS : FS_NOFOLLOW;
	case __NR_linkat:
		return i == 3 ? FS_NOFOLLOW : (a[4] & AT_SYMLINK_FOLLOW) ?
					      FS_FOLLOW : FS_SLASH_FOLLOWS;
	case __NR_newfstatat:
	case __NR_faccessat2:
	case __NR_utimensat:
	case __NR_fchmodat2:
		f = a[3];
		break;
	case __NR_statx:
		f = a[2];
		break;
	case __NR_fchownat:
		f = a[4];
		break;
	default:
		return FS_FOLLOW;
	}
	return (f & AT_SYMLINK_NOFOLLOW) ? FS_SLASH_FOLLOWS : FS_FOLLOW;
}

/* The flags of a call that takes AT_EMPTY_PATH for its path argument i. */
static long empty_path_flags(const struct sysgate_sys *s, int i)
{
	const long *a = s->args;

	switch (s->nr) {
	case __NR_newfstatat:
	case __NR_faccessat2:
	case __NR_utimensat:
	case __NR_fchmodat2:
		return a[3];
	case __NR_statx:
		return a[2];
	case __NR_fchownat:
	case __NR_execveat:
		return a[4];
	case __NR_linkat:
		return i == 1 ? a[4] : 0;
	default:
		return 0;
	}
}

/* An empty path names dirfd itself (or the working directory) where the
 * call says AT_EMPTY_PATH, as does utimensat's NULL; else ENOENT. */
static int empty_path(struct sysgate_sys *s, struct proc *pr, int i,
		      long dirfd, struct fs_path *p, int null)
{
	unsigned int o = ofd_of(pr, dirfd),
		     ino = dirfd == AT_FDCWD ? pr->cwd : o ? fs_ofd(o)->ino : 0;

	if (!ino || (null && dirfd == AT_FDCWD))
		return KERNEL;	/* the kernel's descriptor, or EBADF */
	fs_path_ino(p, ino);
	p->buf[0] = 0;
	if (!null && !(empty_path_flags(s, i) & AT_EMPTY_PATH))
		p->err = -ENOENT;
	return OURS;
}

/* The path of a kernel directory descriptor, as text. */
static long kernel_dir(long fd, char *buf)
{
	char link[32];
	struct fmt f;
	long n;

	fmt_init(&f, link, sizeof(link));
	fmt_str(&f, "/proc/self/fd/");
	fmt_dec(&f, fd);
	fmt_chr(&f, 0);
	n = sc(__NR_readlinkat, AT_FDCWD, (long)link, (long)buf,
	       FS_PATH_MAX - 1, 0, 0);
	if (n <= 0 || buf[0] != '/')
		return -ENOENT;		/* not a directory that has a path */
	buf[n] = 0;
	return 0;
}

/*
 * Read and resolve the path argument args[i] relative to dirfd.  KERNEL:
 * the call runs in the kernel (its path possibly rewritten); OURS: *p
 * describes our file, or p->err says why not, or p->magic names a /proc
 * entry of one of ours that the call reads.
 */
static int get_path(struct sysgate_sys *s, struct proc *pr, int i,
		    long dirfd, struct fs_path *p, int which)
{
	unsigned int start = 0;
	const char *realdir = pr->kcwd;
	char kdir[FS_PATH_MAX];
	int trunc = 0;
	long n;

	p->sys = s;
	dirfd = (int)dirfd;
	/* NULL: utimensat's dirfd, or (Linux 6.11) as "" with AT_EMPTY_PATH */
	if (!s->args[i] && s->nr == __NR_utimensat)
		return empty_path(s, pr, i, dirfd, p, 1);
	if (!s->args[i] && (empty_path_flags(s, i) & AT_EMPTY_PATH))
		return empty_path(s, pr, i, dirfd, p, 0);
	n = sysgate_read_str(s, p->buf, (const void *)s->args[i],
			     sizeof(p->buf), &trunc);
	if (!n && !trunc)
		return empty_path(s, pr, i, dirfd, p, 0);
	if (n <= 0 || trunc)
		return KERNEL;	/* the kernel reports EFAULT, ENAMETOOLONG */
	if (p->buf[0] != '/') {
		if (dirfd == AT_FDCWD) {
			start = pr->cwd;
			if (!start && !pr->kcwd[0])
				return KERNEL;
		} else {
			unsigned int o = ofd_of(pr, dirfd);

			/* A kernel directory above the prefix (rsync opens /
			 * and walks down): its text, where the path may reach
			 * ours. */
			if (!o && (!fs_names_prefix(p->buf) ||
				   kernel_dir(dirfd, kdir) < 0))
				return KERNEL;
			if (!o) {
				realdir = kdir;
				goto resolve;
			}
			start = fs_ofd(o)->ino;
			if (!fs_is_dir(fs_ino(start))) {
				p->virt = 1;
				p->err = -ENOTDIR;
				return OURS;
			}
		}
	}
resolve:
	fs_resolve(p, start, realdir, follows(s, i));
	if (p->virt || fs_magic_served(s->nr, p))
		return OURS;
	if (p->rewrite) {
		hk_memcpy(rewritten[which], p->real, hk_strlen(p->real) + 1);
		s->args[i] = (long)rewritten[which];
	}
	return KERNEL;
}

/* ---- metadata ---- */

static void fill_stat(struct stat *st, unsigned int ino)
{
	struct fs_inode *n = fs_ino(ino);

	hk_memset(st, 0, sizeof(*st));
	st->st_dev = ST_DEV;
	st->st_ino = ino;
	st->st_nlink = n->nlink;
	st->st_mode = n->mode;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_size = fs_is_dir(n) ? (n->nent + 2) * 20 : n->size;
	st->st_blksize = FS_BLOCK;
	st->st_blocks = n->nblocks * (FS_BLOCK / 512);
	st->st_atime = n->atime[0];
	st->st_atime_nsec = n->atime[1];
	st->st_mtime = n->mtime[0];
	st->st_mtime_nsec = n->mtime[1];
	st->st_ctime = n->ctime[0];
	st->st_ctime_nsec = n->ctime[1];
}

static long put_stat(struct sysgate_sys *s, void *dst, unsigned int ino)
{
	struct stat st;

	fill_stat(&st, ino);
	return sysgate_write_mem(s, dst, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

static long put_statx(struct sysgate_sys *s, void *dst, unsigned int ino)
{
	struct fs_inode *n = fs_ino(ino);
	struct statx x;
	struct stat st;

	fill_stat(&st, ino);
	hk_memset(&x, 0, sizeof(x));
	x.stx_mask = STATX_BASIC_STATS | STATX_BTIME;
	x.stx_blksize = FS_BLOCK;
	x.stx_nlink = st.st_nlink;
	x.stx_uid = st.st_uid;
	x.stx_gid = st.st_gid;
	x.stx_mode = st.st_mode;
	x.stx_ino = ino;
	x.stx_size = st.st_size;
	x.stx_blocks = st.st_blocks;
	x.stx_atime.tv_sec = n->atime[0];
	x.stx_atime.tv_nsec = n->atime[1];
	x.stx_btime.tv_sec = n->btime[0];
	x.stx_btime.tv_nsec = n->btime[1];
	x.stx_ctime.tv_sec = n->ctime[0];
	x.stx_ctime.tv_nsec = n->ctime[1];
	x.stx_mtime.tv_sec = n->mtime[0];
	x.stx_mtime.tv_nsec = n->mtime[1];
	x.stx_dev_major = 0;
	x.stx_dev_minor = 0xfff47;
	return sysgate_write_mem(s, dst, &x, sizeof(x)) < 0 ? -EFAULT : 0;
}

static long put_statfs(struct sysgate_sys *s, void *dst)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned long total = sb->limit ? sb->limit : sb->nblocks;
	struct statfs f;

	hk_memset(&f, 0, sizeof(f));
	f.f_type = TMPFS_MAGIC_;
	f.f_bsize = FS_BLOCK;
	f.f_frsize = FS_BLOCK;
	f.f_blocks = total;
	f.f_bfree = f.f_bavail = total > sb->used ? total - sb->used : 0;
	f.f_files = sb->ninodes;
	f.f_ffree = sb->ninodes - sb->inode_next;
	f.f_namelen = FS_NAME_MAX;
	return sysgate_write_mem(s, dst, &f, sizeof(f)) < 0 ? -EFAULT : 0;
}

static unsigned int umask_now(void)
{
	long m = sc(__NR_umask, 0, 0, 0, 0, 0, 0);

	sc(__NR_umask, m, 0, 0, 0, 0, 0);
	return m;
}

long fs_access(unsigned int ino, long mode)
{
	struct fs_inode *n = fs_ino(ino);
	long uid = sc(__NR_geteuid, 0, 0, 0, 0, 0, 0);
	unsigned int bits;

	if (mode & ~7L)
		return -EINVAL;
	if (!uid) {
		/* root: anything but running what nobody may run */
		if ((mode & 1) && !fs_is_dir(n) && !(n->mode & 0111))
			return -EACCES;
		return 0;
	}
	bits = (unsigned int)uid == n->uid ? n->mode >> 6 : n->mode;
	return (mode & ~bits & 7) ? -EACCES : 0;
}

/* chown: -1 keeps the old id. */
static long set_owner(unsigned int ino, long uid, long gid)
{
	struct fs_inode *n = fs_ino(ino);

	if ((int)uid != -1)
		n->uid = uid;
	if ((int)gid != -1)
		n->gid = gid;
	/* As Linux, for root too: a new owner of a program is no reason to
	 * run it as the old one (set-group-ID without group execute is a
	 * locking mark and stays). */
	if (((int)uid != -1 || (int)gid != -1) && !fs_is_dir(n)) {
		n->mode &= ~S_ISUID;
		if ((n->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			n->mode &= ~S_ISGID;
	}
	fs_touch(n, FS_C);
	return 0;
}

/* ---- creation and removal ---- */

static long create(struct fs_path *p, unsigned int mode)
{
	struct fs_inode *d = fs_ino(p->dir);
	/* A set-group-ID directory hands on its group, and to a directory
	 * the bit as well. */
	int sgid = d->mode & S_ISGID;
	int ino = fs_inode_new(sgid && S_ISDIR(mode) ? mode | S_ISGID : mode,
			       sc(__NR_geteuid, 0, 0, 0, 0, 0, 0),
			       sgid ? d->gid :
				      sc(__NR_getegid, 0, 0, 0, 0, 0, 0));
	long r;

	if (ino < 0)
		return ino;
	if (!d->nlink) {
		fs_ino(ino)->nlink = 0;
		fs_inode_put(ino);
		return -ENOENT;		/* its directory was removed */
	}
	r = fs_link(p->dir, p->name, p->namelen, ino);
	if (r < 0) {
		fs_inode_put(ino);
		return r;
	}
	fs_ino(ino)->nlink = fs_is_dir(fs_ino(ino)) ? 2 : 1;
	if (fs_is_dir(fs_ino(ino)))
		d->nlink++;
	fs_touch(d, FS_M | FS_C);
	return ino;
}

static long do_open(struct proc *pr, struct fs_path *p, long flags, long mode)
{
	unsigned int ino = p->ino;
	long kfd, o, acc = flags & O_ACCMODE;
	struct fs_inode *n;

	if (p->err)
		return p->err;
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EOPNOTSUPP;
	if (!ino) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		if (p->slash)
			return -EISDIR;
	} else if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		return -EEXIST;
	}
	if (ino) {
		n = fs_ino(ino);
		if (fs_is_link(n) && !(flags & O_PATH))
			return -ELOOP;	/* O_NOFOLLOW */
		if (fs_is_dir(n) && !(flags & O_PATH) &&
		    (acc != O_RDONLY || (flags & O_CREAT)))
			return -EISDIR;
		if (!fs_is_dir(n) && (flags & O_DIRECTORY))
			return -ENOTDIR;
		if (!(flags & O_PATH)) {
			long r = fs_access(ino, acc == O_RDONLY ? 4 :
						   acc == O_WRONLY ? 2 : 6);

			if (r < 0)
				return r;
		}
	} else if (flags & O_DIRECTORY) {
		return -EINVAL;	/* O_CREAT | O_DIRECTORY, as Linux 6.x */
	}
	kfd = fs_placeholder(flags & O_CLOEXEC);
	if (kfd < 0)
		return kfd;
	if (kfd >= MAXFD) {
		sc(__NR_close, kfd, 0, 0, 0, 0, 0);
		return -EMFILE;
	}
	if (!ino) {
		long r = create(p, S_IFREG | (mode & 07777 & ~umask_now()));

		if (r < 0) {
			sc(__NR_close, kfd, 0, 0, 0, 0, 0);
			return r;
		}
		ino = r;
	} else if ((flags & O_TRUNC) && acc != O_RDONLY &&
		   !fs_is_dir(fs_ino(ino)) && !(flags & O_PATH)) {
		fs_truncate(ino, 0);
		fs_touch(fs_ino(ino), FS_M | FS_C);
	}
	o = fs_ofd_new(ino, flags & OPEN_KEEP);
	if (o == -ENFILE) {	/* maybe a dead process holds them */
		fs_reap();
		o = fs_ofd_new(ino, flags & OPEN_KEEP);
	}
	if (o < 0) {
		sc(__NR_close, kfd, 0, 0, 0, 0, 0);
		return o;
	}
	fs_share(pr->pid, o, 1);
	install(pr, kfd, o);
	return kfd;
}

static long do_unlink(struct fs_path *p)
{
	struct fs_inode *n;

	if (p->err)
		return p->err;
	if (!p->ino)
		return -ENOENT;
	n = fs_ino(p->ino);
	if (fs_is_dir(n))
		return -EISDIR;
	fs_unlink_name(p->dir, p->name, p->namelen);
	n->nlink--;
	fs_touch(n, FS_C);
	fs_touch(fs_ino(p->dir), FS_M | FS_C);
	fs_inode_put(p->ino);
	return 0;
}

static long do_rmdir(struct fs_path *p)
{
	struct fs_inode *n, *d;

	if (p->err)
		return p->err;
	if (!p->ino)
		return -ENOENT;
	n = fs_ino(p->ino);
	if (!fs_is_dir(n))
		return -ENOTDIR;
	if (p->dot)
		return p->namelen == 1 ? -EINVAL : -ENOTEMPTY;
	if (p->ino == FS_ROOT)
		return -EBUSY;
	if (n->nent)
		return -ENOTEMPTY;
	d = fs_ino(p->dir);
	fs_unlink_name(p->dir, p->name, p->namelen);
	d->nlink--;
	n->nlink = 0;
	fs_touch(d, FS_M | FS_C);
	fs_inode_put(p->ino);
	return 0;
}

/* mkdir and mknod: a new name, or EEXIST. */
static long make_node(struct fs_path *p, unsigned int type, long mode)
{
	long r;

	if (p->err)
		return p->err;
	if (p->ino)
		return -EEXIST;
	r = create(p, type | (mode & 07777 & ~umask_now()));
	return r < 0 ? r : 0;
}

/* Is a an ancestor of (or equal to) directory b? */
static int ancestor(unsigned int a, unsigned int b)
{
	int depth = 0;

	for (;;) {
		if (a == b)
			return 1;
		if (b == FS_ROOT || ++depth > FS_PATH_MAX)
			return 0;
		b = fs_ino(b)->parent;
	}
}

static void dent_set_ino(unsigned int dir, const char *name,
			 unsigned int len, unsigned int ino)
{
	/* rename's exchange: re-link the name to another inode */
	fs_unlink_name(dir, name, len);
	fs_link(dir, name, len, ino);
}

/* rename and link: the old name must exist, the new one's directory. */
static long two_paths(const struct fs_path *op, const struct fs_path *np)
{
	if (op->err)
		return op->err;
	if (!op->ino)
		return -ENOENT;
	return np->err;
}

static long do_rename(struct fs_path *op, struct fs_path *np, long flags)
{
	struct fs_inode *o, *n = 0;
	long r = two_paths(op, np);
	int odir;

	if (r)
		return r;
	if (flags & ~(long)(RENAME_NOREPLACE_ | RENAME_EXCHANGE_))
		return -EINVAL;
	if ((flags & RENAME_NOREPLACE_) && (flags & RENAME_EXCHANGE_))
		return -EINVAL;
	if (op->ino == FS_ROOT || np->ino == FS_ROOT || op->dot || np->dot)
		return -EBUSY;
	o = fs_ino(op->ino);
	odir = fs_is_dir(o);
	if (np->ino)
		n = fs_ino(np->ino);
	if ((flags & RENAME_EXCHANGE_) && !n)
		return -ENOENT;
	if (n && (flags & RENAME_NOREPLACE_))
		return -EEXIST;
	if (!odir && (op->slash || (np->slash && !n)))
		return -ENOTDIR;
	if (np->ino == op->ino)
		return 0;
	if (odir && ancestor(op->ino, np->dir))
		return -EINVAL;
	if (n && (flags & RENAME_EXCHANGE_)) {
		if (fs_is_dir(n) && ancestor(np->ino, op->dir))
			return -EINVAL;
		dent_set_ino(op->dir, op->name, op->namelen, np->ino);
		dent_set_ino(np->dir, np->name, np->namelen, op->ino);
		if (fs_is_dir(n) != odir && op->dir != np->dir) {
			fs_ino(op->dir)->nlink += odir ? -1 : 1;
			fs_ino(np->dir)->nlink += odir ? 1 : -1;
		}
		fs_touch(o, FS_C);
		fs_touch(n, FS_C);
		return 0;
	}
	if (n) {
		if (fs_is_dir(n) && !odir)
			return -EISDIR;
		if (!fs_is_dir(n) && odir)
			return -ENOTDIR;
		if (fs_is_dir(n) && n->nent)
			return -ENOTEMPTY;
	}
	if (n) {
		fs_unlink_name(np->dir, np->name, np->namelen);
		if (fs_is_dir(n)) {
			n->nlink = 0;
			fs_ino(np->dir)->nlink--;
		} else {
			n->nlink--;
		}
		fs_touch(n, FS_C);
	}
	fs_unlink_name(op->dir, op->name, op->namelen);
	fs_link(np->dir, np->name, np->namelen, op->ino);
	if (odir) {
		fs_ino(op->dir)->nlink--;
		fs_ino(np->dir)->nlink++;
	}
	fs_touch(o, FS_C);
	fs_touch(fs_ino(op->dir), FS_M | FS_C);
	fs_touch(fs_ino(np->dir), FS_M | FS_C);
	if (n)
		fs_inode_put(np->ino);
	return 0;
}

static long do_link(struct fs_path *op, struct fs_path *np)
{
	struct fs_inode *o;
	long r = two_paths(op, np);

	if (r)
		return r;
	if (np->ino)
		return -EEXIST;
	o = fs_ino(op->ino);
	if (fs_is_dir(o))
		return -EPERM;
	if (!fs_ino(np->dir)->nlink)
		return -ENOENT;
	r = fs_link(np->dir, np->name, np->namelen, op->ino);
	if (r < 0)
		return r;
	o->nlink++;
	fs_touch(o, FS_C);
	fs_touch(fs_ino(np->dir), FS_M | FS_C);
	return 0;
}

struct ts {
	long sec, nsec;
};

/* utimensat's rule: NULL is now; UTIME_NOW and UTIME_OMIT per time. */
static long apply_times(unsigned int ino, const struct ts *ts)
{
	struct fs_inode *n = fs_ino(ino);
	unsigned long long now = sysgate_realtime_ns();
	int i;

	for (i = 0; i < 2; i++)
		if (ts && ts[i].nsec != UTIME_NOW_ && ts[i].nsec != UTIME_OMIT_ &&
		    (ts[i].nsec < 0 || ts[i].nsec > 999999999))
			return -EINVAL;
	for (i = 0; i < 2; i++) {
		long *t = i ? n->mtime : n->atime;

		if (ts && ts[i].nsec == UTIME_OMIT_)
			continue;
		if (!ts || ts[i].nsec == UTIME_NOW_) {
			t[0] = now / 1000000000ULL;
			t[1] = now % 1000000000ULL;
		} else {
			t[0] = ts[i].sec;
			t[1] = ts[i].nsec;
		}
	}
	fs_touch(n, FS_C);
	return 0;
}

static long set_times(struct sysgate_sys *s, unsigned int ino, long uptr)
{
	struct ts ts[2];

	if (uptr && sysgate_read_mem(s, ts, (void *)uptr, sizeof(ts)) < 0)
		return -EFAULT;
	return apply_times(ino, uptr ? ts : 0);
}

/* ---- data ---- */

static long rw(struct sysgate_sys *s, struct fs_ofd *o, int write,
	       long buf, unsigned long len, long off)
{
	unsigned int acc = o->flags & O_ACCMODE;
	struct fs_inode *n = fs_ino(o->ino);
	unsigned long pos = off < 0 ? o->pos : (unsigned long)off;
	long r;

	if ((o->flags & O_PATH) || acc == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	if (fs_is_dir(n))
		return -EISDIR;
	if ((long)len < 0)
		len = 0x7ffff000;
	if (!len)
		return 0;
	if (write) {
		if (o->flags & O_APPEND)
			pos = n->size;
		r = fs_write(s, o->ino, (void *)buf, len, pos);
		if (r == -ENOSPC) {	/* a dead process's unlinked files? */
			fs_reap();
			r = fs_write(s, o->ino, (void *)buf, len, pos);
		}
		if (r > 0)
			fs_touch(n, FS_M | FS_C);
	} else {
		r = fs_read(s, o->ino, (void *)buf, len, pos);
	}
	if (r > 0 && off < 0)
		o->pos = pos + r;
	return r;
}

struct iov {
	long base;
	unsigned long len;
};

static long rwv(struct sysgate_sys *s, struct fs_ofd *o, int write,
		long uiov, long cnt, long off)
{
	struct iov v[64];
	long done = 0, i;

	if (cnt < 0 || cnt > 1024)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		long r;

		if (i % 64 == 0 &&
		    sysgate_read_mem(s, v, (struct iov *)uiov + i,
				     fs_min(64, cnt - i) * sizeof(*v)) < 0)
			return done ? done : -EFAULT;
		if (!v[i % 64].len)
			continue;
		r = rw(s, o, write, v[i % 64].base, v[i % 64].len,
		       off < 0 ? -1 : off + done);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((unsigned long)r < v[i % 64].len)
			break;
	}
	return done;
}

static long do_lseek(struct fs_ofd *o, long off, long whence)
{
	struct fs_inode *n = fs_ino(o->ino);
	long base;

	switch (whence) {
	case SEEK_SET_: base = 0; break;
	case SEEK_CUR_: base = o->pos; break;
	case SEEK_END_: base = fs_is_dir(n) ? 0 : (long)n->size; break;
	case SEEK_DATA_:
	case SEEK_HOLE_:
		if (off < 0 || (unsigned long)off >= n->size)
			return -ENXIO;
		o->pos = whence == SEEK_DATA_ ? (unsigned long)off : n->size;
		return o->pos;
	default: return -EINVAL;
	}
	if (base + off < 0)
		return -EINVAL;
	o->pos = base + off;
	return o->pos;
}

struct dirent64 {
	unsigned long ino;
	long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static long do_getdents(struct sysgate_sys *s, struct fs_ofd *o, long ubuf,
			unsigned long count)
{
	struct fs_inode *d = fs_ino(o->ino);
	char buf[4096];
	unsigned long used = 0, total = 0;
	unsigned int e = d->head;

	if (!fs_is_dir(d))
		return -ENOTDIR;
	if (!d->nlink)
		return 0;
	for (;;) {
		const char *name;
		unsigned int len, ino, type, rec;
		unsigned long next;
		struct dirent64 *de;

		if (o->pos == 0) {
			name = ".", len = 1, ino = o->ino, next = 1;
		} else if (o->pos == 1) {
			name = "..", len = 2, next = 2;
			ino = o->ino == FS_ROOT ? FS_ROOT : d->parent;
		} else {
			while (e && fs_dent(e)->seq + 2 <= o->pos)
				e = fs_dent(e)->next;
			if (!e)
				break;
			name = fs_dent(e)->name;
			len = fs_dent(e)->namelen;
			ino = fs_dent(e)->ino;
			next = fs_dent(e)->seq + 2;
		}
		rec = (19 + len + 1 + 7) & ~7U;
		if (total + used + rec > count)
			break;
		if (used + rec > sizeof(buf)) {
			if (sysgate_write_mem(s, (char *)ubuf + total, buf, used) < 0)
				return -EFAULT;
			total += used;
			used = 0;
		}
		type = (fs_ino(ino)->mode >> 12) & 15;
		de = (struct dirent64 *)(buf + used);
		de->ino = ino;
		de->off = next;
		de->reclen = rec;
		de->type = type;
		hk_memcpy(de->name, name, len);
		hk_memset(de->name + len, 0, rec - 19 - len);
		used += rec;
		o->pos = next;
	}
	if (used && sysgate_write_mem(s, (char *)ubuf + total, buf, used) < 0)
		return -EFAULT;
	total += used;
	if (!total && (o->pos < 2 || e))
		return -EINVAL;	/* the buffer cannot hold one entry */
	return total;
}

/* mmap of our file: its blocks are pages of the arena's descriptor. */
static long do_mmap(struct sysgate_sys *s, struct fs_ofd *o)
{
	long *a = s->args, base, r;
	unsigned long len = a[1], prot = a[2], flags = a[3], off = a[5];
	unsigned long npages = (len + FS_BLOCK - 1) / FS_BLOCK, i, filepages;
	unsigned long offs[64];
	struct fs_inode *n = fs_ino(o->ino);
	unsigned int acc = o->flags & O_ACCMODE;
	int shared = (flags & MAP_TYPE) != MAP_PRIVATE;

	(void)s;
	if (!len || off % FS_BLOCK)
		return -EINVAL;
	if (fs_is_dir(n) || (o->flags & O_PATH))
		return (o->flags & O_PATH) ? -EBADF : -ENODEV;
	if (acc == O_WRONLY || (shared && (prot & PROT_WRITE) && acc != O_RDWR))
		return -EACCES;
	base = sc(__NR_mmap, a[0], npages * FS_BLOCK, prot,
		  (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) | MAP_PRIVATE |
			  MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(base))
		return base;
	n->mapped = 1;
	filepages = (n->size + FS_BLOCK - 1) / FS_BLOCK;
	for (i = off / FS_BLOCK; i < fs_min(off / FS_BLOCK + npages, filepages);) {
		unsigned long k = fs_min(64, fs_min(off / FS_BLOCK + npages,
						    filepages) - i), j, run;

		r = fs_block_offsets(o->ino, i, k, offs);
		if (r < 0) {
			sc(__NR_munmap, base, npages * FS_BLOCK, 0, 0, 0, 0);
			return r;
		}
		for (j = 0; j < k; j += run) {
			unsigned long at = base + (i + j - off / FS_BLOCK) *
						  FS_BLOCK;

			for (run = 1; j + run < k &&
				      offs[j + run] == offs[j] + run * FS_BLOCK;
			     run++)
				;
			r = sc(__NR_mmap, at, run * FS_BLOCK, prot,
			       MAP_FIXED | (shared ? MAP_SHARED : MAP_PRIVATE),
			       fs_ar.fd, offs[j]);
			if (sysgate_is_error(r)) {
				sc(__NR_munmap, base, npages * FS_BLOCK, 0, 0,
				   0, 0);
				return r;
			}
		}
		i += k;
	}
	return base;
}

/* ---- descriptors ---- */

static long do_dup(struct proc *pr, long nr, long *a)
{
	unsigned int o = ofd_of(pr, a[0]);
	long r;

	if (nr != __NR_dup && (int)a[0] == (int)a[1] && nr != __NR_dup3)
		return o ? a[1] : sc(nr, a[0], a[1], 0, 0, 0, 0);
	r = sc(nr, a[0], a[1], a[2], 0, 0, 0);
	if (r < 0)
		return r;
	if (r >= MAXFD) {
		sc(__NR_close, r, 0, 0, 0, 0, 0);
		return -EMFILE;
	}
	drop(pr, r);
	if (o) {
		fs_ofd_ref(pr->pid, o);
		install(pr, r, o);
	}
	return r;
}

/* A hidden descriptor moves away from a number the program wants.  (The
 * sentinel's epoll entries stay keyed by its old number: see epoll.c.) */
static void move_hidden(int *fd)
{
	long h = sc(__NR_fcntl, *fd, F_DUPFD, *fd + 1, 0, 0, 0);

	if (h >= 0) {
		sc(__NR_close, *fd, 0, 0, 0, 0, 0);
		*fd = h;
	}
}

/* close_range around the hidden descriptors, which neither close nor
 * become close-on-exec (execve hands them on). */
static long do_close_range(struct proc *pr, long *a)
{
	unsigned long first = (unsigned int)a[0], last = (unsigned int)a[1], fd;
	unsigned long from = first, h[NHIDE], v;
	long r = 0;
	int i, j;

	if (first > last)
		return -EINVAL;
	for (i = 0; i < NHIDE; i++) {	/* in order; -1 (none) is ~0 */
		v = (unsigned int)*hides[i];
		for (j = i; j > 0 && h[j - 1] > v; j--)
			h[j] = h[j - 1];
		h[j] = v;
	}
	for (i = 0; i < NHIDE && r >= 0; i++) {
		if (h[i] < from || h[i] > last)
			continue;
		if (h[i] > from)
			r = sc(__NR_close_range, from, h[i] - 1, a[2], 0, 0, 0);
		from = h[i] + 1;
	}
	if (r >= 0 && from <= last)
		r = sc(__NR_close_range, from, last, a[2], 0, 0, 0);
	if (r < 0 || (a[2] & CLOSE_RANGE_CLOEXEC_))
		return r;
	for (fd = first; fd <= last && fd < (unsigned long)pr->maxfd; fd++)
		drop(pr, fd);
	return r;
}

static long do_fcntl(struct sysgate_sys *s, struct proc *pr, struct fs_ofd *o)
{
	long *a = s->args;

	switch (a[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC: {
		long r = sc(__NR_fcntl, a[0], a[1], a[2], 0, 0, 0);
		unsigned int i = ofd_of(pr, a[0]);

		if (r < 0)
			return r;
		if (r >= MAXFD) {
			sc(__NR_close, r, 0, 0, 0, 0, 0);
			return -EMFILE;
		}
		fs_ofd_ref(pr->pid, i);
		install(pr, r, i);
		return r;
	}
	case F_GETFD:
	case F_SETFD:
		return sc(__NR_fcntl, a[0], a[1], a[2], 0, 0, 0);
	case F_GETFL:
		return o->flags;
	case F_SETFL:
		o->flags = (o->flags & ~SETFL_MASK) | (a[2] & SETFL_MASK);
		return 0;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return fs_fcntl_lock(s, ofd_of(pr, a[0]), a[1], a[2]);
	default:
		return -EINVAL;
	}
}

/* ---- calls that name a path ---- */

static long need(const struct fs_path *p)
{
	return p->err ? p->err : p->ino ? 0 : -ENOENT;
}

#define PATH(i, dirfd, w)                                                   \
	do {                                                                \
		if (get_path(s, pr, i, dirfd, &p[w], w) == KERNEL) {        \
			*run = 1;                                           \
			return 0;                                           \
		}                                                           \
	} while (0)

/* Two paths: both ours, or EXDEV once the first is known to exist. */
#define PATH2(i, d1, j, d2)                                                 \
	do {                                                                \
		int k1 = get_path(s, pr, i, d1, &p[0], 0);                  \
		int k2 = get_path(s, pr, j, d2, &p[1], 1);                  \
		if (k1 == KERNEL && k2 == KERNEL) {                         \
			*run = 1;                                           \
			return 0;                                           \
		}                                                           \
		if (k1 != k2)                                               \
			return k1 == OURS ? (need(&p[0]) ? need(&p[0]) :    \
					     -EXDEV) : kernel_exists(s, i); \
	} while (0)

static long kernel_exists(struct sysgate_sys *s, int i)
{
	struct stat st;
	long r = sc(__NR_newfstatat, AT_FDCWD, s->args[i], (long)&st,
		    AT_SYMLINK_NOFOLLOW, 0, 0);

	return r < 0 ? r : -EXDEV;
}

static long stat_path(struct sysgate_sys *s, struct fs_path *p, long buf,
		      int x)
{
	long r = need(p);

	if (r)
		return r;
	return x ? put_statx(s, (void *)buf, p->ino) :
		   put_stat(s, (void *)buf, p->ino);
}

static long chmod_path(struct fs_path *p, long mode)
{
	struct fs_inode *n;
	long r = need(p);

	if (r)
		return r;
	n = fs_ino(p->ino);
	n->mode = (n->mode & S_IFMT) | (mode & 07777);
	fs_touch(n, FS_C);
	return 0;
}

static long chown_path(struct fs_path *p, long uid, long gid)
{
	long r = need(p);

	return r ? r : set_owner(p->ino, uid, gid);
}

static long mknod_path(struct fs_path *p, long mode)
{
	if ((mode & S_IFMT) && (mode & S_IFMT) != S_IFREG && !p->err &&
	    !p->ino)
		return -EPERM;	/* no devices, fifos or sockets here */
	return make_node(p, S_IFREG, mode);
}

/* A new name holding the program's target text. */
static long do_symlink(struct sysgate_sys *s, struct fs_path *p, long target)
{
	char buf[FS_PATH_MAX];
	int trunc = 0;
	long n = sysgate_read_str(s, buf, (const void *)target, sizeof(buf),
				  &trunc), r;

	if (n < 0)
		return -EFAULT;
	if (trunc)
		return -ENAMETOOLONG;
	if (!n)
		return -ENOENT;
	if (p->err)
		return p->err;
	if (p->ino)
		return -EEXIST;
	r = create(p, S_IFLNK | 0777);
	if (r < 0)
		return r;
	if (fs_write(0, r, buf, n, 0) != n) {
		/* no room for the target: take the name back */
		fs_unlink_name(p->dir, p->name, p->namelen);
		fs_ino(r)->nlink = 0;
		fs_inode_put(r);
		return -ENOSPC;
	}
	return 0;
}

static long do_readlink(struct sysgate_sys *s, struct fs_path *p, long buf,
			long size)
{
	struct fs_inode *n;

	if (!p->virt)
		return fs_magic_readlink(s, p, buf, size);
	if (need(p))
		return need(p);
	n = fs_ino(p->ino);
	if (!fs_is_link(n) || (int)size <= 0)
		return -EINVAL;
	fs_touch(n, FS_A);
	return fs_read(s, p->ino, (void *)buf, fs_min(n->size, (int)size), 0);
}

/* utimes/futimesat/utime: seconds and microseconds, or seconds. */
static long times_path(struct sysgate_sys *s, struct fs_path *p, long uptr,
		       int usec)
{
	struct ts ts[2];
	long r = need(p), v[4];

	if (r)
		return r;
	if (!uptr)
		return apply_times(p->ino, 0);
	if (sysgate_read_mem(s, v, (void *)uptr, (usec ? 4 : 2) * sizeof(long)) < 0)
		return -EFAULT;
	ts[0].sec = v[0];
	ts[0].nsec = usec ? v[1] * 1000 : 0;
	ts[1].sec = usec ? v[2] : v[1];
	ts[1].nsec = usec ? v[3] * 1000 : 0;
	return apply_times(p->ino, ts);
}

/* open of ours, or of the /proc/self/fdinfo entry of one of ours */
static long open_path(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long flags, long mode)
{
	if (!p->virt)
		return fs_fdinfo_open(s, p, flags);
	return do_open(pr, p, flags, mode);
}

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

		if (get_path(s, pr, at, at ? s->args[0] : AT_FDCWD, p, 0) ==
		    KERNEL) {
			*run = 1;
			return 0;
		}
		if ((r = need(p)))
			break;
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

static long path_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	struct fs_path p[2];
	long *a = s->args, r;

	switch (s->nr) {
	case __NR_open:
		PATH(0, AT_FDCWD, 0);
		return open_path(s, pr, p, a[1], a[2]);
	case __NR_creat:
		PATH(0, AT_FDCWD, 0);
		return do_open(pr, p, O_CREAT | O_WRONLY | O_TRUNC, a[1]);
	case __NR_stat:
	case __NR_lstat:
		PATH(0, AT_FDCWD, 0);
		return stat_path(s, p, a[1], 0);
	case __NR_access:
		PATH(0, AT_FDCWD, 0);
		return need(p) ? need(p) : fs_access(p->ino, a[1]);
	case __NR_mkdir:
		PATH(0, AT_FDCWD, 0);
		return make_node(p, S_IFDIR, a[1]);
	case __NR_rmdir:
		PATH(0, AT_FDCWD, 0);
		return do_rmdir(p);
	case __NR_unlink:
		PATH(0, AT_FDCWD, 0);
		return do_unlink(p);
	case __NR_rename:
		PATH2(0, AT_FDCWD, 1, AT_FDCWD);
		return do_rename(&p[0], &p[1], 0);
	case __NR_link:
		PATH2(0, AT_FDCWD, 1, AT_FDCWD);
		return do_link(&p[0], &p[1]);
	case __NR_symlink:
		PATH(1, AT_FDCWD, 0);
		return do_symlink(s, p, a[0]);
	case __NR_readlink:
		PATH(0, AT_FDCWD, 0);
		return do_readlink(s, p, a[1], a[2]);
	case __NR_chmod:
		PATH(0, AT_FDCWD, 0);
		return chmod_path(p, a[1]);
	case __NR_chown:
	case __NR_lchown:
		PATH(0, AT_FDCWD, 0);
		return chown_path(p, a[1], a[2]);
	case __NR_mknod:
		PATH(0, AT_FDCWD, 0);
		return mknod_path(p, a[1]);
	case __NR_utime:
		PATH(0, AT_FDCWD, 0);
		return times_path(s, p, a[1], 0);
	case __NR_utimes:
		PATH(0, AT_FDCWD, 0);
		return times_path(s, p, a[1], 1);
	case __NR_futimesat:
		PATH(1, a[0], 0);
		return times_path(s, p, a[2], 1);
	case __NR_openat:
		PATH(1, a[0], 0);
		return open_path(s, pr, p, a[2], a[3]);
	case __NR_openat2: {
		unsigned long how[3];

		PATH(1, a[0], 0);
		if (a[3] < 24 || sysgate_read_mem(s, how, (void *)a[2],
						  sizeof(how)) < 0)
			return a[3] < 24 ? -EINVAL : -EFAULT;
		return open_path(s, pr, p, how[0], how[1]);
	}
	case __NR_newfstatat:
		PATH(1, a[0], 0);
		return stat_path(s, p, a[2], 0);
	case __NR_statx:
		PATH(1, a[0], 0);
		return stat_path(s, p, a[4], 1);
	case __NR_faccessat:
	case __NR_faccessat2:
		PATH(1, a[0], 0);
		return need(p) ? need(p) : fs_access(p->ino, a[2]);
	case __NR_mkdirat:
		PATH(1, a[0], 0);
		return make_node(p, S_IFDIR, a[2]);
	case __NR_unlinkat:
		PATH(1, a[0], 0);
		if (a[2] & ~(long)AT_REMOVEDIR)
			return -EINVAL;
		return a[2] ? do_rmdir(p) : do_unlink(p);
	case __NR_renameat:
	case __NR_renameat2:
		PATH2(1, a[0], 3, a[2]);
		return do_rename(&p[0], &p[1],
				 s->nr == __NR_renameat2 ? a[4] : 0);
	case __NR_linkat:
		PATH2(1, a[0], 3, a[2]);
		return do_link(&p[0], &p[1]);
	case __NR_symlinkat:
		PATH(2, a[1], 0);
		return do_symlink(s, p, a[0]);
	case __NR_readlinkat:
		PATH(1, a[0], 0);
		return do_readlink(s, p, a[2], a[3]);
	case __NR_fchmodat:
	case __NR_fchmodat2:
		PATH(1, a[0], 0);
		if (s->nr == __NR_fchmodat2 &&
		    (a[3] & ~(long)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)))
			return -EINVAL;
		return chmod_path(p, a[2]);
	case __NR_fchownat:
		PATH(1, a[0], 0);
		return chown_path(p, a[2], a[3]);
	case __NR_mknodat:
		PATH(1, a[0], 0);
		return mknod_path(p, a[2]);
	case __NR_utimensat:
		PATH(1, a[0], 0);
		return need(p) ? need(p) : set_times(s, p->ino, a[2]);
	case __NR_truncate:
		PATH(0, AT_FDCWD, 0);
		if ((r = need(p)))
			return r;
		if (fs_is_dir(fs_ino(p->ino)))
			return -EISDIR;
		if (a[1] < 0)
			return -EINVAL;
		fs_touch(fs_ino(p->ino), FS_M | FS_C);
		return fs_truncate(p->ino, a[1]);
	case __NR_chdir:
		PATH(0, AT_FDCWD, 0);
		if ((r = need(p)))
			return r;
		if (!fs_is_dir(fs_ino(p->ino)))
			return -ENOTDIR;
		pr->cwd = p->ino;
		return 0;
	case __NR_statfs:
		PATH(0, AT_FDCWD, 0);
		return need(p) ? need(p) : put_statfs(s, (void *)a[1]);
	case __NR_execve:
	case __NR_execveat:
		return exec_call(s, pr, p, run);
	default: {
		/* Other calls on a path of ours (xattrs, inotify...). */
		const char *k = sysgate_syscall_args(s->nr);
		int i;

		for (i = 0; k && k[i] && i < 6; i++)
			if (k[i] == 's')
				break;
		if (!k || !k[i] || i >= 6)
			break;
		PATH(i, i && k[i - 1] == 'D' ? a[i - 1] : AT_FDCWD, 0);
		return need(p) ? need(p) : -EOPNOTSUPP;
	}
	}
	*run = 1;
	return 0;
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

static long do_getcwd(struct sysgate_sys *s, struct proc *pr)
{
	char buf[FS_PATH_MAX];
	long n = fs_dir_path(pr->cwd, buf, sizeof(buf));

	if (n < 0)
		return n;
	if ((unsigned long)n + 1 > (unsigned long)s->args[1])
		return -ERANGE;
	if (sysgate_write_mem(s, (void *)s->args[0], buf, n + 1) < 0)
		return -EFAULT;
	return n + 1;
}

/* ---- the hook ---- */

static long fd_call(struct sysgate_sys *s, struct proc *pr, unsigned int oi)
{
	struct fs_ofd *o = fs_ofd(oi);
	long *a = s->args;
	long nr = s->nr;

	switch (nr) {
	case __NR_read: return rw(s, o, 0, a[1], a[2], -1);
	case __NR_write: return rw(s, o, 1, a[1], a[2], -1);
	case __NR_pread64:
	case __NR_pwrite64:
		if (a[3] < 0)
			return -EINVAL;
		return rw(s, o, nr == __NR_pwrite64, a[1], a[2], a[3]);
	case __NR_readv: return rwv(s, o, 0, a[1], a[2], -1);
	case __NR_writev: return rwv(s, o, 1, a[1], a[2], -1);
	case __NR_preadv:
	case __NR_preadv2:
	case __NR_pwritev:
	case __NR_pwritev2:
		if (a[3] < -1 || (a[3] == -1 && (nr == __NR_preadv ||
						  nr == __NR_pwritev)))
			return -EINVAL;
		return rwv(s, o, nr == __NR_pwritev || nr == __NR_pwritev2,
			   a[1], a[2], a[3]);
	case __NR_lseek: return do_lseek(o, a[1], a[2]);
	case __NR_fstat: return put_stat(s, (void *)a[1], o->ino);
	case __NR_fstatfs: return put_statfs(s, (void *)a[1]);
	case __NR_getdents64: return do_getdents(s, o, a[1], a[2]);
	case __NR_close:
		drop(pr, a[0]);
		return sc(__NR_close, a[0], 0, 0, 0, 0, 0);
	case __NR_dup: return do_dup(pr, nr, a);
	case __NR_fcntl: return do_fcntl(s, pr, o);
	case __NR_ftruncate:
		if (a[1] < 0 || fs_is_dir(fs_ino(o->ino)))
			return -EINVAL;
		if ((o->flags & O_ACCMODE) == O_RDONLY || (o->flags & O_PATH))
			return (o->flags & O_PATH) ? -EBADF : -EINVAL;
		fs_touch(fs_ino(o->ino), FS_M | FS_C);
		return fs_truncate(o->ino, a[1]);
	case __NR_fallocate:
		if (a[1] || a[2] < 0 || a[3] <= 0)
			return a[1] ? -EOPNOTSUPP : -EINVAL;
		if ((unsigned long)(a[2] + a[3]) > fs_ino(o->ino)->size)
			fs_ino(o->ino)->size = a[2] + a[3];
		return 0;
	case __NR_fsync:
	case __NR_fdatasync:
		/* The image's pages already hold the data; fsync asks for the
		 * disk too. */
		return sc(__NR_fsync, fs_ar.fd, 0, 0, 0, 0, 0) < 0 ? -EIO : 0;
	case __NR_fchdir:
		if (!fs_is_dir(fs_ino(o->ino)))
			return -ENOTDIR;
		pr->cwd = o->ino;
		return 0;
	case __NR_fchmod: {
		struct fs_inode *n = fs_ino(o->ino);

		n->mode = (n->mode & S_IFMT) | (a[1] & 07777);
		fs_touch(n, FS_C);
		return 0;
	}
	case __NR_fchown: return set_owner(o->ino, a[1], a[2]);
	case __NR_mmap: return do_mmap(s, o);
	case __NR_flock: return fs_flock(s, oi, a[1]);
	case __NR_fadvise64:
	case __NR_sync_file_range:
	case __NR_readahead:
	case __NR_syncfs:
		return 0;
	case __NR_ioctl: return -ENOTTY;
	case __NR_copy_file_range: return -EXDEV;
	case __NR_sendfile:
	case __NR_splice:
	case __NR_tee:
		return -EINVAL;
	default:
		return -EOPNOTSUPP;
	}
}

/* The first argument that is one of our descriptors, or -1. */
static int virtual_fd_arg(struct proc *pr, long nr, const long *a)
{
	const char *k = sysgate_syscall_args(nr);
	int i;

	for (i = 0; k && k[i] && i < 6; i++)
		if (k[i] == 'f' && ofd_of(pr, a[i]))
			return i;
	return -1;
}

static long locked(struct sysgate_sys *s, long (*fn)(struct sysgate_sys *,
						     struct proc *, int *),
		   struct proc *pr, int *run)
{
	long r;

	fs_lock(s->tid);
	r = fn(s, pr, run);
	fs_unlock();
	return r;
}

static long fd_call_any(struct sysgate_sys *s, struct proc *pr, int *run)
{
	unsigned int o = ofd_of(pr, s->args[virtual_fd_arg(pr, s->nr,
							    s->args)]);

	(void)run;
	return fs_ofd(o)->ino ? fd_call(s, pr, o) : -EBADF;
}

static long getcwd_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	(void)run;
	return do_getcwd(s, pr);
}

static long dup_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	int i;

	(void)run;
	for (i = 0; i < NHIDE; i++)
		if ((int)s->args[1] == *hides[i])
			move_hidden(hides[i]);
	if (!ofd_of(pr, s->args[0]) && !ofd_of(pr, s->args[1])) {
		*run = 1;
		return 0;
	}
	return do_dup(pr, s->nr, s->args);
}

static long close_range_call(struct sysgate_sys *s, struct proc *pr, int *run)
{
	(void)run;
	return do_close_range(pr, s->args);
}

static void note_clone(struct sysgate_sys *s)
{
	unsigned long fl = s->args[0];

	if (s->nr == __NR_vfork) {
		vforking = 1;
		return;
	}
	if (s->nr == __NR_clone3 &&
	    sysgate_read_mem(s, &fl, (void *)s->args[0], sizeof(fl)) < 0)
		fl = 0;
	vforking = (fl & CLONE_VM_) && !(fl & CLONE_THREAD_);
}

static enum sysgate_verdict fs_enter(struct sysgate_sys *s, void *data)
{
	long (*fn)(struct sysgate_sys *, struct proc *, int *) = 0;
	struct proc *pr = proc_of(s->pid);
	long nr = s->nr;
	int run = 0;
	long r;

	(void)data;
	if (!ready)
		return SYSGATE_RUN;
	if (nr == __NR_clone || nr == __NR_clone3 || nr == __NR_vfork) {
		note_clone(s);
		return SYSGATE_RUN;
	}
	if (nr == __NR_close && hidden(s->args[0])) {
		s->ret = -EBADF;	/* the program never had it */
		return SYSGATE_SKIP;
	}
	if (fs_poll_is_call(nr))
		return fs_poll_enter(s) ? SYSGATE_SKIP : SYSGATE_RUN;
	if (fs_epoll_is_wait(nr)) {
		if (!ofd_of(pr, s->args[0]))
			return SYSGATE_RUN;	/* fs_exit puts ours in */
		s->ret = -EINVAL;		/* a file is no epoll instance */
		return SYSGATE_SKIP;
	}
	if (nr == __NR_mmap && (s->args[3] & MAP_ANONYMOUS))
		return SYSGATE_RUN;
	if (nr == __NR_dup2 || nr == __NR_dup3)
		fn = dup_call;
	else if (nr == __NR_close_range)
		fn = close_range_call;
	else if (nr == __NR_getcwd && pr->cwd)
		fn = getcwd_call;
	else if (virtual_fd_arg(pr, nr, s->args) >= 0)
		fn = fd_call_any;
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

static void fs_exit(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (!ready)
		return;
	if (!(s->flags & SYSGATE_SYS_SKIPPED) && fs_poll_is_call(s->nr))
		fs_poll_exit(s);
	if (!(s->flags & SYSGATE_SYS_SKIPPED) && fs_epoll_is_wait(s->nr))
		fs_epoll_wait_exit(s);
	if ((s->nr == __NR_clone || s->nr == __NR_clone3 ||
	     s->nr == __NR_vfork) && !(s->flags & SYSGATE_SYS_CHILD)) {
		vforking = 0;	/* the child has started (or failed to) */
		/* A vfork child's execve of ours, in this memory, is over:
		 * its copy was the child's descriptor. */
		fs_exec_fd = 0;
		fs_exec_failed();
	}
	if ((s->nr == __NR_execve || s->nr == __NR_execveat) &&
	    !(s->flags & SYSGATE_SYS_EXECVE))
		fs_exec_failed();	/* it returned */
	if (sysgate_is_error(s->ret) || (s->flags & SYSGATE_SYS_SKIPPED))
		return;
	/* The kernel's working directory changed: follow it as text. */
	if (s->nr == __NR_chdir || s->nr == __NR_fchdir) {
		struct proc *pr = proc_of(s->pid);

		refresh_kcwd(pr);
		pr->cwd = 0;
	}
}

/* ---- process life ---- */

static void take_refs(struct proc *p)
{
	int fd;

	for (fd = 0; fd < p->maxfd; fd++)
		if (p->ofd[fd])
			fs_ofd_ref(p->pid, p->ofd[fd]);
}

static void fs_fork_child(void *data)
{
	int pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);

	(void)data;
	if (!ready)
		return;
	fs_lock(pid);
	fs_born(pid);
	if (vforking) {
		/* The parent's memory: work on a copy of its table. */
		struct proc *src = &procs[0];

		hk_memcpy(&procs[1], src, sizeof(*src) - sizeof(src->ofd) +
			  src->maxfd * sizeof(src->ofd[0]));
		hk_memset(procs[1].ofd + src->maxfd, 0,
			  (MAXFD - src->maxfd) * sizeof(src->ofd[0]));
		procs[1].pid = pid;
		take_refs(&procs[1]);
		vforking = 0;
	} else {
		procs[0].pid = pid;
		procs[1].pid = 0;
		take_refs(&procs[0]);
	}
	fs_unlock();
}

static void fs_exec(const char *path, void *data)
{
	static struct carry c;
	int pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0), fd;
	struct proc *p = proc_of(pid);

	(void)path;
	if (!ready)
		return;
	c.arena_fd = fs_ar.fd;
	c.ep_fd = fs_ep_fd;
	c.ph_fd = fs_ph_fd;
	c.cwd = p->cwd;
	c.exec_fd = fs_exec_fd - 1;
	hk_memcpy(c.comm, fs_exec_comm, sizeof(c.comm));
	c.n = 0;
	for (fd = 0; fd < p->maxfd && c.n < (int)(sizeof(c.e) / sizeof(c.e[0]));
	     fd++) {
		if (!p->ofd[fd])
			continue;
		c.e[c.n].fd = fd;
		c.e[c.n].ofd = p->ofd[fd];
		c.e[c.n].cloexec = sc(__NR_fcntl, fd, F_GETFD, 0, 0, 0, 0) != 0;
		c.n++;
	}
	sysgate_exec_carry(data, &c, (char *)&c.e[c.n] - (char *)&c);
}

static void fs_fini(void *data)
{
	struct proc *p = &procs[0];
	int fd;

	(void)data;
	if (!ready)
		return;
	fs_lock(p->pid);
	for (fd = 0; fd < p->maxfd; fd++)
		drop(p, fd);
	fs_unlock();
}

/* The previous program's table: descriptors that survived execve. */
static void take_carried(const struct carry *c, long len)
{
	int i;

	/* The program's copy (exec.c) is open no more; the process is
	 * named after the program, not after that descriptor or the
	 * script's interpreter. */
	if (c->exec_fd >= 0)
		sc(__NR_close, c->exec_fd, 0, 0, 0, 0, 0);
	if (c->comm[0])
		sc(__NR_prctl, PR_SET_NAME_, (long)c->comm, 0, 0, 0, 0);
	fs_lock(procs[0].pid);
	procs[0].cwd = c->cwd;
	for (i = 0; i < c->n && (char *)&c->e[i + 1] - (char *)c <= len; i++) {
		int fd = c->e[i].fd;

		if (c->e[i].cloexec || fd < 0 || fd >= MAXFD ||
		    sc(__NR_fcntl, fd, F_GETFD, 0, 0, 0, 0) < 0) {
			fs_ofd_unref(procs[0].pid, c->e[i].ofd);
			continue;
		}
		install(&procs[0], fd, c->e[i].ofd);
	}
	fs_unlock();
}

static int parse_size(const char *v, size_t n, unsigned long *out)
{
	unsigned long x = 0, mul = 1;
	size_t i;

	if (n && (v[n - 1] == 'K' || v[n - 1] == 'k'))
		mul = 1UL << 10, n--;
	else if (n && (v[n - 1] == 'M' || v[n - 1] == 'm'))
		mul = 1UL << 20, n--;
	else if (n && (v[n - 1] == 'G' || v[n - 1] == 'g'))
		mul = 1UL << 30, n--;
	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9' || x > (1UL << 40))
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	*out = x * mul;
	return *out ? 0 : -1;
}

/* The prefix, made canonical: absolute, no "." or "..", no trailing '/'. */
static int set_prefix(const char *v, size_t n)
{
	size_t i = 0, o = 0;

	if (!n || v[0] != '/' || n >= FS_PATH_MAX)
		return -1;
	while (i < n) {
		size_t j;

		while (i < n && v[i] == '/')
			i++;
		if (i == n)
			break;
		for (j = i; j < n && v[j] != '/'; j++)
			;
		if ((j - i == 1 && v[i] == '.') ||
		    (j - i == 2 && v[i] == '.' && v[i + 1] == '.'))
			return -1;
		fs_prefix[o++] = '/';
		hk_memcpy(fs_prefix + o, v + i, j - i);
		o += j - i;
		i = j;
	}
	if (!o)
		return -1;	/* "/" itself */
	fs_prefix[o] = 0;
	fs_prefix_len = o;
	return 0;
}

/* One line for why the file system could not be set up. */
static int image_error(struct sysgate_ctx *ctx, long r)
{
	static char msg[200];
	struct fmt f;

	if (r != -EINVAL && r != -EPERM && r != -EUCLEAN)
		return sysgate_error(ctx, "--fs: cannot create the file system");
	fmt_init(&f, msg, sizeof(msg));
	fmt_str(&f, "--fs: BACKING/sysgate-fs.img ");
	fmt_str(&f, r == -EINVAL ? "is not a sysgate file system" :
		r == -EPERM ? fs_image_why : "is corrupt: ");
	if (r == -EUCLEAN)
		fmt_str(&f, fs_image_why);
	fmt_str(&f, "; refused");
	msg[f.len < sizeof(msg) ? f.len : sizeof(msg) - 1] = 0;
	return sysgate_error(ctx, msg);
}

static int fs_init(struct sysgate_ctx *ctx, const char *args)
{
	/* Beyond the file, descriptor and stat classes: vfork-like clones
	 * (see fs_fork_child), mmap of our files, waiting on descriptors. */
	static const char *const extra[] = {
		"clone", "clone3", "vfork", "mmap", "poll", "ppoll", "select",
		"pselect6", "epoll_ctl", "epoll_wait", "epoll_pwait",
		"epoll_pwait2", "getcwd", "chdir", "fchdir",
	};
	static char backing[FS_PATH_MAX];
	unsigned int i;
	static struct carry c;
	unsigned long limit = 0;
	int check = 0, have_backing = 0;
	struct arg a;
	long r;

	while (args_next(&args, &a)) {
		if (arg_is(&a, "prefix") && a.val) {
			if (set_prefix(a.val, a.vlen))
				return sysgate_error(ctx, "--fs: PREFIX must be an "
						     "absolute path below / "
						     "without . or ..");
		} else if (arg_is(&a, "backing") && a.val) {
			if (!a.vlen || a.vlen >= sizeof(backing))
				return sysgate_error(ctx, "--fs: bad BACKING "
							  "directory");
			hk_memcpy(backing, a.val, a.vlen);
			backing[a.vlen] = 0;
			have_backing = 1;
		} else if (arg_is(&a, "size") && a.val) {
			if (parse_size(a.val, a.vlen, &limit))
				return sysgate_error(ctx, "--fs-size: expected a "
							  "size such as 64M");
		} else if (arg_is(&a, "check")) {
			check = 1;
		} else {
			return sysgate_error(ctx, "fs: unknown argument");
		}
	}
	if (!fs_prefix_len)
		return sysgate_error(ctx, "--fs: PREFIX missing");
	if (have_backing) {
		struct stat st;

		r = sc(__NR_newfstatat, AT_FDCWD, (long)backing, (long)&st, 0,
		       0, 0);
		if (r < 0 || !S_ISDIR(st.st_mode))
			return sysgate_error(ctx, r == -ENOENT || r >= 0 ?
					     "--fs: BACKING is not an existing "
					     "directory" :
					     "--fs: cannot reach BACKING");
	}
	if (check)
		return 0;
	r = sc(__NR_mmap, 0, 2 * sizeof(struct proc), PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(r))
		return sysgate_error(ctx, "fs: out of memory");
	procs = (struct proc *)r;
	procs[0].pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);
	refresh_kcwd(&procs[0]);
	r = sysgate_exec_carried(ctx, &c, sizeof(c));
	if (r < (long)sizeof(int) * 4 || fs_arena_attach(c.arena_fd) < 0) {
		c.ph_fd = -1;
		r = fs_arena_create(have_backing ? backing : 0, limit);
		if (r < 0)
			return image_error(ctx, r);
		fs_lock(procs[0].pid);
		fs_born(procs[0].pid);	/* another run's, on BACKING */
		fs_unlock();
	} else {
		if (sc(__NR_fcntl, c.ep_fd, F_GETFD, 0, 0, 0, 0) >= 0)
			fs_ep_fd = c.ep_fd;
		take_carried(&c, r);
	}
	if (fs_ep_fd < 0 && fs_epoll_sentinel() < 0)
		return sysgate_error(ctx, "--fs: cannot create an eventfd");
	if (fs_placeholder_init(c.ph_fd) < 0)
		return sysgate_error(ctx, "--fs: cannot create a memfd");
	sysgate_set_data(ctx, ctx);
	sysgate_select_class(ctx, SYSGATE_CLASS_FILE | SYSGATE_CLASS_DESC |
				  SYSGATE_CLASS_STAT);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		sysgate_select_name(ctx, extra[i]);
	sysgate_select(ctx, __NR_fchmodat2);
	ready = 1;
	return 0;
}

const struct sysgate_hook sg_builtin_fs = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "fs",
	.init = fs_init,
	.enter = fs_enter,
	.exit = fs_exit,
	.fork_child = fs_fork_child,
	.exec = fs_exec,
	.fini = fs_fini,
};
