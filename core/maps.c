/* SPDX-License-Identifier: MIT */
/*
 * /proc/self/maps (see maps.h), and sysgate_locate() on top of it.  Read
 * whole into a fresh mapping: no libc, no fixed line buffer.
 */
#include "maps.h"

#define AT_FDCWD_ -100
#define O_RDONLY_CLOEXEC 02000000

static unsigned long hex(const char **p)
{
	unsigned long v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + c - '0';
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + c - 'a' + 10;
		else
			return v;
	}
}

/* "lo-hi perms off maj:min inode   path" */
int sg_maps_parse_line(const char *p, struct sg_mapping *m)
{
	unsigned long maj, min;

	m->lo = hex(&p);
	if (*p++ != '-')
		return -1;
	m->hi = hex(&p);
	p++;
	m->prot = (p[0] == 'r' ? PROT_R : 0) | (p[1] == 'w' ? PROT_W : 0) |
		  (p[2] == 'x' ? PROT_X : 0);
	m->shared = p[3] == 's';
	p += 5;
	m->off = hex(&p);
	p++;
	maj = hex(&p);
	p++;
	min = hex(&p);
	p++;
	m->dev_ino[0] = maj << 32 | min;
	m->dev_ino[1] = 0;
	while (*p >= '0' && *p <= '9')
		m->dev_ino[1] = m->dev_ino[1] * 10 + *p++ - '0';
	while (*p == ' ')
		p++;
	m->path = p;
	return 0;
}

/* include/uapi/linux/fs.h */
struct procmap_query {
	unsigned long long size, query_flags, query_addr;
	unsigned long long vma_start, vma_end, vma_flags, vma_page_size;
	unsigned long long vma_offset, inode;
	unsigned int dev_major, dev_minor, vma_name_size, build_id_size;
	unsigned long long vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY 0xc0686611UL	/* _IOWR('f', 17, struct procmap_query) */
#define QUERY_COVERING_OR_NEXT 0x10
#define QUERY_R 1
#define QUERY_W 2
#define QUERY_X 4
#define QUERY_SHARED 8

/*
 * /proc/self/NAME.  Once the main thread has called exit while others go
 * on, /proc/self (its pid) has no memory: maps reads empty and mem does
 * not open.  /proc/thread-self/NAME is then this thread's view of the
 * same memory.  /proc/self comes first (qemu-user emulates only that
 * one), and is kept whenever it works.
 */
long sg_proc_self_open(const char *name, long flags)
{
	/* (the CLI of -m ptrace has no sysgate thread) */
	struct sg_thread *t = sg.tracer ? 0 : sg_self();
	char path[48];
	long fd, n;

	sg_strjoin(path, sizeof(path), "/proc/self/", name, "");
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, flags, 0);
	if (fd >= 0 && (!t || t->tid == t->pid || sg_strcmp(name, "maps")))
		return fd;	/* (the main thread: its /proc/self is live) */
	if (fd >= 0) {
		char c;

		n = sg_sc4(SG_NR_pread64, fd, (long)&c, 1, 0);
		if (n != 0)
			return fd;
		sg_sc1(SG_NR_close, fd);
	}
	sg_strjoin(path, sizeof(path), "/proc/thread-self/", name, "");
	n = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, flags, 0);
	return n >= 0 ? n : fd;
}

long sg_maps_open(void)
{
	return sg_proc_self_open("maps", O_RDONLY_CLOEXEC);
}

long sg_maps_query(long fd, unsigned long addr, struct sg_mapping *m,
		   char *name, unsigned int cap)
{
	struct procmap_query q;
	long r;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.query_flags = QUERY_COVERING_OR_NEXT;
	q.query_addr = addr;
	q.vma_name_addr = (unsigned long)name;
	q.vma_name_size = cap;
	name[0] = 0;
	r = sg_sc3(SG_NR_ioctl, fd, PROCMAP_QUERY, (long)&q);
	if (r < 0)
		return r;
	if (!q.vma_name_size)
		name[0] = 0;	/* (anonymous: no name was written) */
	m->lo = q.vma_start;
	m->hi = q.vma_end;
	m->prot = (q.vma_flags & QUERY_R ? PROT_R : 0) |
		  (q.vma_flags & QUERY_W ? PROT_W : 0) |
		  (q.vma_flags & QUERY_X ? PROT_X : 0);
	m->shared = (q.vma_flags & QUERY_SHARED) != 0;
	m->off = q.vma_offset;
	m->dev_ino[0] = (unsigned long)q.dev_major << 32 | q.dev_minor;
	m->dev_ino[1] = q.inode;
	m->path = name;
	return 0;
}

