/* SPDX-License-Identifier: MIT */
/* One-line diagnostics, "sysgate: ...", to the sysgate output. */
#include "sg.h"

void sg_warn(const char *msg)
{
	char buf[512];
	size_t n = sg_strlcpy(buf, "sysgate: ", sizeof(buf));

	n += sg_strlcpy(buf + n, msg, sizeof(buf) - n - 1);
	if (n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	sg_write_all(sg.out_fd > 2 ? sg.out_fd : 2, buf, n);
}

void sg_die(const char *msg)
{
	sg_warn(msg);
	for (;;)
		sg_sc1(SG_NR_exit_group, 1);
}
