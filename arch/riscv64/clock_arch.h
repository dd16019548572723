/* SPDX-License-Identifier: MIT */
/*
 * The counter sysgate times calls with (sysgate_ticks): the time CSR, at
 * the platform's constant timebase on every hart.
 */
#ifndef SG_CLOCK_ARCH_H
#define SG_CLOCK_ARCH_H

static inline unsigned long long sg_arch_counter(void)
{
	unsigned long long v;

	__asm__ volatile("rdtime %0" : "=r"(v));
	return v;
}

#include "counter_user.h"

#endif
