/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry from patched system call sites.
 *
 * A per-site stub (written by mechanisms/patch/patch-x86_64.c) runs the
 * instructions it displaced, steps over the 128-byte red zone with `lea`
 * (flags untouched), and calls sg_x86_entry through a pointer.  The 16-byte
 * site descriptor lies just before that call, so the return address
 * locates it, and the `ret` goes back where the call came from.
 *
 * Rules for this file: nothing is written above the frame (the red zone
 * stays intact); rcx and r11 are the only scratch registers, as they are
 * for the kernel; rflags is saved first and restored last; C is called
 * with DF clear and a 16-byte aligned stack.
 */
#include "context.h"
#include "entry.h"

/* include/sysgate.h's SYSGATE_SYS_SKIPPED (a C header) */
#define SYSGATE_SYS_SKIPPED_BIT 0x4
/* core/dispatch.h's SG_RAW_NEWCHILD (a C header) */
#define SG_RAW_NEWCHILD_BIT 0x10000
/* A new child's stack while it sets itself up (AFTER_RAW) */
#define SG_CHILD_STACK 0x10000

	.section .text.hot, "ax", @progbits	/* mk/hot.ld */

.macro SAVE_FRAME rflags_pushed=0
.if !\rflags_pushed
	pushfq
	.cfi_adjust_cfa_offset 8
.endif
	push	%rax
	.cfi_adjust_cfa_offset 8
	push	%rdi
	.cfi_adjust_cfa_offset 8
	push	%rsi
	.cfi_adjust_cfa_offset 8
	push	%rdx
	.cfi_adjust_cfa_offset 8
	push	%r10
	.cfi_adjust_cfa_offset 8
	push	%r8
	.cfi_adjust_cfa_offset 8
	push	%r9
	.cfi_adjust_cfa_offset 8
	/* rcx, r11 and child_sp: C writes them before they are read (the
	 * kernel's syscall clobbers the program's rcx and r11 too) */
	sub	$24, %rsp
	.cfi_adjust_cfa_offset 24
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	/* DF is almost never set: a predicted branch costs less than CLD
	 * (~0.8 ns a call here) */
	testb	$0x04, (SGF_RFLAGS + 1)(%rsp)
	jz	1f
	cld
1:	mov	%rsp, %rbx
	.cfi_def_cfa_register %rbx
.endm

/*
 * Unwind info that makes the program's function the caller: a hook that
 * unwinds (backtrace(), -k, a profiler) walks from sysgate's frames into
 * the program's.  At entry the stub's return address is at rsp and the
 * program's stack pointer 8 + SG_REDZONE above it: that is the CFA.  The
 * return address is the site descriptor's `next` (the address after the
 * system call instruction), SG_X86_CALL_LEN + 16 bytes before the stub's
 * return address:
 *   DW_CFA_val_expression rip, { CFA 136 - deref 22 - deref }
 * (the CFA is on the expression stack first; the pushes below only move
 * the CFA's register offset, so the expression holds throughout).
 */
.if (8 + SG_REDZONE) != 136 || (SG_X86_CALL_LEN + 16) != 22
.error "entry.S: update the unwind expression of PROGRAM_IS_CALLER"
.endif
.macro PROGRAM_IS_CALLER
	.cfi_def_cfa_offset (8 + SG_REDZONE)
	.cfi_escape 0x16, 0x10, 0x09, 0x10, 0x88, 0x01, 0x1c, 0x06, 0x10, 0x16, 0x1c, 0x06
.endm

/*
 * RFLAGS from the frame's slot at \at(%rsp), without popfq (microcoded,
 * ~6 ns here): C changed only the arithmetic flags and DF.  DF first,
 * then OF (bit 11 moved to the sign bit; adding INT_MIN overflows exactly
 * when it is set), then SF ZF AF PF CF with sahf; nothing after may touch
 * flags.  Clobbers eax.  A program single-stepping itself (TF: the trap
 * handler took it off once the frame had saved it, core/traps.c) has it
 * back last, so that its next trap is the one after the call; the traps
 * in between are taken (the stack below rsp is the frame's, done).
 */
.macro RESTORE_RFLAGS at
	testb	$0x05, (\at + 1)(%rsp)	/* saved DF or TF */
	jnz	3f
