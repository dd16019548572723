/* SPDX-License-Identifier: MIT */
/*
 * Saving the program's FPU/vector state around callbacks of hooks that do
 * not promise SYSGATE_HOOK_NOFPU.
 *
 * XSAVE+XRSTOR of every component in XCR0 costs ~400 cycles a pair on
 * the development VM (XRSTOR alone ~280): more than a getppid.  A hook
 * can only change registers, so where XCR0 holds nothing but x87, SSE,
 * AVX, AVX-512 and PKRU (which hooks do not touch), sysgate moves the
 * registers itself, as wide as their values need:
 *   - xmm0-15, MXCSR and k0-7 always;
 *   - all of zmm0-15 (ymm0-15 without AVX-512) only when some bit above
 *     the xmm part is set (an OR of the sixteen, tested once stored);
 *     otherwise VZEROUPPER after the hook gives back those zeros (and
 *     the upper halves' initial state, which SSE code runs fastest in);
 *   - zmm16-31 only when some bit of them is set; otherwise zeroed
 *     after the hook;
 *   - x87: its control and status words; if the hook changed either,
 *     FNINIT and the program's words are loaded back.  Its data
 *     registers need nothing while the program's x87 stack is empty, as
 *     the ABI has it at every call (a hook, an ABI function, leaves the
 *     stack as it found it).  A stack that is not empty (TOP != 0: x87
 *     code around an inline-asm syscall), or a CPU with components
 *     beyond these, takes XSAVE/XRSTOR of everything.
 * The values decide, not XGETBV(1)'s XINUSE bitmap: XGETBV is microcoded
 * (~11 ns on the AMD EPYC VMs here, more than the moves it spares), and
 * the restore's zeroing of zmm16-31 and k0-7 left them "in use" for good.
 * FNSTSW (~4 ns) is the dearest instruction left; it runs after the
 * stores, in their shadow.
 * The area is 64-byte aligned at the top of the hook stack: a meta word,
 * then the registers (or the XSAVE image) from byte 64.
 */
#ifndef SG_FPU_ARCH_H
#define SG_FPU_ARCH_H

/* sg.fpu_mask: XCR0, plus what this CPU lets sysgate do. */
#define SG_FPU_BY_MOVES	(1ULL << 63)	/* XGETBV 1 and a known XCR0 */
#define SG_FPU_AVX	(1ULL << 62)	/* ymm upper halves exist */
#define SG_FPU_AVX512	(1ULL << 61)	/* zmm, zmm16-31 and k0-7 exist */
#define SG_FPU_XCR0	0xffffffffULL

/* XCR0 / XINUSE bits */
#define SG_X_X87	0x001ULL
#define SG_X_SSE	0x002ULL
#define SG_X_YMM	0x004ULL
#define SG_X_K		0x020ULL
#define SG_X_ZMM_HI	0x040ULL
#define SG_X_ZMM16	0x080ULL
#define SG_X_PKRU	0x200ULL

/* Byte 0: meta; registers from byte 64: v0-31 (64 bytes each), k0-7,
 * MXCSR. */
#define SG_FPU_IMAGE	64
#define SG_FPU_K	(SG_FPU_IMAGE + 2048)
#define SG_FPU_MXCSR	(SG_FPU_K + 64)
#define SG_FPU_X87	(SG_FPU_MXCSR + 8)	/* cw, sw */
#define SG_FPU_MOVES_END (SG_FPU_MXCSR + 64)
#define SG_FPU_XSAVED	(1ULL << 63)	/* meta: went through XSAVE */
_Static_assert(SG_FPU_K == 2112 && SG_FPU_MXCSR == 2176 && SG_FPU_X87 == 2184,
	       "fpu_arch.h: the offsets written out in the asm below");

/* Sixteen moves of one register width, stores (reg -> image) or loads;
 * SG_STORE14 leaves out the first two. */
#define SG_STORE16(op, w)						\
	op " %%" w "0, 0*64+64(%0)\n\t" op " %%" w "1, 1*64+64(%0)\n\t"	\
	SG_STORE14(op, w)
