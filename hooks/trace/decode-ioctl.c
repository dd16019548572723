/* SPDX-License-Identifier: MIT */
/*
 * ioctl: the request's name and its argument, as strace prints them.
 * Requests are grouped by what their argument is (hooks/trace/xlat.list's
 * ioctl_* tables, one per kind): none, an int, an int or flags the
 * argument points to, or a structure; a request sysgate does not know
 * prints as _IOC(dir, type, nr, size) with its argument in hex.
 */
#include <linux/counter.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/random.h>
#include <errno.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <linux/nsfs.h>
#include <scsi/sg.h>
#include "trace.h"

/* The kernel's struct termios (TCGETS), not libc's; termios2 (TCGETS2)
 * adds the speeds, and the older termio (TCGETA) is 16 bits a flag word
 * and 8 control characters. */
struct kernel_termios {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};
struct kernel_termios2 {
	struct kernel_termios t;
	unsigned int c_ispeed, c_ospeed;
};
struct kernel_termio {
	unsigned short c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[8];
};

/* Multi-bit fields (NLDLY, CBAUD...) print as the field's value. */
struct field {
	unsigned long mask;
	const struct xlat *names;
	const char *unknown;
};

/*
 * strace's terminal flags: each field's value and a '|', then the flags
 * left, nothing when none is (so "c_iflag=" and "FF0|" end some).
 */
static void p_field_flags(struct fmt *f, unsigned long v,
			  const struct field *fl, int n, const struct xlat *t)
{
	int i;

	for (i = 0; i < n; i++) {
		p_xlat(f, v & fl[i].mask, fl[i].names, fl[i].unknown);
		fmt_chr(f, '|');
		v &= ~fl[i].mask;
	}
	if (v)
		p_flags(f, v, t, 0);
}

/* (the kernel's IBSHIFT, which libc's headers lack: where CIBAUD starts) */
#define IBSHIFT __builtin_ctz(CIBAUD)

/* c_cflag: the output speed, the input one (CIBAUD: a speed shifted by
 * IBSHIFT) when set, the character size, the flags */
static void p_cflag(struct fmt *f, unsigned long v)
{
	static const struct field speed = { CBAUD, &xl_termios_baud, "B???" },
				  size = { CSIZE, &xl_termios_csize, "CS?" };

	p_field_flags(f, v & CBAUD, &speed, 1, 0);
	if (v & CIBAUD) {
		p_xlat(f, (v & CIBAUD) >> IBSHIFT, &xl_termios_baud, "B???");
		fmt_str(f, "<<");
		p_named(f, "IBSHIFT", IBSHIFT, 'x');
		fmt_chr(f, '|');
	}
	p_field_flags(f, v & ~(unsigned long)(CBAUD | CIBAUD), &size, 1,
		      &xl_termios_cflag);
}

/* ncc control characters; speeds: termios2's, or NULL */
static void p_termios(struct fmt *f, const struct kernel_termios *t, int whole,
		      unsigned int ncc, const unsigned int *speeds)
{
	static const struct field ofields[] = {
		{ NLDLY, &xl_termios_nl, "NL?" },
		{ CRDLY, &xl_termios_cr, "CR?" },
		{ TABDLY, &xl_termios_tab, "TAB?" },
		{ BSDLY, &xl_termios_bs, "BS?" },
		{ VTDLY, &xl_termios_vt, "VT?" },
		{ FFDLY, &xl_termios_ff, "FF?" },
	};
	unsigned int i;

	fmt_str(f, "{c_iflag=");
	p_field_flags(f, t->c_iflag, 0, 0, &xl_termios_iflag);
	fmt_str(f, ", c_oflag=");
	p_field_flags(f, t->c_oflag, ofields, 6, &xl_termios_oflag);
	fmt_str(f, ", c_cflag=");
	p_cflag(f, t->c_cflag);
	fmt_str(f, ", c_lflag=");
	p_field_flags(f, t->c_lflag, 0, 0, &xl_termios_lflag);
	if (!whole) {
		fmt_str(f, ", ...}");
		return;
	}
	fmt_str(f, ", c_line=");
	p_xlat(f, t->c_line, &xl_line_disc, "N_???");
	fmt_str(f, ", c_cc=[");
	for (i = 0; i < ncc; i++) {
		if (i)
			fmt_str(f, ", ");
		fmt_chr(f, '[');
		/* (an index: a name under -X too, as strace prints it) */
		x_hold(f);
		if (i <= VEOL2)
			p_xlat(f, i, &xl_termios_cc, 0);
		else
			fmt_udec(f, i);
		x_release(f);
		fmt_str(f, "]=");
		p_hex(f, t->c_cc[i]);
	}
	fmt_chr(f, ']');
	if (speeds) {
		f_udec(f, ", c_ispeed=", speeds[0]);
		f_udec(f, ", c_ospeed=", speeds[1]);
	}
	fmt_chr(f, '}');
}

