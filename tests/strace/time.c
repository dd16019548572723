/* SPDX-License-Identifier: MIT */
/* Time: sleeps, clocks (as system calls, not the vDSO), timerfd,
 * eventfd, itimers. */
#include "corpus.h"
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>

int main(void)
{
	struct timespec ts = { 0, 1000 }, rem;
	struct itimerspec its = { { 0, 0 }, { 0, 5000000 } }, old;
	struct itimerval itv = { { 0, 0 }, { 0, 0 } };
	unsigned long long v;
	int fd;

	begin();
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
	return 0;
}
