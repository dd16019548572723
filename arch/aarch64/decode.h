/* SPDX-License-Identifier: MIT */
/*
 * aarch64 instruction classifier: every instruction is one aligned 32-bit
 * word, so "decoding" is telling apart the few kinds the patcher cares
 * about -- `svc`, breakpoints, direct branches and their targets, the
 * `mov x8/w8, #imm` (movz/movn) that sets a system call's number, and
 * whether a word may write a given register -- and encoding the handful
 * of words a stub is made of.  Not a disassembler.  Freestanding.
 *
 * sysgate keeps start-up in milliseconds and has no dependencies, so this
 * is sysgate's own (Debian 12's capstone is 4.0.2).
 */
#ifndef SG_A64_DECODE_H
#define SG_A64_DECODE_H

#include <stdint.h>

enum a64_kind {
	A64_OTHER = 0,	/* anything else: falls through, pc not read */
	A64_SVC,	/* svc #imm: imm */
	A64_BRK,	/* brk #imm: imm */
	A64_UDF,	/* udf #imm (0x0000xxxx), also zero padding */
	A64_B,		/* b: imm = offset */
	A64_BL,		/* bl: imm = offset, writes x30 */
	A64_BCOND,	/* b.cond, bc.cond: imm = offset */
	A64_CB,		/* cbz, cbnz: imm = offset */
	A64_TB,		/* tbz, tbnz: imm = offset */
	A64_BR,		/* br, ret, eret and their PAC forms: no fallthrough */
	A64_BLR,	/* blr (and PAC forms): indirect call */
	A64_MOVW,	/* movz, movn: rd = imm (the value loaded) */
	A64_MOVK,	/* movk: rd keeps other bits */
	A64_ADR,	/* adr, adrp: reads pc */
	A64_BTI,	/* bti: an indirect branch may land here */
};

struct a64_insn {
	uint8_t kind;	/* enum a64_kind */
	int8_t rd;	/* MOVW/MOVK/ADR: destination (31 = xzr), else -1 */
	uint8_t sf;	/* MOVW/MOVK: 64-bit form */
	int64_t imm;	/* see enum a64_kind */
};

/* Classify the little-endian word at p. */
void a64_decode(const unsigned char *p, struct a64_insn *in);
uint32_t a64_word(const unsigned char *p);

/* Direct branch (b, bl, b.cond, cbz/cbnz, tbz/tbnz): 1 and *off, else 0. */
int a64_branch_offset(const struct a64_insn *in, long *off);

/* May the instruction write general register reg (0..30)?  Conservative:
 * 1 whenever any register field of the word names reg, so loads, pair
 * loads, writeback addressing and compare-and-swap are all covered. */
int a64_may_write(uint32_t w, const struct a64_insn *in, int reg);

/* Encoders: the word, or 0 when the operand does not fit. */
uint32_t a64_enc_b(long off);		/* ±128 MiB, 4-byte aligned */
uint32_t a64_enc_adrp(int rd, long page_off);	/* ±4 GiB, in pages */
uint32_t a64_enc_ldr_uimm(int rt, int rn, unsigned long off); /* x, off/8 */
uint32_t a64_enc_brk(unsigned int imm);
uint32_t a64_enc_svc(unsigned int imm);

#define A64_SVC0	0xd4000001u	/* svc #0 */
#define A64_NOP		0xd503201fu
#define A64_PUSH_LR	0xa9bf7ffeu	/* stp x30, xzr, [sp, #-16]! */
#define A64_BLR_LR	0xd63f03c0u	/* blr x30 */
#define A64_POP_LR	0xf84107feu	/* ldr x30, [sp], #16 */
#define A64_POP_LR_X16	0xa8c143feu	/* ldp x30, x16, [sp], #16 */
#define A64_X30		30

#endif
