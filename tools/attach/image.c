/* SPDX-License-Identifier: MIT */
/*
 * What the runtime takes from libc, for build/sysgate-attach, the image
 * sysgate -p maps into a running process: there is no libc to call
 * there (the program may be static, or of another C library), and the
 * runtime needs none after start-up but the local time's offset from
 * UTC (the trace's -t), which the CLI works out and passes in.
 */
#include <time.h>
#include "sg.h"

extern long sg_attach_tz_offset SG_HIDDEN;

struct tm *localtime_r(const time_t *t, struct tm *tm)
{
	(void)t;
	memset(tm, 0, sizeof(*tm));
	tm->tm_gmtoff = sg_attach_tz_offset;
	return tm;
}
