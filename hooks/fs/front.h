/* SPDX-License-Identifier: MIT */
/*
 * fs: the front every store shares.  The front owns what a kernel mount
 * would give any file system: the descriptor table (placeholders, dup,
 * close_range, fork and execve), the working directory, which paths and
 * descriptors are ours, poll/select/epoll over both worlds, and the
 * table of calls that name a path (front.c).  A store (struct fs_store)
 * answers the calls once the front has found that they are its own: the
 * arena (store.c and the fs_a_* operations), or CephFS (ceph.c).
 *
 * The front's files, by concern: desc.c (descriptor table), resolve.c
 * (path arguments), names.c (create, remove, rename), io.c (data),
 * meta.c (stat, modes, owners, times), life.c (fork, execve, start-up),
 * front.c (the hook's enter and exit).
 */
#ifndef SG_HOOK_FS_FRONT_H
#define SG_HOOK_FS_FRONT_H

#include "fs.h"
#include "../lib/fmt.h"

#define MAXFD 65536
#define CLONE_VM_ 0x100
#define CLONE_THREAD_ 0x10000
#define OPEN_KEEP (O_ACCMODE | O_APPEND | O_NONBLOCK | O_DIRECTORY | \
		   O_PATH | O_NOATIME | O_DIRECT | O_SYNC | O_DSYNC | \
		   O_LARGEFILE | O_NOFOLLOW)

struct proc {
	int pid;
	unsigned int cwd;		/* our directory; 0: the kernel's */
	int maxfd;			/* highest fd ever in ofd[] + 1 */
	char kcwd[FS_PATH_MAX];		/* the kernel's working directory */
	char scwd[FS_PATH_MAX];		/* a text store's: its path there */
	unsigned short ofd[MAXFD];
};

extern struct proc *fs_procs;		/* [0] this process, [1] vfork child */
extern __thread int fs_vforking;	/* set around vfork-like clones */
extern int fs_ready;

