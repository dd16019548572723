/* SPDX-License-Identifier: MIT */
/*
 * x86-64 site planning and stub encoding for the patch mechanism.
 *
 * A candidate `0f 05` is a real system call only if decoding the function
 * that contains it (found through .eh_frame), following its control flow
 * from the function's start, reaches it as an instruction start.  Bytes
 * after a `ret` or in a jump table are never reached, so never patched.
 *
 * Patch choices, in order:
 *   jump      a 5-byte `jmp rel32` over the syscall and relocatable
 *             neighbours (mostly `mov $nr,%eax; syscall`), when no branch
 *             in the function, its neighbours or (checked later by
 *             sweep.c) anywhere in the object lands inside those bytes;
 *   padding   `jmp rel8` over the syscall alone into function padding
 *             within 127 bytes, which holds a `jmp rel32` to the stub;
 *   none      reported; a slower catch takes over (see patch.c).
 *
 * Every stub is:
 *     <displaced instructions before the syscall>
 *     lea -0x80(%rsp),%rsp           step over the red zone, flags intact
 *     jmp 1f
 *     .quad next, raw                the site descriptor, just before the
 *  1: call *entry(%rip)              call -> sg_x86_entry, which returns
 *     lea 0x80(%rsp),%rsp            where the call pushed: the return
 *                                    predictor gets every return right
 *   post:
 *     <displaced instructions after it>   (rel8 branches widened)
 *     jmp <end of patched bytes>
 *   raw:                             for calls run at the program's rsp
 *     syscall
 *     lea -0x80(%rsp),%rsp
 *     jmp 1f; .quad next, raw
 *  1: call *after(%rip)              -> sg_x86_after_raw
 *     lea 0x80(%rsp),%rsp
 *     jmp post
 *
 * -m zeropage (mechanisms/zeropage): a site whose function is proven
 * never to reach below %rsp (x86_redzone_scan) becomes `call *%rax` in
 * place of the syscall, and page 0 jumps to its stub, which first checks
 * that the call came from its site and takes the return address back:
 *     mov (%rsp),%r11
 *     movabs $-(site+2),%rcx
 *     lea (%r11,%rcx),%rcx           0 iff the return address matches
 *     jrcxz 1f                       (no flag changes)
 *     movabs $miss,%r11              another site's stub, or a fault
 *     jmp *%r11
 *  1: pop %rcx                       the program's rsp exactly
 *     <the stub above, with nothing displaced, except its two ends:>
 *     lea -8(%rsp),%rsp              the return address is still below
 *     ret                            rsp (red zone: nothing writes it), so
 *                                    `ret` pairs with the site's call and
 *                                    the return predictor stays in step
 *   raw: ...                         (after clone/vfork a child may have
 *     jmp <site+2>                   written there: jump back instead)
 */
#include "patch.h"
#include "decode.h"
#include "context.h"
#include "zeropage.h"

extern char sg_x86_entry[], sg_x86_after_raw[];

#define MAX_FUNC (1UL << 20)
#define MAX_WINDOW 4		/* instructions on each side of the syscall */
#define JMP32 5

/* The function decoded last: sites come in address order, so several
 * sites of one function share one analysis. */
static struct func {
	struct sg_obj *obj;
	unsigned long start, end;
	int tricky;		/* indirect jumps or landing pads */
	int ok;
	int zwhy;		/* SG_ZWHY_* once scanned, else -1 */
	const unsigned char *code;	/* [start, end): in place, or buf */
	unsigned char *buf;
	unsigned char *starts;	/* bitmap: instruction starts */
	unsigned char *targets;	/* bitmap: direct branch targets */
	unsigned long *work;
} fn;

static int bit(const unsigned char *m, unsigned long i)
{
	return (m[i >> 3] >> (i & 7)) & 1;
}

static void set(unsigned char *m, unsigned long i)
{
	m[i >> 3] |= 1 << (i & 7);
}

static void exits_forget(void);

/* fn's buffers, in one mapping kept for the process: planning comes
 * back at every first trap and every library mapped, and a mapping made
 * and unmapped each time cost more than the planning (see release). */
#define ARENA (MAX_FUNC + MAX_FUNC / 8 + MAX_FUNC / 8 + MAX_FUNC / 2)
static unsigned char *arena;
/* The bytes of each buffer written since the last release: code read
 * into buf, the bitmaps, the work stack. */
static unsigned long used_buf, used_bits, used_work;

static void arch_release(void)
{
	exits_forget();
	/* (analyse clears the part of the bitmaps it uses) */
	if (arena) {
		sg_patch_drop_tail(arena, used_buf);
		sg_patch_drop_tail(arena + MAX_FUNC, used_bits);
		sg_patch_drop_tail(arena + MAX_FUNC + MAX_FUNC / 8, used_bits);
		sg_patch_drop_tail(arena + MAX_FUNC + MAX_FUNC / 4, used_work);
	}
	used_buf = used_bits = used_work = 0;
	memset(&fn, 0, sizeof(fn));
}

/*
 * Scans eight bytes at a time in general registers (planning may run
 * inside a hooked call, where the program's vector registers are live).
 * zeros() marks each zero byte of v exactly: no borrow between bytes.
 */
