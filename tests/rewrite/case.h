/* SPDX-License-Identifier: MIT */
/* CASE name ... END name: one function of tests/rewrite/<arch>/cases.S,
 * with unwind info (its bounds, as the planner reads them) and an entry
 * in the table the driver walks.  Stubs hold absolute addresses, so the
 * cases sit at a fixed place: a non-PIE program whose first text section
 * (the linker puts .text.unlikely before all other code) is this. */
.macro CASE name
	.pushsection .rodata.rewrite_names, "a"
\name\()_str:
	.asciz "\name"
	.popsection
	.pushsection rewrite_cases, "aw"
	.balign 8
	.8byte \name\()_str, \name, \name\()_end
	.popsection
	.section .text.unlikely.rewrite, "ax"
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
