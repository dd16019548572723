/* SPDX-License-Identifier: MIT */
/*
 * ioctl on userfaultfd descriptors (linux/userfaultfd.h) as strace 6.1
 * prints them: the handshake (UFFDIO_API: the features asked for, " => "
 * those granted when they differ, the ioctls allowed), registering and
 * waking ranges, copying and zeroing pages (and how much was done, once
 * returned).  UFFDIO_API keeps the features asked for at entry: the
 * kernel overwrites them.
 */
#include <linux/ioctl.h>
#include <linux/userfaultfd.h>
#include "trace.h"

_Static_assert(sizeof(struct uffdio_register) ==
		       sizeof(struct uffdio_zeropage) &&
	       __builtin_offsetof(struct uffdio_register, ioctls) ==
		       __builtin_offsetof(struct uffdio_zeropage, zeropage),
	       "REGISTER's and ZEROPAGE's structs share a layout");

static void p_range(struct fmt *f, const struct uffdio_range *r)
{
	fmt_str(f, "{start=");
	p_hex(f, r->start);
	fmt_str(f, ", len=");
	p_hex(f, r->len);
	fmt_chr(f, '}');
}

static void p_features(struct fmt *f, unsigned long long v)
{
	p_flags_unknown(f, v, &xl_uffd_api_features, "UFFD_FEATURE_???");
}

static void k_api(struct call *c, unsigned long arg)
{
	struct uffdio_api a;
	struct fmt *f = c->f;
	unsigned long long asked;

	if (fetch_arg(c, &a, arg, sizeof(a), 0))
		return;
	asked = trace_saved(c)[0] ? trace_saved(c)[1] : a.features;
	fmt_str(f, "{api=");
	p_hex(f, a.api);
	fmt_str(f, ", features=");
	p_features(f, asked);
	if (c_ok(c)) {
		if (a.features != asked) {
			fmt_str(f, " => features=");
			p_features(f, a.features);
		}
		fmt_str(f, ", ioctls=");
		p_bit_flags(f, a.ioctls, &xl_uffd_api_bits, "_UFFDIO_???");
	}
	fmt_chr(f, '}');
}

/* REGISTER and ZEROPAGE (the same layout: a range, a mode, and what
 * the call returns: the ioctls the range allows, the bytes zeroed) */
static void k_range_mode(struct call *c, unsigned long arg, int reg)
{
	struct uffdio_register r;
	struct fmt *f = c->f;

	if (fetch_arg(c, &r, arg, sizeof(r), 0))
		return;
	fmt_str(f, "{range=");
	p_range(f, &r.range);
	fmt_str(f, ", mode=");
	p_flags_unknown(f, r.mode, reg ? &xl_uffd_register_modes :
					 &xl_uffd_zeropage_modes,
			reg ? "UFFDIO_REGISTER_MODE_???" :
			      "UFFDIO_ZEROPAGE_???");
	if (c_ok(c) && reg) {
		fmt_str(f, ", ioctls=");
		p_bit_flags(f, r.ioctls, &xl_uffd_register_bits, "UFFDIO_???");
	} else if (c_ok(c)) {
		fmt_str(f, ", zeropage=");
		p_hex(f, r.ioctls);
	}
	fmt_chr(f, '}');
}

static void k_copy(struct call *c, unsigned long arg)
{
	struct uffdio_copy p;
	struct fmt *f = c->f;

	if (fetch_arg(c, &p, arg, sizeof(p), 0))
		return;
	fmt_str(f, "{dst=");
	p_hex(f, p.dst);
	fmt_str(f, ", src=");
	p_hex(f, p.src);
	fmt_str(f, ", len=");
	p_hex(f, p.len);
	fmt_str(f, ", mode=");
	p_flags_unknown(f, p.mode, &xl_uffd_copy_modes, "UFFDIO_COPY_???");
	if (c_ok(c)) {
		fmt_str(f, ", copy=");
		p_hex(f, p.copy);
	}
	fmt_chr(f, '}');
}

int ioctl_uffd(struct call *c, unsigned int req, unsigned long arg)
{
	struct uffdio_range r;
	const char *nm;

	if (_IOC_TYPE(req) != UFFDIO || !(nm = xlat_name(&xl_ioctl_uffd, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	switch (req) {
	case UFFDIO_API: k_api(c, arg); break;
	case UFFDIO_REGISTER: k_range_mode(c, arg, 1); break;
	case UFFDIO_COPY: k_copy(c, arg); break;
	case UFFDIO_ZEROPAGE: k_range_mode(c, arg, 0); break;
	default:	/* UNREGISTER, WAKE */
		if (!fetch_arg(c, &r, arg, sizeof(r), 0))
			p_range(c->f, &r);
		break;
	}
	return 1;
}

void ioctl_uffd_enter(struct call *c)
{
	struct uffdio_api a;

	trace_saved(c)[0] = (unsigned int)c->s->args[1] == UFFDIO_API &&
			    trace_read(c->s, &a, (void *)c->s->args[2],
				       sizeof(a)) == sizeof(a);
	if (trace_saved(c)[0])
		trace_saved(c)[1] = a.features;
}
