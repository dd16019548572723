/* SPDX-License-Identifier: MIT */
/*
 * rv64gc instruction decoder and encoders (see decode.h).  Written from
 * the RISC-V unprivileged ISA manual (RV64I, M, A, F, D, Zicsr, Zifencei,
 * C) plus the few privileged SYSTEM encodings the manual lists.
 *
 * Rules of this file: freestanding (no libc, not even memcpy: it runs on
 * the patcher's path inside the preloaded library), no tables bigger than
 * a line, and every encoding the ISA reserves is reported as invalid so a
 * linear walk over data notices it is not looking at code.
 */
#include "decode.h"

#define BITS(x, hi, lo) (((x) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))
#define BIT(x, n) (((x) >> (n)) & 1u)

/* Sign-extend the low `bits` bits of v. */
static int64_t sext(uint64_t v, int bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* x0 reads and writes carry no state: report them as "none". */
static int8_t reg(unsigned int r)
{
	return r ? (int8_t)r : -1;
}

static void set(struct rv_insn *in, int len, int kind, int rd, int rs1,
		int rs2, int64_t imm)
{
	in->len = (uint8_t)len;
	in->kind = (uint8_t)kind;
	in->rd = (int8_t)rd;
	in->rs1 = (int8_t)rs1;
	in->rs2 = (int8_t)rs2;
	in->imm = imm;
}

static int invalid(struct rv_insn *in)
{
	set(in, 0, RV_INVALID, -1, -1, -1, 0);
	in->fp = in->mem = in->li = 0;
	return 0;
}

int rv_insn_length(const unsigned char *p, unsigned long avail)
{
	if (avail < 2)
		return 0;
	if ((p[0] & 3) != 3)
		return 2;
	if ((p[0] & 0x1c) != 0x1c)
		return avail >= 4 ? 4 : 0;
	return 0;	/* 48-bit and longer: not in rv64gc */
}

/* ---- compressed (RVC), rv64 meanings ---- */

static int decode16(unsigned int c, struct rv_insn *in)
{
	unsigned int f3 = BITS(c, 15, 13), r = BITS(c, 11, 7);
	unsigned int r2 = BITS(c, 6, 2);
	unsigned int rp = 8 + BITS(c, 9, 7), rp2 = 8 + BITS(c, 4, 2);
	int64_t imm;

	switch ((BITS(c, 1, 0) << 3) | f3) {
	case 000:	/* c.addi4spn; nzuimm 0 (incl. 0x0000) is reserved */
		imm = (BITS(c, 12, 11) << 4) | (BITS(c, 10, 7) << 6) |
		      (BIT(c, 6) << 2) | (BIT(c, 5) << 3);
		if (!imm)
			return invalid(in);
		set(in, 2, RV_PLAIN, rp2, 2, -1, imm);
		return 2;
	case 001:	/* c.fld */
	case 003:	/* c.ld */
		imm = (BITS(c, 12, 10) << 3) | (BITS(c, 6, 5) << 6);
		set(in, 2, RV_PLAIN, f3 == 1 ? -1 : (int)rp2, rp, -1, imm);
		in->fp = f3 == 1;
		in->mem = 1;
		return 2;
	case 002:	/* c.lw */
		imm = (BITS(c, 12, 10) << 3) | (BIT(c, 6) << 2) |
		      (BIT(c, 5) << 6);
		set(in, 2, RV_PLAIN, rp2, rp, -1, imm);
		in->mem = 1;
		return 2;
	case 004:	/* reserved (Zcb lives here: not rv64gc) */
		return invalid(in);
	case 005:	/* c.fsd */
	case 007:	/* c.sd */
		imm = (BITS(c, 12, 10) << 3) | (BITS(c, 6, 5) << 6);
		set(in, 2, RV_PLAIN, -1, rp, f3 == 5 ? -1 : (int)rp2, imm);
		in->fp = f3 == 5;
		in->mem = 1;
		return 2;
	case 006:	/* c.sw */
		imm = (BITS(c, 12, 10) << 3) | (BIT(c, 6) << 2) |
		      (BIT(c, 5) << 6);
		set(in, 2, RV_PLAIN, -1, rp, rp2, imm);
		in->mem = 1;
		return 2;

	case 010:	/* c.addi, c.nop (rd 0: hints, still valid) */
		imm = sext((BIT(c, 12) << 5) | r2, 6);
		set(in, 2, RV_PLAIN, reg(r), reg(r), -1, imm);
		return 2;
	case 011:	/* c.addiw (c.jal is rv32 only); rd 0 reserved */
		if (!r)
			return invalid(in);
		imm = sext((BIT(c, 12) << 5) | r2, 6);
		set(in, 2, RV_PLAIN, r, r, -1, imm);
		return 2;
	case 012:	/* c.li */
		imm = sext((BIT(c, 12) << 5) | r2, 6);
		set(in, 2, RV_PLAIN, reg(r), -1, -1, imm);
		in->li = 1;
		return 2;
	case 013:
		if (r == 2) {	/* c.addi16sp; 0 reserved */
			imm = sext((BIT(c, 12) << 9) | (BIT(c, 6) << 4) |
				   (BIT(c, 5) << 6) | (BITS(c, 4, 3) << 7) |
				   (BIT(c, 2) << 5), 10);
			if (!imm)
				return invalid(in);
			set(in, 2, RV_PLAIN, 2, 2, -1, imm);
			return 2;
		}
		/* c.lui; 0 reserved */
		imm = sext((BIT(c, 12) << 17) | (r2 << 12), 18);
		if (!imm)
			return invalid(in);
		set(in, 2, RV_PLAIN, reg(r), -1, -1, imm);
		in->li = 1;
		return 2;
	case 014:
		switch (BITS(c, 11, 10)) {
		case 0:		/* c.srli */
		case 1:		/* c.srai */
			set(in, 2, RV_PLAIN, rp, rp, -1,
			    (BIT(c, 12) << 5) | r2);
			return 2;
		case 2:		/* c.andi */
			set(in, 2, RV_PLAIN, rp, rp, -1,
			    sext((BIT(c, 12) << 5) | r2, 6));
			return 2;
		}
		/* c.sub c.xor c.or c.and / c.subw c.addw; the other two
		 * are reserved (Zcb's c.mul and friends) */
		if (BIT(c, 12) && BITS(c, 6, 5) >= 2)
			return invalid(in);
		set(in, 2, RV_PLAIN, rp, rp, rp2, 0);
		return 2;
	case 015:	/* c.j */
		imm = sext((BIT(c, 12) << 11) | (BIT(c, 11) << 4) |
			   (BITS(c, 10, 9) << 8) | (BIT(c, 8) << 10) |
			   (BIT(c, 7) << 6) | (BIT(c, 6) << 7) |
			   (BITS(c, 5, 3) << 1) | (BIT(c, 2) << 5), 12);
		set(in, 2, RV_JAL, -1, -1, -1, imm);
		return 2;
	case 016:	/* c.beqz */
	case 017:	/* c.bnez */
		imm = sext((BIT(c, 12) << 8) | (BITS(c, 11, 10) << 3) |
			   (BITS(c, 6, 5) << 6) | (BITS(c, 4, 3) << 1) |
			   (BIT(c, 2) << 5), 9);
		set(in, 2, RV_BRANCH, -1, rp, -1, imm);
		return 2;

	case 020:	/* c.slli (rd 0: hint) */
		set(in, 2, RV_PLAIN, reg(r), reg(r), -1,
		    (BIT(c, 12) << 5) | r2);
		return 2;
	case 021:	/* c.fldsp */
	case 023:	/* c.ldsp; rd 0 reserved */
		if (f3 == 3 && !r)
			return invalid(in);
		imm = (BIT(c, 12) << 5) | (BITS(c, 6, 5) << 3) |
		      (BITS(c, 4, 2) << 6);
		set(in, 2, RV_PLAIN, f3 == 1 ? -1 : (int)r, 2, -1, imm);
		in->fp = f3 == 1;
		in->mem = 1;
		return 2;
	case 022:	/* c.lwsp; rd 0 reserved */
		if (!r)
			return invalid(in);
		imm = (BIT(c, 12) << 5) | (BITS(c, 6, 4) << 2) |
		      (BITS(c, 3, 2) << 6);
		set(in, 2, RV_PLAIN, r, 2, -1, imm);
		in->mem = 1;
		return 2;
	case 024:
		if (!BIT(c, 12)) {
			if (r2) {	/* c.mv: add rd, x0, rs2 */
				set(in, 2, RV_PLAIN, reg(r), -1, r2, 0);
				return 2;
			}
			if (!r)		/* c.jr x0: reserved */
				return invalid(in);
			set(in, 2, RV_JALR, -1, r, -1, 0);	/* c.jr */
			return 2;
		}
		if (r2) {	/* c.add */
			set(in, 2, RV_PLAIN, reg(r), reg(r), r2, 0);
			return 2;
		}
		if (!r) {
			set(in, 2, RV_EBREAK, -1, -1, -1, 0);
			return 2;
		}
		set(in, 2, RV_JALR, 1, r, -1, 0);	/* c.jalr: ra = pc+2 */
		return 2;
	case 025:	/* c.fsdsp */
	case 027:	/* c.sdsp */
		imm = (BITS(c, 12, 10) << 3) | (BITS(c, 9, 7) << 6);
		set(in, 2, RV_PLAIN, -1, 2, f3 == 5 ? -1 : (int)reg(r2), imm);
		in->fp = f3 == 5;
		in->mem = 1;
		return 2;
	case 026:	/* c.swsp */
		imm = (BITS(c, 12, 9) << 2) | (BITS(c, 8, 7) << 6);
		set(in, 2, RV_PLAIN, -1, 2, reg(r2), imm);
		in->mem = 1;
		return 2;
	}
	return invalid(in);
}

/* ---- 32-bit ---- */

/* Rounding modes 5 and 6 are reserved. */
static int bad_rm(unsigned int rm)
{
	return rm == 5 || rm == 6;
}

/* OP-FP (fmt S or D in funct7's low bits).  Only a few forms read or
 * write integer registers. */
static int decode_opfp(uint32_t w, struct rv_insn *in)
{
	unsigned int f7 = BITS(w, 31, 25), f3 = BITS(w, 14, 12);
	unsigned int rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15);
	unsigned int rs2 = BITS(w, 24, 20);
	int ird = -1, irs1 = -1;

	if (BITS(f7, 1, 0) > 1)		/* H and Q formats: not rv64gc */
		return invalid(in);
	switch (f7 >> 2) {
	/* fadd fsub fmul fdiv */
	case 0x00: case 0x01: case 0x02: case 0x03:
		if (bad_rm(f3))
			return invalid(in);
		break;
	case 0x0b:			/* fsqrt */
		if (rs2 || bad_rm(f3))
			return invalid(in);
		break;
	case 0x04:			/* fsgnj, fsgnjn, fsgnjx */
		if (f3 > 2)
			return invalid(in);
		break;
	case 0x05:			/* fmin, fmax */
		if (f3 > 1)
			return invalid(in);
		break;
	case 0x08:	/* fcvt.s.d (fmt S, rs2 1), fcvt.d.s (fmt D, rs2 0) */
		if (rs2 != (BIT(f7, 0) ? 0u : 1u) || bad_rm(f3))
			return invalid(in);
		break;
	case 0x14:			/* fle, flt, feq -> integer rd */
		if (f3 > 2)
			return invalid(in);
		ird = reg(rd);
		break;
	case 0x18:			/* fcvt.{w,wu,l,lu}.{s,d} */
		if (rs2 > 3 || bad_rm(f3))
			return invalid(in);
		ird = reg(rd);
		break;
	case 0x1a:			/* fcvt.{s,d}.{w,wu,l,lu} */
		if (rs2 > 3 || bad_rm(f3))
			return invalid(in);
		irs1 = reg(rs1);
		break;
	case 0x1c:			/* fmv.x.{w,d}, fclass */
		if (rs2 || f3 > 1)
			return invalid(in);
		ird = reg(rd);
		break;
	case 0x1e:			/* fmv.{w,d}.x */
		if (rs2 || f3)
			return invalid(in);
		irs1 = reg(rs1);
		break;
	default:
		return invalid(in);
	}
	set(in, 4, RV_PLAIN, ird, irs1, -1, 0);
	in->fp = 1;
	return 4;
}

