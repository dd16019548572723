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

#ifdef WAIT_SITE
/*
 * getppid at a site whose only patch is a jump over `mov $110, %eax`,
 * which needs every rel32 branch of the library checked (a read of its
 * whole text): no padding around it (the functions' unwind ranges touch),
 * and lazy.c's one-byte patch would jump 50 KiB on, into the library's
 * own text (the bytes after the syscall: c3 00 00).  Big (WAIT_TEXT):
 * its sites wait in their traps before that read is made
 * (mechanisms/patch/patch.c, sg_patch_first_trap_wait).
 */
__asm__(".text\n"
	".type wait_before, @function\n"
	"wait_before:\n"
	".cfi_startproc\n"
	"ret\n"
	".cfi_endproc\n"
	".globl raw_getppid\n"
	".type raw_getppid, @function\n"
	"raw_getppid:\n"
	".cfi_startproc\n"
	"mov $110, %eax\n"
	"syscall\n"
	"ret\n"
	".byte 0, 0\n"
	".cfi_endproc\n"
	".type wait_after, @function\n"
	"wait_after:\n"
	".cfi_startproc\n"
	"ret\n"
	".cfi_endproc\n"
	".skip " WAIT_TEXT ", 0xcc\n");

long raw_getppid(void);

/* raw_getppid n times: its last result. */
long raw_getppid_n(long n)
{
	long r = -1;

	while (n-- > 0)
		r = raw_getppid();
	return r;
}
#endif

#ifdef BIG_TEXT
/* More text than sysgate reads at start-up: its sites are left to their
 * first trap (mechanisms/patch/patch.c, leave_to_traps). */
__asm__(".text\n.skip " BIG_TEXT ", 0xcc\n");
#endif
