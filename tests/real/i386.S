/* SPDX-License-Identifier: MIT */
/* A 32-bit static program: write(1, "hi\n", 3) and exit(7) through
 * int $0x80, built with `as --32` and `ld -m elf_i386`. */
	.text
	.globl _start
_start:
	movl $4, %eax		/* __NR_write (i386) */
	movl $1, %ebx
	movl $msg, %ecx
	movl $len, %edx
	int $0x80
	movl $1, %eax		/* __NR_exit (i386) */
	movl $7, %ebx
	int $0x80
	.data
msg:	.ascii "hi\n"
	len = . - msg
