/* SPDX-License-Identifier: MIT */
/*
 * fs: CephFS as a store (front.h), through libcephfs in this process:
 * `--fs=/PREFIX:ceph:CONF[:SUBDIR[:ID[:TIMEOUT[:CACHE]]]]`.
 *
 * libcephfs is loaded with dlopen when such an --fs is given, so neither
 * the build nor other runs depend on it.  Its client is made in the first
 * hook callback that needs it, so the threads it starts are made while a
 * callback runs: the core marks those hook threads (their calls go
 * straight to the kernel), and libcephfs's own calls, made from inside
 * our callbacks, never reach the front either.  A forked child has none
 * of its parent's client threads: it makes a client of its own (on a
 * thread of its own, make_client_fresh, from libcephfs loaded anew,
 * fresh_library), never touching its parent's, and
 * opens its descriptors again by path, while their offsets stay in the
 * arena's open file descriptions, shared as the kernel shares them.
 *
 * Paths are resolved as text (lexically, `..` across the prefix included)
 * and CephFS follows its own symbolic links; the front's descriptor table,
 * placeholders, dup, close_range and fork are the same as for the arena.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"

#define RTLD_NOW_ 2
#define SEEK_CUR_ 1
#define SEEK_END_ 2
#define RENAME_NOREPLACE_ 1
#define UTIME_NOW_ ((1L << 30) - 1)
#define UTIME_OMIT_ ((1L << 30) - 2)
#define AT_NOFOLLOW_ 0x100
#define SET_MODE 1
#define SET_UID 2
#define SET_GID 4
#define SET_MTIME 8
#define SET_ATIME 16
/* What stat needs: the basic fields, which the client's capabilities
 * usually answer without asking the MDS (btime may not be). */
#define STATX_ALL_ 0x7ffU
#define STATX_BTIME_ 0x800U
#define STATX_KEY_ 0x1340U		/* ino, size, mtime, version */
/* An open file's type: its inode is here, no need to ask the MDS. */
#define STATX_MODE_ 0x1U
#define STATX_INO_ 0x100U
#define STATX_SIZE_ 0x200U
#define STATX_DONT_SYNC_ 0x4000
#define CEPH_MAGIC_ 0x00c36400
#define BOUNCE 65536

/* The loader has no dlopen: the program's libc has it, under -m preload. */
extern void *dlopen(const char *, int) __attribute__((weak,
						      visibility("default")));
extern void *dlsym(void *, const char *) __attribute__((weak,
						       visibility("default")));
extern void *dlmopen(long, const char *, int) __attribute__((weak,
							visibility("default")));
#define LM_ID_NEWLM_ (-1)
extern int __cxa_atexit(void (*)(void *), void *, void *)
	__attribute__((weak, visibility("default")));

/* libcephfs's ABI (include/cephfs/ceph_ll_client.h's struct ceph_statx). */
struct cstatx {
	unsigned int mask, blksize, nlink, uid, gid;
	unsigned short mode;
	unsigned long ino, size, blocks, dev, rdev;
	struct { long sec, nsec; } atime, ctime, mtime, btime;
	unsigned long version;
};

struct cdirent {			/* glibc's struct dirent */
	unsigned long ino;
	long off;
	unsigned short reclen;
	unsigned char type;
	char name[256];
};

/* (ceph_getdents fills an array of them) */
_Static_assert(sizeof(struct cdirent) == 280, "glibc's struct dirent");

struct cstatvfs {			/* glibc's struct statvfs */
	unsigned long bsize, frsize, blocks, bfree, bavail, files, ffree,
		favail, fsid, flag, namemax;
	int spare[6];
};

struct cm;				/* struct ceph_mount_info */
struct cdir;				/* struct ceph_dir_result */

/* The functions used, found by name. */
static struct {
	int (*create)(struct cm **, const char *);
	int (*conf_read_file)(struct cm *, const char *);
	int (*conf_set)(struct cm *, const char *, const char *);
	int (*mount)(struct cm *, const char *);
	int (*unmount)(struct cm *);
	int (*release)(struct cm *);
	unsigned int (*umask)(struct cm *, unsigned int);
	int (*open)(struct cm *, const char *, int, unsigned int);
	int (*close)(struct cm *, int);
	long (*lseek)(struct cm *, int, long, int);
	int (*read)(struct cm *, int, char *, long, long);
	int (*write)(struct cm *, int, const char *, long, long);
	int (*ftruncate)(struct cm *, int, long);
	int (*truncate)(struct cm *, const char *, long);
	int (*fsync)(struct cm *, int, int);
	int (*fstatx)(struct cm *, int, struct cstatx *, unsigned int,
		      unsigned int);
	int (*statx)(struct cm *, const char *, struct cstatx *, unsigned int,
		     unsigned int);
	int (*setattrx)(struct cm *, const char *, struct cstatx *, int, int);
	int (*fsetattrx)(struct cm *, int, struct cstatx *, int);
	int (*statfs)(struct cm *, const char *, struct cstatvfs *);
	int (*mkdir)(struct cm *, const char *, unsigned int);
	int (*mknod)(struct cm *, const char *, unsigned int, unsigned long);
	int (*rmdir)(struct cm *, const char *);
	int (*unlink)(struct cm *, const char *);
	int (*rename)(struct cm *, const char *, const char *);
	int (*link)(struct cm *, const char *, const char *);
	int (*symlink)(struct cm *, const char *, const char *);
	int (*readlink)(struct cm *, const char *, char *, long);
	int (*opendir)(struct cm *, const char *, struct cdir **);
	int (*closedir)(struct cm *, struct cdir *);
	int (*getdents)(struct cm *, struct cdir *, char *, int);
	long (*telldir)(struct cm *, struct cdir *);
	void (*seekdir)(struct cm *, struct cdir *, long);
	int (*flock)(struct cm *, int, int, unsigned long);
	void *(*mount_perms)(struct cm *);
	int (*ll_walk)(struct cm *, const char *, void **, struct cstatx *,
		       unsigned int, unsigned int, const void *);
	int (*ll_open)(struct cm *, void *, int, void **, const void *);
	int (*ll_getlk)(struct cm *, void *, struct flock *, unsigned long);
	int (*ll_setlk)(struct cm *, void *, struct flock *, unsigned long,
			int);
	int (*ll_close)(struct cm *, void *);
	int (*ll_put)(struct cm *, void *);
	int (*ll_getattr)(struct cm *, void *, struct cstatx *, unsigned int,
			  unsigned int, const void *);
	int (*ll_opendir)(struct cm *, void *, struct cdir **, const void *);
	int (*fd_caps)(struct cm *, int);
	/* Extended attributes: path, l- and f- forms of each (a path or
	 * a descriptor as the second argument: a register either way). */
	int (*xget[3])(struct cm *, long, const char *, void *, long);
	int (*xset[3])(struct cm *, long, const char *, const void *, long,
		       int);
	int (*xlist[3])(struct cm *, long, char *, long);
	int (*xremove[3])(struct cm *, long, const char *);
} F;

static const char *const names[] = {
	"ceph_create", "ceph_conf_read_file", "ceph_conf_set", "ceph_mount",
	"ceph_unmount", "ceph_release", "ceph_umask", "ceph_open",
	"ceph_close", "ceph_lseek", "ceph_read", "ceph_write",
	"ceph_ftruncate", "ceph_truncate", "ceph_fsync", "ceph_fstatx",
	"ceph_statx", "ceph_setattrx", "ceph_fsetattrx", "ceph_statfs",
	"ceph_mkdir", "ceph_mknod", "ceph_rmdir", "ceph_unlink",
	"ceph_rename", "ceph_link", "ceph_symlink", "ceph_readlink",
	"ceph_opendir", "ceph_closedir", "ceph_getdents", "ceph_telldir",
	"ceph_seekdir", "ceph_flock", "ceph_mount_perms", "ceph_ll_walk",
	"ceph_ll_open", "ceph_ll_getlk", "ceph_ll_setlk", "ceph_ll_close",
	"ceph_ll_put", "ceph_ll_getattr", "ceph_ll_opendir",
	"ceph_debug_get_fd_caps",
	"ceph_getxattr", "ceph_lgetxattr", "ceph_fgetxattr",
	"ceph_setxattr", "ceph_lsetxattr", "ceph_fsetxattr",
	"ceph_listxattr", "ceph_llistxattr", "ceph_flistxattr",
	"ceph_removexattr", "ceph_lremovexattr", "ceph_fremovexattr",
};
_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(F) / sizeof(void *),
	       "one name per function");

static char conf[FS_PATH_MAX], subdir[FS_PATH_MAX], id[64], timeout[16];
static char cache_dir[FS_PATH_MAX];
static unsigned int subdir_len;
static struct cm *cm;			/* this process's client */
static int cm_pid;			/* the process that made it */
static unsigned int cm_gen;		/* its number among */
static unsigned int gens;		/* the clients made here, ever */
/* Made in a process whose memory holds another's client (vfork; fork
 * where libcephfs could not be loaded anew, fresh_library): statfs is
 * not asked at its end, where it may never return. */
static int cm_copied;
/* A vfork child runs in its parent's memory: the parent's client, kept
 * aside while the child makes one of its own, is the parent's again when
 * vfork returns (fs_ceph_vfork_back). */
static struct {
	struct cm *cm;
	int pid, copied;
	unsigned int gen;
} parent;

/*
 * This process's handles on the open file descriptions it uses.  What the
 * description names ("/PREFIX/...") is the data of an unlinked inode of
 * the arena that it holds open, so fork and execve hand it on with the
 * description and its offset; this process opens it again when its
 * handle is not from its own client.
 */
struct local {
	int cfd;			/* libcephfs's descriptor, or -1 */
	unsigned int gen;		/* the client it belongs to */
	unsigned int ino;		/* the arena inode holding its name, */
	long birth;			/* and that inode's birth (ns) */
	struct cdir *dir;		/* getdents64's stream */
	void *fh;			/* record locks' handle (Fh) */
	void *in;			/* a directory's inode (dir_open) */
	signed char cst;		/* the data cache: CACHE_* */
	unsigned long cino, cver;	/* its file, the version written */
	unsigned int widx;		/* and its writer's copy: its index */
	/* A directory's entries that libcephfs gave and the program has
	 * not taken yet (getdents_via), as struct dirent64 records in a
	 * mapping of dmap bytes: dlen of them, from dat on, which follow
	 * stream offset dpos. */
	char *dents;
	unsigned long dmap, dlen, dat;
	long dpos;
};
static struct local *loc;
static unsigned int nloc, loc_top;	/* entries, and above the last used */

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

/*
 * Reads, writes and directory listings go through buffers taken for the
 * call from two pools, each mapped at its first use: a few of BIG bytes
 * for large calls (libcephfs sends a 4 MiB write or reads a 4 MiB object
 * in one request, where 64 KiB at a time cost 2-3 times the time: no
 * readahead, make_client) and a few of BOUNCE for the rest.  A call
 * that finds its pool taken (threads, a signal handler) maps a BOUNCE
 * of its own for the call.  (A thread-local BOUNCE cost every process,
 * --fs or not, 64 KiB of zeroed memory per thread under --preload: the
 * program's libc writes a library's thread-local zeros.)  One held by a
 * thread at fork is lost to the child, nothing more.
 */
#define BIG (4UL << 20)
#define NBIG 4
#define NSMALL 4
static char *pool[NBIG + NSMALL];	/* the BIG ones first */
static int pool_taken[NBIG + NSMALL];
#define OWN_MAP (-1)			/* slot of a buffer mapped for one call */

