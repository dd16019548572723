/* SPDX-License-Identifier: MIT */
/* Time: sleeps, clocks (as system calls, not the vDSO), timerfd,
 * eventfd, itimers, POSIX timers, file times (the date comment only
 * where strace gives one: not for 0, nanoseconds out of range, years no
 * struct tm holds). */
#include "corpus.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec times[2] = { { 1577836800, 0 }, { 0, UTIME_OMIT } };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGALRM };
	timer_t tid;
	struct timespec ts = { 0, 1000 }, rem;
	struct itimerspec its = { { 0, 0 }, { 0, 5000000 } }, old;
	struct itimerval itv = { { 0, 0 }, { 0, 0 } };
	unsigned long long v;
	int fd;

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	check(nanosleep(&ts, &rem) == 0, "nanosleep");
	check(clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL) == 0, "clock_nanosleep");
	check(syscall(SYS_clock_getres, CLOCK_MONOTONIC, &ts) == 0, "clock_getres");
	check(syscall(SYS_clock_gettime, CLOCK_BOOTTIME, NULL) < 0, "clock_gettime");
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	check(fd >= 0, "timerfd_create");
	check(timerfd_settime(fd, 0, &its, &old) == 0, "timerfd_settime");
	its.it_value.tv_nsec = 0;
	check(timerfd_settime(fd, 0, &its, NULL) == 0, "timerfd_settime");
	close(fd);
	fd = eventfd(3, EFD_CLOEXEC | EFD_NONBLOCK);
	check(fd >= 0, "eventfd");
	check(read(fd, &v, sizeof(v)) == 8, "read");
	close(fd);
	check(setitimer(ITIMER_REAL, &itv, NULL) == 0, "setitimer");
	check(getitimer(ITIMER_VIRTUAL, &itv) == 0, "getitimer");
	check(alarm(0) == 0, "alarm");
	check(timer_create(CLOCK_MONOTONIC, &sev, &tid) == 0, "timer_create");
	check(timer_settime(tid, 0, &its, NULL) == 0, "timer_settime");
	check(timer_delete(tid) == 0, "timer_delete");
	fd = open("t", O_WRONLY | O_CREAT, 0600);
	check(futimens(fd, times) == 0, "futimens");
	times[1].tv_nsec = UTIME_NOW;
	times[0].tv_nsec = 500000000;
	check(utimensat(AT_FDCWD, "t", times, AT_SYMLINK_NOFOLLOW) == 0, "utimensat");
	/* a summer date: daylight saving time where the zone has it */
	times[0].tv_sec = 1593561600;	/* 2020-07-01 */
	check(utimensat(AT_FDCWD, "t", times, 0) == 0, "utimensat");
	{
		struct timespec odd[2] = { { 0, 0 }, { -1, 2000000000 } };

		utimensat(AT_FDCWD, "nonexistent", odd, 0);
		odd[0].tv_sec = -3819351491602432273L;
		odd[1].tv_sec = 0x7fffffffffffffffL;
		odd[1].tv_nsec = 1;
		utimensat(AT_FDCWD, "nonexistent", odd, 0);
	}
	close(fd);
	unlink("t");
	{
		/* nanoseconds and microseconds as strace's unsigned */
		struct timespec bad = { 1, -5 };
		struct itimerval it = { { 0, -7 }, { 0, 0 } };

		syscall(SYS_clock_settime, CLOCK_REALTIME, &bad);
		syscall(SYS_setitimer, ITIMER_REAL, &it, NULL);
	}
	{
		/* the older calls: microsecond pairs (a bad one: no date),
		 * utime's seconds, a time zone, a clock that cannot be
		 * set (an invalid time: nothing changes) */
		struct timeval tv[2] = { { 1492358607, 345678 },
					 { 1492356078, 1000000 } };
		struct { long actime, modtime; } ut = { 1492350678, 0 };
		struct timezone tz;

		syscall(SYS_utimes, "t", tv);
		syscall(SYS_futimesat, AT_FDCWD, "nonexistent", tv);
		syscall(SYS_utimes, "t", NULL);
		syscall(SYS_utime, "t", &ut);
		syscall(SYS_gettimeofday, NULL, &tz);
		tv[0].tv_usec = 1000000;
		syscall(SYS_settimeofday, &tv[0], NULL);
		syscall(SYS_time, (void *)8);
	}
	/* the clock's adjustments: failing ones (a working one's struct
	 * holds the time, which differs from run to run) */
	syscall(SYS_adjtimex, NULL);
	syscall(SYS_clock_adjtime, -1, NULL);
	syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, (void *)8);
	return 0;
}