void p_ioc(struct fmt *f, unsigned long req)
{
	unsigned long dir = (req >> _IOC_DIRSHIFT) & _IOC_DIRMASK;
	size_t start = x_begin(f);

	fmt_str(f, "_IOC(");
	if (!dir)
		fmt_str(f, "_IOC_NONE");
	else
		p_flags(f, dir, &xl_ioc_dirs, 0);
	/* (strace's %#x: 0 is "0") */
	fmt_str(f, ", ");
	p_hex(f, (req >> _IOC_TYPESHIFT) & _IOC_TYPEMASK);
	fmt_str(f, ", ");
	p_hex(f, (req >> _IOC_NRSHIFT) & _IOC_NRMASK);
	fmt_str(f, ", ");
	p_hex(f, (req >> _IOC_SIZESHIFT) & _IOC_SIZEMASK);
	fmt_chr(f, ')');
	x_end(f, start, req, 'x');
}

/* The requests of one kind and how their argument prints. */
struct ioctl_kind {
	const struct xlat *reqs;
	/* NULL: the request takes no argument */
	void (*arg)(struct call *c, const struct ioctl_kind *k,
		    unsigned long arg);
	const struct xlat *values;	/* the argument's names, if any */
	const char *unknown;		/* flags none of which has a name */
	int out;			/* the kernel writes the argument */
	/* values are flags, not one value; without values: a signed
	 * number (k_ulong_at's), hex (k_int_at's) */
	int flags;
	/* the bytes k_bytes prints; k_ulong(_at)'s number's (0: a long) */
	unsigned int size;
};

static void k_ptr(struct call *c, const struct ioctl_kind *k,
		  unsigned long arg)
{
	(void)k;
	a_ptr(c, arg);
}

static void k_int(struct call *c, const struct ioctl_kind *k,
		  unsigned long arg)
{
	if (k->values)
		a_xlat(c, arg, k->values, 0);
	else
		a_dec(c, (int)arg);
}

/* [int], [flags] from the kind's table, or [0x1f] (flags without names:
 * a mask) */
static void k_int_at(struct call *c, const struct ioctl_kind *k,
		     unsigned long arg)
{
	unsigned int v;

	if (fetch_arg(c, &v, arg, sizeof(v), k->out))
		return;
	fmt_chr(c->f, '[');
	if (k->values)
		p_flags_unknown(c->f, v, k->values, k->unknown);
	else if (k->flags)
		p_hex(c->f, v);
	else
		fmt_dec(c->f, (int)v);
	fmt_chr(c->f, ']');
}

/* (the kernel's; the C library's scsi/sg.h lacks it) */
#define SG_SCSI_RESET_NO_ESCALATE 0x100

/* SG_SCSI_RESET's [SG_SCSI_RESET_NO_ESCALATE|SG_SCSI_RESET_DEVICE] */
static void k_sg_reset(struct call *c, const struct ioctl_kind *k,
		       unsigned long arg)
{
	unsigned int v;

	if (fetch_arg(c, &v, arg, sizeof(v), k->out))
		return;
	fmt_chr(c->f, '[');
	if (v & SG_SCSI_RESET_NO_ESCALATE) {
		p_named(c->f, "SG_SCSI_RESET_NO_ESCALATE",
			SG_SCSI_RESET_NO_ESCALATE, 'x');
		fmt_chr(c->f, '|');
	}
	p_xlat(c->f, v & ~SG_SCSI_RESET_NO_ESCALATE, &xl_sg_scsi_resets,
	       "SG_SCSI_RESET_???");
	fmt_chr(c->f, ']');
}

