/* SPDX-License-Identifier: MIT */
/*
 * Saving the program's FPU/vector state around callbacks of hooks that do
 * not promise SYSGATE_HOOK_NOFPU.  XSAVE with the kernel-enabled component
 * mask (XCR0) covers x87, SSE, AVX and AVX-512; the area is 64-byte
 * aligned (it is page aligned at the top of the hook stack).
 */
#ifndef SG_FPU_ARCH_H
#define SG_FPU_ARCH_H

static inline void sg_fpu_save(void *area, unsigned long long mask)
{
	__asm__ volatile("xsave64 (%0)" : : "r"(area), "a"((unsigned)mask),
			 "d"((unsigned)(mask >> 32)) : "memory");
}

static inline void sg_fpu_restore(void *area, unsigned long long mask)
{
	__asm__ volatile("xrstor64 (%0)" : : "r"(area), "a"((unsigned)mask),
			 "d"((unsigned)(mask >> 32)) : "memory");
}

/* Size of the XSAVE area for the enabled components, and XCR0; 0 if the
 * CPU has no XSAVE (then hooks must be NOFPU). */
static inline void sg_fpu_probe(unsigned long *size, unsigned long long *mask)
{
	unsigned int a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(1), "c"(0));
	if (!(c & (1u << 27))) {	/* OSXSAVE */
		*size = 0;
		*mask = 0;
		return;
	}
	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	*mask = ((unsigned long long)d << 32) | a;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 : "a"(0xd), "c"(0));
	*size = b;
}

#endif
