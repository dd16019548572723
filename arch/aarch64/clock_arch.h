/* SPDX-License-Identifier: MIT */
/*
 * The counter sysgate times calls with (sysgate_ticks): the generic
 * timer's virtual count, which Linux lets user space read and which runs
 * at one rate on every CPU.
 */
#ifndef SG_CLOCK_ARCH_H
#define SG_CLOCK_ARCH_H

static inline unsigned long long sg_arch_counter(void)
{
	unsigned long long v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

#include "counter_user.h"

#endif