static void k_termios(struct call *c, const struct ioctl_kind *k,
		      unsigned long arg)
{
	struct kernel_termios t;

	if (!fetch_arg(c, &t, arg, sizeof(t), k->out))
		p_termios(c->f, &t, trace_whole(c->s), sizeof(t.c_cc), 0);
}

static void k_termios2(struct call *c, const struct ioctl_kind *k,
		       unsigned long arg)
{
	struct kernel_termios2 t;

	if (!fetch_arg(c, &t, arg, sizeof(t), k->out))
		p_termios(c->f, &t.t, trace_whole(c->s), sizeof(t.t.c_cc),
			  &t.c_ispeed);
}

static void k_termio(struct call *c, const struct ioctl_kind *k,
		     unsigned long arg)
{
	struct kernel_termio t;
	struct kernel_termios w;

	if (fetch_arg(c, &t, arg, sizeof(t), k->out))
		return;
	w.c_iflag = t.c_iflag;
	w.c_oflag = t.c_oflag;
	w.c_cflag = t.c_cflag;
	w.c_lflag = t.c_lflag;
	w.c_line = t.c_line;
	hk_memcpy(w.c_cc, t.c_cc, sizeof(t.c_cc));
	p_termios(c->f, &w, trace_whole(c->s), sizeof(t.c_cc), 0);
}

static void k_winsize(struct call *c, const struct ioctl_kind *k,
		      unsigned long arg)
{
	struct winsize ws;

	if (fetch_arg(c, &ws, arg, sizeof(ws), k->out))
		return;
	f_udec(c->f, "{ws_row=", ws.ws_row);
	f_udec(c->f, ", ws_col=", ws.ws_col);
	f_udec(c->f, ", ws_xpixel=", ws.ws_xpixel);
	f_udec(c->f, ", ws_ypixel=", ws.ws_ypixel);
	fmt_chr(c->f, '}');
}

static void k_counter_watch(struct call *c, const struct ioctl_kind *k,
			    unsigned long arg)
{
	struct counter_watch w;

	if (fetch_arg(c, &w, arg, sizeof(w), k->out))
		return;
	fmt_str(c->f, "{component={type=");
	p_xlat(c->f, w.component.type, &xl_counter_component_type,
	       "COUNTER_COMPONENT_???");
	fmt_str(c->f, ", scope=");
	p_xlat(c->f, w.component.scope, &xl_counter_scope,
	       "COUNTER_SCOPE_???");
	f_udec(c->f, ", parent=", w.component.parent);
	f_udec(c->f, ", id=", w.component.id);
	fmt_str(c->f, "}, event=");
	p_xlat(c->f, w.event, &xl_counter_event, "COUNTER_EVENT_???");
	f_udec(c->f, ", channel=", w.channel);
	fmt_chr(c->f, '}');
}

/* {entropy_count=3, buf_size=8, buf="..."}: the bytes follow the header */
static void k_rand_pool(struct call *c, const struct ioctl_kind *k,
			unsigned long arg)
{
	struct rand_pool_info r;

	if (fetch_arg(c, &r, arg, sizeof(r), k->out))
		return;
	f_dec(c->f, "{entropy_count=", r.entropy_count);
	f_dec(c->f, ", buf_size=", r.buf_size);
	fmt_str(c->f, ", buf=");
	p_data(c->f, c->s, arg + sizeof(r), (unsigned int)r.buf_size, 0);
	fmt_chr(c->f, '}');
}

/* FITRIM's {start=0x..., len=..., minlen=...} */
static void k_fstrim(struct call *c, const struct ioctl_kind *k,
		     unsigned long arg)
{
	struct fstrim_range r;

	if (fetch_arg(c, &r, arg, sizeof(r), k->out))
		return;
	fmt_str(c->f, "{start=");
	p_hex(c->f, r.start);
	f_udec(c->f, ", len=", r.len);
	f_udec(c->f, ", minlen=", r.minlen);
	fmt_chr(c->f, '}');
}

