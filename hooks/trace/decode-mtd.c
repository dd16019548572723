/* SPDX-License-Identifier: MIT */
/*
 * MTD (raw flash) devices' ioctls as strace 6.1 prints them.  Their type
 * is 'M', the sound mixer's: strace names every 'M' request that reads
 * or writes MIXER_READ(nr) or MIXER_WRITE(nr), " or " the MTD name when
 * there is one.  Structures the call gives print as given; those the
 * device fills print at exit when the call succeeded, else the address.
 */
#include <stddef.h>
#include <linux/ioctl.h>
#include <mtd/mtd-abi.h>
#include "trace.h"

/* The request's name, MIXER_READ(nr) or ... first */
static void p_mtd_name(struct fmt *f, unsigned int req, const char *nm)
{
	char buf[96];
	struct fmt b;
	unsigned int dir = _IOC_DIR(req);

	fmt_init(&b, buf, sizeof(buf) - 1);
	if (dir == _IOC_READ || dir == _IOC_WRITE) {
		fmt_str(&b, dir == _IOC_READ ? "MIXER_READ(" : "MIXER_WRITE(");
		fmt_udec(&b, _IOC_NR(req));
		fmt_chr(&b, ')');
		if (nm)
			fmt_str(&b, " or ");
	}
	if (nm)
		fmt_str(&b, nm);
	buf[b.len] = 0;
	p_named(f, buf, req, 'x');
}

/* A structure's fields, as a table: hex ('x'), unsigned ('u'), an
 * address ('p'), a name of t ('n') or flags of t ('f') */
struct mtd_field {
	const char *name;
	unsigned char off, size;
	char kind;
	const struct xlat *t;
	const char *unknown;
};
#define MF(type, field, kind) \
	{ #field, offsetof(type, field), sizeof(((type *)0)->field), kind, 0, \
	  0 }
#define MFT(type, field, kind, t, unknown) \
	{ #field, offsetof(type, field), sizeof(((type *)0)->field), kind, t, \
	  unknown }

static const struct mtd_field erase_f[] = {
	MF(struct erase_info_user, start, 'x'),
	MF(struct erase_info_user, length, 'x'), { 0 },
}, erase64_f[] = {
	MF(struct erase_info_user64, start, 'x'),
	MF(struct erase_info_user64, length, 'x'), { 0 },
}, oob_f[] = {
	MF(struct mtd_oob_buf, start, 'x'), MF(struct mtd_oob_buf, length, 'x'),
	MF(struct mtd_oob_buf, ptr, 'p'), { 0 },
}, oob64_f[] = {
	MF(struct mtd_oob_buf64, start, 'x'),
	MF(struct mtd_oob_buf64, length, 'x'),
	MF(struct mtd_oob_buf64, usr_ptr, 'x'), { 0 },
}, otp_f[] = {
	MF(struct otp_info, start, 'x'), MF(struct otp_info, length, 'x'),
	MF(struct otp_info, locked, 'u'), { 0 },
}, write_f[] = {
	MF(struct mtd_write_req, start, 'x'), MF(struct mtd_write_req, len, 'x'),
	MF(struct mtd_write_req, ooblen, 'x'),
	MF(struct mtd_write_req, usr_data, 'x'),
	MF(struct mtd_write_req, usr_oob, 'x'),
	MFT(struct mtd_write_req, mode, 'n', &xl_mtd_ops_modes,
	    "MTD_OPS_???"), { 0 },
}, info_f[] = {
	MFT(struct mtd_info_user, type, 'n', &xl_mtd_types, "MTD_???"),
	MFT(struct mtd_info_user, flags, 'f', &xl_mtd_flags, 0),
	MF(struct mtd_info_user, size, 'x'),
	MF(struct mtd_info_user, erasesize, 'x'),
	MF(struct mtd_info_user, writesize, 'x'),
	MF(struct mtd_info_user, oobsize, 'x'),
	MF(struct mtd_info_user, padding, 'x'), { 0 },
}, stats_f[] = {
	MF(struct mtd_ecc_stats, corrected, 'x'),
	MF(struct mtd_ecc_stats, failed, 'x'),
	MF(struct mtd_ecc_stats, badblocks, 'x'),
	MF(struct mtd_ecc_stats, bbtblocks, 'x'), { 0 },
};

