/* SPDX-License-Identifier: MIT */
/*
 * aarch64 site planning and stub encoding for the patch mechanism.
 *
 * `svc #0` is one aligned 4-byte word and `b` reaches ±128 MiB, so every
 * site is patched alone: the svc becomes `b <stub>` (kind "branch"), which
 * writes no register -- no link register, no scratch -- and no neighbour
 * moves, so no branch from elsewhere can land inside a patch.  The site's
 * stub knows its return address:
 *
 *   +0   stp  x30, xzr, [sp, #-16]!     push the program's x30
 *   +4   adrp x30, hdr                  region header: sysgate's entries
 *   +8   ldr  x30, [x30, #:lo12:hdr]
 *   +12  blr  x30                       sg_a64_entry (entry.S)
 *   +16  .8byte site, raw               the descriptor
 *   +32  ldr  x30, [sp], #16            post: pop
 *   +36  b    site+4                    (a trapped site: brk, see below)
 *   +40  raw: ldp x30, x16, [sp], #16   entry.S left x16 in the push
 *   +44  svc  #0                        clone/vfork/rt_sigreturn run here,
 *   +48  stp  x30, xzr, [sp, #-16]!     at the program's own sp
 *   +52  adrp x30, hdr
 *   +56  ldr  x30, [x30, #:lo12:hdr+8]
 *   +60  blr  x30                       sg_a64_after_raw
 *   +64  .8byte site, raw
 *   +80  b    +32
 *
 * The entry saves every register, NZCV included, and restores all but x0.
 * Stubs are written while their region is read+write and then made
 * read+exec (never both); every written range is flushed from the data
 * cache to the point of unification and invalidated in the instruction
 * cache (sg_arch_flush_code).
 *
 * A site whose stub region is out of `b` reach becomes a trap (`brk`,
 * SIGTRAP, counted in --stats): its stub may then live anywhere, and it
 * returns through a second `brk` at +36 whose handler resumes at site+4.
 */
#include "patch.h"
#include "decode.h"
#include "context.h"

extern char sg_a64_entry[], sg_a64_after_raw[];

#define X8 8
#define BRK_SG 0x5347	/* "SG": the immediate of sysgate's breakpoints */
#define STUB_BYTES 84
#define TRAP_BACK_OFF 36
#define STATIC_NR_WINDOW 16

/*
 * The text mapping swept last (sites come in address order): its code
 * and a bitmap of direct branch targets, one bit per word, so that the
 * number in x8 is only believed where no other path joins between the
 * `mov x8` and the svc.
 */
static struct sg_text_sweep fn;

static void arch_release(void)
{
	sg_text_sweep_release(&fn);
}

static long arch_scan(const unsigned char *buf, unsigned long len)
{
	unsigned long i;

	for (i = 0; i + 4 <= len; i += 4)
		if (a64_word(buf + i) == A64_SVC0)
			return i;
	return -1;
}

/* One word of the sweep: its length and any direct branch target. */
static int sweep_insn(const unsigned char *p, unsigned long avail, long *tg)
{
	struct a64_insn in;
	long off;

	if (avail < 4)
		return 0;
	a64_decode(p, &in);
	if (a64_branch_offset(&in, &off))
		*tg = off;
	return 4;
}

static int word_at(unsigned long addr, struct a64_insn *in, uint32_t *w)
{
	const unsigned char *p = sg_text_sweep_insn(&fn, addr);

	if (!p)
		return 0;
	*w = a64_word(p);
	a64_decode(p, in);
	return 1;
}

/*
 * The number in x8 at the svc, if straight-line code sets it with one
 * `mov x8/w8, #imm` (movz or movn); -1 otherwise.  A branch target or a
 * landing pad between the two, any branch, or any word that may write
 * x8 ends the walk.
 */
static int static_nr(unsigned long addr)
{
	unsigned long cur = addr;
	int i;

	for (i = 0; i < STATIC_NR_WINDOW; i++) {
		struct a64_insn in;
		uint32_t w;

		if (sg_text_sweep_is_target(&fn, cur))
			return -1;	/* another path joins here */
		cur -= 4;
		if (!word_at(cur, &in, &w))
			return -1;
		if (in.kind == A64_MOVW && in.rd == X8)
			return in.imm >= 0 && in.imm < SYSGATE_NR_MAX ?
				       (int)in.imm : -1;
		if (in.kind != A64_OTHER || a64_may_write(w, &in, X8))
			return -1;
	}
	return -1;
}