1:	mov	\at(%rsp), %eax
	shl	$20, %eax
	add	$-0x80000000, %eax
	mov	\at(%rsp), %ah
	sahf
2:
	.pushsection .text.unlikely, "ax", @progbits
3:	testb	$0x04, (\at + 1)(%rsp)
	jz	4f
	std
4:	testb	$0x01, (\at + 1)(%rsp)
	jz	1b
	mov	\at(%rsp), %eax
	shl	$20, %eax
	add	$-0x80000000, %eax
	mov	\at(%rsp), %ah
	sahf
	pushfq
	orw	$0x100, (%rsp)
	popfq
	jmp	2b
	.popsection
.endm

/*
 * Pop everything back; rax = result, rcx/r11 = what C left in the frame.
 * after_syscall=1: return with a jump.  A system call leaves the return
 * predictor's entries stale (mitigations on the way back to user space),
 * and the first `ret` that uses one costs ~55 ns here, every further one
 * ~6 ns; the program's own return after its syscall pays the first as it
 * would without sysgate, a jump here keeps ours from paying another.
 */
.macro RESTORE_FRAME_AND_RETURN after_syscall=0
	mov	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	pop	%r11
	.cfi_adjust_cfa_offset -8
	pop	%rcx
	.cfi_adjust_cfa_offset -8
	pop	%r9
	.cfi_adjust_cfa_offset -8
	pop	%r8
	.cfi_adjust_cfa_offset -8
	pop	%r10
	.cfi_adjust_cfa_offset -8
	pop	%rdx
	.cfi_adjust_cfa_offset -8
	pop	%rsi
	.cfi_adjust_cfa_offset -8
	pop	%rdi
	.cfi_adjust_cfa_offset -8
	RESTORE_RFLAGS 8
	pop	%rax
	.cfi_adjust_cfa_offset -8
.if \after_syscall
	/* Past the rflags slot and the return address, which stays intact
	 * below rsp: the kernel puts signal frames below the red zone. */
	lea	16(%rsp), %rsp
	.cfi_adjust_cfa_offset -16
	jmp	*-8(%rsp)
.else
	lea	8(%rsp), %rsp		/* the rflags slot; lea keeps flags */
	.cfi_adjust_cfa_offset -8
	ret
.endif
.endm

/*
 * The exit side of a RAW call: cfunc(frame, the info word, the word below
 * it), which are below the stack pointer the call returned with.
 */
.macro AFTER_RAW cfunc
	SAVE_FRAME
	/* Step below the info words before C builds its frames. */
	sub	$16, %rsp
	and	$-16, %rsp
	/*
	 * A new child sets itself up (its state, hooks' thread_start, a
	 * fork's output) on a stack mapped for the while: its own may be a
	 * page (strace's tests give theirs one), and it has no state yet.
	 * The mapping's base is kept at its top.
	 */
	cmpq	$0, SGF_RAX(%rbx)
	jne	1f
	testl	$SG_RAW_NEWCHILD_BIT, (SGF_APP_SP - SG_RAWINFO_OFF)(%rbx)
	jz	1f
	xor	%edi, %edi
	mov	$SG_CHILD_STACK, %esi
	mov	$3, %edx		/* PROT_READ | PROT_WRITE */
	mov	$0x22, %r10d		/* MAP_PRIVATE | MAP_ANONYMOUS */
	mov	$-1, %r8
	xor	%r9d, %r9d
	mov	$9, %eax		/* mmap */
	syscall
	cmp	$-4096, %rax
	ja	1f			/* none: the child's own stack */
	lea	(SG_CHILD_STACK - 16)(%rax), %rsp
	mov	%rax, (%rsp)
	mov	%rbx, %rdi
	mov	(SGF_APP_SP - SG_RAWINFO_OFF)(%rbx), %rsi
	mov	(SGF_APP_SP - SG_RAWNEXT_OFF)(%rbx), %rdx
	call	\cfunc
	mov	(%rsp), %rdi
	mov	$SG_CHILD_STACK, %esi
	mov	%rbx, %rsp		/* (off it before it goes) */
	mov	$11, %eax		/* munmap */
	syscall
	jmp	2f
