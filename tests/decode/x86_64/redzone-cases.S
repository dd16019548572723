/* SPDX-License-Identifier: MIT */
/*
 * Hand-written functions for the red-zone proof (tests/decode/redzone.c):
 * each CASE name ... END name is one function whose worst use of %rsp
 * redzone.c knows.  Never run, only scanned.
 */
	.text
.macro CASE name
	.p2align 4
	.globl	rz_\name, rz_\name\()_end
rz_\name:
.endm
.macro END name
rz_\name\()_end:
.endm

/* read(2)-style wrapper: no use of %rsp at all */
CASE leaf_wrapper
	endbr64
	mov	$0, %eax
	syscall
	cmp	$-4095, %rax
	jae	1f
	ret
1:	neg	%eax
	mov	%eax, %fs:-4
	mov	$-1, %rax
	ret
END leaf_wrapper

/* a frame made with sub/add and stores above %rsp */
CASE frame_above
	push	%rbx
	sub	$0x28, %rsp
	mov	%rdi, 8(%rsp)
	mov	0x10(%rsp), %rax
	lea	0x30(%rsp), %rsp
	mov	$39, %eax
	syscall
	add	$8, %rsp
	pop	%rbx
	ret
END frame_above

/* the red zone holds a value across the syscall */
CASE redzone_store
	mov	%rdi, -8(%rsp)
	mov	$39, %eax
	syscall
	mov	-8(%rsp), %rdi
	ret
END redzone_store

/* red zone reached through a SIB with an index */
CASE indexed
	mov	(%rsp,%rcx,8), %rax
	syscall
	ret
END indexed

/* a copy of %rsp (frame pointer) can reach the red zone */
CASE frame_pointer
	push	%rbp
	mov	%rsp, %rbp
	mov	%edi, -0x14(%rbp)
	syscall
	pop	%rbp
	ret
END frame_pointer

/* lea of a stack address into another register */
CASE lea_copy
	lea	8(%rsp), %rsi
	syscall
	ret
END lea_copy

/* lea below %rsp into %rsp is just a stack allocation */
CASE lea_alloc
	lea	-0x80(%rsp), %rsp
	syscall
	lea	0x80(%rsp), %rsp
	ret
END lea_alloc

/* realignment: and $-16,%rsp */
CASE align
	and	$-16, %rsp
	syscall
	ret
END align

/* SSE on xmm4 is not %rsp; AVX through %rsp with a negative offset is */
CASE sse_xmm4
	movaps	%xmm4, %xmm5
	pxor	%xmm4, %xmm4
	movdqu	16(%rsp), %xmm4
	syscall
	ret
END sse_xmm4

CASE avx_below
	vmovdqu	%ymm0, -32(%rsp)
	syscall
	ret
END avx_below

/* bytes that are no instruction in 64-bit mode */
CASE data
	syscall
	.byte	0x06
	ret
END data

/* leave restores %rsp from %rbp */
CASE leave
	leave
	ret
END leave

/* push %rsp copies it to memory */
CASE push_rsp
	push	%rsp
	pop	%rax
	syscall
	ret
END push_rsp

/* %r12 is not %rsp, even where the encoding uses rm=4 */
CASE r12
	mov	%r12, %rdi
	mov	-8(%r12), %rax
	add	$8, %r12
	push	%r12
	pop	%r12
	syscall
	ret
END r12

	.section .note.GNU-stack, "", @progbits
