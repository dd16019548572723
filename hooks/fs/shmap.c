/* SPDX-License-Identifier: MIT */
/*
 * fs: writable MAP_SHARED for a store that has no pages of its own to map
 * (CephFS: libcephfs has no page the kernel could map).  The process keeps
 * a page cache of its own per mapped file: a memfd holding the file's
 * pages (loaded from the store at the first mapping that covers them),
 * mapped shared where the program asked, and a second memfd, the
 * snapshot, holding what the store had for each page.  Writeback compares
 * the two and writes the pages that differ (clipped to the file's size,
 * as the kernel writes no byte past the end), then updates the snapshot:
 * at msync, at munmap (and a MAP_FIXED or mremap over the mapping), and
 * when the process ends or runs another program (fs_shmap_end), as a
 * mount without writeback caching gives them at the latest.
 *
 * One memfd per file and process: every mapping of a file in the process
 * shares its pages, and fork keeps them shared with the child, as the
 * kernel's page cache would.  The same process's write(2) is copied into
 * the pages (fs_shmap_written) and a read(2) or fsync first writes back
 * what the mappings changed (fs_shmap_sync): its own calls see its
 * mappings.
 * Another process or client sees the bytes once written back (doc/fs.md).
 *
 * The tables are this process's (copied by fork, each copy then its
 * process's; a vfork child's calls use its parent's, whose mappings they
 * are).  A futex lock guards them: writeback may wait on the network.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include "front.h"

#define PAGE 4096UL
#define NFILES 64
#define NMAPS 1024
#define MFD_CLOEXEC_ 1U
#define MREMAP_MAYMOVE_ 1
#define FUTEX_WAIT_PRIVATE_ 128
#define FUTEX_WAKE_PRIVATE_ 129
#define MS_SYNC_ 4
#define AF_UNIX_ 1
#define SOCK_STREAM_ 1
#define SOCK_CLOEXEC_ 02000000

/* One mapping of the program's: [addr, addr + len) shows file's bytes
 * from off. */
struct shm {
	unsigned long addr, len, off;
	int file;			/* index + 1; 0: free */
};

static struct fs_shfile *files;
static struct shm *maps;
unsigned int fs_shmaps;			/* mappings in maps[]: the fast test */
static int owner;			/* the process whose tables these are */
static int lk;				/* 0 free, 1 taken, 2 taken and waited */

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

/* A fork child's tables are copies, its own now (a lock a thread of the
 * parent held is not held here).  0 in a vfork child, whose memory and
 * mappings are its parent's. */
static int adopt(void)
{
	int pid = sc(__NR_getpid, 0, 0, 0, 0, 0, 0);

	if (pid == owner)
		return 1;
	if (fs_procs[1].pid == pid)
		return 0;
	owner = pid;
	lk = 0;
	return 1;
}

