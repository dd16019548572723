/* SPDX-License-Identifier: MIT */
/*
 * aarch64 entry from patched system call sites.
 *
 * A site's `svc #0` became `b <stub>`, which writes no register.  Every
 * stub (mechanisms/patch/patch-aarch64.c) enters sysgate like a call:
 *
 *     stp x30, xzr, [sp, #-16]!; adrp x30, hdr; ldr x30, [x30, ..]; blr x30
 *     .8byte site, raw              the descriptor; x30 points at it
 *     ldr x30, [sp], #16            back here, then `b site+4`
 *
 * so here the program's x30 is at SGF_SIZE(sp) and its sp SG_PUSH above
 * that.  Linux aarch64 has no red zone and sp stays 16-byte aligned.
 * Nothing is written above the frame but the stub's push; every register
 * but x0, and the NZCV flags, come back as they were (the kernel's own
 * contract).
 */
#include "context.h"
#include "entry.h"
#include "signal_arch.h"

	.text

/*
 * Unwind info that makes the program's function the caller: a hook that
 * unwinds (backtrace(), a profiler) walks from sysgate's frames into the
 * program's.  The CFA is the program's sp, SG_PUSH above sp at entry;
 * the program's x30 is where the stub pushed it.  x30 must come back as
 * the program's (a leaf like getppid keeps its own return address only
 * there), so the return address goes in another column: libgcc's
 * DWARF_ALT_FRAME_RETURN_COLUMN, 96, which has a register slot (< 97
 * DWARF_FRAME_REGISTERS) and is the column libgcc's own signal frames
 * use on aarch64.  It is the address after the site, the descriptor's
 * `site` + 4:
 *   at entry:   DW_CFA_val_expression 96, { breg30 0; deref; plus 4 }
 *   then the descriptor's address goes to the push's spare word:
 *               DW_CFA_val_expression 96, { CFA; 8; minus; deref; deref;
 *                                           plus 4 }
 * which holds until the stub pops the push (only the RAW path, which
 * takes that word for x16, ends the unwinding before it does).
 */