typedef unsigned long __attribute__((may_alias, aligned(1))) unaligned_word;
/* (a load, not a call: -fno-builtin makes memcpy a real call) */
typedef int __attribute__((may_alias, aligned(1))) unaligned_int;

#define ONES 0x0101010101010101UL
#define LOW7 0x7f7f7f7f7f7f7f7fUL

static unsigned long zeros(unsigned long v)
{
	return ~(((v & LOW7) + LOW7) | v | LOW7);
}

static unsigned long equal(unsigned long v, unsigned char c)
{
	return zeros(v ^ (c * ONES));
}

/* 0x80 in the byte of each position i of p[0..8) where p[i], p[i+1] is
 * 0f 05 (syscall), 0f 34 (sysenter) or cd 80 (int $0x80, a 32-bit call);
 * reads p[0..9). */
static unsigned long syscall_pairs(const unsigned char *p)
{
	unsigned long w = *(const unaligned_word *)p;
	unsigned long n = *(const unaligned_word *)(p + 1);

	return (equal(w, 0x0f) & (equal(n, 0x05) | equal(n, 0x34))) |
	       (equal(w, 0xcd) & equal(n, 0x80));
}

static long arch_scan(const unsigned char *buf, unsigned long len)
{
	unsigned long i = 0, m;

	for (; i + 9 <= len; i += 8)
		if ((m = syscall_pairs(buf + i)))
			return i + __builtin_ctzl(m) / 8;
	for (; i + 1 < len; i++)
		if ((buf[i] == 0x0f && (buf[i + 1] == 0x05 || buf[i + 1] == 0x34)) ||
		    (buf[i] == 0xcd && buf[i + 1] == 0x80))
			return i;
	return -1;
}

static int analyse(struct sg_obj *o, unsigned long start, unsigned long end,
		   int lsda)
{
	unsigned long len = end - start, sp = 0;

	if (fn.obj == o && fn.start == start && fn.end == end)
		return fn.ok;
	fn.obj = o;
	fn.start = start;
	fn.end = end;
	fn.ok = 0;
	fn.zwhy = -1;
	fn.tricky = lsda;
	if (len > MAX_FUNC)
		return 0;
	if (!arena && !(arena = sg_mmap(ARENA)))
		return 0;
	fn.buf = arena;
	fn.starts = arena + MAX_FUNC;
	fn.targets = fn.starts + MAX_FUNC / 8;
	fn.work = (unsigned long *)(fn.targets + MAX_FUNC / 8);
	fn.code = (const unsigned char *)start;
	if (sg_obj_view(o, start, len) != len) {
		used_buf = len > used_buf ? len : used_buf;
		if (sg_obj_read(o, start, fn.buf, len) != (long)len)
			return 0;
		fn.code = fn.buf;
	}
	memset(fn.starts, 0, (len + 7) / 8);
	memset(fn.targets, 0, (len + 7) / 8);
	used_bits = (len + 7) / 8 > used_bits ? (len + 7) / 8 : used_bits;
	fn.work[sp++] = 0;
	while (sp) {
		unsigned long off = fn.work[--sp];

		while (off < len && !bit(fn.starts, off)) {
			struct x86_insn in;
			long tgt;
			int n = x86_decode_flow(fn.code + off, len - off, &in);

			if (!n)
				break;
			set(fn.starts, off);
			tgt = (long)off + in.target;
			if (in.kind == X86_JMP || in.kind == X86_JCC ||
			    in.kind == X86_CALL) {
				if (tgt >= 0 && (unsigned long)tgt < len) {
					set(fn.targets, tgt);
					if (sp < MAX_FUNC / 16)
						fn.work[sp++] = tgt;
					if (sp * 8 > used_work)
						used_work = sp * 8;
				}
				if (in.kind == X86_JMP)
					break;
			} else if (in.kind == X86_RET || in.kind == X86_STOP ||
				   in.kind == X86_INT3) {
				break;
			} else if (in.kind == X86_JMP_IND) {
				fn.tricky = 1;
				break;
			}
			off += n;
		}
	}
	fn.ok = 1;
	return 1;
}

static int decode_at(unsigned long addr, struct x86_insn *in)
{
	unsigned long off = addr - fn.start;

	if (addr < fn.start || addr >= fn.end || !bit(fn.starts, off))
		return 0;
	/* (static_nr needs what happens to rax) */
	return x86_decode(fn.code + off, fn.end - addr, in);
}

/* Start of the instruction that ends exactly at addr, or 0. */
static unsigned long prev_insn(unsigned long addr)
{
	unsigned long k;
	struct x86_insn in;

	for (k = 1; k <= 15 && addr - k >= fn.start; k++)
		if (decode_at(addr - k, &in) == (int)k)
			return addr - k;
	return 0;
}

static int is_target(unsigned long addr)
{
	return addr >= fn.start && addr < fn.end &&
	       bit(fn.targets, addr - fn.start);
}

