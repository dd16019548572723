/* SPDX-License-Identifier: MIT */
/*
 * rv64gc decoder and the few encoders patches need (see decode.h).
 * Written from the ISA manual's encoding tables; freestanding.
 */
#include "decode.h"

static uint32_t bits(uint32_t x, int hi, int lo)
{
	return (x >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static int64_t sext(uint64_t v, int width)
{
	uint64_t m = 1ULL << (width - 1);

	return (int64_t)((v ^ m) - m);
}

static void clear(struct rv_insn *in)
{
	in->len = 0;
	in->kind = RV_INVALID;
	in->rd = in->rs1 = in->rs2 = -1;
	in->fp = 0;
	in->mem = 0;
	in->is_li = 0;
	in->imm = 0;
}

static int8_t reg(uint32_t r)
{
	return r ? (int8_t)r : -1;
}

/* rs fields: x0 read is no dependency. */
static void set_rs(struct rv_insn *in, uint32_t r1, uint32_t r2)
{
	in->rs1 = reg(r1);
	in->rs2 = reg(r2);
}

static int decode32(uint32_t w, struct rv_insn *in)
{
	uint32_t op = bits(w, 6, 0), rd = bits(w, 11, 7), f3 = bits(w, 14, 12);
	uint32_t rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
	uint32_t f7 = bits(w, 31, 25);
	int64_t i_imm = sext(bits(w, 31, 20), 12);

	in->kind = RV_PLAIN;
	switch (op) {
	case 0x37:		/* lui */
		in->rd = reg(rd);
		in->is_li = 1;
		in->imm = sext((uint64_t)(w & 0xfffff000u), 32);
		return 1;
	case 0x17:		/* auipc */
		in->kind = RV_AUIPC;
		in->rd = reg(rd);
		in->imm = sext((uint64_t)(w & 0xfffff000u), 32);
		return 1;
	case 0x6f:		/* jal */
		in->kind = RV_JAL;
		in->rd = reg(rd);
		in->imm = sext((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) |
			       (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1), 21);
		return 1;
	case 0x67:		/* jalr */
		if (f3)
			return 0;
		in->kind = RV_JALR;
		in->rd = reg(rd);
		in->rs1 = reg(rs1);
		in->imm = i_imm;
		return 1;
	case 0x63:		/* branches */
		if (f3 == 2 || f3 == 3)
			return 0;
		in->kind = RV_BRANCH;
		set_rs(in, rs1, rs2);
		in->imm = sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) |
			       (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1), 13);
		return 1;
	case 0x03:		/* loads */
		if (f3 == 7)
			return 0;
		in->rd = reg(rd);
		in->rs1 = reg(rs1);
		in->imm = i_imm;
		in->mem = 1;
		return 1;
	case 0x23:		/* stores */
		if (f3 > 3)
			return 0;
		set_rs(in, rs1, rs2);
		in->imm = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
		in->mem = 1;
		return 1;
	case 0x13:		/* op-imm */
		if ((f3 == 1 && bits(w, 31, 26)) ||
		    (f3 == 5 && (bits(w, 31, 26) & ~0x10u)))
			return 0;
		in->rd = reg(rd);
		in->rs1 = reg(rs1);
		in->imm = i_imm;
		in->is_li = f3 == 0 && rs1 == 0;
		return 1;
	case 0x1b:		/* op-imm-32 */
		if ((f3 == 1 && f7) || (f3 == 5 && (f7 & ~0x20u)) ||
		    (f3 != 0 && f3 != 1 && f3 != 5))
			return 0;
		in->rd = reg(rd);
		in->rs1 = reg(rs1);
		in->imm = i_imm;
		in->is_li = f3 == 0 && rs1 == 0;
		return 1;
	case 0x33:		/* op: base (f7 0/0x20) and M (f7 1) */
	case 0x3b:		/* op-32 */
		if (f7 == 1) {
			if (op == 0x3b && f3 && f3 < 4)
				return 0;
		} else if (f7 == 0x20) {
			if (f3 != 0 && f3 != 5)
				return 0;
		} else if (f7 || (op == 0x3b && f3 != 0 && f3 != 1 && f3 != 5)) {
			return 0;
		}
		in->rd = reg(rd);
		set_rs(in, rs1, rs2);
		return 1;
	case 0x0f:		/* fence, fence.i */
		if (f3 == 1) {
			in->kind = RV_SYSTEM;
			return 1;
		}
		return f3 == 0;
	case 0x73:		/* system */
		if (f3 == 0) {
			if (w == 0x00000073)
				in->kind = RV_ECALL;
			else if (w == 0x00100073)
				in->kind = RV_EBREAK;
			else
				in->kind = RV_SYSTEM;
			return 1;
		}
		if (f3 == 4)
			return 0;
		in->rd = reg(rd);
		in->rs1 = f3 < 4 ? reg(rs1) : -1;
		/* Reading counters (rs1 = x0 with csrrs) or the FP CSRs has no
		 * side effect a move could change. */
		{
			uint32_t csr = bits(w, 31, 20);

			if (csr >= 1 && csr <= 3) {
				in->fp = 1;
			} else if (!((csr >= 0xc00 && csr <= 0xc02) && f3 == 2 &&
				     rs1 == 0)) {
				in->kind = RV_SYSTEM;
			}
		}
		return 1;
	case 0x2f:		/* atomics */
		if (f3 != 2 && f3 != 3)
			return 0;
		in->rd = reg(rd);
		set_rs(in, rs1, rs2);
		in->mem = 1;
		return 1;
	case 0x07:		/* flw, fld */
	case 0x27:		/* fsw, fsd */
		if (f3 != 2 && f3 != 3)
			return 0;
		in->rs1 = reg(rs1);
		in->fp = 1;
		in->mem = 1;
		in->imm = op == 0x07 ? i_imm :
			  sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
		return 1;
	case 0x43: case 0x47: case 0x4b: case 0x4f:	/* fused multiply-add */
		if (bits(w, 26, 25) > 1)
			return 0;
		in->fp = 1;
		return 1;
	case 0x53: {		/* op-fp */
		uint32_t f5 = bits(w, 31, 27);

		if (bits(w, 26, 25) > 1)
			return 0;
		in->fp = 1;
		/* fcvt.{w,l}*.{s,d}, fmv.x.*, fclass, compares: write x rd */
		if (f5 == 0x18 || f5 == 0x1c || f5 == 0x14)
			in->rd = reg(rd);
		/* fcvt.{s,d}.{w,l}*, fmv.*.x: read x rs1 */
		if (f5 == 0x1a || f5 == 0x1e)
			in->rs1 = reg(rs1);
		return 1;
	}
	default:
		return 0;
	}
}

