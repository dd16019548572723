/* SPDX-License-Identifier: MIT */
/*
 * Threads and a vfork made by raw clone from code without unwind info, as
 * Go's runtime makes them: no patch covers such a site, so syscall user
 * dispatch (or the seccomp filter) catches its calls.  The new thread has
 * a TLS base of its own (CLONE_SETTLS) and uses only raw calls.  It must
 * be followed like any other (a state of its own: its calls that read
 * memory work; /proc/self/exe names the program under the loader), and
 * so must its creator after the clone.  The vfork child shares the stack.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/nocfi.h"
#include "../lib/util.h"

/* No .cfi_startproc, as in ../lib/nocfi.h. */
long nocfi_clone(unsigned long flags, void *stack_top, void *tls,
		 int (*fn)(void *), void *arg);
long nocfi_vfork(void);
__asm__(
	".text\n"
	/* fn and arg wait on the child's stack, as glibc's clone leaves
	 * them; the child keeps rsi (its stack) as Go's does. */
	".globl nocfi_clone\n"
	"nocfi_clone:\n"
	"	sub $16, %rsi\n"
	"	mov %rcx, (%rsi)\n"
	"	mov %r8, 8(%rsi)\n"
	"	mov %rdx, %r8\n"
	"	xor %edx, %edx\n"
	"	xor %r10d, %r10d\n"
	"	mov $56, %eax\n"
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	cmp %rsi, %rsp\n"
	"	jne 2f\n"
	"	pop %rax\n"
	"	pop %rdi\n"
	"	xor %ebp, %ebp\n"
	"	call *%rax\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"
	"	syscall\n"
	"2:	hlt\n"
	"1:	ret\n"
	".globl nocfi_vfork\n"
	"nocfi_vfork:\n"
	"	pop %rdx\n"
	"	mov $58, %eax\n"
	"	syscall\n"
	"	push %rdx\n"
	"	ret\n");

static volatile int state[2];
static char stacks[2][1 << 16] __attribute__((aligned(16)));
/* The thread's TLS: a TCB that points to itself, nothing else. */
static unsigned long tcbs[2][8];

static int exe_name(char *buf, size_t size)
{
	char path[4096];
	long n = nocfi_syscall(SYS_readlinkat, AT_FDCWD, (long)"/proc/self/exe",
			       (long)path, sizeof(path) - 1, 0);
	const char *b;

	if (n <= 0)
		return -1;
	path[n] = 0;
	b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (strlen(b) >= size)
		return -1;
	memcpy(buf, b, strlen(b) + 1);
	return 0;
}

static char names[2][256];

static int thread_fn(void *arg)
{
	long i = (long)arg;
	unsigned long set = 1UL << (SIGUSR2 - 1), old = 0;

	/* a call whose argument sysgate reads, and one it writes */
	if (nocfi_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&set,
			  (long)&old, 8, 0) != 0 ||
	    nocfi_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8,
			  0) != 0)
		__atomic_store_n(&state[i], 2, __ATOMIC_RELEASE);
	else if (exe_name(names[i], sizeof(names[i])))
		__atomic_store_n(&state[i], 3, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&state[i], 1, __ATOMIC_RELEASE);
	return 0;
}

int main(void)
{
	const unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES |
				    CLONE_SIGHAND | CLONE_SYSVSEM |
				    CLONE_THREAD | CLONE_SETTLS;
	char name[256];
	long i, pid;
	int st;

	for (i = 0; i < 2; i++) {
		tcbs[i][0] = tcbs[i][2] = (unsigned long)tcbs[i];
		test_assert(nocfi_clone(flags, stacks[i] + sizeof(stacks[i]),
					tcbs[i], thread_fn, (void *)i) > 0);
		/* the creator, after its clone */
		test_assert(exe_name(name, sizeof(name)) == 0);
		atomic_printf("creator after clone %ld: %s\n", i, name);
		while (!__atomic_load_n(&state[i], __ATOMIC_ACQUIRE))
			nocfi_syscall(SYS_sched_yield, 0, 0, 0, 0, 0);
		test_assert(state[i] == 1);
		atomic_printf("thread %ld: %s\n", i, names[i]);
	}
	pid = nocfi_vfork();
	if (pid == 0) {
		if (exe_name(name, sizeof(name)) ||
		    nocfi_syscall(SYS_write, 1, (long)"vfork child: ", 13, 0,
				  0) != 13 ||
		    nocfi_syscall(SYS_write, 1, (long)name, strlen(name), 0,
				  0) != (long)strlen(name))
			nocfi_syscall(SYS_exit, 1, 0, 0, 0, 0);
		nocfi_syscall(SYS_write, 1, (long)"\n", 1, 0, 0);
		nocfi_syscall(SYS_exit, 0, 0, 0, 0, 0);
	}
	test_assert(pid > 0);
	test_assert(waitpid(pid, &st, 0) == pid);
	test_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	test_assert(exe_name(name, sizeof(name)) == 0);
	atomic_printf("after vfork: %s\n", name);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
