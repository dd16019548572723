/* SPDX-License-Identifier: MIT */
/*
 * A clock the vDSO cannot read itself (a CPU-time clock) makes its
 * system call from the vDSO's own code: a site sysgate plans at its
 * first trap (not at every start), hooked from the first call on, as
 * every other site.  (list.sh counts them against strace.)
 */
#include <time.h>
#include "../lib/util.h"

int main(void)
{
	struct timespec a, b;
	int i;

	for (i = 0; i < 10; i++) {
		test_assert(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a) == 0);
		test_assert(clock_gettime(CLOCK_MONOTONIC, &b) == 0);
	}
	atomic_puts("10 process CPU times read");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
