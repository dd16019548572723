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

/* futex_waitv: waiters that cannot all be read, flags strace does not
 * name, an empty array, and a wait that times out */
static void futex_waitv(int *a, int *b, struct timespec *ts)
{
	static struct futex_waitv w[3];

	w[0].uaddr = (unsigned long)a;
	w[0].val = 7;
	w[0].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
	w[1].uaddr = (unsigned long)b;
	w[1].flags = FUTEX_32 | 0x100;
	w[2].flags = 0x400;
	w[2].__reserved = 1;
	syscall(SYS_futex_waitv, w, 3, 0, NULL, CLOCK_MONOTONIC);
	syscall(SYS_futex_waitv, w, 0, 1, NULL, -1);
	w[1].flags = FUTEX_32;
	syscall(SYS_futex_waitv, w, 2, 0, ts, CLOCK_MONOTONIC);
	syscall(SYS_futex_waitv, NULL, 1, 0, NULL, CLOCK_REALTIME);
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
	/* values strace prints unsigned, FUTEX_WAKE_OP's operation, ops it
	 * does not name (a flag with a command that does not take it, an
	 * unknown bit or command) */
	futex(&word, FUTEX_WAKE, -5, NULL, NULL, 0);
	futex(&word, FUTEX_CMP_REQUEUE, -1, (void *)-2, &other, -3);
	futex(&word, FUTEX_WAKE_OP_PRIVATE, 1, 0, &other,
	      FUTEX_OP(FUTEX_OP_ADD, 0x345, FUTEX_OP_CMP_LT, 0x678));
	futex(&word, FUTEX_WAKE_OP, 1, 0, &other, 0xfd000fff);
	futex(&word, FUTEX_FD | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
	futex(&word, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0);
	futex(&word, FUTEX_WAKE | 0x200, 1, NULL, NULL, 0);
	futex(&word, 0x55, 1, (void *)2, (void *)3, 4);
	futex_waitv(&word, &other, &ts);
	return 0;
}