1:	mov	%rbx, %rdi
	mov	(SGF_APP_SP - SG_RAWINFO_OFF)(%rbx), %rsi
	mov	(SGF_APP_SP - SG_RAWNEXT_OFF)(%rbx), %rdx
	call	\cfunc
2:	RESTORE_FRAME_AND_RETURN
.endm

/* The program's call just made: the address after it goes in
 * sg_prog_calls (syscall_arch.h's sg_prog_sc6_2 says why). */
.macro PROG_CALL
9:	.pushsection sg_prog_calls, "a"
	.long	9b - .
	.popsection
.endm

/* The system call C wrote into the frame (number and arguments); the
 * result goes back there. */
.macro SYSCALL_FROM_FRAME
	mov	SGF_RAX(%rbx), %rax
	mov	SGF_RDI(%rbx), %rdi
	mov	SGF_RSI(%rbx), %rsi
	mov	SGF_RDX(%rbx), %rdx
	mov	SGF_R10(%rbx), %r10
	mov	SGF_R8(%rbx), %r8
	mov	SGF_R9(%rbx), %r9
	syscall
	PROG_CALL
	mov	%rax, SGF_RAX(%rbx)
.endm

	/*
	 * 64-byte aligned, so that code linked before it cannot move it:
	 * where it lies in its cache line changes what a passed-on call
	 * costs here (32 bytes in: ~3.5 ns more than at 0, 16 or 48).
	 */
	.globl	sg_x86_entry
	.hidden	sg_x86_entry
	.type	sg_x86_entry, @function
	.p2align 6
sg_x86_entry:
	.cfi_startproc
	PROGRAM_IS_CALLER
	/*
	 * Does sg_fast select this call?  Then the thread register (GS), as
	 * soon as flags are saved: RDGSBASE's latency (~3 ns a call here)
	 * runs in the shadow of the frame's pushes.  Calls for C do not read
	 * it (C reads it itself).  r11 = GS base, rcx = &sg_fast[nr],
	 * or r11 = 0: C.
	 */
	pushfq
	.cfi_adjust_cfa_offset 8
	cmp	$SG_NR_MAX, %rax
	jae	.Lnot_fast
	mov	%rax, %rcx
	shl	$SG_FAST_SHIFT, %rcx
	lea	sg_fast(%rip), %r11
	add	%r11, %rcx		/* &sg_fast[nr] */
	cmpq	$0, (%rcx)		/* enter(), or 0 */
	je	.Lnot_fast
	cmpl	$0, sg_have_fsgsbase(%rip)
	je	.Lnot_fast
	rdgsbase %r11
.Lsave:
	SAVE_FRAME rflags_pushed=1
	sub	$SG_CALL_SIZE, %rsp	/* the call record (core/entry.h) */
	and	$-16, %rsp
	test	%r11, %r11
	jz	.Lslow
	/* nr and the arguments, as sys_init puts them in the record
	 * (the fast path's) */
	mov	%rax, (%rsp)
	mov	%rdi, 8(%rsp)
	mov	%rsi, 16(%rsp)
	mov	%rdx, 24(%rsp)
	mov	%r10, 32(%rsp)
	mov	%r8, 40(%rsp)
	mov	%r9, 48(%rsp)
	/* the site's next, early: a load from the stub's descriptor that
	 * the record and the frame need */
	mov	SGF_RET(%rbx), %rdx
	mov	-(SG_X86_CALL_LEN + 16)(%rdx), %rdx
	/* The fast path's other checks (core/entry.h), in lean_ok's order */
	/* (sud_on and prog_sud, side by side: core/sg.h) */
	cmpq	$0, (sg + SG_G_SUD_ON)(%rip)
	je	.Lfast
.Lslow:
	mov	%rbx, %rdi
	mov	%rsp, %rsi
	call	sg_syscall_entry
.Lresult:
	/* Each path below starts from this unwind state. */
	.cfi_remember_state
	cmp	$SG_ENTRY_KERNEL, %eax
	je	.Lkernel
	cmp	$SG_ENTRY_KERNEL_EXIT, %eax
	je	.Lkernel_exit
	cmp	$SG_ENTRY_RAW, %eax
	je	.Lraw
	RESTORE_FRAME_AND_RETURN

	/*
	 * KERNEL: C chose to pass the call on with nothing to do after it.
	 * It is made here, at the top of sysgate's frames, so that no
	 * return of sysgate's runs after it (see RESTORE_FRAME_AND_RETURN).
	 */