/* The number in rax at the syscall, if straight-line code sets it. */
static int static_nr(unsigned long addr)
{
	unsigned long cur = addr;
	int i;

	if (fn.tricky)
		return -1;
	for (i = 0; i < 8; i++) {
		struct x86_insn in;
		unsigned long p;

		if (is_target(cur))
			return -1;	/* another path joins here */
		p = prev_insn(cur);
		if (!p || !decode_at(p, &in))
			return -1;
		if (in.rax == X86_RAX_IMM)
			return in.imm >= 0 && in.imm < SYSGATE_NR_MAX ?
				       (int)in.imm : -1;
		if (in.rax != X86_RAX_NO)
			return -1;
		cur = p;
	}
	return -1;
}

static int is_short_loop(const unsigned char *p, int len)
{
	int i = 0;

	while (i < len && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0x2e ||
			   p[i] == 0x3e || p[i] == 0xf2 || p[i] == 0xf3))
		i++;
	return i < len && p[i] >= 0xe0 && p[i] <= 0xe3;
}

/* May this instruction run from the stub instead?  `last` allows a final
 * conditional or direct jump (it is re-encoded with a 32-bit offset). */
static int relocatable(unsigned long addr, const struct x86_insn *in, int last)
{
	switch (in->kind) {
	case X86_OTHER:
	case X86_NOP:
		return 1;
	case X86_JCC:
	case X86_JMP:
		return last && !is_short_loop(fn.code + (addr - fn.start), in->len);
	default:
		return 0;
	}
}

static int all_padding(struct sg_obj *o, unsigned long lo, unsigned long hi);

/* Raw rel8 branch patterns in [from, to) that land in (lo, hi). */
static int rel8_pattern_hits(struct sg_obj *o, unsigned long from,
			     unsigned long to, unsigned long lo,
			     unsigned long hi)
{
	unsigned char buf[160];
	unsigned long a;

	if (to - from > sizeof(buf) ||
	    sg_obj_read(o, from, buf, to - from) != (long)(to - from))
		return 1;
	for (a = from; a + 2 <= to; a++) {
		unsigned char op = buf[a - from];
		unsigned long t = a + 2 + (signed char)buf[a - from + 1];

		if ((op == 0xeb || (op >= 0x70 && op <= 0x7f) ||
		     (op >= 0xe0 && op <= 0xe3)) && t > lo && t < hi)
			return 1;
	}
	return 0;
}

/*
 * The direct jumps of a function [fs, fe) that leave it, decoded linearly
 * from its start: a few functions' worth, since neighbouring sites share
 * neighbours (libc's system call wrappers sit side by side).  Only jumps
 * that leave a function can land in another function's site, and only
 * those near it matter here: the sites asked about lie within rel8 reach
 * of it, and farther jumps are rel32, which sweep.c checks anyway.
 */
#define EXITS_NEAR 256
#define EXITS_MAX 32
#define EXITS_CACHED 8
#define NEIGHBOUR_MAX 4096

static struct exits {
	struct sg_obj *obj;
	unsigned long fs, fe;
	unsigned long done;	/* decoded up to here (a boundary), or fe */
	int n;			/* -1: too many to list */
	unsigned long to[EXITS_MAX];
} exits[EXITS_CACHED];
static unsigned int exits_next;

/* (objects come and go) */
static void exits_forget(void)
{
	memset(exits, 0, sizeof(exits));
}

/* e's exits, decoding from where it stopped to at least `end`. */
static void exits_decode(struct exits *e, const unsigned char *code,
			 unsigned long end)
{
	while (e->done < end && e->n >= 0) {
		struct x86_insn in;
		int k = x86_decode_flow(code + (e->done - e->fs),
					e->fe - e->done, &in);
		unsigned long t = e->done + in.target;

		if (!k) {
			e->done = e->fe;	/* nothing more can be decoded */
			break;
		}
		if ((in.kind == X86_JMP || in.kind == X86_JCC) &&
		    ((t < e->fs && e->fs - t <= EXITS_NEAR) ||
		     (t >= e->fe && t - e->fe < EXITS_NEAR))) {
			if (e->n == EXITS_MAX)
				e->n = -1;
			else
				e->to[e->n++] = t;
		}
		e->done += k;
	}
}

/* The exits of [fs, fe) found by decoding it from fs to at least end
 * (where the caller's question ends: the rest cannot matter to it). */
static const struct exits *exits_of(struct sg_obj *o, unsigned long fs,
				    unsigned long fe, unsigned long end)
{
	static unsigned char buf[NEIGHBOUR_MAX];
	const unsigned char *code = (const unsigned char *)fs;
	struct exits *e = 0;
	unsigned int i;

	if (fe - fs > sizeof(buf))
		return 0;
	if (sg_obj_view(o, fs, fe - fs) != fe - fs) {
		/* (a copy: decoded whole, its buffer is reused) */
		if (sg_obj_read(o, fs, buf, fe - fs) != (long)(fe - fs))
			return 0;
		code = buf;
		end = fe;
	}
	for (i = 0; i < EXITS_CACHED && !e; i++)
		if (exits[i].obj == o && exits[i].fs == fs && exits[i].fe == fe &&
		    (code != buf || exits[i].done == fe))
			e = &exits[i];
	if (!e) {
		e = &exits[exits_next++ % EXITS_CACHED];
		e->obj = o;
		e->fs = e->done = fs;
		e->fe = fe;
		e->n = 0;
	}
	exits_decode(e, code, end < fe ? end : fe);
	return e;
}