static inline long fs_sc(long nr, long a, long b, long c, long d, long e,
			 long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

/* desc.c */
struct proc *fs_proc_of(int pid);
unsigned int fs_ofd_of(struct proc *p, long fd);
int fs_hidden(long fd);
void fs_install(struct proc *p, int fd, unsigned int ofd);
void fs_drop(struct proc *p, int fd);
void fs_refresh_kcwd(struct proc *p);
long fs_dup(struct proc *pr, long nr, long *a);
long fs_fcntl(struct sysgate_sys *s, struct proc *pr, struct fs_ofd *o);
int fs_virtual_fd_arg(struct proc *pr, long nr, const long *a);
long fs_dup_call(struct sysgate_sys *s, struct proc *pr, int *run);
long fs_close_range_call(struct sysgate_sys *s, struct proc *pr, int *run);
/* A new descriptor of ours for open file description o: its placeholder
 * (cloexec: O_CLOEXEC), installed; the descriptor or -errno. */
long fs_fd_new(struct proc *pr, unsigned int o, long cloexec);
/* The kernel's answer, on a regular file, to a descriptor call that no
 * store serves (advice taken, ioctl ENOTTY, tee refused...). */
long fs_fd_unserved(long nr);

/* resolve.c */
enum { KERNEL, OURS };
int fs_get_path(struct sysgate_sys *s, struct proc *pr, int i, long dirfd,
		struct fs_path *p, int which);
long fs_need(const struct fs_path *p);
long fs_kernel_exists(struct sysgate_sys *s, int i);

/* The operations of a store on resolved paths (front.c's table says
 * which call is which, and what x and y are). */
enum {
	FS_OP_OPEN,	/* x: flags, y: mode */
	FS_OP_STAT,	/* x: struct stat * (program's) */
	FS_OP_STATX,	/* x: struct statx * (program's) */
	FS_OP_ACCESS,	/* x: mode */
	FS_OP_MKDIR,	/* x: mode */
	FS_OP_MKNOD,	/* x: mode */
	FS_OP_RMDIR,
	FS_OP_UNLINK,
	FS_OP_RENAME,	/* p[0] to p[1]; x: RENAME_* flags */
	FS_OP_LINK,	/* p[0] to p[1] */
	FS_OP_SYMLINK,	/* x: the target text (program's) */
	FS_OP_READLINK,	/* x: buffer, y: size */
	FS_OP_CHMOD,	/* x: mode */
	FS_OP_CHOWN,	/* x: uid, y: gid (-1 keeps) */
	FS_OP_UTIMENS,	/* x: struct fs_ts[2] in hook memory, or 0: now */
	FS_OP_TRUNCATE,	/* x: length */
	FS_OP_CHDIR,
	FS_OP_STATFS,	/* x: struct statfs * (program's) */
	FS_OP_XATTR,	/* the *xattr calls: the store reads s->args */
	FS_OP_N
};
typedef long fs_op_fn(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long x, long y);

struct fs_ts {
	long sec, nsec;
};

struct fs_iov {
	long base;
	unsigned long len;
};

struct dirent64 {
	unsigned long ino;
	long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

struct fs_store {
	const char *name;
	fs_op_fn *ops[FS_OP_N];
	/* A call on one of its descriptors (open file description oi). */
	long (*fd_call)(struct sysgate_sys *s, struct proc *pr,
			unsigned int oi);
	/* Where path p->buf leads from a directory of ours (start != 0:
	 * the arena's inode, or the descriptor's p->start_ofd / the store's
	 * working directory) or from the kernel's directory realdir. */
	void (*resolve)(struct fs_path *p, struct proc *pr, unsigned int start,
			const char *realdir, int follow);
	int arena_locked;	/* its calls run under the arena's lock */
};

extern const struct fs_store fs_arena_store;
extern const struct fs_store fs_ceph_store;
/* ceph.c: "CONF[:SUBDIR[:ID[:TIMEOUT[:CACHE]]]]" checked (check), or libcephfs
 * loaded and the cluster asked once (unless carried: an execve's); 0 or
 * a line saying why not. */
const char *fs_ceph_setup(const char *spec, unsigned long len, int check,
			  int carried);
/* The process ends or runs another program: unmount its client (a
 * session left open holds capabilities other clients wait for). */
void fs_ceph_end(void);
/* In a vfork parent, once the call returns: its own client again. */
void fs_ceph_vfork_back(void);
long fs_ceph_exec(struct sysgate_sys *s, struct fs_path *p);
extern const struct fs_store *fs_store;

/* meta.c */
long fs_put_stat(struct sysgate_sys *s, void *dst, unsigned int ino);
long fs_put_statx(struct sysgate_sys *s, void *dst, unsigned int ino);
long fs_put_statfs(struct sysgate_sys *s, void *dst);
unsigned int fs_umask_now(void);
long fs_set_owner(unsigned int ino, long uid, long gid);
long fs_apply_times(unsigned int ino, const struct fs_ts *ts);
long fs_a_stat(struct sysgate_sys *s, struct fs_path *p, long buf, int x);
long fs_a_chmod(struct fs_path *p, long mode);
long fs_a_chown(struct fs_path *p, long uid, long gid);

/* front.c: a symlink(2) target from the program into buf (size
 * bytes): its length, or the kernel's errno for it. */
long fs_symlink_target(struct sysgate_sys *s, char *buf, unsigned long size,
		       long target);

/* names.c */
long fs_a_open(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
	       long flags, long mode);
long fs_a_unlink(struct fs_path *p);
long fs_a_rmdir(struct fs_path *p);
long fs_a_make_node(struct fs_path *p, unsigned int type, long mode);
long fs_a_rename(struct fs_path *op, struct fs_path *np, long flags);
long fs_a_link(struct fs_path *op, struct fs_path *np);
long fs_a_mknod(struct fs_path *p, long mode);
long fs_a_symlink(struct sysgate_sys *s, struct fs_path *p, long target);
long fs_a_readlink(struct sysgate_sys *s, struct fs_path *p, long buf,
		   long size);

/* io.c */
long fs_arena_fd_call(struct sysgate_sys *s, struct proc *pr,
		      unsigned int oi);

/* copy.c: sendfile, copy_file_range and splice with a descriptor of
 * ours at one end or both. */
int fs_copy_is_call(long nr);
long fs_copy_call(struct sysgate_sys *s, struct proc *pr, int *run);

/* shmap.c: writable MAP_SHARED for a store with no pages of its own:
 * the process's page cache of a file, written back to the store. */
struct fs_shfile;
struct fs_map_ops {
	/* len bytes of f at off into (write 0) or from buf, hook memory:
	 * the count or -errno */
	long (*io)(struct fs_shfile *f, int write, char *buf,
		   unsigned long len, unsigned long off);
	long (*size)(struct fs_shfile *f);	/* its size, or -errno */
	long (*sync)(struct fs_shfile *f);	/* msync's MS_SYNC */
	void (*close)(struct fs_shfile *f);	/* the handle is not needed */
};
struct fs_shfile {
	unsigned long key;		/* the store's file id; 0: free */
	const struct fs_map_ops *ops;
	int mfd, sfd;			/* the pages, the store's bytes */
	int claim;			/* the machine's one copy (shmap.c) */
	char *mem, *snap;		/* both, mapped here */
	unsigned char *loaded;		/* a bit per page */
	unsigned long cover;		/* bytes of each memfd */
	unsigned int maps;		/* program mappings of it */
	long h;				/* the store's handle (-1: none), */
	unsigned int hgen;		/* its client, */
	char path[FS_PATH_MAX];		/* and what it opens again */
};
extern unsigned int fs_shmaps;		/* mappings: none, nothing to do */
/* mmap (s's arguments) of file key, MAP_SHARED: the address or -errno;
 * id names the file on this machine (its cluster and inode). */
long fs_shmap_mmap(struct sysgate_sys *s, unsigned long key, const char *path,
		   const char *id, const struct fs_map_ops *ops);
/* munmap, msync, mremap, mmap with MAP_FIXED: before the kernel's. */
void fs_shmap_enter(struct sysgate_sys *s);
void fs_shmap_exit(struct sysgate_sys *s);	/* (mremap) */
/* The process's own calls on file key, for its mappings (sync: what
 * they changed written back, before a read or fsync). */
void fs_shmap_written(unsigned long key, const char *buf, unsigned long len,
		      unsigned long off);
void fs_shmap_sync(unsigned long key);
void fs_shmap_truncated(unsigned long key, unsigned long size);
/* The process ends or runs another program: everything written back. */
void fs_shmap_end(void);

/* front.c: the hook's enter and exit */
enum sysgate_verdict fs_enter(struct sysgate_sys *s, void *data);
void fs_exit(struct sysgate_sys *s, void *data);
long fs_getcwd(struct sysgate_sys *s, struct proc *pr);
void fs_calls_index(void);

/* life.c */
void fs_note_clone(struct sysgate_sys *s);

#endif
