/* SPDX-License-Identifier: MIT */
/*
 * Raw clone3 and clone with their own stacks.  The child keeps using
 * registers that were set before the syscall (r8, r9: function and
 * argument), so they must survive in the child too.
 */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

long raw_clone3(struct clone_args *args, size_t size, int (*fn)(void *),
		void *arg);
__asm__(
	".text\n"
	".globl raw_clone3\n"
	".type raw_clone3,@function\n"
	"raw_clone3:\n"
	".cfi_startproc\n"
	"	mov %rdx, %r8\n"
	"	mov %rcx, %r9\n"
	"	mov $435, %eax\n"
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"
	"	mov %r9, %rdi\n"
	"	call *%r8\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".cfi_endproc\n"
	".size raw_clone3, .-raw_clone3\n");

static volatile int done[4];

static int child_fn(void *arg)
{
	long i = (long)arg;

	/* raw syscalls only: this thread has no TLS of its own */
	if (syscall(SYS_getppid) <= 0)
		return 1;
	__atomic_store_n(&done[i], 1, __ATOMIC_RELEASE);
	return 0;
}

static char stacks[4][1 << 16] __attribute__((aligned(16)));

int main(void)
{
	long i;

	for (i = 0; i < 2; i++) {
		/* a thread sharing memory, then a process with its own stack */
		struct clone_args ca = {
			.flags = i == 0 ? (CLONE_VM | CLONE_FS | CLONE_FILES |
					   CLONE_SIGHAND | CLONE_THREAD |
					   CLONE_SYSVSEM)
					: CLONE_VM,
			.exit_signal = i == 0 ? 0 : SIGCHLD,
			.stack = (uint64_t)(uintptr_t)stacks[i],
			.stack_size = sizeof(stacks[i]),
		};
		long r = raw_clone3(&ca, sizeof(ca), child_fn, (void *)i);

		test_assert(r > 0);
		if (i == 1) {
			int st;

			test_assert(waitpid(r, &st, __WALL) == r);
			test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		}
		while (!__atomic_load_n(&done[i], __ATOMIC_ACQUIRE))
			syscall(SYS_sched_yield);
	}
	atomic_puts("clone3 thread and process ok");
	{
		/* clone(2) through glibc, own stack, CLONE_VFORK */
		int st;
		long r = clone(child_fn, stacks[2] + sizeof(stacks[2]),
			       CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)2L);

		test_assert(r > 0 && done[2]);
		test_assert(waitpid(r, &st, 0) == r && WIFEXITED(st));
	}
	atomic_puts("clone with CLONE_VM|CLONE_VFORK ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