/* FS_IOC_FS[GS]ETXATTR: fsx_nextents only in what the kernel wrote */
static void k_fsxattr(struct call *c, const struct ioctl_kind *k,
		      unsigned long arg)
{
	struct fsxattr x;

	if (fetch_arg(c, &x, arg, sizeof(x), k->out))
		return;
	fmt_str(c->f, "{fsx_xflags=");
	p_flags_unknown(c->f, x.fsx_xflags, &xl_fs_xflags, "FS_XFLAG_???");
	f_udec(c->f, ", fsx_extsize=", x.fsx_extsize);
	if (k->out)
		f_udec(c->f, ", fsx_nextents=", x.fsx_nextents);
	fmt_str(c->f, ", fsx_projid=");
	p_hex(c->f, x.fsx_projid);
	f_udec(c->f, ", fsx_cowextsize=", x.fsx_cowextsize);
	fmt_chr(c->f, '}');
}

/* FS_IOC_FIEMAP's request as it was at entry (trace_saved: read, then
 * fm_start, fm_length, fm_flags, fm_extent_count), then what the kernel
 * wrote: " => {fm_flags=..., fm_mapped_extents=N, fm_extents=[...]}" */
static void e_fiemap(struct call *c, unsigned long arg)
{
	unsigned long *sv = trace_saved(c);
	struct fiemap fm;

	sv[0] = arg && trace_read(c->s, &fm, (void *)arg, sizeof(fm)) ==
				 (long)sizeof(fm);
	sv[1] = fm.fm_start;
	sv[2] = fm.fm_length;
	sv[3] = fm.fm_flags;
	sv[4] = fm.fm_extent_count;
}

static void p_fiemap_extents(struct fmt *f, const struct sysgate_sys *s,
			     unsigned long p, unsigned int n)
{
	struct fiemap_extent fe;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (trace_read(s, &fe, (void *)(p + i * sizeof(fe)),
			       sizeof(fe)) != (long)sizeof(fe)) {
			if (!i) {
				p_ptr(f, p);
				return;
			}
			fmt_str(f, ", ... /* ");
			fmt_hex(f, p + i * sizeof(fe));
			fmt_str(f, " */");
			break;
		}
		fmt_str(f, i ? ", " : "[");
		if (i >= (unsigned int)trace_strsize) {
			fmt_str(f, "...");
			break;
		}
		f_udec(f, "{fe_logical=", fe.fe_logical);
		f_udec(f, ", fe_physical=", fe.fe_physical);
		f_udec(f, ", fe_length=", fe.fe_length);
		fmt_str(f, ", fe_flags=");
		p_flags_unknown(f, fe.fe_flags, &xl_fiemap_extent_flags,
				"FIEMAP_EXTENT_???");
		fmt_chr(f, '}');
	}
	if (!n)
		fmt_chr(f, '[');
	fmt_chr(f, ']');
}

static void k_fiemap(struct call *c, const struct ioctl_kind *k,
		     unsigned long arg)
{
	const unsigned long *sv = trace_saved(c);
	struct fiemap fm;
	struct fmt *f = c->f;

	(void)k;
	a_sep(c);
	if (!arg || !sv[0]) {
		p_ptr(f, arg);
		return;
	}
	f_udec(f, "{fm_start=", sv[1]);
	f_udec(f, ", fm_length=", sv[2]);
	fmt_str(f, ", fm_flags=");
	p_flags_unknown(f, (unsigned int)sv[3], &xl_fiemap_flags,
			"FIEMAP_FLAG_???");
	f_udec(f, ", fm_extent_count=", (unsigned int)sv[4]);
	fmt_chr(f, '}');
	if (!c_ok(c))
		return;
	fmt_str(f, " => ");
	if (fetch(f, c->s, &fm, arg, sizeof(fm)))
		return;
	fmt_str(f, "{fm_flags=");
	p_flags_unknown(f, fm.fm_flags, &xl_fiemap_flags, "FIEMAP_FLAG_???");
	f_udec(f, ", fm_mapped_extents=", fm.fm_mapped_extents);
	if (trace_whole(c->s)) {
		fmt_str(f, ", fm_extents=");
		p_fiemap_extents(f, c->s, arg + sizeof(fm),
				 fm.fm_mapped_extents);
	} else {
		fmt_str(f, ", ...");
	}
	fmt_chr(f, '}');
}

static void k_hex(struct call *c, const struct ioctl_kind *k,
		  unsigned long arg)
{
	(void)k;
	a_hex(c, arg);
}

