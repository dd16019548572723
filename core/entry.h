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

#endif
