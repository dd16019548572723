/* SPDX-License-Identifier: MIT */
/*
 * Memory shared by every process of the hooked tree, for counters and
 * summaries (sysgate_shared).  It is a memfd: no file in a shared
 * directory that another user could create first, follow or read, and
 * nothing left behind however the tree ends.  The process that makes it
 * (the CLI when it needs one, or else the root process when a hook first
 * asks for shared memory) formats the header;
 * followed programs inherit the descriptor across execve and find it in
 * SYSGATE_STATE ("fd:N"), and each checks the header before use.
 * Regions are named and bump-allocated; allocation takes a spinlock, which
 * only init-time code ever does.
 */
#include "sg.h"
#include "shared.h"

#define PROT_RW_ 3
#define MAP_SHARED_ 1
#define MFD_CLOEXEC_ 1
#define S_IFMT_ 0170000
#define S_IFREG_ 0100000
#define F_GET_SEALS_ 1034

/* The header as a process of the tree may trust it: ours, formatted, and
 * every field inside the mapping. */
static int header_ok(const struct sg_shared_hdr *h)
{
	unsigned int i, n = __atomic_load_n(&h->ndir, __ATOMIC_ACQUIRE);

	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != SG_SHARED_MAGIC ||
	    h->size < SG_SHARED_MIN || h->size > SG_SHARED_SIZE ||
	    h->used < sizeof(*h) ||
	    h->used > h->size || n > SG_SHARED_DIR || h->lock > 1)
		return 0;
	for (i = 0; i < n; i++)
		if (h->dir[i].off < sizeof(*h) || h->dir[i].off > h->used ||
		    h->dir[i].size > h->used - h->dir[i].off)
			return 0;
	return 1;
}

static void *map_fd(long fd, unsigned long size)
{
	long p = sg_sc6(SG_NR_mmap, 0, size, PROT_RW_, MAP_SHARED_, fd, 0);

	return sysgate_is_error(p) ? 0 : (void *)p;
}

long sg_shared_create(void)
{
	struct sg_shared_hdr *h;
	/* Every process of the tree maps it: under a tight RLIMIT_AS a
	 * small one (the count table needs a few KiB; the hot-site table,
	 * where it does not fit, is kept per process). */
	unsigned long size = sg_mem_fit(SG_SHARED_SIZE, SG_SHARED_MIN);
	long fd = sg_sc2(SG_NR_memfd_create, (long)"sysgate-state",
			 MFD_CLOEXEC_);

	if (fd < 0)
		return fd;
	if (sg_sc2(SG_NR_ftruncate, fd, size) < 0 || !(h = map_fd(fd, size))) {
		sg_sc1(SG_NR_close, fd);
		return -12;	/* ENOMEM */
	}
	h->size = size;
	h->used = sizeof(*h);
	h->lock = 0;
	h->ndir = 0;
	__atomic_store_n(&h->magic, SG_SHARED_MAGIC, __ATOMIC_RELEASE);
	sg.shared_base = (char *)h;
	sg.shared_size = size;
	return fd;
}

int sg_shared_attach(long fd)
{
	struct sg_fd_stat st;
	void *h;

	/* A memfd of one of our sizes: no file anyone could have put in our
	 * way (its owner may differ: a followed su keeps counting). */
	if (fd < 0 || sg_sc2(SG_NR_fcntl, fd, F_GET_SEALS_) < 0 ||
	    sg_fd_stat(fd, &st) < 0 || (st.mode & S_IFMT_) != S_IFREG_ ||
	    st.size < SG_SHARED_MIN || st.size > SG_SHARED_SIZE)
		return -22;	/* EINVAL: not a state sysgate made */
	h = map_fd(fd, st.size);
	if (!h)
		return -12;
	if (!header_ok(h) || ((struct sg_shared_hdr *)h)->size != st.size) {
		sg_munmap(h, st.size);
		return -22;
	}
	sg.shared_base = h;
	sg.shared_size = st.size;
	if (sg.stats && sg.is_root && st.size < SG_SHARED_SIZE)
		sg_warn("RLIMIT_AS is tight: sysgate keeps its regions small "
			"(the shared state; stubs)");
	return 0;
}

