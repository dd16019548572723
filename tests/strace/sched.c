/* SPDX-License-Identifier: MIT */
/* sched_setattr and sched_getattr (the structure in each size, flags that
 * leave fields out, unknown values, the size the kernel writes back on
 * E2BIG), sched_rr_get_interval's timespec and pidfd_send_signal's
 * siginfo; a descriptor taken through a pidfd (-yy: the pidfd's process,
 * the descriptor's path in it). */
#include <fcntl.h>
#include "corpus.h"
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>

struct attr {
	unsigned int size, policy;
	unsigned long long flags;
	int nice;
	unsigned int prio;
	unsigned long long runtime, deadline, period;
	unsigned int util_min, util_max;
	unsigned char more[8];
};

static long sc(long nr, long a, long b, long c, long d)
{
	return syscall(nr, a, b, c, d);
}

int main(void)
{
	struct attr a;
	siginfo_t si;
	long pidfd;

	begin();
	memset(&a, 0, sizeof(a));
	sc(SYS_sched_getattr, 0, (long)&a, 48, 0);
	sc(SYS_sched_getattr, 0, (long)&a, 56, 0);
	sc(SYS_sched_getattr, 0, (long)&a, sizeof(a), 0);
	sc(SYS_sched_getattr, 0, 0, 56, 0);
	sc(SYS_sched_getattr, 0, (long)&a, 0, 0);
	sc(SYS_sched_getattr, -1, (long)&a, 56, 7);
	a.size = 48;
	a.flags = 1;	/* SCHED_FLAG_RESET_ON_FORK */
	sc(SYS_sched_setattr, 0, (long)&a, 0, 0);
	a.size = 0;
	sc(SYS_sched_setattr, getpid(), (long)&a, 0, 0);
	a.size = 1;
	sc(SYS_sched_setattr, 0, (long)&a, 0, 0);
	a.size = sizeof(a);
	a.policy = 0xca7faced;
	a.flags = 0x87;
	a.nice = -5;
	a.more[0] = 1;
	sc(SYS_sched_setattr, 0, (long)&a, 0x10000, 0);
	a.size = 48;
	a.flags = 0x18;	/* KEEP_POLICY | KEEP_PARAMS */
	sc(SYS_sched_setattr, -1, (long)&a, 0, 0);
	a.flags = 0xbadc0ded00000000ULL;
	sc(SYS_sched_setattr, -1, (long)&a, 0, 0);
	sc(SYS_sched_setattr, 0, 0, 0, 0);

	{
		struct timespec ts;

		sc(SYS_sched_rr_get_interval, 0, (long)&ts, 0, 0);
		sc(SYS_sched_rr_get_interval, -1, (long)&ts, 0, 0);
	}
	pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	{
		int nul = open("/dev/null", O_RDONLY);

		close((int)syscall(SYS_pidfd_getfd, pidfd, nul, 0));
		close(nul);
	}
	sc(SYS_pidfd_send_signal, pidfd, 0, 0, 0);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_errno = -1;
	si.si_pid = getpid();
	si.si_uid = (uid_t)-1;
	si.si_value.sival_int = 7;
	sc(SYS_pidfd_send_signal, pidfd, SIGUSR2, (long)&si, -1);
	si.si_uid = 1000;
	si.si_errno = 2;
	sc(SYS_pidfd_send_signal, -1, SIGUSR1, (long)&si, 0);
	/* priorities' range by policy, an unknown one */
	syscall(SYS_sched_get_priority_min, SCHED_FIFO);
	syscall(SYS_sched_get_priority_max, SCHED_RR);
	syscall(SYS_sched_get_priority_max, 0xdefaced00000000UL | 9);
	return 0;
}
