/* SPDX-License-Identifier: MIT */
/* ptrace's requests by the kind of what they take, each refused (the
 * process is no tracee of its own, so the calls fail alike under strace
 * and sysgate): the pid alone, a signal to deliver, options, signal
 * masks, siginfos of several kinds, PEEKSIGINFO's arguments, seccomp
 * metadata, and register sets as given (SETREGSET shows them, whole
 * and cut, GETREGSET's failure the address).  Not PEEKUSER and
 * POKEUSER, whose offsets strace names and sysgate does not. */
#include "corpus.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/ptrace.h>
#include <linux/elf.h>

static long pt(long req, long pid, void *addr, long data)
{
	return syscall(SYS_ptrace, req, pid, addr, data);
}

static void siginfos(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_MAPERR;
	si.si_addr = (void *)0x1234;
	pt(PTRACE_SETSIGINFO, pid, 0, (long)&si);
	si.si_signo = SIGIO;
	si.si_code = POLL_IN;
	si.si_band = -3;
	si.si_fd = 1;	/* open: -y names it */
	pt(PTRACE_SETSIGINFO, pid, 0, (long)&si);
	si.si_signo = SIGBUS;
	si.si_code = BUS_MCEERR_AR;
	si.si_addr = (void *)0x5000;
	si.si_addr_lsb = 12;
	pt(PTRACE_SETSIGINFO, pid, 0, (long)&si);
	si.si_signo = SIGTRAP;
	si.si_code = 77;
	pt(PTRACE_SETSIGINFO, pid, 0, (long)&si);
	si.si_signo = SIGSYS;
	si.si_code = 1;	/* SYS_SECCOMP */
	si.si_syscall = SYS_getpid;
	si.si_arch = 0xc000003e;
	pt(PTRACE_SETSIGINFO, pid, 0, (long)&si);
	pt(PTRACE_GETSIGINFO, pid, 0, (long)&si);
}

static void regsets(pid_t pid)
{
	unsigned long regs[80];
	struct iovec iov = { regs, 24 };

	fill_bytes(regs, sizeof(regs), 1, 3);
	pt(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, (long)&iov);
	iov.iov_len = 5;
	pt(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, (long)&iov);
	iov.iov_len = 48;
	pt(PTRACE_SETREGSET, pid, (void *)NT_PRFPREG, (long)&iov);
	iov.iov_len = 600;
	pt(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, (long)&iov);
	pt(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, (long)&iov);
	pt(PTRACE_GETREGSET, pid, (void *)0x7777, (long)&iov);
	pt(PTRACE_SETREGS, pid, 0, (long)regs);
	pt(PTRACE_GETFPREGS, pid, 0, (long)regs);
}

int main(void)
{
	pid_t pid = getpid();
	struct ptrace_peeksiginfo_args psi = { 3, PTRACE_PEEKSIGINFO_SHARED, 4 };
	unsigned long long meta[2] = { 7, 0 };
	sigset_t set;

	begin();
	pt(0x4321, pid, 0, 0);
	pt(PTRACE_PEEKDATA, pid, (void *)0x1000, 0);
	pt(PTRACE_POKEDATA, pid, (void *)8, 0x55);
	pt(PTRACE_INTERRUPT, pid, 0, 0);
	pt(PTRACE_CONT, pid, 0, SIGUSR1);
	pt(PTRACE_SYSCALL, pid, 0, 0);
	pt(PTRACE_DETACH, pid, 0, SIGTERM);
	pt(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD |
	   PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
	pt(PTRACE_SEIZE, pid, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pt(PTRACE_SETSIGMASK, pid, (void *)8, (long)&set);
	pt(PTRACE_GETSIGMASK, pid, (void *)8, (long)&set);
	pt(PTRACE_PEEKSIGINFO, pid, &psi, (long)&meta);
	pt(PTRACE_SECCOMP_GET_METADATA, pid, (void *)sizeof(meta),
	   (long)meta);
	pt(PTRACE_SECCOMP_GET_METADATA, pid, (void *)4, (long)meta);
	pt(PTRACE_GETEVENTMSG, pid, 0, (long)meta);
	siginfos(pid);
	regsets(pid);
	return 0;
}
