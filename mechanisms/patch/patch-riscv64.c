/* SPDX-License-Identifier: MIT */
/*
 * rv64 site planning and stub encoding for the patch mechanism.
 *
 * `jal` reaches only ±1 MiB and libc has no nop runs to borrow, so each
 * `ecall` gets one of three patches (the BSC design), else a trap:
 *
 *   gateway  [li a7,N] addi sp,-16; sd ra,0(sp); auipc ra; jalr ra;
 *            ld ra,0(sp); addi sp,16 -- over >= 16 relocatable bytes
 *            around the ecall; reaches its own stub anywhere in ±2 GiB.
 *            When the region holds the `li a7,N`, it is moved to the
 *            front: then a7 < 4096 whenever the gateway runs for itself.
 *   middle   addi sp,-16; sd a7,0(sp); jal a7,<gateway>; ld a7,0(sp);
 *            addi sp,16 -- 12 relocatable bytes, number unknown.
 *   small    jal a7,<gateway> on the ecall alone (the number is known;
 *            the stub sets a7 back), returning through a register the
 *            next instruction overwrites, or ending with a copy of the
 *            `ret`/`jr` that follows; or with `li a7,N` after it.
 *
 * Relays (middle, small) enter a gateway after its `li` with a code
 * address in a7; the gateway's stub tells the two cases apart by a7 >=
 * 4096 -- exact, because its own path has just loaded a small number --
 * and sg_rv_relay (entry.S) finds the relay's stub by that address in a
 * hash table: constant time, no locks, no thread-local state.  Every
 * stub then enters sysgate as a call whose descriptor follows it, so no
 * search happens on any path.  No register is changed: the stubs undo
 * every push, a7 and the return registers.
 *
 * Stubs:
 *   gateway  [sd t0,8(sp); lui t0,1; bgeu a7,t0,relay; ld t0,8(sp)]
 *            ld ra,0(sp); addi sp,16
 *   middle   ld a7,0(sp); addi sp,16
 *   small    li a7,N
 *   all      <relocated instructions before the ecall>
 *            CALL entry; .8byte site, raw
 *   post:    <relocated instructions after it>
 *            <return to the patch: through ra, a7 or the dead register,
 *            or the copied `jr`>
 *   raw:     ld t0,8(sp); ld ra,0(sp); addi sp,16; ecall
 *            CALL after_raw; .8byte site, raw; j post
 *   relay:   ld t0,8(sp); CALL sg_rv_relay       (gateways only)
 *   where CALL is addi sp,-16; sd ra,0(sp); auipc ra; ld ra,(ra); jalr ra
 *   through the region header's pointers (sysgate may be far away).
 * A trap site's stub returns through a second ebreak instead.
 */
#include "patch.h"
#include "decode.h"
#include "context.h"

extern char sg_rv_entry[], sg_rv_after_raw[], sg_rv_relay[];

#define RA 1
#define SP 2
#define GP 3
#define TP 4
#define T0 5
#define A7 17

#define RELAYS (1UL << SG_RV_RELAY_BITS)
/* Read by sg_rv_relay: the multiplier, then {link, stub} slots. */
struct {
	unsigned long mul, n;
	struct {
		unsigned long key, stub;
	} slot[RELAYS];
} sg_rv_relays SG_HIDDEN = { 0x9e3779b97f4a7c15UL, 0, { { 0, 0 } } };

#define MAX_FUNC (1UL << 20)
#define GATEWAY_BYTES 16
#define MIDDLE_BYTES 12
#define JAL_REACH (1L << 20)
#define MAX_WINDOW 8

/*
 * The text mapping swept last (sites come in address order).  rv64 code is
 * densely packed instructions (the only gaps are c.unimp halfwords), and
 * glibc's small syscall wrappers carry no unwind information, so instead
 * of decoding function by function as on x86, a whole text mapping is
 * swept linearly once (sweep.c): instruction starts and direct branch
 * targets.
 */
static struct sg_text_sweep fn;
/* The current site's function from unwind info, or 0, 0 (glibc's
 * assembly wrappers have none): a region never takes in its entry, which
 * indirect calls and other objects reach without a branch the sweep sees,
 * nor reaches past its end. */
static unsigned long func_lo, func_hi;
static int tricky;		/* the current site's function has indirect
				   jumps or landing pads */

