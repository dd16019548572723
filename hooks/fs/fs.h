/* SPDX-License-Identifier: MIT */
/*
 * fs: a file system served in user space at a path prefix (--fs).
 *
 * Everything lives in one arena (struct fs_super at offset 0, then tables
 * of inodes, directory entries and open file descriptions, a hash of
 * names, then 4 KiB data blocks), mapped MAP_SHARED from a memfd, or from
 * BACKING/sysgate-fs.img when a backing directory is given.  Every process
 * of the tree maps the same arena: fork keeps the mapping, and execve
 * hands the descriptor to the next program (sysgate_exec_carry), so data
 * written by one process is seen by all.  A stored byte is in the page
 * cache of the backing file as soon as the store is done, so a kill -9
 * loses nothing acknowledged.
 *
 * All arena state is guarded by one process-shared futex lock whose word
 * holds the owner's tid: a waiter that finds the owner gone takes it over.
 * Hook callbacks run with signals held back, so the lock is never taken
 * twice by one thread.  Table links are 32-bit indices, never pointers,
 * because each process maps the arena at its own address.
 */
#ifndef SG_HOOK_FS_H
#define SG_HOOK_FS_H

#include <asm/unistd.h>
#include "sysgate.h"

/*
 * Calls only some arches have: x86-64 keeps open, stat, dup2, vfork, poll
 * and the like, while asm-generic arches (riscv64, aarch64) have only the
 * *at and p* forms.  A number no call has stands in for each missing one,
 * so switch cases and comparisons on them need no #ifdef.
 */
#define FS_NO_NR(k) (-1000 - (k))
#ifndef __NR_open
#define __NR_open FS_NO_NR(0)
#define __NR_creat FS_NO_NR(1)
#define __NR_stat FS_NO_NR(2)
#define __NR_lstat FS_NO_NR(3)
#define __NR_access FS_NO_NR(4)
#define __NR_mkdir FS_NO_NR(5)
#define __NR_rmdir FS_NO_NR(6)
#define __NR_unlink FS_NO_NR(7)
#define __NR_rename FS_NO_NR(8)
#define __NR_link FS_NO_NR(9)
#define __NR_symlink FS_NO_NR(10)
#define __NR_readlink FS_NO_NR(11)
#define __NR_chmod FS_NO_NR(12)
#define __NR_chown FS_NO_NR(13)
#define __NR_lchown FS_NO_NR(14)
#define __NR_mknod FS_NO_NR(15)
#define __NR_utime FS_NO_NR(16)
#define __NR_utimes FS_NO_NR(17)
#define __NR_futimesat FS_NO_NR(18)
#define __NR_poll FS_NO_NR(19)
#define __NR_select FS_NO_NR(20)
#define __NR_dup2 FS_NO_NR(21)
#define __NR_vfork FS_NO_NR(22)
#define __NR_epoll_wait FS_NO_NR(23)
#endif
#ifndef __NR_renameat
#define __NR_renameat FS_NO_NR(24)
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452	/* Linux 6.6, one number on every arch */
#endif

#define FS_BLOCK 4096UL
#define FS_NAME_MAX 255
#define FS_PATH_MAX 4096
#define FS_NDIRECT 12
#define FS_PER_BLOCK (FS_BLOCK / 4)	/* block numbers in a map block */
#define FS_MAGIC 0x53474653u		/* "SGFS" */
#define FS_VERSION 2
#define FS_ROOT 1			/* inode of the prefix itself */
#define FS_DEV 0x5347			/* st_dev of every file */

struct fs_inode {
	unsigned int mode;		/* 0: free */
	unsigned int nlink;
	unsigned int uid, gid;
	unsigned int opens;		/* open file descriptions using it */
	unsigned int parent;		/* directories: parent; free: next */
	unsigned int dent;		/* directories: the entry naming it */
	unsigned int head, tail;	/* directories: entries, in order */
	unsigned int nent;
	unsigned int mapped;		/* was mmapped: blocks are never freed */
	unsigned int locks;		/* its advisory locks (lock.c) */
	unsigned long size;
	unsigned long nblocks;		/* data and map blocks held */
	unsigned long next_seq;		/* directories: next entry cookie */
	long atime[2], mtime[2], ctime[2], btime[2];
	unsigned int blk[FS_NDIRECT];
	unsigned int ind, dind;
};

struct fs_dent {
	unsigned int ino;		/* 0: free */
	unsigned int dir;
	unsigned int hnext;		/* hash chain; free: next free */
	unsigned int next, prev;	/* the directory's list */
	unsigned int namelen;
	unsigned long seq;		/* getdents64 cookie, grows per dir */
	char name[FS_NAME_MAX + 1];
};

