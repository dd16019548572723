/* SPDX-License-Identifier: MIT */
/*
 * build/sysgate-attach, the image sysgate -p maps into a running
 * process: its request handler (entered from arch/<isa>/attach.S) hands
 * the runtime this library's mechanisms and built-in hooks, and what the
 * runtime takes from libc is here: there is no libc to call there (the
 * program may be static, or of another C library), and the runtime needs
 * none after start-up but the local time's offset from UTC (the trace's
 * -t), which the CLI works out and passes in.
 */
#include <time.h>
#include "sg.h"
#include "attach.h"
#include "registry.h"

long sg_attach_request(struct sg_attach_args *a) SG_HIDDEN;

long sg_attach_request(struct sg_attach_args *a)
{
	return sg_attach_main(a, &sg_registry);
}

extern long sg_attach_tz_offset SG_HIDDEN;

struct tm *localtime_r(const time_t *t, struct tm *tm)
{
	(void)t;
	memset(tm, 0, sizeof(*tm));
	tm->tm_gmtoff = sg_attach_tz_offset;
	return tm;
}