static void arch_release(void)
{
	sg_text_sweep_release(&fn);
}

static long arch_scan(const unsigned char *buf, unsigned long len)
{
	unsigned long i;

	for (i = 0; i + 4 <= len; i += 2)
		if (buf[i] == 0x73 && !buf[i + 1] && !buf[i + 2] && !buf[i + 3])
			return i;
	return -1;
}

static int sweep_step(const unsigned char *p, unsigned long avail, long *tg)
{
	struct rv_insn in;
	int n = rv_decode(p, avail, &in);

	if (n && (in.kind == RV_JAL || in.kind == RV_BRANCH))
		*tg = in.imm;
	return n;
}

static int sweep(struct sg_obj *o, unsigned long addr)
{
	return sg_text_sweep(&fn, o, addr, sweep_step);
}

static int decode_at(unsigned long addr, struct rv_insn *in)
{
	const unsigned char *p = sg_text_sweep_insn(&fn, addr);

	return p ? rv_decode(p, fn.start + fn.len - addr, in) : 0;
}

static int is_target(unsigned long addr)
{
	return sg_text_sweep_is_target(&fn, addr);
}

/* Start of the instruction that ends exactly at addr, or 0. */
static unsigned long prev_insn(unsigned long addr)
{
	struct rv_insn in;

	if (decode_at(addr - 2, &in) == 2)
		return addr - 2;
	if (decode_at(addr - 4, &in) == 4)
		return addr - 4;
	return 0;
}

static int writes(const struct rv_insn *in, int reg)
{
	return in->rd == reg;
}

static int reads(const struct rv_insn *in, int reg)
{
	return in->rs1 == reg || in->rs2 == reg;
}

/* The number in a7 at the ecall, if straight-line code sets it; *li is
 * where that `li` is. */
static int static_nr(unsigned long addr, unsigned long *li)
{
	unsigned long cur = addr;
	int i;

	for (i = 0; i < 16; i++) {
		struct rv_insn in;
		unsigned long p;
		long v;
		int reg;

		if (cur != addr && is_target(cur))
			return -1;	/* another path joins here */
		p = prev_insn(cur);
		if (!p || !decode_at(p, &in) || in.kind != RV_PLAIN)
			return -1;
		if (rv_is_li(&in, &reg, &v) && reg == A7) {
			*li = p;
			return v >= 0 && v < SYSGATE_NR_MAX ? (int)v : -1;
		}
		if (writes(&in, A7))
			return -1;
		cur = p;
	}
	return -1;
}

static int relocatable(const struct rv_insn *in)
{
	return in->kind == RV_PLAIN;
}

/* Instruction boundaries around the ecall that may move to the stub:
 * pre[0] = ecall, pre[i] earlier; post[0] = after it, post[j] later. */
struct window {
	unsigned long pre[MAX_WINDOW + 1], post[MAX_WINDOW + 1];
	int npre, npost;
};

static void gather(struct sg_site *s, struct window *w)
{
	struct rv_insn in;

	w->npre = w->npost = 0;
	w->pre[0] = s->addr;
	w->post[0] = s->addr + 4;
	if (tricky)
		return;
	while (w->npre < MAX_WINDOW) {
		unsigned long p = prev_insn(w->pre[w->npre]);

		/* An instruction inside the region may not be a target. */
		if (!p || is_target(w->pre[w->npre]) ||
		    w->pre[w->npre] == func_lo || !decode_at(p, &in) ||
		    !relocatable(&in))
			break;
		w->pre[++w->npre] = p;
	}
	while (w->npost < MAX_WINDOW && w->post[w->npost] < fn.end) {
		unsigned long a = w->post[w->npost];
		int k = decode_at(a, &in);

		if (!k || is_target(a) || (func_hi && a + k > func_hi) ||
		    !relocatable(&in))
			break;
		w->post[w->npost + 1] = a + k;
		w->npost++;
	}
}

/* Does any instruction in [lo, hi) (other than `skip`) read or write reg? */
static int touches(unsigned long lo, unsigned long hi, unsigned long skip,
		   int reg)
{
	struct rv_insn in;
	unsigned long a = lo;

	while (a < hi) {
		int k = decode_at(a, &in);

		if (!k)
			return 1;
		if (a != skip && (reads(&in, reg) || writes(&in, reg)))
			return 1;
		a += k;
	}
	return 0;
}

