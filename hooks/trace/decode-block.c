/* SPDX-License-Identifier: MIT */
/*
 * ioctl on block devices (0x12 requests) whose argument is a structure:
 * partition changes (BLKPG), block trace setup (its buffer's name once
 * the kernel filled it) and the ranges to discard or zero, as strace
 * prints them.  Numbers in and out are decode-ioctl.c's kinds.
 */
#include <linux/fs.h>
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include "trace.h"

static void k_blkpg(struct call *c, unsigned long arg)
{
	struct blkpg_ioctl_arg a;
	struct blkpg_partition p;
	struct fmt *f = c->f;

	if (fetch_arg(c, &a, arg, sizeof(a), 0))
		return;
	fmt_str(f, "{op=");
	p_xlat(f, (unsigned int)a.op, &xl_blkpg_ops, "BLKPG_???");
	fmt_str(f, ", ");
	f_ints(f, "flags datalen", &a.flags, 2, 'd');
	fmt_str(f, ", data=");
	if (!fetch(f, c->s, &p, (unsigned long)a.data, sizeof(p))) {
		f_dec(f, "{start=", p.start);
		f_dec(f, ", length=", p.length);
		f_dec(f, ", pno=", p.pno);
		fmt_str(f, ", devname=");
		p_cstring(f, p.devname, sizeof(p.devname));
		fmt_str(f, ", volname=");
		p_cstring(f, p.volname, sizeof(p.volname));
		fmt_chr(f, '}');
	}
	fmt_chr(f, '}');
}

/* [start, length] of the range to discard or zero */
static void k_range(struct call *c, unsigned long arg)
{
	unsigned long long r[2];

	if (fetch_arg(c, r, arg, sizeof(r), 0))
		return;
	f_udec(c->f, "[", r[0]);
	f_udec(c->f, ", ", r[1]);
	fmt_chr(c->f, ']');
}

/* The trace's parameters; the name of its buffers, which the kernel
 * gives, once the call succeeded */
static void k_trace_setup(struct call *c, unsigned long arg)
{
	struct blk_user_trace_setup b;
	struct fmt *f = c->f;

	if (fetch_arg(c, &b, arg, sizeof(b), 0))
		return;
	f_udec(f, "{act_mask=", b.act_mask);
	fmt_str(f, ", ");
	f_ints(f, "buf_size buf_nr", &b.buf_size, 2, 'u');
	f_udec(f, ", start_lba=", b.start_lba);
	f_udec(f, ", end_lba=", b.end_lba);
	fmt_str(f, ", pid=");
	p_pid(f, (int)b.pid, PT_TGID);
	if (c_ok(c)) {
		fmt_str(f, ", name=");
		p_cstring(f, b.name, sizeof(b.name));
	}
	fmt_chr(f, '}');
}

int ioctl_block(struct call *c, unsigned int req, unsigned long arg)
{
	if (!ioctl_name(c, req, 0x12, &xl_ioctl_block))
		return 0;
	if (req == BLKPG)
		k_blkpg(c, arg);
	else if (req == BLKTRACESETUP)
		k_trace_setup(c, arg);
	else
		k_range(c, arg);
	return 1;
}