static char *map_rw(unsigned long size)
{
	long m = sc(__NR_mmap, 0, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return sysgate_is_error(m) ? 0 : (char *)m;
}

/* A buffer for len bytes (at most *cap at a time), 0 if memory is out;
 * *slot is for buf_give. */
static char *buf_take(unsigned long len, unsigned long *cap, int *slot)
{
	int i = len > BOUNCE ? 0 : NBIG, end = len > BOUNCE ? NBIG : NBIG + NSMALL;

	for (; i < end; i++) {
		if (__atomic_exchange_n(&pool_taken[i], 1, __ATOMIC_ACQUIRE))
			continue;
		if (!pool[i])
			pool[i] = map_rw(i < NBIG ? BIG : BOUNCE);
		if (!pool[i]) {
			__atomic_store_n(&pool_taken[i], 0, __ATOMIC_RELEASE);
			break;
		}
		*slot = i;
		*cap = i < NBIG ? BIG : BOUNCE;
		return pool[i];
	}
	*slot = OWN_MAP;
	*cap = BOUNCE;
	return map_rw(BOUNCE);
}

static void buf_give(char *b, int slot)
{
	if (slot >= 0)
		__atomic_store_n(&pool_taken[slot], 0, __ATOMIC_RELEASE);
	else if (b)
		sc(__NR_munmap, (long)b, BOUNCE, 0, 0, 0, 0);
}

/*
 * The data cache (CACHE, --fs's seventh field): files' bytes kept in a
 * directory of the host between processes, as the kernel's page cache
 * keeps a ceph-fuse mount's.  Each process has a client of its own, whose
 * object cache ends with it, so a file written by one program and read
 * by the next came from the OSDs again (0.10 x ceph-fuse's read from its
 * page cache, doc/fs.md).  CACHE/INO holds the file's bytes, tagged
 * (xattr) with the size, mtime and change attribute ("version", which
 * every write and every change of the file through any client moves)
 * that CephFS gave them.  A read serves from it only while the file's
 * attributes, as this client's capabilities keep them or the MDS says
 * once they are revoked, are that tag; else from the cluster.
 *
 * It is filled by a writer that holds the whole file: one that found it
 * empty, writes it as its sole writer (Fb, the buffer capability, which
 * the MDS gives one client only) and sees the version move by one per
 * write of its own, never by another's.  Its bytes go to CACHE/INO.wPID.OFD
 * too, renamed to CACHE/INO with the tag when the file is closed.  Any
 * doubt (an append, another writer, a truncate, an error) drops it.
 * Only files of CACHE_MIN bytes or more, begun by a write that large:
 * a small file costs an OSD round trip to read, but caching it cost more
 * syscalls (about 10, to write, tag and rename it) than the round trip
 * saved in the small-file rows of bench/fs/ceph.sh, whose reads come
 * from the writer's own client.
 */
#define CACHE_MIN (64UL << 10)
#define CAP_FILE_BUFFER_ 0x2000
#define CACHE_XATTR "user.sysgate-ceph"
enum { CACHE_NONE = -1, CACHE_UNKNOWN, CACHE_WRITING, CACHE_READING };

struct cache_tag {
	unsigned long version, size;
	long sec, nsec;
};

static void cache_tag_of(const struct cstatx *x, struct cache_tag *t)
{
	t->version = x->version;
	t->size = x->size;
	t->sec = x->mtime.sec;
	t->nsec = x->mtime.nsec;
}

/* CACHE/INO, or with writer l's tail. */
static void cache_name(char *out, unsigned long ino, const struct local *l)
{
	struct fmt f;

	fmt_init(&f, out, FS_PATH_MAX);
	fmt_str(&f, cache_dir);
	fmt_str(&f, "/");
	fmt_udec(&f, ino);
	if (l) {
		fmt_str(&f, ".w");
		fmt_udec(&f, sc(__NR_getpid, 0, 0, 0, 0, 0, 0));
		fmt_str(&f, ".");
		fmt_udec(&f, l->widx);
	}
	out[f.len < FS_PATH_MAX ? f.len : FS_PATH_MAX - 1] = 0;
}

/* (never through a symbolic link: CACHE is checked to be the user's own
 * at setup, and a link there is not sysgate's) */
static long cache_open(const char *name, long flags)
{
	return sc(__NR_openat, AT_FDCWD, (long)name,
		  flags | O_CLOEXEC | O_NOFOLLOW, 0600, 0, 0);
}

static void cache_drop(struct local *l)
{
	char name[FS_PATH_MAX];

	cache_name(name, l->cino, l);
	sc(__NR_unlinkat, AT_FDCWD, (long)name, 0, 0, 0, 0);
	l->cst = CACHE_NONE;
}

/* Before a write through l: whether the file may still be cached whole. */
static void cache_write_pre(struct local *l, long fd, int append,
			    unsigned long len)
{
	char name[FS_PATH_MAX];
	struct cstatx x;
	long k;

	if (!cache_dir[0] || l->cst == CACHE_NONE)
		return;
	if (F.fstatx(cm, fd, &x, STATX_KEY_, STATX_DONT_SYNC_) < 0) {
		if (l->cst == CACHE_WRITING)
			cache_drop(l);
		l->cst = CACHE_NONE;
		return;
	}
	if (l->cst == CACHE_WRITING) {
		if (append || x.version != l->cver)
			cache_drop(l);
		return;
	}
	l->cst = CACHE_NONE;
	if (append || x.size || len < CACHE_MIN)
		return;
	l->cino = x.ino;
	l->widx = l - loc;
	cache_name(name, x.ino, l);
	/* (a copy a killed writer of the same pid left is removed first:
	 * the copy is always a file of its own) */
	sc(__NR_unlinkat, AT_FDCWD, (long)name, 0, 0, 0, 0);
	if ((k = cache_open(name, O_WRONLY | O_CREAT | O_EXCL)) < 0)
		return;
	sc(__NR_close, k, 0, 0, 0, 0, 0);
	l->cst = CACHE_WRITING;
	l->cver = x.version;
}

/* After n bytes from b were written at at through l. */
static void cache_write_post(struct local *l, long fd, const char *b, long n,
			     unsigned long at)
{
	char name[FS_PATH_MAX];
	struct cstatx x;
	long k, r = -1;

	if (l->cst != CACHE_WRITING)
		return;
	if (F.fstatx(cm, fd, &x, STATX_KEY_, STATX_DONT_SYNC_) < 0 ||
	    x.version != l->cver + 1 ||
	    !(F.fd_caps(cm, fd) & CAP_FILE_BUFFER_)) {
		cache_drop(l);
		return;
	}
	l->cver = x.version;
	cache_name(name, l->cino, l);
	if ((k = cache_open(name, O_WRONLY)) >= 0) {
		r = sc(__NR_pwrite64, k, (long)b, n, at, 0, 0);
		sc(__NR_close, k, 0, 0, 0, 0, 0);
	}
	if (r != n)
		cache_drop(l);
}

/* Writer l's file, as the file is closed: tagged and in place, if it is
 * still the whole file. */
static void cache_write_end(struct local *l, long fd)
{
	char name[FS_PATH_MAX], to[FS_PATH_MAX];
	struct cache_tag t;
	struct cstatx x;
	struct stat st;
	long k, r = -1;

	if (l->cst != CACHE_WRITING)
		return;
	cache_name(name, l->cino, l);
	if (F.fstatx(cm, fd, &x, STATX_KEY_, STATX_DONT_SYNC_) >= 0 &&
	    x.version == l->cver && (k = cache_open(name, O_RDONLY)) >= 0) {
		cache_tag_of(&x, &t);
		if (sc(__NR_fstat, k, (long)&st, 0, 0, 0, 0) >= 0 &&
		    (unsigned long)st.st_size == x.size)
			r = sc(__NR_fsetxattr, k, (long)CACHE_XATTR, (long)&t,
			       sizeof(t), 0, 0);
		sc(__NR_close, k, 0, 0, 0, 0, 0);
	}
	cache_name(to, l->cino, 0);
	if (r < 0 || sc(__NR_renameat2, AT_FDCWD, (long)name, AT_FDCWD,
			(long)to, 0, 0) < 0)
		sc(__NR_unlinkat, AT_FDCWD, (long)name, 0, 0, 0, 0);
	l->cst = CACHE_UNKNOWN;
}

/*
 * A read of len bytes at pos through l, into the program's buf, from the
 * cache if it holds the file as the client now sees it: *hit says so,
 * and the result is pread's.
 */
static long cache_read(struct local *l, long fd, long buf, unsigned long len,
		       unsigned long pos, int *hit)
{
	char name[FS_PATH_MAX];
	struct cache_tag want, have;
	struct cstatx x;
	long k, r = -1;

	*hit = 0;
	if (!cache_dir[0] || (l->cst != CACHE_UNKNOWN &&
			      l->cst != CACHE_READING))
		return 0;
	/* (with the capabilities held, the client answers alone) */
	if (F.fstatx(cm, fd, &x, STATX_KEY_, 0) < 0) {
		l->cst = CACHE_NONE;
		return 0;
	}
	cache_tag_of(&x, &want);
	cache_name(name, x.ino, 0);
	if (x.size >= CACHE_MIN && (k = cache_open(name, O_RDONLY)) >= 0) {
		if (sc(__NR_fgetxattr, k, (long)CACHE_XATTR, (long)&have,
		       sizeof(have), 0, 0) == sizeof(have) &&
		    have.version == want.version && have.size == want.size &&
		    have.sec == want.sec && have.nsec == want.nsec) {
			r = sc(__NR_pread64, k, buf, len, pos, 0, 0);
			*hit = r >= 0 || r == -EFAULT;
		}
		sc(__NR_close, k, 0, 0, 0, 0, 0);
	}
	l->cst = *hit ? CACHE_READING : CACHE_NONE;
	return *hit ? r : 0;
}

/* The cached bytes of the file at path, which is being removed. */
static void cache_forget(const char *path)
{
	char name[FS_PATH_MAX];
	struct cstatx x;

	if (!cache_dir[0] || F.statx(cm, path, &x, STATX_INO_ | STATX_MODE_,
				     AT_NOFOLLOW_) < 0 || !S_ISREG(x.mode))
		return;
	cache_name(name, x.ino, 0);
	sc(__NR_unlinkat, AT_FDCWD, (long)name, 0, 0, 0, 0);
}

/*
 * A client, mounted at SUBDIR; 0 or -errno (the mount timeout bounds an
 * unreachable cluster).  Without libcephfs's readahead: each process
 * unmounts its client when it ends, and libcephfs 16's unmount waits
 * until every inode is released, but a reference that one of its own
 * threads drops after the unmount began (a readahead finishing after
 * the program's last read, the reply to its last MDS request) is only
 * seen at the client's next tick, once a second: up to 1 s more for
 * every process that read a file.  Without it, a 1 GiB dd read (4 MiB
 * calls, BIG) took 1.14 and 1.55 x the time libcephfs called with it
 * took, in two runs (doc/fs.md); the MDS's replies are waited for in
 * unmount().
 */
static long make_client(struct cm **out)
{
	struct cm *c = 0;
	long r = F.create(&c, id[0] ? id : 0);

	if (r < 0)
		return r;
	if ((r = F.conf_read_file(c, conf)) < 0 ||
	    (r = F.conf_set(c, "client_mount_timeout", timeout)) < 0 ||
	    (r = F.conf_set(c, "rados_mon_op_timeout", timeout)) < 0 ||
	    (r = F.conf_set(c, "client_readahead_min", "0")) < 0 ||
	    (r = F.mount(c, subdir_len ? subdir : "/")) < 0) {
		F.release(c);
		return r;
	}
	F.umask(c, 0);		/* the program's umask is applied here */
	*out = c;
	return 0;
}

/*
 * libcephfs draws its messenger's nonce, which with the address names
 * the client on the wire, from a per-thread random engine seeded at its
 * first use.  A forked process goes on with its parent's engine, so two
 * children of one parent would present the same address, and the monitor
 * and the MDS would reset one's session for the other's without end (the
 * hang of a forked child).  A thread of its own starts unseeded: every
 * client is made on one.
 */
static int (*thread_create)(unsigned long *, const void *, void *(*)(void *),
			    void *);
static int (*thread_join)(unsigned long, void **);

struct making {
	struct cm *c;
	long r;
	int reload;
};

static void fresh_library(void);

/* (libcephfs's constructors, run by dlmopen, need more stack than a
 * callback's) */
static void *making_thread(void *arg)
{
	struct making *m = arg;

	if (m->reload)
		fresh_library();
	m->r = make_client(&m->c);
	return 0;
}

/* reload: in a fork child, with libcephfs loaded anew (fresh_library). */
static long make_client_fresh(struct cm **out, int reload)
{
	struct making m = { 0, 0, reload };
	unsigned long t;
	int e;

	/* (its threads block every signal: no code is patched from now) */
	sysgate_hook_threads();
	e = thread_create(&t, 0, making_thread, &m);

	if (e)
		return -e;
	thread_join(t, 0);
	if (!m.r)
		*out = m.c;
	return m.r;
}

/* Unmount c and free it: first a round trip to the monitor (statfs),
 * whose reply libcephfs dispatches after every message that came before
 * it, so that the last MDS reply has dropped its inode references before
 * the unmount starts waiting for them (see make_client); not where
 * statfs would hang (cm_copied: such a process may wait up to 1 s). */
static void unmount(struct cm *c)
{
	struct cstatvfs v;
	unsigned int i;

	/* Files still open (a program's standard output, never closed):
	 * their metadata as fsync sends it, which the MDS commits at once;
	 * the unmount's own flush it may keep for its next tick (~5 s) while
	 * another client (the shell that opened the file) holds it too. */
	for (i = 0; c == cm && i < loc_top; i++)
		if (loc[i].cfd >= 0 && loc[i].gen == cm_gen) {
			F.fsync(c, loc[i].cfd, 0);
			cache_write_end(&loc[i], loc[i].cfd);
		}
	if (!cm_copied)
		F.statfs(c, "/", &v);
	F.unmount(c);
	F.release(c);
}

static void at_exit(void *arg)
{
	(void)arg;
	fs_ceph_end();
}

/* That copy's libc sets its character classes up for the threads that
 * it starts and the one that loaded it, not for the program's: each
 * call sets them for its thread (a few stores). */
static void (*ctype_init)(void);

static struct cm *client(void)
{
	int pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);

	if (cm && cm_pid == pid) {
		if (ctype_init)
			ctype_init();
		return cm;
	}

	/* A fork child: its parent's client has no threads here. */
	if (fs_procs[1].pid == pid && !parent.pid) {
		parent.cm = cm;
		parent.pid = cm_pid;
		parent.gen = cm_gen;
		parent.copied = cm_copied;
	}
	cm_copied = cm != 0;
	cm = 0;
	if (make_client_fresh(&cm, cm_copied && fs_procs[1].pid != pid) < 0)
		return 0;
	/* exit() runs libcephfs's destructors, some of them registered by
	 * its first client, before the process's end reaches fs_fini:
	 * unmount before them (exit handlers run last first). */
	if (!gens && __cxa_atexit)
		__cxa_atexit(at_exit, 0, 0);
	cm_pid = pid;
	cm_gen = ++gens;
	if (ctype_init)
		ctype_init();
	return cm;
}

