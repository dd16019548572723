/* SPDX-License-Identifier: MIT */
/* A function whose entry follows alignment padding and holds its ecall:
 * called through a pointer (no branch the planner's sweep can see), so a
 * patch region that took in the padding before it would put the entry in
 * the middle of the patch.  The caller sets a7. */
	.text
	.option norvc
	.globl	before_padding
	.type	before_padding, %function
	.p2align 4
before_padding:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	before_padding, . - before_padding

	.globl	entry_ecall
	.type	entry_ecall, %function
	.p2align 5
entry_ecall:
	.cfi_startproc
	ecall
	ret
	.cfi_endproc
	.size	entry_ecall, . - entry_ecall
	.section .note.GNU-stack, "", %progbits
