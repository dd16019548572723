/* SPDX-License-Identifier: MIT */
/*
 * For an architecture whose counter user space may always read, at one
 * rate on every CPU, and no call can take away (the aarch64 generic
 * timer, the RISC-V time CSR): included by its clock_arch.h.
 */
#ifndef SG_COUNTER_USER_H
#define SG_COUNTER_USER_H

static inline int sg_arch_counter_faults(void)
{
	return 0;
}

static inline int sg_arch_counter_steady(void)
{
	return 1;
}

static inline int sg_arch_counter_call(long nr, const long *a)
{
	(void)nr;
	(void)a;
	return 0;
}

#endif
