/* SPDX-License-Identifier: MIT */
/* perf_event_open: a software counter of this process (opened where
 * perf_event_paranoid allows), attributes too long for the kernel
 * (E2BIG: the size it wants back) and of each type, and perf's ioctls on
 * the counter. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

int main(void)
{
	static union {
		struct perf_event_attr a;
		unsigned char b[256];
	} u;
	unsigned long long v = 1000;
	long fd;

	memset(&u, 0, sizeof(u));
	u.a.type = PERF_TYPE_SOFTWARE;
	u.a.size = PERF_ATTR_SIZE_VER5;
	u.a.config = PERF_COUNT_SW_CPU_CLOCK;
	u.a.disabled = 1;
	u.a.exclude_kernel = 1;
	u.a.exclude_hv = 1;
	begin();
	fd = syscall(SYS_perf_event_open, &u.a, 0, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	/* (the counter's id differs from run to run: none is asked) */
	ioctl(-1, PERF_EVENT_IOC_ID, &v);
	ioctl(fd, PERF_EVENT_IOC_PERIOD, &v);
	ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "filter");
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(fd);
	/* (bytes past the kernel's structure that are not zero) */
	u.a.size = 200;
	u.b[190] = 1;
	syscall(SYS_perf_event_open, &u.a, 0, -1, -1, 0);
	u.b[190] = 0;
	u.a.size = PERF_ATTR_SIZE_VER0;
	u.a.type = PERF_TYPE_HW_CACHE;
	u.a.config = PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_WRITE << 8 |
		     PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	u.a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	u.a.precise_ip = 2;
	syscall(SYS_perf_event_open, &u.a, -2, -1, -1, 0);
	u.a.type = PERF_TYPE_BREAKPOINT;
	u.a.bp_type = 3;
	u.a.size = 40;
	syscall(SYS_perf_event_open, &u.a, -2, -1, -1, 0);
	syscall(SYS_perf_event_open, NULL, 0, 0, -1, 0x10);
	return 0;
}