/* Zicsr.  Counter reads and the FP status registers are harmless
 * (RV_PLAIN); any other CSR access may have side effects. */
static int decode_csr(uint32_t w, struct rv_insn *in)
{
	unsigned int f3 = BITS(w, 14, 12), csr = BITS(w, 31, 20);
	unsigned int rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15);
	int imm_form = f3 & 4;
	/* csrrs/csrrc with x0 (or a zero uimm) write nothing */
	int read_only = (f3 & 3) != 1 && rs1 == 0;
	int kind = RV_SYSTEM;

	if (csr >= 1 && csr <= 3) {	/* fflags, frm, fcsr */
		kind = RV_PLAIN;
		in->fp = 1;
	} else if (csr >= 0xc00 && csr <= 0xc02 && read_only) {
		kind = RV_PLAIN;	/* cycle, time, instret */
	}
	set(in, 4, kind, reg(rd), imm_form ? -1 : reg(rs1), -1, csr);
	return 4;
}

static int decode_system(uint32_t w, struct rv_insn *in)
{
	unsigned int f3 = BITS(w, 14, 12);

	if (f3 == 4)			/* hypervisor loads: not rv64gc */
		return invalid(in);
	if (f3)
		return decode_csr(w, in);
	switch (w) {
	case 0x00000073:
		set(in, 4, RV_ECALL, -1, -1, -1, 0);
		return 4;
	case 0x00100073:
		set(in, 4, RV_EBREAK, -1, -1, -1, 0);
		return 4;
	case 0x10200073:		/* sret */
	case 0x30200073:		/* mret */
	case 0x10500073:		/* wfi */
		set(in, 4, RV_SYSTEM, -1, -1, -1, 0);
		return 4;
	}
	/* sfence.vma rs1, rs2 */
	if (BITS(w, 31, 25) == 0x09 && !BITS(w, 11, 7)) {
		set(in, 4, RV_SYSTEM, -1, reg(BITS(w, 19, 15)),
		    reg(BITS(w, 24, 20)), 0);
		return 4;
	}
	return invalid(in);
}