/* "/PREFIX/rest" (the front's text) as CephFS's path "/rest". */
static const char *cpath(const char *front)
{
	const char *r = front + fs_prefix_len;

	return *r ? r : "/";
}

/* The name open file description o stands for; its length or -errno. */
static long ofd_path(unsigned int o, char *buf)
{
	unsigned int ino = fs_ofd(o)->ino;
	long n = ino ? fs_read(0, ino, buf, FS_PATH_MAX - 1, 0) : -EBADF;

	buf[n > 0 ? n : 0] = 0;
	return n > 0 ? n : -EBADF;
}

/* l's directory entries taken ahead, given back (only this process's:
 * a vfork child's memory is its parent's). */
static void dents_drop(struct local *l)
{
	if (l->dents && l->gen == cm_gen && cm)
		sc(__NR_munmap, (long)l->dents, l->dmap, 0, 0, 0, 0);
	l->dents = 0;
	l->dlen = l->dat = 0;
}

/* Close this process's handles in l (those of its current client). */
static void local_release(struct local *l)
{
	if (l->gen == cm_gen && cm) {
		if (l->cfd >= 0) {
			cache_write_end(l, l->cfd);
			F.close(cm, l->cfd);
		}
		if (l->dir)
			F.closedir(cm, l->dir);
		if (l->fh)
			F.ll_close(cm, l->fh);
		if (l->in)
			F.ll_put(cm, l->in);
	}
	dents_drop(l);
	l->cfd = -1;
	l->dir = 0;
	l->fh = 0;
	l->in = 0;
	l->cst = CACHE_UNKNOWN;	/* (a parent's file is the parent's) */
}

/* This process's handle for o, forgotten if it was another's (a
 * description since freed and its index reused). */
static struct local *local_of(unsigned int o)
{
	struct local *l;
	unsigned int ino;

	if (o >= nloc)
		return 0;
	l = &loc[o];
	if (o >= loc_top)
		loc_top = o + 1;
	ino = fs_ofd(o)->ino;
	if (l->ino != ino || !ino || l->birth != fs_ino(ino)->btime[1]) {
		local_release(l);
		l->ino = ino;
		l->birth = ino ? fs_ino(ino)->btime[1] : 0;
	}
	return l;
}

/* This process's libcephfs descriptor for o, opened again after a fork. */
static long cfd_of(unsigned int o)
{
	struct local *l = local_of(o);
	char path[FS_PATH_MAX];
	long fd;

	if (!l || ofd_path(o, path) < 0)
		return -EBADF;
	if (!client())
		return -EIO;
	if (l->cfd >= 0 && l->gen == cm_gen)
		return l->cfd;
	fd = F.open(cm, cpath(path), fs_ofd(o)->flags & (O_ACCMODE | O_APPEND),
		    0);
	if (fd < 0)
		return fd;
	if (l->gen != cm_gen) {
		l->dir = 0;	/* its parent's client's */
		l->fh = 0;
		l->in = 0;
	}
	l->cfd = fd;
	l->gen = cm_gen;
	return fd;
}

/* Lexically: base (absolute) joined with rel, "." and ".." folded. */
static long join(char *out, const char *base, const char *rel)
{
	unsigned long n = 0, i;
	const char *parts[2] = { base, rel };
	int k;

	out[0] = 0;
	for (k = rel[0] == '/' ? 1 : 0; k < 2; k++) {
		const char *t = parts[k];

		for (i = 0; t[i];) {
			unsigned long j;

			while (t[i] == '/')
				i++;
			for (j = i; t[j] && t[j] != '/'; j++)
				;
			if (j == i)
				break;
			if (j - i == 1 && t[i] == '.') {
			} else if (j - i == 2 && t[i] == '.' && t[i + 1] == '.') {
				while (n && out[n - 1] != '/')
					n--;
				if (n)
					n--;
			} else {
				if (n + 1 + (j - i) + 1 > FS_PATH_MAX)
					return -ENAMETOOLONG;
				out[n++] = '/';
				hk_memcpy(out + n, t + i, j - i);
				n += j - i;
			}
			i = j;
		}
	}
	if (!n)
		out[n++] = '/';
	out[n] = 0;
	return n;
}

static int under_prefix(const char *t)
{
	return !hk_strncmp(t, fs_prefix, fs_prefix_len) &&
	       (t[fs_prefix_len] == '/' || !t[fs_prefix_len]);
}

static void c_resolve(struct fs_path *p, struct proc *pr, unsigned int start,
		      const char *realdir, int follow)
{
	const char *base = realdir;
	unsigned long len = hk_strlen(p->buf);
	long n;

	if (start) {
		base = pr->scwd;
		if (p->start_ofd && ofd_path(p->start_ofd, p->link) > 0)
			base = p->link;
	}
	p->virt = p->rewrite = p->err = 0;
	p->ino = FS_ROOT;		/* CephFS answers whether it exists */
	p->magic = FS_MAGIC_NONE;
	p->slash = len && p->buf[len - 1] == '/';
	/* The last component "." or "..": rmdir and rename refuse it. */
	p->dot = 0;
	{
		unsigned long e = len;

		while (e && p->buf[e - 1] == '/')
			e--;
		if (e && p->buf[e - 1] == '.' &&
		    (e == 1 || p->buf[e - 2] == '/'))
			p->dot = 1;
		else if (e >= 2 && p->buf[e - 1] == '.' && p->buf[e - 2] == '.' &&
			 (e == 2 || p->buf[e - 3] == '/'))
			p->dot = 2;
	}
	p->nofollow = follow == FS_NOFOLLOW ||
		      (follow == FS_SLASH_FOLLOWS && !p->slash);
	n = join(p->real, base ? base : "/", p->buf);
	if (n < 0) {
		p->virt = 1;
		p->err = n;
		return;
	}
	if (under_prefix(p->real)) {
		p->virt = 1;
		return;
	}
	/* The kernel's, but reached through ours ("/PREFIX/..", or ".."
	 * from a directory of ours), which the kernel does not have: the
	 * text folded. */
	if ((start && p->buf[0] != '/') || fs_names_prefix(p->buf))
		p->rewrite = 1;
}

static void fill_stat(struct stat *st, const struct cstatx *x)
{
	hk_memset(st, 0, sizeof(*st));
	st->st_dev = x->dev;
	st->st_ino = x->ino;
	st->st_nlink = x->nlink;
	st->st_mode = x->mode;
	st->st_uid = x->uid;
	st->st_gid = x->gid;
	st->st_rdev = x->rdev;
	st->st_size = x->size;
	st->st_blksize = x->blksize;
	st->st_blocks = x->blocks;
	st->st_atime = x->atime.sec;
	st->st_atime_nsec = x->atime.nsec;
	st->st_mtime = x->mtime.sec;
	st->st_mtime_nsec = x->mtime.nsec;
	st->st_ctime = x->ctime.sec;
	st->st_ctime_nsec = x->ctime.nsec;
}

static long put_stat(struct sysgate_sys *s, long dst, const struct cstatx *x)
{
	struct stat st;

	fill_stat(&st, x);
	return fs_write_mem(s, (void *)dst, &st, sizeof(st)) < 0 ?
		       -EFAULT : 0;
}