/* Does code in [from, to), outside the current function, branch with a
 * rel8 into (lo, hi)?  Functions are decoded linearly from their own
 * start; bytes in no function count as padding only if they decode as
 * nops or int3, otherwise their raw patterns are matched. */
static int outside_hits(struct sg_obj *o, unsigned long from, unsigned long to,
			unsigned long lo, unsigned long hi)
{
	while (from < to) {
		unsigned long fs, fe, next;
		int lsda, i;

		if (!sg_obj_function(o, from, &fs, &fe, &lsda)) {
			unsigned long end = fe < to ? fe : to;
			const struct exits *e = exits_of(o, fs, fe, end);

			if (!e || e->n < 0) {
				if (rel8_pattern_hits(o, from, end, lo, hi))
					return 1;
			} else {
				for (i = 0; i < e->n; i++)
					if (e->to[i] > lo && e->to[i] < hi)
						return 1;
			}
			from = fe;
			continue;
		}
		next = sg_obj_next_function(o, from);
		if (!next || next <= from || next > to)
			next = to;
		if (!all_padding(o, from, next) &&
		    rel8_pattern_hits(o, from, next, lo, hi))
			return 1;
		from = next;
	}
	return 0;
}

/* outside_hits, decoding only where the raw bytes hold a rel8 pattern
 * into (lo, hi): every real rel8 branch is such a pattern, and most
 * neighbourhoods have none, so their functions need not be decoded. */
static int outside_hits_if_any(struct sg_obj *o, unsigned long from,
			       unsigned long to, unsigned long lo,
			       unsigned long hi)
{
	if (to > from && to - from <= 160 &&
	    !rel8_pattern_hits(o, from, to, lo, hi))
		return 0;
	return outside_hits(o, from, to, lo, hi);
}

/* A branch from neighbouring code (outside this function but within rel8
 * reach) into (lo, hi)? */
static int neighbour_branch_in(struct sg_obj *o, unsigned long lo,
			       unsigned long hi)
{
	if (lo < fn.start + 130 &&
	    outside_hits_if_any(o, lo > 130 ? lo - 130 : 0, fn.start, lo, hi))
		return 1;
	if (hi + 130 > fn.end &&
	    outside_hits_if_any(o, fn.end, hi + 130, lo, hi))
		return 1;
	return 0;
}

/* Choose [lo, hi) of at least 5 bytes around the syscall. */
static int choose_window(struct sg_obj *o, struct sg_site *s)
{
	unsigned long pre[MAX_WINDOW + 1], post[MAX_WINDOW + 1];
	int npre = 0, npost = 0, i, j, best_i = -1, best_j = -1;
	unsigned long best_len = ~0UL;
	struct x86_insn in;

	if (fn.tricky)
		return -SG_WHY_JUMP_TABLE;
	pre[0] = s->addr;
	while (npre < MAX_WINDOW) {
		unsigned long p = prev_insn(pre[npre]);

		if (!p || !decode_at(p, &in) || !relocatable(p, &in, 0))
			break;
		pre[++npre] = p;
	}
	post[0] = s->addr + s->insn_len;
	while (npost < MAX_WINDOW && post[npost] < fn.end) {
		int k = decode_at(post[npost], &in);

		if (!k || !relocatable(post[npost], &in, 1))
			break;
		post[npost + 1] = post[npost] + k;
		npost++;
		if (in.kind == X86_JCC || in.kind == X86_JMP)
			break;
	}
	for (i = 0; i <= npre; i++) {
		for (j = 0; j <= npost; j++) {
			unsigned long lo = pre[i], hi = post[j], a;
			int bad = 0;

			if (hi - lo < JMP32 || hi - lo > SG_SITE_MAX_REGION)
				continue;
			for (a = lo + 1; a < hi && !bad; a++)
				bad = is_target(a);
			if (bad)
				continue;
			/* Prefer fewer instructions after the syscall, then
			 * the shortest window. */
			if (j * 64 + (hi - lo) < best_len) {
				best_len = j * 64 + (hi - lo);
				best_i = i;
				best_j = j;
			}
		}
	}
	if (best_i < 0)
		return npre + npost ? -SG_WHY_BRANCH_IN : -SG_WHY_NO_ROOM;
	s->lo = pre[best_i];
	s->hi = post[best_j];
	if (neighbour_branch_in(o, s->lo, s->hi))
		return -SG_WHY_BRANCH_IN;
	/* (one instruction, then the syscall past the jump's five bytes:
	 * the filler there is a breakpoint) */
	s->interior = best_i == 1 && best_j == 0 && s->addr - s->lo >= JMP32 ?
			      SG_INTERIOR_SYSCALL : SG_INTERIOR_ANY;
	return 0;
}

static int all_padding(struct sg_obj *o, unsigned long lo, unsigned long hi)
{
	unsigned char buf[64];
	unsigned long a = lo;

	if (hi - lo > sizeof(buf) || sg_obj_read(o, lo, buf, hi - lo) !=
					     (long)(hi - lo))
		return 0;
	while (a < hi) {
		struct x86_insn in;
		int k = x86_decode_flow(buf + (a - lo), hi - a, &in);

		if (!k || (in.kind != X86_NOP && in.kind != X86_INT3))
			return 0;
		a += k;
	}
	return 1;
}