.Lkernel:
	.cfi_restore_state
	.cfi_remember_state
	SYSCALL_FROM_FRAME
	RESTORE_FRAME_AND_RETURN after_syscall=1

	/*
	 * KERNEL_EXIT: the same, and exit callbacks after it
	 * (sg_syscall_exit, with the record at rsp).  The only returns
	 * after the call are those of calls made after it, which the
	 * predictor knows.  rdx is the second result register.
	 */
.Lkernel_exit:
	.cfi_restore_state
	.cfi_remember_state
	SYSCALL_FROM_FRAME
	mov	%rdx, SGF_RDX(%rbx)
	mov	%rbx, %rdi
	mov	%rsp, %rsi
	call	sg_syscall_exit
	RESTORE_FRAME_AND_RETURN after_syscall=1

	/*
	 * RAW: run the system call at the program's own stack pointer with
	 * its own registers (clone with CLONE_VM, vfork, rt_sigreturn).  C
	 * left the jump target in the rcx slot, an info word in the r11 slot
	 * and a clone child's new stack (or 0) in child_sp.  The info word is
	 * copied below each stack the call will return on, where
	 * sg_x86_after_raw finds it.
	 */
.Lraw:
	.cfi_restore_state
	.cfi_remember_state
	mov	SGF_CHILD_SP(%rbx), %rcx
	mov	SGF_R11(%rbx), %r11
	test	%rcx, %rcx
	jz	1f
	mov	%r11, -SG_RAWINFO_OFF(%rcx)
1:	mov	%r11, (SGF_APP_SP - SG_RAWINFO_OFF)(%rbx)
	mov	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	add	$16, %rsp		/* child_sp, r11 */
	.cfi_adjust_cfa_offset -16
	pop	%rcx			/* jump target */
	.cfi_adjust_cfa_offset -8
	pop	%r9
	.cfi_adjust_cfa_offset -8
	pop	%r8
	.cfi_adjust_cfa_offset -8
	pop	%r10
	.cfi_adjust_cfa_offset -8
	pop	%rdx
	.cfi_adjust_cfa_offset -8
	pop	%rsi
	.cfi_adjust_cfa_offset -8
	pop	%rdi
	.cfi_adjust_cfa_offset -8
	pop	%rax
	.cfi_adjust_cfa_offset -8
	popfq
	.cfi_adjust_cfa_offset -8
	lea	(8 + SG_REDZONE)(%rsp), %rsp
	.cfi_adjust_cfa_offset -(8 + SG_REDZONE)
	jmp	*%rcx

	/*
	 * The fast path: dispatch.c's lean path for a call that needs
	 * nothing but its one hook's enter() (core/entry.h), without C.
	 * r11 = GS base, rcx = &sg_fast[nr].  The record as sys_init fills it,
	 * then the thread's checks (sg_self, lean_ok).
	 */
.Lfast:
	.cfi_restore_state
	.cfi_remember_state
	mov	%r11, %r8
	rdfsbase %r9
	mov	(%rcx), %r11		/* enter(), read again: core/hooks.c */
	test	%r11, %r11		/* may have cleared it meanwhile */
	jz	.Lslow
	and	$-2, %r8		/* less SG_THREAD_HOOKS (thread_arch.h) */
	jz	.Lslow
	cmp	SG_T_OWNER(%r8), %r9
	jne	.Lslow
	cmpq	$0, SG_T_DEPTH(%r8)
	jne	.Lslow
	cmpl	$0, SG_T_HOOKS_OFF(%r8)
	jne	.Lslow
	mov	SG_T_HOOK_SP(%r8), %r10
	test	%r10, %r10
	jz	.Lslow
	cmpq	$0, SG_T_ALT_HI(%r8)
	jne	.Lslow
	xor	%esi, %esi
	mov	%rsi, SG_S_RET(%rsp)
	mov	%rsi, (SG_S_RET + 8)(%rsp)	/* ret2 */
	/* rcx and r11 as the kernel leaves them (sg_frame_site) */
	mov	%rdx, SGF_RCX(%rbx)
	mov	SGF_RFLAGS(%rbx), %rdi
	mov	%rdi, SGF_R11(%rbx)
	lea	-2(%rdx), %rdi
	mov	%rdi, SG_S_PC(%rsp)
	mov	SG_T_TID(%r8), %rdi	/* tid, pid -> pid, tid */
	rol	$32, %rdi
	mov	%rdi, SG_S_PID(%rsp)
	mov	%rsi, SG_S_FLAGS(%rsp)
	mov	%rsi, SG_S_NOTE(%rsp)
	mov	%rsi, SG_S_ENTER_NS(%rsp)
	mov	%rsi, SG_S_ENTER_TICKS(%rsp)
	/* enter(s, data) on the hook stack, depth set (run_lean); for an
	 * answer, exit() too, in the same switch (lean_enter) */
	mov	%r8, SG_CALL_SCRATCH(%rsp)
	mov	16(%rcx), %rdx
	mov	%rdx, (SG_CALL_SCRATCH + 8)(%rsp)	/* exit() */
	mov	8(%rcx), %rsi
	movq	$1, SG_T_DEPTH(%r8)
	mov	24(%rcx), %rax
	mov	%rax, (SG_CALL_SCRATCH + 32)(%rsp)	/* fpu */
	test	%rax, %rax
	jnz	.Lfast_fpu_save