#define SG_STORE14(op, w)						\
	op " %%" w "2, 2*64+64(%0)\n\t" op " %%" w "3, 3*64+64(%0)\n\t"	\
	op " %%" w "4, 4*64+64(%0)\n\t" op " %%" w "5, 5*64+64(%0)\n\t"	\
	op " %%" w "6, 6*64+64(%0)\n\t" op " %%" w "7, 7*64+64(%0)\n\t"	\
	op " %%" w "8, 8*64+64(%0)\n\t" op " %%" w "9, 9*64+64(%0)\n\t"	\
	op " %%" w "10, 10*64+64(%0)\n\t" op " %%" w "11, 11*64+64(%0)\n\t" \
	op " %%" w "12, 12*64+64(%0)\n\t" op " %%" w "13, 13*64+64(%0)\n\t" \
	op " %%" w "14, 14*64+64(%0)\n\t" op " %%" w "15, 15*64+64(%0)\n\t"
#define SG_LOAD16(op, w)						\
	op " 0*64+64(%0), %%" w "0\n\t" op " 1*64+64(%0), %%" w "1\n\t"	\
	op " 2*64+64(%0), %%" w "2\n\t" op " 3*64+64(%0), %%" w "3\n\t"	\
	op " 4*64+64(%0), %%" w "4\n\t" op " 5*64+64(%0), %%" w "5\n\t"	\
	op " 6*64+64(%0), %%" w "6\n\t" op " 7*64+64(%0), %%" w "7\n\t"	\
	op " 8*64+64(%0), %%" w "8\n\t" op " 9*64+64(%0), %%" w "9\n\t"	\
	op " 10*64+64(%0), %%" w "10\n\t" op " 11*64+64(%0), %%" w "11\n\t" \
	op " 12*64+64(%0), %%" w "12\n\t" op " 13*64+64(%0), %%" w "13\n\t" \
	op " 14*64+64(%0), %%" w "14\n\t" op " 15*64+64(%0), %%" w "15\n\t"
#define SG_STORE_HI16							\
	"vmovdqu64 %%zmm16, 16*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm17, 17*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm18, 18*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm19, 19*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm20, 20*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm21, 21*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm22, 22*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm23, 23*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm24, 24*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm25, 25*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm26, 26*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm27, 27*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm28, 28*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm29, 29*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm30, 30*64+64(%0)\n\t"				\
	"vmovdqu64 %%zmm31, 31*64+64(%0)\n\t"
#define SG_LOAD_HI16							\
	"vmovdqu64 16*64+64(%0), %%zmm16\n\t"				\
	"vmovdqu64 17*64+64(%0), %%zmm17\n\t"				\
	"vmovdqu64 18*64+64(%0), %%zmm18\n\t"				\
	"vmovdqu64 19*64+64(%0), %%zmm19\n\t"				\
	"vmovdqu64 20*64+64(%0), %%zmm20\n\t"				\
	"vmovdqu64 21*64+64(%0), %%zmm21\n\t"				\
	"vmovdqu64 22*64+64(%0), %%zmm22\n\t"				\
	"vmovdqu64 23*64+64(%0), %%zmm23\n\t"				\
	"vmovdqu64 24*64+64(%0), %%zmm24\n\t"				\
	"vmovdqu64 25*64+64(%0), %%zmm25\n\t"				\
	"vmovdqu64 26*64+64(%0), %%zmm26\n\t"				\
	"vmovdqu64 27*64+64(%0), %%zmm27\n\t"				\
	"vmovdqu64 28*64+64(%0), %%zmm28\n\t"				\
	"vmovdqu64 29*64+64(%0), %%zmm29\n\t"				\
	"vmovdqu64 30*64+64(%0), %%zmm30\n\t"				\
	"vmovdqu64 31*64+64(%0), %%zmm31\n\t"
#define SG_ZERO_HI16							\
	"vpxord %%zmm16, %%zmm16, %%zmm16\n\t"				\
	"vpxord %%zmm17, %%zmm17, %%zmm17\n\t"				\
	"vpxord %%zmm18, %%zmm18, %%zmm18\n\t"				\
	"vpxord %%zmm19, %%zmm19, %%zmm19\n\t"				\
	"vpxord %%zmm20, %%zmm20, %%zmm20\n\t"				\
	"vpxord %%zmm21, %%zmm21, %%zmm21\n\t"				\
	"vpxord %%zmm22, %%zmm22, %%zmm22\n\t"				\
	"vpxord %%zmm23, %%zmm23, %%zmm23\n\t"				\
	"vpxord %%zmm24, %%zmm24, %%zmm24\n\t"				\
	"vpxord %%zmm25, %%zmm25, %%zmm25\n\t"				\
	"vpxord %%zmm26, %%zmm26, %%zmm26\n\t"				\
	"vpxord %%zmm27, %%zmm27, %%zmm27\n\t"				\
	"vpxord %%zmm28, %%zmm28, %%zmm28\n\t"				\
	"vpxord %%zmm29, %%zmm29, %%zmm29\n\t"				\
	"vpxord %%zmm30, %%zmm30, %%zmm30\n\t"				\
	"vpxord %%zmm31, %%zmm31, %%zmm31\n\t"