/* A free 5-byte slot in [lo, hi) reachable by a rel8 jump from `from`. */
static unsigned long pad_slot(struct sg_obj *o, unsigned long lo,
			      unsigned long hi, unsigned long from)
{
	unsigned long a;

	if (hi <= lo || hi - lo < JMP32 || hi - lo > 64 || !all_padding(o, lo, hi))
		return 0;
	for (a = lo; a + JMP32 <= hi; a++) {
		long rel = (long)a - (long)from;

		if (rel < -128 || rel > 127)
			continue;
		if (!sg_obj_pad_taken(o, a, a + JMP32))
			return a;
	}
	return 0;
}

static int choose_pad(struct sg_obj *o, struct sg_site *s)
{
	unsigned long from = s->addr + 2, next, pend, a = 0;

	next = sg_obj_next_function(o, s->addr);
	if (next > fn.end && next - fn.end < 64)
		a = pad_slot(o, fn.end, next, from);
	if (!a) {
		pend = sg_obj_prev_function_end(o, s->addr);
		if (pend && pend < fn.start && fn.start - pend < 64)
			a = pad_slot(o, pend, fn.start, from);
	}
	if (!a)
		return -1;
	sg_obj_pad_take(o, a);
	s->pad = a;
	s->lo = s->addr;
	s->hi = s->addr + s->insn_len;
	s->interior = 0;
	s->kind = SG_PATCH_PAD;
	return 0;
}

static int keep_orig(struct sg_obj *o, struct sg_site *s)
{
	return sg_obj_read(o, s->lo, s->orig, s->hi - s->lo) ==
	       (long)(s->hi - s->lo);
}

/* The slow but always-safe patch: one int3 on the syscall itself. */
static void trap(struct sg_site *s)
{
	s->kind = SG_PATCH_TRAP;
	s->lo = s->addr;
	s->hi = s->addr + s->insn_len;
	s->interior = 0;
}

/* How far past the end of a function's unwind info code may still be
 * decoded by falling through from it. */
#define CFI_GAP_MAX 64

/*
 * The function to decode addr from.  Hand-written assembly such as
 * glibc's clone and clone3 ends its unwind info just before the syscall
 * (the child must not unwind into the parent's frames), so a candidate
 * shortly after a function's end is decoded from that function's start:
 * it counts only if falling through reaches it on an instruction boundary.
 */
static int function_of(struct sg_obj *o, unsigned long addr,
		       unsigned long *start, unsigned long *end, int *lsda)
{
	unsigned long next;

	*start = *end = 0;
	if (sg_obj_function(o, addr, start, end, lsda) == 0)
		return 0;
	if (*start >= *end || *end > addr || addr - *end > CFI_GAP_MAX)
		return -1;
	next = sg_obj_next_function(o, addr);
	*end = next > addr && next - addr <= 2 * CFI_GAP_MAX ?
		       next : addr + 2 * CFI_GAP_MAX;
	return 0;
}

/* The red-zone proof for -m zeropage: the function holding addr, as
 * its unwind info bounds it, never reaches below %rsp. */
static int zero_why(struct sg_obj *o, unsigned long addr)
{
	unsigned long fs, fe;
	int lsda;

	if (sg_obj_function(o, addr, &fs, &fe, &lsda) || addr < fs ||
	    addr >= fe || fs != fn.start || fe != fn.end)
		return SG_ZWHY_NO_BOUNDS;	/* e.g. decoded past a CFI end */
	if (fn.zwhy < 0) {
		switch (x86_redzone_scan(fn.code, fe - fs, fn.starts)) {
		case X86_RSP_NO: fn.zwhy = SG_ZWHY_OK; break;
		case X86_RSP_READ: fn.zwhy = SG_ZWHY_RSP_COPY; break;
		case X86_RSP_BELOW: fn.zwhy = SG_ZWHY_REDZONE; break;
		default: fn.zwhy = SG_ZWHY_UNDECODED; break;
		}
	}
	return fn.zwhy;
}

static int arch_plan(struct sg_obj *o, unsigned long addr, struct sg_site *s)
{
	unsigned long start, end;
	struct x86_insn in;
	int lsda, r;

	if (function_of(o, addr, &start, &end, &lsda) < 0)
		return -1;
	if (!analyse(o, start, end, lsda))
		return -1;
	if (!decode_at(addr, &in))
		return 0;
	s->addr = addr;
	s->insn_len = in.len;
	s->nr = -1;
	s->lo = addr;
	s->hi = addr + in.len;
	if (in.kind == X86_SYSENTER || in.kind == X86_INT80) {
		s->kind = SG_PATCH_NONE;
		s->why = SG_WHY_SYSENTER;
		return 1;
	}
	if (in.kind != X86_SYSCALL)
		return 0;
	s->nr = static_nr(addr);
	if (!sg_patch_wanted(s->nr)) {
		s->kind = SG_PATCH_LEFT;
		if (!keep_orig(o, s))
			s->kind = SG_PATCH_NONE;
		return 1;
	}
	/* (the proof is for -m zeropage only: most functions are long) */
	s->zwhy = !o->want_zwhy ? SG_ZWHY_UNCHECKED :
		  in.len == 2 ? zero_why(o, addr) : SG_ZWHY_UNDECODED;
	r = choose_window(o, s);
	if (r == 0) {
		s->kind = SG_PATCH_JMP;
	} else {
		s->why = -r;
		if (choose_pad(o, s) < 0)
			trap(s);
	}
	if (!keep_orig(o, s))
		s->kind = SG_PATCH_NONE;
	return 1;
}

