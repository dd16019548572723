/* SPDX-License-Identifier: MIT */
/*
 * Every vector register, the AVX-512 mask registers, MXCSR and the x87
 * control word keep their values across a system call made with inline
 * asm (nothing declared clobbered but rax, rcx, r11), in the states a
 * program can leave them: upper halves clean (after vzeroupper) or in
 * use, zmm16-31 in use or not, x87 untouched or with a changed control
 * word.  Under `--hook=clobber.so` (tests/hooks/clobber.c, a hook without
 * SYSGATE_HOOK_NOFPU that changes all of them) this checks sysgate's
 * save and restore of the program's FPU state.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "../lib/util.h"

struct regs {
	uint8_t v[32][64] __attribute__((aligned(64)));
	uint64_t k[8];		/* offset 2048 */
	uint32_t mxcsr;		/* 2112 */
	uint16_t fcw;		/* 2116 */
	uint16_t fsw;		/* 2118 */
};

static void fill(struct regs *r, int seed, int width)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 32; i++)
		for (int j = 0; j < width; j++)
			r->v[i][j] = (uint8_t)(seed * 31 + i * 7 + j + 1);
	for (int i = 0; i < 8; i++)
		r->k[i] = 0x0101010101010101ULL * (seed + i + 1);
	r->mxcsr = 0x7f80;	/* round toward zero, exceptions masked */
}

#define LD(n, w, op) op " " #n "*64(%[in]), %%" w #n "\n\t"
#define ST(n, w, op) op " %%" w #n ", " #n "*64(%[out])\n\t"
#define ALL16(M, w, op)							\
	M(0, w, op) M(1, w, op) M(2, w, op) M(3, w, op) M(4, w, op)	\
	M(5, w, op) M(6, w, op) M(7, w, op) M(8, w, op) M(9, w, op)	\
	M(10, w, op) M(11, w, op) M(12, w, op) M(13, w, op)		\
	M(14, w, op) M(15, w, op)
#define HI16(M, w, op)							\
	M(16, w, op) M(17, w, op) M(18, w, op) M(19, w, op)		\
	M(20, w, op) M(21, w, op) M(22, w, op) M(23, w, op)		\
	M(24, w, op) M(25, w, op) M(26, w, op) M(27, w, op)		\
	M(28, w, op) M(29, w, op) M(30, w, op) M(31, w, op)
#define KM(n, w, op) op " " #n "*8+2048(%[in]), %%k" #n "\n\t"
#define KS(n, w, op) op " %%k" #n ", " #n "*8+2048(%[out])\n\t"
#define K8(M) M(0, , "kmovq") M(1, , "kmovq") M(2, , "kmovq")		\
	M(3, , "kmovq") M(4, , "kmovq") M(5, , "kmovq") M(6, , "kmovq")	\
	M(7, , "kmovq")
#define CALL(pre)							\
	"stmxcsr %[oldcsr]\n\tldmxcsr 2112(%[in])\n\t" pre		\
	"mov $" SYS_GETPPID ", %%eax\n\tsyscall\n\t"

#define STR2(x) #x
#define STR(x) STR2(x)
#define SYS_GETPPID STR(__NR_getppid)
#define CLOBBERS "rax", "rcx", "r11", "memory"

/* xmm0-15 only, upper halves clean (legacy SSE, after vzeroupper); the
 * x87 words read back too (in the first round x87 is in its initial
 * state, where sysgate knows them without reading them) */
static void call_sse(const struct regs *in, struct regs *out)
{
	uint32_t old;

	__asm__ volatile("vzeroupper\n\t" ALL16(LD, "xmm", "movups")
			 CALL("")
			 ALL16(ST, "xmm", "movups")
			 "fnstcw 2116(%[out])\n\tfnstsw 2118(%[out])\n\t"
			 "stmxcsr 2112(%[out])\n\tldmxcsr %[oldcsr]"
			 : [oldcsr] "+m"(old)
			 : [in] "r"(in), [out] "r"(out) : CLOBBERS);
}

/* the same, read back as ymm: the upper halves must still be zero, as
 * vzeroupper left them */
__attribute__((target("avx")))
static void call_sse_upper(const struct regs *in, struct regs *out)
{
	uint32_t old;

	__asm__ volatile("vzeroupper\n\t" ALL16(LD, "xmm", "movups")
			 CALL("")
			 ALL16(ST, "ymm", "vmovdqu")
			 "stmxcsr 2112(%[out])\n\tldmxcsr %[oldcsr]\n\tvzeroupper"
			 : [oldcsr] "+m"(old)
			 : [in] "r"(in), [out] "r"(out) : CLOBBERS);
}

__attribute__((target("avx")))
static void call_avx(const struct regs *in, struct regs *out)
{
	uint32_t old;

	__asm__ volatile(ALL16(LD, "ymm", "vmovdqu") CALL("")
			 ALL16(ST, "ymm", "vmovdqu")
			 "stmxcsr 2112(%[out])\n\tldmxcsr %[oldcsr]\n\tvzeroupper"
			 : [oldcsr] "+m"(old)
			 : [in] "r"(in), [out] "r"(out) : CLOBBERS);
}

