/* SPDX-License-Identifier: MIT */
/*
 * sysclass.c - which system calls a GPU may make, and how to check them.
 *
 * The GENESYS appendix sorts every Linux system call into three classes:
 * useful and implementable (served), useful but not implementable today
 * (refused), and not meaningful on a GPU (refused).  Calls absent from this
 * table are refused too: the runtime must know every pointer argument of a
 * call before it may run it, and only this table says where they are.
 * Numbers come from <sys/syscall.h>; calls an architecture lacks are left
 * out with #ifdef on the SYS_ macro (that is data, not arch logic).
 *
 * The appendix's own verdict comes from sysgate's syscall table
 * (info->viable); the class here is the runtime's decision, which also
 * refuses calls the appendix calls viable but that make no sense for a
 * lane served by a host thread (clone, exit, gettid...).
 */
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <pthread.h>

#include "sysgate_gpu.h"
#include "sysgate_gpu_int.h"
#include "syscalls.h"		/* generated: sysgate's syscall table */

_Static_assert(SYSGATE_GPU_VIABLE_YES == SG_GPU_YES && SYSGATE_GPU_VIABLE_LIMITED == SG_GPU_LIMITED &&
		       SYSGATE_GPU_VIABLE_NO == SG_GPU_NO &&
		       SYSGATE_GPU_VIABLE_UNLISTED == SG_GPU_UNLISTED,
	       "viability values follow the syscall table's");

static enum sysgate_gpu_viable viable(long nr)
{
	if (nr < 0 || nr >= SG_NSYSCALLS || !sg_syscall_table[nr].name)
		return SYSGATE_GPU_VIABLE_UNLISTED;
	return (enum sysgate_gpu_viable)sg_syscall_table[nr].gpu;
}

#define USEFUL SYSGATE_GPU_CLASS_USEFUL
#define LATER SYSGATE_GPU_CLASS_LATER
#define USELESS SYSGATE_GPU_CLASS_USELESS
#define PROD SYSGATE_GPU_ROLE_PRODUCER
#define CONS SYSGATE_GPU_ROLE_CONSUMER

/* pointer specifications */
#define BUF(a, l) { .arg = (a), .len_arg = (l), .kind = PS_BUF }
#define FIX(a, n) { .arg = (a), .len_arg = -1, .fixed = (n), .kind = PS_BUF }
#define FIXN(a, n) { .arg = (a), .len_arg = -1, .fixed = (n), \
		     .kind = PS_BUF | PS_NULLOK }
#define BUFN(a, l) { .arg = (a), .len_arg = (l), .kind = PS_BUF | PS_NULLOK }
#define STR(a) { .arg = (a), .len_arg = -1, .kind = PS_STR }
#define LENP(a, l) { .arg = (a), .len_arg = (l), \
		     .kind = PS_LENPTR | PS_NULLOK }
#define MAPPED(a, l) { .arg = (a), .len_arg = (l), .kind = PS_MAPPED }
#define ADVISE(a, l) { .arg = (a), .len_arg = (l), .kind = PS_ADVISE }
#define NONE { .arg = -1 }

#define BULK(a, l) { .arg = (a), .len_arg = (l), .kind = PS_BUF | PS_BULK }
#define FIXMAP(a, l) { .arg = (a), .len_arg = (l), .kind = PS_FIXMAP }

#define E(n, c, r, u, ...) { .nr = SYS_##n, .name = #n, .cls = (c), \
	.role = (r), .uring = (u), .ptr = { __VA_ARGS__ } }
/* The same, for a call that may block indefinitely. */
#define EB(n, c, r, u, ...) { .nr = SYS_##n, .name = #n, .cls = (c), \
	.role = (r), .uring = (u), .block = 1, .ptr = { __VA_ARGS__ } }
#define R(n, c, w) { .nr = SYS_##n, .name = #n, .cls = (c), \
	.why = (w), .ptr = { NONE } }

static const char why_proc[] =
	"creates or replaces a process or thread; a GPU lane has no CPU "
	"context to copy or replace";
static const char why_thread[] =
	"acts on the calling CPU thread, which would be the runtime's server "
	"thread, not the GPU lane";
static const char why_signal[] =
	"signals need a kernel representation of a GPU lane to deliver to";

