/* SPDX-License-Identifier: MIT */
/*
 * Saving the program's FPU/vector state around callbacks of hooks that do
 * not promise SYSGATE_HOOK_NOFPU.
 *
 * XSAVE+XRSTOR of every component in XCR0 costs ~400 cycles a pair on
 * the development VM (XRSTOR alone ~280): more than a getppid.  A hook
 * can only change registers, so where XCR0 holds nothing but x87, SSE,
 * AVX, AVX-512 and PKRU (which hooks do not touch), sysgate moves the
 * registers itself, and only those of the components the program has in
 * use (XGETBV with ECX=1 reads the XINUSE bitmap):
 *   - xmm0-15 and MXCSR always (cheap; SSE is nearly always in use);
 *   - all of zmm0-15 (ymm0-15 without AVX-512) only when their upper
 *     halves are in use; otherwise VZEROUPPER after the hook puts the
 *     upper halves back in their initial state, as the program had them;
 *   - zmm16-31 and k0-7 only when in use; otherwise zeroed after the
 *     hook (their initial values);
 *   - x87: its control and status words (known without reading them
 *     while XINUSE says x87 is in its initial state, as in most
 *     programs); if the hook changed either,
 *     FNINIT and the program's words are loaded back.  Its data
 *     registers need nothing while the program's x87 stack is empty, as
 *     the ABI has it at every call (a hook, an ABI function, leaves the
 *     stack as it found it).  A stack that is not empty (TOP != 0: x87
 *     code around an inline-asm syscall), or a CPU without XGETBV 1 or
 *     with components beyond these, takes XSAVE/XRSTOR of everything.
 *     (XINUSE's x87 bit cannot decide it: FNINIT does not clear it, so
 *     one x87 instruction ever would keep the process on XSAVE.)
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

/* Sixteen moves of one register width, stores (reg -> image) or loads. */
#define SG_STORE16(op, w)						\
	op " %%" w "0, 0*64+64(%0)\n\t" op " %%" w "1, 1*64+64(%0)\n\t"	\
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
#define SG_ZERO_K							\
	"kxorq %%k0, %%k0, %%k0\n\tkxorq %%k1, %%k1, %%k1\n\t"		\
	"kxorq %%k2, %%k2, %%k2\n\tkxorq %%k3, %%k3, %%k3\n\t"		\
	"kxorq %%k4, %%k4, %%k4\n\tkxorq %%k5, %%k5, %%k5\n\t"		\
	"kxorq %%k6, %%k6, %%k6\n\tkxorq %%k7, %%k7, %%k7\n\t"

static inline unsigned long long sg_xinuse(void)
{
	unsigned int a, d;

	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(1));
	return ((unsigned long long)d << 32) | a;
}

static inline void sg_fpu_save(void *area, unsigned long long mask)
{
	unsigned long long *meta = area, use = 0;
	unsigned long long x = mask & SG_FPU_XCR0;
	unsigned short *x87 = (unsigned short *)((char *)area + SG_FPU_X87);

	if (__builtin_expect(!!(mask & SG_FPU_BY_MOVES), 1)) {
		/* before XGETBV (~35 cycles, microcoded on Zen 4), so
		 * that they run in its shadow; k0-7 too, in use or not
		 * (zmm16-31 as well made it slower: 32 more stores) */
		__asm__ volatile("stmxcsr 2176(%0)\n\t"
				 SG_STORE16("movups", "xmm") : : "r"(area)
				 : "memory");
		if (mask & SG_FPU_AVX512)
			__asm__ volatile(SG_STORE_K : : "r"(area) : "memory");
		use = sg_xinuse();
		if (!(use & SG_X_X87)) {
			/* x87 in its initial state: no FNSTSW (~4 ns here) */
			x87[0] = 0x37f;
			x87[1] = 0;
		}
	}
	if (!(mask & SG_FPU_BY_MOVES) || (use & SG_X_X87))
		__asm__ volatile("fnstcw %0\n\tfnstsw %1"
				 : "=m"(x87[0]), "=m"(x87[1]));
	if (!(mask & SG_FPU_BY_MOVES) || (x87[1] & 0x3800) /* TOP */) {
		/* XRSTOR faults unless the header bits XSAVE leaves alone
		 * (XSTATE_BV outside XCR0, XCOMP_BV, reserved) are zero;
		 * register moves may have used those bytes */
		for (int i = 0; i < 8; i++)
			meta[(SG_FPU_IMAGE + 512) / 8 + i] = 0;
		*meta = SG_FPU_XSAVED;
		__asm__ volatile("xsave64 64(%0)" : : "r"(area),
				 "a"((unsigned)x), "d"((unsigned)(x >> 32))
				 : "memory");
		return;
	}
	*meta = use;
	if (!(use & (SG_X_YMM | SG_X_ZMM_HI)))
		;	/* xmm0-15 and MXCSR stored above */
	else if (mask & SG_FPU_AVX512)
		__asm__ volatile(SG_STORE16("vmovdqu64", "zmm") : : "r"(area)
				 : "memory");
	else
		__asm__ volatile(SG_STORE16("vmovdqu", "ymm") : : "r"(area)
				 : "memory");
	if (use & SG_X_ZMM16)
		__asm__ volatile(SG_STORE_HI16 : : "r"(area) : "memory");
}

