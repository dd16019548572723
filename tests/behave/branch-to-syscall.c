/* SPDX-License-Identifier: MIT */
/*
 * A rel32 jump from another function straight to the syscall of a site
 * that a jump window (mov $nr,%eax; syscall) patches.  A site that keeps
 * trapping while its object waits to be read whole takes such a window
 * without the read, keeping a breakpoint on the syscall: a branch there
 * must make the call with the number it brought (getppid through
 * getpid's syscall), hooked.  No padding lies next to the function (no
 * padding jump), the object's text is large enough that its first
 * waiting traps do not reach a read (which would find the jump), and
 * the one-store patch of the syscall would jump into the zeros after it
 * (mapped: no room for its stub).
 */
#include "../lib/util.h"

long bts_getpid(void);
long bts_getppid(void);
__asm__(
	".text\n"
	".globl bts_before\n"
	".type bts_before,@function\n"
	"bts_before:\n"
	".cfi_startproc\n"
	"	.skip 256, 0\n"	/* never run: no rel8 jump near */
	".cfi_endproc\n"
	".size bts_before, .-bts_before\n"
	".globl bts_getpid\n"
	".type bts_getpid,@function\n"
	"bts_getpid:\n"
	".cfi_startproc\n"
	"	mov $39, %eax\n"
	"bts_syscall:\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size bts_getpid, .-bts_getpid\n"
	".globl bts_after\n"
	".type bts_after,@function\n"
	"bts_after:\n"
	".cfi_startproc\n"
	"	.skip 65536, 0\n"	/* never run */
	".cfi_endproc\n"
	".size bts_after, .-bts_after\n"
	".globl bts_getppid\n"
	".type bts_getppid,@function\n"
	"bts_getppid:\n"
	".cfi_startproc\n"
	"	mov $110, %eax\n"
	"	.byte 0xe9\n"		/* jmp rel32 bts_syscall */
	"	.long bts_syscall - (. + 4)\n"
	".cfi_endproc\n"
	".size bts_getppid, .-bts_getppid\n");

int main(void)
{
	int i;

	/* (patched at its fourth trap where sites are patched at traps) */
	for (i = 0; i < 8; i++)
		test_assert(bts_getpid() == getpid());
	test_assert(bts_getppid() == getppid());
	atomic_puts("a jump to a patched syscall made its own call");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