/* An unsigned long by the kind's names: flags, one value, or decimal. */
static void p_kind_ulong(struct fmt *f, const struct ioctl_kind *k,
			 unsigned long v)
{
	if (!k->values && k->flags)
		fmt_dec(f, (long)v);
	else if (!k->values)
		fmt_udec(f, v);
	else if (k->flags && k->unknown)
		p_flags_unknown(f, v, k->values, k->unknown);
	else if (k->flags)
		p_flags(f, v, k->values, 0);
	else
		p_xlat(f, v, k->values, k->unknown);
}

static void k_ulong(struct call *c, const struct ioctl_kind *k,
		    unsigned long arg)
{
	a_sep(c);
	/* (a kind of 4 bytes: the argument's low half, an int's) */
	p_kind_ulong(c->f, k, k->size == 4 ? (unsigned int)arg : arg);
}

/* [unsigned long], or a number of k->size bytes (little-endian: the
 * low bytes of v) */
static void k_ulong_at(struct call *c, const struct ioctl_kind *k,
		       unsigned long arg)
{
	unsigned long v = 0;

	if (fetch_arg(c, &v, arg, k->size ? k->size : sizeof(v), k->out))
		return;
	fmt_chr(c->f, '[');
	p_kind_ulong(c->f, k, v);
	fmt_chr(c->f, ']');
}

/* A descriptor given as the argument itself (NBD_SET_SOCK's socket) */
static void k_fd(struct call *c, const struct ioctl_kind *k,
		 unsigned long arg)
{
	(void)k;
	a_dec(c, (int)arg);
	p_fdpath(c->f, c->s, (int)arg);
}

/* SIOCGIFCONF: at entry, the length and buffer given (saved[0]: read) */
static void e_ifconf(struct call *c, unsigned long p)
{
	struct ifconf ic;

	trace_saved(c)[0] = trace_read(c->s, &ic, (void *)p, sizeof(ic)) ==
			    sizeof(ic);
	trace_saved(c)[1] = (unsigned int)ic.ifc_len;
	trace_saved(c)[2] = (unsigned long)ic.ifc_buf;
}

/* 80 / * 2 * sizeof(struct ifreq) * / */
static void p_ifc_len(struct fmt *f, int len)
{
	fmt_dec(f, len);
	if (len <= 0 || len % (int)sizeof(struct ifreq))
		return;
	f_dec(f, " /* ", len / (int)sizeof(struct ifreq));
	fmt_str(f, " * sizeof(struct ifreq) */");
}

/* Where the walk of SIOCGIFCONF's interfaces is */
struct ifreq_walk {
	const struct sysgate_sys *s;
	unsigned long at;
};

/* An interface the kernel listed: its name and address (read where it
 * is: the walk's address plus the element's offset) */
static void e_ifreq(struct fmt *f, const void *e, void *ctx)
{
	const struct ifreq *r = e;
	struct ifreq_walk *w = ctx;

	fmt_str(f, "{ifr_name=");
	p_cstring(f, r->ifr_name, sizeof(r->ifr_name));
	fmt_str(f, ", ifr_addr=");
	p_sockaddr(f, w->s, w->at + offsetof(struct ifreq, ifr_addr),
		   sizeof(r->ifr_addr));
	fmt_chr(f, '}');
	w->at += sizeof(*r);
}

/* {ifc_len=given => returned, ifc_buf=[interfaces]}: the length as
 * given (when there is a buffer) and as the kernel left it */