static int decode32(uint32_t w, struct rv_insn *in)
{
	unsigned int f3 = BITS(w, 14, 12), f7 = BITS(w, 31, 25);
	unsigned int rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15);
	unsigned int rs2 = BITS(w, 24, 20);
	int64_t i_imm = sext(w >> 20, 12);
	int64_t s_imm = sext((f7 << 5) | rd, 12);
	int64_t b_imm = sext((BIT(w, 31) << 12) | (BIT(w, 7) << 11) |
			     (BITS(w, 30, 25) << 5) | (BITS(w, 11, 8) << 1),
			     13);
	int64_t u_imm = sext(w & 0xfffff000u, 32);
	int64_t j_imm = sext((BIT(w, 31) << 20) | (BITS(w, 19, 12) << 12) |
			     (BIT(w, 20) << 11) | (BITS(w, 30, 21) << 1), 21);

	switch (BITS(w, 6, 2)) {
	case 0x00:	/* LOAD: lb lh lw ld lbu lhu lwu */
		if (f3 == 7)
			return invalid(in);
		set(in, 4, RV_PLAIN, reg(rd), reg(rs1), -1, i_imm);
		in->mem = 1;
		return 4;
	case 0x01:	/* LOAD-FP: flw fld (others: Zfh, Q, V) */
		if (f3 != 2 && f3 != 3)
			return invalid(in);
		set(in, 4, RV_PLAIN, -1, reg(rs1), -1, i_imm);
		in->fp = in->mem = 1;
		return 4;
	case 0x03:	/* MISC-MEM; implementations ignore fence's other
			   fields, so any fence is a fence */
		if (f3 == 0) {
			set(in, 4, RV_PLAIN, -1, -1, -1, i_imm);
			return 4;
		}
		if (f3 == 1) {	/* fence.i: changes what is fetched */
			set(in, 4, RV_SYSTEM, -1, -1, -1, i_imm);
			return 4;
		}
		return invalid(in);	/* Zicbo*: not rv64gc */
	case 0x04:	/* OP-IMM */
		if (f3 == 1 && BITS(w, 31, 26))
			return invalid(in);		/* slli */
		if (f3 == 5 && (BITS(w, 31, 26) & ~0x10u))
			return invalid(in);		/* srli srai */
		set(in, 4, RV_PLAIN, reg(rd), reg(rs1), -1,
		    (f3 == 1 || f3 == 5) ? (int64_t)BITS(w, 25, 20) : i_imm);
		in->li = f3 == 0 && rs1 == 0;
		return 4;
	case 0x05:	/* AUIPC */
		set(in, 4, RV_AUIPC, reg(rd), -1, -1, u_imm);
		return 4;
	case 0x06:	/* OP-IMM-32 */
		if (f3 == 0) {	/* addiw */
			set(in, 4, RV_PLAIN, reg(rd), reg(rs1), -1, i_imm);
			in->li = rs1 == 0;
			return 4;
		}
		if ((f3 == 1 && f7) || (f3 == 5 && (f7 & ~0x20u)) ||
		    (f3 != 1 && f3 != 5))
			return invalid(in);
		set(in, 4, RV_PLAIN, reg(rd), reg(rs1), -1, rs2);
		return 4;
	case 0x08:	/* STORE: sb sh sw sd */
		if (f3 > 3)
			return invalid(in);
		set(in, 4, RV_PLAIN, -1, reg(rs1), reg(rs2), s_imm);
		in->mem = 1;
		return 4;
	case 0x09:	/* STORE-FP: fsw fsd */
		if (f3 != 2 && f3 != 3)
			return invalid(in);
		set(in, 4, RV_PLAIN, -1, reg(rs1), -1, s_imm);
		in->fp = in->mem = 1;
		return 4;
	case 0x0b:	/* AMO: .w/.d; lr needs rs2 0 */
		if (f3 != 2 && f3 != 3)
			return invalid(in);
		switch (f7 >> 2) {
		case 0x02:	/* lr */
			if (rs2)
				return invalid(in);
			/* fall through */
		case 0x00: case 0x01: case 0x03: case 0x04: case 0x08:
		case 0x0c: case 0x10: case 0x14: case 0x18: case 0x1c:
			set(in, 4, RV_PLAIN, reg(rd), reg(rs1), reg(rs2), 0);
			in->mem = 1;
			return 4;
		}
		return invalid(in);
	case 0x0c:	/* OP */
		if (f7 == 0x20 ? (f3 != 0 && f3 != 5) : (f7 != 0 && f7 != 1))
			return invalid(in);
		set(in, 4, RV_PLAIN, reg(rd), reg(rs1), reg(rs2), 0);
		return 4;
	case 0x0d:	/* LUI */
		set(in, 4, RV_PLAIN, reg(rd), -1, -1, u_imm);
		in->li = 1;
		return 4;
	case 0x0e:	/* OP-32 */
		if (f7 == 0 ? (f3 != 0 && f3 != 1 && f3 != 5) :
		    f7 == 0x20 ? (f3 != 0 && f3 != 5) :
		    f7 == 1 ? (f3 != 0 && f3 < 4) : 1)
			return invalid(in);
		set(in, 4, RV_PLAIN, reg(rd), reg(rs1), reg(rs2), 0);
		return 4;
	/* fmadd fmsub fnmsub fnmadd */
	case 0x10: case 0x11: case 0x12: case 0x13:
		if (BITS(w, 26, 25) > 1 || bad_rm(f3))
			return invalid(in);
		set(in, 4, RV_PLAIN, -1, -1, -1, 0);
		in->fp = 1;
		return 4;
	case 0x14:
		return decode_opfp(w, in);
	case 0x18:	/* BRANCH */
		if (f3 == 2 || f3 == 3)
			return invalid(in);
		set(in, 4, RV_BRANCH, -1, reg(rs1), reg(rs2), b_imm);
		return 4;
	case 0x19:	/* JALR */
		if (f3)
			return invalid(in);
		set(in, 4, RV_JALR, reg(rd), reg(rs1), -1, i_imm);
		return 4;
	case 0x1b:	/* JAL */
		set(in, 4, RV_JAL, reg(rd), -1, -1, j_imm);
		return 4;
	case 0x1c:
		return decode_system(w, in);
	}
	/* custom-*, OP-V, reserved opcodes */
	return invalid(in);
}