/* An open file description: shared by dup and fork, like the kernel's. */
struct fs_ofd {
	unsigned int ino;		/* 0: free */
	unsigned int refs;		/* fd table entries pointing here */
	unsigned int flags;		/* open flags (O_ACCMODE, O_APPEND...) */
	unsigned int next_free;
	unsigned int epis;		/* epoll entries naming it (epoll.c) */
	unsigned long pos;
};

/* One of our descriptors in an epoll set: the key is (fd, ofd), as the
 * kernel's is (fd, file). */
struct fs_epi {
	unsigned int set;		/* 0: free */
	unsigned int ofd;
	int fd;
	unsigned int events;		/* EPOLLIN... as the program gave them */
	unsigned int next;		/* the set's list; free: next free */
	unsigned int fired;		/* EPOLLONESHOT/EPOLLET: reported */
	unsigned long long data;
};

/* An advisory lock (lock.c): flock's, or a POSIX or OFD record lock. */
struct fs_lk {
	unsigned int ino;
	unsigned int next;		/* the inode's list; free: next free */
	unsigned int kind;		/* FS_LK_* */
	unsigned int type;		/* F_RDLCK or F_WRLCK */
	int pid;			/* FS_LK_POSIX: the owner; F_GETLK's */
	unsigned int ofd;		/* FS_LK_FLOCK, FS_LK_OFD: the owner */
	long start, end;		/* bytes, inclusive */
};
#define FS_LK_FLOCK 0
#define FS_LK_POSIX 1
#define FS_LK_OFD 2

/* One process's references to one open file description (owner.c). */
struct fs_hold {
	int pid;
	unsigned int ofd;
	unsigned int count;
	unsigned int next;		/* hash chain; free: next free */
};

/* The entries of ours in one epoll instance. */
struct fs_epset {
	unsigned int live;
	unsigned int gen;		/* bumped at each reuse (in the tag) */
	unsigned int head;		/* entries */
	unsigned int rr;		/* entry to report first */
	unsigned int armed;		/* the sentinel waits for EPOLLIN */
	unsigned int next_free;
	int pid, epfd;			/* where it was last used */
};

struct fs_super {
	unsigned int magic, version;
	unsigned int lock;		/* 0 or the owner's tid */
	unsigned int waiters;
	unsigned long arena_size;
	unsigned long off_inodes, off_dents, off_ofds, off_hash, off_blocks;
	unsigned int ninodes, ndents, nofds, nhash;
	unsigned int inode_next, inode_free;	/* bump, then free list */
	unsigned int dent_next, dent_free;
	unsigned int ofd_next, ofd_free;
	unsigned long nblocks;		/* capacity of the block area */
	unsigned long block_next, block_free;	/* bump, then free list */
	unsigned long reserved;		/* blocks fallocated so far */
	unsigned long limit;		/* --fs-size in blocks, 0: none */
	unsigned long used;		/* blocks in use */
	/* Live only while a tree of processes uses the arena: */
	unsigned long off_epis, off_epsets;
	unsigned int nepis, nepsets;
	unsigned int epi_next, epi_free;
	unsigned int epset_next, epset_free;
	unsigned int ep_tags;		/* sentinels registered somewhere */
	unsigned long off_lks;
	unsigned int nlks, lk_next, lk_free;
	unsigned int lk_gen;		/* futex: bumped when locks go */
	unsigned int lk_waiters;
	unsigned long off_holds, off_hhash;
	unsigned int nholds, nhhash, hold_next, hold_free;
	unsigned int births;		/* processes since the last sweep */
};

/* The arena as this process maps it. */
struct fs_arena {
	struct fs_super *sb;
	char *base;
	int fd;				/* memfd or image: kept, not CLOEXEC */
};

extern struct fs_arena fs_ar;

static inline struct fs_inode *fs_ino(unsigned int i)
{
	return (struct fs_inode *)(fs_ar.base + fs_ar.sb->off_inodes) + i;
}

static inline struct fs_dent *fs_dent(unsigned int i)
{
	return (struct fs_dent *)(fs_ar.base + fs_ar.sb->off_dents) + i;
}

static inline struct fs_ofd *fs_ofd(unsigned int i)
{
	return (struct fs_ofd *)(fs_ar.base + fs_ar.sb->off_ofds) + i;
}

static inline struct fs_epi *fs_epi(unsigned int i)
{
	return (struct fs_epi *)(fs_ar.base + fs_ar.sb->off_epis) + i;
}

static inline struct fs_epset *fs_epset(unsigned int i)
{
	return (struct fs_epset *)(fs_ar.base + fs_ar.sb->off_epsets) + i;
}

static inline struct fs_lk *fs_lk(unsigned int i)
{
	return (struct fs_lk *)(fs_ar.base + fs_ar.sb->off_lks) + i;
}

static inline struct fs_hold *fs_hold(unsigned int i)
{
	return (struct fs_hold *)(fs_ar.base + fs_ar.sb->off_holds) + i;
}

