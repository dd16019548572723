/* SPDX-License-Identifier: MIT */
/*
 * aarch64's sg_nofault_copy/probe, with the contract of
 * arch/x86_64/nofault.S: faults in [begin, end) resume at the fixup.
 * Leaves that keep x30 and never touch the stack; the copy goes a byte at
 * a time (the bypass is measured on x86-64).
 */
	.text
	.globl	sg_nofault_copy, sg_nofault_probe
	.globl	sg_nofault_begin, sg_nofault_end, sg_nofault_fixup
	.hidden	sg_nofault_copy, sg_nofault_probe
	.hidden	sg_nofault_begin, sg_nofault_end, sg_nofault_fixup

/* long sg_nofault_copy(void *dst, const void *src, unsigned long len) */
	.type	sg_nofault_copy, %function
sg_nofault_copy:
	.cfi_startproc
sg_nofault_begin:
	cbz	x2, 2f
1:	ldrb	w9, [x1], #1
	strb	w9, [x0], #1
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, #0
	ret
	.cfi_endproc
	.size	sg_nofault_copy, . - sg_nofault_copy

/* long sg_nofault_probe(const void *addr): 0 if one byte there reads */
	.type	sg_nofault_probe, %function
sg_nofault_probe:
	.cfi_startproc
	ldrb	w9, [x0]
	mov	x0, #0
sg_nofault_end:
	ret
	.cfi_endproc
	.size	sg_nofault_probe, . - sg_nofault_probe

	.type	sg_nofault_fixup, %function
sg_nofault_fixup:
	.cfi_startproc
	mov	x0, #-14
	ret
	.cfi_endproc
	.size	sg_nofault_fixup, . - sg_nofault_fixup

	.section .note.GNU-stack, "", @progbits