int rv_decode(const unsigned char *p, unsigned long avail, struct rv_insn *in)
{
	int len = rv_insn_length(p, avail);

	in->fp = in->mem = in->li = 0;
	if (len == 2)
		return decode16(p[0] | (unsigned int)p[1] << 8, in);
	if (len == 4)
		return decode32(p[0] | (uint32_t)p[1] << 8 |
				(uint32_t)p[2] << 16 | (uint32_t)p[3] << 24,
				in);
	return invalid(in);
}

int rv_is_li(const struct rv_insn *in, int *reg_out, long *value)
{
	if (!in->len || !in->li || in->rd < 0)
		return 0;
	*reg_out = in->rd;
	*value = (long)in->imm;
	return 1;
}

/* ---- encoders ---- */

static int put16(unsigned char *out, uint32_t v)
{
	out[0] = (unsigned char)v;
	out[1] = (unsigned char)(v >> 8);
	return 2;
}

static int put32(unsigned char *out, uint32_t v)
{
	put16(out, v);
	put16(out + 2, v >> 16);
	return 4;
}

static int is_reg(int r)
{
	return r >= 0 && r < 32;
}

static int fits(long v, long lo, long hi)
{
	return v >= lo && v <= hi;
}

static uint32_t i_type(unsigned int op, unsigned int f3, int rd, int rs1,
		       long imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | (uint32_t)rs1 << 15 | f3 << 12 |
	       (uint32_t)rd << 7 | op;
}

