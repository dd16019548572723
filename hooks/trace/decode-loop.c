/* SPDX-License-Identifier: MIT */
/*
 * ioctl on loop devices and /dev/loop-control ('L' requests): the
 * backing descriptor, the old and 64-bit status structures (the device
 * numbers, inode, reserved words and key only under -v; the encryption
 * fields whenever encryption is set), LOOP_CONFIGURE's, sizes and
 * device numbers, as strace prints them.
 */
#include <linux/ioctl.h>
#include <linux/loop.h>
#include "trace.h"

/* What loop_info and loop_info64 share, widened */
struct lo_view {
	int old;		/* loop_info: lo_number signed, lo_name */
	unsigned long long device, inode, rdevice, offset, sizelimit, number;
	unsigned int crypt, key_size, flags;
	const char *name, *crypt_name;	/* (crypt_name: loop_info64's) */
	const unsigned char *key;
	unsigned long long init[2];
	const unsigned char *reserved;	/* (loop_info's) */
};

static void p_lo_crypt(struct fmt *f, const struct lo_view *v)
{
	fmt_str(f, ", lo_encrypt_type=");
	p_xlat(f, v->crypt, &xl_loop_crypt, "LO_CRYPT_???");
	/* (the kernel takes it unsigned) */
	f_udec(f, ", lo_encrypt_key_size=", v->key_size);
}

/* the devices and inode (-v), after lead */
static void p_lo_devs(struct fmt *f, const char *lead, const struct lo_view *v)
{
	fmt_str(f, lead);
	fmt_str(f, "lo_device=");
	p_dev(f, v->device);
	f_udec(f, ", lo_inode=", v->inode);
	fmt_str(f, ", lo_rdevice=");
	p_dev(f, v->rdevice);
}

static void p_lo(struct fmt *f, const struct lo_view *v, int whole)
{
	int crypt = whole || v->crypt != LO_CRYPT_NONE;

	if (v->old) {
		f_dec(f, "{lo_number=", (int)v->number);
		if (whole)
			p_lo_devs(f, ", ", v);
		fmt_str(f, ", lo_offset=");
		p_hex(f, v->offset);
	} else {
		if (whole)
			p_lo_devs(f, "{", v);
		fmt_str(f, whole ? ", lo_offset=" : "{lo_offset=");
		p_hex(f, v->offset);
		if (whole)
			f_udec(f, ", lo_sizelimit=", v->sizelimit);
		f_udec(f, ", lo_number=", v->number);
	}
	if (crypt)
		p_lo_crypt(f, v);
	fmt_str(f, ", lo_flags=");
	p_flags_unknown(f, v->flags, &xl_loop_flags, "LO_FLAGS_???");
	fmt_str(f, v->old ? ", lo_name=" : ", lo_file_name=");
	p_cstring(f, v->name, LO_NAME_SIZE);
	if (crypt) {
		if (!v->old) {
			fmt_str(f, ", lo_crypt_name=");
			p_cstring(f, v->crypt_name, LO_NAME_SIZE);
		}
		fmt_str(f, ", lo_encrypt_key=");
		p_data_local(f, v->key, v->key_size < LO_KEY_SIZE ?
					v->key_size : LO_KEY_SIZE);
	}
	if (!whole) {
		fmt_str(f, ", ...}");
		return;
	}
	fmt_str(f, ", lo_init=[");
	p_hex(f, v->init[0]);
	fmt_str(f, ", ");
	p_hex(f, v->init[1]);
	fmt_chr(f, ']');
	if (v->old) {
		int i;

		fmt_str(f, ", reserved=[");
		for (i = 0; i < 4; i++) {
			if (i)
				fmt_str(f, ", ");
			p_hex(f, v->reserved[i]);
		}
		fmt_chr(f, ']');
	}
	fmt_chr(f, '}');
}