static inline char *fs_block(unsigned long b)
{
	return fs_ar.base + fs_ar.sb->off_blocks + b * FS_BLOCK;
}

static inline int fs_is_dir(const struct fs_inode *n)
{
	return (n->mode & 0170000) == 0040000;
}

static inline int fs_is_link(const struct fs_inode *n)
{
	return (n->mode & 0170000) == 0120000;
}

/* store.c: the arena and the objects in it (call with the lock held). */
/* 0, or -errno with fs_image_why saying what is wrong with a BACKING
 * image (-EPERM: not the user's own; -EUCLEAN: corrupt; -EINVAL: not a
 * sysgate file system). */
int fs_arena_create(const char *backing, unsigned long limit_bytes);
extern const char *fs_image_why;
/* check.c: a reloaded image's indices and chains, before it is used */
int fs_check_image(unsigned long file_size, const char **why);
int fs_layout_matches(const struct fs_super *sb);
int fs_arena_attach(int fd);
void fs_lock(int tid);
void fs_unlock(void);
int fs_inode_new(unsigned int mode, unsigned int uid, unsigned int gid);
void fs_inode_put(unsigned int ino);	/* free if unlinked and unused */
unsigned int fs_lookup(unsigned int dir, const char *name, unsigned int len);
/* An entry naming ino (any of its hard links), 0 if none: slow, a scan. */
unsigned int fs_name_of(unsigned int ino);
int fs_link(unsigned int dir, const char *name, unsigned int len,
	    unsigned int ino);
void fs_unlink_name(unsigned int dir, const char *name, unsigned int len);
int fs_ofd_new(unsigned int ino, unsigned int flags);
void fs_ofd_put(unsigned int ofd);
void fs_touch(struct fs_inode *n, int what);
/* An index from a table's free list (linked through *link(i)), else from
 * its unused tail; 0 when the table is full. */
unsigned int fs_take(unsigned int *free, unsigned int *next, unsigned int max,
		     unsigned int *(*link)(unsigned int));
int fs_high_fd(int fd);		/* moved up, out of the program's way */	/* FS_A, FS_M, FS_C bits */
#define FS_A 1
#define FS_M 2
#define FS_C 4
/* Data: user memory through sysgate_read/write_mem (with s NULL: the
 * hook's own memory); -errno or bytes. */
long fs_read(const struct sysgate_sys *s, unsigned int ino, void *dst,
	     unsigned long len, unsigned long off);
long fs_write(const struct sysgate_sys *s, unsigned int ino, const void *src,
	      unsigned long len, unsigned long off);
int fs_truncate(unsigned int ino, unsigned long size);
/* The arena offset of every block of [0, size), allocating holes; fills
 * offs[] (one per page) and returns the count or -errno. */
long fs_block_offsets(unsigned int ino, unsigned long first_page,
		      unsigned long npages, unsigned long *offs);

/* path.c: which file system a path belongs to. */
struct fs_path {
	int virt;		/* in ours; else the kernel's */
	int rewrite;		/* kernel path that went through ours: use
				   ->real instead of the program's string */
	int err;		/* -errno found while walking ours */
	unsigned int dir;	/* directory holding the last component */
	unsigned int ino;	/* what the path names; 0: missing */
	const char *name;	/* last component (in ->buf) */
	unsigned int namelen;
	int slash;		/* ended with '/' */
	int dot;		/* last component is "." or ".." */
	char buf[FS_PATH_MAX];	/* the program's string */
	char real[FS_PATH_MAX + 2];
	char link[FS_PATH_MAX];	/* the rest, after a symbolic link */
	const struct sysgate_sys *sys;	/* the call: whose /proc/self */
	int magic;		/* FS_MAGIC_*: the kernel's text ends in a
				   /proc entry naming one of ours */
	int magic_fd;		/* its descriptor */
	unsigned int start_ofd;	/* relative to this descriptor of ours */
	int nofollow;		/* a text store: the last link is the name */
};

extern char fs_prefix[FS_PATH_MAX];
extern unsigned int fs_prefix_len;
/* Resolve path from a start: a directory inode of ours (start != 0), or
 * the kernel's absolute directory text.  Symbolic links of ours are
 * followed; in the last component as follow says. */
enum { FS_NOFOLLOW, FS_FOLLOW, FS_SLASH_FOLLOWS /* only before a '/' */ };
void fs_resolve(struct fs_path *p, unsigned int start, const char *realdir,
		int follow);
/* "/PREFIX/a/b" for a directory inode; length or -errno. */
long fs_dir_path(unsigned int ino, char *buf, unsigned long size);
/* p names inode ino itself (a descriptor, an empty path). */
void fs_path_ino(struct fs_path *p, unsigned int ino);
/* Does a component of path have the prefix's last name?  (Else a path
 * relative to a kernel directory cannot reach ours.) */