/*
 * A site other threads may be running (patch.h, live): one instruction
 * before the syscall, the nearest of five bytes or more (mostly the
 * `mov $nr,%eax` just before it), is the only one that changes, its
 * first five bytes into the jmp rel32, so no instruction starts inside
 * what changes and no thread can be stopped there.  The rest stays, for
 * a thread that ran that instruction already, branches in after it, or
 * returns to the syscall (syscall user dispatch still watches it).  The
 * stub is a jump's stub: that instruction and those up to the syscall,
 * the call, and back after the syscall.
 */
static int arch_live(struct sg_obj *o, struct sg_site *s)
{
	unsigned long lo = s->addr, a;
	struct x86_insn in;
	int i;

	if (fn.obj != o || !decode_at(s->addr, &in) || in.kind != X86_SYSCALL)
		return 0;
	for (i = 0; i < MAX_WINDOW; i++) {
		lo = prev_insn(lo);
		if (!lo || !decode_at(lo, &in) || !relocatable(lo, &in, 0) ||
		    s->addr + s->insn_len - lo > SG_SITE_MAX_REGION)
			return 0;
		if (in.len >= JMP32)
			break;
	}
	if (i == MAX_WINDOW)
		return 0;
	for (a = lo + 1; a < lo + JMP32; a++)
		if (bit(fn.starts, a - fn.start))
			return 0;	/* (another path decodes it otherwise) */
	s->lo = lo;
	s->hi = s->addr + s->insn_len;
	s->pad = 0;
	s->interior = 0;
	s->kind = SG_PATCH_LIVE;
	s->why = SG_WHY_OK;
	return keep_orig(o, s);
}

static void arch_fallback(struct sg_obj *o, struct sg_site *s)
{
	unsigned long start, end;
	int lsda;

	s->why = SG_WHY_BRANCH_IN;
	if (function_of(o, s->addr, &start, &end, &lsda) == 0 &&
	    analyse(o, start, end, lsda) && choose_pad(o, s) == 0 &&
	    keep_orig(o, s))
		return;
	trap(s);
}

/* The target of the rel32 branch pattern at buf[i] (e8/e9, or 0f 8x),
 * if one is there and f wants it. */
static inline void one_target(const unsigned char *buf, unsigned long len,
			      unsigned long i, unsigned long addr,
			      const struct sg_target_filter *f,
			      void (*cb)(unsigned long target, void *arg),
			      void *arg)
{
	unsigned char op = buf[i];
	unsigned long t;

	if ((op & 0xfe) == 0xe8 && i + 5 <= len)
		t = addr + i + 5 + *(const unaligned_int *)(buf + i + 1);
	else if (op == 0x0f && i + 6 <= len && (buf[i + 1] & 0xf0) == 0x80)
		t = addr + i + 6 + *(const unaligned_int *)(buf + i + 2);
	else
		return;
	if (sg_target_wanted(f, t))
		cb(t, arg);
}

static void arch_targets(const unsigned char *buf, unsigned long len,
			 unsigned long addr, const struct sg_target_filter *f,
			 void (*cb)(unsigned long target, void *arg),
			 void *arg)
{
	unsigned long i = 0, carry = 0;

	/*
	 * Eight positions at a time.  Each pattern is flagged at the byte
	 * just before its rel32 (e8/e9 itself, the 8x of 0f 8x), so every
	 * hit is the same sum: no branch on which pattern it was.  A 0f in
	 * a word's last byte flags the next word's first.
	 */
	for (; i + 16 <= len; i += 8) {
		unsigned long w = *(const unaligned_word *)(buf + i);
		unsigned long n = *(const unaligned_word *)(buf + i + 1);
		unsigned long jcc = equal(w, 0x0f) &
				    equal(n & (0xf0 * ONES), 0x80);
		unsigned long m = equal(w & (0xfe * ONES), 0xe8) |
				  (jcc << 8) | carry;

		carry = jcc >> 56;
		while (m) {
			unsigned long q = i + __builtin_ctzl(m) / 8;
			unsigned long t = addr + q + 5 +
					  *(const unaligned_int *)(buf + q + 1);

			if (sg_target_wanted(f, t))
				cb(t, arg);
			m &= m - 1;
		}
	}
	/* (a 0f 8x across the last word boundary was flagged: its rel32
	 * is in the tail, which one_target reads from the 0f again) */
	for (i -= carry ? 1 : 0; i < len; i++)
		one_target(buf, len, i, addr, f, cb, arg);
}

/* --- encoding ---------------------------------------------------------- */

