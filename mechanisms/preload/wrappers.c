/* SPDX-License-Identifier: MIT */
/*
 * libsysgate-preload.so: the `preload` mechanism.  It interposes libc's
 * system call wrappers by symbol, as LD_PRELOAD tools do, and hands each
 * call to sysgate's hook chain (sg_preload_call in libsysgate.so).
 *
 * Fast, and blind by design: calls libc makes internally (printf's write,
 * the dynamic loader's opens), inline syscalls and other libraries' raw
 * syscalls never pass through a symbol, so they are not seen.  fork,
 * vfork, clone and exit are left to libc (they run atfork handlers and
 * thread bookkeeping that a bare system call would skip).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/types.h>

long sg_preload_call(long nr, long a, long b, long c, long d, long e, long f);

static long ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define CALL(nr, a, b, c, d, e, f) \
	ret(sg_preload_call(nr, (long)(a), (long)(b), (long)(c), (long)(d), \
			    (long)(e), (long)(f)))

/* name(args) -> syscall nr with up to six arguments */
#define W0(type, name, nr) \
	type name(void) { return (type)CALL(nr, 0, 0, 0, 0, 0, 0); }
#define W1(type, name, nr, t1) \
	type name(t1 a) { return (type)CALL(nr, a, 0, 0, 0, 0, 0); }
#define W2(type, name, nr, t1, t2) \
	type name(t1 a, t2 b) { return (type)CALL(nr, a, b, 0, 0, 0, 0); }
#define W3(type, name, nr, t1, t2, t3) \
	type name(t1 a, t2 b, t3 c) { return (type)CALL(nr, a, b, c, 0, 0, 0); }
#define W4(type, name, nr, t1, t2, t3, t4) \
	type name(t1 a, t2 b, t3 c, t4 d) \
	{ return (type)CALL(nr, a, b, c, d, 0, 0); }
#define W6(type, name, nr, t1, t2, t3, t4, t5, t6) \
	type name(t1 a, t2 b, t3 c, t4 d, t5 e, t6 f) \
	{ return (type)CALL(nr, a, b, c, d, e, f); }

W3(ssize_t, read, SYS_read, int, void *, size_t)
W3(ssize_t, write, SYS_write, int, const void *, size_t)
W4(ssize_t, pread64, SYS_pread64, int, void *, size_t, off_t)
W4(ssize_t, pwrite64, SYS_pwrite64, int, const void *, size_t, off_t)
W4(ssize_t, pread, SYS_pread64, int, void *, size_t, off_t)
W4(ssize_t, pwrite, SYS_pwrite64, int, const void *, size_t, off_t)
W3(ssize_t, readv, SYS_readv, int, const void *, int)
W3(ssize_t, writev, SYS_writev, int, const void *, int)
W1(int, close, SYS_close, int)
W3(off_t, lseek, SYS_lseek, int, off_t, int)
W1(int, dup, SYS_dup, int)
/* (sysgate keeps its descriptors above the RLIMIT_NOFILE a program sets) */
W2(int, setrlimit, SYS_setrlimit, int, const void *)
W2(int, setrlimit64, SYS_setrlimit, int, const void *)
W4(int, prlimit, SYS_prlimit64, pid_t, int, const void *, void *)
W4(int, prlimit64, SYS_prlimit64, pid_t, int, const void *, void *)
W2(int, dup2, SYS_dup2, int, int)
W1(int, pipe, SYS_pipe, int *)
W2(int, pipe2, SYS_pipe2, int *, int)
W0(pid_t, getpid, SYS_getpid)
W0(pid_t, getppid, SYS_getppid)
W0(uid_t, getuid, SYS_getuid)
W0(uid_t, geteuid, SYS_geteuid)
W2(int, kill, SYS_kill, pid_t, int)
/* (the core keeps track of alternate signal stacks: core/signal.c) */
W2(int, sigaltstack, SYS_sigaltstack, const void *, void *)
W2(int, access, SYS_access, const char *, int)
W1(int, unlink, SYS_unlink, const char *)
W2(int, mkdir, SYS_mkdir, const char *, mode_t)
W1(int, rmdir, SYS_rmdir, const char *)
W2(int, rename, SYS_rename, const char *, const char *)
W1(int, chdir, SYS_chdir, const char *)
W1(int, fsync, SYS_fsync, int)
W3(int, socket, SYS_socket, int, int, int)
W3(int, connect, SYS_connect, int, const void *, unsigned int)
W3(int, bind, SYS_bind, int, const void *, unsigned int)
W2(int, listen, SYS_listen, int, int)
W3(int, accept, SYS_accept, int, void *, void *)
W6(ssize_t, sendto, SYS_sendto, int, const void *, size_t, int, const void *,
   unsigned int)
W6(ssize_t, recvfrom, SYS_recvfrom, int, void *, size_t, int, void *, void *)
W2(int, munmap, SYS_munmap, void *, size_t)
W3(int, mprotect, SYS_mprotect, void *, size_t, int)
W2(int, nanosleep, SYS_nanosleep, const void *, void *)
W3(int, execve, SYS_execve, const char *, char *const *, char *const *)

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = sg_preload_call(SYS_mmap, (long)addr, (long)len, prot, flags,
				 fd, off);

	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return (void *)-1;
	}
	return (void *)r;
}

/* The mode argument exists only when a file may be created. */
#define OPEN_MODE(flags, last, mode)					\
	do {								\
		va_list ap_;						\
									\
		if ((flags) & (O_CREAT | __O_TMPFILE)) {		\
			va_start(ap_, last);				\
			mode = va_arg(ap_, int);			\
			va_end(ap_);					\
		}							\
	} while (0)

int open(const char *path, int flags, ...)
{
	long mode = 0;

	OPEN_MODE(flags, flags, mode);
	return (int)CALL(SYS_openat, AT_FDCWD, path, flags, mode, 0, 0);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	long mode = 0;

	OPEN_MODE(flags, flags, mode);
	return (int)CALL(SYS_openat, dirfd, path, flags, mode, 0, 0);
}

/* fcntl and ioctl: one optional argument, passed on as it came. */
#define ONE_MORE(last, arg)						\
	do {								\
		va_list ap_;						\
									\
		va_start(ap_, last);					\
		arg = va_arg(ap_, long);				\
		va_end(ap_);						\
	} while (0)

int fcntl(int fd, int cmd, ...)
{
	long arg;

	ONE_MORE(cmd, arg);
	return (int)CALL(SYS_fcntl, fd, cmd, arg, 0, 0, 0);
}

int ioctl(int fd, unsigned long req, ...)
{
	long arg;

	ONE_MORE(req, arg);
	return (int)CALL(SYS_ioctl, fd, req, arg, 0, 0, 0);
}

/* prctl: four more arguments, read as libc reads them (callers pass the
 * zeros the kernel checks).  Seen so that a program's PR_SET_TSC stops
 * sysgate's own use of the time-stamp counter. */
int prctl(int option, ...)
{
	va_list ap;
	unsigned long a[4];
	int i;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	return (int)CALL(SYS_prctl, option, a[0], a[1], a[2], a[3], 0);
}

/* syscall(2): the one door to every call; libc's own still bypasses it. */
long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return CALL(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