static long put_statx(struct sysgate_sys *s, long dst, const struct cstatx *c,
		      unsigned int btime)
{
	struct statx x;

	hk_memset(&x, 0, sizeof(x));
	x.stx_mask = STATX_BASIC_STATS | btime;
	x.stx_blksize = c->blksize;
	x.stx_nlink = c->nlink;
	x.stx_uid = c->uid;
	x.stx_gid = c->gid;
	x.stx_mode = c->mode;
	x.stx_ino = c->ino;
	x.stx_size = c->size;
	x.stx_blocks = c->blocks;
	x.stx_atime.tv_sec = c->atime.sec;
	x.stx_atime.tv_nsec = c->atime.nsec;
	if (btime) {
		x.stx_btime.tv_sec = c->btime.sec;
		x.stx_btime.tv_nsec = c->btime.nsec;
	}
	x.stx_ctime.tv_sec = c->ctime.sec;
	x.stx_ctime.tv_nsec = c->ctime.nsec;
	x.stx_mtime.tv_sec = c->mtime.sec;
	x.stx_mtime.tv_nsec = c->mtime.nsec;
	x.stx_dev_major = (c->dev >> 8) & 0xfff;
	x.stx_dev_minor = (c->dev & 0xff) | ((c->dev >> 12) & 0xfff00);
	return fs_write_mem(s, (void *)dst, &x, sizeof(x)) < 0 ? -EFAULT :
								     0;
}

static long put_statfs(struct sysgate_sys *s, long dst, const char *path)
{
	struct cstatvfs v;
	struct statfs f;
	long r = F.statfs(cm, path, &v);

	if (r < 0)
		return r;
	hk_memset(&f, 0, sizeof(f));
	f.f_type = CEPH_MAGIC_;
	f.f_bsize = v.bsize;
	f.f_frsize = v.frsize;
	f.f_blocks = v.blocks;
	f.f_bfree = v.bfree;
	f.f_bavail = v.bavail;
	f.f_files = v.files;
	f.f_ffree = v.ffree;
	f.f_namelen = v.namemax;
	return fs_write_mem(s, (void *)dst, &f, sizeof(f)) < 0 ? -EFAULT :
								     0;
}

/* fstat of descriptor fd, or of l's directory inode (fd < 0).  What was
 * removed while open the MDS no longer finds (a directory: ENOENT); the
 * kernel answers from what it knew, with no links left: so does this. */
static long fstat_of(struct local *l, long fd, struct cstatx *x,
		     unsigned int want)
{
	unsigned int sync;
	long r = 0;

	for (sync = 0; sync <= STATX_DONT_SYNC_; sync += STATX_DONT_SYNC_) {
		r = fd < 0 ? F.ll_getattr(cm, l->in, x, want, sync,
					  F.mount_perms(cm)) :
			     F.fstatx(cm, fd, x, want, sync);
		if (r != -ENOENT)
			break;
	}
	if (!r && sync)
		x->nlink = 0;
	return r;
}

static long getx_want(struct fs_path *p, struct cstatx *x, unsigned int want)
{
	/* An empty path (AT_EMPTY_PATH: fstat) names the descriptor, which
	 * may be of something removed since. */
	if (p->start_ofd && !p->buf[0]) {
		struct local *l = local_of(p->start_ofd);
		long fd;

		if (l && l->in && l->gen == cm_gen)
			return fstat_of(l, -1, x, want);
		if ((fd = cfd_of(p->start_ofd)) >= 0)
			return fstat_of(l, fd, x, want);
	}
	return F.statx(cm, cpath(p->real), x, want,
		       p->nofollow ? AT_NOFOLLOW_ : 0);
}

static long getx(struct fs_path *p, struct cstatx *x)
{
	return getx_want(p, x, STATX_ALL_);
}

/* A path that ends in '/' names a directory, which CephFS's path calls
 * do not check: ENOTDIR for anything else (EISDIR to create one). */
static long slash_check(struct fs_path *p, int creating)
{
	struct cstatx x;
	long r;

	if (!p->slash)
		return 0;
	r = F.statx(cm, cpath(p->real), &x, STATX_ALL_, 0);
	if (r == -ENOENT)
		return creating ? -EISDIR : 0;
	return r < 0 ? r : S_ISDIR(x.mode) ? 0 : -ENOTDIR;
}

/* CephFS answers EACCES or ENOENT below a file, the kernel ENOTDIR. */
static long parent_check(struct fs_path *p, long r)
{
	char *slash = p->real + hk_strlen(p->real);
	struct cstatx x;
	long q;

	if (r != -EACCES && r != -ENOENT)
		return r;
	while (slash > p->real && *--slash != '/')
		;
	if (slash <= p->real + fs_prefix_len)
		return r;
	*slash = 0;
	q = F.statx(cm, cpath(p->real), &x, STATX_ALL_, 0);
	*slash = '/';
	return q == 0 && !S_ISDIR(x.mode) ? -ENOTDIR : r;
}

/* Every operation starts here: the path's own error, or no client. */
#define BEGIN(p)                                                            \
	do {                                                                \
		if ((p)->err)                                               \
			return (p)->err;                                    \
		if (!client())                                              \
			return -EIO;                                        \
	} while (0)

/*
 * A directory opened to be read needs no open file on the MDS, the round
 * trip libcephfs's open makes for one (ceph-fuse opens directories as
 * this does): its stream, for getdents64, and its inode, for fstat (a
 * descriptor of libcephfs is opened when another call needs one).  Asked
 * with O_DIRECTORY (opendir, fts), so that opening a file costs no second
 * lookup.  1 if p is a directory so opened, -ENOTDIR if it is not one
 * (a symbolic link under O_NOFOLLOW too), 0 if it cannot be (the usual
 * open then says why).
 */
static int dir_open(struct fs_path *p, long flags, struct cstatx *x,
		    void **in, struct cdir **dir)
{
	if (!(flags & O_DIRECTORY) || (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_CREAT | O_TRUNC)) ||
	    F.ll_walk(cm, cpath(p->real), in, x, STATX_MODE_,
		      (flags & O_NOFOLLOW) ? AT_NOFOLLOW_ : 0,
		      F.mount_perms(cm)) < 0) {
		*in = 0;
		return 0;
	}
	if (S_ISDIR(x->mode) && F.ll_opendir(cm, *in, dir,
					     F.mount_perms(cm)) >= 0)
		return 1;
	F.ll_put(cm, *in);
	*in = 0;
	/* (a symbolic link under O_NOFOLLOW: the kernel's ENOTDIR, where
	 * libcephfs's open says ELOOP) */
	return S_ISDIR(x->mode) ? 0 : -ENOTDIR;
}

static long c_open(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long flags, long mode)
{
	struct cstatx x;
	struct local *l;
	struct cdir *dir = 0;
	void *in = 0;
	long cfd = -1, o, fd, ino;

	(void)s;
	/* CephFS has no unnamed files: the kernel's checks (write access,
	 * a directory), then the file system's EOPNOTSUPP. */
	if ((flags & O_TMPFILE) == O_TMPFILE && !(flags & (O_WRONLY | O_RDWR)))
		return -EINVAL;
	BEGIN(p);
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		if ((o = getx(p, &x)) < 0)
			return parent_check(p, o);
		return S_ISDIR(x.mode) ? -EOPNOTSUPP : -ENOTDIR;
	}
	if ((o = slash_check(p, flags & O_CREAT)) < 0)
		return o;
	if (flags & O_PATH) {
		if ((o = getx(p, &x)) < 0)
			return parent_check(p, o);
		if ((flags & O_DIRECTORY) && !S_ISDIR(x.mode))
			return -ENOTDIR;
	} else if ((o = dir_open(p, flags, &x, &in, &dir)) < 0) {
		return o;
	} else if (!o) {
		cfd = F.open(cm, cpath(p->real),
			     flags & ~(O_CLOEXEC | O_LARGEFILE | O_NOATIME |
				       O_DIRECTORY),
			     (flags & O_CREAT) ?
				     (mode & 07777) & ~fs_umask_now() : 0);
		if (cfd < 0)
			return parent_check(p, cfd == -ENOTDIR &&
					    (flags & O_NOFOLLOW) ? -ELOOP : cfd);
		o = F.fstatx(cm, cfd, &x, STATX_MODE_ | STATX_SIZE_,
			     STATX_DONT_SYNC_);
		if (o < 0 || ((flags & O_DIRECTORY) && !S_ISDIR(x.mode)) ||
		    (S_ISDIR(x.mode) && (flags & O_ACCMODE) != O_RDONLY)) {
			F.close(cm, cfd);
			return o < 0 ? o : S_ISDIR(x.mode) ? -EISDIR : -ENOTDIR;
		}
	}
	fs_lock(s->tid);
	/* (a directory's: so that the front takes it for a dirfd) */
	ino = fs_inode_new(((flags & O_PATH) ? x.mode & S_IFMT :
			    S_ISDIR(x.mode) ? S_IFDIR : S_IFREG) | 0600, 0, 0);
	o = ino < 0 ? ino : fs_write(0, ino, p->real, hk_strlen(p->real), 0);
	if (ino > 0)
		fs_ino(ino)->nlink = 0;	/* freed with its last description */
	if (o >= 0)
		o = fs_ofd_new(ino, flags & OPEN_KEEP);
	fd = o < 0 ? o : fs_fd_new(pr, o, flags & O_CLOEXEC);
	if (o >= 0 && fd < 0)
		fs_ofd_put(o);
	else if (ino > 0 && o < 0)
		fs_inode_put(ino);
	fs_unlock();
	l = fd < 0 ? 0 : local_of(o);
	if (!l) {
		if (cfd >= 0)
			F.close(cm, cfd);
		if (dir) {
			F.closedir(cm, dir);
			F.ll_put(cm, in);
		}
		return fd < 0 ? fd : -ENOMEM;
	}
	l->cfd = cfd;
	l->dir = dir;
	l->in = in;
	l->gen = cm_gen;
	/* (a small file opened to be read: no cache to look for, and no
	 * fstatx for it at the first read; one that grows meanwhile is
	 * only read from the cluster) */
	if (cfd >= 0 && (flags & O_ACCMODE) == O_RDONLY && x.size < CACHE_MIN)
		l->cst = CACHE_NONE;
	return fd;
}

static long c_stat(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long x, long y)
{
	struct cstatx c;
	long r;

	(void)pr, (void)y;
	BEGIN(p);
	r = getx(p, &c);
	if (!r && p->slash && !S_ISDIR(c.mode))
		r = -ENOTDIR;
	return r < 0 ? parent_check(p, r) : put_stat(s, x, &c);
}

static long c_statx(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	struct cstatx c;
	long r;

	(void)pr, (void)y;
	BEGIN(p);
	/* btime only when the program asks for it (s->args[3]: the mask) */
	r = getx_want(p, &c, STATX_ALL_ | (s->args[3] & STATX_BTIME_));
	if (!r && p->slash && !S_ISDIR(c.mode))
		r = -ENOTDIR;
	return r < 0 ? parent_check(p, r) :
		       put_statx(s, x, &c, s->args[3] & STATX_BTIME_);
}

/* access(2)'s answer from the mode bits, as the kernel gives it. */
static long c_access(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long mode, long y)
{
	long uid = sc(__NR_geteuid, 0, 0, 0, 0, 0, 0), r;
	long gid = sc(__NR_getegid, 0, 0, 0, 0, 0, 0);
	struct cstatx c;
	unsigned int bits;

	(void)s, (void)pr, (void)y;
	BEGIN(p);
	if (mode & ~7L)
		return -EINVAL;
	if ((r = getx(p, &c)) < 0)
		return r;
	if (!uid)
		return (mode & 1) && !S_ISDIR(c.mode) && !(c.mode & 0111) ?
			       -EACCES : 0;
	bits = (unsigned int)uid == c.uid ? c.mode >> 6 :
	       (unsigned int)gid == c.gid ? c.mode >> 3 : c.mode;
	return (mode & ~bits & 7) ? -EACCES : 0;
}

