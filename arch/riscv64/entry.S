/* SPDX-License-Identifier: MIT */
/*
 * rv64 entry from patched system call sites.
 *
 * Every stub (mechanisms/patch/patch-riscv64.c) enters like a call:
 *
 *     addi sp,sp,-16; sd ra,0(sp); auipc ra,..; ld ra,..(ra); jalr ra
 *     .8byte site, raw            the descriptor; ra points at it
 *     ld ra,0(sp); addi sp,sp,16
 *
 * so here the program's ra is at SGF_SIZE(sp) and its sp SG_PUSH above
 * that.  Nothing is written above the frame but the stub's push; every
 * register except a0 comes back as it was (the kernel's own contract).
 */
#include "context.h"
#include "entry.h"

	.text
	.option	push
	.option	norvc

/*
 * Unwind info that makes the program's function the caller: a hook that
 * unwinds (backtrace(), a profiler) walks from sysgate's frames into the
 * program's.  The CFA is the program's sp, SG_PUSH above sp at entry;
 * the program's ra is where the stub pushed it.  ra must come back as
 * the program's (a leaf like getppid keeps its own return address only
 * there), so the return address goes in another column: libgcc's
 * DWARF_ALT_FRAME_RETURN_COLUMN, 64, which has a register slot (< 66
 * DWARF_FRAME_REGISTERS) and is the column libgcc's own signal frames
 * use on rv64.  It is the address after the ecall, the descriptor's
 * `site` + 4 (the stub has run the relocated instructions before the
 * ecall, so the program's registers are as at the ecall):
 *   at entry:   DW_CFA_val_expression 64, { breg1 0; deref; plus 4 }
 *   then the descriptor's address goes to the push's spare word:
 *               DW_CFA_val_expression 64, { CFA; 8; minus; deref; deref;
 *                                           plus 4 }
 * which holds until the stub pops the push (only the RAW path, which
 * takes that word for t0, ends the unwinding before it does).
 */
.if SG_PUSH != 16
.error "entry.S: update the unwind expressions of PROGRAM_IS_CALLER"
.endif
.macro PROGRAM_IS_CALLER
	.cfi_return_column 64
	.cfi_def_cfa_offset SG_PUSH
	.cfi_offset ra, -SG_PUSH
	.cfi_escape 0x16, 0x40, 0x05, 0x71, 0x00, 0x06, 0x23, 0x04
	sd	ra, 8(sp)
	.cfi_escape 0x16, 0x40, 0x06, 0x38, 0x1c, 0x06, 0x06, 0x23, 0x04
.endm

/* Save x1, x3-x31 into a frame at sp, and the program's sp into x[2]. */
.macro SAVE_FRAME
	addi	sp, sp, -SGF_SIZE
	.cfi_adjust_cfa_offset SGF_SIZE
	sd	x1, 8(sp)
	.irp	n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\n, (\n * 8)(sp)
	.cfi_offset \n, (\n * 8 - SGF_SIZE - SG_PUSH)
	.endr
	addi	t0, sp, SGF_SIZE + SG_PUSH
	sd	t0, 16(sp)
	mv	s0, sp
	.cfi_def_cfa s0, (SGF_SIZE + SG_PUSH)
.endm

/* Restore x1, x3-x31 from the frame at sp, except the registers listed
 * in \skip (a number, or 0). */
.macro RESTORE_FRAME skip=0
	ld	x1, 8(sp)
	.irp	n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if	\n != \skip
	ld	x\n, (\n * 8)(sp)
	.endif
	.endr
.endm

/* The system call C wrote into the frame at s0 (number and arguments);
 * the result goes back there. */
.macro SYSCALL_FROM_FRAME
	ld	a0, SGF_X(10)(s0)
	ld	a1, SGF_X(11)(s0)
	ld	a2, SGF_X(12)(s0)
	ld	a3, SGF_X(13)(s0)
	ld	a4, SGF_X(14)(s0)
	ld	a5, SGF_X(15)(s0)
	ld	a7, SGF_X(17)(s0)
	ecall
	sd	a0, SGF_X(10)(s0)
.endm

	.globl	sg_rv_entry
	.hidden	sg_rv_entry
	.type	sg_rv_entry, @function
	.p2align 2
sg_rv_entry:
	.cfi_startproc
	PROGRAM_IS_CALLER
	SAVE_FRAME
	addi	sp, sp, -SG_CALL_SIZE	/* the call record (core/entry.h) */
	andi	sp, sp, -16
	mv	a0, s0
	mv	a1, sp
	call	sg_syscall_entry
	li	t0, SG_ENTRY_KERNEL
	beq	a0, t0, .Lkernel
	li	t0, SG_ENTRY_KERNEL_EXIT
	beq	a0, t0, .Lkernel_exit
	li	t0, SG_ENTRY_RAW
	beq	a0, t0, .Lraw
.Ldone:
	.cfi_remember_state
	mv	sp, s0
	.cfi_def_cfa_register sp
	RESTORE_FRAME
	/* back in the registers: the frame below sp is fair game now */
	.irp	n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.cfi_restore \n
	.endr
	addi	sp, sp, SGF_SIZE
	.cfi_def_cfa_offset SG_PUSH
	ret
	.cfi_restore_state

.Lkernel:
	SYSCALL_FROM_FRAME
	j	.Ldone

	/* KERNEL_EXIT: the call, then exit hooks; a1 is the second result. */