int rv_enc_jal(unsigned char *out, int rd, long off)
{
	uint32_t o = (uint32_t)off;

	if (!is_reg(rd) || (off & 1) || !fits(off, -(1L << 20), (1L << 20) - 2))
		return 0;
	return put32(out, BIT(o, 20) << 31 | BITS(o, 10, 1) << 21 |
		     BIT(o, 11) << 20 | BITS(o, 19, 12) << 12 |
		     (uint32_t)rd << 7 | 0x6f);
}

int rv_enc_jalr(unsigned char *out, int rd, int rs1, long imm12)
{
	if (!is_reg(rd) || !is_reg(rs1) || !fits(imm12, -2048, 2047))
		return 0;
	return put32(out, i_type(0x67, 0, rd, rs1, imm12));
}

int rv_enc_auipc(unsigned char *out, int rd, long imm20)
{
	if (!is_reg(rd) || !fits(imm20, -(1L << 19), (1L << 19) - 1))
		return 0;
	return put32(out, ((uint32_t)imm20 & 0xfffff) << 12 |
		     (uint32_t)rd << 7 | 0x17);
}

int rv_enc_lui(unsigned char *out, int rd, long imm20)
{
	if (!is_reg(rd) || !fits(imm20, -(1L << 19), (1L << 19) - 1))
		return 0;
	return put32(out, ((uint32_t)imm20 & 0xfffff) << 12 |
		     (uint32_t)rd << 7 | 0x37);
}

