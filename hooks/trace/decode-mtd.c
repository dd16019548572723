/* SPDX-License-Identifier: MIT */
/*
 * MTD (raw flash) devices' ioctls as strace 6.1 prints them.  Their type
 * is 'M', the sound mixer's: strace names every 'M' request that reads
 * or writes MIXER_READ(nr) or MIXER_WRITE(nr), " or " the MTD name when
 * there is one.  Structures the call gives print as given; those the
 * device fills print at exit when the call succeeded, else the address.
 */
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

static void p_erase(struct call *c, unsigned long arg)
{
	struct erase_info_user e;

	if (fetch(c->f, c->s, &e, arg, sizeof(e)))
		return;
	f_hex(c->f, "{start=", e.start);
	f_hex(c->f, ", length=", e.length);
	fmt_chr(c->f, '}');
}

static void p_erase64(struct call *c, unsigned long arg)
{
	struct erase_info_user64 e;

	if (fetch(c->f, c->s, &e, arg, sizeof(e)))
		return;
	f_hex(c->f, "{start=", e.start);
	f_hex(c->f, ", length=", e.length);
	fmt_chr(c->f, '}');
}

static void p_oob(struct call *c, unsigned long arg)
{
	struct mtd_oob_buf o;

	if (fetch(c->f, c->s, &o, arg, sizeof(o)))
		return;
	f_hex(c->f, "{start=", o.start);
	f_hex(c->f, ", length=", o.length);
	fmt_str(c->f, ", ptr=");
	p_ptr(c->f, (unsigned long)o.ptr);
	fmt_chr(c->f, '}');
}

static void p_oob64(struct call *c, unsigned long arg)
{
	struct mtd_oob_buf64 o;

	if (fetch(c->f, c->s, &o, arg, sizeof(o)))
		return;
	f_hex(c->f, "{start=", o.start);
	f_hex(c->f, ", length=", o.length);
	f_hex(c->f, ", usr_ptr=", o.usr_ptr);
	fmt_chr(c->f, '}');
}

static void p_otp_info(struct call *c, unsigned long arg)
{
	struct otp_info o;

	if (fetch(c->f, c->s, &o, arg, sizeof(o)))
		return;
	f_hex(c->f, "{start=", o.start);
	f_hex(c->f, ", length=", o.length);
	f_udec(c->f, ", locked=", o.locked);
	fmt_chr(c->f, '}');
}

static void p_write_req(struct call *c, unsigned long arg)
{
	struct mtd_write_req w;

	if (fetch(c->f, c->s, &w, arg, sizeof(w)))
		return;
	f_hex(c->f, "{start=", w.start);
	f_hex(c->f, ", len=", w.len);
	f_hex(c->f, ", ooblen=", w.ooblen);
	f_hex(c->f, ", usr_data=", w.usr_data);
	f_hex(c->f, ", usr_oob=", w.usr_oob);
	fmt_str(c->f, ", mode=");
	p_xlat(c->f, w.mode, &xl_mtd_ops_modes, "MTD_OPS_???");
	fmt_chr(c->f, '}');
}

static void p_mtd_info(struct call *c, unsigned long arg)
{
	struct mtd_info_user m;

	if (fetch(c->f, c->s, &m, arg, sizeof(m)))
		return;
	fmt_str(c->f, "{type=");
	p_xlat(c->f, m.type, &xl_mtd_types, "MTD_???");
	fmt_str(c->f, ", flags=");
	p_flags(c->f, m.flags, &xl_mtd_flags, 0);
	f_hex(c->f, ", size=", m.size);
	f_hex(c->f, ", erasesize=", m.erasesize);
	f_hex(c->f, ", writesize=", m.writesize);
	f_hex(c->f, ", oobsize=", m.oobsize);
	f_hex(c->f, ", padding=", m.padding);
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

static void p_ecc_stats(struct call *c, unsigned long arg)
{
	struct mtd_ecc_stats e;

	if (fetch(c->f, c->s, &e, arg, sizeof(e)))
		return;
	f_hex(c->f, "{corrected=", e.corrected);
	f_hex(c->f, ", failed=", e.failed);
	f_hex(c->f, ", badblocks=", e.badblocks);
	f_hex(c->f, ", bbtblocks=", e.bbtblocks);
	fmt_chr(c->f, '}');
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
	switch (req) {
	case MEMERASE: case MEMLOCK: case MEMUNLOCK: case MEMISLOCKED:
		p_erase(c, arg);
		break;
	case MEMERASE64:
		p_erase64(c, arg);
		break;
	case MEMWRITEOOB: case MEMREADOOB:
		p_oob(c, arg);
		break;
	case MEMWRITEOOB64: case MEMREADOOB64:
		p_oob64(c, arg);
		break;
	case OTPLOCK: case OTPGETREGIONINFO: case OTPERASE:
		p_otp_info(c, arg);
		break;
	case MEMWRITE:
		p_write_req(c, arg);
		break;
	case MEMGETINFO:
		p_mtd_info(c, arg);
		break;
	case MEMGETOOBSEL:
		p_oobinfo(c, arg);
		break;
	case ECCGETLAYOUT:
		p_ecclayout(c, arg);
		break;
	case ECCGETSTATS:
		p_ecc_stats(c, arg);
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
