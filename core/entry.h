/* SPDX-License-Identifier: MIT */
/*
 * What sg_syscall_entry() and the arch entry stubs (arch/<isa>/entry.S)
 * agree on; included by both, so plain defines only.
 *
 * A stub reserves SG_CALL_SIZE bytes, 16-byte aligned, below its frame and
 * passes them along with it.  A hooked call's record (struct sg_call in
 * dispatch.c) lives there between its enter and exit sides, not in the
 * thread's state: a signal handler may run during the call and make hooked
 * calls of its own.
 *
 * sg_syscall_entry() answers:
 *   SG_ENTRY_DONE        the result is in the frame;
 *   SG_ENTRY_RAW         run the call from the stub's raw path (dispatch.h);
 *   SG_ENTRY_KERNEL      make the call from the frame and return;
 *   SG_ENTRY_KERNEL_EXIT make the call from the frame, store both result
 *                        registers there, call sg_syscall_exit(frame,
 *                        record), then return.
 * The stub makes those calls itself, at the top of sysgate's frames, so
 * that no return of sysgate's after them uses a return address pushed
 * before them (see arch/x86_64/entry.S for why that matters).
 */
#ifndef SG_ENTRY_H
#define SG_ENTRY_H

#define SG_ENTRY_DONE		0
#define SG_ENTRY_RAW		1
#define SG_ENTRY_KERNEL		2
#define SG_ENTRY_KERNEL_EXIT	3

#define SG_CALL_SIZE		160

/*
 * An arch's entry stub may answer the commonest call without C (x86-64
 * does): one hook alone selects it, with an enter(), no timing and no thread pointer switch (hooks.c fills
 * sg_fast[nr] = { enter, data, exit, fpu } for such calls, zeros for
 * others; fpu: the hook has no NOFPU promise, the state is kept);
 * exit() runs there only after an answer, a call made goes to C),
 * while syscall user dispatch is off and the thread is set up and
 * outside any callback: what dispatch.c's lean path checks, in the same
 * order.  The layout facts it needs, checked in dispatch.c:
 */
#define SG_FAST_SHIFT		5	/* sizeof(struct sg_fast) == 32 */
#define SG_NR_MAX		1024	/* SYSGATE_NR_MAX */
#define SG_G_SUD_ON		2424	/* offsetof(struct sg_global, sud_on) */
#define SG_T_OWNER		8	/* struct sg_thread */
#define SG_T_DEPTH		32
#define SG_T_HOOK_SP		40
#define SG_T_TID		72	/* then pid, as in struct sysgate_sys */
#define SG_T_HOOKS_OFF		80
#define SG_T_PENDING		168
#define SG_T_ALT_HI		8400
#define SG_S_RET		56	/* struct sysgate_sys (the record's start) */
#define SG_S_PC			72
#define SG_S_PID		80
#define SG_S_FLAGS		88
#define SG_S_NOTE		96
#define SG_S_ENTER_NS		104
#define SG_S_ENTER_TICKS	112
#define SG_S_SIZE		120
#define SG_CALL_SCRATCH		120	/* five words the fast path keeps
					   across the hook's call */

#endif