#define SG_STORE_K							\
	"kmovq %%k0, 0*8+2112(%0)\n\tkmovq %%k1, 1*8+2112(%0)\n\t"	\
	"kmovq %%k2, 2*8+2112(%0)\n\tkmovq %%k3, 3*8+2112(%0)\n\t"	\
	"kmovq %%k4, 4*8+2112(%0)\n\tkmovq %%k5, 5*8+2112(%0)\n\t"	\
	"kmovq %%k6, 6*8+2112(%0)\n\tkmovq %%k7, 7*8+2112(%0)\n\t"
#define SG_LOAD_K							\
	"kmovq 0*8+2112(%0), %%k0\n\tkmovq 1*8+2112(%0), %%k1\n\t"	\
	"kmovq 2*8+2112(%0), %%k2\n\tkmovq 3*8+2112(%0), %%k3\n\t"	\
	"kmovq 4*8+2112(%0), %%k4\n\tkmovq 5*8+2112(%0), %%k5\n\t"	\
	"kmovq 6*8+2112(%0), %%k6\n\tkmovq 7*8+2112(%0), %%k7\n\t"
/* OR chains over the registers, in the save (they are stored first):
 * zmm0 = zmm0 | ... | zmm15 and zmm1 = zmm16 | ... | zmm31; then %0 =
 * the qwords of zmm0 that are not zero (bits 0-1: xmm, 2-7: the upper
 * parts), %1 = those of zmm1.  k1 and k2 are overwritten. */
#define SG_OR_TERN "vpternlogq $0xfe, "
#define SG_TEST_ZMM							\
	SG_OR_TERN "%%zmm1, %%zmm2, %%zmm0\n\t"				\
	"vporq %%zmm16, %%zmm17, %%zmm1\n\t"				\
	SG_OR_TERN "%%zmm3, %%zmm4, %%zmm0\n\t"				\
	SG_OR_TERN "%%zmm18, %%zmm19, %%zmm1\n\t"			\
	SG_OR_TERN "%%zmm5, %%zmm6, %%zmm0\n\t"				\
	SG_OR_TERN "%%zmm20, %%zmm21, %%zmm1\n\t"			\
	SG_OR_TERN "%%zmm7, %%zmm8, %%zmm0\n\t"				\
	SG_OR_TERN "%%zmm22, %%zmm23, %%zmm1\n\t"			\
	SG_OR_TERN "%%zmm9, %%zmm10, %%zmm0\n\t"			\
	SG_OR_TERN "%%zmm24, %%zmm25, %%zmm1\n\t"			\
	SG_OR_TERN "%%zmm11, %%zmm12, %%zmm0\n\t"			\
	SG_OR_TERN "%%zmm26, %%zmm27, %%zmm1\n\t"			\
	SG_OR_TERN "%%zmm13, %%zmm14, %%zmm0\n\t"			\
	SG_OR_TERN "%%zmm28, %%zmm29, %%zmm1\n\t"			\
	"vporq %%zmm15, %%zmm0, %%zmm0\n\t"				\
	SG_OR_TERN "%%zmm30, %%zmm31, %%zmm1\n\t"			\
	"vptestmq %%zmm0, %%zmm0, %%k1\n\t"				\
	"vptestmq %%zmm1, %%zmm1, %%k2\n\t"				\
	"kmovw %%k1, %0\n\t"						\
	"kmovw %%k2, %1\n\t"
/* The same for ymm0-15 (AVX without AVX-512): %0 != 0 if any upper
 * half is not zero.  ymm0 and ymm1 are overwritten. */
