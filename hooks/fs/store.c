/* SPDX-License-Identifier: MIT */
/*
 * The arena (see fs.h): creation or reload, the lock, and the objects in
 * it: inodes, names, open file descriptions and data blocks.  Every
 * function except the lock's expects the lock held.  Runs inside system
 * calls: raw syscalls only, no libc.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/futex.h>
#include <linux/mman.h>
#include <linux/time_types.h>
#include "fs.h"
#include "../lib/fmt.h"

#define DEFAULT_BLOCKS (1UL << 20)	/* 4 GiB of data, sparse */
#define NINODES (1U << 17)
#define NDENTS (1U << 17)
#define NOFDS 65535U			/* fd tables hold 16-bit indices */
#define NHASH (1U << 17)
#define NEPIS (1U << 14)		/* epoll entries of ours, tree-wide */
#define NEPSETS (1U << 10)		/* epoll instances holding them */
#define NLKS (1U << 14)			/* advisory locks, tree-wide */
#define NHOLDS (1U << 17)		/* (process, ofd) reference counts */
#define NHHASH (1U << 16)
#define RESERVE_STEP 256UL		/* blocks fallocated at a time */
#define LOCK_EX_NB 6
#define LOCK_SH_ 1
#define IMAGE "/sysgate-fs.img"

struct fs_arena fs_ar;
const char *fs_image_why;

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

static unsigned long align(unsigned long v)
{
	return (v + FS_BLOCK - 1) & ~(FS_BLOCK - 1);
}

/* ---- the lock ---- */

void fs_lock(int tid)
{
	unsigned int *w = &fs_ar.sb->lock;
	int spins = 0;

	for (;;) {
		unsigned int v = 0;
		struct __kernel_timespec ts = { 0, 20 * 1000 * 1000 };
		long r;

		if (__atomic_compare_exchange_n(w, &v, (unsigned int)tid, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (++spins < 64) {
			__asm__ volatile("" ::: "memory");
			continue;
		}
		__atomic_add_fetch(&fs_ar.sb->waiters, 1, __ATOMIC_RELAXED);
		r = sc(__NR_futex, (long)w, FUTEX_WAIT, v, (long)&ts, 0, 0);
		__atomic_sub_fetch(&fs_ar.sb->waiters, 1, __ATOMIC_RELAXED);
		/* A holder killed inside a call never unlocks: take over. */
		if (r == -ETIMEDOUT && sc(__NR_kill, v, 0, 0, 0, 0, 0) == -ESRCH)
			__atomic_compare_exchange_n(w, &v, 0, 0,
						    __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED);
	}
}

void fs_unlock(void)
{
	__atomic_store_n(&fs_ar.sb->lock, 0, __ATOMIC_RELEASE);
	if (__atomic_load_n(&fs_ar.sb->waiters, __ATOMIC_RELAXED))
		sc(__NR_futex, (long)&fs_ar.sb->lock, FUTEX_WAKE, 1, 0, 0, 0);
}

/* ---- time ---- */

void fs_touch(struct fs_inode *n, int what)
{
	unsigned long long t = sysgate_realtime_ns();
	long s = t / 1000000000ULL, ns = t % 1000000000ULL;

	if (what & FS_A)
		n->atime[0] = s, n->atime[1] = ns;
	if (what & FS_M)
		n->mtime[0] = s, n->mtime[1] = ns;
	if (what & FS_C)
		n->ctime[0] = s, n->ctime[1] = ns;
}

/* ---- blocks ---- */

static unsigned int block_new(struct fs_inode *n, int *err)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned long b;

	if ((sb->limit && sb->used >= sb->limit)) {
		*err = -ENOSPC;
		return 0;
	}
	if (sb->block_free) {
		b = sb->block_free;
		sb->block_free = *(unsigned int *)fs_block(b);
	} else {
		if (sb->block_next >= sb->nblocks) {
			*err = -ENOSPC;
			return 0;
		}
		/* Reserve real memory or disk first: a store to a page the
		 * file system cannot supply would be SIGBUS, not ENOSPC. */
		if (sb->block_next >= sb->reserved) {
			unsigned long step = fs_min(RESERVE_STEP,
						    sb->nblocks - sb->reserved);

			if (sc(__NR_fallocate, fs_ar.fd, 0,
			       sb->off_blocks + sb->reserved * FS_BLOCK,
			       step * FS_BLOCK, 0, 0) < 0) {
				*err = -ENOSPC;
				return 0;
			}
			sb->reserved += step;
		}
		b = sb->block_next++;
	}
	sb->used++;
	n->nblocks++;
	hk_memset(fs_block(b), 0, FS_BLOCK);
	return b;
}

static void block_free(struct fs_inode *n, unsigned int b)
{
	struct fs_super *sb = fs_ar.sb;

	*(unsigned int *)fs_block(b) = sb->block_free;
	sb->block_free = b;
	sb->used--;
	n->nblocks--;
}

/* The slot holding block idx of a file, allocating map blocks if asked. */
static unsigned int *slot(struct fs_inode *n, unsigned long idx, int alloc,
			  int *err)
{
	unsigned int *l1;

	if (idx < FS_NDIRECT)
		return &n->blk[idx];
	idx -= FS_NDIRECT;
	if (idx < FS_PER_BLOCK) {
		if (!n->ind && (!alloc || !(n->ind = block_new(n, err))))
			return 0;
		return (unsigned int *)fs_block(n->ind) + idx;
	}
	idx -= FS_PER_BLOCK;
	if (idx >= FS_PER_BLOCK * FS_PER_BLOCK) {
		*err = -EFBIG;
		return 0;
	}
	if (!n->dind && (!alloc || !(n->dind = block_new(n, err))))
		return 0;
	l1 = (unsigned int *)fs_block(n->dind) + idx / FS_PER_BLOCK;
	if (!*l1 && (!alloc || !(*l1 = block_new(n, err))))
		return 0;
	return (unsigned int *)fs_block(*l1) + idx % FS_PER_BLOCK;
}

static unsigned int bmap(struct fs_inode *n, unsigned long idx, int alloc,
			 int *err)
{
	unsigned int *s = slot(n, idx, alloc, err);

	if (!s)
		return 0;
	if (!*s && alloc)
		*s = block_new(n, err);
	return *s;
}

#define MAX_FILE ((FS_NDIRECT + FS_PER_BLOCK + FS_PER_BLOCK * FS_PER_BLOCK) * \
		  FS_BLOCK)