static int creg(uint32_t r)
{
	return 8 + (int)r;
}

static int decode16(uint32_t h, struct rv_insn *in)
{
	uint32_t q = h & 3, f3 = bits(h, 15, 13);
	uint32_t rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);

	in->kind = RV_PLAIN;
	if (h == 0)
		return 0;		/* c.unimp */
	if (q == 0) {
		uint32_t rdp = creg(bits(h, 4, 2)), rs1p = creg(bits(h, 9, 7));

		switch (f3) {
		case 0:		/* c.addi4spn */
			if (!bits(h, 12, 5))
				return 0;
			in->rd = rdp;
			in->rs1 = 2;
			return 1;
		case 1: case 5:	/* c.fld, c.fsd */
			in->rs1 = rs1p;
			in->fp = in->mem = 1;
			return 1;
		case 2: case 3:	/* c.lw, c.ld */
			in->rd = rdp;
			in->rs1 = rs1p;
			in->mem = 1;
			return 1;
		case 6: case 7:	/* c.sw, c.sd */
			in->rs1 = rs1p;
			in->rs2 = rdp;
			in->mem = 1;
			return 1;
		default:
			return 0;
		}
	}
	if (q == 1) {
		int64_t imm6 = sext((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
		uint32_t rdp = creg(bits(h, 9, 7));

		switch (f3) {
		case 0:		/* c.nop, c.addi */
			in->rd = reg(rd);
			in->rs1 = reg(rd);
			in->imm = imm6;
			return 1;
		case 1:		/* c.addiw */
			if (!rd)
				return 0;
			in->rd = in->rs1 = rd;
			in->imm = imm6;
			return 1;
		case 2:		/* c.li */
			in->rd = reg(rd);
			in->imm = imm6;
			in->is_li = 1;
			return 1;
		case 3:
			if (rd == 2) {	/* c.addi16sp */
				int64_t v = sext((bits(h, 12, 12) << 9) |
						 (bits(h, 4, 3) << 7) |
						 (bits(h, 5, 5) << 6) |
						 (bits(h, 2, 2) << 5) |
						 (bits(h, 6, 6) << 4), 10);
				if (!v)
					return 0;
				in->rd = in->rs1 = 2;
				in->imm = v;
				return 1;
			}
			if (!imm6)
				return 0;	/* c.lui with imm 0 */
			in->rd = reg(rd);
			in->imm = imm6 * 4096;
			in->is_li = 1;
			return 1;
		case 4: {
			uint32_t f2 = bits(h, 11, 10);

			if (f2 == 3 && bits(h, 12, 12) && bits(h, 6, 5) > 1)
				return 0;
			in->rd = in->rs1 = rdp;
			if (f2 == 3)
				in->rs2 = creg(bits(h, 4, 2));
			in->imm = imm6;
			return 1;
		}
		case 5:		/* c.j */
			in->kind = RV_JAL;
			in->imm = sext((bits(h, 12, 12) << 11) | (bits(h, 8, 8) << 10) |
				       (bits(h, 10, 9) << 8) | (bits(h, 6, 6) << 7) |
				       (bits(h, 7, 7) << 6) | (bits(h, 2, 2) << 5) |
				       (bits(h, 11, 11) << 4) | (bits(h, 5, 3) << 1), 12);
			return 1;
		default:	/* c.beqz, c.bnez */
			in->kind = RV_BRANCH;
			in->rs1 = rdp;
			in->imm = sext((bits(h, 12, 12) << 8) | (bits(h, 6, 5) << 6) |
				       (bits(h, 2, 2) << 5) | (bits(h, 11, 10) << 3) |
				       (bits(h, 4, 3) << 1), 9);
			return 1;
		}
	}
	/* q == 2 */
	switch (f3) {
	case 0:			/* c.slli */
		in->rd = in->rs1 = reg(rd);
		return 1;
	case 1: case 5:		/* c.fldsp, c.fsdsp */
		in->rs1 = 2;
		in->fp = in->mem = 1;
		return 1;
	case 2: case 3:		/* c.lwsp, c.ldsp */
		if (!rd)
			return 0;
		in->rd = rd;
		in->rs1 = 2;
		in->mem = 1;
		in->imm = f3 == 3 ? (bits(h, 12, 12) << 5) | (bits(h, 6, 5) << 3) |
					    (bits(h, 4, 2) << 6) :
				    (bits(h, 12, 12) << 5) | (bits(h, 6, 4) << 2) |
					    (bits(h, 3, 2) << 6);
		return 1;
	case 4:
		if (!bits(h, 12, 12)) {
			if (!rs2) {		/* c.jr */
				if (!rd)
					return 0;
				in->kind = RV_JALR;
				in->rs1 = rd;
				return 1;
			}
			in->rd = reg(rd);	/* c.mv */
			in->rs1 = reg(rs2);
			return 1;
		}
		if (!rs2) {
			if (!rd) {		/* c.ebreak */
				in->kind = RV_EBREAK;
				return 1;
			}
			in->kind = RV_JALR;	/* c.jalr */
			in->rd = 1;
			in->rs1 = rd;
			return 1;
		}
		in->rd = reg(rd);		/* c.add */
		set_rs(in, rd, rs2);
		return 1;
	default:		/* c.swsp, c.sdsp */
		in->rs1 = 2;
		in->rs2 = reg(rs2);
		in->mem = 1;
		return 1;
	}
}

int rv_decode(const unsigned char *p, unsigned long avail, struct rv_insn *in)
{
	uint32_t w;

	clear(in);
	if (avail < 2)
		return 0;
	w = p[0] | (uint32_t)p[1] << 8;
	if ((w & 3) != 3) {
		if (!decode16(w, in)) {
			clear(in);
			return 0;
		}
		in->len = 2;
		return 2;
	}
	if ((w & 0x1f) == 0x1f || avail < 4)
		return 0;	/* 48-bit and longer forms are not rv64gc */
	w |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (!decode32(w, in)) {
		clear(in);
		return 0;
	}
	in->len = 4;
	return 4;
}

int rv_is_li(const struct rv_insn *in, int *r, long *value)
{
	if (!in->is_li || in->rd <= 0)
		return 0;
	*r = in->rd;
	*value = in->imm;
	return 1;
}

/* --- encoders ----------------------------------------------------------- */

static int put32(unsigned char *out, uint32_t w)
{
	out[0] = w;
	out[1] = w >> 8;
	out[2] = w >> 16;
	out[3] = w >> 24;
	return 4;
}

static int put16(unsigned char *out, uint32_t h)
{
	out[0] = h;
	out[1] = h >> 8;
	return 2;
}

static int fits(long v, int width)
{
	return v >= -(1L << (width - 1)) && v < (1L << (width - 1));
}

int rv_enc_jal(unsigned char *out, int rd, long off)
{
	uint32_t u = (uint32_t)off;

	if (!fits(off, 21) || (off & 1))
		return 0;
	return put32(out, (bits(u, 20, 20) << 31) | (bits(u, 10, 1) << 21) |
				  (bits(u, 11, 11) << 20) | (bits(u, 19, 12) << 12) |
				  (uint32_t)rd << 7 | 0x6f);
}

static int enc_i(unsigned char *out, uint32_t op, uint32_t f3, int rd,
		 int rs1, long imm)
{
	if (!fits(imm, 12))
		return 0;
	return put32(out, ((uint32_t)imm & 0xfff) << 20 | (uint32_t)rs1 << 15 |
				  f3 << 12 | (uint32_t)rd << 7 | op);
}

int rv_enc_jalr(unsigned char *out, int rd, int rs1, long imm12)
{
	return enc_i(out, 0x67, 0, rd, rs1, imm12);
}

int rv_enc_addi(unsigned char *out, int rd, int rs1, long imm12)
{
	return enc_i(out, 0x13, 0, rd, rs1, imm12);
}

int rv_enc_ld(unsigned char *out, int rd, int rs1, long imm12)
{
	return enc_i(out, 0x03, 3, rd, rs1, imm12);
}

int rv_enc_sd(unsigned char *out, int rs2, int rs1, long imm12)
{
	uint32_t u = (uint32_t)imm12;

	if (!fits(imm12, 12))
		return 0;
	return put32(out, bits(u, 11, 5) << 25 | (uint32_t)rs2 << 20 |
				  (uint32_t)rs1 << 15 | 3u << 12 | bits(u, 4, 0) << 7 |
				  0x23);
}

int rv_enc_auipc(unsigned char *out, int rd, long imm20)
{
	if (!fits(imm20, 20))
		return 0;
	return put32(out, ((uint32_t)imm20 & 0xfffff) << 12 | (uint32_t)rd << 7 |
				  0x17);
}

int rv_enc_lui(unsigned char *out, int rd, long imm20)
{
	if (!fits(imm20, 20))
		return 0;
	return put32(out, ((uint32_t)imm20 & 0xfffff) << 12 | (uint32_t)rd << 7 |
				  0x37);
}

int rv_enc_bgeu(unsigned char *out, int rs1, int rs2, long off)
{
	uint32_t u = (uint32_t)off;

	if (!fits(off, 13) || (off & 1))
		return 0;
	return put32(out, bits(u, 12, 12) << 31 | bits(u, 10, 5) << 25 |
				  (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | 7u << 12 |
				  bits(u, 4, 1) << 8 | bits(u, 11, 11) << 7 | 0x63);
}

int rv_enc_li(unsigned char *out, int rd, long imm)
{
	if (imm >= -32 && imm < 32)
		return put16(out, 2u << 13 | bits((uint32_t)imm, 5, 5) << 12 |
					  (uint32_t)rd << 7 |
					  bits((uint32_t)imm, 4, 0) << 2 | 1);
	return rv_enc_addi(out, rd, 0, imm);
}

int rv_enc_ecall(unsigned char *out)
{
	return put32(out, 0x00000073);
}

int rv_enc_ebreak(unsigned char *out, int compressed)
{
	return compressed ? put16(out, 0x9002) : put32(out, 0x00100073);
}

int rv_enc_c_addi16sp(unsigned char *out, long imm)
{
	uint32_t u = (uint32_t)imm;

	if (!imm || (imm & 15) || imm < -512 || imm > 496)
		return 0;
	return put16(out, 3u << 13 | bits(u, 9, 9) << 12 | 2u << 7 |
				  bits(u, 4, 4) << 6 | bits(u, 6, 6) << 5 |
				  bits(u, 8, 7) << 3 | bits(u, 5, 5) << 2 | 1);
}

int rv_enc_c_sdsp(unsigned char *out, int rs2, long off)
{
	uint32_t u = (uint32_t)off;

	if (off < 0 || off > 504 || (off & 7))
		return 0;
	return put16(out, 7u << 13 | bits(u, 5, 3) << 10 | bits(u, 8, 6) << 7 |
				  (uint32_t)rs2 << 2 | 2);
}

int rv_enc_c_ldsp(unsigned char *out, int rd, long off)
{
	uint32_t u = (uint32_t)off;

	if (!rd || off < 0 || off > 504 || (off & 7))
		return 0;
	return put16(out, 3u << 13 | bits(u, 5, 5) << 12 | (uint32_t)rd << 7 |
				  bits(u, 4, 3) << 5 | bits(u, 8, 6) << 2 | 2);
}

int rv_enc_c_nop(unsigned char *out)
{
	return put16(out, 0x0001);
}

int rv_split_hi_lo(long dist, long *hi20, long *lo12)
{
	long lo = (long)((uint64_t)dist << 52) >> 52;	/* sign-extended low 12 */
	long hi = (dist - lo) >> 12;

	*hi20 = hi;
	*lo12 = lo;
	return hi >= -(1L << 19) && hi < (1L << 19);
}

int rv_relocate(unsigned char *out, const unsigned char *orig,
		const struct rv_insn *in)
{
	int i;

	if (in->kind != RV_PLAIN)
		return 0;
	for (i = 0; i < in->len; i++)
		out[i] = orig[i];
	return in->len;
}
