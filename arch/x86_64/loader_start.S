/* SPDX-License-Identifier: MIT */
/*
 * sysgate-loader's entries (tools/loader), which has no libc to start it:
 * the kernel leaves argc at the stack pointer; sg_loader_main takes that
 * address (where it later builds the program's stack) on a 16-byte
 * aligned stack, and never returns.  Built again with SG_START_MAIN
 * sg_front_main, the entry of the sysgate command (tools/front), which
 * has no libc either.  This is the entry of the loader as
 * linked (sysgate-loader.elf), which the kernel maps whole; the installed
 * one starts at SG_LOADER_STUB_ENTRY (loader_arch.h, tools/loader/stub.c).
 */
#include "loader_arch.h"

#ifndef SG_START_MAIN
#define SG_START_MAIN sg_loader_main
#endif

	.text
	.globl _start
	.type _start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xor %ebp, %ebp
	mov %rsp, %rdi
	sub $SG_LOADER_ROOM, %rsp
	and $-16, %rsp
	call SG_START_MAIN
	ud2
	.cfi_endproc
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
