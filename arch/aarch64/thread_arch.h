/* SPDX-License-Identifier: MIT */
/*
 * aarch64 has no spare thread register: TPIDR_EL0 is the program's TLS
 * pointer, and keys sysgate's table of thread states
 * (arch/generic/thread_table.h).
 */
#ifndef SG_THREAD_ARCH_H
#define SG_THREAD_ARCH_H

static inline unsigned long sg_thread_owner(void)
{
	unsigned long tp;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	return tp;
}

#include "thread_table.h"

/* Nothing to check at start-up: TPIDR_EL0 always belongs to the program. */
/* No sysgate-loader on this ISA yet, so hooks always run with the
 * program's thread pointer and this is never called. */
static inline unsigned long sg_arch_swap_tls(unsigned long tp)
{
	(void)tp;
	return 0;
}

static inline int sg_thread_arch_init(unsigned long hwcap2)
{
	(void)hwcap2;
	return 0;
}

#endif