static const unsigned char lea_down[] = { 0x48, 0x8d, 0x64, 0x24, 0x80 };
/* lea -8(%rsp),%rsp; ret: back to a zero-page site through its own
 * return address */
static const unsigned char ret_back[] = { 0x48, 0x8d, 0x64, 0x24, 0xf8, 0xc3 };
static const unsigned char lea_up[] = { 0x48, 0x8d, 0xa4, 0x24,
					0x80, 0x00, 0x00, 0x00 };

/* Length of [from, to) once relocated into a stub. */
static unsigned long reloc_len(const struct sg_site *s, unsigned long from,
			       unsigned long to)
{
	unsigned long a = from, n = 0;

	while (a < to) {
		struct x86_insn in;
		int k = x86_decode_flow(s->orig + (a - s->lo), s->hi - a, &in);

		if (!k)
			return n;
		if (in.kind == X86_JCC)
			n += 6;
		else if (in.kind == X86_JMP)
			n += 5;
		else
			n += k;
		a += k;
	}
	return n;
}

#define ZERO_CHECK 34		/* the zero-page return address check */
/* lea_down, jmp over the descriptor, the descriptor, call, lea_up */
#define CALL_DESC_LEN (sizeof(lea_down) + 2 + sizeof(struct sg_site_desc) + \
		       SG_X86_CALL_LEN + sizeof(lea_up))

static unsigned long arch_stub_size(const struct sg_site *s)
{
	unsigned long pre = reloc_len(s, s->lo, s->addr);
	unsigned long post = reloc_len(s, s->addr + s->insn_len, s->hi);

	return (s->kind == SG_PATCH_ZERO ? ZERO_CHECK + 1 : 0) + pre +
	       CALL_DESC_LEN + post + 5 + 2 + CALL_DESC_LEN + 5;
}

static void put32(unsigned char *p, long v)
{
	int x = (int)v;

	memcpy(p, &x, 4);
}

/* Copy [from, to) of the original to p (at runtime address at). */
static unsigned long relocate(const struct sg_site *s, unsigned long from,
			      unsigned long to, unsigned char *p,
			      unsigned long at)
{
	unsigned long a = from, n = 0;

	while (a < to) {
		const unsigned char *src = s->orig + (a - s->lo);
		struct x86_insn in;
		int k = x86_decode_flow(src, s->hi - a, &in);
		unsigned long target = a + k + in.target - 0;

		if (!k)
			break;
		if (in.kind == X86_JCC || in.kind == X86_JMP) {
			/* rel8 or rel32 branch -> rel32 form. */
			unsigned long dest = a + in.target;
			int cc;

			(void)target;
			if (in.kind == X86_JMP) {
				p[n] = 0xe9;
				put32(p + n + 1, dest - (at + n + 5));
				n += 5;
			} else {
				cc = src[in.len - in.rel_size - 1] & 0x0f;
				p[n] = 0x0f;
				p[n + 1] = 0x80 | cc;
				put32(p + n + 2, dest - (at + n + 6));
				n += 6;
			}
		} else {
			memcpy(p + n, src, k);
			if (in.rip_rel) {
				int disp;

				memcpy(&disp, src + in.rel_off, 4);
				put32(p + n + in.rel_off,
				      (long)(a + k + disp) - (long)(at + n + k));
			}
			n += k;
		}
		a += k;
	}
	return n;
}

/* Writes CALL_DESC_LEN bytes; *desc = the descriptor's offset in p. */
static void call_desc(const struct sg_site *s, unsigned char *p,
		      unsigned long at, unsigned long ptr, unsigned long *desc)
{
	struct sg_site_desc d;
	unsigned long n = 0;

	memcpy(p + n, lea_down, sizeof(lea_down));
	n += sizeof(lea_down);
	p[n] = 0xeb;		/* jmp over the descriptor */
	p[n + 1] = sizeof(d);
	n += 2;
	d.next = s->addr + s->insn_len;
	d.raw = 0;		/* filled by the caller */
	memcpy(p + n, &d, sizeof(d));
	*desc = n;
	n += sizeof(d);
	p[n] = 0xff;		/* call *ptr(%rip) */
	p[n + 1] = 0x15;
	put32(p + n + 2, ptr - (at + n + SG_X86_CALL_LEN));
	n += SG_X86_CALL_LEN;
	memcpy(p + n, lea_up, sizeof(lea_up));
}

/* A zero-page stub's start: is this our site's call?  (See the top.) */
static unsigned long zero_check(const struct sg_site *s, unsigned char *p,
				unsigned long at)
{
	static const unsigned char load[] = { 0x4c, 0x8b, 0x1c, 0x24,
					      0x48, 0xb9 };
	static const unsigned char cmp[] = { 0x49, 0x8d, 0x0c, 0x0b,
					     0xe3, 0x0d, 0x49, 0xbb };
	static const unsigned char jump[] = { 0x41, 0xff, 0xe3, 0x59 };
	unsigned long ret = s->addr + s->insn_len, neg = -ret;
	unsigned long miss = sg_zeropage_add(ret, at);

	memcpy(p, load, sizeof(load));
	memcpy(p + 6, &neg, 8);
	memcpy(p + 14, cmp, sizeof(cmp));
	memcpy(p + 22, &miss, 8);
	memcpy(p + 30, jump, sizeof(jump));
	return ZERO_CHECK;
}

