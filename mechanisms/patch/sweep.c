/* SPDX-License-Identifier: MIT */
/*
 * Reading text for branches: the linear sweep of a text mapping that
 * rv64's and aarch64's planners walk (patch.h), and the check of every
 * branch from elsewhere in an object against the sites planned in it.
 */
#include "engine.h"

/* --- linear sweep of a text mapping (rv64, aarch64) -------------------- */

#define SWEEP_MAX (64UL << 20)
#define SWEEP_BITS (SWEEP_MAX / SG_INSN_ALIGN / 8)

/* Without section headers (vDSO, memfd code) all of the mapping counts. */
static int in_code(unsigned long a, unsigned long code[][2], int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a >= code[i][0] && a < code[i][1])
			return 1;
	return n == 0;
}

void sg_text_sweep_release(struct sg_text_sweep *f)
{
	if (f->code) {
		sg_munmap(f->code, SWEEP_MAX);
		sg_munmap(f->starts, SWEEP_BITS);
		sg_munmap(f->targets, SWEEP_BITS);
	}
	memset(f, 0, sizeof(*f));
}

/* The bounds of o's text mapping holding addr (0, 0 if none). */
static void text_bounds(const struct sg_obj *o, unsigned long addr,
			unsigned long *start, unsigned long *end)
{
	int t;

	*start = *end = 0;
	for (t = 0; t < o->ntext; t++)
		if (addr >= o->text[t].lo && addr < o->text[t].hi) {
			*start = o->text[t].lo;
			*end = o->text[t].hi;
		}
}

/* The bitmaps of f's f->len bytes of code, from the arch's step. */
static void mark_insns(struct sg_text_sweep *f, struct sg_obj *o,
		       sg_sweep_step step)
{
	unsigned long len = f->len, off = 0, code[8][2];
	int nr;

	memset(f->starts, 0, (len / SG_INSN_ALIGN + 7) / 8);
	memset(f->targets, 0, (len / SG_INSN_ALIGN + 7) / 8);
	nr = sg_obj_code_ranges(o, code, 8);
	while (off < len) {
		long tg = SG_NO_TARGET;
		int n = in_code(f->start + off, code, nr) ?
				step(f->code + off, len - off, &tg) : 0;

		if (!n) {
			off += SG_INSN_ALIGN;
			continue;
		}
		sg_bitmap_set(f->starts, off / SG_INSN_ALIGN);
		if (tg != SG_NO_TARGET) {
			tg += (long)off;
			if (tg >= 0 && (unsigned long)tg < len)
				sg_bitmap_set(f->targets, tg / SG_INSN_ALIGN);
		}
		off += n;
	}
}

int sg_text_sweep(struct sg_text_sweep *f, struct sg_obj *o,
		  unsigned long addr, sg_sweep_step step)
{
	unsigned long start, end, len;
	long got;

	text_bounds(o, addr, &start, &end);
	if (f->obj == o && f->start == start && f->end == end)
		return f->ok;
	f->obj = o;
	f->start = start;
	f->end = end;
	f->ok = 0;
	len = end - start;
	if (!len || len > SWEEP_MAX || (start & (SG_INSN_ALIGN - 1)))
		return 0;
	if (!f->code) {
		f->code = sg_mmap(SWEEP_MAX);
		f->starts = sg_mmap(SWEEP_BITS);
		f->targets = sg_mmap(SWEEP_BITS);
		if (!f->code || !f->starts || !f->targets)
			return 0;
	}
	/* A text mapping may run past the end of its file: sweep what the
	 * file holds. */
	got = sg_obj_read(o, start, f->code, len);
	if (got <= 0)
		return 0;
	f->len = (unsigned long)got;
	mark_insns(f, o, step);
	f->ok = 1;
	return 1;
}

const unsigned char *sg_text_sweep_insn(const struct sg_text_sweep *f,
					unsigned long addr)
{
	unsigned long off = addr - f->start;

	if (!f->ok || addr < f->start || off >= f->len ||
	    (off & (SG_INSN_ALIGN - 1)) ||
	    !sg_bitmap_get(f->starts, off / SG_INSN_ALIGN))
		return 0;
	return f->code + off;
}

