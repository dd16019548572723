/* SPDX-License-Identifier: MIT */
/*
 * Saving the program's FP state around callbacks of hooks that do not
 * promise SYSGATE_HOOK_NOFPU: f0-f31 and fcsr (rv64gc has no vector
 * state; Linux treats V registers as clobbered by system calls anyway).
 */
#ifndef SG_FPU_ARCH_H
#define SG_FPU_ARCH_H

#define SG_FPU_SAVE_ONE(n) "fsd f" #n ", " #n "*8(%[a])\n\t"
#define SG_FPU_LOAD_ONE(n) "fld f" #n ", " #n "*8(%[a])\n\t"
#define SG_FPU_ALL(X)							\
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)	\
	X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21)	\
	X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

static inline void sg_fpu_save(void *area, unsigned long long mask)
{
	unsigned long fcsr;

	(void)mask;
	__asm__ volatile(SG_FPU_ALL(SG_FPU_SAVE_ONE) "frcsr %[c]"
			 : [c] "=r"(fcsr) : [a] "r"(area) : "memory");
	((unsigned long *)area)[32] = fcsr;
}

static inline void sg_fpu_restore(void *area, unsigned long long mask)
{
	(void)mask;
	__asm__ volatile(SG_FPU_ALL(SG_FPU_LOAD_ONE) "fscsr %[c]"
			 : : [a] "r"(area), [c] "r"(((unsigned long *)area)[32])
			 : "memory");
}

static inline void sg_fpu_probe(unsigned long *size, unsigned long long *mask)
{
	*size = 33 * 8;
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
	return "register moves (f0-f31, fcsr)";
}

/* (no code analysis here: a hook without SYSGATE_HOOK_NOFPU always gets
 * the save) */
static inline int sg_fpu_free_code(const void *fn)
{
	(void)fn;
	return 0;
}

#endif
