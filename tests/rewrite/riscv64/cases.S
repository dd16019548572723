/* SPDX-License-Identifier: MIT */
/* rv64 rewriter cases: each function is planned, never run.  The
 * planner's three patches (see mechanisms/patch/patch-riscv64.c) need
 * room around the ecall: a gateway 16 relocatable bytes, a middle 12, a
 * small only the ecall and a known number. */
#include "../case.h"
	.option norvc
	.option norelax

/* Room for a gateway, with the `li a7` inside it. */
CASE gateway
	addi	a0, a0, 1
	addi	a1, a1, 1
	li	a7, 172
	ecall
	addi	a2, a2, 1
	addi	a3, a3, 1
	ret
END gateway

/* The number unknown, 12 bytes between two branch targets: a middle
 * relaying to the gateway above. */
CASE middle
	mv	a7, a0
1:	addi	a1, a1, 1
	ecall
	addi	a2, a2, 1
2:	addi	a3, a3, -1
	bnez	a3, 2b
	bnez	a2, 1b
	ret
END middle

/* The number known, no room: a small patch, returning through the
 * copied `ret`. */
CASE small
	li	a7, 173
	ecall
	ret
END small

/* Compressed neighbours. */
	.option rvc
CASE compressed
	c.addi	a0, 1
	c.addi	a1, 1
	li	a7, 172
	ecall
	c.addi	a2, 1
	c.addi	a3, 1
	ret
END compressed
	.option norvc

/* A branch to the ecall: nothing before it may be covered. */
CASE branch_in
	li	a7, 172
	beqz	a0, 1f
	li	a7, 173
1:	ecall
	ret
END branch_in

/* Nothing known, no room: a trap. */
CASE tight
	ecall
	ret
END tight
/* The cases' page filled to its end: the planner reads the whole page,
 * and what the file held past the cases (its symbol table, which every
 * change to sysgate moves) once read as a branch into a site. */
	.section rewrite_code, "ax"
	.balign 4096
	.section .note.GNU-stack, "", %progbits