static void k_ifconf(struct call *c, const struct ioctl_kind *k,
		     unsigned long arg)
{
	int len = (int)trace_saved(c)[1];
	unsigned long buf = trace_saved(c)[2];
	struct ifconf ic;
	struct fmt *f = c->f;
	struct ifreq_walk w;

	(void)k;
	a_sep(c);
	if (!trace_saved(c)[0]) {
		p_ptr(f, arg);
		return;
	}
	fmt_str(f, "{ifc_len=");
	if (buf)
		p_ifc_len(f, len);
	/* (unreadable now: as it was given) */
	if (trace_read(c->s, &ic, (void *)arg, sizeof(ic)) != sizeof(ic)) {
		ic.ifc_len = len;
		ic.ifc_buf = (void *)buf;
	}
	if (buf && ic.ifc_len != len)
		fmt_str(f, " => ");
	if (!buf || ic.ifc_len != len)
		p_ifc_len(f, ic.ifc_len);
	fmt_str(f, ", ifc_buf=");
	if (!buf || !c_ok(c)) {
		p_ptr(f, buf);
		if ((unsigned long)ic.ifc_buf != buf) {
			fmt_str(f, " => ");
			p_ptr(f, (unsigned long)ic.ifc_buf);
		}
	} else {
		w.s = c->s;
		w.at = (unsigned long)ic.ifc_buf;
		p_array_ctx(f, c->s, w.at, (unsigned int)ic.ifc_len /
			    sizeof(struct ifreq), sizeof(struct ifreq), 0,
			    e_ifreq, &w);
	}
	fmt_chr(f, '}');
}

/* k->size bytes the kernel wrote, as a string cut at -s */
static void k_bytes(struct call *c, const struct ioctl_kind *k,
		    unsigned long arg)
{
	if (a_out(c, arg))
		p_data(c->f, c->s, arg, k->size, 0);
}

static void e_hex32(struct fmt *f, const void *e)
{
	p_hex(f, *(const unsigned int *)e);
}

/* [0x1, 0x2, 0x3]: three u32 in hex */
static void k_u32_triple(struct call *c, const struct ioctl_kind *k,
			 unsigned long arg)
{
	(void)k;
	a_sep(c);
	p_array(c, arg, 3, sizeof(unsigned int), 0, e_hex32);
}

static void k_hd_geometry(struct call *c, const struct ioctl_kind *k,
			  unsigned long arg)
{
	struct hd_geometry g;

	if (fetch_arg(c, &g, arg, sizeof(g), k->out))
		return;
	f_udec(c->f, "{heads=", g.heads);
	f_udec(c->f, ", sectors=", g.sectors);
	f_udec(c->f, ", cylinders=", g.cylinders);
	f_udec(c->f, ", start=", g.start);
	fmt_chr(c->f, '}');
}

/* HDIO_DRIVE_CMD: the command header as it was at entry (trace_saved:
 * read, then its 4 bytes), then the status the kernel wrote over it and
 * the sectors read after it (also after EIO, the drive's error). */
static void e_drive_cmd(struct call *c, unsigned long arg)
{
	unsigned long *sv = trace_saved(c);
	struct hd_drive_cmd_hdr h;

	sv[0] = arg && trace_read(c->s, &h, (void *)arg, sizeof(h)) ==
				 (long)sizeof(h);
	sv[1] = h.command | h.sector_number << 8 | h.feature << 16 |
		(unsigned long)h.sector_count << 24;
}

static void k_drive_cmd(struct call *c, const struct ioctl_kind *k,
			unsigned long arg)
{
	const unsigned long *sv = trace_saved(c);
	struct fmt *f = c->f;
	unsigned char st[4];	/* status, error, nsector, sector count */

	(void)k;
	a_sep(c);
	if (!arg || !sv[0]) {
		p_ptr(f, arg);
		return;
	}
	fmt_str(f, "{command=");
	p_xlat(f, sv[1] & 0xff, &xl_ata_cmds, "ATA_CMD_???");
	f_udec(f, ", sector_number=", (sv[1] >> 8) & 0xff);
	f_udec(f, ", feature=", (sv[1] >> 16) & 0xff);
	f_udec(f, ", sector_count=", (sv[1] >> 24) & 0xff);
	fmt_chr(f, '}');
	if (!c->exiting ||
	    (sysgate_is_error(c->s->ret) && c->s->ret != -EIO) ||
	    trace_read(c->s, st, (void *)arg, sizeof(st)) != sizeof(st))
		return;
	fmt_str(f, " => {status=");
	p_hex(f, st[0]);
	f_udec(f, ", error=", st[1]);
	f_udec(f, ", nsector=", st[2]);
	if (st[3]) {
		fmt_str(f, ", buf=");
		p_data(f, c->s, arg + sizeof(st), st[3] * 512UL, 1);
	}
	fmt_chr(f, '}');
}

