/* SPDX-License-Identifier: MIT */
/*
 * Table-driven decoder test: bytes -> length, kind, rax effect, branch or
 * rip-relative target.  Rows cover prefixes, REX, VEX/EVEX/XOP, moffs,
 * imm64, immediates after displacements, branches, invalid opcodes and
 * truncation.  Then every row is decoded again with one byte fewer (must
 * fail) and random bytes are decoded at every length (must not read past
 * avail or crash).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

#define ANY -999999
enum { NO = X86_RAX_NO, IMM = X86_RAX_IMM, MAY = X86_RAX_MAY };

struct row {
	const char *hex;
	int len, kind, rax;
	long long imm;		/* for IMM */
	int rip;		/* rip_rel */
	long long target;	/* ANY: not checked */
};

static const struct row rows[] = {
	/* syscall instructions and what precedes them in glibc */
	{ "0f05", 2, X86_SYSCALL, MAY, 0, 0, ANY },
	{ "0f34", 2, X86_SYSENTER, MAY, 0, 0, ANY },
	{ "cd80", 2, X86_INT80, MAY, 0, 0, ANY },
	{ "b827000000", 5, X86_OTHER, IMM, 0x27, 0, ANY },
	{ "b8e7000000", 5, X86_OTHER, IMM, 0xe7, 0, ANY },
	{ "41b8e7000000", 6, X86_OTHER, NO, 0, 0, ANY },	/* r8d */
	{ "48b8efcdab8967452301", 10, X86_OTHER, IMM, 0x0123456789abcdefLL, 0, ANY },
	{ "48c7c0ffffffff", 7, X86_OTHER, IMM, -1, 0, ANY },
	{ "c7c0ffffffff", 6, X86_OTHER, IMM, 0xffffffffLL, 0, ANY },
	{ "49c7c001000000", 7, X86_OTHER, NO, 0, 0, ANY },	/* r8 */
	{ "31c0", 2, X86_OTHER, IMM, 0, 0, ANY },
	{ "33c0", 2, X86_OTHER, IMM, 0, 0, ANY },
	{ "4531c0", 3, X86_OTHER, NO, 0, 0, ANY },	/* xor %r8d,%r8d */
	{ "31d2", 2, X86_OTHER, NO, 0, 0, ANY },
	{ "6631c0", 3, X86_OTHER, MAY, 0, 0, ANY },	/* xor %ax,%ax: eax's top
							   half survives */
	{ "66c7c03412", 5, X86_OTHER, MAY, 0, 0, ANY },	/* mov $imm16,%ax */
	{ "31c2", 2, X86_OTHER, MAY, 0, 0, ANY },	/* xor %eax,%edx reads... reg=0 */
	{ "4889fe", 3, X86_OTHER, NO, 0, 0, ANY },	/* mov %rdi,%rsi */
	{ "4889c7", 3, X86_OTHER, MAY, 0, 0, ANY },	/* mov %rax,%rdi: reg=0 */
	{ "8b17", 2, X86_OTHER, NO, 0, 0, ANY },		/* mov (%rdi),%edx */
	{ "8b07", 2, X86_OTHER, MAY, 0, 0, ANY },		/* mov (%rdi),%eax */
	{ "4c89d7", 3, X86_OTHER, NO, 0, 0, ANY },	/* mov %r10,%rdi */
	{ "4989ca", 3, X86_OTHER, NO, 0, 0, ANY },	/* mov %rcx,%r10 */
	{ "ba01000000", 5, X86_OTHER, NO, 0, 0, ANY },
	{ "58", 1, X86_OTHER, MAY, 0, 0, ANY },
	{ "5f", 1, X86_OTHER, NO, 0, 0, ANY },
	{ "98", 1, X86_OTHER, MAY, 0, 0, ANY },
	{ "4898", 2, X86_OTHER, MAY, 0, 0, ANY },
	{ "0fa2", 2, X86_OTHER, MAY, 0, 0, ANY },		/* cpuid */
	{ "0f31", 2, X86_OTHER, MAY, 0, 0, ANY },		/* rdtsc */
	{ "f7e1", 2, X86_OTHER, MAY, 0, 0, ANY },		/* mul %ecx */
	{ "f7c101000000", 6, X86_OTHER, NO, 0, 0, ANY },	/* test $1,%ecx */
	{ "f6c101", 3, X86_OTHER, NO, 0, 0, ANY },	/* test $1,%cl */
	{ "f6050000000001", 7, X86_OTHER, NO, 0, 1, 7 },	/* testb $1,0(%rip) */
	{ "ac", 1, X86_OTHER, MAY, 0, 0, ANY },
	{ "aa", 1, X86_OTHER, NO, 0, 0, ANY },
	{ "b001", 2, X86_OTHER, MAY, 0, 0, ANY },
	{ "0fb10a", 3, X86_OTHER, MAY, 0, 0, ANY },	/* cmpxchg */
	{ "e800000000", 5, X86_CALL, MAY, 0, 0, 5 },
	{ "ffd0", 2, X86_CALL_IND, MAY, 0, 0, ANY },
	{ "ff1500100000", 6, X86_CALL_IND, MAY, 0, 1, 0x1006 },
	{ "ff2500100000", 6, X86_JMP_IND, NO, 0, 1, 0x1006 },
	{ "ffe0", 2, X86_JMP_IND, MAY, 0, 0, ANY },	/* jmp *%rax: rm=0 */
	{ "3e ffe2", 3, X86_JMP_IND, NO, 0, 0, ANY },	/* notrack jmp *%rdx */
	/* branches */
	{ "eb00", 2, X86_JMP, NO, 0, 0, 2 },
	{ "ebfe", 2, X86_JMP, NO, 0, 0, 0 },
	{ "e9fbffffff", 5, X86_JMP, NO, 0, 0, 0 },
	{ "7410", 2, X86_JCC, NO, 0, 0, 0x12 },
	{ "0f8410000000", 6, X86_JCC, NO, 0, 0, 0x16 },
	{ "0f85f0ffffff", 6, X86_JCC, NO, 0, 0, -10 },
	{ "e3fe", 2, X86_JCC, NO, 0, 0, 0 },		/* jrcxz */
	{ "e2fe", 2, X86_JCC, NO, 0, 0, 0 },		/* loop */
	{ "f2e9fbffffff", 6, X86_JMP, NO, 0, 0, 1 },	/* bnd jmp */
	{ "66e90000", 0, 0, 0, 0, 0, ANY },		/* rel16/rel32 ambiguity */
	{ "c3", 1, X86_RET, NO, 0, 0, ANY },
	{ "f3c3", 2, X86_RET, NO, 0, 0, ANY },
	{ "c20800", 3, X86_RET, NO, 0, 0, ANY },
	{ "cb", 1, X86_RET, NO, 0, 0, ANY },
	{ "48cf", 2, X86_RET, NO, 0, 0, ANY },
	{ "cc", 1, X86_INT3, NO, 0, 0, ANY },
	{ "0f0b", 2, X86_STOP, MAY, 0, 0, ANY },
	{ "f4", 1, X86_STOP, NO, 0, 0, ANY },
	{ "0fb900", 3, X86_STOP, MAY, 0, 0, ANY },
	{ "c7f800000000", 6, X86_OTHER, MAY, 0, 0, 6 },	/* xbegin: abort code */
	/* nops and endbr */
	{ "90", 1, X86_NOP, NO, 0, 0, ANY },
	{ "4190", 2, X86_OTHER, MAY, 0, 0, ANY },		/* xchg %eax,%r8d */
	{ "6690", 2, X86_NOP, NO, 0, 0, ANY },
	{ "0f1f00", 3, X86_NOP, NO, 0, 0, ANY },
	{ "0f1f4000", 4, X86_NOP, NO, 0, 0, ANY },
	{ "0f1f440000", 5, X86_NOP, NO, 0, 0, ANY },
	{ "660f1f440000", 6, X86_NOP, NO, 0, 0, ANY },
	{ "0f1f8000000000", 7, X86_NOP, NO, 0, 0, ANY },
	{ "0f1f840000000000", 8, X86_NOP, NO, 0, 0, ANY },
	{ "662e0f1f840000000000", 10, X86_NOP, NO, 0, 0, ANY },
	{ "66662e0f1f840000000000", 11, X86_NOP, NO, 0, 0, ANY },
	{ "f30f1efa", 4, X86_ENDBR, NO, 0, 0, ANY },
	{ "f30f1efb", 4, X86_ENDBR, NO, 0, 0, ANY },
	/* ModRM/SIB/displacement forms */
	{ "488b4508", 4, X86_OTHER, MAY, 0, 0, ANY },	/* mov 8(%rbp),%rax */
	{ "488b442408", 5, X86_OTHER, MAY, 0, 0, ANY },	/* SIB + disp8 */
	{ "488b842400010000", 8, X86_OTHER, MAY, 0, 0, ANY },
	{ "488b0425 00100000", 8, X86_OTHER, MAY, 0, 0, ANY },	/* SIB no base */
	{ "8b04c500000000", 7, X86_OTHER, MAY, 0, 0, ANY },
	{ "488b0500100000", 7, X86_OTHER, MAY, 0, 1, 0x1007 },
	{ "488d3d00100000", 7, X86_OTHER, NO, 0, 1, 0x1007 },	/* lea to rdi */
	{ "c70500000000 01000000", 10, X86_OTHER, NO, 0, 1, 10 },	/* imm after disp */
	{ "48c70500000000 01000000", 11, X86_OTHER, NO, 0, 1, 11 },
	{ "66c7050000000001 00", 9, X86_OTHER, NO, 0, 1, 9 },
	{ "803d0000000001", 7, X86_OTHER, NO, 0, 1, 7 },
	{ "833d0000000001", 7, X86_OTHER, NO, 0, 1, 7 },
	{ "813d00000000 01000000", 10, X86_OTHER, NO, 0, 1, 10 },
	{ "6bc003", 3, X86_OTHER, MAY, 0, 0, ANY },
	{ "69c0e8030000", 6, X86_OTHER, MAY, 0, 0, ANY },
	{ "c1e003", 3, X86_OTHER, MAY, 0, 0, ANY },
	{ "48c1e203", 4, X86_OTHER, NO, 0, 0, ANY },
	{ "0fbae201", 4, X86_OTHER, NO, 0, 0, ANY },	/* bt $1,%edx */
	{ "0fa4c201", 4, X86_OTHER, MAY, 0, 0, ANY },	/* shld: reg=0 */
	{ "0f20c0", 3, X86_OTHER, MAY, 0, 0, ANY },	/* mov %cr0,%rax */
	{ "0f2300", 3, X86_OTHER, MAY, 0, 0, ANY },	/* mod ignored */
	/* immediates by opcode */
	{ "6a01", 2, X86_OTHER, NO, 0, 0, ANY },
	{ "6800100000", 5, X86_OTHER, NO, 0, 0, ANY },
	{ "666800 10", 4, X86_OTHER, NO, 0, 0, ANY },
	{ "a801", 2, X86_OTHER, NO, 0, 0, ANY },
	{ "a900000080", 5, X86_OTHER, NO, 0, 0, ANY },
	{ "0401", 2, X86_OTHER, MAY, 0, 0, ANY },
	{ "3c01", 2, X86_OTHER, NO, 0, 0, ANY },		/* cmp $1,%al */
	{ "3d01000000", 5, X86_OTHER, NO, 0, 0, ANY },
	{ "6683f801", 4, X86_OTHER, MAY, 0, 0, ANY },
	{ "66b80100", 4, X86_OTHER, MAY, 0, 0, ANY },	/* mov $1,%ax: partial */
	{ "c8100000", 4, X86_OTHER, NO, 0, 0, ANY },	/* enter */
	{ "cd03", 2, X86_OTHER, MAY, 0, 0, ANY },
	{ "e460", 2, X86_OTHER, MAY, 0, 0, ANY },
	/* moffs */
	{ "a10000000000000000", 9, X86_OTHER, MAY, 0, 0, ANY },
	{ "67a100000000", 6, X86_OTHER, MAY, 0, 0, ANY },
	{ "48a30000000000000000", 10, X86_OTHER, NO, 0, 0, ANY },
	/* prefixes and REX */
	{ "f0480fb10a", 5, X86_OTHER, MAY, 0, 0, ANY },
	{ "64488b042528000000", 9, X86_OTHER, MAY, 0, 0, ANY },
	{ "f348ab", 3, X86_OTHER, NO, 0, 0, ANY },
	{ "f3a4", 2, X86_OTHER, NO, 0, 0, ANY },
	{ "4866b8 0100", 5, X86_OTHER, MAY, 0, 0, ANY },	/* REX then 66: REX
							   ignored, mov $1,%ax */
	/* SSE and three-byte maps */
	{ "660f6f00", 4, X86_OTHER, MAY, 0, 0, ANY },
	{ "660fefc0", 4, X86_OTHER, MAY, 0, 0, ANY },
	{ "f30f6f4c2410", 6, X86_OTHER, NO, 0, 0, ANY },
	{ "660f70c000", 5, X86_OTHER, MAY, 0, 0, ANY },
	{ "660f3a0fc108", 6, X86_OTHER, MAY, 0, 0, ANY },
	{ "660f3800c1", 5, X86_OTHER, MAY, 0, 0, ANY },
	{ "660fc6c000", 5, X86_OTHER, MAY, 0, 0, ANY },
	{ "0fd7c0", 3, X86_OTHER, MAY, 0, 0, ANY },	/* pmovmskb %mm0,%eax */
	{ "660fd7c1", 4, X86_OTHER, MAY, 0, 0, ANY },
	{ "660fd7d1", 4, X86_OTHER, NO, 0, 0, ANY },	/* to %edx */
	{ "0f0f c0 b4", 4, X86_OTHER, MAY, 0, 0, ANY },	/* 3DNow! */
	/* VEX, EVEX, XOP */
	{ "c5f877", 3, X86_OTHER, NO, 0, 0, ANY },		/* vzeroupper */
	{ "c5fd6f00", 4, X86_OTHER, MAY, 0, 0, ANY },
	{ "c5fd6f0d00100000", 8, X86_OTHER, NO, 0, 1, 0x1008 },
	{ "c4e27d5808", 5, X86_OTHER, NO, 0, 0, ANY },
	{ "c4e3790fc108", 6, X86_OTHER, MAY, 0, 0, ANY },	/* map 3 imm8 */
	{ "c5f9c6c000", 5, X86_OTHER, MAY, 0, 0, ANY },	/* map 1 imm8 */
	{ "c4e2f0f2c2", 5, X86_OTHER, MAY, 0, 0, ANY },	/* andn: rm=2 reg=0 */
	{ "62f17c486f00", 6, X86_OTHER, MAY, 0, 0, ANY },
	{ "62f1fe486f4c2401", 8, X86_OTHER, NO, 0, 0, ANY },
	{ "62f37d4823c100", 7, X86_OTHER, MAY, 0, 0, ANY },	/* map 3 imm8 */
	{ "62f17c487705", 0, 0, 0, 0, 0, ANY },		/* needs ModRM: cut */
	{ "8fe97801c1", 5, X86_OTHER, MAY, 0, 0, ANY },	/* XOP map 9 */
	{ "8f00", 2, X86_OTHER, NO, 0, 0, ANY },		/* pop (%rax) */
	{ "8fc0", 2, X86_OTHER, MAY, 0, 0, ANY },		/* pop %rax */
	{ "48c5f877", 0, 0, 0, 0, 0, ANY },		/* REX before VEX */
	/* x87 */
	{ "d9c9", 2, X86_OTHER, NO, 0, 0, ANY },		/* fxch */
	{ "dd442408", 4, X86_OTHER, NO, 0, 0, ANY },
	{ "dfe0", 2, X86_OTHER, MAY, 0, 0, ANY },		/* fnstsw %ax */
	{ "9b", 1, X86_OTHER, NO, 0, 0, ANY },
	/* invalid in 64-bit mode */
	{ "06", 0, 0, 0, 0, 0, ANY }, { "07", 0, 0, 0, 0, 0, ANY },
	{ "0e", 0, 0, 0, 0, 0, ANY }, { "16", 0, 0, 0, 0, 0, ANY },
	{ "1e", 0, 0, 0, 0, 0, ANY }, { "27", 0, 0, 0, 0, 0, ANY },
	{ "2f", 0, 0, 0, 0, 0, ANY }, { "37", 0, 0, 0, 0, 0, ANY },
	{ "3f", 0, 0, 0, 0, 0, ANY }, { "60", 0, 0, 0, 0, 0, ANY },
	{ "61", 0, 0, 0, 0, 0, ANY }, { "82c001", 0, 0, 0, 0, 0, ANY },
	{ "9a000000000000", 0, 0, 0, 0, 0, ANY }, { "ce", 0, 0, 0, 0, 0, ANY },
	{ "d40a", 0, 0, 0, 0, 0, ANY }, { "d6", 0, 0, 0, 0, 0, ANY },
	{ "ea00000000 0000", 0, 0, 0, 0, 0, ANY }, { "0f04", 0, 0, 0, 0, 0, ANY },
	{ "0f0a", 0, 0, 0, 0, 0, ANY }, { "0f36", 0, 0, 0, 0, 0, ANY },
	/* too long: 15 bytes is the limit */
	{ "666666666666666666666666666690", 15, X86_NOP, NO, 0, 0, ANY },
	{ "66666666666666666666666666666690", 0, 0, 0, 0, 0, ANY },
	{ 0 },
};