int rv_enc_bgeu(unsigned char *out, int rs1, int rs2, long off)
{
	uint32_t o = (uint32_t)off;

	if (!is_reg(rs1) || !is_reg(rs2) || (off & 1) ||
	    !fits(off, -(1L << 12), (1L << 12) - 2))
		return 0;
	return put32(out, BIT(o, 12) << 31 | BITS(o, 10, 5) << 25 |
		     (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | 7u << 12 |
		     BITS(o, 4, 1) << 8 | BIT(o, 11) << 7 | 0x63);
}

int rv_enc_addi(unsigned char *out, int rd, int rs1, long imm12)
{
	if (!is_reg(rd) || !is_reg(rs1) || !fits(imm12, -2048, 2047))
		return 0;
	return put32(out, i_type(0x13, 0, rd, rs1, imm12));
}

int rv_enc_ld(unsigned char *out, int rd, int rs1, long imm12)
{
	if (!is_reg(rd) || !is_reg(rs1) || !fits(imm12, -2048, 2047))
		return 0;
	return put32(out, i_type(0x03, 3, rd, rs1, imm12));
}

int rv_enc_sd(unsigned char *out, int rs2, int rs1, long imm12)
{
	uint32_t i = (uint32_t)imm12;

	if (!is_reg(rs2) || !is_reg(rs1) || !fits(imm12, -2048, 2047))
		return 0;
	return put32(out, BITS(i, 11, 5) << 25 | (uint32_t)rs2 << 20 |
		     (uint32_t)rs1 << 15 | 3u << 12 | BITS(i, 4, 0) << 7 |
		     0x23);
}

int rv_enc_li(unsigned char *out, int rd, long imm)
{
	if (rd <= 0 || rd >= 32)	/* li x0 would be a hint, not a load */
		return 0;
	if (fits(imm, -32, 31))
		return put16(out, 0x4001 | ((uint32_t)imm & 0x20) << 7 |
			     (uint32_t)rd << 7 | ((uint32_t)imm & 0x1f) << 2);
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
	uint32_t i = (uint32_t)imm;

	if (!imm || (imm & 15) || !fits(imm, -512, 496))
		return 0;
	return put16(out, 0x6101 | BIT(i, 9) << 12 | BIT(i, 4) << 6 |
		     BIT(i, 6) << 5 | BITS(i, 8, 7) << 3 | BIT(i, 5) << 2);
}

int rv_enc_c_sdsp(unsigned char *out, int rs2, long off)
{
	uint32_t o = (uint32_t)off;

	if (!is_reg(rs2) || (off & 7) || !fits(off, 0, 504))
		return 0;
	return put16(out, 0xe002 | BITS(o, 5, 3) << 10 | BITS(o, 8, 6) << 7 |
		     (uint32_t)rs2 << 2);
}

int rv_enc_c_ldsp(unsigned char *out, int rd, long off)
{
	uint32_t o = (uint32_t)off;

	if (rd <= 0 || rd >= 32 || (off & 7) || !fits(off, 0, 504))
		return 0;
	return put16(out, 0x6002 | BIT(o, 5) << 12 | (uint32_t)rd << 7 |
		     BITS(o, 4, 3) << 5 | BITS(o, 8, 6) << 2);
}

int rv_enc_c_nop(unsigned char *out)
{
	return put16(out, 0x0001);
}

int rv_split_hi_lo(long dist, long *hi20, long *lo12)
{
	long lo;

	/* auipc adds a sign-extended hi20 << 12, and the next instruction
	 * a sign-extended lo12: hi20 absorbs lo12's borrow. */
	if (dist < -0x80000800L || dist > 0x7ffff7ffL)
		return 0;
	lo = (long)(((unsigned long)dist & 0xfff) ^ 0x800) - 0x800;
	*lo12 = lo;
	*hi20 = (dist - lo) >> 12;
	return 1;
}

int rv_relocate(unsigned char *out, const unsigned char *orig,
		const struct rv_insn *in)
{
	int i;

	if (in->kind != RV_PLAIN || !in->len)
		return 0;
	for (i = 0; i < in->len; i++)
		out[i] = orig[i];
	return in->len;
}

/* ---- the system call number an ecall will use ---- */

int rv_find_a7(const unsigned char *code, unsigned long start,
	       unsigned long ecall_off, long *nr)
{
	struct rv_insn in;
	unsigned long off, li_off = 0;
	long value = 0;
	int known = 0, r, len;

	if (start > ecall_off)
		return 0;
	/* Pass 1: the last write to a7 before the ecall, if it is an li and
	 * no control transfer follows it. */
	for (off = start; off < ecall_off; off += (unsigned long)len) {
		len = rv_decode(code + off, ecall_off + 4 - off, &in);
		if (!len) {
			/* padding between functions: resync */
			len = rv_insn_length(code + off, ecall_off + 4 - off);
			if (!len)
				return 0;
			known = 0;
			continue;
		}
		if (in.kind == RV_JAL || in.kind == RV_JALR ||
		    in.kind == RV_BRANCH)
			known = 0;
		else if (in.rd == 17)
			known = rv_is_li(&in, &r, &value);
		if (known && in.rd == 17)
			li_off = off;
	}
	if (off != ecall_off || rv_decode(code + off, 4, &in) != 4 ||
	    in.kind != RV_ECALL || !known)
		return 0;
	/* Pass 2: a branch seen on the way that lands after the li skips
	 * it.  (Branches after the ecall are not seen: the caller passes a
	 * start that makes this enough, e.g. a function's entry.) */
	for (off = start; off < ecall_off; off += (unsigned long)len) {
		len = rv_decode(code + off, ecall_off + 4 - off, &in);
		if (!len) {
			len = rv_insn_length(code + off, ecall_off + 4 - off);
			continue;
		}
		if ((in.kind == RV_JAL || in.kind == RV_BRANCH) &&
		    (long)off + in.imm > (long)li_off &&
		    (long)off + in.imm <= (long)ecall_off)
			return 0;
	}
	*nr = value;
	return 1;
}
