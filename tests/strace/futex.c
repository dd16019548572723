/* SPDX-License-Identifier: MIT */
/* futex operations, each with the arguments strace prints for it. */
#include "corpus.h"
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>

static long futex(int *uaddr, int op, int val, const struct timespec *ts,
		  int *uaddr2, int val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

int main(void)
{
	static int word = 1, other;
	struct timespec ts = { 0, 1000 };

	begin();
	check(futex(&word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0) == 0, "WAKE");
	check(futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0) == 0, "WAKE");
	check(futex(&word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) < 0, "WAIT");
	check(futex(&word, FUTEX_WAIT, 1, &ts, NULL, 0) < 0, "WAIT timeout");
	check(futex(&word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0,
		    &ts, NULL, FUTEX_BITSET_MATCH_ANY) < 0, "WAIT_BITSET");
	check(futex(&word, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL,
		    FUTEX_BITSET_MATCH_ANY) == 0, "WAKE_BITSET");
	check(futex(&word, FUTEX_REQUEUE_PRIVATE, 1, (void *)2, &other, 0) == 0,
	      "REQUEUE");
	check(futex(&word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2, &other, 1) == 0,
	      "CMP_REQUEUE");
	return 0;
}