/* The kinds, searched in this order (a request in none is unknown). */
static const struct ioctl_kind kinds[] = {
	{ &xl_ioctl_none, 0, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_none, 0, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_int, k_int, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_int, k_int, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_tcxonc, k_int, &xl_tcxonc, 0, 0, 0, 0 },
	{ &xl_ioctl_tcflsh, k_int, &xl_tcflsh, 0, 0, 0, 0 },
	{ &xl_ioctl_int_in, k_int_at, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_int_in, k_int_at, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_int_out, k_int_at, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_dev_int_out, k_int_at, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_tiocm_in, k_int_at, &xl_tiocm, "TIOCM_???", 0, 0, 0 },
	{ &xl_ioctl_tiocm_out, k_int_at, &xl_tiocm, "TIOCM_???", 1, 0, 0 },
	{ &xl_ioctl_fs_flags_in, k_int_at, &xl_fs_flags, "FS_???_FL", 0, 0, 0 },
	{ &xl_ioctl_fs_flags_out, k_int_at, &xl_fs_flags, "FS_???_FL", 1, 0, 0 },
	{ &xl_ioctl_termios_in, k_termios, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_termios_out, k_termios, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_termios2_in, k_termios2, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_termios2_out, k_termios2, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_termio_in, k_termio, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_termio_out, k_termio, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_winsize_in, k_winsize, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_winsize_out, k_winsize, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_sg_reset, k_sg_reset, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_counter_watch, k_counter_watch, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_rand_pool, k_rand_pool, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_fstrim, k_fstrim, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_fiemap, k_fiemap, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_fsxattr_in, k_fsxattr, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_fsxattr_out, k_fsxattr, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_dev_hex, k_hex, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_ulong, k_ulong, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_ulong_out, k_ulong_at, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_dev_fd, k_fd, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_dev_u16_out, k_ulong_at, 0, 0, 1, 0, 2 },
	{ &xl_ioctl_dev_u32_in, k_ulong_at, 0, 0, 0, 0, 4 },
	{ &xl_ioctl_dev_u32_out, k_ulong_at, 0, 0, 1, 0, 4 },
	{ &xl_ioctl_dev_long_out, k_ulong_at, 0, 0, 1, 1, 0 },
	{ &xl_ioctl_dev_u64_in, k_ulong_at, 0, 0, 0, 0, 8 },
	{ &xl_ioctl_dev_s64_in, k_ulong_at, 0, 0, 0, 1, 8 },
	{ &xl_ioctl_hdio_nice, k_ulong, &xl_hdio_ide_nice, 0, 0, 1, 0 },
	{ &xl_ioctl_hdio_nice_out, k_ulong_at, &xl_hdio_ide_nice, 0, 1, 1, 0 },
	{ &xl_ioctl_hdio_busstate, k_ulong, &xl_hdio_busstates,
	  "BUSSTATE_???", 0, 0, 0 },
	{ &xl_ioctl_hdio_busstate_out, k_ulong_at, &xl_hdio_busstates,
	  "BUSSTATE_???", 1, 0, 0 },
	{ &xl_ioctl_hdio_identity, k_bytes, 0, 0, 1, 0, 512 },
	{ &xl_ioctl_hdio_obsolete_identity, k_bytes, 0, 0, 1, 0, 142 },
	{ &xl_ioctl_hdio_getgeo, k_hd_geometry, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_hdio_drive_cmd, k_drive_cmd, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_u32_triple, k_u32_triple, 0, 0, 0, 0, 0 },
	{ &xl_ioctl_ifconf, k_ifconf, 0, 0, 1, 0, 0 },
	{ &xl_ioctl_perf_flags, k_ulong, &xl_perf_ioc_flags,
	  "PERF_IOC_FLAG_???", 0, 1, 4 },
	{ &xl_ioctl_nbd_flags, k_ulong, &xl_nbd_flags, 0, 0, 1, 0 },
	{ &xl_ioctl_lirc_mode_in, k_ulong_at, &xl_lirc_modes, "LIRC_MODE_???",
	  0, 0, 4 },
	{ &xl_ioctl_lirc_mode_out, k_ulong_at, &xl_lirc_modes,
	  "LIRC_MODE_???", 1, 0, 4 },
	{ &xl_ioctl_lirc_mask, k_int_at, 0, 0, 0, 1, 0 },
	{ &xl_ioctl_lirc_features, k_ulong_at, &xl_lirc_features,
	  "LIRC_CAN_???", 1, 1, 4 },
	{ &xl_ioctl_rtc_vl_out, k_int_at, &xl_rtc_vl_flags, "RTC_VL_???", 1, 0,
	  0 },
	{ &xl_ioctls, k_ptr, 0, 0, 0, 0, 0 },
};

