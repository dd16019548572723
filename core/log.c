/* SPDX-License-Identifier: MIT */
/* One-line diagnostics, "sysgate: ...", to the sysgate output. */
#include "sg.h"

/* Copies src into dst (size bytes, always terminated) with control
 * characters as \xHH: a message quotes what a user or a program gave
 * (an option, a path), which must not be able to drive the terminal or
 * forge a second line. */
size_t sg_escape_controls(char *dst, size_t size, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (; *src && n + 5 < size; src++) {
		unsigned char c = (unsigned char)*src;

		if (c < 0x20 || c == 0x7f) {
			dst[n++] = '\\';
			dst[n++] = 'x';
			dst[n++] = hex[c >> 4];
			dst[n++] = hex[c & 15];
		} else {
			dst[n++] = (char)c;
		}
	}
	dst[n] = 0;
	return n;
}

void sg_warn(const char *msg)
{
	char buf[512];
	size_t n = sg_strlcpy(buf, "sysgate: ", sizeof(buf));

	n += sg_escape_controls(buf + n, sizeof(buf) - n - 1, msg);
	buf[n++] = '\n';
	sg_write_all(sg.out_fd > 2 ? sg.out_fd : 2, buf, n);
}

void sg_die(const char *msg)
{
	sg_warn(msg);
	for (;;)
		sg_sc1(SG_NR_exit_group, 1);
}