long fs_read(const struct sysgate_sys *s, unsigned int ino, void *dst,
	     unsigned long len, unsigned long off)
{
	static const char zeros[FS_BLOCK];
	struct fs_inode *n = fs_ino(ino);
	unsigned long done = 0;
	int err = 0;

	if (off >= n->size)
		return 0;
	len = fs_min(len, n->size - off);
	while (done < len) {
		unsigned long p = off + done, o = p % FS_BLOCK;
		unsigned long c = fs_min(FS_BLOCK - o, len - done);
		unsigned int b = bmap(n, p / FS_BLOCK, 0, &err);
		const char *from = b ? fs_block(b) + o : zeros;
		long r = c;

		if (s)
			r = fs_write_mem(s, (char *)dst + done, from, c);
		else
			hk_memcpy((char *)dst + done, from, c);

		if (r < 0)
			return done ? (long)done : r;
		done += c;
	}
	return done;
}

long fs_write(const struct sysgate_sys *s, unsigned int ino, const void *src,
	      unsigned long len, unsigned long off)
{
	struct fs_inode *n = fs_ino(ino);
	unsigned long done = 0;
	int err = 0;

	if (off >= MAX_FILE)
		return -EFBIG;
	len = fs_min(len, MAX_FILE - off);
	while (done < len) {
		unsigned long p = off + done, o = p % FS_BLOCK;
		unsigned long c = fs_min(FS_BLOCK - o, len - done);
		unsigned int b = bmap(n, p / FS_BLOCK, 1, &err);
		long r;

		if (!b) {
			if (!done)
				return err ? err : -ENOSPC;
			break;
		}
		r = c;
		if (s)
			r = fs_read_mem(s, fs_block(b) + o,
					     (const char *)src + done, c);
		else
			hk_memcpy(fs_block(b) + o, (const char *)src + done, c);
		if (r < 0) {
			if (!done)
				return r;
			break;
		}
		done += c;
		if (off + done > n->size)
			n->size = off + done;
	}
	return done;
}

