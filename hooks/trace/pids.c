/* SPDX-License-Identifier: MIT */
/*
 * Process ids in arguments and results, with what --decode-pids asks for
 * after them.
 */
#include "trace.h"

void p_pid(struct fmt *f, const struct sysgate_sys *s, int pid, int type)
{
	(void)s;
	(void)type;
	fmt_dec(f, pid);
}
