/* SPDX-License-Identifier: MIT */
/*
 * Saving the program's FP/SIMD state around callbacks of hooks that do
 * not promise SYSGATE_HOOK_NOFPU: q0-q31, fpcr and fpsr.  SVE and SME
 * state beyond the low 128 bits is discarded by every system call on
 * Linux, so a hooked call may discard it too.
 */
#ifndef SG_FPU_ARCH_H
#define SG_FPU_ARCH_H

#define SG_FPU_PAIR(op, a, b)						\
	op " q" #a ", q" #b ", [%[p], #" #a "*16]\n\t"
#define SG_FPU_ALL(op)							\
	SG_FPU_PAIR(op, 0, 1) SG_FPU_PAIR(op, 2, 3)			\
	SG_FPU_PAIR(op, 4, 5) SG_FPU_PAIR(op, 6, 7)			\
	SG_FPU_PAIR(op, 8, 9) SG_FPU_PAIR(op, 10, 11)			\
	SG_FPU_PAIR(op, 12, 13) SG_FPU_PAIR(op, 14, 15)			\
	SG_FPU_PAIR(op, 16, 17) SG_FPU_PAIR(op, 18, 19)			\
	SG_FPU_PAIR(op, 20, 21) SG_FPU_PAIR(op, 22, 23)			\
	SG_FPU_PAIR(op, 24, 25) SG_FPU_PAIR(op, 26, 27)			\
	SG_FPU_PAIR(op, 28, 29) SG_FPU_PAIR(op, 30, 31)

/* The hot path is built -mgeneral-regs-only: name the FP unit here. */
#define SG_FPU_ARCH ".arch_extension fp\n\t.arch_extension simd\n\t"

static inline void sg_fpu_save(void *area, unsigned long long mask)
{
	unsigned long cr, sr;

	(void)mask;
	__asm__ volatile(SG_FPU_ARCH SG_FPU_ALL("stp")
			 "mrs %[cr], fpcr\n\tmrs %[sr], fpsr"
			 : [cr] "=r"(cr), [sr] "=r"(sr)
			 : [p] "r"(area) : "memory");
	((unsigned long *)area)[64] = cr;
	((unsigned long *)area)[65] = sr;
}

static inline void sg_fpu_restore(void *area, unsigned long long mask)
{
	(void)mask;
	__asm__ volatile(SG_FPU_ARCH SG_FPU_ALL("ldp")
			 "msr fpcr, %[cr]\n\tmsr fpsr, %[sr]"
			 : : [p] "r"(area), [cr] "r"(((unsigned long *)area)[64]),
			   [sr] "r"(((unsigned long *)area)[65])
			 : "memory");
}

static inline void sg_fpu_probe(unsigned long *size, unsigned long long *mask)
{
	*size = 66 * 8;
	*mask = 1;
}

/* A probe's answer handed down through execve: the probe costs nothing
 * here, so it is asked again. */
static inline int sg_fpu_carried_ok(unsigned long long size,
				    unsigned long long mask)
{
	(void)size;
	(void)mask;
	return 0;
}

/* How sg_fpu_save() keeps the program's registers, for sysgate bench. */
static inline const char *sg_fpu_method(unsigned long long mask)
{
	(void)mask;
	return "register moves (q0-q31, fpcr, fpsr)";
}

/* (no code analysis here: a hook without SYSGATE_HOOK_NOFPU always gets
 * the save) */
static inline int sg_fpu_free_code(const void *fn)
{
	(void)fn;
	return 0;
}

#endif