/* The shortest window of at least `need` bytes; prefers one holding the
 * `li a7` (so the gateway can serve relays) when li != 0. */
static int choose(const struct window *w, unsigned long need,
		  unsigned long li, unsigned long *lo, unsigned long *hi)
{
	unsigned long best = ~0UL;
	int i, j;

	for (i = 0; i <= w->npre; i++)
		for (j = 0; j <= w->npost; j++) {
			unsigned long l = w->pre[i], h = w->post[j], cost;

			if (h - l < need || h - l > SG_SITE_MAX_REGION)
				continue;
			cost = (h - l) + (li && l <= li ? 0 : 1000);
			if (cost < best) {
				best = cost;
				*lo = l;
				*hi = h;
			}
		}
	return best != ~0UL;
}

static int li_len(long v)
{
	return v >= -32 && v < 32 ? 2 : 4;
}

static int plan_gateway(struct sg_site *s, const struct window *w,
			unsigned long li)
{
	unsigned long lo, hi;
	int hoist = s->nr >= 0 && li ? li_len(s->nr) : 0;

	/* With the li inside, it moves to the front: no extra room needed
	 * since it was one of the region's own instructions. */
	if (!choose(w, GATEWAY_BYTES + (hoist ? (unsigned long)hoist : 0), li,
		    &lo, &hi) &&
	    !choose(w, GATEWAY_BYTES, 0, &lo, &hi))
		return -1;
	s->lo = lo;
	s->hi = hi;
	s->hoist = 0;
	s->relay_ok = 0;
	/* Hoisting is sound when nothing before the li in the region
	 * touches a7 (the li's own write is what moves). */
	if (hoist && li >= lo && li < s->addr &&
	    hi - lo >= GATEWAY_BYTES + (unsigned long)hoist &&
	    !touches(lo, li, 0, A7)) {
		s->hoist = hoist;
		s->relay_ok = 1;
	}
	s->kind = SG_PATCH_GATEWAY;
	return 0;
}

/* small, 4 bytes: the next instruction overwrites a register without
 * reading it; the stub returns through that register. */
static int dead_next(struct sg_site *s)
{
	struct rv_insn in;
	unsigned long next = s->addr + 4;

	if (!decode_at(next, &in) || in.rd <= 0 || in.rd == SP ||
	    in.rd == GP || in.rd == TP || reads(&in, in.rd))
		return 0;
	return in.rd;
}

/* small, 4 bytes: the next instruction is an indirect jump that links
 * nothing (`ret`, `jr t1`): the stub ends with the same jump, so a7 is
 * already N and no register is needed to come back.  Returns its base. */
static int jump_next(struct sg_site *s)
{
	struct rv_insn in;

	if (!decode_at(s->addr + 4, &in) || in.kind != RV_JALR ||
	    in.rd != -1 || in.imm != 0 || in.rs1 <= 0 || in.rs1 == A7)
		return 0;
	return in.rs1;
}

/* The 4-byte small patches (the ecall alone), else 0. */
static int small_alone(struct sg_site *s)
{
	int k = dead_next(s);

	s->tail = 0;
	if (!k && (k = jump_next(s)) != 0)
		s->tail = 1;
	if (!k)
		return 0;
	s->kind = SG_PATCH_SMALL;
	s->kreg = k;
	s->lo = s->addr;
	s->hi = s->addr + 4;
	return 1;
}

static int plan_small(struct sg_site *s, const struct window *w)
{
	int j;

	if (small_alone(s))
		return 0;
	s->lo = s->addr;
	s->kind = SG_PATCH_SMALL;
	/* Else `li a7,N` after the jal: relocate what follows, but nothing
	 * that writes a7 (the li would undo it). */
	s->kreg = 0;
	if (tricky)
		return -1;
	for (j = 1; j <= w->npost; j++) {
		if (touches(w->post[0], w->post[j], 0, A7))
			return -1;
		if (w->post[j] - s->addr >= 4 + (unsigned long)li_len(s->nr)) {
			s->hi = w->post[j];
			return 0;
		}
	}
	return -1;
}

static int plan_middle(struct sg_site *s, const struct window *w)
{
	unsigned long lo, hi;

	if (!choose(w, MIDDLE_BYTES, 0, &lo, &hi))
		return -1;
	s->lo = lo;
	s->hi = hi;
	s->kind = SG_PATCH_MIDDLE;
	return 0;
}