int fs_truncate(unsigned int ino, unsigned long size)
{
	struct fs_inode *n = fs_ino(ino);
	unsigned long keep = (size + FS_BLOCK - 1) / FS_BLOCK;
	unsigned long old = (n->size + FS_BLOCK - 1) / FS_BLOCK, i;
	int err = 0;

	if (size > MAX_FILE)
		return -EFBIG;
	if (size < n->size && size % FS_BLOCK) {
		/* Bytes past the end read as zero if the file grows again. */
		unsigned int b = bmap(n, size / FS_BLOCK, 0, &err);

		if (b)
			hk_memset(fs_block(b) + size % FS_BLOCK, 0,
				  FS_BLOCK - size % FS_BLOCK);
	}
	for (i = keep; i < old; i++) {
		unsigned int *s = slot(n, i, 0, &err);

		if (!s || !*s)
			continue;
		if (n->mapped) {
			/* A mapping may still use it: zero, keep. */
			hk_memset(fs_block(*s), 0, FS_BLOCK);
			continue;
		}
		block_free(n, *s);
		*s = 0;
	}
	if (!n->mapped) {
		if (n->dind) {
			unsigned int *l1 = (unsigned int *)fs_block(n->dind);

			for (i = 0; i < FS_PER_BLOCK; i++)
				if (l1[i] && keep <= FS_NDIRECT + FS_PER_BLOCK +
							     i * FS_PER_BLOCK) {
					block_free(n, l1[i]);
					l1[i] = 0;
				}
			if (keep <= FS_NDIRECT + FS_PER_BLOCK) {
				block_free(n, n->dind);
				n->dind = 0;
			}
		}
		if (n->ind && keep <= FS_NDIRECT) {
			block_free(n, n->ind);
			n->ind = 0;
		}
	}
	n->size = size;
	return 0;
}

long fs_block_offsets(unsigned int ino, unsigned long first,
		      unsigned long npages, unsigned long *offs)
{
	struct fs_inode *n = fs_ino(ino);
	unsigned long i;
	int err = 0;

	for (i = 0; i < npages; i++) {
		unsigned int b = bmap(n, first + i, 1, &err);

		if (!b)
			return err ? err : -ENOSPC;
		offs[i] = fs_ar.sb->off_blocks + (unsigned long)b * FS_BLOCK;
	}
	return npages;
}

/* ---- tables ---- */

unsigned int fs_take(unsigned int *free, unsigned int *next,
			 unsigned int max, unsigned int *(*link)(unsigned int))
{
	unsigned int i = *free;

	if (i)
		*free = *link(i);
	else if (*next < max)
		i = (*next)++;
	return i;
}

static unsigned int *inode_link(unsigned int i)
{
	return &fs_ino(i)->parent;
}

static unsigned int *dent_link(unsigned int i)
{
	return &fs_dent(i)->hnext;
}

static unsigned int *ofd_link(unsigned int i)
{
	return &fs_ofd(i)->next_free;
}

/* ---- inodes ---- */

int fs_inode_new(unsigned int mode, unsigned int uid, unsigned int gid)
{
	struct fs_super *sb = fs_ar.sb;
	struct fs_inode *n;
	unsigned int i;

	i = fs_take(&sb->inode_free, &sb->inode_next, sb->ninodes, inode_link);
	if (!i)
		return -ENOSPC;
	n = fs_ino(i);
	hk_memset(n, 0, sizeof(*n));
	n->mode = mode;
	n->uid = uid;
	n->gid = gid;
	fs_touch(n, FS_A | FS_M | FS_C);
	n->btime[0] = n->mtime[0];
	n->btime[1] = n->mtime[1];
	return i;
}

void fs_inode_put(unsigned int ino)
{
	struct fs_inode *n = fs_ino(ino);

	if (n->nlink || n->opens || ino == FS_ROOT)
		return;
	n->mapped = 0;	/* unreachable now; mappings keep their pages */
	fs_truncate(ino, 0);
	n->mode = 0;
	n->parent = fs_ar.sb->inode_free;
	fs_ar.sb->inode_free = ino;
}

/* ---- names ---- */

static unsigned int *bucket(unsigned int dir, const char *name,
			    unsigned int len)
{
	unsigned int h = 2166136261u ^ dir * 2654435761u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return (unsigned int *)(fs_ar.base + fs_ar.sb->off_hash) +
	       h % fs_ar.sb->nhash;
}