long sg_maps_read_into(char *buf, unsigned long cap)
{
	unsigned long n = 0;
	long fd = sg_maps_open(), r;

	if (fd < 0)
		return fd;
	while (n < cap - 1 &&
	       (r = sg_sc3(SG_NR_read, fd, (long)(buf + n), cap - 1 - n)) > 0)
		n += r;
	sg_sc1(SG_NR_close, fd);
	buf[n] = 0;
	return n;
}

char *sg_maps_read(unsigned long *size)
{
	unsigned long cap = 1 << 20;
	char *buf = sg_mmap(cap);

	if (!buf)
		return 0;
	if (sg_maps_read_into(buf, cap) < 0) {
		sg_munmap(buf, cap);
		return 0;
	}
	*size = cap;
	return buf;
}

int sg_maps_each(char *maps, int (*fn)(const struct sg_mapping *m, void *arg),
		 void *arg)
{
	char *line = maps;

	while (*line) {
		char *nl = sg_strchr(line, '\n');
		struct sg_mapping m;
		int r;

		if (nl)
			*nl = 0;
		if (sg_maps_parse_line(line, &m) == 0 && (r = fn(&m, arg)))
			return r;
		if (!nl)
			break;
		*nl = '\n';
		line = nl + 1;
	}
	return 0;
}

struct at {
	unsigned long addr;
	struct sg_mapping m;
};

static int holds(const struct sg_mapping *m, void *arg)
{
	struct at *at = arg;

	if (at->addr < m->lo || at->addr >= m->hi)
		return 0;
	at->m = *m;
	return 1;
}

/*
 * The mapping that holds addr, its path copied into name (cap bytes): 0,
 * -ENOENT if none, -ENOMEM if maps cannot be read.  One PROCMAP_QUERY
 * where the kernel has it: a JIT's every new code mapping asked this,
 * and the whole of a large program's maps cost far more.
 */
static long mapping_at(unsigned long addr, struct sg_mapping *m, char *name,
		       unsigned int cap)
{
	struct at at = { addr, { 0 } };
	unsigned long len;
	long fd = sg_maps_open(), r = fd;
	char *maps;

	if (fd >= 0) {
		r = sg_maps_query(fd, addr, m, name, cap);
		sg_sc1(SG_NR_close, fd);
		if (r == -2 || (!r && m->lo > addr))
			return -2;	/* ENOENT: nothing at or above */
		if (!r)
			return 0;
	}
	/* (no such query, or a name longer than cap) */
	if (!(maps = sg_maps_read(&len)))
		return -12;	/* ENOMEM */
	r = sg_maps_each(maps, holds, &at) ? 0 : -2;
	if (!r) {
		*m = at.m;
		sg_strlcpy(name, at.m.path, cap);
		m->path = name;
	}
	sg_munmap(maps, len);
	return r;
}

/* sysgate_locate() (include/sysgate.h): what is mapped at addr. */
long sysgate_locate(const void *addr, char *path, size_t size,
		    unsigned long *file_off)
{
	char name[4096];
	struct sg_mapping m;
	long r = mapping_at((unsigned long)addr, &m, name, sizeof(name));

	if (r < 0)
		return r;
	sg_strlcpy(path, m.path, size);
	*file_off = (unsigned long)addr - m.lo + m.off;
	return 0;
}

int sg_maps_info(unsigned long addr, struct sg_mapping_info *info)
{
	char name[4096];
	struct sg_mapping m;

	if (mapping_at(addr, &m, name, sizeof(name)) < 0)
		return -1;
	info->lo = m.lo;
	info->hi = m.hi;
	info->prot = m.prot;
	info->shared = m.shared;
	info->special = m.path[0] == '[';
	info->anon = !m.path[0];
	return 0;
}
