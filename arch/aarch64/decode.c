/* SPDX-License-Identifier: MIT */
/* aarch64 instruction classifier and encoders (see decode.h). */
#include "decode.h"

static int64_t sext(uint64_t v, int width)
{
	uint64_t m = 1ULL << (width - 1);

	v &= (1ULL << width) - 1;
	return (int64_t)((v ^ m) - m);
}

uint32_t a64_word(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

void a64_decode(const unsigned char *p, struct a64_insn *in)
{
	uint32_t w = a64_word(p);

	in->kind = A64_OTHER;
	in->rd = -1;
	in->sf = 0;
	in->imm = 0;
	if ((w & 0xffe0001f) == 0xd4000001) {
		in->kind = A64_SVC;
		in->imm = (w >> 5) & 0xffff;
	} else if ((w & 0xffe0001f) == 0xd4200000) {
		in->kind = A64_BRK;
		in->imm = (w >> 5) & 0xffff;
	} else if ((w >> 16) == 0) {
		in->kind = A64_UDF;
		in->imm = w;
	} else if ((w & 0x7c000000) == 0x14000000) {
		in->kind = (w >> 31) ? A64_BL : A64_B;
		in->imm = sext(w, 26) * 4;
	} else if ((w & 0xff000000) == 0x54000000) {
		in->kind = A64_BCOND;
		in->imm = sext(w >> 5, 19) * 4;
	} else if ((w & 0x7e000000) == 0x34000000) {
		in->kind = A64_CB;
		in->imm = sext(w >> 5, 19) * 4;
	} else if ((w & 0x7e000000) == 0x36000000) {
		in->kind = A64_TB;
		in->imm = sext(w >> 5, 14) * 4;
	} else if ((w & 0xfe000000) == 0xd6000000) {
		/* opc x001 is blr or blraa; the rest never fall through */
		in->kind = ((w >> 21) & 7) == 1 ? A64_BLR : A64_BR;
	} else if ((w & 0x1f800000) == 0x12800000) {
		unsigned int opc = (w >> 29) & 3, hw = (w >> 21) & 3;
		uint64_t v = (uint64_t)((w >> 5) & 0xffff) << (16 * hw);

		in->sf = w >> 31;
		in->rd = w & 31;
		if (opc == 1 || (!in->sf && hw > 1)) {
			in->kind = A64_OTHER;	/* unallocated */
			in->rd = -1;
		} else if (opc == 3) {
			in->kind = A64_MOVK;
			in->imm = v;
		} else {
			in->kind = A64_MOVW;
			if (opc == 0)
				v = ~v;
			if (!in->sf)
				v &= 0xffffffffULL;
			in->imm = (int64_t)v;
		}
	} else if ((w & 0x1f000000) == 0x10000000) {
		in->kind = A64_ADR;
		in->rd = w & 31;
		in->imm = sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21);
		if (w >> 31)
			in->imm *= 4096;
	} else if ((w & 0xffffff3f) == 0xd503241f) {
		in->kind = A64_BTI;
	}
}

int a64_branch_offset(const struct a64_insn *in, long *off)
{
	switch (in->kind) {
	case A64_B:
	case A64_BL:
	case A64_BCOND:
	case A64_CB:
	case A64_TB:
		*off = in->imm;
		return 1;
	default:
		return 0;
	}
}

int a64_may_write(uint32_t w, const struct a64_insn *in, int reg)
{
	switch (in->kind) {
	case A64_SVC:
	case A64_BRK:
	case A64_UDF:
	case A64_B:
	case A64_BCOND:
	case A64_CB:
	case A64_TB:
	case A64_BR:
	case A64_BTI:
		return 0;
	case A64_BL:
	case A64_BLR:
		return reg == 30;
	case A64_MOVW:
	case A64_MOVK:
	case A64_ADR:
		return in->rd == reg;
	default:
		if (w == A64_NOP)
			return 0;
		return (int)(w & 31) == reg || (int)((w >> 5) & 31) == reg ||
		       (int)((w >> 10) & 31) == reg ||
		       (int)((w >> 16) & 31) == reg;
	}
}

uint32_t a64_enc_b(long off)
{
	if ((off & 3) || off < -(1L << 27) || off >= (1L << 27))
		return 0;
	return 0x14000000u | (((uint32_t)(off >> 2)) & 0x3ffffff);
}

uint32_t a64_enc_adrp(int rd, long page_off)
{
	uint32_t v = (uint32_t)page_off & 0x1fffff;

	if (page_off < -(1L << 20) || page_off >= (1L << 20))
		return 0;
	return 0x90000000u | (v & 3) << 29 | (v >> 2) << 5 | (rd & 31);
}

uint32_t a64_enc_ldr_uimm(int rt, int rn, unsigned long off)
{
	if ((off & 7) || off / 8 > 4095)
		return 0;
	return 0xf9400000u | (uint32_t)(off / 8) << 10 | (rn & 31) << 5 |
	       (rt & 31);
}

uint32_t a64_enc_brk(unsigned int imm)
{
	return 0xd4200000u | (imm & 0xffff) << 5;
}

uint32_t a64_enc_svc(unsigned int imm)
{
	return 0xd4000001u | (imm & 0xffff) << 5;
}
