/* SPDX-License-Identifier: MIT */
/* aarch64 rewriter cases: each function is planned, never run.  Every
 * `svc #0` becomes `b <stub>` alone; the stub holds the rest. */
#include "../case.h"

/* The usual wrapper: the number in x8 just before. */
CASE plain
	mov	x8, #172
	svc	#0
	ret
END plain

/* The number set far from the svc, in another register's way. */
CASE unknown_nr
	mov	x8, x0
	svc	#0
	ret
END unknown_nr

/* Two calls back to back. */
CASE back_to_back
	mov	x8, #172
	svc	#0
	svc	#0
	ret
END back_to_back

/* A branch to the svc itself. */
CASE branch_in
	mov	x8, #172
	cbz	x0, 1f
	mov	x8, #173
1:	svc	#0
	ret
END branch_in
/* The cases' page filled to its end: the planner reads the whole page,
 * and what the file held past the cases (its symbol table, which every
 * change to sysgate moves) once read as a branch into a site. */
	.section rewrite_code, "ax"
	.balign 4096
	.section .note.GNU-stack, "", %progbits