.Lkernel_exit:
	SYSCALL_FROM_FRAME
	sd	a1, SGF_X(11)(s0)
	mv	a0, s0
	mv	a1, sp
	call	sg_syscall_exit
	j	.Ldone

	/*
	 * RAW: the stub's raw path runs the call at the program's own sp
	 * with its own registers (clone with CLONE_VM, vfork,
	 * rt_sigreturn).  The jump needs one register: t0 goes to the spare
	 * word of the push, where the raw path takes it back from.  The info
	 * word is left below each stack the call returns on.
	 */
.Lraw:
	ld	t0, SGF_X(2)(s0)
	ld	t1, SGF_INFO(s0)
	sd	t1, -SG_RAWINFO_OFF(t0)
	ld	t2, SGF_CHILD_SP(s0)
	beqz	t2, 1f
	sd	t1, -SG_RAWINFO_OFF(t2)
1:	ld	t1, SGF_X(5)(s0)
	sd	t1, -8(t0)
	.cfi_undefined 64	/* the descriptor's word is gone: stop here */
	mv	sp, s0
	.cfi_def_cfa_register sp
	RESTORE_FRAME 5
	ld	t0, 0(sp)
	addi	sp, sp, SGF_SIZE
	.cfi_def_cfa_offset SG_PUSH
	jr	t0
	.cfi_endproc
	.size	sg_rv_entry, . - sg_rv_entry

/*
 * Reached from a stub's raw path right after the system call returned,
 * in the caller and, for clone/vfork, in the child on its own stack.
 */
	.globl	sg_rv_after_raw
	.hidden	sg_rv_after_raw
	.type	sg_rv_after_raw, @function
	.p2align 2
sg_rv_after_raw:
	.cfi_startproc
	PROGRAM_IS_CALLER
	SAVE_FRAME
	ld	a1, -SG_RAWINFO_OFF(t0)
	addi	sp, sp, -16
	andi	sp, sp, -16
	mv	a0, s0
	call	sg_after_raw
	j	.Ldone
	.cfi_endproc
	.size	sg_rv_after_raw, . - sg_rv_after_raw

/*
 * A relayed site (small or middle patch) came through a gateway, whose
 * stub calls here with the push made, the program's ra at 0(sp) and the
 * relay's link in a7.  Find the relay's own stub in sg_rv_relays (open
 * addressing, keys are link addresses) and go there with everything
 * restored but a7, which the stub sets right.
 */
	.globl	sg_rv_relay
	.hidden	sg_rv_relay
	.type	sg_rv_relay, @function
	.p2align 2
sg_rv_relay:
	addi	sp, sp, -32
	sd	t0, 0(sp)
	sd	t1, 8(sp)
	sd	t2, 16(sp)
	lla	t0, sg_rv_relays
	ld	t1, 0(t0)		/* the hash multiplier */
	mul	t1, a7, t1
	srli	t1, t1, 64 - SG_RV_RELAY_BITS
	addi	t0, t0, 16		/* slots follow the header */
1:	slli	t2, t1, 4
	add	t2, t2, t0
	ld	t2, 0(t2)
	beq	t2, a7, 2f
	beqz	t2, 3f
	addi	t1, t1, 1
	andi	t1, t1, (1 << SG_RV_RELAY_BITS) - 1
	j	1b
2:	slli	t2, t1, 4
	add	t2, t2, t0
	ld	a7, 8(t2)
	ld	t0, 0(sp)
	ld	t1, 8(sp)
	ld	t2, 16(sp)
	addi	sp, sp, 32
	ld	ra, 0(sp)
	addi	sp, sp, SG_PUSH
	jr	a7
	/* No such relay: only a jump sysgate did not write comes here. */
3:	unimp
	.size	sg_rv_relay, . - sg_rv_relay

/* long sg_on_stack_call(fn, void *a, void *b, void *stack_top): fn(a, b) */
	.globl	sg_on_stack_call
	.hidden	sg_on_stack_call
	.type	sg_on_stack_call, @function
	.p2align 2
sg_on_stack_call:
	.cfi_startproc
	addi	sp, sp, -16
	.cfi_adjust_cfa_offset 16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	.cfi_rel_offset ra, 8
	.cfi_rel_offset s0, 0
	mv	s0, sp
	.cfi_def_cfa_register s0
	mv	sp, a3
	mv	t0, a0
	mv	a0, a1
	mv	a1, a2
	jalr	t0
	mv	sp, s0
	.cfi_def_cfa_register sp
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	.cfi_restore ra
	.cfi_restore s0
	addi	sp, sp, 16
	.cfi_adjust_cfa_offset -16
	ret
	.cfi_endproc
	.size	sg_on_stack_call, . - sg_on_stack_call

/* A RAW rt_sigreturn: entered like a stub's raw path (t0 and ra in the
 * push), a7 already holds the number. */
	.globl	sg_rv_raw_sigreturn
	.hidden	sg_rv_raw_sigreturn
	.type	sg_rv_raw_sigreturn, @function
	.p2align 2
sg_rv_raw_sigreturn:
	ld	t0, 8(sp)
	ld	ra, 0(sp)
	addi	sp, sp, SG_PUSH
	ecall
	unimp
	.size	sg_rv_raw_sigreturn, . - sg_rv_raw_sigreturn

	.option	pop
	.section .note.GNU-stack, "", @progbits
