/* SPDX-License-Identifier: MIT */
/* aarch64 has no calls the core must handle for itself (TPIDR_EL0 belongs
 * to the program; sysgate keys its thread states by it, see
 * thread_arch.h). */
#include "sg.h"
#include "process.h"

struct sg_tslot sg_threads[SG_TSLOTS];
struct sg_tslot sg_threads_by_tid[SG_TSLOTS];

int sg_arch_core_call(struct sg_thread *t, struct sysgate_sys *s)
{
	(void)t;
	(void)s;
	return 0;
}

/* Make code written as data visible to instruction fetch: clean the data
 * cache to the point of unification, invalidate the instruction cache. */
void sg_arch_flush_code(unsigned long lo, unsigned long hi)
{
	unsigned long ctr, dline, iline, a;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	dline = 4UL << ((ctr >> 16) & 15);
	iline = 4UL << (ctr & 15);
	for (a = lo & ~(dline - 1); a < hi; a += dline)
		__asm__ volatile("dc cvau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
	for (a = lo & ~(iline - 1); a < hi; a += iline)
		__asm__ volatile("ic ivau, %0" : : "r"(a) : "memory");
	__asm__ volatile("dsb ish\n\tisb" : : : "memory");
}