/* The structure of size bytes at arg, field by field */
static void p_mtd_struct(struct call *c, unsigned long arg, unsigned int size,
			 const struct mtd_field *d)
{
	const struct mtd_field *first = d;
	unsigned char b[64];
	unsigned long v;

	if (size > sizeof(b) || fetch(c->f, c->s, b, arg, size))
		return;
	for (; d->name; d++) {
		v = 0;
		hk_memcpy(&v, b + d->off, d->size);	/* (little-endian) */
		fmt_str(c->f, d == first ? "{" : ", ");
		fmt_str(c->f, d->name);
		fmt_chr(c->f, '=');
		if (d->kind == 'x')
			p_hex(c->f, v);
		else if (d->kind == 'u')
			fmt_udec(c->f, v);
		else if (d->kind == 'p')
			p_ptr(c->f, v);
		else if (d->kind == 'n')
			p_xlat(c->f, v, d->t, d->unknown);
		else
			p_flags(c->f, v, d->t, 0);
	}
	fmt_chr(c->f, '}');
}

static void p_oobinfo(struct call *c, unsigned long arg)
{
	struct nand_oobinfo n;
	unsigned int i;

	if (fetch(c->f, c->s, &n, arg, sizeof(n)))
		return;
	fmt_str(c->f, "{useecc=");
	p_xlat(c->f, n.useecc, &xl_mtd_nandecc, "MTD_NANDECC_???");
	f_hex(c->f, ", eccbytes=", n.eccbytes);
	fmt_str(c->f, ", oobfree=[");
	for (i = 0; i < 8; i++) {
		f_hex(c->f, i ? ", [" : "[", n.oobfree[i][0]);
		f_hex(c->f, ", ", n.oobfree[i][1]);
		fmt_chr(c->f, ']');
	}
	fmt_str(c->f, "], eccpos=[");
	for (i = 0; i < 32; i++)
		f_hex(c->f, i ? ", " : "", n.eccpos[i]);
	fmt_str(c->f, "]}");
}

static void p_ecclayout(struct call *c, unsigned long arg)
{
	struct nand_ecclayout_user l;
	unsigned long i, max = trace_whole(c->s) ? 64 :
				(unsigned long)trace_strsize;

	if (fetch(c->f, c->s, &l, arg, sizeof(l)))
		return;
	f_hex(c->f, "{eccbytes=", l.eccbytes);
	fmt_str(c->f, ", eccpos=[");
	for (i = 0; i < 64; i++) {
		if (i >= max) {
			fmt_str(c->f, ", ...");
			break;
		}
		f_hex(c->f, i ? ", " : "", l.eccpos[i]);
	}
	f_hex(c->f, "], oobavail=", l.oobavail);
	fmt_str(c->f, ", oobfree=[");
	for (i = 0; i < 8; i++) {
		f_hex(c->f, i ? ", {offset=" : "{offset=", l.oobfree[i].offset);
		f_hex(c->f, ", length=", l.oobfree[i].length);
		fmt_chr(c->f, '}');
	}
	fmt_str(c->f, "]}");
}

/* MEMGETREGIONINFO: the index given, the region at exit */
static void p_region(struct call *c, unsigned long arg)
{
	struct region_info_user r;

	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return;
	f_hex(c->f, "{regionindex=", r.regionindex);
	if (c_ok(c)) {
		f_hex(c->f, ", offset=", r.offset);
		f_hex(c->f, ", erasesize=", r.erasesize);
		f_hex(c->f, ", numblocks=", r.numblocks);
	}
	fmt_chr(c->f, '}');
}