static int same(const struct fs_dent *d, unsigned int dir, const char *name,
		unsigned int len)
{
	return d->dir == dir && d->namelen == len &&
	       !hk_strncmp(d->name, name, len);
}

unsigned int fs_name_of(unsigned int ino)
{
	unsigned int i;

	for (i = 1; fs_ino(ino)->nlink && i < fs_ar.sb->dent_next; i++)
		if (fs_dent(i)->ino == ino)
			return i;
	return 0;
}

unsigned int fs_lookup(unsigned int dir, const char *name, unsigned int len)
{
	unsigned int i;

	for (i = *bucket(dir, name, len); i; i = fs_dent(i)->hnext)
		if (same(fs_dent(i), dir, name, len))
			return fs_dent(i)->ino;
	return 0;
}

int fs_link(unsigned int dir, const char *name, unsigned int len,
	    unsigned int ino)
{
	struct fs_super *sb = fs_ar.sb;
	struct fs_inode *d = fs_ino(dir), *n = fs_ino(ino);
	unsigned int *h = bucket(dir, name, len), i;
	struct fs_dent *e;

	i = fs_take(&sb->dent_free, &sb->dent_next, sb->ndents, dent_link);
	if (!i)
		return -ENOSPC;
	e = fs_dent(i);
	e->ino = ino;
	e->dir = dir;
	e->namelen = len;
	hk_memcpy(e->name, name, len);
	e->name[len] = 0;
	e->seq = ++d->next_seq;
	e->hnext = *h;
	*h = i;
	e->next = 0;
	e->prev = d->tail;
	if (d->tail)
		fs_dent(d->tail)->next = i;
	else
		d->head = i;
	d->tail = i;
	d->nent++;
	if (fs_is_dir(n)) {
		n->parent = dir;
		n->dent = i;
	}
	return 0;
}

void fs_unlink_name(unsigned int dir, const char *name, unsigned int len)
{
	struct fs_inode *d = fs_ino(dir);
	unsigned int *p = bucket(dir, name, len), i;
	struct fs_dent *e;

	for (i = *p; i; p = &fs_dent(i)->hnext, i = *p)
		if (same(fs_dent(i), dir, name, len))
			break;
	if (!i)
		return;
	e = fs_dent(i);
	*p = e->hnext;
	if (e->prev)
		fs_dent(e->prev)->next = e->next;
	else
		d->head = e->next;
	if (e->next)
		fs_dent(e->next)->prev = e->prev;
	else
		d->tail = e->prev;
	d->nent--;
	e->ino = 0;
	e->hnext = fs_ar.sb->dent_free;
	fs_ar.sb->dent_free = i;
}

/* ---- open file descriptions ---- */

int fs_ofd_new(unsigned int ino, unsigned int flags)
{
	struct fs_super *sb = fs_ar.sb;
	struct fs_ofd *o;
	unsigned int i;

	i = fs_take(&sb->ofd_free, &sb->ofd_next, sb->nofds, ofd_link);
	if (!i)
		return -ENFILE;
	o = fs_ofd(i);
	o->ino = ino;
	o->refs = 1;
	o->flags = flags;
	o->epis = 0;
	o->pos = 0;
	fs_ino(ino)->opens++;
	return i;
}

void fs_ofd_put(unsigned int i)
{
	struct fs_ofd *o = fs_ofd(i);
	unsigned int ino = o->ino;

	if (!ino || --o->refs)
		return;
	if (o->epis)
		fs_epoll_forget(i);
	if (fs_ino(ino)->locks)
		fs_locks_ofd_gone(i);
	o->ino = 0;
	o->next_free = fs_ar.sb->ofd_free;
	fs_ar.sb->ofd_free = i;
	fs_ino(ino)->opens--;
	fs_inode_put(ino);
}

/* ---- the arena ---- */

static int map(int fd, unsigned long size)
{
	long p = sc(__NR_mmap, 0, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);

	if (sysgate_is_error(p))
		return p;
	fs_ar.base = (char *)p;
	fs_ar.sb = (struct fs_super *)p;
	fs_ar.fd = fd;
	return 0;
}

/* Room for n entries of size bytes at *off, which moves past them. */
static unsigned long table(unsigned long *off, unsigned long n,
			   unsigned long size)
{
	unsigned long at = *off;

	*off = align(at + n * size);
	return at;
}

