/* SPDX-License-Identifier: MIT */
/* The kernel's struct sigaction where it has sa_restorer (x86-64 and the
 * asm-generic layout of aarch64): the kernel returns from a handler
 * through the restorer the action names. */
#ifndef SG_KACT_RESTORER_H
#define SG_KACT_RESTORER_H

struct sg_kact {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	unsigned long mask;
};

#define SG_SA_RESTORER 0x04000000UL
static inline void sg_kact_set_restorer(struct sg_kact *k, unsigned long r)
{
	k->restorer = r;
}

#endif
