/* SPDX-License-Identifier: MIT */
/*
 * Table-driven test of the rv64gc decoder (arch/riscv64/decode.c), built
 * for the host: the decoder is portable C.
 *
 * 1. Rows: bytes (as they sit in memory) -> length, kind, rd, rs1, rs2,
 *    imm, the rv_is_li value, fp, mem.  The encodings were assembled by
 *    riscv64-linux-gnu-as from the text in each row's comment; the raw
 *    rows (hints, reserved and foreign encodings) were checked against
 *    the ISA manual's opcode maps.  Every valid row is also decoded with
 *    fewer bytes available (must fail) and relocated (copied iff plain).
 * 2. Encoders: encode, decode, compare; limits and misalignment give 0.
 * 3. rv_split_hi_lo over its reach and just past it.
 * 4. rv_find_a7 on small sequences.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

enum {
	ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6,
	A7, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, T3, T4, T5, T6,
};
#define NOLI 0x7fffffffffffffffLL	/* rv_is_li must say no */

struct row {
	const char *hex;
	int len, kind, rd, rs1, rs2;
	long long imm, li;
	int fp, mem;
};

static const struct row rows[] = {
	/* RV64I: upper immediates and jumps */
	{ "37553412", 4, RV_PLAIN, A0, -1, -1, 0x12345000, 0x12345000, 0, 0 },	/* lui a0,0x12345 */
	{ "37f5ffff", 4, RV_PLAIN, A0, -1, -1, -0x1000, -0x1000, 0, 0 },	/* lui a0,0xfffff */
	{ "b7080080", 4, RV_PLAIN, A7, -1, -1, -0x80000000L, -0x80000000L, 0, 0 },	/* lui a7,0x80000 */
	{ "37100000", 4, RV_PLAIN, -1, -1, -1, 0x1000, NOLI, 0, 0 },	/* lui zero,1 */
	{ "97120000", 4, RV_AUIPC, T0, -1, -1, 0x1000, NOLI, 0, 0 },	/* auipc t0,0x1 */
	{ "17f5ffff", 4, RV_AUIPC, A0, -1, -1, -0x1000, NOLI, 0, 0 },	/* auipc a0,0xfffff */
	{ "97f0ff7f", 4, RV_AUIPC, RA, -1, -1, 0x7ffff000, NOLI, 0, 0 },	/* auipc ra,0x7ffff */
	{ "ef001000", 4, RV_JAL, RA, -1, -1, 2048, NOLI, 0, 0 },	/* jal ra,.+2048 */
	{ "6ff0dfff", 4, RV_JAL, -1, -1, -1, -4, NOLI, 0, 0 },	/* jal zero,.-4 */
	{ "eff0ff7f", 4, RV_JAL, RA, -1, -1, 0xffffe, NOLI, 0, 0 },	/* jal ra,.+0xffffe */
	{ "6f000080", 4, RV_JAL, -1, -1, -1, -0x100000, NOLI, 0, 0 },	/* jal zero,.-0x100000 */
	{ "ef080001", 4, RV_JAL, A7, -1, -1, 16, NOLI, 0, 0 },	/* jal a7,.+16 */
	{ "e7800700", 4, RV_JALR, RA, A5, -1, 0, NOLI, 0, 0 },	/* jalr ra,0(a5) */
	{ "67800000", 4, RV_JALR, -1, RA, -1, 0, NOLI, 0, 0 },	/* jalr zero,0(ra) */
	{ "67030e80", 4, RV_JALR, T1, T3, -1, -2048, NOLI, 0, 0 },	/* jalr t1,-2048(t3) */
	{ "e780f27f", 4, RV_JALR, RA, T0, -1, 2047, NOLI, 0, 0 },	/* jalr ra,2047(t0) */
	{ "6308b500", 4, RV_BRANCH, -1, A0, A1, 16, NOLI, 0, 0 },	/* beq a0,a1,.+16 */
	{ "e31c05fe", 4, RV_BRANCH, -1, A0, -1, -8, NOLI, 0, 0 },	/* bne a0,zero,.-8 */
	{ "e3cf627e", 4, RV_BRANCH, -1, T0, T1, 4094, NOLI, 0, 0 },	/* blt t0,t1,.+4094 */
	{ "63509480", 4, RV_BRANCH, -1, S0, S1, -0x1000, NOLI, 0, 0 },	/* bge s0,s1,.-4096 */
	{ "6361d600", 4, RV_BRANCH, -1, A2, A3, 2, NOLI, 0, 0 },	/* bltu a2,a3,.+2 */
	{ "6370f710", 4, RV_BRANCH, -1, A4, A5, 256, NOLI, 0, 0 },	/* bgeu a4,a5,.+256 */
	/* loads and stores */
	{ "0305f1ff", 4, RV_PLAIN, A0, SP, -1, -1, NOLI, 0, 1 },	/* lb a0,-1(sp) */
	{ "8315f57f", 4, RV_PLAIN, A1, A0, -1, 2047, NOLI, 0, 1 },	/* lh a1,2047(a0) */
	{ "03a60580", 4, RV_PLAIN, A2, A1, -1, -2048, NOLI, 0, 1 },	/* lw a2,-2048(a1) */
	{ "03358100", 4, RV_PLAIN, A0, SP, -1, 8, NOLI, 0, 1 },	/* ld a0,8(sp) */
	{ "83420300", 4, RV_PLAIN, T0, T1, -1, 0, NOLI, 0, 1 },	/* lbu t0,0(t1) */
	{ "83dd6f00", 4, RV_PLAIN, S11, T6, -1, 6, NOLI, 0, 1 },	/* lhu s11,6(t6) */
	{ "8366c700", 4, RV_PLAIN, A3, A4, -1, 12, NOLI, 0, 1 },	/* lwu a3,12(a4) */
	{ "03350000", 4, RV_PLAIN, A0, -1, -1, 0, NOLI, 0, 1 },	/* ld a0,0(zero) */
	{ "03200500", 4, RV_PLAIN, -1, A0, -1, 0, NOLI, 0, 1 },	/* lw zero,0(a0) */
	{ "2300a100", 4, RV_PLAIN, -1, SP, A0, 0, NOLI, 0, 1 },	/* sb a0,0(sp) */
	{ "23905580", 4, RV_PLAIN, -1, A1, T0, -2048, NOLI, 0, 1 },	/* sh t0,-2048(a1) */
	{ "23220500", 4, RV_PLAIN, -1, A0, -1, 4, NOLI, 0, 1 },	/* sw zero,4(a0) */
	{ "233c117e", 4, RV_PLAIN, -1, SP, RA, 2040, NOLI, 0, 1 },	/* sd ra,2040(sp) */
	{ "233c14ff", 4, RV_PLAIN, -1, S0, A7, -8, NOLI, 0, 1 },	/* sd a7,-8(s0) */
	/* OP-IMM */
	{ "1305a002", 4, RV_PLAIN, A0, -1, -1, 42, 42, 0, 0 },	/* addi a0,zero,42 */
	{ "9308d005", 4, RV_PLAIN, A7, -1, -1, 93, 93, 0, 0 },	/* addi a7,zero,93 */
	{ "13050080", 4, RV_PLAIN, A0, -1, -1, -2048, -2048, 0, 0 },	/* addi a0,zero,-2048 */
	{ "13851500", 4, RV_PLAIN, A0, A1, -1, 1, NOLI, 0, 0 },	/* addi a0,a1,1 */
	{ "13000000", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 0, 0 },	/* addi zero,zero,0 */
	{ "13010180", 4, RV_PLAIN, SP, SP, -1, -2048, NOLI, 0, 0 },	/* addi sp,sp,-2048 */
	{ "13a5f5ff", 4, RV_PLAIN, A0, A1, -1, -1, NOLI, 0, 0 },	/* slti a0,a1,-1 */
	{ "13b51500", 4, RV_PLAIN, A0, A1, -1, 1, NOLI, 0, 0 },	/* sltiu a0,a1,1 */
	{ "1345f5ff", 4, RV_PLAIN, A0, A0, -1, -1, NOLI, 0, 0 },	/* xori a0,a0,-1 */
	{ "9362f37f", 4, RV_PLAIN, T0, T1, -1, 2047, NOLI, 0, 0 },	/* ori t0,t1,0x7ff */
	{ "1375f50f", 4, RV_PLAIN, A0, A0, -1, 255, NOLI, 0, 0 },	/* andi a0,a0,255 */
	{ "1315f503", 4, RV_PLAIN, A0, A0, -1, 63, NOLI, 0, 0 },	/* slli a0,a0,63 */
	{ "13d51500", 4, RV_PLAIN, A0, A1, -1, 1, NOLI, 0, 0 },	/* srli a0,a1,1 */
	{ "13550542", 4, RV_PLAIN, A0, A0, -1, 32, NOLI, 0, 0 },	/* srai a0,a0,32 */
	/* OP */
	{ "3385c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* add a0,a1,a2 */
	{ "b3026040", 4, RV_PLAIN, T0, -1, T1, 0, NOLI, 0, 0 },	/* sub t0,zero,t1 */
	{ "3315b500", 4, RV_PLAIN, A0, A0, A1, 0, NOLI, 0, 0 },	/* sll a0,a0,a1 */
	{ "33a5c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* slt a0,a1,a2 */
	{ "3335c000", 4, RV_PLAIN, A0, -1, A2, 0, NOLI, 0, 0 },	/* sltu a0,zero,a2 */
	{ "33c42401", 4, RV_PLAIN, S0, S1, S2, 0, NOLI, 0, 0 },	/* xor s0,s1,s2 */
	{ "33d5c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* srl a0,a1,a2 */
	{ "33d5c540", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* sra a0,a1,a2 */
	{ "33e5c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* or a0,a1,a2 */
	{ "33f5c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* and a0,a1,a2 */
	/* RV64I word forms */
	{ "1b05f5ff", 4, RV_PLAIN, A0, A0, -1, -1, NOLI, 0, 0 },	/* addiw a0,a0,-1 */
	{ "9b085000", 4, RV_PLAIN, A7, -1, -1, 5, 5, 0, 0 },	/* addiw a7,zero,5 */
	{ "1b15f501", 4, RV_PLAIN, A0, A0, -1, 31, NOLI, 0, 0 },	/* slliw a0,a0,31 */
	{ "1bd53500", 4, RV_PLAIN, A0, A1, -1, 3, NOLI, 0, 0 },	/* srliw a0,a1,3 */
	{ "1bd5f541", 4, RV_PLAIN, A0, A1, -1, 31, NOLI, 0, 0 },	/* sraiw a0,a1,31 */
	{ "3b85c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* addw a0,a1,a2 */
	{ "3b85c540", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* subw a0,a1,a2 */
	{ "3b95c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* sllw a0,a1,a2 */
	{ "3bd5c500", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* srlw a0,a1,a2 */
	{ "3bd5c540", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* sraw a0,a1,a2 */
	/* fences, system */
	{ "0f003003", 4, RV_PLAIN, -1, -1, -1, 51, NOLI, 0, 0 },	/* fence rw,rw */
	{ "0f00f00f", 4, RV_PLAIN, -1, -1, -1, 255, NOLI, 0, 0 },	/* fence iorw,iorw */
	{ "0f003083", 4, RV_PLAIN, -1, -1, -1, -1997, NOLI, 0, 0 },	/* fence.tso */
	{ "0f100000", 4, RV_SYSTEM, -1, -1, -1, 0, NOLI, 0, 0 },	/* fence.i */
	{ "73000000", 4, RV_ECALL, -1, -1, -1, 0, NOLI, 0, 0 },	/* ecall */
	{ "73001000", 4, RV_EBREAK, -1, -1, -1, 0, NOLI, 0, 0 },	/* ebreak */
	/* M */
	{ "3385c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* mul a0,a1,a2 */
	{ "3395c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* mulh a0,a1,a2 */
	{ "33a5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* mulhsu a0,a1,a2 */
	{ "33b5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* mulhu a0,a1,a2 */
	{ "33c5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* div a0,a1,a2 */
	{ "33d5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* divu a0,a1,a2 */
	{ "33e5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* rem a0,a1,a2 */
	{ "33f5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* remu a0,a1,a2 */
	{ "3b85c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* mulw a0,a1,a2 */
	{ "3bc5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* divw a0,a1,a2 */
	{ "3bd5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* divuw a0,a1,a2 */
	{ "3be5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* remw a0,a1,a2 */
	{ "3bf5c502", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 0 },	/* remuw a0,a1,a2 */
	/* A */
	{ "2fa50510", 4, RV_PLAIN, A0, A1, -1, 0, NOLI, 0, 1 },	/* lr.w a0,(a1) */
	{ "af320316", 4, RV_PLAIN, T0, T1, -1, 0, NOLI, 0, 1 },	/* lr.d.aqrl t0,(t1) */
	{ "2fa5c518", 4, RV_PLAIN, A0, A1, A2, 0, NOLI, 0, 1 },	/* sc.w a0,a2,(a1) */
	{ "2fb0c51a", 4, RV_PLAIN, -1, A1, A2, 0, NOLI, 0, 1 },	/* sc.d.rl zero,a2,(a1) */
	{ "af27e50c", 4, RV_PLAIN, A5, A0, A4, 0, NOLI, 0, 1 },	/* amoswap.w.aq a5,a4,(a0) */
	{ "2f30b500", 4, RV_PLAIN, -1, A0, A1, 0, NOLI, 0, 1 },	/* amoadd.d zero,a1,(a0) */
	{ "2f25b620", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amoxor.w a0,a1,(a2) */
	{ "2f35b660", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amoand.d a0,a1,(a2) */
	{ "2f25b640", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amoor.w a0,a1,(a2) */
	{ "2f35b680", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amomin.d a0,a1,(a2) */
	{ "2f25b6a0", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amomax.w a0,a1,(a2) */
	{ "2f35b6c0", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amominu.d a0,a1,(a2) */
	{ "2f25b6e6", 4, RV_PLAIN, A0, A2, A1, 0, NOLI, 0, 1 },	/* amomaxu.w.aqrl a0,a1,(a2) */
	/* F and D */
	{ "07258500", 4, RV_PLAIN, -1, A0, -1, 8, NOLI, 1, 1 },	/* flw fa0,8(a0) */
	{ "07358500", 4, RV_PLAIN, -1, A0, -1, 8, NOLI, 1, 1 },	/* fld fa0,8(a0) */
	{ "272eb1fe", 4, RV_PLAIN, -1, SP, -1, -4, NOLI, 1, 1 },	/* fsw fa1,-4(sp) */
	{ "27bc847e", 4, RV_PLAIN, -1, S1, -1, 2040, NOLI, 1, 1 },	/* fsd fs0,2040(s1) */
	{ "53f5c500", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fadd.s fa0,fa1,fa2 */
	{ "5395c50a", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fsub.d fa0,fa1,fa2,rtz */
	{ "53f02012", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmul.d ft0,ft1,ft2 */
	{ "53f5c518", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fdiv.s fa0,fa1,fa2 */
	{ "53f5055a", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fsqrt.d fa0,fa1 */
	{ "5385c522", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fsgnj.d fa0,fa1,fa2 */
	{ "5395c520", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fsgnjn.s fa0,fa1,fa2 */
	{ "53a5b522", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fsgnjx.d fa0,fa1,fa1 */
	{ "5385c528", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmin.s fa0,fa1,fa2 */
	{ "5395c52a", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmax.d fa0,fa1,fa2 */
	{ "53f51540", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fcvt.s.d fa0,fa1 */
	{ "53850542", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fcvt.d.s fa0,fa1 */
	{ "5325b5a2", 4, RV_PLAIN, A0, -1, -1, 0, NOLI, 1, 0 },	/* feq.d a0,fa0,fa1 */
	{ "d315b5a0", 4, RV_PLAIN, A1, -1, -1, 0, NOLI, 1, 0 },	/* flt.s a1,fa0,fa1 */
	{ "5300b5a2", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fle.d zero,fa0,fa1 */
	{ "531505c2", 4, RV_PLAIN, A0, -1, -1, 0, NOLI, 1, 0 },	/* fcvt.w.d a0,fa0,rtz */
	{ "d3f535c0", 4, RV_PLAIN, A1, -1, -1, 0, NOLI, 1, 0 },	/* fcvt.lu.s a1,fa1 */
	{ "530505d2", 4, RV_PLAIN, -1, A0, -1, 0, NOLI, 1, 0 },	/* fcvt.d.w fa0,a0 */
	{ "53f535d0", 4, RV_PLAIN, -1, A1, -1, 0, NOLI, 1, 0 },	/* fcvt.s.lu fa0,a1 */
	{ "530505e2", 4, RV_PLAIN, A0, -1, -1, 0, NOLI, 1, 0 },	/* fmv.x.d a0,fa0 */
	{ "d30200e0", 4, RV_PLAIN, T0, -1, -1, 0, NOLI, 1, 0 },	/* fmv.x.w t0,ft0 */
	{ "531505e2", 4, RV_PLAIN, A0, -1, -1, 0, NOLI, 1, 0 },	/* fclass.d a0,fa0 */
	{ "530505f2", 4, RV_PLAIN, -1, A0, -1, 0, NOLI, 1, 0 },	/* fmv.d.x fa0,a0 */
	{ "530500f0", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmv.w.x fa0,zero */
	{ "43f5c568", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmadd.s fa0,fa1,fa2,fa3 */
	{ "47f5c56a", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fmsub.d fa0,fa1,fa2,fa3 */
	{ "4bf5c568", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fnmsub.s fa0,fa1,fa2,fa3 */
	{ "4fa5c56a", 4, RV_PLAIN, -1, -1, -1, 0, NOLI, 1, 0 },	/* fnmadd.d fa0,fa1,fa2,fa3,rdn */
	/* Zicsr: counters and the FP CSRs are plain, the rest system */
	{ "732500c0", 4, RV_PLAIN, A0, -1, -1, 3072, NOLI, 0, 0 },	/* csrrs a0,cycle,zero */
	{ "732510c0", 4, RV_PLAIN, A0, -1, -1, 3073, NOLI, 0, 0 },	/* csrrs a0,time,zero */
	{ "732520c0", 4, RV_PLAIN, A0, -1, -1, 3074, NOLI, 0, 0 },	/* csrrs a0,instret,zero */
	{ "733510c0", 4, RV_PLAIN, A0, -1, -1, 3073, NOLI, 0, 0 },	/* csrrc a0,time,zero */
	{ "736500c0", 4, RV_PLAIN, A0, -1, -1, 3072, NOLI, 0, 0 },	/* csrrsi a0,cycle,0 */
	{ "73a505c0", 4, RV_SYSTEM, A0, A1, -1, 3072, NOLI, 0, 0 },	/* csrrs a0,cycle,a1 */
	{ "731500c0", 4, RV_SYSTEM, A0, -1, -1, 3072, NOLI, 0, 0 },	/* csrrw a0,cycle,zero */
	{ "732530c0", 4, RV_SYSTEM, A0, -1, -1, 3075, NOLI, 0, 0 },	/* csrrs a0,0xc03,zero */
	{ "732500c8", 4, RV_SYSTEM, A0, -1, -1, 3200, NOLI, 0, 0 },	/* csrrs a0,0xc80,zero */
	{ "f3253000", 4, RV_PLAIN, A1, -1, -1, 3, NOLI, 1, 0 },	/* csrrs a1,fcsr,zero */
	{ "73101600", 4, RV_PLAIN, -1, A2, -1, 1, NOLI, 1, 0 },	/* csrrw zero,fflags,a2 */
	{ "73601800", 4, RV_PLAIN, -1, -1, -1, 1, NOLI, 1, 0 },	/* csrrsi zero,fflags,16 */
	{ "73552100", 4, RV_PLAIN, A0, -1, -1, 2, NOLI, 1, 0 },	/* csrrwi a0,frm,2 */
	{ "73303300", 4, RV_PLAIN, -1, T1, -1, 3, NOLI, 1, 0 },	/* csrrc zero,fcsr,t1 */
	{ "73950510", 4, RV_SYSTEM, A0, A1, -1, 256, NOLI, 0, 0 },	/* csrrw a0,sstatus,a1 */
	{ "732540f1", 4, RV_SYSTEM, A0, -1, -1, 3860, NOLI, 0, 0 },	/* csrrs a0,mhartid,zero */
	{ "73304510", 4, RV_SYSTEM, -1, A0, -1, 260, NOLI, 0, 0 },	/* csrrc zero,sie,a0 */
	{ "73700430", 4, RV_SYSTEM, -1, -1, -1, 768, NOLI, 0, 0 },	/* csrrci zero,mstatus,8 */
	/* privileged */
	{ "73005010", 4, RV_SYSTEM, -1, -1, -1, 0, NOLI, 0, 0 },	/* wfi */
	{ "73002030", 4, RV_SYSTEM, -1, -1, -1, 0, NOLI, 0, 0 },	/* mret */
	{ "73002010", 4, RV_SYSTEM, -1, -1, -1, 0, NOLI, 0, 0 },	/* sret */
	{ "7300b512", 4, RV_SYSTEM, -1, A0, A1, 0, NOLI, 0, 0 },	/* sfence.vma a0,a1 */
	/* RVC quadrant 0 */
	{ "0808", 2, RV_PLAIN, A0, SP, -1, 16, NOLI, 0, 0 },	/* c.addi4spn a0,sp,16 */
	{ "e41f", 2, RV_PLAIN, S1, SP, -1, 1020, NOLI, 0, 0 },	/* c.addi4spn s1,sp,1020 */
	{ "5c00", 2, RV_PLAIN, A5, SP, -1, 4, NOLI, 0, 0 },	/* c.addi4spn a5,sp,4 */
	{ "0825", 2, RV_PLAIN, -1, A0, -1, 8, NOLI, 1, 1 },	/* c.fld fa0,8(a0) */
	{ "e03f", 2, RV_PLAIN, -1, A5, -1, 248, NOLI, 1, 1 },	/* c.fld fs0,248(a5) */
	{ "e85d", 2, RV_PLAIN, A0, A1, -1, 124, NOLI, 0, 1 },	/* c.lw a0,124(a1) */
	{ "5c40", 2, RV_PLAIN, A5, S0, -1, 4, NOLI, 0, 1 },	/* c.lw a5,4(s0) */
	{ "1c64", 2, RV_PLAIN, A5, S0, -1, 8, NOLI, 0, 1 },	/* c.ld a5,8(s0) */
	{ "e87d", 2, RV_PLAIN, A0, A1, -1, 248, NOLI, 0, 1 },	/* c.ld a0,248(a1) */
	{ "0ca2", 2, RV_PLAIN, -1, A2, -1, 0, NOLI, 1, 1 },	/* c.fsd fa1,0(a2) */
	{ "a8c1", 2, RV_PLAIN, -1, A1, A0, 64, NOLI, 0, 1 },	/* c.sw a0,64(a1) */
	{ "e4ff", 2, RV_PLAIN, -1, A5, S1, 248, NOLI, 0, 1 },	/* c.sd s1,248(a5) */
	/* RVC quadrant 1 */
	{ "0100", 2, RV_PLAIN, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.nop */
	{ "4111", 2, RV_PLAIN, SP, SP, -1, -16, NOLI, 0, 0 },	/* c.addi sp,-16 */
	{ "7d05", 2, RV_PLAIN, A0, A0, -1, 31, NOLI, 0, 0 },	/* c.addi a0,31 */
	{ "8127", 2, RV_PLAIN, A5, A5, -1, 0, NOLI, 0, 0 },	/* c.addiw a5,0 */
	{ "0135", 2, RV_PLAIN, A0, A0, -1, -32, NOLI, 0, 0 },	/* c.addiw a0,-32 */
	{ "9548", 2, RV_PLAIN, A7, -1, -1, 5, 5, 0, 0 },	/* c.li a7,5 */
	{ "0155", 2, RV_PLAIN, A0, -1, -1, -32, -32, 0, 0 },	/* c.li a0,-32 */
	{ "fd48", 2, RV_PLAIN, A7, -1, -1, 31, 31, 0, 0 },	/* c.li a7,31 */
	{ "3171", 2, RV_PLAIN, SP, SP, -1, -192, NOLI, 0, 0 },	/* c.addi16sp sp,-192 */
	{ "7d61", 2, RV_PLAIN, SP, SP, -1, 496, NOLI, 0, 0 },	/* c.addi16sp sp,496 */
	{ "0171", 2, RV_PLAIN, SP, SP, -1, -512, NOLI, 0, 0 },	/* c.addi16sp sp,-512 */
	{ "8567", 2, RV_PLAIN, A5, -1, -1, 0x1000, 0x1000, 0, 0 },	/* c.lui a5,0x1 */
	{ "0175", 2, RV_PLAIN, A0, -1, -1, -0x20000, -0x20000, 0, 0 },	/* c.lui a0,0xfffe0 */
	{ "7d63", 2, RV_PLAIN, T1, -1, -1, 0x1f000, 0x1f000, 0, 0 },	/* c.lui t1,0x1f */
	{ "8193", 2, RV_PLAIN, A5, A5, -1, 32, NOLI, 0, 0 },	/* c.srli a5,0x20 */
	{ "0585", 2, RV_PLAIN, A0, A0, -1, 1, NOLI, 0, 0 },	/* c.srai a0,1 */
	{ "7d99", 2, RV_PLAIN, A0, A0, -1, -1, NOLI, 0, 0 },	/* c.andi a0,-1 */
	{ "fd88", 2, RV_PLAIN, S1, S1, -1, 31, NOLI, 0, 0 },	/* c.andi s1,31 */
	{ "0d8d", 2, RV_PLAIN, A0, A0, A1, 0, NOLI, 0, 0 },	/* c.sub a0,a1 */
	{ "258c", 2, RV_PLAIN, S0, S0, S1, 0, NOLI, 0, 0 },	/* c.xor s0,s1 */
	{ "d98f", 2, RV_PLAIN, A5, A5, A4, 0, NOLI, 0, 0 },	/* c.or a5,a4 */
	{ "758e", 2, RV_PLAIN, A2, A2, A3, 0, NOLI, 0, 0 },	/* c.and a2,a3 */
	{ "0d9d", 2, RV_PLAIN, A0, A0, A1, 0, NOLI, 0, 0 },	/* c.subw a0,a1 */
	{ "3d9f", 2, RV_PLAIN, A4, A4, A5, 0, NOLI, 0, 0 },	/* c.addw a4,a5 */
	{ "fdaf", 2, RV_JAL, -1, -1, -1, 2046, NOLI, 0, 0 },	/* c.j .+2046 */
	{ "01b0", 2, RV_JAL, -1, -1, -1, -2048, NOLI, 0, 0 },	/* c.j .-2048 */
	{ "09a0", 2, RV_JAL, -1, -1, -1, 2, NOLI, 0, 0 },	/* c.j .+2 */
	{ "81c7", 2, RV_BRANCH, -1, A5, -1, 8, NOLI, 0, 0 },	/* c.beqz a5,.+8 */
	{ "81f2", 2, RV_BRANCH, -1, A3, -1, -256, NOLI, 0, 0 },	/* c.bnez a3,.-256 */
	{ "7dcc", 2, RV_BRANCH, -1, S0, -1, 254, NOLI, 0, 0 },	/* c.beqz s0,.+254 */
	/* RVC quadrant 2 */
	{ "0605", 2, RV_PLAIN, A0, A0, -1, 1, NOLI, 0, 0 },	/* c.slli a0,1 */
	{ "fe1f", 2, RV_PLAIN, T6, T6, -1, 63, NOLI, 0, 0 },	/* c.slli t6,63 */
	{ "7e35", 2, RV_PLAIN, -1, SP, -1, 504, NOLI, 1, 1 },	/* c.fldsp fa0,504(sp) */
	{ "7e55", 2, RV_PLAIN, A0, SP, -1, 252, NOLI, 0, 1 },	/* c.lwsp a0,252(sp) */
	{ "a260", 2, RV_PLAIN, RA, SP, -1, 8, NOLI, 0, 1 },	/* c.ldsp ra,8(sp) */
	{ "fe74", 2, RV_PLAIN, S1, SP, -1, 504, NOLI, 0, 1 },	/* c.ldsp s1,504(sp) */
	{ "8280", 2, RV_JALR, -1, RA, -1, 0, NOLI, 0, 0 },	/* c.jr ra */
	{ "8287", 2, RV_JALR, -1, A5, -1, 0, NOLI, 0, 0 },	/* c.jr a5 */
	{ "2285", 2, RV_PLAIN, A0, -1, S0, 0, NOLI, 0, 0 },	/* c.mv a0,s0 */
	{ "2e95", 2, RV_PLAIN, A0, A0, A1, 0, NOLI, 0, 0 },	/* c.add a0,a1 */
	{ "8297", 2, RV_JALR, RA, A5, -1, 0, NOLI, 0, 0 },	/* c.jalr a5 */
	{ "8290", 2, RV_JALR, RA, RA, -1, 0, NOLI, 0, 0 },	/* c.jalr ra */
	{ "0290", 2, RV_EBREAK, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.ebreak */
	{ "a2bf", 2, RV_PLAIN, -1, SP, -1, 504, NOLI, 1, 1 },	/* c.fsdsp fs0,504(sp) */
	{ "aadf", 2, RV_PLAIN, -1, SP, A0, 252, NOLI, 0, 1 },	/* c.swsp a0,252(sp) */
	{ "06e4", 2, RV_PLAIN, -1, SP, RA, 8, NOLI, 0, 1 },	/* c.sdsp ra,8(sp) */
	{ "46e0", 2, RV_PLAIN, -1, SP, A7, 0, NOLI, 0, 1 },	/* c.sdsp a7,0(sp) */
	/* RVC hints: valid, they write nothing */
	{ "0540", 2, RV_PLAIN, -1, -1, -1, 1, NOLI, 0, 0 },	/* c.li zero,1 */
	{ "0500", 2, RV_PLAIN, -1, -1, -1, 1, NOLI, 0, 0 },	/* c.addi zero,1 */
	{ "0105", 2, RV_PLAIN, A0, A0, -1, 0, NOLI, 0, 0 },	/* c.addi a0,0 */
	{ "2a80", 2, RV_PLAIN, -1, -1, A0, 0, NOLI, 0, 0 },	/* c.mv zero,a0 */
	{ "2a90", 2, RV_PLAIN, -1, -1, A0, 0, NOLI, 0, 0 },	/* c.add zero,a0 */
	{ "0600", 2, RV_PLAIN, -1, -1, -1, 1, NOLI, 0, 0 },	/* c.slli zero,1 */
	{ "0560", 2, RV_PLAIN, -1, -1, -1, 0x1000, NOLI, 0, 0 },	/* c.lui zero,1 */
	{ "02e0", 2, RV_PLAIN, -1, SP, -1, 0, NOLI, 0, 1 },	/* c.sdsp zero,0(sp) */
	{ "fd3f", 2, RV_PLAIN, T6, T6, -1, -1, NOLI, 0, 0 },	/* rv32 c.jal .-2 is c.addiw t6,-1 on rv64 */
	/* RVC reserved */
	{ "0000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.unimp */
	{ "0400", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.addi4spn imm 0 */
	{ "0080", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* quadrant 0 funct3 100 */
	{ "009c", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* Zcb c.lbu slot */
	{ "0120", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.addiw rd 0 */
	{ "0520", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.addiw rd 0 (rv32 c.jal) */
	{ "0161", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.addi16sp 0 */
	{ "8160", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.lui ra,0 */
	{ "0160", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.lui zero,0 */
	{ "0240", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.lwsp rd 0 */
	{ "0260", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.ldsp rd 0 */
	{ "0280", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.jr rs1 0 */
	{ "419c", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* c.alu reserved (bit12, 10) */
	{ "619c", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* Zcb c.mul slot */
	/* 32-bit reserved and outside rv64gc */
	{ "0b000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* custom-0 */
	{ "2b000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* custom-1 */
	{ "5b000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* custom-2 */
	{ "7b000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* custom-3 */
	{ "6b000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* reserved opcode */
	{ "77000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* reserved opcode */
	{ "57f50501", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* vsetvli a0,a1,e32 (V) */
	{ "07000502", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* vle8.v v0,(a0) (V) */
	{ "07150500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* flh (Zfh) */
	{ "07450500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* flq (Q) */
	{ "03750500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* LOAD funct3 7 */
	{ "2340a500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* STORE funct3 4 */
	{ "13150504", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* slli imm[11:6] 1 */
	{ "13150560", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* clz a0,a0 (Zbb) */
	{ "13550560", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* rori-class (Zbb) */
	{ "3315a540", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* OP funct7 0x20 funct3 1 */
	{ "3325a520", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* sh1add (Zba) */
	{ "3375a540", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* andn (Zbb) */
	{ "bb05050a", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* add.uw (Zba) */
	{ "3b15a502", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* OP-32 mul funct3 1 */
	{ "1b15a502", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* slliw funct7 1 */
	{ "1b250000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* OP-IMM-32 funct3 2 */
	{ "6320a500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* BRANCH funct3 2 */
	{ "e7900000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* jalr funct3 1 */
	{ "2fa5a528", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* amocas.w (Zacas) */
	{ "2fa51510", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* lr.w rs2 != 0 */
	{ "2f05a508", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* amoswap.b (Zabha) */
	{ "53f5c504", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fadd.h (Zfh) */
	{ "53f5c506", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fadd.q (Q) */
	{ "53d5c500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fadd.s rm 5 */
	{ "53f51558", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fsqrt.s rs2 1 */
	{ "53f545c0", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fcvt.w.s rs2 4 */
	{ "532505e0", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fmv.x.w funct3 2 */
	{ "531505f0", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fmv.w.x funct3 1 */
	{ "53b5c528", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fmin funct3 3 */
	{ "4385c56e", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fmadd.q */
	{ "43e5c568", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* fmadd.s rm 6 */
	{ "73400000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* SYSTEM funct3 4 (hlv) */
	{ "73002000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* uret (removed) */
	{ "73050000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* ecall rd != 0 */
	{ "73000500", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* ecall rs1 != 0 */
	{ "0f200000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* cbo.clean class (MISC-MEM 2) */
	{ "1f000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* 48-bit length */
	{ "3f000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* 64-bit length */
	{ "7f000000", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* 80-bit+ length */
	{ "ffffffff", 0, RV_INVALID, -1, -1, -1, 0, NOLI, 0, 0 },	/* all ones */
};

static int failures, checks;

#define CHECK(cond, ...) do {						\
	checks++;							\
	if (!(cond)) {							\
		failures++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static int unhex(const char *h, unsigned char *out)
{
	int n = 0;

	for (; h[0] && h[1]; h += 2)
		out[n++] = (unsigned char)strtoul((char[]){ h[0], h[1], 0 }, 0, 16);
	return n;
}

static void test_rows(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		unsigned char b[8], out[8] = { 0 };
		struct rv_insn in;
		int n = unhex(r->hex, b), len, reg, k;
		long v;

		len = rv_decode(b, (unsigned long)n, &in);
		CHECK(len == r->len && in.len == r->len, "%s: len %d, want %d",
		      r->hex, len, r->len);
		CHECK(in.kind == r->kind, "%s: kind %d, want %d", r->hex,
		      in.kind, r->kind);
		if (!r->len)
			continue;
		CHECK(in.rd == r->rd && in.rs1 == r->rs1 && in.rs2 == r->rs2,
		      "%s: rd/rs1/rs2 %d/%d/%d, want %d/%d/%d", r->hex, in.rd,
		      in.rs1, in.rs2, r->rd, r->rs1, r->rs2);
		CHECK(in.imm == r->imm, "%s: imm %lld, want %lld", r->hex,
		      (long long)in.imm, r->imm);
		CHECK(in.fp == r->fp && in.mem == r->mem,
		      "%s: fp/mem %d/%d, want %d/%d", r->hex, in.fp, in.mem,
		      r->fp, r->mem);
		if (r->li == NOLI) {
			CHECK(!rv_is_li(&in, &reg, &v), "%s: is an li", r->hex);
		} else {
			CHECK(rv_is_li(&in, &reg, &v) && reg == r->rd &&
			      v == r->li, "%s: li %d = %ld, want %d = %lld",
			      r->hex, reg, v, r->rd, r->li);
		}
		CHECK(rv_insn_length(b, (unsigned long)n) == r->len,
		      "%s: rv_insn_length", r->hex);
		/* cut short: no decode, and no read past avail */
		for (k = 0; k < r->len; k++)
			CHECK(rv_decode(b, (unsigned long)k, &in) == 0 &&
			      in.kind == RV_INVALID, "%s: decoded from %d bytes",
			      r->hex, k);
		rv_decode(b, (unsigned long)n, &in);
		len = rv_relocate(out, b, &in);
		if (r->kind == RV_PLAIN)
			CHECK(len == r->len && !memcmp(out, b, (size_t)len),
			      "%s: relocate copied %d bytes", r->hex, len);
		else
			CHECK(len == 0, "%s: relocated a kind %d", r->hex, r->kind);
	}
}

/* Decode what an encoder wrote and compare. */
static void expect(const unsigned char *b, int n, int len, int kind, int rd,
		   int rs1, int rs2, long imm, const char *what)
{
	struct rv_insn in;

	CHECK(n == len, "%s: encoded %d bytes, want %d", what, n, len);
	if (n != len)
		return;
	CHECK(rv_decode(b, (unsigned long)n, &in) == len && in.kind == kind &&
	      in.rd == rd && in.rs1 == rs1 && in.rs2 == rs2 && in.imm == imm,
	      "%s: decodes as len %d kind %d rd %d rs1 %d rs2 %d imm %lld",
	      what, in.len, in.kind, in.rd, in.rs1, in.rs2, (long long)in.imm);
}

static void test_encoders(void)
{
	static const long offs[] = {
		0, 2, -2, 4, 2046, -2048, 4094, -4096, 0x7fffe, -0x80000,
		0xffffe, -0x100000,
	};
	static const long imm12s[] = { 0, 1, -1, 2047, -2048, 42, -300 };
	unsigned char b[8];
	char what[64];
	size_t i;
	int r;

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		for (r = 0; r < 32; r += 17) {
			snprintf(what, sizeof(what), "jal x%d,%ld", r, offs[i]);
			expect(b, rv_enc_jal(b, r, offs[i]), 4, RV_JAL,
			       r ? r : -1, -1, -1, offs[i], what);
		}
	CHECK(!rv_enc_jal(b, 1, 0x100000), "jal +1 MiB");
	CHECK(!rv_enc_jal(b, 1, -0x100002), "jal -1 MiB - 2");
	CHECK(!rv_enc_jal(b, 1, 3), "jal odd");
	CHECK(!rv_enc_jal(b, 32, 0), "jal x32");
	CHECK(!rv_enc_jal(b, -1, 0), "jal x-1");

	for (i = 0; i < sizeof(imm12s) / sizeof(imm12s[0]); i++) {
		long v = imm12s[i];

		snprintf(what, sizeof(what), "imm12 %ld", v);
		expect(b, rv_enc_jalr(b, RA, T0, v), 4, RV_JALR, RA, T0, -1, v,
		       what);
		expect(b, rv_enc_jalr(b, ZERO, RA, v), 4, RV_JALR, -1, RA, -1,
		       v, what);
		expect(b, rv_enc_addi(b, SP, SP, v), 4, RV_PLAIN, SP, SP, -1,
		       v, what);
		expect(b, rv_enc_addi(b, A7, ZERO, v), 4, RV_PLAIN, A7, -1,
		       -1, v, what);
		expect(b, rv_enc_ld(b, RA, SP, v), 4, RV_PLAIN, RA, SP, -1, v,
		       what);
		expect(b, rv_enc_sd(b, T6, S0, v), 4, RV_PLAIN, -1, S0, T6, v,
		       what);
	}
	CHECK(!rv_enc_jalr(b, 1, 1, 2048) && !rv_enc_addi(b, 1, 1, -2049) &&
	      !rv_enc_ld(b, 1, 1, 4096) && !rv_enc_sd(b, 1, 1, -2049),
	      "imm12 out of range");
	CHECK(!rv_enc_addi(b, 32, 1, 0) && !rv_enc_ld(b, 1, 32, 0) &&
	      !rv_enc_sd(b, -1, 1, 0) && !rv_enc_jalr(b, 1, 40, 0),
	      "bad register");

	expect(b, rv_enc_auipc(b, T0, 1), 4, RV_AUIPC, T0, -1, -1, 4096,
	       "auipc 1");
	expect(b, rv_enc_auipc(b, RA, 0x7ffff), 4, RV_AUIPC, RA, -1, -1,
	       0x7ffff000L, "auipc max");
	expect(b, rv_enc_auipc(b, RA, -0x80000), 4, RV_AUIPC, RA, -1, -1,
	       -0x80000000L, "auipc min");
	expect(b, rv_enc_auipc(b, A0, -1), 4, RV_AUIPC, A0, -1, -1, -4096,
	       "auipc -1");
	CHECK(!rv_enc_auipc(b, RA, 0x80000) && !rv_enc_auipc(b, RA, -0x80001),
	      "auipc out of range");

	/* lui: same range as auipc; bgeu: the patch's relay check, ±4 KiB */
	expect(b, rv_enc_lui(b, T0, 1), 4, RV_PLAIN, T0, -1, -1, 4096,
	       "lui 1");
	expect(b, rv_enc_lui(b, T0, -0x80000), 4, RV_PLAIN, T0, -1, -1,
	       -0x80000000L, "lui min");
	CHECK(!rv_enc_lui(b, T0, 0x80000) && !rv_enc_lui(b, 32, 1),
	      "lui limits");
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]) && offs[i] < 4096 &&
		    offs[i] >= -4096; i++) {
		snprintf(what, sizeof(what), "bgeu a7,t0,%ld", offs[i]);
		expect(b, rv_enc_bgeu(b, A7, T0, offs[i]), 4, RV_BRANCH, -1,
		       A7, T0, offs[i], what);
	}
	CHECK(!rv_enc_bgeu(b, A7, T0, 4096) && !rv_enc_bgeu(b, A7, T0, -4098) &&
	      !rv_enc_bgeu(b, A7, T0, 3) && !rv_enc_bgeu(b, 32, T0, 0),
	      "bgeu limits");

	/* li: c.li for -32..31, addi beyond, nothing past 12 bits */
	expect(b, rv_enc_li(b, A7, 5), 2, RV_PLAIN, A7, -1, -1, 5, "li 5");
	expect(b, rv_enc_li(b, A7, -32), 2, RV_PLAIN, A7, -1, -1, -32,
	       "li -32");
	expect(b, rv_enc_li(b, A7, 31), 2, RV_PLAIN, A7, -1, -1, 31, "li 31");
	expect(b, rv_enc_li(b, A7, 32), 4, RV_PLAIN, A7, -1, -1, 32, "li 32");
	expect(b, rv_enc_li(b, A0, -33), 4, RV_PLAIN, A0, -1, -1, -33,
	       "li -33");
	expect(b, rv_enc_li(b, A7, 2047), 4, RV_PLAIN, A7, -1, -1, 2047,
	       "li 2047");
	CHECK(!rv_enc_li(b, A7, 2048) && !rv_enc_li(b, 0, 1) &&
	      !rv_enc_li(b, 32, 1), "li limits");
	{
		struct rv_insn in;
		long v;
		int reg;

		rv_enc_li(b, A7, 93);
		rv_decode(b, 4, &in);
		CHECK(rv_is_li(&in, &reg, &v) && reg == A7 && v == 93,
		      "li a7,93 is an li");
	}

	expect(b, rv_enc_ecall(b), 4, RV_ECALL, -1, -1, -1, 0, "ecall");
	CHECK(b[0] == 0x73 && !b[1] && !b[2] && !b[3], "ecall bytes");
	expect(b, rv_enc_ebreak(b, 0), 4, RV_EBREAK, -1, -1, -1, 0, "ebreak");
	expect(b, rv_enc_ebreak(b, 1), 2, RV_EBREAK, -1, -1, -1, 0,
	       "c.ebreak");
	expect(b, rv_enc_c_nop(b), 2, RV_PLAIN, -1, -1, -1, 0, "c.nop");
	CHECK(b[0] == 1 && b[1] == 0, "c.nop bytes");

	for (i = 0; i < 64; i++) {
		long v = -512 + 16 * (long)i;

		snprintf(what, sizeof(what), "c.addi16sp %ld", v);
		if (v)
			expect(b, rv_enc_c_addi16sp(b, v), 2, RV_PLAIN, SP, SP,
			       -1, v, what);
		else
			CHECK(!rv_enc_c_addi16sp(b, v), "%s", what);
	}
	CHECK(!rv_enc_c_addi16sp(b, 512) && !rv_enc_c_addi16sp(b, -528) &&
	      !rv_enc_c_addi16sp(b, 8), "c.addi16sp limits");

	for (i = 0; i < 64; i++) {
		long v = 8 * (long)i;

		snprintf(what, sizeof(what), "c.sdsp/c.ldsp %ld", v);
		expect(b, rv_enc_c_sdsp(b, (int)i % 32, v), 2, RV_PLAIN, -1, SP,
		       i % 32 ? (int)i % 32 : -1, v, what);
		if (i % 32)
			expect(b, rv_enc_c_ldsp(b, (int)i % 32, v), 2, RV_PLAIN,
			       (int)i % 32, SP, -1, v, what);
	}
	CHECK(!rv_enc_c_sdsp(b, RA, 512) && !rv_enc_c_sdsp(b, RA, 4) &&
	      !rv_enc_c_sdsp(b, RA, -8) && !rv_enc_c_sdsp(b, 32, 0),
	      "c.sdsp limits");
	CHECK(!rv_enc_c_ldsp(b, RA, 512) && !rv_enc_c_ldsp(b, RA, 12) &&
	      !rv_enc_c_ldsp(b, ZERO, 0) && !rv_enc_c_ldsp(b, 32, 0),
	      "c.ldsp limits");
}

static void test_split(void)
{
	static const long d[] = {
		0, 1, -1, 0x7ff, 0x800, -0x800, -0x801, 0xfff, 0x1000,
		0x12345678, -0x12345678, 0x7ffff7ff, -0x80000800L, 0x7ffff000,
		-0x80000000L, 0x7ffff7fe, 0x40000800,
	};
	size_t i;
	long hi, lo;

	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		unsigned char b[8];

		CHECK(rv_split_hi_lo(d[i], &hi, &lo) && hi * 4096 + lo == d[i] &&
		      lo >= -2048 && lo <= 2047 && rv_enc_auipc(b, T0, hi) == 4 &&
		      rv_enc_jalr(b, RA, T0, lo) == 4,
		      "split %ld: %ld, %ld", d[i], hi, lo);
	}
	CHECK(!rv_split_hi_lo(0x7ffff800, &hi, &lo), "split past the top");
	CHECK(!rv_split_hi_lo(-0x80000801L, &hi, &lo), "split past the bottom");
	CHECK(!rv_split_hi_lo(0x100000000L, &hi, &lo), "split 4 GiB");
}

/* rv_find_a7 on code assembled from the encoders. */
struct seq {
	unsigned char b[64];
	unsigned long n;
};

static void put(struct seq *s, int len)
{
	s->n += (unsigned long)len;
}

static void test_find_a7(void)
{
	struct seq s;
	unsigned long at;
	long nr;

#define RESET() (memset(&s, 0, sizeof(s)))
	/* li a7, 93; ecall */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A7, 93));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 93, "li; ecall");
	CHECK(!rv_find_a7(s.b, 0, 0, &nr), "not an ecall at ecall_off");
	CHECK(!rv_find_a7(s.b, 1, at, &nr), "start past the li");

	/* addi a7, zero, 222; c.mv a0, s0; ld a1, 8(sp); ecall */
	RESET();
	put(&s, rv_enc_addi(s.b + s.n, A7, ZERO, 222));
	s.b[s.n++] = 0x22; s.b[s.n++] = 0x85;	/* c.mv a0,s0 */
	put(&s, rv_enc_ld(s.b + s.n, A1, SP, 8));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 222, "li; others; ecall");

	/* li a7, 1; li a7, 2; ecall: the last one counts */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A7, 1));
	put(&s, rv_enc_li(s.b + s.n, A7, 2));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 2, "two lis");

	/* li a7, 1; c.mv a7, a0; ecall */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A7, 1));
	s.b[s.n++] = 0xaa; s.b[s.n++] = 0x88;	/* c.mv a7,a0 */
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(!rv_find_a7(s.b, 0, at, &nr), "a7 from a register");

	/* li a7, 1; jal ra, +8; ecall */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A7, 1));
	put(&s, rv_enc_jal(s.b + s.n, RA, 8));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(!rv_find_a7(s.b, 0, at, &nr), "a call between");

	/* c.beqz a0, -> ecall; li a7, 1; ecall: a path skips the li */
	RESET();
	s.b[s.n++] = 0x11; s.b[s.n++] = 0xc1;	/* c.beqz a0,.+4 */
	put(&s, rv_enc_li(s.b + s.n, A7, 1));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(!rv_find_a7(s.b, 0, at, &nr), "a branch over the li");
	/* ... but from the li on, nothing skips it */
	CHECK(rv_find_a7(s.b, 2, at, &nr) && nr == 1, "start at the li");

	/* c.j over the padding; c.unimp; li a7, 64; ecall */
	RESET();
	s.b[s.n++] = 0x09; s.b[s.n++] = 0xa0;	/* c.j .+2 */
	s.b[s.n++] = 0; s.b[s.n++] = 0;		/* c.unimp */
	put(&s, rv_enc_li(s.b + s.n, A7, 64));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 64, "padding before");

	/* lui a7, 1; ecall: lui is an li too */
	RESET();
	s.b[s.n++] = 0xb7; s.b[s.n++] = 0x18;
	s.b[s.n++] = 0x00; s.b[s.n++] = 0x00;	/* lui a7,0x1 */
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 4096, "lui a7");

	/* li a7, 5; ecall; ecall: the first ecall leaves a7 alone */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A7, 5));
	put(&s, rv_enc_ecall(s.b + s.n));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(rv_find_a7(s.b, 0, at, &nr) && nr == 5, "ecall; ecall");

	/* nothing sets a7 */
	RESET();
	put(&s, rv_enc_li(s.b + s.n, A0, 5));
	at = s.n;
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(!rv_find_a7(s.b, 0, at, &nr), "no a7");

	/* ecall_off inside an instruction: the walk does not land on it */
	RESET();
	put(&s, rv_enc_addi(s.b + s.n, A7, ZERO, 93));
	put(&s, rv_enc_ecall(s.b + s.n));
	CHECK(!rv_find_a7(s.b, 0, 2, &nr), "misaligned ecall_off");
#undef RESET
}

int main(void)
{
	size_t nrows = sizeof(rows) / sizeof(rows[0]);

	test_rows();
	test_encoders();
	test_split();
	test_find_a7();
	printf("%zu rows, %d checks, %d failed\n", nrows, checks, failures);
	return failures ? 1 : 0;
}