int sg_text_sweep_is_target(const struct sg_text_sweep *f, unsigned long addr)
{
	return f->ok && addr >= f->start && addr - f->start < f->len &&
	       sg_bitmap_get(f->targets, (addr - f->start) / SG_INSN_ALIGN);
}

/* --- branches from elsewhere in the object ----------------------------- */

/*
 * A jump over several instructions breaks any branch into its interior.
 * The arch checks branches in the site's own function and its rel8
 * neighbours; a rel32 branch may come from anywhere in the object (a
 * function's .cold part jumping back into it, hand-written assembly), so
 * every byte pattern that could encode one is checked here.  Patterns
 * are common (every call), interiors few: a bitmap of the 64-byte
 * blocks that hold an interior rejects nearly all of them at once.
 */
struct interior_check {
	struct sg_obj *o;
	int *idx;		/* interior sites, sorted by region start */
	int n;
	struct sg_target_filter f;	/* the blocks that hold an interior */
};

static void check_target(unsigned long target, void *arg)
{
	struct interior_check *c = arg;
	int lo = 0, hi = c->n - 1;

	/* Find the last region starting before target. */
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		struct sg_site *s = &c->o->sites[c->idx[mid]];

		if (s->lo < target) {
			if (target < s->hi) {
				sg_patch_arch.fallback(c->o, s);
				return;
			}
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
}

static void check_text(struct sg_obj *o, const unsigned char *p,
		       unsigned long n, unsigned long addr, void *arg)
{
	struct interior_check *c = arg;

	(void)o;
	sg_patch_arch.targets(p, n, addr, &c->f, check_target, arg);
}

/* The interior sites of o that an outside branch could break, into
 * c->idx sorted by region start, and the blocks that hold them. */
static void interior_sites(struct sg_obj *o, struct interior_check *c,
			   unsigned char *blocks)
{
	unsigned long a;
	int i, j;

	for (i = 0; i < o->nsites; i++)
		if (o->sites[i].interior && sg_site_has_stub(&o->sites[i]) &&
		    o->sites[i].kind != SG_PATCH_TRAP)
			c->idx[c->n++] = i;
	/* Insertion sort by region start (sites are mostly in order). */
	for (i = 1; i < c->n; i++)
		for (j = i; j > 0 && o->sites[c->idx[j - 1]].lo >
					     o->sites[c->idx[j]].lo; j--) {
			int t = c->idx[j];

			c->idx[j] = c->idx[j - 1];
			c->idx[j - 1] = t;
		}
	for (i = 0; i < c->n; i++) {
		struct sg_site *s = &o->sites[c->idx[i]];

		for (a = s->lo; a < s->hi; a += 1UL << SG_BLOCK_SHIFT)
			sg_bitmap_set(blocks, (a - o->lo) >> SG_BLOCK_SHIFT);
		sg_bitmap_set(blocks, (s->hi - 1 - o->lo) >> SG_BLOCK_SHIFT);
	}
}

void sg_patch_check_branches(struct sg_obj *o)
{
	struct interior_check c = { o, 0, 0, { o->lo, 0, 0, SG_BLOCK_SHIFT } };
	unsigned char *blocks;
	unsigned long bsize;

	c.f.nblocks = ((o->hi - o->lo) >> SG_BLOCK_SHIFT) + 1;
	bsize = c.f.nblocks / 8 + 1;
	c.idx = sg_mmap((o->nsites + 1) * sizeof(int));
	c.f.blocks = blocks = sg_mmap(bsize);
	if (c.idx && blocks) {
		interior_sites(o, &c, blocks);
		/* (the longest pattern is 6 bytes) */
		if (c.n)
			sg_patch_each_text(o, 16, check_text, &c);
	}
	if (c.idx)
		sg_munmap(c.idx, (o->nsites + 1) * sizeof(int));
	if (blocks)
		sg_munmap(blocks, bsize);
}
