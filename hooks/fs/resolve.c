/* SPDX-License-Identifier: MIT */
/*
 * fs: the path arguments of a call.  Each is read, taken relative to its
 * dirfd (ours or the kernel's) or to the working directory, and handed to
 * the store's resolver, which says whether it is ours; a kernel path that
 * went through ours is rewritten for the kernel.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"
#include "../lib/fmt.h"

static __thread char rewritten[2][FS_PATH_MAX + 2];

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
		    fs_read_mem(s, &f, (void *)a[i + 1], sizeof(f)) < 0)
			f = 0;
		return (f & O_NOFOLLOW) ||
		       (f & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ?
			       FS_SLASH_FOLLOWS : FS_FOLLOW;
	case __NR_lstat:
	case __NR_lchown:
	case __NR_readlink:
	case __NR_readlinkat:
	case __NR_lsetxattr:
	case __NR_lgetxattr:
	case __NR_llistxattr:
	case __NR_lremovexattr:
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
	unsigned int o = fs_ofd_of(pr, dirfd),
		     ino = dirfd == AT_FDCWD ? pr->cwd : o ? fs_ofd(o)->ino : 0;

	if (!ino || (null && dirfd == AT_FDCWD))
		return KERNEL;	/* the kernel's descriptor, or EBADF */
	fs_path_ino(p, ino);
	p->buf[0] = 0;
	p->start_ofd = dirfd == AT_FDCWD ? 0 : o;
	if (fs_store != &fs_arena_store)	/* the store names it */
		fs_store->resolve(p, pr, ino, 0, FS_FOLLOW);
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
	n = fs_sc(__NR_readlinkat, AT_FDCWD, (long)link, (long)buf,
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
int fs_get_path(struct sysgate_sys *s, struct proc *pr, int i,
		    long dirfd, struct fs_path *p, int which)
{
	unsigned int start = 0;
	const char *realdir = pr->kcwd;
	char kdir[FS_PATH_MAX];
	int trunc = 0;
	long n;

	p->sys = s;
	p->start_ofd = 0;
	dirfd = (int)dirfd;
	/* NULL: utimensat's dirfd, or (Linux 6.11) as "" with AT_EMPTY_PATH */
	if (!s->args[i] && s->nr == __NR_utimensat)
		return empty_path(s, pr, i, dirfd, p, 1);
	if (!s->args[i] && (empty_path_flags(s, i) & AT_EMPTY_PATH))
		return empty_path(s, pr, i, dirfd, p, 0);
	n = fs_read_str(s, p->buf, (const void *)s->args[i],
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
			unsigned int o = fs_ofd_of(pr, dirfd);

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
			p->start_ofd = o;
			if (!fs_is_dir(fs_ino(start))) {
				p->virt = 1;
				p->err = -ENOTDIR;
				return OURS;
			}
		}
	}
resolve:
	fs_store->resolve(p, pr, start, realdir, follows(s, i));
	if (p->virt || fs_magic_served(s->nr, p))
		return OURS;
	if (p->rewrite) {
		hk_memcpy(rewritten[which], p->real, hk_strlen(p->real) + 1);
		s->args[i] = (long)rewritten[which];
	}
	return KERNEL;
}

long fs_need(const struct fs_path *p)
{
	return p->err ? p->err : p->ino ? 0 : -ENOENT;
}

long fs_kernel_exists(struct sysgate_sys *s, int i)
{
	struct stat st;
	long r = fs_sc(__NR_newfstatat, AT_FDCWD, s->args[i], (long)&st,
		    AT_SYMLINK_NOFOLLOW, 0, 0);

	return r < 0 ? r : -EXDEV;
}