int fs_names_prefix(const char *path);

/* procfd.c: descriptors of ours as the kernel's objects and paths. */
enum { FS_MAGIC_NONE, FS_MAGIC_LINK, FS_MAGIC_FDINFO };
/* A kernel descriptor standing for one of ours; cloexec: O_CLOEXEC. */
long fs_placeholder(long cloexec);
extern int fs_ph_fd;			/* what it duplicates (hidden) */
int fs_placeholder_init(int carried);	/* carried: execve's, or -1 */
/* Name c[0..n) in the kernel's directory t[0..tl): a /proc or /dev link
 * to one of ours (returns its inode), or p->magic says what it is. */
unsigned int fs_magic(struct fs_path *p, const char *t, unsigned long tl,
		      const char *c, unsigned int n);
/* The calls that p->magic changes: readlink of the link, open of fdinfo. */
int fs_magic_served(long nr, const struct fs_path *p);
long fs_magic_readlink(struct sysgate_sys *s, const struct fs_path *p,
		       long buf, long size);
long fs_fdinfo_open(struct sysgate_sys *s, const struct fs_path *p,
		    long flags);
/* "/PREFIX/..." for any inode (a file: one of its names); length or
 * -errno. */
long fs_ino_path(unsigned int ino, char *buf, unsigned long size);

/* exec.c: running a program stored here. */
extern __thread int fs_exec_fd;		/* its copy, 0 or fd + 1 */
extern __thread char fs_exec_comm[16];	/* the program's name */
/* Turn the execve of inode ino (named by the program's path text) into
 * one the kernel can run; 0: run s as changed, 1: run again through the
 * script's interpreter (s->args[0]), or -errno. */
long fs_exec_prepare(struct sysgate_sys *s, unsigned int ino,
		     const char *name);
void fs_exec_failed(void);		/* the execve returned */
/* The same for a file of another store: its size and a reader. */
struct fs_exec_src {
	long (*read)(void *ctx, void *buf, unsigned long len,
		     unsigned long off);
	void *ctx;
	unsigned long size;
};
long fs_exec_prepare_src(struct sysgate_sys *s, const struct fs_exec_src *src,
			 const char *name);

/* poll.c: poll, select and epoll over both kinds of descriptor. */
int fs_poll_is_call(long nr);
int fs_poll_enter(struct sysgate_sys *s);	/* 1: answered (SKIP) */
void fs_poll_exit(struct sysgate_sys *s);

/* epoll.c: epoll sets holding our descriptors (lock held). */
extern int fs_ep_fd;			/* the tree's sentinel eventfd */
int fs_epoll_sentinel(void);		/* create it; 0 or -errno */
int fs_epoll_is_wait(long nr);
long fs_epoll_ctl(struct sysgate_sys *s);
void fs_epoll_wait_exit(struct sysgate_sys *s);
void fs_epoll_forget(unsigned int ofd);	/* its last descriptor closed */

/* lock.c: flock and fcntl record locks (lock held; a wait drops it). */
long fs_flock(const struct sysgate_sys *s, unsigned int ofd, long op);
long fs_fcntl_lock(struct sysgate_sys *s, unsigned int ofd, long cmd,
		   long uptr);
void fs_locks_close(int pid, unsigned int ino);	/* POSIX: pid closed it */
void fs_locks_ofd_gone(unsigned int ofd);

/* owner.c: which process holds which references (lock held). */
void fs_share(int pid, unsigned int ofd, int delta);
void fs_ofd_ref(int pid, unsigned int ofd);	/* a new descriptor */
void fs_ofd_unref(int pid, unsigned int ofd);	/* one closed */
void fs_born(int pid);		/* a new process: sweep now and then */
void fs_reap(void);		/* give back what dead processes held */
void fs_reap_pid(int pid);

/* fs.c, for poll.c, epoll.c and procfd.c */
unsigned int fs_fd_ofd(const struct sysgate_sys *s, long fd);
int fs_fd_virtual(const struct sysgate_sys *s, long fd);
unsigned int fs_cwd(const struct sysgate_sys *s);	/* ours, or 0 */
long fs_access(unsigned int ino, long mode);	/* access(2)'s answer */

/* Small freestanding helpers. */
/* mem.c: sysgate_read_mem, _read_str and _write_mem without a system
 * call. */
long fs_read_mem(const struct sysgate_sys *s, void *dst, const void *src,
		 unsigned long len);
long fs_write_mem(const struct sysgate_sys *s, void *dst, const void *src,
		  unsigned long len);
long fs_read_str(const struct sysgate_sys *s, char *dst, const void *src,
		 unsigned long max, int *trunc);

static inline unsigned long fs_min(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

#endif