static void trap(struct sg_site *s)
{
	s->kind = SG_PATCH_TRAP;
	s->lo = s->addr;
	s->hi = s->addr + 4;
	s->interior = 0;
}

static int keep_orig(struct sg_obj *o, struct sg_site *s)
{
	return sg_obj_read(o, s->lo, s->orig, s->hi - s->lo) ==
	       (long)(s->hi - s->lo);
}

/* Landing pads and jump tables land where no branch shows: a function
 * with either keeps its neighbours in place.  Without unwind info (glibc's
 * assembly wrappers) there are neither. */
static int function_tricky(struct sg_obj *o, unsigned long addr)
{
	unsigned long a;
	int lsda;

	if (sg_obj_function(o, addr, &func_lo, &func_hi, &lsda) != 0) {
		func_lo = func_hi = 0;
		return 0;
	}
	if (lsda)
		return 1;
	for (a = func_lo; a < func_hi && a < fn.end; a += 2) {
		struct rv_insn in;

		if (decode_at(a, &in) && in.kind == RV_JALR && in.rd != RA &&
		    !(in.rs1 == RA && in.imm == 0))
			return 1;	/* not a call or a return: a table */
	}
	return 0;
}

static void plan_kinds(struct sg_site *s)
{
	struct window w;
	unsigned long li = 0;

	s->nr = static_nr(s->addr, &li);
	gather(s, &w);
	s->interior = 1;
	s->tail = 0;
	if (plan_gateway(s, &w, li) == 0)
		return;
	if (s->nr >= 0 && plan_small(s, &w) == 0) {
		s->interior = s->hi - s->lo > 4;
		return;
	}
	if (s->nr < 0 && plan_middle(s, &w) == 0)
		return;
	s->why = tricky ? SG_WHY_JUMP_TABLE : SG_WHY_NO_ROOM;
	trap(s);
}

static int arch_plan(struct sg_obj *o, unsigned long addr, struct sg_site *s)
{
	struct rv_insn in;

	if (!sweep(o, addr))
		return -1;
	if (decode_at(addr, &in) != 4 || in.kind != RV_ECALL)
		return 0;
	tricky = function_tricky(o, addr);
	s->addr = addr;
	s->insn_len = 4;
	plan_kinds(s);
	s->planned = s->kind;
	if (!keep_orig(o, s))
		s->kind = s->planned = SG_PATCH_NONE;
	return 1;
}

/* An outside branch lands inside the region: only the ecall itself. */
static void arch_fallback(struct sg_obj *o, struct sg_site *s)
{
	s->why = SG_WHY_BRANCH_IN;
	if (s->nr >= 0 && sweep(o, s->addr) && small_alone(s)) {
		s->planned = SG_PATCH_SMALL;
		s->interior = 0;
		if (keep_orig(o, s))
			return;
	}
	trap(s);
	s->planned = SG_PATCH_TRAP;
	if (!keep_orig(o, s))
		s->kind = s->planned = SG_PATCH_NONE;
}

/* Every direct jump and branch a linear sweep finds (buf starts on an
 * instruction boundary, or resynchronises within a few halfwords). */
static void arch_targets(const unsigned char *buf, unsigned long len,
			 unsigned long addr, const struct sg_target_filter *f,
			 void (*cb)(unsigned long target, void *arg),
			 void *arg)
{
	unsigned long off = addr & 1;

	while (off < len) {
		struct rv_insn in;
		int n = rv_decode(buf + off, len - off, &in);

		if (!n) {
			off += 2;
			continue;
		}
		if ((in.kind == RV_JAL || in.kind == RV_BRANCH) &&
		    sg_target_wanted(f, addr + off + in.imm))
			cb(addr + off + in.imm, arg);
		off += n;
	}
}

/* --- relays ------------------------------------------------------------ */

/* Where a relay's jal is, and the link value it leaves in a7. */
static unsigned long relay_jal(const struct sg_site *s)
{
	return s->kind == SG_PATCH_MIDDLE ? s->lo + 4 : s->lo;
}

static int near_gateway(const struct sg_site *g, unsigned long jal)
{
	long d;

	if (g->planned != SG_PATCH_GATEWAY || !g->relay_ok ||
	    (g->kind != SG_PATCH_GATEWAY && g->kind != SG_PATCH_LEFT))
		return 0;
	d = (long)(g->lo + g->hoist) - (long)jal;
	return d > -JAL_REACH && d < JAL_REACH;
}

