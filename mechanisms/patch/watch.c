/* SPDX-License-Identifier: MIT */
/*
 * What syscall user dispatch still has to catch.  SUD taxes every system
 * call of the process (~45 ns here), so it is on only while some code
 * that may enter the kernel has no patch:
 *   - sites: exact addresses, e.g. each `0f 05` pair in run-time code
 *     (JIT), an unverified candidate or an unpatched site of an ELF
 *     object; one leaves when it is lazily patched or its memory changes;
 *   - ranges: code that may change unseen (write+exec, shared, file
 *     pages that are not an ELF object we planned), or an object whose
 *     unverified candidates a cached plan did not list; they leave only
 *     when their memory is unmapped or re-protected.
 * When both are empty the patch mechanism turns SUD off in every thread
 * (patch.c), and on again when new code brings something back.
 *
 * Called from the SIGSYS handler and from calls that change memory, in
 * any thread: a lock of its own (lock.c), never held while another is
 * taken.
 */
#include "patch.h"

#define SITES_MAX 65536
#define RANGES_MAX 4096

struct range {
	unsigned long lo, hi;
};

static struct {
	struct sg_patch_lock lock;
	int used;		/* something was ever watched */
	int full;		/* a table overflowed: never empty again */
	unsigned long *sites;
	int nsites;
	struct range *ranges;
	int nranges;
} w;

static void lock(void)
{
	sg_patch_lock_take(&w.lock, 1);
}

static void unlock(void)
{
	sg_patch_lock_drop(&w.lock);
}

/* Under the lock: the tables, made on first use; 0 once full. */
static int room(void)
{
	if (!w.sites && !w.full) {
		w.sites = sg_mmap(SITES_MAX * sizeof(*w.sites));
		w.ranges = sg_mmap(RANGES_MAX * sizeof(*w.ranges));
		w.full = !w.sites || !w.ranges;
		__atomic_store_n(&w.used, 1, __ATOMIC_RELEASE);
	}
	return !w.full;
}

static void add_site(unsigned long addr)
{
	int i;

	if (!room())
		return;
	for (i = 0; i < w.nsites; i++)
		if (w.sites[i] == addr)
			return;
	if (w.nsites == SITES_MAX)
		w.full = 1;
	else
		w.sites[w.nsites++] = addr;
}

static void add_range(unsigned long lo, unsigned long hi)
{
	if (!room())
		return;
	if (w.nranges == RANGES_MAX)
		w.full = 1;
	else
		w.ranges[w.nranges++] = (struct range){ lo, hi };
}

void sg_watch_site(unsigned long addr)
{
	lock();
	add_site(addr);
	unlock();
}

void sg_watch_range(unsigned long lo, unsigned long hi)
{
	lock();
	add_range(lo, hi);
	unlock();
}

void sg_watch_patched(unsigned long addr)
{
	int i;

	lock();
	for (i = 0; i < w.nsites; i++)
		if (w.sites[i] == addr)
			w.sites[i--] = w.sites[--w.nsites];
	unlock();
}

/* Something watched in [from, hi)?  Also read without the lock: one
 * missed while another thread rearranges the tables stays watched a
 * while longer, which only keeps SUD on. */
static int watched_in(unsigned long from, unsigned long hi)
{
	int i, n = __atomic_load_n(&w.nsites, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (w.sites[i] >= from && w.sites[i] < hi)
			return 1;
	n = __atomic_load_n(&w.nranges, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		if (w.ranges[i].lo < hi && w.ranges[i].hi > from)
			return 1;
	return 0;
}

int sg_watch_forget(unsigned long lo, unsigned long hi)
{
	/* a site whose bytes reach into [lo, hi) changes too */
	unsigned long from = lo - (SG_SYSCALL_INSN_LEN - 1);
	int i, n, dropped = 0;

	/* (every munmap comes here: most processes never watch a thing,
	 * and most calls change nothing watched) */
	if (!__atomic_load_n(&w.used, __ATOMIC_ACQUIRE) ||
	    !watched_in(from, hi))
		return 0;
	lock();
	for (i = 0; i < w.nsites; i++)
		if (w.sites[i] >= from && w.sites[i] < hi) {
			w.sites[i--] = w.sites[--w.nsites];
			dropped = 1;
		}
	for (i = 0, n = w.nranges; i < n; i++) {
		struct range r = w.ranges[i];

		if (r.lo >= hi || r.hi <= lo)
			continue;
		dropped = 1;
		w.ranges[i--] = w.ranges[--w.nranges];
		n--;
		/* what is left on either side stays watched */
		if (r.lo < lo)
			add_range(r.lo, lo);
		if (r.hi > hi)
			add_range(hi, r.hi);
	}
	unlock();
	return dropped;
}

void sg_watch_settle(int may_disable)
{
	/* Never watched: SUD was never turned on for it. */
	if (!__atomic_load_n(&w.used, __ATOMIC_ACQUIRE))
		return;
	lock();
	if (w.full || w.nsites || w.nranges)
		sg_sud_enable();
	else if (may_disable)
		sg_sud_disable();
	unlock();
}

/* Every pair in [lo, hi) that may enter the kernel, read through buf;
 * -1 if some of it cannot be read. */
static int add_pairs(unsigned long lo, unsigned long hi, unsigned char *buf,
		     unsigned long size)
{
	unsigned long a, n;
	long k, done;
	int added = 0;

	for (a = lo; a + 1 < hi; a += size - (SG_SYSCALL_INSN_LEN - 1)) {
		n = hi - a < size ? hi - a : size;
		if (sg_read_safe(buf, (const void *)a, n) < 0)
			return -1;
		for (done = 0;
		     (k = sg_patch_arch.next_trap(buf + done, n - done)) >= 0;
		     done += k + 1, added++)
			add_site(a + done + k);
	}
	return added;
}

int sg_watch_code(unsigned long lo, unsigned long hi, unsigned char *buf,
		  unsigned long size)
{
	unsigned long edge = SG_SYSCALL_INSN_LEN - 1;
	struct sg_mapping_info m;
	int known = sg_maps_info(lo, &m) == 0, added, k;

	if (known && !(m.prot & PROT_X))
		return 0;
	lock();
	/* Only code that cannot change unseen is watched pair by pair: a
	 * change takes an mprotect or mmap, which comes back here. */
	if (!known || m.shared || !m.anon || (m.prot & PROT_W) ||
	    !(m.prot & PROT_R) || hi > m.hi ||
	    (added = add_pairs(lo, hi, buf, size)) < 0) {
		add_range(lo, hi);
		added = 1;
	} else {
		/* pairs that straddle either end (where readable) */
		k = add_pairs(lo - edge, lo + edge, buf, size);
		added += k > 0 ? k : 0;
		k = add_pairs(hi - edge, hi + edge, buf, size);
		added += k > 0 ? k : 0;
	}
	unlock();
	return added;
}