.if SG_PUSH != 16
.error "entry.S: update the unwind expressions of PROGRAM_IS_CALLER"
.endif
.macro PROGRAM_IS_CALLER
	.cfi_return_column 96
	.cfi_def_cfa_offset SG_PUSH
	.cfi_offset x30, -SG_PUSH
	.cfi_escape 0x16, 0x60, 0x05, 0x8e, 0x00, 0x06, 0x23, 0x04
	str	x30, [sp, #8]
	.cfi_escape 0x16, 0x60, 0x06, 0x38, 0x1c, 0x06, 0x06, 0x23, 0x04
.endm

/* Save x0-x30 and NZCV into a frame at sp, the program's sp into its
 * slot; leaves x19 = frame, x9 = the program's sp. */
.macro SAVE_FRAME
	sub	sp, sp, #SGF_SIZE
	.cfi_adjust_cfa_offset SGF_SIZE
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	str	x30, [sp, #240]
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
	.cfi_offset x\n, (\n * 8 - SGF_SIZE - SG_PUSH)
	.endr
	mrs	x9, nzcv
	str	x9, [sp, #SGF_NZCV]
	add	x9, sp, #(SGF_SIZE + SG_PUSH)
	str	x9, [sp, #SGF_SP]
	mov	x19, sp
	.cfi_def_cfa x19, (SGF_SIZE + SG_PUSH)
.endm

/* Restore NZCV and x0-x30 from the frame at sp; \skip16 leaves x16. */
.macro RESTORE_FRAME skip16=0
	ldr	x9, [sp, #SGF_NZCV]
	msr	nzcv, x9
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	.if	\skip16
	ldr	x17, [sp, #136]
	.else
	ldp	x16, x17, [sp, #128]
	.endif
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
.endm

/* The system call C wrote into the frame at x19 (number and
 * arguments); the result goes back there. */
.macro SYSCALL_FROM_FRAME
	ldp	x0, x1, [x19, #SGF_X(0)]
	ldp	x2, x3, [x19, #SGF_X(2)]
	ldp	x4, x5, [x19, #SGF_X(4)]
	ldr	x8, [x19, #SGF_X(8)]
	svc	#0
	str	x0, [x19, #SGF_X(0)]
.endm

	.globl	sg_a64_entry
	.hidden	sg_a64_entry
	.type	sg_a64_entry, %function
	.p2align 4
sg_a64_entry:
	.cfi_startproc
	PROGRAM_IS_CALLER
	SAVE_FRAME
	sub	sp, sp, #SG_CALL_SIZE	/* the call record (core/entry.h) */
	mov	x0, x19
	mov	x1, sp
	bl	sg_syscall_entry
	cmp	x0, #SG_ENTRY_KERNEL
	b.eq	.Lkernel
	cmp	x0, #SG_ENTRY_KERNEL_EXIT
	b.eq	.Lkernel_exit
	cmp	x0, #SG_ENTRY_RAW
	b.eq	.Lraw
.Ldone:
	.cfi_remember_state
	mov	sp, x19
	.cfi_def_cfa_register sp
	RESTORE_FRAME
	/* back in the registers: the frame below sp is fair game now */
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
	.cfi_restore x\n
	.endr
	add	sp, sp, #SGF_SIZE
	.cfi_def_cfa_offset SG_PUSH
	ret
	.cfi_restore_state

.Lkernel:
	SYSCALL_FROM_FRAME
	b	.Ldone

	/* KERNEL_EXIT: the call, then exit hooks; x1 is the second result. */
.Lkernel_exit:
	SYSCALL_FROM_FRAME
	str	x1, [x19, #SGF_X(1)]
	mov	x0, x19
	mov	x1, sp
	bl	sg_syscall_exit
	b	.Ldone

	/*
	 * RAW: the stub's raw path runs the call at the program's own sp
	 * with its own registers (clone with CLONE_VM, vfork,
	 * rt_sigreturn).  The jump needs one register: x16 goes to the
	 * spare word of the push, where the raw path takes it back from.
	 * The info word is left below each stack the call returns on.
	 */
.Lraw:
	ldr	x9, [x19, #SGF_SP]
	ldr	x10, [x19, #SGF_INFO]
	sub	x11, x9, #SG_RAWINFO_OFF
	str	x10, [x11]
	ldr	x11, [x19, #SGF_CHILD_SP]
	cbz	x11, 1f
	sub	x11, x11, #SG_RAWINFO_OFF
	str	x10, [x11]
1:	ldr	x10, [x19, #SGF_X(16)]
	str	x10, [x9, #-8]
	.cfi_undefined 96	/* the descriptor's word is gone: stop here */
	mov	sp, x19
	.cfi_def_cfa_register sp
	ldr	x16, [sp, #SGF_TARGET]
	RESTORE_FRAME 1
	add	sp, sp, #SGF_SIZE
	.cfi_def_cfa_offset SG_PUSH
	br	x16
	.cfi_endproc
	.size	sg_a64_entry, . - sg_a64_entry

/*
 * Reached from a stub's raw path right after the system call returned,
 * in the caller and, for clone/vfork, in the child on its own stack.
 * The 16 bytes left free below the frame keep the info word out of the
 * C code's way.
 */
	.globl	sg_a64_after_raw
	.hidden	sg_a64_after_raw
	.type	sg_a64_after_raw, %function
	.p2align 4
sg_a64_after_raw:
	.cfi_startproc
	PROGRAM_IS_CALLER
	SAVE_FRAME
	sub	x9, x9, #SG_RAWINFO_OFF
	ldr	x1, [x9]
	sub	sp, sp, #16
	mov	x0, x19
	bl	sg_after_raw
	b	.Ldone
	.cfi_endproc
	.size	sg_a64_after_raw, . - sg_a64_after_raw

/* long sg_on_stack_call(fn, void *a, void *b, void *stack_top): fn(a, b) */
	.globl	sg_on_stack_call
	.hidden	sg_on_stack_call
	.type	sg_on_stack_call, %function
	.p2align 2
sg_on_stack_call:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa_register x29
	mov	sp, x3
	mov	x9, x0
	mov	x0, x1
	mov	x1, x2
	blr	x9
	mov	sp, x29
	.cfi_def_cfa_register sp
	ldp	x29, x30, [sp], #16
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	sg_on_stack_call, . - sg_on_stack_call

/* A RAW rt_sigreturn: entered like a stub's raw path (x16 and x30 in the
 * push, which rt_sigreturn does not need back), x8 already holds the
 * number; the signal frame is at the program's sp. */
	.globl	sg_a64_raw_sigreturn
	.hidden	sg_a64_raw_sigreturn
	.type	sg_a64_raw_sigreturn, %function
	.p2align 2
sg_a64_raw_sigreturn:
	add	sp, sp, #SG_PUSH
	svc	#0
	brk	#0x3e8
	.size	sg_a64_raw_sigreturn, . - sg_a64_raw_sigreturn

/*
 * The restorer of handlers sysgate installs: the kernel returns here
 * with sp at the signal frame.  Its CFI makes the interrupted code the
 * caller (a hook that unwinds from a signal handler reaches the
 * program), from sp, not the CFA: a signal that lands on this restorer
 * leaves the unwinder a CFA that is not the frame (libgcc's fallback,
 * which matches these two instructions, reads garbage there and
 * faults).  The FDE covers the `nop` too, for unwinders that look up
 * pc-1.  With U = sp + SG_SIGFRAME_UC, the ucontext:
 *   CFA = *(U + SG_UC_REGS + 8 * 31)      (the saved sp)
 *   xN at U + SG_UC_REGS + 8 * N, the return address (column 96, as
 *   in PROGRAM_IS_CALLER) at U + SG_UC_PC.
 * Each offset is a two-byte SLEB128 (128 <= offset < 8192).
 */
.if SG_SIGFRAME_UC + SG_UC_REGS < 128 || SG_SIGFRAME_UC + SG_UC_PC >= 8192
.error "entry.S: the restorer's offsets need other SLEB128 lengths"
.endif
/* DW_CFA_expression col, { breg31 off } */
.macro SIGFRAME_SLOT col, off
	.cfi_escape 0x10, \col, 3, 0x8f, ((\off) & 0x7f) | 0x80, (\off) >> 7
.endm
	.globl	sg_a64_restore_rt
	.hidden	sg_a64_restore_rt
	.type	sg_a64_restore_rt, %function
	.p2align 2
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_return_column 96
	/* DW_CFA_def_cfa_expression { breg31 off; deref } */
	.cfi_escape 0x0f, 4, 0x8f, ((SG_SIGFRAME_UC + SG_UC_REGS + 8 * 31) & 0x7f) | 0x80, \
		(SG_SIGFRAME_UC + SG_UC_REGS + 8 * 31) >> 7, 0x06
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	SIGFRAME_SLOT \n, (SG_SIGFRAME_UC + SG_UC_REGS + 8 * \n)
	.endr
	SIGFRAME_SLOT 96, (SG_SIGFRAME_UC + SG_UC_PC)
	nop
sg_a64_restore_rt:
	mov	x8, #139	/* rt_sigreturn */
	svc	#0
	brk	#0x3e8
	.cfi_endproc
	.size	sg_a64_restore_rt, . - sg_a64_restore_rt

	.section .note.GNU-stack, "", %progbits