static unsigned long relay_count;

/* Link each relay to a gateway in reach (bringing a gateway back from
 * "left" if it must serve one); the rest become traps. */
static void arch_finish(struct sg_obj *o)
{
	int i, j, g = 0;

	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		unsigned long jal;
		int found = -1;

		if (s->kind != SG_PATCH_SMALL && s->kind != SG_PATCH_MIDDLE)
			continue;
		jal = relay_jal(s);
		/* Sites are in address order: search outwards from the last
		 * gateway used. */
		for (j = g; j < o->nsites && found < 0; j++)
			if (near_gateway(&o->sites[j], jal))
				found = j;
		for (j = g - 1; j >= 0 && found < 0; j--)
			if (near_gateway(&o->sites[j], jal))
				found = j;
		if (found < 0 || relay_count >= RELAYS / 2) {
			memmove(s->orig, s->orig + (s->addr - s->lo), 4);
			trap(s);
			s->why = SG_WHY_NO_GATEWAY;
			continue;
		}
		g = found;
		o->sites[found].kind = SG_PATCH_GATEWAY;
		s->pad = o->sites[found].lo + o->sites[found].hoist;
		relay_count++;
	}
}

static void relay_add(unsigned long key, unsigned long stub)
{
	unsigned long i = (key * sg_rv_relays.mul) >> (64 - SG_RV_RELAY_BITS);

	for (;; i = (i + 1) & (RELAYS - 1)) {
		unsigned long k = sg_rv_relays.slot[i].key;

		if (k == key || !k) {
			/* Stub first: a reader that sees the key sees it. */
			__atomic_store_n(&sg_rv_relays.slot[i].stub, stub,
					 __ATOMIC_RELEASE);
			if (!k) {
				__atomic_store_n(&sg_rv_relays.slot[i].key, key,
						 __ATOMIC_RELEASE);
				sg_rv_relays.n++;
			}
			return;
		}
	}
}

/* --- encoding ---------------------------------------------------------- */

struct out {
	unsigned char *p;
	unsigned long at;	/* runtime address of p[0] */
	unsigned long n;
};

static void emit(struct out *o, const unsigned char *b, int len)
{
	int i;

	for (i = 0; i < len; i++)
		o->p[o->n + i] = b[i];
	o->n += len;
}

#define EMIT(o, call)                                                    \
	do {                                                             \
		unsigned char b_[8];                                     \
		emit((o), b_, call);                                     \
	} while (0)

static unsigned long here(const struct out *o)
{
	return o->at + o->n;
}

/* rd = pc-relative address `to` (auipc + addi). */
static void load_addr(struct out *o, int rd, unsigned long to)
{
	long hi, lo;

	rv_split_hi_lo((long)(to - here(o)), &hi, &lo);
	EMIT(o, rv_enc_auipc(b_, rd, hi));
	EMIT(o, rv_enc_addi(b_, rd, rd, lo));
}

/* Call through a pointer in the region header, descriptor after it. */
static unsigned long call_desc(struct out *o, const struct sg_site *s,
			       unsigned long ptr)
{
	struct sg_site_desc d = { s->addr, 0 };
	long hi, lo;
	unsigned long at;

	while ((here(o) + 16) & 7)
		EMIT(o, rv_enc_c_nop(b_));
	EMIT(o, rv_enc_c_addi16sp(b_, -16));
	EMIT(o, rv_enc_c_sdsp(b_, RA, 0));
	rv_split_hi_lo((long)(ptr - here(o)), &hi, &lo);
	EMIT(o, rv_enc_auipc(b_, RA, hi));
	EMIT(o, rv_enc_ld(b_, RA, RA, lo));
	EMIT(o, rv_enc_jalr(b_, RA, RA, 0));
	at = o->n;
	emit(o, (const unsigned char *)&d, sizeof(d));
	EMIT(o, rv_enc_c_ldsp(b_, RA, 0));
	EMIT(o, rv_enc_c_addi16sp(b_, 16));
	return at;
}

static void relocate(struct out *o, const struct sg_site *s, unsigned long from,
		     unsigned long to, unsigned long skip)
{
	unsigned long a = from;

	while (a < to) {
		const unsigned char *src = s->orig + (a - s->lo);
		struct rv_insn in;
		int k = rv_decode(src, s->hi - a, &in);

		if (!k)
			return;
		if (a != skip)
			EMIT(o, rv_relocate(b_, src, &in));
		a += k;
	}
}

