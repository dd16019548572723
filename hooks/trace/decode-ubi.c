/* SPDX-License-Identifier: MIT */
/*
 * ioctl on UBI devices and volumes ('o', 'O') whose argument is a
 * structure: attaching an MTD device, making, renaming, resizing and
 * setting a property of volumes, changing and mapping eraseblocks, as
 * strace prints them; the number the kernel returns of an attach or a
 * new volume follows " => ".  Requests with a number are decode-ioctl.c
 * kinds.
 */
#include <linux/ioctl.h>
#include <mtd/ubi-user.h>
#include "trace.h"

/* A volume name of name_len bytes (its NUL included when it fits) */
static void p_ubi_name(struct fmt *f, const char *name, int len,
		       unsigned long size)
{
	unsigned long n = len < 0 ? 0 : (unsigned long)len;

	fmt_str(f, ", name=");
	p_cstring(f, name, 1 + (n < size - 1 ? n : size - 1));
}

/* " => [N]": the number the kernel wrote at arg, once it succeeded */
static void p_ubi_result(struct call *c, unsigned long arg)
{
	int v;

	if (!c_ok(c) || trace_read(c->s, &v, (void *)arg, sizeof(v)) !=
				sizeof(v))
		return;
	f_dec(c->f, " => [", v);
	fmt_chr(c->f, ']');
}

static void k_mkvol(struct call *c, const struct ubi_mkvol_req *m)
{
	struct fmt *f = c->f;

	f_dec(f, "{vol_id=", m->vol_id);
	f_dec(f, ", alignment=", m->alignment);
	f_dec(f, ", bytes=", m->bytes);
	fmt_str(f, ", vol_type=");
	p_xlat(f, (unsigned char)m->vol_type, &xl_ubi_volume_types,
	       "UBI_???_VOLUME");
	fmt_str(f, ", flags=");
	p_flags_unknown(f, m->flags, &xl_ubi_volume_flags, "UBI_VOL_???");
	f_dec(f, ", name_len=", m->name_len);
	p_ubi_name(f, m->name, m->name_len, sizeof(m->name));
	fmt_chr(f, '}');
}

/* The renames: as many as count says, of those the request holds, cut
 * at -s */
static void k_rnvol(struct call *c, const struct ubi_rnvol_req *r)
{
	struct fmt *f = c->f;
	unsigned long n = r->count < 0 ? 0 : (unsigned long)r->count, i,
		      max = trace_whole(c->s) ? ~0UL : (unsigned long)trace_strsize;

	if (n > UBI_MAX_RNVOL)
		n = UBI_MAX_RNVOL;
	f_dec(f, "{count=", r->count);
	fmt_str(f, ", ents=[");
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(f, ", ");
		if (i >= max) {
			fmt_str(f, "...");
			break;
		}
		f_dec(f, "{vol_id=", r->ents[i].vol_id);
		f_dec(f, ", name_len=", r->ents[i].name_len);
		p_ubi_name(f, r->ents[i].name, r->ents[i].name_len,
			   sizeof(r->ents[i].name));
		fmt_chr(f, '}');
	}
	fmt_str(f, "]}");
}

int ioctl_ubi(struct call *c, unsigned int req, unsigned long arg)
{
	union {
		struct ubi_attach_req att;
		struct ubi_leb_change_req leb;
		struct ubi_map_req map;
		struct ubi_mkvol_req mk;
		struct ubi_rnvol_req rn;
		struct ubi_rsvol_req rs;
		struct ubi_set_vol_prop_req prop;
	} u;
	struct fmt *f = c->f;
	unsigned long size = req == UBI_IOCATT ? sizeof(u.att) :
			     req == UBI_IOCEBCH ? sizeof(u.leb) :
			     req == UBI_IOCEBMAP ? sizeof(u.map) :
			     req == UBI_IOCMKVOL ? sizeof(u.mk) :
			     req == UBI_IOCRNVOL ? sizeof(u.rn) :
			     req == UBI_IOCRSVOL ? sizeof(u.rs) : sizeof(u.prop);

	/* (devices' requests are 'o', volumes' 'O') */
	if (!ioctl_name(c, req, 'o', &xl_ioctl_ubi) &&
	    !ioctl_name(c, req, 'O', &xl_ioctl_ubi))
		return 0;
	if (fetch_arg(c, &u, arg, size, 0))
		return 1;
	switch (req) {
	case UBI_IOCATT:
		f_dec(f, "{ubi_num=", u.att.ubi_num);
		f_dec(f, ", mtd_num=", u.att.mtd_num);
		f_dec(f, ", vid_hdr_offset=", u.att.vid_hdr_offset);
		f_dec(f, ", max_beb_per1024=", u.att.max_beb_per1024);
		fmt_chr(f, '}');
		p_ubi_result(c, arg);
		break;
	case UBI_IOCEBCH: case UBI_IOCEBMAP:
		f_dec(f, "{lnum=", req == UBI_IOCEBCH ? u.leb.lnum :
						       u.map.lnum);
		if (req == UBI_IOCEBCH)
			f_dec(f, ", bytes=", u.leb.bytes);
		fmt_str(f, ", dtype=");
		p_xlat(f, (unsigned char)(req == UBI_IOCEBCH ? u.leb.dtype :
							      u.map.dtype),
		       &xl_ubi_data_types, "UBI_???");
		fmt_chr(f, '}');
		break;
	case UBI_IOCMKVOL:
		k_mkvol(c, &u.mk);
		p_ubi_result(c, arg);
		break;
	case UBI_IOCRNVOL:
		k_rnvol(c, &u.rn);
		break;
	case UBI_IOCRSVOL:
		f_dec(f, "{bytes=", u.rs.bytes);
		f_dec(f, ", vol_id=", u.rs.vol_id);
		fmt_chr(f, '}');
		break;
	default:
		fmt_str(f, "{property=");
		p_xlat(f, u.prop.property, &xl_ubi_volume_props,
		       "UBI_VOL_PROP_???");
		fmt_str(f, ", value=");
		p_hex(f, u.prop.value);
		fmt_chr(f, '}');
	}
	return 1;
}
