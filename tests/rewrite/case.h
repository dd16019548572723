/* SPDX-License-Identifier: MIT */
/* CASE name ... END name: one function of tests/rewrite/<arch>/cases.S,
 * with unwind info (its bounds, as the planner reads them) and an entry
 * in the table the driver walks.  Stubs hold absolute addresses, so the
 * cases sit at a fixed place: a section the link puts at one address
 * (mk/rewrite.mk), in a non-PIE program. */
.macro CASE name
	.pushsection .rodata.rewrite_names, "a"
\name\()_str:
	.asciz "\name"
	.popsection
	.pushsection rewrite_cases, "aw"
	.balign 8
	.8byte \name\()_str, \name, \name\()_end
	.popsection
	.section rewrite_code, "ax"
	.p2align 4
	.type \name, %function
\name:
	.cfi_startproc
.endm

.macro END name
	.cfi_endproc
\name\()_end:
	.size \name, . - \name
.endm
