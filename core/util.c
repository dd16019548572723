/* SPDX-License-Identifier: MIT */
/*
 * Freestanding helpers for the runtime.  The compiler may emit calls to
 * memcpy/memset/memmove/memcmp even with -ffreestanding; the hidden
 * definitions here catch them, so the hot path never reaches glibc's
 * vectorised versions (which would clobber the program's vector registers)
 * nor its locks.
 */
#include "sg.h"

#define SG_PROT_RW 3
#define SG_MAP_PRIVATE_ANON 0x22

typedef unsigned long __attribute__((may_alias)) sg_word;

SG_HIDDEN void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	/* Whole words where both sides align alike: planning copies an
	 * object's code by the megabyte (libc's 1.4 MiB took 1.7 ms a
	 * byte at a time). */
	if ((((unsigned long)dp ^ (unsigned long)sp) & 7) == 0 && n >= 16) {
		for (; (unsigned long)dp & 7; n--)
			*dp++ = *sp++;
		for (; n >= 8; n -= 8, dp += 8, sp += 8)
			*(sg_word *)dp = *(const sg_word *)sp;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

SG_HIDDEN void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp < sp) {
		while (n--)
			*dp++ = *sp++;
	} else {
		while (n--)
			dp[n] = sp[n];
	}
	return d;
}

SG_HIDDEN void *memset(void *d, int c, size_t n)
{
	unsigned char *dp = d;

	while (n--)
		*dp++ = (unsigned char)c;
	return d;
}

SG_HIDDEN int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t sg_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int sg_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int sg_strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *sg_strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? 0 : (char *)s;
}

char *sg_strrchr(const char *s, int c)
{
	const char *last = 0;

	do
		if (*s == (char)c)
			last = s;
	while (*s++);
	return (char *)last;
}

size_t sg_strlcpy(char *d, const char *s, size_t n)
{
	size_t len = sg_strlen(s);

	if (n) {
		size_t k = len < n - 1 ? len : n - 1;

		memcpy(d, s, k);
		d[k] = 0;
	}
	return len;
}

/* a, b and c one after the other in d (n bytes), cut to fit: d. */
char *sg_strjoin(char *d, size_t n, const char *a, const char *b,
		 const char *c)
{
	size_t k = sg_strlcpy(d, a, n);

	if (k < n)
		k += sg_strlcpy(d + k, b, n - k);
	if (k < n)
		sg_strlcpy(d + k, c, n - k);
	return d;
}

/*
 * sysgate's own memory grows down from the lowest of it: left to the
 * kernel's search, a table a site's first trap needs took the first hole
 * from the top, often one the program had just made (a thread's stack it
 * unmapped), and the program could no longer map there again as
 * natively.  Below it, where something is already (EEXIST), a few tries
 * further down; then wherever the kernel says.  (A kernel without
 * MAP_FIXED_NOREPLACE takes the address as a hint.)
 */
static unsigned long own_low;

/* A private read-write mapping of fd (-1: anonymous) there; 0 on failure. */
static void *own_map(size_t len, int fd)
{
	unsigned long low = __atomic_load_n(&own_low, __ATOMIC_RELAXED);
	unsigned long size = (len + 4095) & ~4095UL, step = 1UL << 20;
	long flags = fd < 0 ? SG_MAP_PRIVATE_ANON : 2 /* MAP_PRIVATE */;
	long p = -17;	/* EEXIST */
	int tries;

	for (tries = 0; tries < 6 && p == -17 && low > size + step + (1UL << 32);
	     tries++, step <<= 2) {
		unsigned long at = low - size - (tries ? step : 0);

		p = sg_sc6(SG_NR_mmap, at, len, SG_PROT_RW,
			   flags | 0x100000 /* MAP_FIXED_NOREPLACE */, fd, 0);
	}
	if (sysgate_is_error(p))
		p = sg_sc6(SG_NR_mmap, 0, len, SG_PROT_RW, flags, fd, 0);
	if (sysgate_is_error(p))
		return 0;
	while ((!low || (unsigned long)p < low) &&
	       !__atomic_compare_exchange_n(&own_low, &low, p, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return (void *)p;
}

void *sg_mmap(size_t len)
{
	return own_map(len, -1);
}

void *sg_mmap_fd(size_t len, int fd)
{
	return own_map(len, fd);
}

void sg_munmap(void *p, size_t len)
{
	sg_sc2(SG_NR_munmap, (long)p, len);
}

/*
 * The size for a region sysgate keeps for the program's lifetime: want,
 * halved down to min at most while it is more than a 64th of the
 * address-space limit (ulimit -v), so that the program keeps its room.
 */
unsigned long sg_mem_fit(unsigned long want, unsigned long min)
{
	unsigned long lim[2];

	if (sg_sc4(SG_NR_prlimit64, 0, 9 /* RLIMIT_AS */, 0, (long)lim) == 0)
		while (want > min && want > lim[0] / 64)
			want >>= 1;
	return want;
}

__attribute__((hot))
long sg_write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		long r = sg_sc3(SG_NR_write, fd, (long)(buf + done),
				len - done);

		if (r == -4 /* EINTR */)
			continue;
		if (r <= 0)
			return r ? r : -5;
		done += r;
	}
	return done;
}

