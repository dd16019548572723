/* SPDX-License-Identifier: MIT */
/*
 * The zero-page mechanism's red-zone proof, table-driven: single
 * instructions -> enum x86_rsp, then hand-written functions
 * (redzone-cases.S) -> the worst use x86_redzone_scan() reports.  A
 * function is proven safe only with X86_RSP_NO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

enum { NO = X86_RSP_NO, READ = X86_RSP_READ, BELOW = X86_RSP_BELOW,
       UNDEC = X86_RSP_UNDECODED };

static const struct {
	const char *hex, *what;
	int want;
} insns[] = {
	{ "50", "push %rax", NO },
	{ "54", "push %rsp", READ },
	{ "4154", "push %r12", NO },
	{ "5c", "pop %rsp", READ },
	{ "415c", "pop %r12", NO },
	{ "c3", "ret", NO },
	{ "e800000000", "call", NO },
	{ "4883ec28", "sub $0x28,%rsp", NO },
	{ "4883c428", "add $0x28,%rsp", NO },
	{ "4881ec00010000", "sub $0x100,%rsp", NO },
	{ "83ec08", "sub $8,%esp", READ },
	{ "4883e4f0", "and $-16,%rsp", READ },
	{ "4883fc00", "cmp $0,%rsp", READ },
	{ "4829c4", "sub %rax,%rsp", READ },
	{ "4889e5", "mov %rsp,%rbp", READ },
	{ "4889ec", "mov %rbp,%rsp", READ },
	{ "4c89e5", "mov %r12,%rbp", NO },
	{ "488b442408", "mov 8(%rsp),%rax", NO },
	{ "48894424f8", "mov %rax,-8(%rsp)", BELOW },
	{ "488b8424f0feffff", "mov -0x110(%rsp),%rax", BELOW },
	{ "488b04cc", "mov (%rsp,%rcx,8),%rax", BELOW },
	{ "48890424", "mov %rax,(%rsp)", NO },
	{ "498b4424f8", "mov -8(%r12),%rax", NO },
	{ "488d742408", "lea 8(%rsp),%rsi", READ },
	{ "488d6424f8", "lea -8(%rsp),%rsp", NO },
	{ "488da42480000000", "lea 0x80(%rsp),%rsp", NO },
	{ "488d65f0", "lea -0x10(%rbp),%rsp", READ },
	{ "488d45f0", "lea -0x10(%rbp),%rax", NO },
	{ "c9", "leave", READ },
	{ "c8100000", "enter", READ },
	{ "4894", "xchg %rax,%rsp", READ },
	{ "49bc0000000000000000", "movabs $0,%r12", NO },
	{ "48bc0000000000000000", "movabs $0,%rsp", READ },
	{ "0fcc", "bswap %esp", READ },
	{ "ffd0", "call *%rax", NO },
	{ "ffd4", "call *%rsp", READ },
	{ "0f28ec", "movaps %xmm4,%xmm5", NO },
	{ "660fefe4", "pxor %xmm4,%xmm4", NO },
	{ "f30f6f642410", "movdqu 0x10(%rsp),%xmm4", NO },
	{ "c5fe7f4424e0", "vmovdqu %ymm0,-0x20(%rsp)", BELOW },
	{ "c5d9efe4", "vpxor %xmm4,%xmm4,%xmm4", NO },
	{ "c4e2d8f2c0", "andn %rax,%rsp,%rax", READ },
	{ "66480f6ee4", "movq %rsp,%xmm4", READ },
	{ "d9c4", "fld %st(4)", NO },
	{ "dd4424f8", "fldl -8(%rsp)", BELOW },
	{ "8f0424", "pop (%rsp)", NO },
	{ "660f1f440000", "nopw 0(%rax,%rax)", NO },
	{ "64488b042528000000", "mov %fs:0x28,%rax", NO },
	{ "9c", "pushf", NO },
};

extern const unsigned char rz_leaf_wrapper[], rz_leaf_wrapper_end[],
	rz_frame_above[], rz_frame_above_end[], rz_redzone_store[],
	rz_redzone_store_end[], rz_indexed[], rz_indexed_end[],
	rz_frame_pointer[], rz_frame_pointer_end[], rz_lea_copy[],
	rz_lea_copy_end[], rz_lea_alloc[], rz_lea_alloc_end[], rz_align[],
	rz_align_end[], rz_sse_xmm4[], rz_sse_xmm4_end[], rz_avx_below[],
	rz_avx_below_end[], rz_data[], rz_data_end[], rz_leave[],
	rz_leave_end[], rz_push_rsp[], rz_push_rsp_end[], rz_r12[],
	rz_r12_end[];

#define F(n, w) { #n, rz_##n, rz_##n##_end, w }
static const struct {
	const char *name;
	const unsigned char *lo, *hi;
	int want;
} funcs[] = {
	F(leaf_wrapper, NO), F(frame_above, NO), F(redzone_store, BELOW),
	F(indexed, BELOW), F(frame_pointer, READ), F(lea_copy, READ),
	F(lea_alloc, NO), F(align, READ), F(sse_xmm4, NO),
	F(avx_below, BELOW), F(data, UNDEC), F(leave, READ),
	F(push_rsp, READ), F(r12, NO),
};

static int unhex(const char *h, unsigned char *out)
{
	int n = 0;

	for (; *h; h++) {
		if (*h == ' ')
			continue;
		sscanf(h, "%2hhx", &out[n++]);
		h++;
	}
	return n;
}

int main(void)
{
	unsigned int i, fail = 0;

	for (i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
		unsigned char b[16];
		struct x86_insn in;
		int n = unhex(insns[i].hex, b);

		if (x86_decode(b, n, &in) != n || in.rsp != insns[i].want) {
			printf("FAIL %s (%s): len %d rsp %d, want len %d rsp %d\n",
			       insns[i].what, insns[i].hex, in.len, in.rsp, n,
			       insns[i].want);
			fail++;
		}
	}
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		int got = x86_redzone_scan(funcs[i].lo, funcs[i].hi - funcs[i].lo,
					   0);

		if (got != funcs[i].want) {
			printf("FAIL function %s: %d, want %d\n", funcs[i].name,
			       got, funcs[i].want);
			fail++;
		}
	}
	{
		/* Control flow found an instruction inside the linear walk's
		 * first instruction: out of step. */
		static const unsigned char code[] = { 0x48, 0xb8, 0x0f, 0x05,
						      0, 0, 0, 0, 0, 0, 0xc3 };
		unsigned char starts[2] = { 1 << 2, 0 };

		if (x86_redzone_scan(code, sizeof(code), starts) != UNDEC ||
		    x86_redzone_scan(code, sizeof(code), 0) != NO) {
			printf("FAIL out-of-step walk not detected\n");
			fail++;
		}
	}
	printf("%u instructions, %u functions, %u failures\n",
	       (unsigned)(sizeof(insns) / sizeof(insns[0])),
	       (unsigned)(sizeof(funcs) / sizeof(funcs[0])), fail);
	return fail ? 1 : 0;
}