/*
 * How the CLI knows a followed tree is over without being its subreaper
 * (which would change what the kernel does to orphaned process groups):
 * every open file description of the state that the tree holds carries a
 * shared OFD lock, released by the kernel when the last process holding
 * it (by descriptor or mapping) is gone; the CLI waits for a write lock
 * through a description of its own.  fd is returned.
 */
long sg_shared_hold(long fd)
{
	struct {
		short type, whence;
		long start, len;
		int pid;
	} rd = { 0 /* F_RDLCK */, 0 /* SEEK_SET */, 0, 0, 0 };

	if (fd >= 0)
		sg_sc3(SG_NR_fcntl, fd, 37 /* F_OFD_SETLK */, (long)&rd);
	return fd;
}

/*
 * The state's descriptor again, from this process's mapping of it
 * (/proc/self/map_files/LO-HI): where that is allowed (CAP_CHECKPOINT_RESTORE
 * or CAP_SYS_ADMIN), the program need not hold one between execs.  A new
 * description: held for the tree (sg_shared_hold).
 */
long sg_shared_reopen(void)
{
	unsigned long lo = (unsigned long)sg.shared_base;
	char a[24], b[24], range[48], path[80];

	if (!sg.shared_base)
		return -2;	/* ENOENT */
	sg_strjoin(range, sizeof(range), sg_xtoa(a + sizeof(a), lo), "-",
		   sg_xtoa(b + sizeof(b), lo + sg.shared_size));
	sg_strjoin(path, sizeof(path), "/proc/self/map_files/", range, "");
	return sg_shared_hold(sg_sc4(SG_NR_openat, -100, (long)path,
				     02 /* O_RDWR */ | 02000000 /* O_CLOEXEC */,
				     0));
}

/*
 * A process that mapped the state closed its descriptor where it can open
 * it again (above), but the calls below can take that away: setuid and
 * its kin, capset, a new user namespace (whose capabilities are not the
 * first namespace's), or setns into one.  su's child drops to the user's
 * ids and then runs the shell: its execve could not open the state, and
 * the shell started a tree of its own, with lines of its own order and no
 * pid prefix.  So before such a call the descriptor is taken again and
 * kept (hidden, as where reopening never worked).
 */
static int may_drop_reopen(const struct sysgate_sys *s)
{
	unsigned long flags = 0;

	switch (s->nr) {
	case SG_NR_setuid:
	case SG_NR_setreuid:
	case SG_NR_setresuid:
	case SG_NR_setfsuid:
	case SG_NR_capset:
	case SG_NR_setns:
		return 1;
	case SG_NR_unshare:
	case SG_NR_clone:
		return (s->args[0] & 0x10000000 /* CLONE_NEWUSER */) != 0;
	case SG_NR_clone3:
		return sg_read_safe(&flags, (const void *)s->args[0],
				    sizeof(flags)) >= 0 &&
		       (flags & 0x10000000) != 0;
	}
	return 0;
}

void sg_shared_keep_for(const struct sysgate_sys *s)
{
	int none = -1;
	long fd;

	if (__atomic_load_n(&sg.state_fd, __ATOMIC_ACQUIRE) >= 0 ||
	    !sg.shared_base || !may_drop_reopen(s))
		return;
	fd = sg_shared_reopen();
	if (fd < 0)
		return;
	fd = sg_fd_hide(fd);
	/* (another thread may have kept one meanwhile) */
	if (!__atomic_compare_exchange_n(&sg.state_fd, &none, (int)fd, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		sg_sc1(SG_NR_close, fd);
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

	if (!h || !header_ok(h))
		return 0;
	for (i = 0; i < h->ndir && i < SG_SHARED_DIR; i++)
		if (!sg_strncmp(h->dir[i].name, name, SG_SHARED_NAME))
			return (char *)h + h->dir[i].off;
	return 0;
}

void *sg_shared_alloc(const char *full, size_t size)
{
	struct sg_shared_hdr *h = (struct sg_shared_hdr *)sg.shared_base;
	void *p;

	if (!h && sg.is_root && !sg.state_fd) {
		long fd = sg_shared_create();

		sg.state_fd = fd < 0 ? -1 : sg_fd_hide(fd);
		h = (struct sg_shared_hdr *)sg.shared_base;
	}
	if (!h)
		return 0;
	lock(h);
	p = sg_shared_find(h, full);
	if (!p && h->ndir < SG_SHARED_DIR && size <= h->size &&
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
