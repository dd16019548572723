/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction on x86-64 (with sa_restorer). */
#ifndef SG_SIGNAL_ARCH_H
#define SG_SIGNAL_ARCH_H

struct sg_kact {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	unsigned long mask;
};

#define SG_SA_RESTORER 0x04000000UL

#endif