__attribute__((target("avx512f,avx512bw")))
static void call_avx512(const struct regs *in, struct regs *out)
{
	uint32_t old;

	__asm__ volatile(ALL16(LD, "zmm", "vmovdqu64")
			 HI16(LD, "zmm", "vmovdqu64") K8(KM) CALL("")
			 ALL16(ST, "zmm", "vmovdqu64")
			 HI16(ST, "zmm", "vmovdqu64") K8(KS)
			 "stmxcsr 2112(%[out])\n\tldmxcsr %[oldcsr]\n\tvzeroupper"
			 : [oldcsr] "+m"(old)
			 : [in] "r"(in), [out] "r"(out) : CLOBBERS);
}

/* the call with xmm0-15 loaded (upper halves clean) and stored back */
#define XMM_CALL							\
	"vzeroupper\n\t" ALL16(LD, "xmm", "movups") CALL("")		\
	ALL16(ST, "xmm", "movups")					\
	"stmxcsr 2112(%[out])\n\tldmxcsr %[oldcsr]\n\t"

/* x87 in use: a changed control word must come back as well */
static void call_x87(const struct regs *in, struct regs *out)
{
	uint16_t cw = 0x027f, old;	/* double precision, not extended */
	uint32_t oldcsr;

	__asm__ volatile("fnstcw %[old]\n\tfldcw %[cw]\n\t" XMM_CALL
			 "fnstcw 2116(%[out])\n\tfldcw %[old]"
			 : [oldcsr] "+m"(oldcsr), [old] "=m"(old)
			 : [in] "r"(in), [out] "r"(out), [cw] "m"(cw)
			 : CLOBBERS);
	(void)old;
}

/* a value on the x87 stack across the call (x87 code around an
 * inline-asm system call): it must come back, stack and all */
static long double call_x87_stack(const struct regs *in, struct regs *out,
				  long double x)
{
	long double y;
	uint32_t oldcsr;

	__asm__ volatile("fldt %[x]\n\t" XMM_CALL
			 "fstpt %[y]"
			 : [oldcsr] "+m"(oldcsr), [y] "=m"(y)
			 : [in] "r"(in), [out] "r"(out), [x] "m"(x)
			 : CLOBBERS);
	return y;
}

static int check(const char *name, const struct regs *in,
		 const struct regs *out, int width, int hi16, int kregs,
		 uint16_t fcw)
{
	int bad = 0;

	for (int i = 0; i < (hi16 ? 32 : 16); i++)
		if (memcmp(in->v[i], out->v[i], width)) {
			printf("%s: vector register %d changed\n", name, i);
			bad = 1;
		}
	for (int i = 0; kregs && i < 8; i++)
		if (in->k[i] != out->k[i]) {
			printf("%s: k%d changed\n", name, i);
			bad = 1;
		}
	if (in->mxcsr != out->mxcsr) {
		printf("%s: MXCSR %#x, want %#x\n", name, out->mxcsr, in->mxcsr);
		bad = 1;
	}
	if (fcw && out->fcw != fcw) {
		printf("%s: x87 control word %#x, want %#x\n", name, out->fcw, fcw);
		bad = 1;
	}
	if (!bad)
		printf("%s: kept\n", name);
	return bad;
}

int main(void)
{
	static struct regs in, out;
	int bad = 0;

	for (int round = 0; round < 3; round++) {
		fill(&in, round, 16);
		call_sse(&in, &out);
		bad |= check("sse", &in, &out, 16, 0, 0, 0x037f);
		if (out.fsw) {
			printf("sse: x87 status word %#x, want 0\n", out.fsw);
			bad = 1;
		}
		call_x87(&in, &out);
		bad |= check("x87", &in, &out, 16, 0, 0, 0x027f);
		{
			volatile long double x = 1.5L + round;	/* exact */
			long double y = call_x87_stack(&in, &out, x);

			bad |= check("x87-stack", &in, &out, 16, 0, 0, 0);
			if (y != x) {
				printf("x87-stack: %Lg, want %Lg\n", y,
				       (long double)x);
				bad = 1;
			}
		}
		if (__builtin_cpu_supports("avx")) {
			call_sse_upper(&in, &out);
			bad |= check("sse-upper", &in, &out, 32, 0, 0, 0);
			fill(&in, round, 32);
			call_avx(&in, &out);
			bad |= check("avx", &in, &out, 32, 0, 0, 0);
		}
		if (__builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw")) {
			fill(&in, round, 64);
			call_avx512(&in, &out);
			bad |= check("avx512", &in, &out, 64, 1, 1, 0);
			/* ymm16-31 in use (as glibc's string functions
			 * leave them) and one register's bits above 128
			 * (zmm0-15) or 256 (zmm16-31) alone not zero:
			 * sysgate tests the sixteen of each together */
			for (int r = 0; r < 32; r++) {
				int from = r < 16 ? 16 + round * 16 :
					   32 + round * 8;

				fill(&in, round, 16);
				for (int i = 16; i < 32; i++)
					memset(in.v[i] + 16, 0x33 + i, 16);
				memset(in.v[r] + from, 0x5a + r, 64 - from);
				call_avx512(&in, &out);
				bad |= check("avx512-one-upper", &in, &out,
					     64, 1, 1, 0);
			}
		}
	}
	fflush(stdout);
	if (!bad)
		atomic_puts("EXIT-SUCCESS");
	return bad;
}
