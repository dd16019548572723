/* SPDX-License-Identifier: MIT */
/*
 * sysgate -p: the image's entry (tools/sysgate/attach.c sets a stopped
 * thread's pc here, %rdi to the request, %rsp 16-byte aligned).  The int3
 * after each piece gives the thread back to the CLI.  The system call
 * gadget, 8 bytes on, lies in sysgate's own text: patching never touches
 * it and syscall user dispatch lets it through.
 */
	.text
	.balign 16
	.globl sg_attach_start
	.hidden sg_attach_start
	.type sg_attach_start, @function
sg_attach_start:
	.cfi_startproc
	.cfi_undefined rip	/* the outermost frame: nothing called it */
	call sg_attach_request
	int3
	.balign 8
	syscall
	int3
	.cfi_endproc
	.size sg_attach_start, . - sg_attach_start
	.section .note.GNU-stack, "", @progbits