static long c_mkdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long mode, long y)
{
	(void)s, (void)pr, (void)y;
	BEGIN(p);
	return parent_check(p, F.mkdir(cm, cpath(p->real),
				       mode & 07777 & ~fs_umask_now()));
}

static long c_mknod(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long mode, long y)
{
	(void)s, (void)pr, (void)y;
	BEGIN(p);
	if ((mode & S_IFMT) && (mode & S_IFMT) != S_IFREG)
		return -EPERM;	/* no devices, fifos or sockets here */
	return F.mknod(cm, cpath(p->real),
		       S_IFREG | (mode & 07777 & ~fs_umask_now()), 0);
}

static long c_rmdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	BEGIN(p);
	if (p->dot)
		return p->dot == 1 ? -EINVAL : -ENOTEMPTY;
	if (!hk_strcmp(p->real, fs_prefix))
		return -EBUSY;
	return parent_check(p, F.rmdir(cm, cpath(p->real)));
}

static long c_unlink(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	long r;

	(void)s, (void)pr, (void)x, (void)y;
	BEGIN(p);
	if ((r = slash_check(p, 0)) < 0)
		return r;
	if (p->slash)
		return -EISDIR;	/* "d/" names a directory */
	cache_forget(cpath(p->real));
	return parent_check(p, F.unlink(cm, cpath(p->real)));
}

static long c_rename(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long flags, long y)
{
	struct cstatx x;

	unsigned long n = hk_strlen(p[0].real);
	struct cstatx y2;
	long r;

	(void)s, (void)pr, (void)y;
	/* renameat2's flags the kernel refuses before it looks at a name */
	if ((flags & ~7L) || ((flags & 5) && (flags & 2)))
		return -EINVAL;
	BEGIN(&p[0]);
	if (p[1].err)
		return p[1].err;
	if (p[0].dot || p[1].dot)
		return -EBUSY;
	if ((r = F.statx(cm, cpath(p[0].real), &x, STATX_ALL_,
			 AT_NOFOLLOW_)) < 0)
		return parent_check(&p[0], r);
	r = F.statx(cm, cpath(p[1].real), &y2, STATX_ALL_, AT_NOFOLLOW_);
	/* renameat2's flags as a ceph-fuse mount answers them: the
	 * kernel's checks, then EINVAL from the file system. */
	if (flags)
		return (flags & RENAME_NOREPLACE_) && !r ? -EEXIST :
		       (flags & 2 /* EXCHANGE */) && r == -ENOENT ? -ENOENT :
								     -EINVAL;
	if (!S_ISDIR(x.mode) && (p[0].slash || p[1].slash))
		return -ENOTDIR;
	if (S_ISDIR(x.mode) && !hk_strncmp(p[1].real, p[0].real, n) &&
	    p[1].real[n] == '/')
		return -EINVAL;	/* into itself */
	if (!r && y2.ino == x.ino)
		return 0;	/* the same file: nothing to do */
	if (!r && S_ISDIR(y2.mode) != S_ISDIR(x.mode))
		return S_ISDIR(y2.mode) ? -EISDIR : -ENOTDIR;
	return parent_check(&p[1], F.rename(cm, cpath(p[0].real),
					   cpath(p[1].real)));
}

/*
 * The *xattr calls (setxattr, getxattr, listxattr, removexattr, each as
 * path, l- and f- forms, numbered so on every arch), on path p or open
 * file description oi, through libcephfs's calls of the same names.
 * First the kernel's own checks, which come before the file system:
 * flags, the name's length (ERANGE), the value's (E2BIG; larger
 * buffers are taken as 64 KiB), and user.* only on files and
 * directories (else EPERM to change, ENODATA to read).
 */
#define XATTR_MAX_ 65536
enum { X_SET, X_GET, X_LIST, X_REMOVE };
enum { X_PATH, X_LPATH, X_FD };

static long x_call(struct sysgate_sys *s, int op, int form, long on,
		   const char *name, char *b, long size)
{
	long *a = s->args;

	switch (op) {
	case X_SET:
		return F.xset[form](cm, on, name, b, size, a[4]);
	case X_GET:
		return F.xget[form](cm, on, name, size ? b : 0, size);
	case X_LIST:
		return F.xlist[form](cm, on, size ? b : 0, size);
	default:
		return F.xremove[form](cm, on, name);
	}
}

static long c_xattr(struct sysgate_sys *s, struct fs_path *p,
		    unsigned int oi)
{
	long *a = s->args, k = s->nr - __NR_setxattr, on, r;
	int op = k / 3, form = k % 3, trunc = 0, slot;
	long size = op == X_LIST ? a[2] : op == X_REMOVE ? 0 : a[3];
	unsigned long cap;
	char name[FS_NAME_MAX + 1], path[FS_PATH_MAX], *b;
	struct cstatx x;

	if (op == X_SET && (a[4] & ~3L))
		return -EINVAL;
	if (op != X_LIST) {
		r = fs_read_str(s, name, (void *)a[1], sizeof(name), &trunc);
		if (r < 0)
			return -EFAULT;
		if (trunc || !r)
			return -ERANGE;
	}
	if ((unsigned long)size > XATTR_MAX_) {
		if (op == X_SET)
			return -E2BIG;
		size = XATTR_MAX_;
	}
	if (p)
		BEGIN(p);
	else if (!client())
		return -EIO;
	if (!p && (fs_ofd(oi)->flags & O_PATH))
		return -EBADF;
	/* A directory's descriptor may be no libcephfs descriptor: its
	 * name then (l-form: it is no link). */
	if (!p && fs_is_dir(fs_ino(fs_ofd(oi)->ino))) {
		if ((r = ofd_path(oi, path)) < 0)
			return r;
		form = X_LPATH;
		on = (long)cpath(path);
		r = F.statx(cm, (char *)on, &x, STATX_MODE_, AT_NOFOLLOW_);
	} else if (!p) {
		if ((on = cfd_of(oi)) < 0)
			return on;
		r = F.fstatx(cm, on, &x, STATX_MODE_, 0);
	} else {
		on = (long)cpath(p->real);
		r = F.statx(cm, (char *)on, &x, STATX_MODE_,
			    form == X_LPATH ? AT_NOFOLLOW_ : 0);
	}
	if (r < 0)
		return p ? parent_check(p, r) : r;
	if (op != X_LIST && !hk_strncmp(name, "user.", 5) &&
	    !S_ISREG(x.mode) && !S_ISDIR(x.mode))
		return op == X_GET ? -ENODATA : -EPERM;
	if (!(b = buf_take(XATTR_MAX_, &cap, &slot)))
		return -ENOMEM;
	r = 0;
	if (op == X_SET && size && fs_read_mem(s, b, (void *)a[2], size) < 0)
		r = -EFAULT;
	if (!r)
		r = x_call(s, op, form, on, name, b, size);
	if (r > 0 && size && (op == X_GET || op == X_LIST) &&
	    fs_write_mem(s, (void *)a[op == X_GET ? 2 : 1], b, r) < 0)
		r = -EFAULT;
	buf_give(b, slot);
	return r;
}

static long c_xattr_path(struct sysgate_sys *s, struct proc *pr,
			 struct fs_path *p, long x, long y)
{
	(void)pr, (void)x, (void)y;
	return c_xattr(s, p, 0);
}

static long c_link(struct sysgate_sys *s, struct proc *pr, struct fs_path *p,
		   long x, long y)
{
	(void)s, (void)pr, (void)x, (void)y;
	BEGIN(&p[0]);
	if (p[1].err)
		return p[1].err;
	return F.link(cm, cpath(p[0].real), cpath(p[1].real));
}

static long c_symlink(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long target, long y)
{
	char to[FS_PATH_MAX];
	long n = fs_symlink_target(s, to, FS_PATH_MAX, target);

	(void)pr, (void)y;
	if (n < 0)
		return n;
	BEGIN(p);
	return F.symlink(cm, to, cpath(p->real));
}

static long c_readlink(struct sysgate_sys *s, struct proc *pr,
		       struct fs_path *p, long buf, long size)
{
	char to[FS_PATH_MAX];
	long n;

	(void)pr;
	BEGIN(p);
	if ((int)size <= 0)
		return -EINVAL;
	n = F.readlink(cm, cpath(p->real), to,
		       fs_min((unsigned int)size, FS_PATH_MAX));
	if (n > 0 && fs_write_mem(s, (void *)buf, to, n) < 0)
		return -EFAULT;
	return n;
}

static long setattr(struct fs_path *p, struct cstatx *x, int mask)
{
	return F.setattrx(cm, cpath(p->real), x, mask,
			  p->nofollow ? AT_NOFOLLOW_ : 0);
}

static long c_chmod(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long mode, long y)
{
	struct cstatx x;

	(void)s, (void)pr, (void)y;
	BEGIN(p);
	x.mode = mode & 07777;
	return setattr(p, &x, SET_MODE);
}

static long c_chown(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long uid, long gid)
{
	struct cstatx x;

	(void)s, (void)pr;
	BEGIN(p);
	x.uid = uid;
	x.gid = gid;
	return setattr(p, &x, ((int)uid != -1 ? SET_UID : 0) |
				      ((int)gid != -1 ? SET_GID : 0));
}

static long c_utimens(struct sysgate_sys *s, struct proc *pr,
		      struct fs_path *p, long uts, long y)
{
	const struct fs_ts *ts = (const struct fs_ts *)uts;
	unsigned long long now = sysgate_realtime_ns();
	struct cstatx x;
	int i, mask = 0;

	(void)s, (void)pr, (void)y;
	BEGIN(p);
	for (i = 0; i < 2; i++) {
		long sec = now / 1000000000ULL, nsec = now % 1000000000ULL;

		if (ts && ts[i].nsec == UTIME_OMIT_)
			continue;
		if (ts && ts[i].nsec != UTIME_NOW_) {
			if (ts[i].nsec < 0 || ts[i].nsec > 999999999)
				return -EINVAL;
			sec = ts[i].sec;
			nsec = ts[i].nsec;
		}
		if (i) {
			x.mtime.sec = sec, x.mtime.nsec = nsec;
			mask |= SET_MTIME;
		} else {
			x.atime.sec = sec, x.atime.nsec = nsec;
			mask |= SET_ATIME;
		}
	}
	return mask ? setattr(p, &x, mask) : 0;
}

static long c_truncate(struct sysgate_sys *s, struct proc *pr,
		       struct fs_path *p, long len, long y)
{
	(void)s, (void)pr, (void)y;
	struct cstatx x;
	long r;

	BEGIN(p);
	if ((r = getx(p, &x)) < 0)
		return parent_check(p, r);
	if (S_ISDIR(x.mode))
		return -EISDIR;
	if (len < 0)
		return -EINVAL;
	if ((r = F.truncate(cm, cpath(p->real), len)) >= 0 && fs_shmaps)
		fs_shmap_truncated(x.ino, len);
	return r;
}

static long c_chdir(struct sysgate_sys *s, struct proc *pr,
		    struct fs_path *p, long x, long y)
{
	struct cstatx c;
	long r;

	(void)s, (void)x, (void)y;
	BEGIN(p);
	/* (the type only: a directory's size, its recursive bytes, is a
	 * round trip to the MDS each time; find changes directory twice a
	 * directory) */
	if ((r = getx_want(p, &c, STATX_MODE_)) < 0)
		return r;
	if (!S_ISDIR(c.mode))
		return -ENOTDIR;
	hk_memcpy(pr->scwd, p->real, hk_strlen(p->real) + 1);
	pr->cwd = FS_ROOT;
	return 0;
}

