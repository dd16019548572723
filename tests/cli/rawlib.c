/* SPDX-License-Identifier: MIT */
/* Loaded with dlopen after start-up: a raw system call, no libc. */
long raw_lseek(long fd, long off, long whence)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(8L /* lseek */), "D"(fd), "S"(off), "d"(whence)
			 : "rcx", "r11", "memory");
	return ret;
}