static void arch_emit(const struct sg_site *s, unsigned char *p,
		      unsigned long at, unsigned long entry_ptr,
		      unsigned long after_ptr)
{
	unsigned long n, post, raw, desc1, desc2;
	struct sg_site_desc *d;

	if (s->kind == SG_PATCH_ZERO) {
		n = zero_check(s, p, at);
		p += n;
		at += n;
	}
	n = relocate(s, s->lo, s->addr, p, at);
	call_desc(s, p + n, at + n, entry_ptr, &desc1);
	desc1 += n;
	n += CALL_DESC_LEN;
	post = n;
	n += relocate(s, s->addr + s->insn_len, s->hi, p + n, at + n);
	if (s->kind == SG_PATCH_ZERO) {
		memcpy(p + n, ret_back, sizeof(ret_back));
		n += sizeof(ret_back);
	} else {
		p[n] = 0xe9;
		put32(p + n + 1, s->hi - (at + n + 5));
		n += 5;
	}
	raw = n;
	p[n] = 0x0f;
	p[n + 1] = 0x05;
	n += 2;
	call_desc(s, p + n, at + n, after_ptr, &desc2);
	desc2 += n;
	n += CALL_DESC_LEN;
	p[n] = 0xe9;
	put32(p + n + 1, s->kind == SG_PATCH_ZERO ? s->hi - (at + n + 5) :
						  post - (n + 5));
	d = (struct sg_site_desc *)(p + desc1);
	d->raw = at + raw;
	d = (struct sg_site_desc *)(p + desc2);
	d->raw = at + raw;
}

static void arch_site_bytes(const struct sg_site *s, unsigned char *out)
{
	unsigned long len = s->hi - s->lo;

	memset(out, 0xcc, len);
	if (s->kind == SG_PATCH_ZERO) {
		out[0] = 0xff;		/* call *%rax */
		out[1] = 0xd0;
		return;
	}
	if (s->kind == SG_PATCH_PAD) {
		out[0] = 0xeb;
		out[1] = (unsigned char)(s->pad - (s->lo + 2));
		return;
	}
	if (s->kind == SG_PATCH_LIVE)	/* (only the jump is written) */
		memcpy(out, s->orig, len);
	out[0] = 0xe9;
	put32(out + 1, s->stub - (s->lo + 5));
}

static int arch_pad_bytes(const struct sg_site *s, unsigned char *out)
{
	out[0] = 0xe9;
	put32(out + 1, s->stub - (s->pad + 5));
	return 5;
}

/* (a jump window's stub: the relocated instructions before the call) */
static unsigned long arch_call_at(const struct sg_site *s)
{
	return reloc_len(s, s->lo, s->addr);
}

static int arch_trap_bytes(const struct sg_site *s, unsigned char *out)
{
	(void)s;
	out[0] = 0xcc;
	return 1;
}

/* Every site stands alone, and x86 keeps instruction fetch coherent with
 * stores (the mprotect after writing serialises too). */
static void arch_finish(struct sg_obj *o)
{
	(void)o;
}


/*
 * Lazy sites (patch.h): `syscall` becomes `jmp rel32` by one byte store,
 * 0f -> e9.  The jump's displacement is then the syscall's second byte
 * (05) and the three bytes after it, which stay as they are: a branch to
 * the next instruction still finds it intact, and no thread can ever
 * fetch a half-written instruction (the old bytes are a syscall, which
 * still traps).  The price: the stub must start exactly where that
 * displacement points.
 */
#define LAZY_LOOK 5

static unsigned long arch_lazy_stub(unsigned long addr,
				    const unsigned char *code)
{
	int disp;

	if (code[0] != 0x0f || code[1] != 0x05)
		return 0;
	memcpy(&disp, code + 1, 4);
	return addr + 5 + (long)disp;
}

static int arch_lazy_bytes(unsigned long addr, unsigned long stub,
			   unsigned char *out)
{
	(void)addr;
	(void)stub;
	out[0] = 0xe9;
	return 1;
}

static long arch_next_trap(const unsigned char *buf, unsigned long len)
{
	unsigned long i;

	for (i = 0; i + 1 < len; i++)
		if ((buf[i] == 0x0f && (buf[i + 1] == 0x05 || buf[i + 1] == 0x34)) ||
		    (buf[i] == 0xcd && buf[i + 1] == 0x80))
			return i;
	return -1;
}

/* This ISA's part of the rewriting engine (patch.h). */
const struct sg_patch_arch sg_patch_arch = {
	SG_PATCH_ARCH_FUNCS,
	.live = arch_live,
	.trap_back = 0,		/* the stub jumps back by itself */
	.call_at = arch_call_at,
	.trap_far = 0,		/* so trap stubs must be in reach too */
	.entry = (unsigned long)sg_x86_entry,
	.after = (unsigned long)sg_x86_after_raw,
	.relay = 0,		/* no relayed sites */
	.next_trap = arch_next_trap,
	.lazy_look = LAZY_LOOK,
	.lazy_stub = arch_lazy_stub,
	.lazy_bytes = arch_lazy_bytes,
};