#define SG_TEST_YMM							\
	"vorps %%ymm2, %%ymm0, %%ymm0\n\tvorps %%ymm3, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm4, %%ymm0, %%ymm0\n\tvorps %%ymm5, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm6, %%ymm0, %%ymm0\n\tvorps %%ymm7, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm8, %%ymm0, %%ymm0\n\tvorps %%ymm9, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm10, %%ymm0, %%ymm0\n\tvorps %%ymm11, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm12, %%ymm0, %%ymm0\n\tvorps %%ymm13, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm14, %%ymm0, %%ymm0\n\tvorps %%ymm15, %%ymm1, %%ymm1\n\t" \
	"vorps %%ymm1, %%ymm0, %%ymm0\n\t"				\
	"vextractf128 $1, %%ymm0, %%xmm0\n\t"				\
	"xor %0, %0\n\t"						\
	"vptest %%xmm0, %%xmm0\n\t"					\
	"setnz %b0\n\t"

/* XSAVE of every component in XCR0 (the words at 64.. may hold moved
 * registers: XSAVE overwrites them). */
static inline void sg_fpu_xsave(void *area, unsigned long long mask)
{
	unsigned long long *meta = area, x = mask & SG_FPU_XCR0;

	/* XRSTOR faults unless the header bits XSAVE leaves alone
	 * (XSTATE_BV outside XCR0, XCOMP_BV, reserved) are zero */
	for (int i = 0; i < 8; i++)
		meta[(SG_FPU_IMAGE + 512) / 8 + i] = 0;
	*meta = SG_FPU_XSAVED;
	__asm__ volatile("xsave64 64(%0)" : : "r"(area), "a"((unsigned)x),
			 "d"((unsigned)(x >> 32)) : "memory");
}

static inline void sg_fpu_save(void *area, unsigned long long mask)
{
	unsigned long long *meta = area, kept = 0;
	unsigned short *x87 = (unsigned short *)((char *)area + SG_FPU_X87);
	unsigned int wide, hi16;

	if (__builtin_expect(!(mask & SG_FPU_BY_MOVES), 0)) {
		sg_fpu_xsave(area, mask);
		return;
	}
	/* The x87 words after the stores (before the tests, which
	 * overwrite registers an XSAVE would then miss) */
	if (mask & SG_FPU_AVX512)
		/* zmm0 and zmm1 whole: the tests use them */
		__asm__ volatile("stmxcsr 2176(%0)\n\t"
				 "vmovdqu64 %%zmm0, 0*64+64(%0)\n\t"
				 "vmovdqu64 %%zmm1, 1*64+64(%0)\n\t"
				 SG_STORE14("vmovups", "xmm") SG_STORE_K
				 "fnstcw 2184(%0)\n\tfnstsw 2186(%0)"
				 : : "r"(area) : "memory");
	else if (mask & SG_FPU_AVX)
		__asm__ volatile("stmxcsr 2176(%0)\n\t"
				 SG_STORE16("vmovdqu", "ymm")
				 "fnstcw 2184(%0)\n\tfnstsw 2186(%0)"
				 : : "r"(area) : "memory");
	else
		__asm__ volatile("stmxcsr 2176(%0)\n\t"
				 SG_STORE16("movups", "xmm")
				 "fnstcw 2184(%0)\n\tfnstsw 2186(%0)"
				 : : "r"(area) : "memory");
	if (__builtin_expect(x87[1] & 0x3800, 0)) {	/* TOP != 0 */
		sg_fpu_xsave(area, mask);
		return;
	}
	if (mask & SG_FPU_AVX512) {
		__asm__ volatile(SG_TEST_ZMM : "=r"(wide), "=r"(hi16)
				 : : "memory");
		if (wide & 0xfc) {
			kept |= SG_X_ZMM_HI;
			__asm__ volatile(SG_STORE14("vmovdqu64", "zmm")
					 : : "r"(area) : "memory");
		}
		if (hi16 & 0xff) {
			kept |= SG_X_ZMM16;
			__asm__ volatile(SG_STORE_HI16 : : "r"(area)
					 : "memory");
		}
	} else if (mask & SG_FPU_AVX) {
		__asm__ volatile(SG_TEST_YMM : "=&r"(wide) : : "memory");
		if (wide)
			kept |= SG_X_YMM;
	}
	*meta = kept;
}