static long c_statfs(struct sysgate_sys *s, struct proc *pr,
		     struct fs_path *p, long x, long y)
{
	(void)pr, (void)y;
	BEGIN(p);
	return put_statfs(s, x, cpath(p->real));
}

/* ---- descriptors ---- */

/*
 * A file's pages for a MAP_SHARED the program may write through (its
 * descriptor open for reading and writing): shmap.c's, read and written
 * back with a libcephfs descriptor of their own, opened again by the
 * name after a fork or an execve that failed, as a descriptor's is.
 */
static long map_fd(struct fs_shfile *f)
{
	if (!client())
		return -EIO;
	if (f->h < 0 || f->hgen != cm_gen) {
		f->h = F.open(cm, cpath(f->path), O_RDWR, 0);
		f->hgen = cm_gen;
	}
	return f->h;
}

static long map_io(struct fs_shfile *f, int write, char *buf,
		   unsigned long len, unsigned long off)
{
	long fd = map_fd(f), done = 0, r;

	while (fd >= 0 && (unsigned long)done < len) {
		unsigned long k = fs_min(len - done, 1UL << 30);

		r = write ? F.write(cm, fd, buf + done, k, off + done) :
			    F.read(cm, fd, buf + done, k, off + done);
		if (r <= 0)
			return done ? done : r;
		done += r;
	}
	return fd < 0 ? fd : done;
}

static long map_size(struct fs_shfile *f)
{
	long fd = map_fd(f), r;
	struct cstatx x;

	if (fd < 0)
		return fd;
	r = F.fstatx(cm, fd, &x, STATX_SIZE_, 0);
	return r < 0 ? r : (long)x.size;
}

static long map_sync(struct fs_shfile *f)
{
	long fd = map_fd(f);

	return fd < 0 ? fd : F.fsync(cm, fd, 0);
}

static void map_close(struct fs_shfile *f)
{
	if (f->h >= 0 && f->hgen == cm_gen && cm)
		F.close(cm, f->h);
	f->h = -1;
}

/* The file's name on this machine (shmap.c's claim): its cluster, as the
 * configuration's path says, and its inode. */
static const char *map_id(char *out, unsigned long ino)
{
	unsigned long h = 14695981039346656037UL;
	const char *c;
	struct fmt f;

	for (c = conf; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211UL;
	fmt_init(&f, out, 64);
	fmt_str(&f, "sysgate-ceph-");
	fmt_hex(&f, h);
	fmt_chr(&f, '-');
	fmt_udec(&f, ino);
	out[f.len < 63 ? f.len : 63] = 0;
	return out;
}

static const struct fs_map_ops map_ops = {
	map_io, map_size, map_sync, map_close,
};

/* The inode number shmap.c knows file fd by (0: none). */
static unsigned long mapped_key(long fd)
{
	struct cstatx x;

	return fs_shmaps && F.fstatx(cm, fd, &x, STATX_INO_,
				     STATX_DONT_SYNC_) >= 0 ? x.ino : 0;
}

static long rw(struct sysgate_sys *s, unsigned int oi, int write, long buf,
	       unsigned long len, long off)
{
	struct fs_ofd *o = fs_ofd(oi);
	unsigned int acc = o->flags & O_ACCMODE;
	long fd = cfd_of(oi), done = 0;
	struct local *l = local_of(oi);
	unsigned long pos = off < 0 ? o->pos : (unsigned long)off, cap, key;
	int append = write && (o->flags & O_APPEND), slot;
	char *b;

	if ((o->flags & O_PATH) || acc == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	if (fs_is_dir(fs_ino(o->ino)))
		return -EISDIR;
	if (fd < 0)
		return fd;
	if ((long)len < 0)
		len = 0x7ffff000;
	if (!write && fs_shmaps && (key = mapped_key(fd)))
		fs_shmap_sync(key);	/* what its mappings changed, first */
	if (!write && ((done = cache_read(local_of(oi), fd, buf, len, pos,
					  &slot)) || slot)) {
		if (done > 0 && off < 0)
			o->pos = pos + done;
		return done;
	}
	if (!(b = buf_take(len, &cap, &slot)))
		return -ENOMEM;
	while ((unsigned long)done < len) {
		unsigned long k = fs_min(len - done, cap);
		long r;

		if (write) {
			if (fs_read_mem(s, b, (char *)buf + done, k) < 0) {
				r = -EFAULT;
			} else {
				cache_write_pre(l, fd, append, k);
				r = F.write(cm, fd, b, k,
					    append ? -1 : (long)(pos + done));
				if (r > 0)
					cache_write_post(l, fd, b, r,
							 pos + done);
				if (r > 0 && fs_shmaps && (key = mapped_key(fd)))
					fs_shmap_written(key, b, r, append ?
						F.lseek(cm, fd, 0, SEEK_CUR_) - r :
						(long)(pos + done));
			}
		} else {
			r = F.read(cm, fd, b, k, pos + done);
			if (r > 0 && fs_write_mem(s, (char *)buf + done,
						       b, r) < 0)
				r = -EFAULT;
		}
		if (r <= 0) {
			if (!done)
				done = r;
			break;
		}
		done += r;
		if ((unsigned long)r < k)
			break;
	}
	buf_give(b, slot);
	if (done > 0 && off < 0)
		o->pos = append ? (unsigned long)F.lseek(cm, fd, 0, SEEK_CUR_) :
				  pos + done;
	return done;
}

static long rwv(struct sysgate_sys *s, unsigned int oi, int write, long uiov,
		long cnt, long off)
{
	struct fs_iov v;
	long done = 0, i;

	if (cnt < 0 || cnt > 1024)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		long r;

		if (fs_read_mem(s, &v, (struct fs_iov *)uiov + i,
				     sizeof(v)) < 0)
			return done ? done : -EFAULT;
		if (!v.len)
			continue;
		r = rw(s, oi, write, v.base, v.len, off < 0 ? -1 : off + done);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((unsigned long)r < v.len)
			break;
	}
	return done;
}

/* de as a struct dirent64 at b + *used, next at off; 0 if it does not
 * fit in count. */
static int dirent_put(char *b, const struct cdirent *de, long off,
		      unsigned long count, unsigned long *used)
{
	unsigned int len = hk_strlen(de->name), rec = (19 + len + 1 + 7) & ~7U;
	struct dirent64 *d = (struct dirent64 *)(b + *used);

	if (*used + rec > count)
		return 0;
	d->ino = de->ino;
	d->off = off;
	d->reclen = rec;
	d->type = de->type;
	hk_memcpy(d->name, de->name, len);
	hk_memset(d->name + len, 0, rec - 19 - len);
	*used += rec;
	return 1;
}

/*
 * The directory's entry at offset 0 ("."), or 1 (".."), made here:
 * libcephfs's readdir, from those offsets, asks the MDS for the
 * directory's and its parent's recursive statistics (a getattr each,
 * whose answer it does not return), two round trips per directory read
 * (202 of the 404 MDS requests of `find` over 100 directories).  The
 * stream is then started at 2 (its offset after ".."); an inode number
 * is known without capabilities.  1, or 0 if the path is gone.
 */
static int dot(const char *path, long which, struct cdirent *de)
{
	char up[FS_PATH_MAX];
	const char *c = cpath(path);
	struct cstatx x;
	long n = hk_strlen(c);

	if (which) {		/* (the root's parent is the root) */
		while (n > 1 && c[n - 1] != '/')
			n--;
		n -= n > 1;
		hk_memcpy(up, c, n);
		up[n] = 0;
		c = up;
	}
	if (F.statx(cm, c, &x, STATX_MODE_ | STATX_INO_, AT_NOFOLLOW_) < 0)
		return 0;
	de->ino = x.ino;
	de->type = 4;		/* DT_DIR */
	de->name[0] = de->name[1] = '.';
	de->name[which + 1] = 0;
	return 1;
}

/* Records of l's entries taken ahead into b (used of count bytes so
 * far) while they fit, the stream's offset moved past them; used. */
static unsigned long dents_give(struct local *l, struct fs_ofd *o, char *b,
				unsigned long count, unsigned long used)
{
	while (l->dat < l->dlen) {
		struct dirent64 *d = (struct dirent64 *)(l->dents + l->dat);

		if (used + d->reclen > count)
			break;
		hk_memcpy(b + used, d, d->reclen);
		used += d->reclen;
		l->dat += d->reclen;
		o->pos = l->dpos = d->off;
	}
	if (l->dat == l->dlen)
		dents_drop(l);
	return used;
}

/*
 * The rest of the n entries at e (from i on) that did not fit in the
 * program's buffer, kept in l for its next getdents64: 0, or -ENOMEM.
 */
static long dents_keep(struct local *l, const struct cdirent *e, long i,
		       long n, long pos)
{
	unsigned long need = 0, used = 0;
	long j;
	char *m;

	for (j = i; j < n; j++)
		need += (19 + hk_strlen(e[j].name) + 1 + 7) & ~7UL;
	need = (need + 4095) & ~4095UL;
	if (!(m = map_rw(need)))
		return -ENOMEM;
	for (j = i; j < n; j++)
		dirent_put(m, &e[j], e[j].off, need, &used);
	l->dents = m;
	l->dmap = need;
	l->dlen = used;
	l->dat = 0;
	l->dpos = pos;
	return 0;
}

/*
 * getdents64 through b, of BOUNCE bytes.  libcephfs is asked for as many
 * entries as a BIG buffer holds, in one call (ceph_getdents): a call that
 * starts in the middle of the entries libcephfs holds from its last MDS
 * readdir (readdir_r, an entry a call) asks the MDS for each
 * subdirectory's recursive statistics first, a round trip each (100 of
 * the 203 MDS requests of `find` over 101 directories); one that takes
 * them all at once asks nothing.  What does not fit in the program's
 * buffer is kept for its next call (l->dents), while the program's
 * offset stays where that left it.
 */
static long getdents_via(struct sysgate_sys *s, unsigned int oi, long ubuf,
			 unsigned long count, char *b)
{
	struct fs_ofd *o = fs_ofd(oi);
	struct local *l = local_of(oi);
	char path[FS_PATH_MAX];
	unsigned long used = 0, cap;
	struct cdirent de, *e;
	long n, i, end, r;
	int slot;

	if (!l || ofd_path(oi, path) < 0)
		return -EBADF;
	if (!fs_is_dir(fs_ino(o->ino)))
		return -ENOTDIR;
	if (!client())
		return -EIO;
	if (!l->dir || l->gen != cm_gen) {
		if ((r = F.opendir(cm, cpath(path), &l->dir)) < 0)
			return r;
		if (l->gen != cm_gen) {
			l->cfd = -1;	/* its parent's client's */
			l->fh = 0;
			l->in = 0;
			l->dents = 0;
		}
		l->gen = cm_gen;
	}
	count = fs_min(count, BOUNCE);
	for (; o->pos < 2; o->pos++) {
		if (!dot(path, o->pos, &de))
			return -EIO;
		if (!dirent_put(b, &de, o->pos + 1, count, &used))
			return used ? (long)used : -EINVAL;
	}
	/* (taken ahead for the offset the program is at, or moved since:
	 * lseek, a process sharing the description) */
	if (l->dents && l->dpos != (long)o->pos)
		dents_drop(l);
	if (l->dents) {
		used = dents_give(l, o, b, count, used);
		if (!used)
			return -EINVAL;
	} else {
		if (F.telldir(cm, l->dir) != (long)o->pos)
			F.seekdir(cm, l->dir, o->pos);
		if (!(e = (struct cdirent *)buf_take(BIG, &cap, &slot)))
			return used ? (long)used : -ENOMEM;
		n = F.getdents(cm, l->dir, (char *)e, cap);
		if (n < 0) {
			buf_give((char *)e, slot);
			return used ? (long)used : n;
		}
		n /= sizeof(*e);
		/* (the last one's next: where the stream is, its end) */
		end = F.telldir(cm, l->dir);
		if (n)
			e[n - 1].off = end;
		else
			o->pos = end;
		for (i = 0; i < n && dirent_put(b, &e[i], e[i].off, count, &used);
		     i++)
			o->pos = e[i].off;
		r = i < n ? dents_keep(l, e, i, n, o->pos) : 0;
		buf_give((char *)e, slot);
		if (!used && n)	/* (no room for one) */
			return r < 0 ? r : -EINVAL;
	}
	if (used && fs_write_mem(s, (void *)ubuf, b, used) < 0)
		return -EFAULT;
	return used;
}

static long c_getdents(struct sysgate_sys *s, unsigned int oi, long ubuf,
		       unsigned long count)
{
	unsigned long cap;
	int slot;
	char *b = buf_take(fs_min(count, BOUNCE), &cap, &slot);
	long r = b ? getdents_via(s, oi, ubuf, count, b) : -ENOMEM;

	buf_give(b, slot);
	return r;
}

/*
 * fcntl record locks, POSIX (owned by the process) and OFD (by the open
 * file description), held in the cluster, so other clients see them.
 * libcephfs takes them on its low-level handle, opened for this.
 */
static long c_lock(struct sysgate_sys *s, unsigned int oi, long cmd,
		   long uptr)
{
	struct fs_ofd *o = fs_ofd(oi);
	struct local *l = local_of(oi);
	char path[FS_PATH_MAX];
	int ofd = cmd >= F_OFD_GETLK;
	unsigned long owner = ofd ? (1UL << 63) | oi : (unsigned long)s->pid;
	struct cstatx x;
	struct flock fl;
	long r, fd = cfd_of(oi);

	if (fd < 0)
		return fd;
	if (fs_read_mem(s, &fl, (void *)uptr, sizeof(fl)) < 0)
		return -EFAULT;
	if ((ofd && fl.l_pid) || (fl.l_type != F_RDLCK &&
				  fl.l_type != F_WRLCK && fl.l_type != F_UNLCK) ||
	    ((cmd == F_GETLK || cmd == F_OFD_GETLK) && fl.l_type == F_UNLCK))
		return -EINVAL;
	if (!l->fh) {
		void *in;

		if (ofd_path(oi, path) < 0)
			return -EBADF;
		r = F.ll_walk(cm, cpath(path), &in, &x, 0, 0,
			      F.mount_perms(cm));
		if (r < 0)
			return r;
		r = F.ll_open(cm, in, o->flags & O_ACCMODE, &l->fh,
			      F.mount_perms(cm));
		F.ll_put(cm, in);	/* (the handle holds the inode) */
		if (r < 0)
			return r;
	}
	/* From SEEK_CUR or SEEK_END to SEEK_SET, as libcephfs wants. */
	if (fl.l_whence == SEEK_CUR_)
		fl.l_start += o->pos;
	else if (fl.l_whence == SEEK_END_) {
		if ((r = F.fstatx(cm, fd, &x, STATX_ALL_, 0)) < 0)
			return r;
		fl.l_start += x.size;
	}
	fl.l_whence = 0;
	if (fl.l_len < 0) {	/* the bytes before l_start */
		fl.l_start += fl.l_len;
		fl.l_len = -fl.l_len;
	}
	if (fl.l_start < 0)
		return -EINVAL;
	if ((fl.l_type == F_RDLCK && (o->flags & O_ACCMODE) == O_WRONLY) ||
	    (fl.l_type == F_WRLCK && (o->flags & O_ACCMODE) == O_RDONLY))
		return cmd == F_GETLK || cmd == F_OFD_GETLK ? 0 : -EBADF;
	if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
		r = F.ll_getlk(cm, l->fh, &fl, owner);
		if (r < 0)
			return r;
		if (ofd)
			fl.l_pid = -1;
		return fs_write_mem(s, (void *)uptr, &fl, sizeof(fl)) < 0 ?
			       -EFAULT : 0;
	}
	r = F.ll_setlk(cm, l->fh, &fl, owner,
		       cmd == F_SETLKW || cmd == F_OFD_SETLKW);
	return r == -EWOULDBLOCK ? -EAGAIN : r;
}