/* Back to `to` in the patch through reg, which the code there restores. */
static void jump_back(struct out *o, int reg, unsigned long to)
{
	load_addr(o, reg, to);
	EMIT(o, rv_enc_jalr(b_, 0, reg, 0));
}

/* The gateway's address after its epilogue's `ld ra`: G_back. */
static unsigned long gateway_back(const struct sg_site *s)
{
	return s->lo + s->hoist + 12;
}

static unsigned long small_li_len(const struct sg_site *s)
{
	return s->kreg ? 0 : li_len(s->nr);
}

/* A trap stub has nothing before its call (16-byte aligned stub, no
 * padding): its return ebreak sits right after the call's 36 bytes. */
#define TRAP_BACK_OFF 40

static unsigned long emit_stub(const struct sg_site *s, unsigned char *p,
			       unsigned long at, unsigned long entry_ptr,
			       unsigned long after_ptr, int real);

/* The size is what emitting gives, plus the call alignment's slack. */
static unsigned long arch_stub_size(const struct sg_site *s)
{
	static unsigned char scratch[512];

	return emit_stub(s, scratch, 0, 0, 0, 0) + 12;
}

static void arch_emit(const struct sg_site *s, unsigned char *p,
		      unsigned long at, unsigned long entry_ptr,
		      unsigned long after_ptr)
{
	emit_stub(s, p, at, entry_ptr, after_ptr, 1);
}

static unsigned long emit_stub(const struct sg_site *s, unsigned char *p,
			       unsigned long at, unsigned long entry_ptr,
			       unsigned long after_ptr, int real)
{
	struct out o = { p, at, 0 };
	unsigned long relay_branch = 0, post, raw, d1, d2, hoisted = 0;
	unsigned long relay_ptr = entry_ptr + 16;
	long hi, lo;

	switch (s->kind) {
	case SG_PATCH_GATEWAY:
		if (s->relay_ok) {
			EMIT(&o, rv_enc_c_sdsp(b_, T0, 8));
			EMIT(&o, rv_enc_lui(b_, T0, 1));
			relay_branch = o.n;
			o.n += 4;	/* bgeu a7, t0, relay: below */
			EMIT(&o, rv_enc_c_ldsp(b_, T0, 8));
		}
		EMIT(&o, rv_enc_c_ldsp(b_, RA, 0));
		EMIT(&o, rv_enc_c_addi16sp(b_, 16));
		if (s->hoist)
			hoisted = s->addr;	/* found below */
		break;
	case SG_PATCH_MIDDLE:
		EMIT(&o, rv_enc_c_ldsp(b_, A7, 0));
		EMIT(&o, rv_enc_c_addi16sp(b_, 16));
		break;
	case SG_PATCH_SMALL:
		EMIT(&o, rv_enc_li(b_, A7, s->nr));
		break;
	default:
		break;
	}
	if (real && (s->kind == SG_PATCH_SMALL || s->kind == SG_PATCH_MIDDLE))
		relay_add(relay_jal(s) + 4, at);
	if (hoisted) {
		/* The li already ran in the patch: do not copy it. */
		unsigned long li = 0;
		struct rv_insn in;
		unsigned long a = s->lo;

		while (a < s->addr) {
			int k = rv_decode(s->orig + (a - s->lo), s->hi - a, &in);
			int reg;
			long v;

			if (!k)
				break;
			if (rv_is_li(&in, &reg, &v) && reg == A7)
				li = a;
			a += k;
		}
		hoisted = li;
	}
	relocate(&o, s, s->lo, s->addr, hoisted);
	d1 = call_desc(&o, s, entry_ptr);
	post = o.n;
	relocate(&o, s, s->addr + 4, s->hi, 0);
	switch (s->kind) {
	case SG_PATCH_GATEWAY:
		EMIT(&o, rv_enc_c_addi16sp(b_, -16));
		EMIT(&o, rv_enc_c_sdsp(b_, RA, 0));
		jump_back(&o, RA, gateway_back(s));
		break;
	case SG_PATCH_MIDDLE:
		EMIT(&o, rv_enc_c_addi16sp(b_, -16));
		EMIT(&o, rv_enc_c_sdsp(b_, A7, 0));
		jump_back(&o, A7, s->lo + 8);
		break;
	case SG_PATCH_SMALL:
		if (s->tail)
			EMIT(&o, rv_enc_jalr(b_, 0, s->kreg, 0));
		else
			jump_back(&o, s->kreg ? s->kreg : A7, s->addr + 4);
		break;
	default:
		/* trap: a second ebreak, resumed after the site */
		while (o.n < TRAP_BACK_OFF)
			EMIT(&o, rv_enc_c_nop(b_));
		EMIT(&o, rv_enc_ebreak(b_, 0));
		break;
	}
	raw = o.n;
	EMIT(&o, rv_enc_c_ldsp(b_, T0, 8));
	EMIT(&o, rv_enc_c_ldsp(b_, RA, 0));
	EMIT(&o, rv_enc_c_addi16sp(b_, 16));
	EMIT(&o, rv_enc_ecall(b_));
	d2 = call_desc(&o, s, after_ptr);
	EMIT(&o, rv_enc_jal(b_, 0, (long)post - (long)o.n));
	if (relay_branch) {
		unsigned long relay = o.n;
		unsigned char b[4];

		EMIT(&o, rv_enc_c_ldsp(b_, T0, 8));
		rv_split_hi_lo((long)(relay_ptr - here(&o)), &hi, &lo);
		EMIT(&o, rv_enc_auipc(b_, RA, hi));
		EMIT(&o, rv_enc_ld(b_, RA, RA, lo));
		EMIT(&o, rv_enc_jalr(b_, RA, RA, 0));
		rv_enc_bgeu(b, A7, T0, (long)relay - (long)relay_branch);
		memcpy(p + relay_branch, b, 4);
	}
	((struct sg_site_desc *)(p + d1))->raw = at + raw;
	((struct sg_site_desc *)(p + d2))->raw = at + raw;
	return o.n;
}

