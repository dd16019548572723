/* SPDX-License-Identifier: MIT */
/*
 * Calls that only look like rewritten system calls behave as natively.
 * Under -m zeropage a rewritten site is `call *%rax` into page 0, and
 * page 0 picks a stub by the low 16 bits of the return address:
 *   - a jump to address 0 whose return address shares those bits with a
 *     real site (but is another address), and calls through the small
 *     function pointers 1 and 39, must die of SIGSEGV, not run a call;
 *   - system call numbers no kernel has (340-423, every alignment of the
 *     sled, and 600, 1000, 4000 past its entry) fail as natively: the
 *     count of ENOSYS is printed, not assumed (some kernels add calls in
 *     the gap; 335 raises SIGILL on one seen here, so it starts at 340).
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

/* Sites of this program, with unwind info so that they are rewritten. */
long raw_getppid(void);
long raw_call(long nr);
extern char raw_getppid_ret[];
__asm__(".text\n"
	".globl raw_getppid, raw_getppid_ret, raw_call\n"
	".type raw_getppid, @function\n"
	"raw_getppid:\n"
	".cfi_startproc\n"
	"	mov $110, %eax\n"
	"	syscall\n"
	"raw_getppid_ret:\n"
	"	ret\n"
	".cfi_endproc\n"
	".size raw_getppid, . - raw_getppid\n"
	".type raw_call, @function\n"
	"raw_call:\n"
	".cfi_startproc\n"
	"	mov %rdi, %rax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size raw_call, . - raw_call\n");

static void jump_zero_from(unsigned long ret)
{
	__asm__ volatile("push %0\n\t"
			 "xor %%eax, %%eax\n\t"
			 "jmp *%%rax" : : "r"(ret) : "rax", "memory");
}

static int in_child(int which)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		if (which == 0)
			jump_zero_from((unsigned long)raw_getppid_ret + 0x10000);
		else
			((void (*)(void))(long)which)();
		_exit(0);
	}
	test_assert(waitpid(p, &st, 0) == p);
	return WIFSIGNALED(st) ? WTERMSIG(st) : -WEXITSTATUS(st);
}

int main(void)
{
	long nr, enosys = 0;

	test_assert(raw_getppid() == getppid());
	test_assert(in_child(0) == SIGSEGV);
	atomic_puts("jump to 0 with a site's low return bits: SIGSEGV");
	test_assert(in_child(1) == SIGSEGV);
	test_assert(in_child(39) == SIGSEGV);
	atomic_puts("calls through small pointers: SIGSEGV");
	for (nr = 340; nr < 424; nr++)
		enosys += raw_call(nr) == -ENOSYS;
	enosys += raw_call(600) == -ENOSYS;
	enosys += raw_call(1000) == -ENOSYS;
	enosys += raw_call(4000) == -ENOSYS;
	atomic_printf("numbers no kernel has: %ld of 87 ENOSYS\n", enosys);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