.Lfast_go:
	mov	%rsp, %rdi
	test	%rdx, %rdx
	jnz	.Lfast_exit
	mov	%r10, %rsp
	call	*%r11
.Lfast_back:
	lea	-SG_CALL_SIZE(%rbx), %rsp
	and	$-16, %rsp
	cmpq	$0, (SG_CALL_SCRATCH + 32)(%rsp)
	jne	.Lfast_fpu_restore
.Lfast_restored:
	mov	SG_CALL_SCRATCH(%rsp), %r8
	movq	$0, SG_T_DEPTH(%r8)
	cmpq	$0, SG_T_PENDING(%r8)
	jne	.Lfast_pending
.Lfast_verdict:
	cmp	$1, %eax		/* SYSGATE_SKIP */
	jne	.Lfast_run
	mov	SG_S_RET(%rsp), %rax
	mov	%rax, SGF_RAX(%rbx)
	RESTORE_FRAME_AND_RETURN

	/* a hook with exit(): for an answer, exit() too, in the same stack
	 * switch (lean_enter) */
.Lfast_exit:
	.cfi_restore_state
	.cfi_remember_state
	mov	%rsi, (SG_CALL_SCRATCH + 16)(%rsp)	/* data */
	mov	%r10, %rsp
	call	*%r11
	cmp	$1, %eax		/* SYSGATE_SKIP */
	jne	.Lfast_back
	lea	-SG_CALL_SIZE(%rbx), %rdi
	and	$-16, %rdi		/* the record */
	orl	$SYSGATE_SYS_SKIPPED_BIT, SG_S_FLAGS(%rdi)
	mov	(SG_CALL_SCRATCH + 16)(%rdi), %rsi
	call	*(SG_CALL_SCRATCH + 8)(%rdi)
	mov	$1, %eax
	jmp	.Lfast_back

	/* a hook without the NOFPU promise: its state kept around the
	 * callbacks (sg_fast_fpu), the registers live here kept meanwhile */
.Lfast_fpu_save:
	.cfi_restore_state
	.cfi_remember_state
	push	%rdx
	push	%rsi
	push	%r10
	push	%r11
	mov	%r8, %rdi
	xor	%esi, %esi
	call	sg_fast_fpu
	pop	%r11
	pop	%r10
	pop	%rsi
	pop	%rdx
	jmp	.Lfast_go
.Lfast_fpu_restore:
	.cfi_restore_state
	.cfi_remember_state
	mov	%eax, (SG_CALL_SCRATCH + 24)(%rsp)
	mov	SG_CALL_SCRATCH(%rsp), %rdi
	mov	$1, %esi
	call	sg_fast_fpu
	mov	(SG_CALL_SCRATCH + 24)(%rsp), %eax
	jmp	.Lfast_restored

	/* signals held back meanwhile (sg_deliver_pending) */
