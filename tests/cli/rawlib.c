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

#ifdef PAD_SITES
/*
 * Two sites that only a padding jump can patch (each a function's first
 * instruction), with one 8-byte gap of padding between them and none
 * other in a short jump's reach: two processes that each plan one of
 * them at its third trap both choose that padding, and a third process
 * of the tree that takes both plans from the tree must not write one
 * trampoline over the other (pad_b adds 1000 after its call: a call of
 * pad_a that ran pad_b's stub would come back wrong).  Built with
 * -mno-red-zone: the calls below push below the caller's stack pointer.
 */
__asm__(".text\n"
	".type pad_fill_before, @function\n"
	"pad_fill_before:\n"
	".cfi_startproc\n"
	".skip 140, 0x90\n"
	"ret\n"
	".cfi_endproc\n"
	".type pad_a, @function\n"
	"pad_a:\n"
	".cfi_startproc\n"
	"syscall\n"
	"ret\n"
	".cfi_endproc\n"
	".skip 8, 0xcc\n"
	".type pad_b, @function\n"
	"pad_b:\n"
	".cfi_startproc\n"
	"syscall\n"
	"add $1000, %rax\n"
	"ret\n"
	".cfi_endproc\n"
	".type pad_fill_after, @function\n"
	"pad_fill_after:\n"
	".cfi_startproc\n"
	".skip 140, 0x90\n"
	"ret\n"
	".cfi_endproc\n");

static long pad_call_a(void)
{
	long r;

	__asm__ volatile("call pad_a" : "=a"(r) : "0"(110L /* getppid */)
			 : "rcx", "r11", "memory");
	return r;
}

static long pad_call_b(void)
{
	long r;

	__asm__ volatile("call pad_b" : "=a"(r) : "0"(110L /* getppid */)
			 : "rcx", "r11", "memory");
	return r - 1000;
}

/* n = 10 * count + which: 1 pad_a, 2 pad_b, 3 both (each the same
 * answer); getppid's answer, or -1. */
long raw_getppid_n(long n)
{
	long r = -1, k;

	for (k = 0; k < n / 10; k++) {
		long a = n % 10 & 1 ? pad_call_a() : 0;
		long b = n % 10 & 2 ? pad_call_b() : 0;

		if (n % 10 == 3 && a != b)
			return -1;
		r = n % 10 & 1 ? a : b;
	}
	return r;
}
#endif