static inline void sg_fpu_restore(void *area, unsigned long long mask)
{
	unsigned long long *meta = area, kept = *meta;
	unsigned long long x = mask & SG_FPU_XCR0;
	unsigned short *x87 = (unsigned short *)((char *)area + SG_FPU_X87);
	unsigned short cw, sw;

	if (kept & SG_FPU_XSAVED) {
		__asm__ volatile("xrstor64 64(%0)" : : "r"(area),
				 "a"((unsigned)x), "d"((unsigned)(x >> 32))
				 : "memory");
		return;
	}
	/* first: the latencies of these overlap the loads below */
	__asm__ volatile("fnstcw %0\n\tfnstsw %1\n\tldmxcsr 2176(%2)"
			 : "=m"(cw), "=m"(sw) : "r"(area) : "memory");
	if (mask & SG_FPU_AVX512) {
		if (kept & SG_X_ZMM16)
			__asm__ volatile(SG_LOAD_HI16 : : "r"(area) : "memory");
		else
			__asm__ volatile(SG_ZERO_HI16 ::: "memory");
		__asm__ volatile(SG_LOAD_K : : "r"(area) : "memory");
	}
	if (kept & SG_X_ZMM_HI)
		__asm__ volatile(SG_LOAD16("vmovdqu64", "zmm") : : "r"(area)
				 : "memory");
	else if (kept & SG_X_YMM)
		__asm__ volatile(SG_LOAD16("vmovdqu", "ymm") : : "r"(area)
				 : "memory");
	else if (mask & SG_FPU_AVX)	/* the upper halves' zeros back */
		__asm__ volatile("vzeroupper\n\t" SG_LOAD16("vmovups", "xmm")
				 : : "r"(area) : "memory");
	else
		__asm__ volatile(SG_LOAD16("movups", "xmm") : : "r"(area)
				 : "memory");
	if (cw != x87[0] || sw != x87[1]) {
		/* an environment with the program's words and an empty
		 * stack (tag word all ones) */
		unsigned int env[7] = { x87[0], x87[1], 0xffff, 0, 0, 0, 0 };

		__asm__ volatile("fninit\n\tfldenv %0" : : "m"(env) : "memory");
	}
}

/* Size of the save area and sg.fpu_mask (XCR0 and the SG_FPU_* bits); 0
 * if the CPU has no XSAVE (then hooks must be NOFPU). */
static inline void sg_fpu_probe(unsigned long *size, unsigned long long *mask)
{
	unsigned int a, b, c, d;
	unsigned long long xcr0;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(1), "c"(0));
	if (!(c & (1u << 27))) {	/* OSXSAVE */
		*size = 0;
		*mask = 0;
		return;
	}
	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	xcr0 = ((unsigned long long)d << 32) | a;
	*mask = xcr0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(0xd), "c"(0));
	*size = SG_FPU_IMAGE + (b > SG_FPU_MOVES_END ? b : SG_FPU_MOVES_END);
	/* moves only where every component in XCR0 is one they cover */
	if (xcr0 & SG_FPU_XCR0 & ~(SG_X_X87 | SG_X_SSE | SG_X_YMM | SG_X_K |
				   SG_X_ZMM_HI | SG_X_ZMM16 | SG_X_PKRU))
		return;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(7), "c"(0));
	if ((xcr0 & (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16)) ==
		    (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16) &&
	    (b & (1u << 30)))	/* AVX512BW: 64-bit kmovq */
		*mask |= SG_FPU_AVX512 | SG_FPU_AVX;
	else if (xcr0 & (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16))
		return;		/* partial AVX-512: leave it to XSAVE */
	else if (xcr0 & SG_X_YMM)
		*mask |= SG_FPU_AVX;
	*mask |= SG_FPU_BY_MOVES;
}

/* A probe's answer handed down through execve (core/init.c): kept where
 * XCR0 still says the same and the area holds at least what the moves
 * keep. */
static inline int sg_fpu_carried_ok(unsigned long long size,
				    unsigned long long mask)
{
	unsigned int a, d;

	if (!mask || size < SG_FPU_IMAGE + SG_FPU_MOVES_END || size > 1 << 20)
		return 0;
	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	return (mask & SG_FPU_XCR0) ==
	       ((((unsigned long long)d << 32) | a) & SG_FPU_XCR0);
}

/* Does the code reachable from fn touch none of the state sg_fpu_save
 * keeps (decode.c's x86_fpu_free)?  1 or 0 (not shown). */
int sg_fpu_free_code(const void *fn) __attribute__((visibility("hidden")));

/* How sg_fpu_save() keeps the program's registers, for sysgate bench. */
static inline const char *sg_fpu_method(unsigned long long mask)
{
	if (!mask)
		return "none (no XSAVE: hooks must be SYSGATE_HOOK_NOFPU)";
	return mask & SG_FPU_BY_MOVES ? "register moves (upper halves and "
					 "zmm16-31 where not zero)" :
					 "XSAVE/XRSTOR";
}

#endif
