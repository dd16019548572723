/* SPDX-License-Identifier: MIT */
/*
 * rv64gc instruction decoder: length, kind, registers and immediates --
 * just what the patcher needs to walk code from a known boundary, decide
 * which neighbours of an `ecall` may be relocated, find the `li a7, N`
 * that sets the system call number, and encode the few instructions a
 * patch is made of.  Not a disassembler.  Freestanding (no libc).
 *
 * Debian 12's capstone has no RISC-V, and sysgate keeps start-up in
 * milliseconds, so this is sysgate's own.
 */
#ifndef SG_RV_DECODE_H
#define SG_RV_DECODE_H

#include <stdint.h>

enum rv_kind {
	RV_INVALID = 0,	/* not a valid rv64gc instruction (incl. c.unimp
			   0x0000) */
	RV_PLAIN,	/* does not read pc and always falls through: may be
			   relocated (ALU, loads/stores, FP, atomics, fences
			   other than fence.i, csr reads of counters...) */
	RV_ECALL,	/* ecall */
	RV_EBREAK,	/* ebreak, c.ebreak */
	RV_AUIPC,	/* auipc: reads pc; imm = the added value (<<12
			   done) */
	RV_JAL,		/* jal, c.j (c.jal is rv32 only: its encoding is
			   c.addiw here): imm = offset */
	RV_JALR,	/* jalr, c.jr, c.jalr: indirect, imm = offset */
	RV_BRANCH,	/* beq..bgeu, c.beqz, c.bnez: imm = offset */
	RV_SYSTEM,	/* other SYSTEM/privileged: csrrw.. with side effects,
			   fence.i, wfi, mret...: never relocated */
};

struct rv_insn {
	uint8_t len;	/* 2 or 4; 0 when invalid or cut short */
	uint8_t kind;	/* enum rv_kind */
	int8_t rd;	/* integer register written (1..31), -1 if none
			   (x0 as destination counts as none; so do FP
			   destinations: fld fa0,8(a0) has rd -1, fp 1) */
	int8_t rs1;	/* integer registers read, -1 if none (x0 as a
			   source counts as none too: it carries no state).
			   c.jalr: rd 1 (ra); c.mv: rs2 only */
	int8_t rs2;
	uint8_t fp;	/* touches FP registers (f0-f31 or fcsr) */
	uint8_t mem;	/* loads or stores memory (incl. lr/sc/amo) */
	uint8_t li;	/* rd = imm, reading no register: c.li, c.lui, lui,
			   addi/addiw rd,x0,imm (see rv_is_li) */
	int64_t imm;	/* sign-extended immediate: I/S/B/U/J formats
			   (and the compressed forms, scaled as the ISA says);
			   shifts: the shift amount; lui/c.lui/auipc: the
			   value added (<<12 done); Zicsr: the CSR number;
			   R-type, AMO, FP arithmetic: 0 */
};

/* Decode the instruction at p[0..avail).  Returns its length (2 or 4), or
 * 0 if the bytes are not a valid rv64gc instruction or are cut short.
 * RVC is always accepted (rv64gc). */
int rv_decode(const unsigned char *p, unsigned long avail, struct rv_insn *in);

/* The length the encoding announces (2 or 4), valid or not, so a linear
 * walk can step over an invalid instruction (c.unimp padding, 0x0000);
 * 0 for 48-bit and longer encodings or when fewer bytes are available. */
int rv_insn_length(const unsigned char *p, unsigned long avail);

/* If the instruction loads a constant into a register without reading any
 * register but x0 (c.li, addi rd,x0,imm, addiw rd,x0,imm, lui, c.lui):
 * returns 1 and sets *reg and *value; else 0 (also for a hint that writes
 * x0). */
int rv_is_li(const struct rv_insn *in, int *reg, long *value);

/* Encoders.  Each writes the instruction to out (little-endian) and
 * returns its length in bytes, or 0 if the operands cannot be encoded
 * (offset out of range or misaligned, register not allowed). */
int rv_enc_jal(unsigned char *out, int rd, long off);	/* ±1 MiB */
int rv_enc_jalr(unsigned char *out, int rd, int rs1, long imm12);
/* imm20: the value added >> 12, signed: -0x80000..0x7ffff */
int rv_enc_auipc(unsigned char *out, int rd, long imm20);
int rv_enc_lui(unsigned char *out, int rd, long imm20); /* same range */
int rv_enc_bgeu(unsigned char *out, int rs1, int rs2, long off); /* ±4 KiB */
int rv_enc_addi(unsigned char *out, int rd, int rs1, long imm12);
int rv_enc_ld(unsigned char *out, int rd, int rs1, long imm12);
int rv_enc_sd(unsigned char *out, int rs2, int rs1, long imm12);
int rv_enc_li(unsigned char *out, int rd, long imm); /* c.li or addi rd,x0 */
int rv_enc_ecall(unsigned char *out);
int rv_enc_ebreak(unsigned char *out, int compressed);
/* Compressed forms used by patches (2 bytes each). */
int rv_enc_c_addi16sp(unsigned char *out, long imm);	/* sp += imm */
int rv_enc_c_sdsp(unsigned char *out, int rs2, long off);
int rv_enc_c_ldsp(unsigned char *out, int rd, long off);
int rv_enc_c_nop(unsigned char *out);

/* Split a pc-relative distance into auipc's hi20 and the lo12 of the
 * following addi/jalr/ld (lo12 sign-extended, -2048..2047, so hi20 takes
 * the carry): returns 1, or 0 if the distance is out of auipc's reach,
 * -0x80000800..0x7ffff7ff. */
int rv_split_hi_lo(long dist, long *hi20, long *lo12);

/* Copy instruction `in` (decoded from orig) to out for execution
 * elsewhere.  Only RV_PLAIN instructions are relocatable, and they do not
 * depend on pc, so they are copied unchanged; returns the length written,
 * or 0 for any other kind. */
int rv_relocate(unsigned char *out, const unsigned char *orig,
		const struct rv_insn *in);

/* The system call number in a7 at the ecall at code[ecall_off], found by
 * decoding forward from code[start], a known instruction boundary before
 * it (a function's entry or its section's start).  Returns 1 and sets *nr
 * if the last write to a7 is an li (rv_is_li) with no jump or branch
 * between it and the ecall and no branch seen on the way that lands
 * between them; else 0 (also when ecall_off holds no ecall or the walk
 * does not land on it).  Branches that come after the ecall are not
 * seen, so start should be the entry of the function holding it.
 * Invalid encodings on the way (c.unimp padding) are stepped over and
 * forget what was known. */
int rv_find_a7(const unsigned char *code, unsigned long start,
	       unsigned long ecall_off, long *nr);

#endif