static inline void sg_fpu_restore(void *area, unsigned long long mask)
{
	unsigned long long *meta = area, use = *meta;
	unsigned long long x = mask & SG_FPU_XCR0;
	unsigned short *x87 = (unsigned short *)((char *)area + SG_FPU_X87);
	unsigned short cw, sw;

	if (use & SG_FPU_XSAVED) {
		__asm__ volatile("xrstor64 64(%0)" : : "r"(area),
				 "a"((unsigned)x), "d"((unsigned)(x >> 32))
				 : "memory");
		return;
	}
	/* first: FNSTSW's latency then overlaps the loads below */
	__asm__ volatile("fnstcw %0\n\tfnstsw %1" : "=m"(cw), "=m"(sw));
	if (mask & SG_FPU_AVX512) {
		if (use & SG_X_ZMM16)
			__asm__ volatile(SG_LOAD_HI16 : : "r"(area) : "memory");
		else
			__asm__ volatile(SG_ZERO_HI16 ::: "memory");
		if (use & SG_X_K)
			__asm__ volatile(SG_LOAD_K : : "r"(area) : "memory");
		else
			__asm__ volatile(SG_ZERO_K ::: "memory");
	}
	if (!(use & (SG_X_YMM | SG_X_ZMM_HI))) {
		if (mask & SG_FPU_AVX)
			__asm__ volatile("vzeroupper" ::: "memory");
		__asm__ volatile(SG_LOAD16("movups", "xmm") : : "r"(area)
				 : "memory");
	} else if (mask & SG_FPU_AVX512) {
		__asm__ volatile(SG_LOAD16("vmovdqu64", "zmm") : : "r"(area)
				 : "memory");
	} else {
		__asm__ volatile(SG_LOAD16("vmovdqu", "ymm") : : "r"(area)
				 : "memory");
	}
	__asm__ volatile("ldmxcsr 2176(%0)" : : "r"(area) : "memory");
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
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(0xd), "c"(1));
	/* moves only where every component in XCR0 is one they cover */
	if (!(a & (1u << 2)) || (xcr0 & SG_FPU_XCR0 &
				 ~(SG_X_X87 | SG_X_SSE | SG_X_YMM | SG_X_K |
				   SG_X_ZMM_HI | SG_X_ZMM16 | SG_X_PKRU)))
		return;
	if ((xcr0 & (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16)) ==
	    (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16))
		*mask |= SG_FPU_AVX512 | SG_FPU_AVX;
	else if (xcr0 & (SG_X_K | SG_X_ZMM_HI | SG_X_ZMM16))
		return;		/* partial AVX-512: leave it to XSAVE */
	else if (xcr0 & SG_X_YMM)
		*mask |= SG_FPU_AVX;
	*mask |= SG_FPU_BY_MOVES;
}

/* Does the code reachable from fn touch none of the state sg_fpu_save
 * keeps (decode.c's x86_fpu_free)?  1 or 0 (not shown). */
int sg_fpu_free_code(const void *fn) __attribute__((visibility("hidden")));

/* How sg_fpu_save() keeps the program's registers, for sysgate bench. */
static inline const char *sg_fpu_method(unsigned long long mask)
{
	if (!mask)
		return "none (no XSAVE: hooks must be SYSGATE_HOOK_NOFPU)";
	return mask & SG_FPU_BY_MOVES ? "register moves of the components "
					 "in use (XINUSE)" : "XSAVE/XRSTOR";
}

#endif
