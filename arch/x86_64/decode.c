/* SPDX-License-Identifier: MIT */
/*
 * x86-64 instruction decoder (see decode.h).  Lengths follow the Intel SDM
 * opcode maps: prefixes, REX, VEX/EVEX/XOP, one opcode byte from one of
 * the maps, ModRM/SIB/displacement, then an immediate whose size the
 * opcode (and the 66/REX.W prefixes) determine.  Each map is one table of
 * 256 entries, so the whole format is visible in one place.
 */
#include "decode.h"

/* Table entry: low nibble = immediate, high bits = flags. */
enum {
	I_NONE, I_B, I_W, I_Z, I_V, I_WB, I_MOFFS, I_REL8, I_RELZ, I_BB,
	M = 0x10,	/* ModRM follows */
	X = 0x20,	/* invalid in 64-bit mode */
	P = 0x40,	/* a prefix (handled before the table) */
	S = 0x80,	/* special: decided in code */
};

/* One-byte map. */
static const unsigned char map1[256] = {
	/* 00 */ M, M, M, M, I_B, I_Z, X, X, M, M, M, M, I_B, I_Z, X, S,
	/* 10 */ M, M, M, M, I_B, I_Z, X, X, M, M, M, M, I_B, I_Z, X, X,
	/* 20 */ M, M, M, M, I_B, I_Z, P, X, M, M, M, M, I_B, I_Z, P, X,
	/* 30 */ M, M, M, M, I_B, I_Z, P, X, M, M, M, M, I_B, I_Z, P, X,
	/* 40 */ P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
	/* 50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 60 */ X, X, S, M, P, P, P, P, I_Z, M | I_Z, I_B, M | I_B, 0, 0, 0, 0,
	/* 70 */ I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8,
		 I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8,
	/* 80 */ M | I_B, M | I_Z, X, M | I_B, M, M, M, M, M, M, M, M, M, M, M, S,
	/* 90 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X, 0, 0, 0, 0, 0,
	/* a0 */ I_MOFFS, I_MOFFS, I_MOFFS, I_MOFFS, 0, 0, 0, 0,
		 I_B, I_Z, 0, 0, 0, 0, 0, 0,
	/* b0 */ I_B, I_B, I_B, I_B, I_B, I_B, I_B, I_B,
		 I_V, I_V, I_V, I_V, I_V, I_V, I_V, I_V,
	/* c0 */ M | I_B, M | I_B, I_W, 0, S, S, M | I_B, M | I_Z,
		 I_WB, 0, I_W, 0, 0, I_B, X, 0,
	/* d0 */ M, M, M, M, X, X, X, 0, M, M, M, M, M, M, M, M,
	/* e0 */ I_REL8, I_REL8, I_REL8, I_REL8, I_B, I_B, I_B, I_B,
		 I_RELZ, I_RELZ, X, I_REL8, 0, 0, 0, 0,
	/* f0 */ P, 0, P, P, 0, 0, M | S, M | S, 0, 0, 0, 0, 0, 0, M, M,
};

/* Two-byte map (0f xx).  0f 38 and 0f 3a are three-byte maps: ModRM, and
 * for 0f 3a an imm8. */