char *sg_utoa(char *end, unsigned long v)
{
	*--end = 0;
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

const char *sg_xparse(const char *p, unsigned long *v)
{
	const char *s = p;

	for (*v = 0; p - s < 16 && ((*p >= '0' && *p <= '9') ||
				    (*p >= 'a' && *p <= 'f')); p++)
		*v = *v << 4 | (unsigned long)(*p <= '9' ? *p - '0' :
							   *p - 'a' + 10);
	return p;
}

char *sg_xtoa(char *end, unsigned long v)
{
	*--end = 0;
	do {
		*--end = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	return end;
}

/*
 * A field of /proc/self/status (tid 0) or /proc/TID/status ("TracerPid",
 * "SigPnd"): its value, in buf, or NULL.
 */
const char *sg_proc_status(int tid, const char *field, char *buf,
			   size_t size)
{
	char path[48], num[16];
	long fd, n = 0, r;

	sg_strlcpy(path, "/proc/", sizeof(path));
	sg_strlcpy(path + 6, tid ? sg_utoa(num + sizeof(num), tid) : "self",
		   sizeof(path) - 6);
	sg_strlcpy(path + sg_strlen(path), "/status",
		   sizeof(path) - sg_strlen(path));
	fd = sg_sc4(SG_NR_openat, -100 /* AT_FDCWD */, (long)path,
		    02000000 /* O_RDONLY | O_CLOEXEC */, 0);
	if (fd < 0)
		return 0;
	while (n < (long)size - 1 &&
	       (r = sg_sc3(SG_NR_read, fd, (long)(buf + n), size - 1 - n)) > 0)
		n += r;
	sg_sc1(SG_NR_close, fd);
	buf[n] = 0;
	return sg_status_field(buf, field);
}

/* The value of field in a status file's text, or NULL. */
const char *sg_status_field(const char *buf, const char *field)
{
	size_t len = sg_strlen(field);
	const char *p;

	for (p = buf; *p; p++)
		if (*p == '\n' && !sg_strncmp(p + 1, field, len) &&
		    p[1 + len] == ':') {
			for (p += len + 2; *p == '\t' || *p == ' '; p++)
				;
			return p;
		}
	return 0;
}

/* statx's layout is the same on every architecture (struct stat's is not). */
struct sg_statx {
	unsigned int mask, blksize;
	unsigned long attributes;
	unsigned int nlink, uid, gid;
	unsigned short mode, spare0;
	unsigned long ino, size, blocks, attributes_mask;
	unsigned long times[8];		/* atime, btime, ctime, mtime */
	unsigned int rdev_major, rdev_minor, dev_major, dev_minor;
	unsigned long rest[14];
};

_Static_assert(sizeof(struct sg_statx) == 256, "struct statx");

static long stat_at(long fd, const char *path, int flags,
		    struct sg_fd_stat *st)
{
	struct sg_statx x;
	long r = sg_sc5(SG_NR_statx, fd, (long)path, flags,
			0x7ff /* STATX_BASIC_STATS */, (long)&x);

	if (r < 0)
		return r;
	st->mode = x.mode;
	st->uid = x.uid;
	st->gid = x.gid;
	st->ino = x.ino;
	st->size = x.size;
	st->dev = (unsigned long)x.dev_major << 32 | x.dev_minor;
	return 0;
}

long sg_fd_stat(long fd, struct sg_fd_stat *st)
{
	return stat_at(fd, "", 0x1000 /* AT_EMPTY_PATH */, st);
}

long sg_path_stat(const char *path, struct sg_fd_stat *st)
{
	return stat_at(-100 /* AT_FDCWD */, path, 0, st);
}

long sg_path_lstat(const char *path, struct sg_fd_stat *st)
{
	return stat_at(-100 /* AT_FDCWD */, path, 0x100 /* NOFOLLOW */, st);
}

long sg_at_stat(long dirfd, const char *path, struct sg_fd_stat *st)
{
	return stat_at(dirfd, path, 0, st);
}