/* The tables' lock, taken (adopt's answer). */
static int lock(void)
{
	int c = 0, own = adopt();

	if (__atomic_compare_exchange_n(&lk, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return own;
	while (__atomic_exchange_n(&lk, 2, __ATOMIC_ACQUIRE))
		sc(__NR_futex, (long)&lk, FUTEX_WAIT_PRIVATE_, 2, 0, 0, 0);
	return own;
}

static void unlock(void)
{
	if (__atomic_exchange_n(&lk, 0, __ATOMIC_RELEASE) == 2)
		sc(__NR_futex, (long)&lk, FUTEX_WAKE_PRIVATE_, 1, 0, 0, 0);
}

static int tables(void)
{
	long f, m;

	if (files)
		return 0;
	f = sc(__NR_mmap, 0, NFILES * sizeof(*files), PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	m = sc(__NR_mmap, 0, NMAPS * sizeof(*maps), PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (sysgate_is_error(f) || sysgate_is_error(m))
		return -ENOMEM;
	files = (struct fs_shfile *)f;
	maps = (struct shm *)m;
	return 0;
}

static int page_differs(const char *a, const char *b)
{
	const unsigned long *x = (const void *)a, *y = (const void *)b;
	unsigned long i;

	for (i = 0; i < PAGE / sizeof(*x); i++)
		if (x[i] != y[i])
			return 1;
	return 0;
}

/* Write back the pages of file f in [from, to) (page-aligned, loaded)
 * that differ from the store's; 0 or the first error. */
static long write_back(struct fs_shfile *f, unsigned long from,
		       unsigned long to)
{
	long size = -1, r, err = 0;
	unsigned long p = from, q;

	while (p < to) {
		if (!page_differs(f->mem + p, f->snap + p)) {
			p += PAGE;
			continue;
		}
		for (q = p + PAGE; q < to && page_differs(f->mem + q,
							 f->snap + q); q += PAGE)
			;
		if (size < 0 && (size = f->ops->size(f)) < 0)
			return size;
		if (p < (unsigned long)size) {
			unsigned long n = fs_min(q, size) - p;

			r = f->ops->io(f, 1, f->mem + p, n, p);
			if (r == (long)n)
				hk_memcpy(f->snap + p, f->mem + p, n);
			else if (!err)
				err = r < 0 ? r : -EIO;
		}
		p = q;
	}
	return err;
}

/* Write back every mapping of file index fi (all files: -1). */
static long write_back_file(int fi)
{
	long r, err = 0;
	unsigned int i;

	for (i = 0; i < NMAPS && maps; i++)
		if (maps[i].file && (fi < 0 || maps[i].file == fi + 1) &&
		    (r = write_back(&files[maps[i].file - 1], maps[i].off,
				    maps[i].off + maps[i].len)) < 0 && !err)
			err = r;
	return err;
}

static void file_free(struct fs_shfile *f)
{
	f->ops->close(f);
	sc(__NR_close, f->claim, 0, 0, 0, 0, 0);
	sc(__NR_munmap, (long)f->mem, f->cover, 0, 0, 0, 0);
	sc(__NR_munmap, (long)f->snap, f->cover, 0, 0, 0, 0);
	sc(__NR_munmap, (long)f->loaded, f->cover / PAGE / 8 + 1, 0, 0, 0, 0);
	sc(__NR_close, f->mfd, 0, 0, 0, 0, 0);
	sc(__NR_close, f->sfd, 0, 0, 0, 0, 0);
	f->key = 0;
}

/* Mapping i loses [a, e) of itself (written back first): trimmed, split
 * or gone with its file's last mapping. */
static void cut(unsigned int i, unsigned long a, unsigned long e)
{
	struct shm *m = &maps[i];
	struct fs_shfile *f = &files[m->file - 1];
	unsigned long ma = m->addr, me = m->addr + m->len, j;

	a = a < ma ? ma : a;
	e = e > me ? me : e;
	write_back(f, m->off + (a - ma), m->off + (e - ma));
	if (a > ma && e < me) {
		for (j = 0; j < NMAPS && maps[j].file; j++)
			;
		if (j < NMAPS) {	/* (else the tail goes untracked) */
			maps[j] = *m;
			maps[j].addr = e;
			maps[j].len = me - e;
			maps[j].off = m->off + (e - ma);
			fs_shmaps++;
			f->maps++;
		}
	}
	if (a > ma) {
		m->len = a - ma;
		return;
	}
	if (e < me) {
		m->off += e - ma;
		m->addr = e;
		m->len = me - e;
		return;
	}
	m->file = 0;
	fs_shmaps--;
	if (!--f->maps)
		file_free(f);
}

/* [a, a + len) of the program's memory goes: what mappings of ours it
 * held are written back and forgotten. */
static void gone(unsigned long a, unsigned long len)
{
	unsigned long e = a + ((len + PAGE - 1) & ~(PAGE - 1));
	unsigned int i;

	for (i = 0; i < NMAPS && fs_shmaps; i++)
		if (maps[i].file && maps[i].addr < e &&
		    a < maps[i].addr + maps[i].len)
			cut(i, a, e);
}

/* The file's pages cover [0, end): memfds grown, views moved. */
static long grow(struct fs_shfile *f, unsigned long end)
{
	unsigned long bits = end / PAGE / 8 + 1, old = f->cover / PAGE / 8 + 1;
	long m, s, b;

	if (end <= f->cover)
		return 0;
	if (sc(__NR_ftruncate, f->mfd, end, 0, 0, 0, 0) < 0 ||
	    sc(__NR_ftruncate, f->sfd, end, 0, 0, 0, 0) < 0)
		return -ENOMEM;
	if (!f->cover) {
		m = sc(__NR_mmap, 0, end, PROT_READ | PROT_WRITE, MAP_SHARED,
		       f->mfd, 0);
		s = sc(__NR_mmap, 0, end, PROT_READ | PROT_WRITE, MAP_SHARED,
		       f->sfd, 0);
		b = sc(__NR_mmap, 0, bits, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else {
		m = sc(__NR_mremap, (long)f->mem, f->cover, end,
		       MREMAP_MAYMOVE_, 0, 0);
		s = sc(__NR_mremap, (long)f->snap, f->cover, end,
		       MREMAP_MAYMOVE_, 0, 0);
		b = sc(__NR_mremap, (long)f->loaded, old, bits,
		       MREMAP_MAYMOVE_, 0, 0);
	}
	if (sysgate_is_error(m) || sysgate_is_error(s) || sysgate_is_error(b))
		return -ENOMEM;	/* (a view that moved is lost: rare) */
	f->mem = (char *)m;
	f->snap = (char *)s;
	f->loaded = (unsigned char *)b;
	f->cover = end;
	return 0;
}

/* The pages of [from, to) read from the store where not yet loaded. */
static long load(struct fs_shfile *f, unsigned long from, unsigned long to)
{
	unsigned long p, q;
	long r;

	for (p = from; p < to; p = q) {
		if (f->loaded[p / PAGE / 8] & (1 << (p / PAGE % 8))) {
			q = p + PAGE;
			continue;
		}
		for (q = p; q < to && !(f->loaded[q / PAGE / 8] &
					(1 << (q / PAGE % 8))); q += PAGE)
			f->loaded[q / PAGE / 8] |= 1 << (q / PAGE % 8);
		r = f->ops->io(f, 0, f->mem + p, q - p, p);
		if (r < 0) {
			for (; p < q; p += PAGE)
				f->loaded[p / PAGE / 8] &= ~(1 << (p / PAGE % 8));
			return r;
		}
		/* past the end: zeros, as the memfd is */
		hk_memcpy(f->snap + p, f->mem + p, q - p);
	}
	return 0;
}

static struct fs_shfile *file_of(unsigned long key)
{
	unsigned int i;

	for (i = 0; i < NFILES && files; i++)
		if (files[i].key == key)
			return &files[i];
	return 0;
}

/*
 * The file's pages are this process's (and its fork children's): another
 * process of the machine with its own would not see them, and two such
 * copies written back in turn would undo each other's writes (sqlite's
 * write-ahead log index, its -shm file, is such a mapping, shared by every
 * process using the database: two processes with their own copies would
 * corrupt it).  So one process at a time holds a file's pages on a
 * machine: it claims them by binding an abstract socket named after the
 * file (id: the store's name for it there; the name goes with the last
 * descriptor, also at a SIGKILL), and another process's mapping while it
 * does is EAGAIN.  A claim; -EAGAIN if another process holds it.
 */
static long claim(const char *id)
{
	struct {
		unsigned short family;
		char path[108];
	} a = { AF_UNIX_, { 0 } };
	unsigned long n = hk_strlen(id);
	long fd = sc(__NR_socket, AF_UNIX_, SOCK_STREAM_ | SOCK_CLOEXEC_, 0, 0,
		     0, 0), r;

	if (fd < 0)
		return fd;
	n = n < sizeof(a.path) - 1 ? n : sizeof(a.path) - 1;
	hk_memcpy(a.path + 1, id, n);	/* path[0] 0: abstract */
	r = sc(__NR_bind, fd, (long)&a, 2 + 1 + n, 0, 0, 0);
	if (r < 0) {
		sc(__NR_close, fd, 0, 0, 0, 0, 0);
		return r == -EADDRINUSE ? -EAGAIN : r;
	}
	r = sc(__NR_fcntl, fd, F_DUPFD_CLOEXEC, 700, 0, 0, 0);
	if (r >= 0) {
		sc(__NR_close, fd, 0, 0, 0, 0, 0);
		fd = r;
	}
	return fd;
}

static struct fs_shfile *file_new(unsigned long key, const char *path,
				  const char *id, const struct fs_map_ops *ops,
				  long *err)
{
	static const char name[] = "sysgate-map";
	struct fs_shfile *f = 0;
	unsigned int i;
	long m, s, c;

	*err = -ENOMEM;
	for (i = 0; i < NFILES && !f; i++)
		if (!files[i].key)
			f = &files[i];
	if (!f)
		return 0;
	if ((c = claim(id)) < 0) {
		*err = c;
		return 0;
	}
	m = sc(__NR_memfd_create, (long)name, MFD_CLOEXEC_, 0, 0, 0, 0);
	s = m < 0 ? m : sc(__NR_memfd_create, (long)name, MFD_CLOEXEC_, 0, 0,
			   0, 0);
	if (s < 0) {
		if (m >= 0)
			sc(__NR_close, m, 0, 0, 0, 0, 0);
		sc(__NR_close, c, 0, 0, 0, 0, 0);
		return 0;
	}
	hk_memset(f, 0, sizeof(*f));
	/* out of the program's way, as the arena's descriptor is */
	f->mfd = sc(__NR_fcntl, m, F_DUPFD_CLOEXEC, 700, 0, 0, 0);
	f->sfd = sc(__NR_fcntl, s, F_DUPFD_CLOEXEC, 700, 0, 0, 0);
	if (f->mfd < 0 || f->sfd < 0) {
		f->mfd = m;
		f->sfd = s;
	} else {
		sc(__NR_close, m, 0, 0, 0, 0, 0);
		sc(__NR_close, s, 0, 0, 0, 0, 0);
	}
	f->claim = c;
	f->key = key;
	f->ops = ops;
	f->h = -1;
	hk_memcpy(f->path, path, hk_strlen(path) + 1);
	return f;
}

long fs_shmap_mmap(struct sysgate_sys *s, unsigned long key, const char *path,
		   const char *id, const struct fs_map_ops *ops)
{
	long *a = s->args, r;
	unsigned long len = a[1], off = a[5], end;
	struct fs_shfile *f;
	unsigned int i;

	if (!len || (off & (PAGE - 1)))
		return -EINVAL;
	end = (off + len + PAGE - 1) & ~(PAGE - 1);
	if (end < off)
		return -EOVERFLOW;
	lock();
	if ((r = tables()) < 0)
		goto out;
	/* (first: what it replaces may be this file's last mapping) */
	if ((a[3] & MAP_FIXED) && !(a[3] & MAP_FIXED_NOREPLACE))
		gone(a[0], len);
	for (i = 0; i < NMAPS && maps[i].file; i++)
		;
	r = -ENOMEM;
	if (i == NMAPS || (!(f = file_of(key)) &&
			   !(f = file_new(key, path, id, ops, &r))))
		goto out;
	if (!(r = grow(f, end)) && !(r = load(f, off, end)))
		r = sc(__NR_mmap, a[0], len, a[2],
		       (a[3] & ~(long)MAP_TYPE) | MAP_SHARED, f->mfd, off);
	if (!sysgate_is_error(r)) {
		maps[i].addr = r;
		maps[i].len = (len + PAGE - 1) & ~(PAGE - 1);
		maps[i].off = off;
		maps[i].file = f - files + 1;
		fs_shmaps++;
		f->maps++;
	} else if (!f->maps) {
		file_free(f);
	}
out:
	unlock();
	return r;
}

/* The mapping an mremap moves: its file and offset, put back at exit. */
static __thread struct {
	int file;
	unsigned long off;
} moving;

void fs_shmap_enter(struct sysgate_sys *s)
{
	long *a = s->args;
	unsigned int i;

	lock();
	switch (s->nr) {
	case __NR_msync:
		for (i = 0; i < NMAPS && fs_shmaps; i++) {
			struct shm *m = &maps[i];
			unsigned long b, e;

			if (!m->file || m->addr >= a[0] + (unsigned long)a[1] ||
			    (unsigned long)a[0] >= m->addr + m->len)
				continue;
			b = (unsigned long)a[0] > m->addr ? a[0] - m->addr : 0;
			e = fs_min(m->len, a[0] + a[1] - m->addr);
			write_back(&files[m->file - 1], m->off + b,
				   m->off + ((e + PAGE - 1) & ~(PAGE - 1)));
			if (a[2] & MS_SYNC_)
				files[m->file - 1].ops->sync(&files[m->file - 1]);
		}
		break;
	case __NR_mremap:
		moving.file = 0;
		for (i = 0; i < NMAPS && fs_shmaps; i++)
			if (maps[i].file && maps[i].addr == (unsigned long)a[0]) {
				moving.file = maps[i].file;
				moving.off = maps[i].off;
				files[moving.file - 1].maps++;	/* kept */
				break;
			}
		gone(a[0], a[1]);
		break;
	case __NR_munmap:
		gone(a[0], a[1]);
		break;
	default:		/* an mmap with MAP_FIXED */
		if ((a[3] & MAP_FIXED) && !(a[3] & MAP_FIXED_NOREPLACE))
			gone(a[0], a[1]);
	}
	unlock();
}

void fs_shmap_exit(struct sysgate_sys *s)
{
	struct fs_shfile *f;
	unsigned long end;
	unsigned int i;

	if (s->nr != __NR_mremap || !moving.file)
		return;
	lock();
	f = &files[moving.file - 1];
	for (i = 0; i < NMAPS && maps[i].file; i++)
		;
	f->maps--;
	end = (moving.off + s->args[2] + PAGE - 1) & ~(PAGE - 1);
	if (!sysgate_is_error(s->ret) && i < NMAPS && !grow(f, end) &&
	    !load(f, moving.off, end)) {
		maps[i].addr = s->ret;
		maps[i].len = (s->args[2] + PAGE - 1) & ~(PAGE - 1);
		maps[i].off = moving.off;
		maps[i].file = moving.file;
		fs_shmaps++;
		f->maps++;
	} else if (!f->maps) {
		file_free(f);
	}
	moving.file = 0;
	unlock();
}

void fs_shmap_written(unsigned long key, const char *buf, unsigned long len,
		      unsigned long off)
{
	struct fs_shfile *f;
	unsigned long p, e = off + len;

	lock();
	if ((f = file_of(key))) {
		for (p = off & ~(PAGE - 1); p < e && p < f->cover; p += PAGE) {
			unsigned long b = p > off ? p : off;
			unsigned long n = fs_min(p + PAGE, e) - b;

			if (!(f->loaded[p / PAGE / 8] & (1 << (p / PAGE % 8))))
				continue;
			hk_memcpy(f->mem + b, buf + (b - off), n);
			hk_memcpy(f->snap + b, buf + (b - off), n);
		}
	}
	unlock();
}

void fs_shmap_sync(unsigned long key)
{
	struct fs_shfile *f;

	lock();
	if ((f = file_of(key)))
		write_back_file(f - files);
	unlock();
}

void fs_shmap_truncated(unsigned long key, unsigned long size)
{
	struct fs_shfile *f;

	lock();
	if ((f = file_of(key)) && size < f->cover) {
		hk_memset(f->mem + size, 0, f->cover - size);
		hk_memset(f->snap + size, 0, f->cover - size);
	}
	unlock();
}

void fs_shmap_end(void)
{
	unsigned int i;

	if (!fs_shmaps)
		return;
	if (lock()) {	/* (a vfork child's mappings are its parent's) */
		write_back_file(-1);
		for (i = 0; i < NFILES; i++)
			if (files[i].key)
				files[i].ops->close(&files[i]);
	}
	unlock();
}
