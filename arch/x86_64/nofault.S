/* SPDX-License-Identifier: MIT */
/*
 * Memory accesses that may fault, for sysgate_copy_nofault() and
 * sysgate_probe_nofault() (core/mem.c): a SIGSEGV or SIGBUS whose pc lies
 * in [sg_nofault_begin, sg_nofault_end) resumes at sg_nofault_fixup, which
 * returns -EFAULT.  Both routines are leaves that never touch the stack
 * between their entry and the faulting instruction, so the fixup's `ret`
 * returns to their caller.
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
	mov	%rdx, %rcx
sg_nofault_begin:
	rep movsb
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	sg_nofault_copy, . - sg_nofault_copy

/* long sg_nofault_probe(const void *addr): 0 if one byte there reads */
	.type	sg_nofault_probe, @function
sg_nofault_probe:
	.cfi_startproc
	movzbl	(%rdi), %eax
	xor	%eax, %eax
sg_nofault_end:
	ret
	.cfi_endproc
	.size	sg_nofault_probe, . - sg_nofault_probe

	.type	sg_nofault_fixup, @function
sg_nofault_fixup:
	.cfi_startproc
	mov	$-14, %rax
	ret
	.cfi_endproc
	.size	sg_nofault_fixup, . - sg_nofault_fixup

	.section .note.GNU-stack, "", @progbits