const struct sg_sysent sg_systab[] = {
	/* class 1: served */
	EB(read, USEFUL, CONS, 1, BULK(1, 2)),
	EB(write, USEFUL, PROD, 1, BULK(1, 2)),
	E(pread64, USEFUL, CONS, 1, BULK(1, 2)),
	E(pwrite64, USEFUL, PROD, 1, BULK(1, 2)),
	/* opening a FIFO waits for the other end */
#ifdef SYS_open
	EB(open, USEFUL, 0, 0, STR(0)),
#endif
	EB(openat, USEFUL, 0, 0, STR(1)),
	E(close, USEFUL, 0, 1, NONE),
	E(lseek, USEFUL, 0, 0, NONE),
	E(fstat, USEFUL, CONS, 0, FIX(1, sizeof(struct stat))),
#ifdef SYS_newfstatat
	E(newfstatat, USEFUL, CONS, 0, STR(1), FIX(2, sizeof(struct stat))),
#endif
	E(fsync, USEFUL, PROD, 1, NONE),
	E(fdatasync, USEFUL, PROD, 1, NONE),
	E(ftruncate, USEFUL, PROD, 0, NONE),
	E(unlinkat, USEFUL, 0, 0, STR(1)),
	E(mkdirat, USEFUL, 0, 0, STR(1)),
	EB(sendto, USEFUL, PROD, 0, BUF(1, 2), BUFN(4, 5)),
	EB(recvfrom, USEFUL, CONS, 0, BUF(1, 2), LENP(4, 5),
	  FIXN(5, sizeof(socklen_t))),
	E(socket, USEFUL, 0, 0, NONE),
	E(bind, USEFUL, 0, 0, BUF(1, 2)),
	EB(connect, USEFUL, 0, 0, BUF(1, 2)),
	E(listen, USEFUL, 0, 0, NONE),
	E(shutdown, USEFUL, 0, 0, NONE),
	E(dup, USEFUL, 0, 0, NONE),
	E(pipe2, USEFUL, CONS, 0, FIX(0, 2 * sizeof(int))),
	E(mmap, USEFUL, 0, 0, FIXMAP(0, 1)),
	E(munmap, USEFUL, PROD, 0, MAPPED(0, 1)),
	E(madvise, USEFUL, PROD, 0, ADVISE(0, 1)),
	E(getpid, USEFUL, 0, 0, NONE),
	E(getppid, USEFUL, 0, 0, NONE),
	E(getuid, USEFUL, 0, 0, NONE),
	E(sched_yield, USEFUL, 0, 0, NONE),
	E(clock_gettime, USEFUL, CONS, 0, FIX(1, sizeof(struct timespec))),
	EB(nanosleep, USEFUL, 0, 0, FIX(0, sizeof(struct timespec)),
	  FIXN(1, sizeof(struct timespec))),
	E(getrusage, USEFUL, CONS, 0, FIX(1, sizeof(struct rusage))),
	E(getrandom, USEFUL, CONS, 0, BUF(0, 1)),

	/* class 2: useful, not implementable without a lane in the kernel */
	R(rt_sigaction, LATER, why_signal),
	R(rt_sigprocmask, LATER, why_signal),
	R(rt_sigsuspend, LATER, why_signal),
#ifdef SYS_pause
	R(pause, LATER, why_signal),
#endif
	R(sched_setaffinity, LATER,
	  "the GPU's thread scheduler is not software-programmable"),
	R(sched_getaffinity, LATER,
	  "the GPU's thread scheduler is not software-programmable"),
	R(futex, LATER, "a GPU lane cannot be put to sleep by the kernel"),
	R(ioctl, LATER,
	  "request-specific argument layouts cannot be checked generically"),

	/* class 3: not meaningful on a GPU */
#ifdef SYS_fork
	R(fork, USELESS, why_proc),
#endif
#ifdef SYS_vfork
	R(vfork, USELESS, why_proc),
#endif
	R(clone, USELESS, why_proc),
#ifdef SYS_clone3
	R(clone3, USELESS, why_proc),
#endif
	R(execve, USELESS, why_proc),
	R(execveat, USELESS, why_proc),
	R(exit, USELESS, "would end the runtime's server thread"),
	R(exit_group, USELESS, "would end the whole host process"),
	R(sigaltstack, USELESS, why_thread),
	R(set_tid_address, USELESS, why_thread),
	R(set_robust_list, USELESS, why_thread),
	R(rt_sigreturn, USELESS, why_thread),
	R(gettid, USELESS, why_thread),
#ifdef SYS_arch_prctl
	R(arch_prctl, USELESS, why_thread),
#endif
	R(ptrace, USELESS, "a GPU lane cannot trace CPU processes"),
	R(unshare, USELESS, why_thread),
	R(seccomp, USELESS, why_thread),
};
const unsigned sg_systab_len = sizeof(sg_systab) / sizeof(sg_systab[0]);

static short sg_index[SG_NR_LIMIT];
static pthread_once_t sg_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	for (unsigned i = 0; i < SG_NR_LIMIT; i++)
		sg_index[i] = -1;
	for (unsigned i = 0; i < sg_systab_len; i++)
		if (sg_systab[i].nr >= 0 && sg_systab[i].nr < SG_NR_LIMIT)
			sg_index[sg_systab[i].nr] = (short)i;
}

const struct sg_sysent *sg_lookup(long nr)
{
	pthread_once(&sg_once, build_index);
	if (nr < 0 || nr >= SG_NR_LIMIT || sg_index[nr] < 0)
		return NULL;
	return &sg_systab[sg_index[nr]];
}

void sysgate_gpu_classify(long nr, struct sysgate_gpu_sysinfo *info)
{
	const struct sg_sysent *e = sg_lookup(nr);

	info->viable = viable(nr);
	if (!e) {
		info->name = NULL;
		info->cls = SYSGATE_GPU_CLASS_UNKNOWN;
		info->role = 0;
		info->why = "not classified for GPU use; its pointer "
			    "arguments are unknown to the runtime";
		return;
	}
	info->name = e->name;
	info->cls = (enum sysgate_gpu_class)e->cls;
	info->role = e->role;
	info->why = e->why;
}