.Lfast_pending:
	.cfi_restore_state
	.cfi_remember_state
	mov	%eax, (SG_CALL_SCRATCH + 24)(%rsp)
	mov	%r8, %rdi
	call	sg_deliver_pending
	mov	(SG_CALL_SCRATCH + 24)(%rsp), %eax
	jmp	.Lfast_verdict

	/* SYSGATE_RUN: the arguments as enter() left them, and the same
	 * number, with no exit() to follow (else C decides, as
	 * lean_run_call) */
.Lfast_run:
	cmpq	$0, (SG_CALL_SCRATCH + 8)(%rsp)
	jne	.Lfast_ran
	mov	(%rsp), %rax
	cmp	SGF_RAX(%rbx), %rax
	jne	.Lfast_ran
	/* The call from the record; the kernel keeps rdi..r9, which are
	 * then what the frame would have given back (lean_run_call writes
	 * the arguments there), so only rbx, rcx, r11 and rflags come from
	 * the frame. */
	mov	8(%rsp), %rdi
	mov	16(%rsp), %rsi
	mov	24(%rsp), %rdx
	mov	32(%rsp), %r10
	mov	40(%rsp), %r8
	mov	48(%rsp), %r9
	syscall
	PROG_CALL
	mov	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	mov	%rax, %rcx		/* the result, while flags need eax */
	RESTORE_RFLAGS (SGF_RFLAGS - 8)
	mov	%rcx, %rax
	mov	(SGF_RCX - 8)(%rsp), %rcx
	mov	(SGF_R11 - 8)(%rsp), %r11
	lea	(SGF_SIZE - 8)(%rsp), %rsp
	.cfi_adjust_cfa_offset -(SGF_SIZE - 8)
	jmp	*-8(%rsp)
.Lfast_ran:
	mov	%rbx, %rdi
	mov	%rsp, %rsi
	mov	SGF_RAX(%rbx), %rdx
	call	sg_fast_ran
	jmp	.Lresult

	/* (out of the fast path's line) a call for C; only rflags pushed */
.Lnot_fast:
	.cfi_def_cfa %rsp, (8 + SG_REDZONE + 8)
	.cfi_same_value %rbx
	xor	%r11d, %r11d
	jmp	.Lsave
	.cfi_endproc
	.size	sg_x86_entry, . - sg_x86_entry

/*
 * Reached from a stub's raw path right after the system call returned, in
 * the caller and, for clone/vfork, in the child, each on its own stack.
 */
	.globl	sg_x86_after_raw
	.hidden	sg_x86_after_raw
	.type	sg_x86_after_raw, @function
	.p2align 4
sg_x86_after_raw:
	.cfi_startproc
	PROGRAM_IS_CALLER
	AFTER_RAW sg_after_raw
	.cfi_endproc
	.size	sg_x86_after_raw, . - sg_x86_after_raw

/*
 * A RAW call that a signal caught at a site without a stub (syscall user
 * dispatch: code no patch covers, such as Go's runtime) is made here:
 * the handler's return lands here with the program's registers, except
 * rcx = the address after its system call instruction and r11 = the info
 * word, which the kernel's `syscall` would have clobbered anyway.  The
 * two words go below the stack pointer as a stub's raw path leaves them
 * (a clone child's new stack got its copy from the handler); this is
 * sysgate's text, so neither syscall user dispatch nor the seccomp filter
 * traps the call again.
 */
	.globl	sg_x86_trap_raw
	.hidden	sg_x86_trap_raw
	.type	sg_x86_trap_raw, @function
	.p2align 4
sg_x86_trap_raw:
	mov	%r11, -SG_RAWINFO_OFF(%rsp)
	mov	%rcx, -SG_RAWNEXT_OFF(%rsp)
	syscall
	PROG_CALL
	lea	-SG_REDZONE(%rsp), %rsp
	call	sg_x86_trap_after_raw
	lea	SG_REDZONE(%rsp), %rsp
	jmp	*%rcx
	.size	sg_x86_trap_raw, . - sg_x86_trap_raw

/* sg_x86_after_raw for sg_x86_trap_raw: the way back (restored into rcx)
 * is the word below the info word, not a stub's descriptor. */
	.type	sg_x86_trap_after_raw, @function
	.p2align 4
sg_x86_trap_after_raw:
	.cfi_startproc
	AFTER_RAW sg_after_trapped_raw
	.cfi_endproc
	.size	sg_x86_trap_after_raw, . - sg_x86_trap_after_raw