/*
 * MAP_PRIVATE, and MAP_SHARED on a descriptor not open for writing (no
 * write through it can exist: the kernel refuses PROT_WRITE, also from
 * mprotect), are a copy of the file's bytes at the time of the call.
 * A MAP_SHARED on one open for reading and writing is shmap.c's.
 */
static long c_mmap(struct sysgate_sys *s, unsigned int oi)
{
	long *a = s->args, base, fd, r, type = a[3] & MAP_TYPE;
	unsigned long len = a[1], done = 0;
	unsigned int acc = fs_ofd(oi)->flags & O_ACCMODE;

	if (acc == O_WRONLY)
		return -EACCES;
	if (type == MAP_SHARED || type == MAP_SHARED_VALIDATE) {
		if ((a[2] & PROT_WRITE) && acc != O_RDWR)
			return -EACCES;
	} else if (type != MAP_PRIVATE) {
		return -EINVAL;
	}
	fd = cfd_of(oi);
	if (fd < 0)
		return fd;
	if (type != MAP_PRIVATE && acc == O_RDWR) {
		char path[FS_PATH_MAX], mid[64];
		struct cstatx x;

		if ((r = F.fstatx(cm, fd, &x, STATX_INO_, STATX_DONT_SYNC_)) < 0 ||
		    (r = ofd_path(oi, path)) < 0)
			return r;
		return fs_shmap_mmap(s, x.ino, path, map_id(mid, x.ino),
				     &map_ops);
	}
	base = sc(__NR_mmap, a[0], len, PROT_READ | PROT_WRITE,
		  (a[3] & ~MAP_TYPE) | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(base))
		return base;
	while (done < len) {
		r = F.read(cm, fd, (char *)base + done,
			   fs_min(len - done, 1UL << 30), a[5] + done);
		if (r <= 0)
			break;
		done += r;
	}
	if (!(a[2] & PROT_WRITE))
		sc(__NR_mprotect, base, len, a[2], 0, 0, 0);
	return base;
}

static long c_fd_call(struct sysgate_sys *s, struct proc *pr,
		      unsigned int oi)
{
	struct fs_ofd *o = fs_ofd(oi);
	struct local *l = local_of(oi);
	long *a = s->args, nr = s->nr, fd, r;
	char path[FS_PATH_MAX];
	struct local gone;
	struct cstatx x;
	int last = 0;

	if (!l || ofd_path(oi, path) < 0)
		return -EBADF;
	switch (nr) {
	case __NR_read: return rw(s, oi, 0, a[1], a[2], -1);
	case __NR_write: return rw(s, oi, 1, a[1], a[2], -1);
	case __NR_pread64:
	case __NR_pwrite64:
		return a[3] < 0 ? -EINVAL :
				  rw(s, oi, nr == __NR_pwrite64, a[1], a[2], a[3]);
	case __NR_readv: return rwv(s, oi, 0, a[1], a[2], -1);
	case __NR_writev: return rwv(s, oi, 1, a[1], a[2], -1);
	case __NR_preadv:
	case __NR_preadv2:
	case __NR_pwritev:
	case __NR_pwritev2:
		return rwv(s, oi, nr == __NR_pwritev || nr == __NR_pwritev2,
			   a[1], a[2], a[3]);
	case __NR_fcntl:
		if ((a[1] >= F_GETLK && a[1] <= F_SETLKW) ||
		    (a[1] >= F_OFD_GETLK && a[1] <= F_OFD_SETLKW))
			return c_lock(s, oi, a[1], a[2]);
		break;
	case __NR_close:
	case __NR_dup:
		break;
	case __NR_getdents64: return c_getdents(s, oi, a[1], a[2]);
	case __NR_fchdir:
		if (!client() || (r = F.statx(cm, cpath(path), &x, STATX_MODE_,
					      0)) < 0)
			return client() ? r : -EIO;
		if (!S_ISDIR(x.mode))
			return -ENOTDIR;
		hk_memcpy(pr->scwd, path, hk_strlen(path) + 1);
		pr->cwd = FS_ROOT;
		return 0;
	case __NR_fstatfs:
		return client() ? put_statfs(s, a[1], cpath(path)) : -EIO;
	case __NR_mmap: return c_mmap(s, oi);
	case __NR_fsetxattr:
	case __NR_fgetxattr:
	case __NR_flistxattr:
	case __NR_fremovexattr:
		return c_xattr(s, 0, oi);
	case __NR_ioctl:
	case __NR_fadvise64:
	case __NR_readahead:
	case __NR_sync_file_range:
		return fs_fd_unserved(nr);
	case __NR_fstat:
		if (l->in && l->gen == cm_gen && cm) {
			r = fstat_of(l, -1, &x, STATX_ALL_);
			return r < 0 ? r : put_stat(s, a[1], &x);
		}
		/* fall through */
	default:
		if ((fd = cfd_of(oi)) < 0)
			return fd == -EISDIR ? -EOPNOTSUPP : fd;
		switch (nr) {
		case __NR_fstat:
			r = fstat_of(l, fd, &x, STATX_ALL_);
			return r < 0 ? r : put_stat(s, a[1], &x);
		case __NR_lseek:
			if (a[2] == SEEK_CUR_ || a[2] == 0) {
				long at = (a[2] ? (long)o->pos : 0) + a[1];

				if (at < 0)
					return -EINVAL;
				return o->pos = at;
			}
			if (a[2] == SEEK_END_) {
				r = F.fstatx(cm, fd, &x, STATX_ALL_, 0);
				if (r < 0)
					return r;
				if ((long)x.size + a[1] < 0)
					return -EINVAL;
				return o->pos = x.size + a[1];
			}
			r = F.lseek(cm, fd, a[1], a[2]);
			return r < 0 ? r : (long)(o->pos = r);
		case __NR_ftruncate:
			if ((o->flags & O_ACCMODE) == O_RDONLY)
				return -EINVAL;
			if (a[1] < 0)
				return -EINVAL;
			if ((r = F.ftruncate(cm, fd, a[1])) >= 0 &&
			    (x.ino = mapped_key(fd)))
				fs_shmap_truncated(x.ino, a[1]);
			return r;
		case __NR_fsync:
		case __NR_fdatasync:
		case __NR_syncfs:
			/* (the kernel's writes the page cache, which holds
			 * what mappings changed) */
			if (fs_shmaps && (x.ino = mapped_key(fd)))
				fs_shmap_sync(x.ino);
			return F.fsync(cm, fd, nr == __NR_fdatasync);
		case __NR_fchmod:
			x.mode = a[1] & 07777;
			return F.fsetattrx(cm, fd, &x, SET_MODE);
		case __NR_fchown:
			x.uid = a[1];
			x.gid = a[2];
			return F.fsetattrx(cm, fd, &x,
					   ((int)a[1] != -1 ? SET_UID : 0) |
					   ((int)a[2] != -1 ? SET_GID : 0));
		case __NR_flock:
			return F.flock(cm, fd, a[1], oi);
		default:
			return fs_fd_unserved(nr);
		}
	}
	/* Calls on the table itself: the front's, under the arena's lock. */
	fs_lock(s->tid);
	if (nr == __NR_close) {
		/* POSIX locks go with any close of the file by the process */
		if (l->fh && l->gen == cm_gen && cm) {
			struct flock fl = { .l_type = F_UNLCK };

			F.ll_setlk(cm, l->fh, &fl, s->pid, 0);
		}
		fs_drop(pr, a[0]);
		r = sc(__NR_close, a[0], 0, 0, 0, 0, 0);
		for (fd = 0; fd < pr->maxfd && pr->ofd[fd] != oi; fd++)
			;
		last = fd == pr->maxfd;
		/* Its index may be another thread's new open file once the
		 * lock goes: this one's handles leave it first, released
		 * below (they closed that thread's file, which then failed
		 * with EBADF). */
		if (last) {
			gone = *l;
			l->cfd = -1;
			l->dir = 0;
			l->fh = 0;
			l->in = 0;
			l->dents = 0;
			l->dlen = l->dat = 0;
			l->cst = CACHE_UNKNOWN;
			l->ino = 0;
		}
	} else if (nr == __NR_dup) {
		r = fs_dup(pr, nr, a);
	} else {
		r = fs_fcntl(s, pr, o);
	}
	fs_unlock();
	/* The process's last descriptor of it: the file is closed on the
	 * cluster too, as a kernel mount's would be (its flock locks and the
	 * capabilities other clients wait for go, written data is flushed),
	 * not when its index is next reused. */
	if (last)
		local_release(&gone);
	return r;
}