static int arch_plan(struct sg_obj *o, unsigned long addr, struct sg_site *s)
{
	struct a64_insn in;
	uint32_t w;

	if (addr & 3)
		return 0;
	if (!sg_text_sweep(&fn, o, addr, sweep_insn))
		return -1;
	if (!word_at(addr, &in, &w) || w != A64_SVC0)
		return 0;
	s->addr = addr;
	s->insn_len = 4;
	s->lo = addr;
	s->hi = addr + 4;
	s->interior = 0;
	s->nr = static_nr(addr);
	s->kind = s->planned = SG_PATCH_BRANCH;
	if (sg_obj_read(o, s->lo, s->orig, 4) != 4)
		s->kind = s->planned = SG_PATCH_NONE;
	return 1;
}

/* Never called for a site alone in its word; a trap if it ever is. */
static void arch_fallback(struct sg_obj *o, struct sg_site *s)
{
	(void)o;
	s->why = SG_WHY_BRANCH_IN;
	s->kind = s->planned = SG_PATCH_TRAP;
}

/* Every direct branch in buf (whole words from a word boundary). */
static void arch_targets(const unsigned char *buf, unsigned long len,
			 unsigned long addr, const struct sg_target_filter *f,
			 void (*cb)(unsigned long target, void *arg),
			 void *arg)
{
	unsigned long off = (4 - (addr & 3)) & 3;

	for (; off + 4 <= len; off += 4) {
		struct a64_insn in;
		long d;

		a64_decode(buf + off, &in);
		if (a64_branch_offset(&in, &d) &&
		    sg_target_wanted(f, addr + off + d))
			cb(addr + off + d, arg);
	}
}

/* Every site stands alone. */
static void arch_finish(struct sg_obj *o)
{
	(void)o;
}

/* --- encoding ---------------------------------------------------------- */

static unsigned long arch_stub_size(const struct sg_site *s)
{
	(void)s;
	return STUB_BYTES;
}

static void put(unsigned char *p, unsigned long off, uint32_t w)
{
	p[off] = w;
	p[off + 1] = w >> 8;
	p[off + 2] = w >> 16;
	p[off + 3] = w >> 24;
}

/* stp; adrp; ldr; blr through the header word at ptr, then the
 * descriptor: 32 bytes at off. */
static void call_desc(unsigned char *p, unsigned long at, unsigned long off,
		      const struct sg_site *s, unsigned long ptr,
		      unsigned long raw)
{
	long page = (long)(ptr >> 12) - (long)((at + off + 4) >> 12);
	struct sg_site_desc d = { s->addr, raw };

	put(p, off, A64_PUSH_LR);
	put(p, off + 4, a64_enc_adrp(A64_X30, page));
	put(p, off + 8, a64_enc_ldr_uimm(A64_X30, A64_X30, ptr & 0xfff));
	put(p, off + 12, A64_BLR_LR);
	memcpy(p + off + 16, &d, sizeof(d));
}

static void arch_emit(const struct sg_site *s, unsigned char *p,
		      unsigned long at, unsigned long entry_ptr,
		      unsigned long after_ptr)
{
	unsigned long raw = at + 40;

	call_desc(p, at, 0, s, entry_ptr, raw);
	put(p, 32, A64_POP_LR);
	if (s->kind == SG_PATCH_TRAP)
		put(p, TRAP_BACK_OFF, a64_enc_brk(BRK_SG));
	else
		put(p, 36, a64_enc_b((long)(s->addr + 4) - (long)(at + 36)));
	put(p, 40, A64_POP_LR_X16);
	put(p, 44, A64_SVC0);
	call_desc(p, at, 48, s, after_ptr, raw);
	put(p, 80, a64_enc_b(32 - 80));
}

static void arch_site_bytes(const struct sg_site *s, unsigned char *out)
{
	put(out, 0, a64_enc_b((long)s->stub - (long)s->addr));
}

static int arch_pad_bytes(const struct sg_site *s, unsigned char *out)
{
	(void)s;
	(void)out;
	return 0;
}

static int arch_trap_bytes(const struct sg_site *s, unsigned char *out)
{
	(void)s;
	put(out, 0, a64_enc_brk(BRK_SG));
	return 4;
}

/*
 * Make [lo, hi) visible to instruction fetch on every core: clean the
 * data cache to the point of unification, invalidate the instruction
 * cache, by the line sizes CTR_EL0 gives (Linux lets EL0 do both).
 */

/* This ISA's part of the rewriting engine (patch.h). */
const struct sg_patch_arch sg_patch_arch = {
	SG_PATCH_ARCH_FUNCS,
	.trap_back = TRAP_BACK_OFF,
	.trap_far = 1,		/* trap stubs return through a second trap */
	.entry = (unsigned long)sg_a64_entry,
	.after = (unsigned long)sg_a64_after_raw,
	.relay = 0,		/* no relays */
	.next_trap = arch_scan,	/* a candidate is the only way in */
};