static void layout(struct fs_super *sb, unsigned long nblocks)
{
	unsigned long off = align(sizeof(*sb));

	sb->ninodes = NINODES;
	sb->ndents = NDENTS;
	sb->nofds = NOFDS;
	sb->nhash = NHASH;
	sb->nepis = NEPIS;
	sb->nepsets = NEPSETS;
	sb->nlks = NLKS;
	sb->nholds = NHOLDS;
	sb->nhhash = NHHASH;
	sb->off_inodes = table(&off, NINODES, sizeof(struct fs_inode));
	sb->off_dents = table(&off, NDENTS, sizeof(struct fs_dent));
	sb->off_ofds = table(&off, NOFDS, sizeof(struct fs_ofd));
	sb->off_hash = table(&off, NHASH, 4);
	sb->off_epis = table(&off, NEPIS, sizeof(struct fs_epi));
	sb->off_epsets = table(&off, NEPSETS, sizeof(struct fs_epset));
	sb->off_lks = table(&off, NLKS, sizeof(struct fs_lk));
	sb->off_holds = table(&off, NHOLDS, sizeof(struct fs_hold));
	sb->off_hhash = table(&off, NHHASH, 4);
	sb->off_blocks = off;
	sb->nblocks = nblocks;
	sb->arena_size = off + nblocks * FS_BLOCK;
}

/* A header whose tables are where layout() puts them for its size. */
int fs_layout_matches(const struct fs_super *sb)
{
	struct fs_super want;

	if (!sb->nblocks || sb->nblocks > 0xffffffffUL)
		return 0;
	hk_memset(&want, 0, sizeof(want));
	layout(&want, sb->nblocks);
	return sb->arena_size == want.arena_size &&
	       sb->off_inodes == want.off_inodes &&
	       sb->off_dents == want.off_dents &&
	       sb->off_ofds == want.off_ofds && sb->off_hash == want.off_hash &&
	       sb->off_epis == want.off_epis &&
	       sb->off_epsets == want.off_epsets &&
	       sb->off_lks == want.off_lks && sb->off_holds == want.off_holds &&
	       sb->off_hhash == want.off_hhash &&
	       sb->off_blocks == want.off_blocks &&
	       sb->ninodes == want.ninodes && sb->ndents == want.ndents &&
	       sb->nofds == want.nofds && sb->nhash == want.nhash &&
	       sb->nepis == want.nepis && sb->nepsets == want.nepsets &&
	       sb->nlks == want.nlks && sb->nholds == want.nholds &&
	       sb->nhhash == want.nhhash;
}

/* Nobody else uses a reloaded image: forget its open files and lock. */
static void recover(void)
{
	struct fs_super *sb = fs_ar.sb;
	unsigned int i;

	sb->lock = 0;
	sb->waiters = 0;
	sb->ofd_next = 1;
	sb->ofd_free = 0;
	sb->epi_next = 1;
	sb->epi_free = 0;
	sb->epset_next = 1;
	sb->epset_free = 0;
	sb->ep_tags = 0;
	sb->lk_next = 1;
	sb->lk_free = 0;
	sb->lk_waiters = 0;
	sb->hold_next = 1;
	sb->hold_free = 0;
	hk_memset(fs_ar.base + sb->off_hhash, 0, NHHASH * 4UL);
	fs_ino(FS_ROOT)->locks = 0;
	for (i = 2; i < sb->inode_next; i++) {
		struct fs_inode *n = fs_ino(i);

		if (!n->mode)
			continue;
		n->opens = 0;
		n->locks = 0;
		if (!n->nlink)
			fs_inode_put(i);
	}
}

int fs_high_fd(int fd)
{
	long h = sc(__NR_fcntl, fd, F_DUPFD, 700, 0, 0, 0);

	if (h < 0)
		return fd;
	sc(__NR_close, fd, 0, 0, 0, 0, 0);
	return h;
}