/* long sg_on_stack_call(fn, void *a, void *b, void *stack_top): fn(a, b) */
	.globl	sg_on_stack_call
	.hidden	sg_on_stack_call
	.type	sg_on_stack_call, @function
	.p2align 4
sg_on_stack_call:
	.cfi_startproc
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	mov	%rcx, %rsp
	mov	%rdi, %rax
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	call	*%rax
	mov	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	sg_on_stack_call, . - sg_on_stack_call

/*
 * rt_sigreturn for handlers sysgate installs itself; the `nop` before it
 * lets unwinders that look up pc-1 find the signal frame CFI.  That CFI
 * makes the interrupted code the caller (a hook that unwinds from a
 * SIGSYS or SIGTRAP handler reaches the program): here rsp points at the
 * ucontext the kernel built, whose mcontext (40 bytes in) holds every
 * register, r8 first, in the kernel's order:
 *   CFA = *(rsp + 40 + 8 * 15)   (the saved rsp)
 *   reg = *(rsp + 40 + 8 * index)  for each other register and rip.
 */
	.globl	sg_x86_restore_rt
	.hidden	sg_x86_restore_rt
	.type	sg_x86_restore_rt, @function
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_escape 0x0f, 4, 0x77, 0xa0, 0x01, 0x06	/* CFA = saved rsp */
	.cfi_escape 0x10, 8, 2, 0x77, 0x28		/* r8 */
	.cfi_escape 0x10, 9, 2, 0x77, 0x30		/* r9 */
	.cfi_escape 0x10, 10, 2, 0x77, 0x38		/* r10 */
	.cfi_escape 0x10, 11, 3, 0x77, 0xc0, 0x00	/* r11 */
	.cfi_escape 0x10, 12, 3, 0x77, 0xc8, 0x00	/* r12 */
	.cfi_escape 0x10, 13, 3, 0x77, 0xd0, 0x00	/* r13 */
	.cfi_escape 0x10, 14, 3, 0x77, 0xd8, 0x00	/* r14 */
	.cfi_escape 0x10, 15, 3, 0x77, 0xe0, 0x00	/* r15 */
	.cfi_escape 0x10, 5, 3, 0x77, 0xe8, 0x00	/* rdi */
	.cfi_escape 0x10, 4, 3, 0x77, 0xf0, 0x00	/* rsi */
	.cfi_escape 0x10, 6, 3, 0x77, 0xf8, 0x00	/* rbp */
	.cfi_escape 0x10, 3, 3, 0x77, 0x80, 0x01	/* rbx */
	.cfi_escape 0x10, 1, 3, 0x77, 0x88, 0x01	/* rdx */
	.cfi_escape 0x10, 0, 3, 0x77, 0x90, 0x01	/* rax */
	.cfi_escape 0x10, 2, 3, 0x77, 0x98, 0x01	/* rcx */
	.cfi_escape 0x10, 16, 3, 0x77, 0xa8, 0x01	/* rip */
	nop
sg_x86_restore_rt:
	mov	$15, %eax
	syscall
	PROG_CALL
	hlt
/* The same for the handlers of the signals sysgate claims (a trapped
 * call's SIGSYS, a breakpoint's SIGTRAP): that return is sysgate's own,
 * not one the program made, so it is not listed with the program's
 * calls, and a filter of the program's that forbids rt_sigreturn lets it
 * pass as natively nothing would have needed it. */
	.globl	sg_x86_restore_own
	.hidden	sg_x86_restore_own
	nop
sg_x86_restore_own:
	mov	$15, %eax
	syscall
	hlt
	.cfi_endproc
	.size	sg_x86_restore_rt, . - sg_x86_restore_rt

/*
 * A call the program's own syscall user dispatch takes, at a patched site
 * (core/psud.c): reached as a RAW call, with the program's registers and
 * stack pointer, so that the breakpoint's frame is the program's (its
 * SIGTRAP handler makes it the site's SIGSYS frame).  Never returned to.
 */
	.globl	sg_x86_psud_trap
	.hidden	sg_x86_psud_trap
	.type	sg_x86_psud_trap, @function
sg_x86_psud_trap:
	int3
	hlt
	.size	sg_x86_psud_trap, . - sg_x86_psud_trap

	.section .note.GNU-stack, "", @progbits