static long exec_read(void *ctx, void *buf, unsigned long len,
		      unsigned long off)
{
	long fd = (long)ctx, done = 0, r;

	while ((unsigned long)done < len) {
		r = F.read(cm, fd, (char *)buf + done,
			   fs_min(len - done, 1UL << 30), off + done);
		if (r < 0)
			return r;
		if (!r)
			break;
		done += r;
	}
	return done;
}

/* execve of a program on CephFS: its bytes copied into a memfd
 * (exec.c); 0: run s as changed, 1: run its interpreter, or -errno. */
long fs_ceph_exec(struct sysgate_sys *s, struct fs_path *p)
{
	struct fs_exec_src src = { exec_read, 0, 0 };
	struct cstatx x;
	long r, fd, uid;

	BEGIN(p);
	if ((r = getx(p, &x)) < 0)
		return parent_check(p, r);
	uid = sc(__NR_geteuid, 0, 0, 0, 0, 0, 0);
	if (!S_ISREG(x.mode) || !(x.mode & 0111) ||
	    (uid && !((unsigned int)uid == x.uid ? x.mode & 0100 :
		      x.mode & 0011)))
		return -EACCES;
	fd = F.open(cm, cpath(p->real), O_RDONLY, 0);
	if (fd < 0)
		return fd;
	src.ctx = (void *)fd;
	src.size = x.size;
	r = fs_exec_prepare_src(s, &src, p->real);
	F.close(cm, fd);
	return r;
}

/* F from dl, libcephfs loaded; 0 or -1 if a function is missing. */
static int take_functions(void *dl)
{
	__typeof__(F) t;
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *f = dlsym(dl, names[i]);

		if (!f)
			return -1;
		hk_memcpy((void **)&t + i, &f, sizeof(f));
	}
	hk_memcpy(&F, &t, sizeof(t));
	return 0;
}

/* libcephfs, found and checked; 0 or a line saying why not. */
static const char *load(void)
{
	void *dl;

	if (!dlopen || !dlsym)
		return "--fs ceph: needs the program's dynamic loader "
		       "(a dynamically linked program, without --loader or "
		       "-m seccomp)";
	dl = dlopen("libcephfs.so.2", RTLD_NOW_);
	if (!dl)
		return "--fs ceph: cannot load libcephfs.so.2 (Debian: "
		       "apt-get install libcephfs2)";
	if (take_functions(dl))
		return "--fs ceph: libcephfs.so.2 lacks a function";
	/* The program's libc's, which libcephfs uses too. */
	if (!(*(void **)&thread_create = dlsym(dl, "pthread_create")) ||
	    !(*(void **)&thread_join = dlsym(dl, "pthread_join")))
		return "--fs ceph: no pthread_create beside libcephfs.so.2";
	return 0;
}

/*
 * libcephfs 16 keeps one pool of threads per process for the completions
 * of its asynchronous calls (statfs's reply among them), found through a
 * static pointer that its first client sets and every later client
 * shares.  A forked child has that pointer, but not the pool's threads:
 * its own client's statfs would wait for ever.  So it loads libcephfs
 * again, into a namespace of its own (dlmopen), whose statics are new;
 * where that fails (the loader's namespaces are few: a deep line of
 * forks), the one it has, statfs excepted, still serves.
 */
static void fresh_library(void)
{
	void *dl = dlmopen ? dlmopen(LM_ID_NEWLM_, "libcephfs.so.2",
				     RTLD_NOW_) : 0;
	void *ci = dl ? dlsym(dl, "__ctype_init") : 0;

	if (ci && !take_functions(dl)) {
		*(void **)&ctype_init = ci;
		cm_copied = 0;
	}
}

/* Does the cluster answer?  Asked from a child at start-up, so that no
 * client thread is left in the program before the mechanism starts. */
static long probe(void)
{
	long pid = sc(__NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0, 0);
	int status = 0;

	if (pid < 0)
		return pid;
	if (!pid) {
		struct cm *c;
		long r = make_client(&c);

		if (!r)
			unmount(c);
		sc(__NR_exit_group, -r, 0, 0, 0, 0, 0);
	}
	if (sc(__NR_wait4, pid, (long)&status, 0, 0, 0, 0) < 0)
		return -ECHILD;
	if ((status & 0x7f) != 0)
		return -EIO;
	return -((status >> 8) & 0xff);
}

static int field(const char **v, const char *end, char *out, unsigned long n)
{
	const char *c = *v;
	unsigned long k = 0;

	while (c < end && *c != ':') {
		if (k + 1 >= n)
			return -1;
		out[k++] = *c++;
	}
	out[k] = 0;
	*v = c < end ? c + 1 : c;
	return 0;
}

/*
 * Whether CACHE may hold what later reads trust: an absolute path to a
 * directory (not a symbolic link) of this user's own that no one else
 * can write, since whoever can put a file there chooses what a program
 * reads.  Else why says so.
 */
static int cache_dir_own(char *why, unsigned long size)
{
	struct stat st;
	const char *bad = 0;

	if (cache_dir[0] != '/')
		bad = "--fs ceph: CACHE must be an absolute path";
	else if (sc(__NR_newfstatat, AT_FDCWD, (long)cache_dir, (long)&st,
		    AT_SYMLINK_NOFOLLOW, 0, 0) < 0 || !S_ISDIR(st.st_mode))
		bad = "--fs ceph: CACHE must be an existing directory (not a symbolic link)";
	else if (st.st_uid != (unsigned long)sc(__NR_geteuid, 0, 0, 0, 0, 0, 0))
		bad = "--fs ceph: CACHE must be owned by the user sysgate runs as";
	else if (st.st_mode & 022)
		bad = "--fs ceph: CACHE must not be writable by group or others";
	else if (sc(__NR_faccessat, AT_FDCWD, (long)cache_dir, 3, 0, 0, 0) < 0)
		bad = "--fs ceph: CACHE must be a directory the program can write";
	if (bad)
		hk_memcpy(why, bad, hk_strlen(bad) + 1 < size ?
			  hk_strlen(bad) + 1 : size);
	return !bad;
}

const char *fs_ceph_setup(const char *spec, unsigned long len, int check,
			  int carried)
{
	static char why[160];
	const char *end = spec + len, *e;
	struct fmt f;
	long r;

	if (field(&spec, end, conf, sizeof(conf)) || !conf[0] ||
	    field(&spec, end, subdir, sizeof(subdir)) ||
	    field(&spec, end, id, sizeof(id)) ||
	    field(&spec, end, timeout, sizeof(timeout)) ||
	    field(&spec, end, cache_dir, sizeof(cache_dir)))
		return "--fs: expected /PREFIX:ceph:CONF[:SUBDIR[:ID[:TIMEOUT[:CACHE]]]]";
	if (cache_dir[0] && (why[0] = 0, !cache_dir_own(why, sizeof(why))))
		return why;
	if (!timeout[0])
		hk_memcpy(timeout, "10", 3);
	for (e = timeout; *e; e++)
		if (*e < '0' || *e > '9')
			return "--fs ceph: TIMEOUT must be a number of seconds";
	subdir_len = hk_strlen(subdir);
	if (subdir_len && subdir[0] != '/')
		return "--fs ceph: SUBDIR must be an absolute path in CephFS";
	if (sc(__NR_faccessat, AT_FDCWD, (long)conf, 4, 0, 0, 0) < 0)
		return "--fs ceph: cannot read CONF";
	if (check)
		return 0;
	if ((e = load()))
		return e;
	r = sc(__NR_mmap, 0, 65536 * sizeof(*loc), PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (sysgate_is_error(r))
		return "fs: out of memory";
	loc = (struct local *)r;
	nloc = 65536;

	if (carried || !(r = probe()))
		return 0;
	fmt_init(&f, why, sizeof(why));
	fmt_str(&f, "--fs ceph: cannot mount CephFS with ");
	fmt_str(&f, conf);
	fmt_str(&f, ": ");
	fmt_str(&f, r == -ETIMEDOUT || r == -110 ? "timed out after " :
		    sysgate_strerror(-r));
	if (r == -ETIMEDOUT || r == -110) {
		fmt_str(&f, timeout);
		fmt_str(&f, " s");
	}
	why[f.len < sizeof(why) ? f.len : sizeof(why) - 1] = 0;
	return why;
}

void fs_ceph_end(void)
{
	/* Only this process's: a vfork child ending must leave its
	 * parent's alone (the session would stay open, the parent making
	 * another). */
	fs_shmap_end();	/* (its own client's work, before the unmount) */
	if (cm && cm_pid == sc(__NR_getpid, 0, 0, 0, 0, 0, 0)) {
		unmount(cm);
		cm = 0;
	}
}

void fs_ceph_vfork_back(void)
{
	if (parent.pid && parent.pid == sc(__NR_getpid, 0, 0, 0, 0, 0, 0)) {
		cm = parent.cm;
		cm_pid = parent.pid;
		cm_gen = parent.gen;
		cm_copied = parent.copied;
	}
	parent.pid = 0;
}

const struct fs_store fs_ceph_store = {
	.name = "ceph",
	.ops = {
		[FS_OP_OPEN] = c_open, [FS_OP_STAT] = c_stat,
		[FS_OP_STATX] = c_statx, [FS_OP_ACCESS] = c_access,
		[FS_OP_MKDIR] = c_mkdir, [FS_OP_MKNOD] = c_mknod,
		[FS_OP_RMDIR] = c_rmdir, [FS_OP_UNLINK] = c_unlink,
		[FS_OP_RENAME] = c_rename, [FS_OP_LINK] = c_link,
		[FS_OP_SYMLINK] = c_symlink, [FS_OP_READLINK] = c_readlink,
		[FS_OP_CHMOD] = c_chmod, [FS_OP_CHOWN] = c_chown,
		[FS_OP_UTIMENS] = c_utimens, [FS_OP_TRUNCATE] = c_truncate,
		[FS_OP_CHDIR] = c_chdir, [FS_OP_STATFS] = c_statfs,
		[FS_OP_XATTR] = c_xattr_path,
	},
	.fd_call = c_fd_call,
	.resolve = c_resolve,
	.arena_locked = 0,
};