/* [N] of an int or a 64-bit offset, or [NAME] of an int */
static void p_mtd_num(struct call *c, unsigned long arg, int wide,
		      const struct xlat *t, const char *unknown)
{
	unsigned long long v = 0;

	if (fetch(c->f, c->s, &v, arg, wide ? 8 : 4))
		return;
	fmt_chr(c->f, '[');
	if (t)
		p_xlat(c->f, (unsigned int)v, t, unknown);
	else if (wide)
		fmt_udec(c->f, v);
	else
		fmt_dec(c->f, (int)v);
	fmt_chr(c->f, ']');
}

/* The requests whose argument is a structure of fields */
static const struct {
	unsigned int req, size;
	const struct mtd_field *f;
} structs[] = {
	{ MEMERASE, sizeof(struct erase_info_user), erase_f },
	{ MEMLOCK, sizeof(struct erase_info_user), erase_f },
	{ MEMUNLOCK, sizeof(struct erase_info_user), erase_f },
	{ MEMISLOCKED, sizeof(struct erase_info_user), erase_f },
	{ MEMERASE64, sizeof(struct erase_info_user64), erase64_f },
	{ MEMWRITEOOB, sizeof(struct mtd_oob_buf), oob_f },
	{ MEMREADOOB, sizeof(struct mtd_oob_buf), oob_f },
	{ MEMWRITEOOB64, sizeof(struct mtd_oob_buf64), oob64_f },
	{ MEMREADOOB64, sizeof(struct mtd_oob_buf64), oob64_f },
	{ OTPLOCK, sizeof(struct otp_info), otp_f },
	{ OTPGETREGIONINFO, sizeof(struct otp_info), otp_f },
	{ OTPERASE, sizeof(struct otp_info), otp_f },
	{ MEMWRITE, sizeof(struct mtd_write_req), write_f },
	{ MEMGETINFO, sizeof(struct mtd_info_user), info_f },
	{ ECCGETSTATS, sizeof(struct mtd_ecc_stats), stats_f },
};

/* Requests whose structure the device fills: printed at exit */
static int mtd_out(unsigned int req)
{
	return req == MEMGETINFO || req == MEMGETOOBSEL ||
	       req == ECCGETLAYOUT || req == ECCGETSTATS ||
	       req == MEMGETREGIONCOUNT || req == OTPGETREGIONCOUNT ||
	       req == OTPGETREGIONINFO;
}

int ioctl_mtd(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm = xlat_name(&xl_ioctl_mtd, req);
	unsigned int i;

	if (_IOC_TYPE(req) != 'M' || (!nm && _IOC_DIR(req) != _IOC_READ &&
				      _IOC_DIR(req) != _IOC_WRITE))
		return 0;
	p_mtd_name(c->f, req, nm);
	if (!nm) {
		/* (MIXER_*: strace decodes no argument) */
		a_hex(c, arg);
		return 1;
	}
	if (mtd_out(req)) {
		if (!a_out(c, arg))
			return 1;
	} else {
		a_sep(c);
	}
	for (i = 0; i < sizeof(structs) / sizeof(structs[0]); i++) {
		if (structs[i].req == req) {
			p_mtd_struct(c, arg, structs[i].size, structs[i].f);
			return 1;
		}
	}
	switch (req) {
	case MEMGETOOBSEL:
		p_oobinfo(c, arg);
		break;
	case ECCGETLAYOUT:
		p_ecclayout(c, arg);
		break;
	case MEMGETREGIONINFO:
		p_region(c, arg);
		break;
	case MEMGETBADBLOCK: case MEMSETBADBLOCK:
		p_mtd_num(c, arg, 1, 0, 0);
		break;
	case MEMGETREGIONCOUNT: case OTPGETREGIONCOUNT:
		p_mtd_num(c, arg, 0, 0, 0);
		break;
	case OTPSELECT:
		p_mtd_num(c, arg, 0, &xl_mtd_otp, "MTD_OTP_???");
		break;
	case MTDFILEMODE:
		p_xlat(c->f, arg, &xl_mtd_file_modes, "MTD_FILE_MODE_???");
		break;
	default:
		p_hex(c->f, arg);
	}
	return 1;
}
