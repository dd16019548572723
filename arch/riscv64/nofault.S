/* SPDX-License-Identifier: MIT */
/*
 * rv64's sg_nofault_copy/probe, with the contract of
 * arch/x86_64/nofault.S: faults in [begin, end) resume at the fixup.
 * Leaves that keep ra and never touch the stack; the copy goes a byte at
 * a time (rv64 is not where the bypass is fast).
 */
	.text
	.globl	sg_nofault_copy, sg_nofault_probe
	.globl	sg_nofault_begin, sg_nofault_end, sg_nofault_fixup
	.hidden	sg_nofault_copy, sg_nofault_probe
	.hidden	sg_nofault_begin, sg_nofault_end, sg_nofault_fixup

/* long sg_nofault_copy(void *dst, const void *src, unsigned long len) */
	.type	sg_nofault_copy, @function
sg_nofault_copy:
	.cfi_startproc
sg_nofault_begin:
	beqz	a2, 2f
1:	lbu	t0, 0(a1)
	sb	t0, 0(a0)
	addi	a0, a0, 1
	addi	a1, a1, 1
	addi	a2, a2, -1
	bnez	a2, 1b
2:	li	a0, 0
	ret
	.cfi_endproc
	.size	sg_nofault_copy, . - sg_nofault_copy

/* long sg_nofault_probe(const void *addr): 0 if one byte there reads */
	.type	sg_nofault_probe, @function
sg_nofault_probe:
	.cfi_startproc
	lbu	t0, 0(a0)
	li	a0, 0
sg_nofault_end:
	ret
	.cfi_endproc
	.size	sg_nofault_probe, . - sg_nofault_probe

	.type	sg_nofault_fixup, @function
sg_nofault_fixup:
	.cfi_startproc
	li	a0, -14
	ret
	.cfi_endproc
	.size	sg_nofault_fixup, . - sg_nofault_fixup

	.section .note.GNU-stack, "", @progbits
