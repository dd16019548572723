/* SPDX-License-Identifier: MIT */
/*
 * A signal action or set on the program's own stack, in a page it made
 * unreadable, read-only or a guard page: the calls fail with EFAULT as natively, and
 * work again once the page is as before.  (sysgate copies such arguments
 * directly while the main stack stays as the kernel mapped it; any call
 * that changes it ends that, core/mem.c.)
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

/* The kernel's struct sigaction (rt_sigaction's argument). */
struct kact {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

static long sigaction_raw(const void *act, void *old)
{
	return syscall(SYS_rt_sigaction, SIGUSR1, act, old, 8);
}

static long sigmask_raw(const void *set, void *old)
{
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, set, old, 8);
}

static int efault(long r)
{
	return r == -1 && errno == EFAULT;
}

int main(void)
{
	char area[3 * 4096];
	char *page = (char *)(((unsigned long)area + 4095) & ~4095UL);
	struct kact *k = (struct kact *)page;
	int status;
	pid_t pid;

	memset(area, 0, sizeof(area));
	k->handler = SIG_IGN;
	test_assert(sigaction_raw(k, 0) == 0);
	memset(k, 0, sizeof(*k));
	test_assert(sigaction_raw(0, k) == 0 && k->handler == SIG_IGN);
	atomic_puts("an action set and read back on the stack");

	/* A guard region (Linux 6.13): the mapping stays as it was, its
	 * pages fault.  In a child, where nothing changed the stack before. */
	pid = fork();
	test_assert(pid >= 0);
	if (pid == 0) {
		if (madvise(page, 4096, 102 /* MADV_GUARD_INSTALL */) < 0)
			_exit(2);
		_exit(efault(sigaction_raw(0, page)) &&
		      efault(sigmask_raw(page, 0)) ? 0 : 1);
	}
	test_assert(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	test_assert(WEXITSTATUS(status) != 1);
	atomic_puts("a guard page: EFAULT (where the kernel has them)");

	test_assert(mprotect(page, 4096, PROT_NONE) == 0);
	test_assert(efault(sigaction_raw(page, 0)));
	test_assert(efault(sigaction_raw(0, page)));
	test_assert(efault(sigmask_raw(page, 0)));
	test_assert(efault(sigmask_raw(0, page)));
	atomic_puts("an unreadable stack page: EFAULT");

	test_assert(mprotect(page, 4096, PROT_READ) == 0);
	test_assert(efault(sigaction_raw(0, page)));
	test_assert(efault(sigmask_raw(0, page)));
	test_assert(sigaction_raw(page, 0) == 0);
	atomic_puts("a read-only stack page: read, not written");

	test_assert(mprotect(page, 4096, PROT_READ | PROT_WRITE) == 0);
	test_assert(sigaction_raw(0, k) == 0 && k->handler == SIG_IGN);
	test_assert(sigmask_raw(0, page) == 0);
	atomic_puts("writable again");

	atomic_puts("EXIT-SUCCESS");
	return 0;
}
