/* SPDX-License-Identifier: MIT */
/*
 * Memory shared by every process of the hooked tree, for counters and
 * summaries (sysgate_shared).  It is a file the CLI creates and names in
 * SYSGATE_STATE; each process maps it at start-up.  Without the CLI, the
 * root process creates one in /dev/shm and exports its name to children.
 * Regions are named and bump-allocated; allocation takes a spinlock, which
 * only init-time code ever does.
 */
#include "sg.h"
#include "shared.h"

#define O_RDWR_ 02
#define O_CREAT_ 0100
#define O_CLOEXEC_ 02000000
#define PROT_RW_ 3
#define MAP_SHARED_ 1
#define AT_FDCWD_ -100

int sg_shared_init(const char *path, int create)
{
	struct sg_shared_hdr *h;
	long fd, p;

	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path,
		    O_RDWR_ | O_CLOEXEC_ | (create ? O_CREAT_ : 0), 0600);
	if (fd < 0)
		return fd;
	if (create && sg_sc2(SG_NR_ftruncate, fd, SG_SHARED_SIZE) < 0) {
		sg_sc1(SG_NR_close, fd);
		return -28;
	}
	p = sg_sc6(SG_NR_mmap, 0, SG_SHARED_SIZE, PROT_RW_, MAP_SHARED_, fd, 0);
	sg_sc1(SG_NR_close, fd);
	if (sysgate_is_error(p))
		return p;
	h = (struct sg_shared_hdr *)p;
	if (create || !h->magic) {
		h->size = SG_SHARED_SIZE;
		h->used = sizeof(*h);
		h->flags = create ? SG_SHARED_MAY_LINGER : 0;
		__atomic_store_n(&h->magic, SG_SHARED_MAGIC, __ATOMIC_RELEASE);
	}
	sg.shared_base = (char *)h;
	sg.shared_size = SG_SHARED_SIZE;
	return 0;
}

static void lock(struct sg_shared_hdr *h)
{
	while (__atomic_exchange_n(&h->lock, 1, __ATOMIC_ACQUIRE))
		sg_sc0(SG_NR_sched_yield);
}

static void unlock(struct sg_shared_hdr *h)
{
	__atomic_store_n(&h->lock, 0, __ATOMIC_RELEASE);
}

void *sg_shared_find(void *base, const char *name)
{
	struct sg_shared_hdr *h = base;
	unsigned int i;

	if (!h || h->magic != SG_SHARED_MAGIC)
		return 0;
	for (i = 0; i < h->ndir && i < SG_SHARED_DIR; i++)
		if (!sg_strcmp(h->dir[i].name, name))
			return (char *)h + h->dir[i].off;
	return 0;
}

void *sg_shared_alloc(const char *full, size_t size)
{
	struct sg_shared_hdr *h = (struct sg_shared_hdr *)sg.shared_base;
	void *p;

	if (!h)
		return 0;
	lock(h);
	p = sg_shared_find(h, full);
	if (!p && h->ndir < SG_SHARED_DIR &&
	    h->used + ((size + 63) & ~63UL) <= h->size) {
		struct sg_shared_ent *e = &h->dir[h->ndir];

		sg_strlcpy(e->name, full, sizeof(e->name));
		e->off = h->used;
		e->size = size;
		h->used += (size + 63) & ~63UL;
		p = (char *)h + e->off;
		__atomic_add_fetch(&h->ndir, 1, __ATOMIC_RELEASE);
	}
	unlock(h);
	return p;
}

void *sysgate_shared(struct sysgate_ctx *ctx, const char *name, size_t size)
{
	char full[SG_SHARED_NAME];
	size_t n;

	n = sg_strlcpy(full, ctx->hook->name ? ctx->hook->name : "", sizeof(full));
	if (n + 2 >= sizeof(full))
		return 0;
	full[n++] = '/';
	sg_strlcpy(full + n, name, sizeof(full) - n);
	return sg_shared_alloc(full, size);
}