int ioctl_name(struct call *c, unsigned int req, int type,
	       const struct xlat *t)
{
	const char *nm;

	if ((int)_IOC_TYPE(req) != type || !(nm = xlat_name(t, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	return 1;
}

static void d_ioctl(struct call *c)
{
	unsigned long req = (unsigned int)c->s->args[1], arg = c->s->args[2];
	unsigned int k;
	int i = 0;

	a_fd(c, 0);
	a_sep(c);
	if (ioctl_evdev(c, (unsigned int)req, arg) ||
	    ioctl_gpio(c, (unsigned int)req, arg) ||
	    ioctl_kd(c, (unsigned int)req, arg) ||
	    ioctl_loop(c, (unsigned int)req, arg) ||
	    ioctl_rtc(c, (unsigned int)req, arg) ||
	    ioctl_block(c, (unsigned int)req, arg) ||
	    ioctl_perf(c, (unsigned int)req, arg) ||
	    ioctl_ubi(c, (unsigned int)req, arg) ||
	    ioctl_v4l2(c, (unsigned int)req, arg) ||
	    ioctl_ptp(c, (unsigned int)req, arg) ||
	    ioctl_sg(c, (unsigned int)req, arg) ||
	    ioctl_mtd(c, (unsigned int)req, arg) ||
	    ioctl_tee(c, (unsigned int)req, arg) ||
	    ioctl_sockio(c, (unsigned int)req, arg) ||
	    ioctl_dm(c, (unsigned int)req, arg) ||
	    ioctl_uffd(c, (unsigned int)req, arg) ||
	    ioctl_seccomp(c, (unsigned int)req, arg))
		return;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct xlat *t = kinds[k].reqs;

		for (i = 0; i < t->n && t->e[i].value != req; i++)
			;
		if (i < t->n)
			break;
	}
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		p_ioc(c->f, req);
		a_hex(c, arg);
		return;
	}
	p_named(c->f, xlat_str(kinds[k].reqs, i), req, 'x');
	if (kinds[k].arg)
		kinds[k].arg(c, &kinds[k], arg);
}

/* Requests whose argument the kernel overwrites: kept at entry. */
static void e_ioctl(struct call *c)
{
	if ((unsigned int)c->s->args[1] == FS_IOC_FIEMAP)
		e_fiemap(c, c->s->args[2]);
	else if ((unsigned int)c->s->args[1] == HDIO_DRIVE_CMD)
		e_drive_cmd(c, c->s->args[2]);
	else if ((unsigned int)c->s->args[1] == SIOCGIFCONF)
		e_ifconf(c, c->s->args[2]);
	else if (_IOC_TYPE((unsigned int)c->s->args[1]) == 'V')
		ioctl_v4l2_enter(c);
	else if (_IOC_TYPE((unsigned int)c->s->args[1]) == 0xaa)
		ioctl_uffd_enter(c);
	else
		ioctl_seccomp_enter(c);
}

/* The result, and what some requests print after it: a namespace's
 * descriptor (-y) or type */
static void r_ioctl(struct call *c)
{
	unsigned int req = (unsigned int)c->s->args[1];
	const char *nm;

	fmt_dec(c->f, c->s->ret);
	if (_IOC_TYPE(req) == 'V')
		ioctl_v4l2_ret(c);
	else if (req == NS_GET_USERNS || req == NS_GET_PARENT)
		p_fdpath_now(c->f, c->s, (int)c->s->ret);
	else if (req == NS_GET_NSTYPE &&
		 (nm = xlat_name(&xl_setns_types, (unsigned long)c->s->ret))) {
		fmt_str(c->f, " (");
		fmt_str(c->f, nm);
		fmt_chr(c->f, ')');
	}
}

const struct decoder dec_ioctl[] = {
	{ "ioctl", d_ioctl, r_ioctl, e_ioctl },
	{ 0, 0, 0, 0 },
};
