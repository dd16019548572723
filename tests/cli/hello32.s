# SPDX-License-Identifier: MIT
# A 32-bit (i386) program: write, getpid and exit through int $0x80.
# -m ptrace must decode them with the i386 table, as strace does.
	.globl _start
_start:
	movl $4, %eax		# write
	movl $1, %ebx
	movl $msg, %ecx
	movl $6, %edx
	int $0x80
	movl $20, %eax		# getpid
	int $0x80
	movl $1, %eax		# exit
	movl $0, %ebx
	int $0x80
	.data
msg:	.ascii "hello\n"