static const unsigned char map2[256] = {
	/* 00 */ M, M, M, M, X, 0, 0, 0, 0, 0, X, 0, X, M, 0, M | I_B,
	/* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 20 */ M, M, M, M, X, X, X, X, M, M, M, M, M, M, M, M,
	/* 30 */ 0, 0, 0, 0, 0, 0, X, 0, S, X, S, X, X, X, X, X,
	/* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 50 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 70 */ M | I_B, M | I_B, M | I_B, M | I_B, M, M, M, 0,
		 M | S, M, X, X, M, M, M, M,
	/* 80 */ I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ,
		 I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ, I_RELZ,
	/* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* a0 */ 0, 0, 0, M, M | I_B, M, X, X, 0, 0, 0, M, M | I_B, M, M, M,
	/* b0 */ M, M, M, M, M, M, M, M, M, M, M | I_B, M, M, M, M, M,
	/* c0 */ M, M, M | I_B, M, M | I_B, M | I_B, M | I_B, M,
		 0, 0, 0, 0, 0, 0, 0, 0,
	/* d0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* e0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* f0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};

/* VEX/EVEX map 1 (0f) opcodes that carry an imm8. */
static int vex_map1_imm(unsigned char op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 ||
	       op == 0xc5 || op == 0xc6;
}

static long long sext(const unsigned char *p, int size)
{
	switch (size) {
	case 1: return (signed char)p[0];
	case 2: return (short)(p[0] | p[1] << 8);
	case 4: return (int)(p[0] | p[1] << 8 | p[2] << 16 |
			     (unsigned int)p[3] << 24);
	default: {
		unsigned long long v = 0;
		int i;

		for (i = 7; i >= 0; i--)
			v = v << 8 | p[i];
		return (long long)v;
	}
	}
}

struct state {
	const unsigned char *c;
	unsigned long avail;
	unsigned long n;		/* bytes consumed */
	int opsize16, addr32, rep, repne, rex;
	int vex;			/* VEX/EVEX/XOP: no legacy map */
	int vvvv;			/* VEX/EVEX/XOP extra register */
	int base, index;		/* memory operand registers, -1: none */
	unsigned long disp_off;		/* its displacement, if disp_size */
	int disp_size;
};

/* ModRM, SIB and displacement.  Returns 0 if cut short. */
static int modrm(struct state *st, struct x86_insn *in, int *mod, int *reg,
		 int *rm)
{
	unsigned char b;
	int disp = 0;

	if (st->n >= st->avail)
		return 0;
	b = st->c[st->n++];
	*mod = b >> 6;
	*reg = (b >> 3) & 7;
	*rm = b & 7;
	st->base = st->index = -1;
	if (*mod != 3)
		st->base = *rm | (st->rex & 1) << 3;
	if (*mod != 3 && *rm == 4) {
		unsigned char sib;

		if (st->n >= st->avail)
			return 0;
		sib = st->c[st->n];
		st->base = (sib & 7) | (st->rex & 1) << 3;
		st->index = ((sib >> 3) & 7) | (st->rex & 2) << 2;
		if (st->index == 4)
			st->index = -1;
		if (*mod == 0 && (sib & 7) == 5) {
			disp = 4;
			st->base = -1;
		}
		st->n++;
	} else if (*mod == 0 && *rm == 5) {
		st->base = -1;
		in->rip_rel = 1;
		in->rel_off = st->n;
		in->rel_size = 4;
		disp = 4;
	}
	if (*mod == 1)
		disp = 1;
	else if (*mod == 2)
		disp = 4;
	st->disp_off = st->n;
	st->disp_size = disp;
	st->n += disp;
	return st->n <= st->avail;
}

/* Immediate of type t.  Returns its size, or -1 if the type is a branch
 * (handled by the caller). */
static int imm_size(const struct state *st, int t)
{
	switch (t) {
	case I_B: return 1;
	case I_W: return 2;
	case I_Z: return st->opsize16 ? 2 : 4;
	case I_V: return (st->rex & 8) ? 8 : st->opsize16 ? 2 : 4;
	case I_WB: return 3;
	case I_BB: return 2;
	case I_MOFFS: return st->addr32 ? 4 : 8;
	default: return 0;
	}
}

static int gpr_is_rax(int field, int rex_bit, const struct state *st)
{
	return field == 0 && !(st->rex & rex_bit);
}

/* Opcodes whose ModRM reg field extends the opcode instead of naming a
 * register (groups, x87, hints). */
static int reg_is_opcode(int map, unsigned char op)
{
	if (map == 1)
		return (op >= 0x80 && op <= 0x83) || op == 0x8f || op == 0xc0 ||
		       op == 0xc1 || op == 0xc6 || op == 0xc7 ||
		       (op >= 0xd0 && op <= 0xd3) || (op >= 0xd8 && op <= 0xdf) ||
		       op == 0xf6 || op == 0xf7 || op == 0xfe || op == 0xff;
	if (map == 2)
		return op == 0x00 || op == 0x01 || op == 0x0d ||
		       (op >= 0x18 && op <= 0x1f) || (op >= 0x71 && op <= 0x73) ||
		       op == 0xae || op == 0xba || op == 0xc7;
	return 0;
}

/* Implicit writes to rax by legacy-map instructions. */
static int map1_writes_rax(unsigned char op, int reg)
{
	if (op < 0x40 && (op & 7) >= 4 && (op & 7) <= 5)
		return (op & 0x38) != 0x38;	/* al/eax ALU forms but cmp */
	switch (op) {
	case 0x58: case 0x98: case 0x9f: case 0xa0: case 0xa1:
	case 0xac: case 0xad: case 0xb0: case 0xd7:
	case 0xe4: case 0xe5: case 0xec: case 0xed: case 0xe8:
	case 0xcd:
		return 1;
	case 0xf6: case 0xf7:
		return reg >= 4;			/* mul, imul, div, idiv */
	case 0xff:
		return reg == 2 || reg == 3;		/* calls clobber it */
	}
	return op >= 0x91 && op <= 0x97;		/* xchg with eax */
}

/* Legacy 0f-map opcodes whose ModRM fields name vector, mmx or x87
 * registers only (a memory operand aside). */
static int map2_vector(unsigned char op)
{
	return (op >= 0x10 && op <= 0x17) || op == 0x28 || op == 0x29 ||
	       op == 0x2b || op == 0x2e || op == 0x2f ||
	       (op >= 0x51 && op <= 0x6d) || op == 0x6f ||
	       (op >= 0x70 && op <= 0x76) || op == 0x7c || op == 0x7d ||
	       op == 0x7f || op == 0xc2 || op == 0xc6 ||
	       (op >= 0xd0 && op <= 0xd6) || op >= 0xd8;
}

/* VEX/EVEX/XOP opcodes with a general register operand (BMI, movd,
 * pextr/pinsr, movmsk...): all their register fields are checked. */
static int vex_gpr(int map, unsigned char op)
{
	return (map == 3 && op >= 0xf0) || map >= 8 ||
	       (map == 2 && (op == 0x50 || op == 0x6e || op == 0x7e ||
			     op == 0xc5 || op == 0xd7)) ||
	       (map == 4 && ((op >= 0x14 && op <= 0x17) || op == 0x20 ||
			     op == 0x22 || op == 0xf0));
}

/* enum x86_rsp for a decoded instruction (see decode.h).  Conservative:
 * a register field that may name %rsp (or %ah/%spl) counts as a use. */
static int rsp_use(const struct state *st, int map, unsigned char op,
		   int mod, int reg, int rm)
{
	int r = reg | (st->rex & 4) << 1, b = rm | (st->rex & 1) << 3;
	int gpr_reg, gpr_rm;

	if (!st->vex && map == 1) {
		if (!(st->rex & 1) && (op == 0x54 || op == 0x5c || op == 0x94 ||
				       op == 0xbc || (op == 0xb4 && st->rex)))
			return X86_RSP_READ;	/* push/pop/xchg/mov %rsp */
		if (op == 0xc8 || op == 0xc9)
			return X86_RSP_READ;	/* enter, leave */
	}
	if (!st->vex && map == 2 && op == 0xcc && !(st->rex & 1))
		return X86_RSP_READ;		/* bswap %esp */
	if (mod < 0)
		return X86_RSP_NO;
	if (!st->vex && map == 1 && op == 0x8d) {
		/* lea: only `lea d(%rsp),%rsp` moves the stack pointer
		 * without copying it elsewhere. */
		if (r == 4)
			return st->base == 4 && st->index < 0 ? X86_RSP_NO :
								  X86_RSP_READ;
		return st->base == 4 ? X86_RSP_READ : X86_RSP_NO;
	}
	if (mod != 3 && st->base == 4 &&
	    (st->index >= 0 ||
	     (st->disp_size && sext(st->c + st->disp_off, st->disp_size) < 0)))
		return X86_RSP_BELOW;
	if (st->vex) {
		gpr_reg = gpr_rm = vex_gpr(map, op);
		if (gpr_reg && st->vvvv == 4)
			return X86_RSP_READ;
	} else if (map == 1) {
		gpr_rm = !(op >= 0xd8 && op <= 0xdf);
		gpr_reg = !reg_is_opcode(1, op) && op != 0x8c && op != 0x8e;
	} else if (map == 2) {
		gpr_rm = !map2_vector(op);
		gpr_reg = gpr_rm && !reg_is_opcode(2, op);
	} else {
		gpr_rm = gpr_reg = map == 3 ? op >= 0xf0 :
			 (op >= 0x14 && op <= 0x17) || op == 0x20 || op == 0x22;
	}
	if (mod == 3 && gpr_rm && b == 4) {
		/* add/sub $imm,%rsp */
		if (!st->vex && map == 1 && (op == 0x81 || op == 0x83) &&
		    (reg == 0 || reg == 5) && (st->rex & 8))
			return X86_RSP_NO;
		return X86_RSP_READ;
	}
	return gpr_reg && r == 4 ? X86_RSP_READ : X86_RSP_NO;
}

/* 0f-map opcodes that touch only general registers and memory (else an
 * instruction counts as using vector or x87 state: x86_insn.vec) */
static int map2_gpr(unsigned char op, int mod, int reg, int rep)
{
	if (op <= 0x0d || (op >= 0x18 && op <= 0x23) ||
	    (op >= 0x30 && op <= 0x37) || (op >= 0x40 && op <= 0x4f) ||
	    (op >= 0x80 && op <= 0xad && op != 0xa6 && op != 0xa7) ||
	    (op >= 0xaf && op <= 0xc1) || op == 0xc3 || (op >= 0xc7 && op <= 0xcf) ||
	    op == 0xff)
		return 1;
	/* fences, and rd/wr fs/gs base; not fxsave, ldmxcsr, xsave... */
	return op == 0xae && mod == 3 && (reg >= 5 || (rep && reg <= 3));
}

static int decode(const unsigned char *code, unsigned long avail,
		  struct x86_insn *in, int full)
{
	struct state st = { code, avail > 15 ? 15 : avail, 0, 0, 0, 0, 0, 0, 0,
			    0, -1, -1, 0, 0 };
	unsigned char op, e;
	int map = 1, mod = -1, reg = 0, rm = 0, imm = 0, t, has_modrm;
	long long *target = &in->target;

	in->len = in->kind = in->rip_rel = in->rel_off = in->rel_size = 0;
	in->vec = 0;
	in->rax = X86_RAX_NO;
	in->rsp = X86_RSP_NO;
	in->imm = in->target = 0;

	/* Legacy prefixes, then at most one REX directly before the opcode. */
	for (;; st.n++) {
		if (st.n >= st.avail)
			return 0;
		op = code[st.n];
		if (op == 0x66)
			st.opsize16 = 1;
		else if (op == 0x67)
			st.addr32 = 1;
		else if (op == 0xf3)
			st.rep = 1;
		else if (op == 0xf2)
			st.repne = 1;
		else if (op == 0xf0 || op == 0x2e || op == 0x36 || op == 0x3e ||
			 op == 0x26 || op == 0x64 || op == 0x65)
			;
		else if ((op & 0xf0) == 0x40)
			st.rex = op;	/* a prefix after it cancels it: */
		else
			break;
		if ((op & 0xf0) != 0x40)
			st.rex = 0;
	}
	st.n++;
	if (st.rex & 8)
		st.opsize16 = 0;	/* REX.W wins over 66 */

	if (op == 0x0f) {
		if (st.n >= st.avail)
			return 0;
		op = code[st.n++];
		map = 2;
		if (op == 0x38 || op == 0x3a) {
			if (st.n >= st.avail)
				return 0;
			map = op == 0x38 ? 3 : 4;
			op = code[st.n++];
		}
	} else if (op == 0xc4 || op == 0xc5 || op == 0x62 ||
		   (op == 0x8f && st.n < st.avail && (code[st.n] & 0x1f) >= 8)) {
		/* VEX (c4 3-byte, c5 2-byte), EVEX (62), XOP (8f). */
		int plen = op == 0xc5 ? 1 : op == 0x62 ? 3 : 2;
		int evex = op == 0x62;
		unsigned char p0;

		if (st.rex || st.opsize16 || st.rep || st.repne ||
		    st.n + plen >= st.avail)
			return 0;
		p0 = code[st.n];
		if (op == 0xc5) {
			map = 2;
			st.rex = (p0 & 0x80) ? 0 : 4;
			st.vvvv = (~p0 >> 3) & 15;
		} else {
			int mmmmm = p0 & (evex ? 7 : 0x1f);

			if (op == 0x8f)
				map = mmmmm == 8 ? 8 : mmmmm == 9 ? 9 :
				      mmmmm == 10 ? 10 : 0;
			else
				map = mmmmm == 1 ? 2 : mmmmm == 2 ? 3 :
				      mmmmm == 3 ? 4 : mmmmm == 5 || mmmmm == 6 ? 3 : 0;
			if (!map)
				return 0;
			st.rex = (code[st.n + 1] & 0x80) ? 8 : 0;
			st.rex |= (p0 & 0x80) ? 0 : 4;
			st.rex |= (p0 & 0x20) ? 0 : 1;
			st.rex |= (p0 & 0x40) ? 0 : 2;
			st.vvvv = (~code[st.n + 1] >> 3) & 15;
			if (evex && ((p0 & 0x08) || !(code[st.n + 1] & 0x04)))
				return 0;	/* EVEX fixed bits */
		}
		st.n += plen;
		op = code[st.n++];
		st.vex = 1;
		if (map == 2 && op == 0x77 && !evex)
			goto done;	/* vzeroupper/vzeroall: no ModRM */
		if (!modrm(&st, in, &mod, &reg, &rm))
			return 0;
		if (map == 4 || map == 8 || (map == 2 && vex_map1_imm(op)))
			imm = 1;
		else if (map == 10)
			imm = 4;
		st.n += imm;
		if (st.n > st.avail)
			return 0;
		if ((mod == 3 && rm == 0) || reg == 0)
			in->rax = X86_RAX_MAY;	/* GPR forms (andn, vmovd...) */
		goto done;
	}

	e = map == 1 ? map1[op] : map == 2 ? map2[op] : map == 3 ? M : M | I_B;
	if (e & (X | P))
		return 0;
	t = e & 0x0f;
	has_modrm = e & M;
	if (e & S) {
		if (map == 1 && op == 0x0f)
			;
		else if (map == 1 && op == 0x62)
			return 0;	/* BOUND does not exist in 64-bit mode */
		else if (map == 1 && op == 0x8f)
			has_modrm = 1;	/* pop r/m (XOP handled above) */
		else if (map == 1 && (op == 0xc4 || op == 0xc5))
			return 0;
		else if (map == 2 && (op == 0x38 || op == 0x3a))
			return 0;
		else if (map == 2 && op == 0x78)
			t = st.opsize16 || st.repne ? I_BB : 0;	/* extrq/insertq */
	}
	if (map == 2 && op >= 0x20 && op <= 0x23) {
		/* mov to/from control and debug registers: mod is ignored,
		 * the operand is always a register. */
		if (st.n >= st.avail)
			return 0;
		mod = 3;
		reg = (code[st.n] >> 3) & 7;
		rm = code[st.n++] & 7;
		has_modrm = 0;
	} else if (has_modrm && !modrm(&st, in, &mod, &reg, &rm)) {
		return 0;
	}
	if (map == 1 && (op == 0xf6 || op == 0xf7) && reg < 2)
		t = op == 0xf6 ? I_B : I_Z;	/* test r/m, imm */
	if (map == 1 && op == 0xc7 && mod == 3 && reg == 7)
		t = I_RELZ;			/* xbegin */

	if (t == I_RELZ && st.opsize16 && !(map == 1 && op == 0xc7))
		return 0;	/* rel16 on AMD, rel32 on Intel: ambiguous */
	if (t == I_REL8 || t == I_RELZ) {
		int size = t == I_REL8 ? 1 : st.opsize16 && map == 1 && op == 0xc7 ? 2 : 4;

		in->rel_off = st.n;
		in->rel_size = size;
		st.n += size;
		if (st.n > st.avail)
			return 0;
		*target = st.n + sext(code + in->rel_off, size);
		if (map == 1 && (op == 0xeb || op == 0xe9))
			in->kind = X86_JMP;
		else if (map == 1 && op == 0xe8)
			in->kind = X86_CALL;
		else if (map == 1 && op == 0xc7)
			in->kind = X86_OTHER;	/* xbegin: falls through too */
		else
			in->kind = X86_JCC;
	} else {
		imm = imm_size(&st, t);
		if (imm && st.n + imm <= st.avail && map == 1 && !st.opsize16 &&
		    op >= 0xb8 && op <= 0xbf && gpr_is_rax(op & 7, 1, &st)) {
			in->rax = X86_RAX_IMM;
			in->imm = imm == 8 ? sext(code + st.n, 8) :
				  (long long)(unsigned int)sext(code + st.n, 4);
		}
		if (map == 1 && op == 0xc7 && mod == 3 && reg == 0 &&
		    !st.opsize16 && gpr_is_rax(rm, 1, &st) &&
		    st.n + 4 <= st.avail) {
			in->rax = X86_RAX_IMM;
			in->imm = sext(code + st.n, 4);
			if (!(st.rex & 8))
				in->imm = (unsigned int)in->imm;
		}
		st.n += imm;
		if (st.n > st.avail)
			return 0;
	}
	/* Kind. */
	if (map == 1) {
		switch (op) {
		case 0xc3: case 0xc2: case 0xcb: case 0xca: case 0xcf:
			in->kind = X86_RET;
			break;
		case 0xcc:
			in->kind = X86_INT3;
			break;
		case 0xcd:
			if (code[st.n - 1] == 0x80)
				in->kind = X86_INT80;
			break;
		case 0xf4: case 0xf1:
			in->kind = X86_STOP;
			break;
		case 0x90:
			if (!(st.rex & 1))
				in->kind = X86_NOP;
			break;
		case 0xff:
			if (reg == 4 || reg == 5)
				in->kind = X86_JMP_IND;
			else if (reg == 2 || reg == 3)
				in->kind = X86_CALL_IND;
			break;
		}
	} else if (map == 2) {
		if (op == 0x05)
			in->kind = X86_SYSCALL;
		else if (op == 0x34)
			in->kind = X86_SYSENTER;
		else if (op == 0x0b || op == 0xb9 || op == 0xff)
			in->kind = X86_STOP;
		else if (op == 0x1f && reg == 0)
			in->kind = X86_NOP;
		else if (op == 0x1e && st.rep && mod == 3 && reg == 7 &&
			 (rm == 2 || rm == 3))
			in->kind = X86_ENDBR;
	}

	/* What happens to rax (X86_RAX_IMM was set above). */
	if (!full)
		;
	else if (in->rax == X86_RAX_NO && map == 1 && !st.opsize16 &&
	    ((op == 0x31 || op == 0x33 || op == 0x29 || op == 0x2b) &&
	     mod == 3 && reg == rm && gpr_is_rax(rm, 1, &st) &&
	     gpr_is_rax(reg, 4, &st))) {
		in->rax = X86_RAX_IMM;	/* xor/sub %eax,%eax */
		in->imm = 0;
	} else if (in->rax == X86_RAX_NO) {
		int may = 0;

		if (map == 1)
			may = map1_writes_rax(op, reg);
		else if (map == 2)
			may = !has_modrm ? !(op >= 0x80 && op <= 0x8f) :
			      op == 0xb0 || op == 0xb1 || op == 0x01 ||
			      (op == 0xc7 && reg == 1);
		if (has_modrm && ((mod == 3 && gpr_is_rax(rm, 1, &st)) ||
				  (!reg_is_opcode(map, op) &&
				   gpr_is_rax(reg, 4, &st))))
			may = 1;
		if (map == 1 && op >= 0xb0 && op <= 0xbf && gpr_is_rax(op & 7, 1, &st))
			may = 1;
		if (map == 1 && op == 0x90 && (st.rex & 1))
			may = 1;		/* xchg %r8,%rax */
		if (may)
			in->rax = X86_RAX_MAY;
	}
done:
	if (st.n > 15 || st.n > avail)
		return 0;
	if (st.vex || (map == 1 && ((op >= 0xd8 && op <= 0xdf) || op == 0x9b)) ||
	    (map == 2 && !map2_gpr(op, mod, reg, st.rep)) ||
	    (map == 3 && op != 0xf0 && op != 0xf1 && op != 0xf6) || map == 4)
		in->vec = 1;
	if (full)
		in->rsp = rsp_use(&st, map, op, mod, reg, rm);
	if (in->rip_rel)
		*target = st.n + sext(code + in->rel_off, 4);
	in->len = st.n;
	return st.n;
}

static int decode_or_clear(const unsigned char *code, unsigned long avail,
			   struct x86_insn *in, int full)
{
	int n = decode(code, avail, in, full);

	if (!n) {
		/* Nothing half-decoded is left for a caller to trust. */
		in->len = in->kind = in->rip_rel = in->rel_off = 0;
		in->rel_size = in->rax = in->rsp = in->vec = 0;
		in->imm = in->target = 0;
	}
	return n;
}

int x86_decode(const unsigned char *code, unsigned long avail,
	       struct x86_insn *in)
{
	return decode_or_clear(code, avail, in, 1);
}

int x86_decode_flow(const unsigned char *code, unsigned long avail,
		    struct x86_insn *in)
{
	return decode_or_clear(code, avail, in, 0);
}

int x86_redzone_scan(const unsigned char *code, unsigned long len,
		     const unsigned char *starts)
{
	unsigned long off = 0, k;
	int worst = X86_RSP_NO;

	while (off < len) {
		struct x86_insn in;
		int n = x86_decode(code + off, len - off, &in);

		if (!n)
			return X86_RSP_UNDECODED;
		for (k = off + 1; starts && k < off + n; k++)
			if ((starts[k >> 3] >> (k & 7)) & 1)
				return X86_RSP_UNDECODED;
		if (in.rsp > worst)
			worst = in.rsp;
		off += n;
	}
	return worst;
}

/* Bounds of x86_fpu_free's walk: past them the answer is "not shown". */
#define FPU_SCAN_INSNS 4096
#define FPU_SCAN_STARTS 256

static int fpu_scan_add(unsigned long *starts, int *nstarts, unsigned long *todo,
			int *ntodo, unsigned long pc)
{
	int i;

	for (i = 0; i < *nstarts; i++)
		if (starts[i] == pc)
			return 1;
	if (*nstarts == FPU_SCAN_STARTS)
		return 0;
	starts[(*nstarts)++] = pc;
	todo[(*ntodo)++] = pc;
	return 1;
}

int x86_fpu_free(unsigned long fn,
		 long (*read)(void *dst, const void *src, unsigned long len))
{
	unsigned long starts[FPU_SCAN_STARTS], todo[FPU_SCAN_STARTS];
	int nstarts = 0, ntodo = 0, insns = 0;

	if (!fpu_scan_add(starts, &nstarts, todo, &ntodo, fn))
		return 0;
	while (ntodo) {
		unsigned long pc = todo[--ntodo];

		for (;;) {
			unsigned char buf[16];
			struct x86_insn in;
			long n = read(buf, (const void *)pc, sizeof(buf));
			int more = 1;

			if (n <= 0 || ++insns > FPU_SCAN_INSNS ||
			    !x86_decode_flow(buf, (unsigned long)n, &in) ||
			    in.vec)
				return 0;
			switch (in.kind) {
			case X86_RET:
			case X86_STOP:
				more = 0;
				break;
			case X86_JMP_IND:	/* a PLT entry, a switch, a tail */
			case X86_CALL_IND:	/* call: code not seen */
			case X86_INT3:
				return 0;
			case X86_JMP:
				more = 0;
				/* fall through */
			case X86_JCC:
			case X86_CALL:		/* (its callee returns here) */
				if (!fpu_scan_add(starts, &nstarts, todo, &ntodo,
						  pc + in.target))
					return 0;
				break;
			}
			if (!more)
				break;
			pc += in.len;
		}
	}
	return 1;
}
