/* SPDX-License-Identifier: MIT */
/*
 * x86-64 instruction decoder: length, kind, relative operands and what the
 * instruction does to rax.  Just what the patcher needs to walk code from
 * a known boundary, relocate instructions and find `mov $nr,%eax` before a
 * syscall; it is not a disassembler.  Freestanding (no libc).
 */
#ifndef SG_X86_DECODE_H
#define SG_X86_DECODE_H

enum x86_kind {
	X86_OTHER = 0,
	X86_SYSCALL,		/* 0f 05 */
	X86_SYSENTER,		/* 0f 34 */
	X86_INT80,		/* cd 80 */
	X86_JMP,		/* eb, e9: target */
	X86_JCC,		/* 70-7f, 0f 80-8f, e0-e3: target */
	X86_CALL,		/* e8: target */
	X86_RET,		/* c3, c2, cb, ca, cf */
	X86_JMP_IND,		/* ff /4, ff /5 */
	X86_CALL_IND,		/* ff /2, ff /3 */
	X86_INT3,		/* cc */
	X86_STOP,		/* ud2, ud1, ud0, hlt, int1: never falls through */
	X86_NOP,		/* 90, 0f 1f /0 */
	X86_ENDBR,		/* f3 0f 1e fa/fb */
};

enum x86_rax {
	X86_RAX_NO = 0,		/* rax untouched */
	X86_RAX_IMM,		/* rax = imm afterwards */
	X86_RAX_MAY,		/* may write (part of) rax */
};

/* How an instruction uses the stack pointer, for the zero-page
 * mechanism's red-zone proof (a `call` at a syscall site writes the 8
 * bytes below %rsp).  Ordered: a function's worst use is the largest. */
enum x86_rsp {
	X86_RSP_NO = 0,		/* push/pop/call/ret, add/sub $imm,%rsp,
				   lea d(%rsp),%rsp, d(%rsp) with d >= 0 */
	X86_RSP_READ,		/* %rsp copied, or changed, some other way */
	X86_RSP_BELOW,		/* memory below %rsp: d(%rsp) with d < 0,
				   or %rsp plus an index */
	X86_RSP_UNDECODED,	/* x86_redzone_scan: bytes it cannot walk */
};

struct x86_insn {
	unsigned char len;
	unsigned char kind;	/* enum x86_kind */
	unsigned char rip_rel;	/* a rip-relative memory operand */
	unsigned char rel_off;	/* offset of its displacement (or of a
				   branch's) within the instruction */
	unsigned char rel_size;	/* 1, 2 or 4; 0 if none */
	unsigned char rax;	/* enum x86_rax */
	unsigned char rsp;	/* enum x86_rsp */
	unsigned char vec;	/* may use x87, MMX, SSE, AVX or MXCSR state
				   (all but a list of general-register
				   instructions; x86_fpu_free) */
	long long imm;		/* rax's value for X86_RAX_IMM */
	long long target;	/* branch target or rip-relative address,
				   minus the instruction's address */
};

/* Decode the instruction at code[0..avail).  Returns its length (1-15), or
 * 0 if the bytes are not a valid 64-bit instruction or are cut short. */
int x86_decode(const unsigned char *code, unsigned long avail,
	       struct x86_insn *insn);
/* The same without the analysis of rax and rsp (insn->rsp is
 * X86_RSP_NO; insn->rax may say X86_RAX_NO of an instruction that writes
 * rax): enough to follow control flow and relocate, which is most of
 * planning's decoding. */
int x86_decode_flow(const unsigned char *code, unsigned long avail,
		    struct x86_insn *insn);

/*
 * Does the code reachable from fn (direct branches and calls followed,
 * up to a bound) use no vector, x87 or MXCSR state, and leave it for
 * nothing it cannot see (an indirect branch or call, a PLT entry)?
 * read(dst, src, len) copies code bytes or fails (< 0).  1 or 0.
 */
int x86_fpu_free(unsigned long fn,
		 long (*read)(void *dst, const void *src, unsigned long len));

/*
 * The worst use of %rsp (enum x86_rsp) in a function's bytes code[0..len),
 * decoded linearly from its start.  starts, if not NULL, is a bitmap of
 * instruction starts found by following the function's control flow:
 * each must also start an instruction of the linear walk, or the walk is
 * out of step with the code (X86_RSP_UNDECODED).
 */
int x86_redzone_scan(const unsigned char *code, unsigned long len,
		     const unsigned char *starts);

#endif