int fs_arena_create(const char *backing, unsigned long limit)
{
	struct fs_super want, *sb;
	unsigned long nblocks = limit ? (limit + FS_BLOCK - 1) / FS_BLOCK :
					DEFAULT_BLOCKS;
	char path[FS_PATH_MAX + 32];
	struct stat st;
	long fd, r;
	int sole = 1, fresh;

	hk_memset(&want, 0, sizeof(want));
	layout(&want, nblocks);
	if (backing) {
		unsigned long n = hk_strlen(backing);

		if (n + sizeof(IMAGE) > sizeof(path))
			return -ENAMETOOLONG;
		hk_memcpy(path, backing, n);
		hk_memcpy(path + n, IMAGE, sizeof(IMAGE));
		/* never through a link someone left there; created by us or
		 * an existing file checked below */
		fd = sc(__NR_openat, AT_FDCWD, (long)path,
			O_RDWR | O_NOFOLLOW, 0, 0, 0);
		if (fd == -ENOENT)
			fd = sc(__NR_openat, AT_FDCWD, (long)path,
				O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600,
				0, 0);
		if (fd == -ELOOP) {
			fs_image_why = "is a symbolic link";
			return -EPERM;
		}
	} else {
		fd = sc(__NR_memfd_create, (long)"sysgate-fs", 0, 0, 0, 0, 0);
	}
	if (fd < 0)
		return fd;
	fd = fs_high_fd(fd);
	/* An image another run still uses is shared as it is. */
	if (backing)
		sole = sc(__NR_flock, fd, LOCK_EX_NB, 0, 0, 0, 0) == 0;
	r = sc(__NR_fstat, fd, (long)&st, 0, 0, 0, 0);
	if (r < 0)
		goto fail;
	/* another user's image, or one others may write, would let them
	 * steer this run: refused */
	if (backing && ((st.st_mode & 0170000) != 0100000 ||
			st.st_uid != (unsigned)sc(__NR_geteuid, 0, 0, 0, 0, 0, 0) ||
			(st.st_mode & 0022))) {
		fs_image_why = "is not a file of the user's own that only they "
			       "can write";
		r = -EPERM;
		goto fail;
	}
	fresh = st.st_size == 0;
	if (fresh && (r = sc(__NR_ftruncate, fd, want.arena_size, 0, 0, 0,
			     0)) < 0)
		goto fail;
	if (!fresh) {
		struct fs_super old;

		r = sc(__NR_pread64, fd, (long)&old, sizeof(old), 0, 0, 0);
		if (r != sizeof(old) || old.magic != FS_MAGIC ||
		    old.version != FS_VERSION ||
		    old.arena_size > (unsigned long)st.st_size) {
			r = -EINVAL;	/* not ours: never overwrite it */
			goto fail;
		}
		want.arena_size = old.arena_size;
	}
	r = map(fd, want.arena_size);
	if (r < 0)
		goto fail;
	sb = fs_ar.sb;
	if (fresh) {
		struct fs_inode *root;

		*sb = want;
		sb->inode_next = FS_ROOT + 1;
		sb->dent_next = 1;
		sb->ofd_next = 1;
		sb->epi_next = 1;
		sb->epset_next = 1;
		sb->lk_next = 1;
		sb->hold_next = 1;
		sb->block_next = 1;
		sb->reserved = 1;
		root = fs_ino(FS_ROOT);
		root->mode = 0040755;
		root->nlink = 2;
		root->parent = FS_ROOT;
		root->uid = sc(__NR_getuid, 0, 0, 0, 0, 0, 0);
		root->gid = sc(__NR_getgid, 0, 0, 0, 0, 0, 0);
		fs_touch(root, FS_A | FS_M | FS_C);
		__atomic_store_n(&sb->magic, FS_MAGIC, __ATOMIC_RELEASE);
		sb->version = FS_VERSION;
	} else if (sole) {
		if (fs_check_image(st.st_size, &fs_image_why) < 0) {
			sc(__NR_munmap, (long)fs_ar.base, want.arena_size, 0, 0,
			   0, 0);
			r = -EUCLEAN;
			goto fail;
		}
		recover();
	}
	sb->limit = limit ? (limit + FS_BLOCK - 1) / FS_BLOCK : 0;
	if (backing)
		sc(__NR_flock, fd, LOCK_SH_, 0, 0, 0, 0);
	return 0;
fail:
	sc(__NR_close, fd, 0, 0, 0, 0, 0);
	return r;
}

int fs_arena_attach(int fd)
{
	struct fs_super sb;

	if (sc(__NR_pread64, fd, (long)&sb, sizeof(sb), 0, 0, 0) != sizeof(sb) ||
	    sb.magic != FS_MAGIC || sb.version != FS_VERSION)
		return -EINVAL;
	return map(fd, sb.arena_size);
}