/* The view of the old structure o, or of n when o is NULL */
static void view(struct lo_view *v, const struct loop_info *o,
		 const struct loop_info64 *n)
{
	v->old = !!o;
	v->number = o ? (unsigned int)o->lo_number : n->lo_number;
	v->device = o ? o->lo_device : n->lo_device;
	v->inode = o ? o->lo_inode : n->lo_inode;
	v->rdevice = o ? o->lo_rdevice : n->lo_rdevice;
	v->offset = o ? (unsigned int)o->lo_offset : n->lo_offset;
	v->sizelimit = o ? 0 : n->lo_sizelimit;
	v->crypt = o ? (unsigned int)o->lo_encrypt_type : n->lo_encrypt_type;
	v->key_size = o ? (unsigned int)o->lo_encrypt_key_size :
			  n->lo_encrypt_key_size;
	v->flags = o ? (unsigned int)o->lo_flags : n->lo_flags;
	v->name = o ? o->lo_name : (const char *)n->lo_file_name;
	v->crypt_name = o ? 0 : (const char *)n->lo_crypt_name;
	v->key = o ? o->lo_encrypt_key : n->lo_encrypt_key;
	v->init[0] = o ? o->lo_init[0] : n->lo_init[0];
	v->init[1] = o ? o->lo_init[1] : n->lo_init[1];
	v->reserved = o ? (const unsigned char *)o->reserved : 0;
}

/* LOOP_[GS]ET_STATUS(64): a GET's is the kernel's (read once it
 * succeeded) */
static void k_status(struct call *c, unsigned int req, unsigned long arg)
{
	int is64 = req == LOOP_SET_STATUS64 || req == LOOP_GET_STATUS64;
	int out = req == LOOP_GET_STATUS || req == LOOP_GET_STATUS64;
	union {
		struct loop_info old;
		struct loop_info64 i64;
	} u;
	struct lo_view v;

	if (fetch_arg(c, &u, arg, is64 ? sizeof(u.i64) : sizeof(u.old), out))
		return;
	view(&v, is64 ? 0 : &u.old, &u.i64);
	p_lo(c->f, &v, trace_whole(c->s));
}

static void k_configure(struct call *c, unsigned long arg)
{
	struct loop_config k;
	struct lo_view v;
	struct fmt *f = c->f;
	unsigned int i;

	if (fetch_arg(c, &k, arg, sizeof(k), 0))
		return;
	f_dec(f, "{fd=", (int)k.fd);
	p_fdpath(f, c->s, (int)k.fd);
	f_udec(f, ", block_size=", k.block_size);
	fmt_str(f, ", info=");
	view(&v, 0, &k.info);
	p_lo(f, &v, trace_whole(c->s));
	for (i = 0; i < 8 && !k.__reserved[i]; i++)
		;
	if (i < 8) {
		fmt_str(f, ", __reserved=[");
		for (i = 0; i < 8; i++) {
			if (i)
				fmt_str(f, ", ");
			p_hex(f, k.__reserved[i]);
		}
		fmt_chr(f, ']');
	}
	fmt_chr(f, '}');
}

int ioctl_loop(struct call *c, unsigned int req, unsigned long arg)
{
	if (!ioctl_name(c, req, 'L', &xl_ioctl_loop))
		return 0;
	switch (req) {
	case LOOP_CLR_FD: case LOOP_SET_CAPACITY: case LOOP_CTL_GET_FREE:
		break;	/* (no argument) */
	case LOOP_SET_FD: case LOOP_CHANGE_FD:
		a_sep(c);
		fmt_dec(c->f, (int)arg);
		p_fdpath(c->f, c->s, (int)arg);
		break;
	case LOOP_CTL_ADD: case LOOP_CTL_REMOVE:
		a_dec(c, (int)arg);
		break;
	case LOOP_SET_DIRECT_IO: case LOOP_SET_BLOCK_SIZE:
		a_udec(c, arg);
		break;
	case LOOP_SET_STATUS: case LOOP_GET_STATUS:
	case LOOP_SET_STATUS64: case LOOP_GET_STATUS64:
		k_status(c, req, arg);
		break;
	case LOOP_CONFIGURE:
		k_configure(c, arg);
		break;
	}
	return 1;
}
