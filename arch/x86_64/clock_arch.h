/* SPDX-License-Identifier: MIT */
/*
 * The cycle counter sysgate times calls with (sysgate_ticks): RDTSC costs a
 * third of a vDSO clock_gettime, and -c reads it twice a call.
 */
#ifndef SG_CLOCK_ARCH_H
#define SG_CLOCK_ARCH_H

#include "syscall_arch.h"

static inline unsigned long long sg_arch_counter(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static inline void sg_arch_cpuid(unsigned int leaf, unsigned int r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]),
			 "=d"(r[3]) : "a"(leaf), "c"(0));
}

#define SG_PR_GET_TSC 25
#define SG_PR_SET_TSC 26
#define SG_PR_TSC_ENABLE 1

/*
 * Does RDTSC fault in this thread (PR_SET_TSC, inherited across fork and
 * execve)?  -1 when prctl is refused (a seccomp filter): unknown.
 */
static inline int sg_arch_counter_faults(void)
{
	int mode = 0;

	if (sg_sc2(SG_NR_prctl, SG_PR_GET_TSC, (long)&mode) != 0)
		return -1;
	return mode != SG_PR_TSC_ENABLE;
}

/*
 * Steady when the TSC runs at one rate in every power state (CPUID
 * 0x80000007 EDX bit 8, "invariant TSC", which Linux also requires of a
 * TSC it keeps in step across CPUs).
 */
static inline int sg_arch_counter_steady(void)
{
	unsigned int r[4];

	sg_arch_cpuid(0x80000000u, r);
	if (r[0] < 0x80000007u)
		return 0;
	sg_arch_cpuid(0x80000007u, r);
	return (r[3] & (1u << 8)) != 0;
}

/* A call that may take the counter away from this thread. */
static inline int sg_arch_counter_call(long nr, const long *a)
{
	return nr == SG_NR_prctl && a[0] == SG_PR_SET_TSC &&
	       a[1] != SG_PR_TSC_ENABLE;
}

#endif
