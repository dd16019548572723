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

#ifdef BIG_TEXT
/* More text than sysgate reads at start-up: its sites are left to their
 * first trap (mechanisms/patch/patch.c, leave_to_traps). */
__asm__(".text\n.skip " BIG_TEXT ", 0xcc\n");
#endif