/* The bytes over [lo, hi): see the comment at the top. */
static void arch_site_bytes(const struct sg_site *s, unsigned char *out)
{
	struct out o = { out, s->lo, 0 };
	long hi, lo;

	switch (s->kind) {
	case SG_PATCH_GATEWAY:
		if (s->hoist)
			EMIT(&o, rv_enc_li(b_, A7, s->nr));
		EMIT(&o, rv_enc_c_addi16sp(b_, -16));
		EMIT(&o, rv_enc_c_sdsp(b_, RA, 0));
		rv_split_hi_lo((long)(s->stub - here(&o)), &hi, &lo);
		EMIT(&o, rv_enc_auipc(b_, RA, hi));
		EMIT(&o, rv_enc_jalr(b_, RA, RA, lo));
		EMIT(&o, rv_enc_c_ldsp(b_, RA, 0));
		EMIT(&o, rv_enc_c_addi16sp(b_, 16));
		break;
	case SG_PATCH_MIDDLE:
		EMIT(&o, rv_enc_c_addi16sp(b_, -16));
		EMIT(&o, rv_enc_c_sdsp(b_, A7, 0));
		EMIT(&o, rv_enc_jal(b_, A7, (long)s->pad - (long)here(&o)));
		EMIT(&o, rv_enc_c_ldsp(b_, A7, 0));
		EMIT(&o, rv_enc_c_addi16sp(b_, 16));
		break;
	case SG_PATCH_SMALL:
		EMIT(&o, rv_enc_jal(b_, A7, (long)s->pad - (long)here(&o)));
		if (small_li_len(s))
			EMIT(&o, rv_enc_li(b_, A7, s->nr));
		break;
	default:
		break;
	}
	while (o.n < s->hi - s->lo)
		EMIT(&o, rv_enc_c_nop(b_));
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
	return rv_enc_ebreak(out, 0);
}

/* This ISA's part of the rewriting engine (patch.h). */
const struct sg_patch_arch sg_patch_arch = {
	SG_PATCH_ARCH_FUNCS,
	.trap_back = TRAP_BACK_OFF,
	.trap_far = 0,		/* a gateway turned trap would strand its relays */
	.entry = (unsigned long)sg_rv_entry,
	.after = (unsigned long)sg_rv_after_raw,
	.relay = (unsigned long)sg_rv_relay,
	.next_trap = arch_scan,	/* a candidate is the only way in */
};
