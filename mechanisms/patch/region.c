/* SPDX-License-Identifier: MIT */
/*
 * Stub regions: anonymous mappings near the code, within the reach of
 * a site's jump, that hold the stubs.  Each starts with the three words
 * stubs call through (the arch's entry, after and relay), since sysgate
 * itself may be far away.  A stub, once placed, is never reused.
 */
#include "engine.h"

static struct sg_region regions[64];
static int nregions;
static unsigned long reach = SG_STUB_REACH;

static unsigned long distance(unsigned long a, unsigned long b)
{
	return a > b ? a - b : b - a;
}

void sg_region_reach(long mib)
{
	reach = mib >= 0 ? (unsigned long)mib << 20 : SG_STUB_REACH;
}

int sg_region_in_reach(unsigned long a, unsigned long b, unsigned long margin)
{
	return distance(a, b) + margin < reach;
}

static int region_reaches(const struct sg_region *r, const struct sg_obj *o)
{
	return sg_region_in_reach(r->base, o->lo, 1UL << 24) &&
	       sg_region_in_reach(r->base + r->size, o->hi, 1UL << 24);
}

static struct sg_region *map_region(long p, unsigned long size)
{
	struct sg_region *r = &regions[nregions++];
	unsigned long *hdr = (unsigned long *)p;

	r->base = p;
	r->size = size;
	r->used = 64;
	hdr[0] = sg_patch_arch.entry;
	hdr[1] = sg_patch_arch.after;
	hdr[2] = sg_patch_arch.relay;
	return r;
}

static struct sg_region *new_region(const struct sg_obj *o, unsigned long size)
{
	long step;

	size = (size + 0xffff) & ~0xffffUL;
	if (nregions == (int)ARRAY_SIZE(regions))
		return 0;
	/* Try just after the object, then before it, in 1 MiB steps (the
	 * hint is only tried where it could still be in reach). */
	for (step = 0; step < 1024 && (unsigned long)step << 20 < reach;
	     step++) {
		unsigned long hint[2] = {
			((o->hi + 0xfffff) & ~0xfffffUL) + step * 0x100000UL,
			((o->lo & ~0xfffffUL) - size) - step * 0x100000UL,
		};
		int k;

		for (k = 0; k < 2; k++) {
			long p = sg_sc6(SG_NR_mmap, hint[k], size, PROT_R | PROT_W,
					MAP_PRIVATE_ANON | MAP_FIXED_NOREPLACE,
					-1, 0);

			if (sysgate_is_error(p))
				continue;
			if (sg_region_in_reach(p, o->lo, size) &&
			    sg_region_in_reach(p + size, o->hi, size))
				return map_region(p, size);
			sg_munmap((void *)p, size);
		}
	}
	return 0;
}

struct sg_region *sg_region_for(const struct sg_obj *o, unsigned long need)
{
	unsigned long size;
	int i;

	for (i = 0; i < nregions; i++)
		if (region_reaches(&regions[i], o) &&
		    regions[i].size - regions[i].used >= need)
			return &regions[i];
	/* (smaller under a tight RLIMIT_AS: see sg_mem_fit) */
	size = sg_mem_fit(1UL << 20, 64UL << 10);
	return new_region(o, need > size ? need : size);
}

struct sg_region *sg_region_anywhere(unsigned long need)
{
	long p;

	if (nregions == (int)ARRAY_SIZE(regions))
		return 0;
	need = (need + 0xffff) & ~0xffffUL;
	p = sg_sc6(SG_NR_mmap, 0, need, PROT_R | PROT_W, MAP_PRIVATE_ANON, -1, 0);
	return sysgate_is_error(p) ? 0 : map_region(p, need);
}

int sg_region_has(unsigned long pc)
{
	int i, n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (pc - regions[i].base < regions[i].size)
			return 1;
	return 0;
}