static int unhex(const char *h, unsigned char *out)
{
	int n = 0;

	while (*h) {
		if (*h == ' ') {
			h++;
			continue;
		}
		sscanf(h, "%2hhx", &out[n++]);
		h += 2;
	}
	return n;
}

int main(void)
{
	const struct row *r;
	int failures = 0, n = 0, i, k;
	unsigned char buf[32];

	for (r = rows; r->hex; r++, n++) {
		struct x86_insn in;
		int len = unhex(r->hex, buf), got;

		got = x86_decode(buf, len, &in);
		if (got != r->len) {
			printf("%s: length %d, want %d\n", r->hex, got, r->len);
			failures++;
			continue;
		}
		if (!got)
			continue;
		if (in.len != got || in.kind != r->kind || in.rax != r->rax ||
		    (r->rax == IMM && in.imm != r->imm) || in.rip_rel != r->rip ||
		    (r->target != ANY && in.target != r->target)) {
			printf("%s: kind %d rax %d imm %lld rip %d target %lld, "
			       "want %d %d %lld %d %lld\n", r->hex, in.kind,
			       in.rax, in.imm, in.rip_rel, in.target, r->kind,
			       r->rax, r->imm, r->rip, r->target);
			failures++;
		}
		/* One byte short must fail, never read past avail. */
		if (x86_decode(buf, got - 1, &in) != 0) {
			printf("%s: decoded with %d bytes\n", r->hex, got - 1);
			failures++;
		}
	}
	/* Random bytes: length within avail, deterministic. */
	srand(1);
	for (i = 0; i < 200000; i++) {
		unsigned char *p = buf + 32 - 15;
		struct x86_insn a, b;

		for (k = 0; k < 15; k++)
			p[k] = rand();
		for (k = 0; k <= 15; k++) {
			int x = x86_decode(p + 15 - k, k, &a);

			if (x < 0 || x > k) {
				printf("random: length %d with %d bytes\n", x, k);
				failures++;
			}
		}
		if (x86_decode(p, 15, &a) != x86_decode(p, 15, &b) ||
		    memcmp(&a, &b, sizeof(a))) {
			printf("random: not deterministic\n");
			failures++;
		}
	}
	printf("%d rows, 200000 random, %d failures\n", n, failures);
	return failures != 0;
}
