/* SPDX-License-Identifier: MIT */
/*
 * Calls that do not return, made to fail: exit_group then exit, by
 * number.  Untouched, the first ends the process ("exit_group(0) = ?"
 * and its exit line); with -e fault=exit_group (list.sh) it fails, and
 * the trace must show that failure, not the end, then the exit that
 * does end it.
 */
#include "corpus.h"
#include <sys/syscall.h>

int main(void)
{
	begin();
	syscall(__NR_exit_group, 0);
	syscall(__NR_exit, 0);
	return 1;
}
