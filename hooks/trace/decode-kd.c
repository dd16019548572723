/* SPDX-License-Identifier: MIT */
/*
 * ioctl on virtual consoles (linux/kd.h, 'K' requests): sound, LEDs,
 * modes, keyboard maps and their entries (keysyms named as keyboard.h
 * names them, with a comment saying what a number means), accents,
 * fonts, screen and Unicode maps, as strace prints them.  Structures
 * are read at the call's exit: what the kernel wrote follows " => " or
 * replaces the address of an out-argument.
 */
#include <linux/ioctl.h>
#include <linux/kd.h>
#include <linux/keyboard.h>
#include "trace.h"

#define PIT_TICK_RATE 1193182UL	/* (the kernel's i8253 clock, in Hz) */
/* the general purpose I/O ports KDADDIO takes (the kernel's vt_ioctl.c) */
#define GPFIRST 0x3b4UL
#define GPLAST 0x3dfUL

/* n, or -s when less */
static unsigned long strmax(unsigned long n)
{
	unsigned long s = (unsigned long)trace_strsize;

	return n < s ? n : s;
}

static int is_raw(void)
{
	return trace_xstyle == XS_RAW;
}

/* The meaning of a keysym: K_F1, or K(KT_LATIN, 'a'), K(KT_CONS, 0x3) */
static void p_keysym_comment(struct fmt *f, unsigned int v)
{
	unsigned int type = v >> 8, val = v & 0xff;
	const char *nm = xlat_name(&xl_kd_keysyms, v);
	const char *tn;

	if (nm) {
		fmt_str(f, nm);
		return;
	}
	fmt_str(f, "K(");
	tn = xlat_name(&xl_kd_ktypes, type);
	if (tn)
		fmt_str(f, tn);
	else
		p_hex(f, type);
	fmt_str(f, ", ");
	if (type == KT_LATIN || type == KT_META || type == KT_LETTER ||
	    type == KT_DEAD2)
		p_char(f, val);
	else
		p_hex(f, val);
	fmt_chr(f, ')');
}

/* Bit flags whose names are made by a printer (LED_SCR<<4, 1<<KG_ALT):
 * names[i] for bit i, the rest in hex, none named: hex and unknown. */
static void p_bits(struct fmt *f, unsigned long v, const char *const *names,
		   const char *pre, const char *post, unsigned int nbits,
		   const char *unknown)
{
	size_t start = x_begin(f);
	unsigned long rest = v;
	unsigned int i;
	int any = 0;

	for (i = 0; i < nbits; i++) {
		if (!(v & (1UL << i)) || !names[i])
			continue;
		if (any)
			fmt_chr(f, '|');
		fmt_str(f, pre);
		fmt_str(f, names[i]);
		fmt_str(f, post);
		rest &= ~(1UL << i);
		any = 1;
	}
	if (!any) {
		p_hex(f, v);
		if (v && unknown) {
			fmt_str(f, " /* ");
			fmt_str(f, unknown);
			fmt_str(f, " */");
		}
	} else if (rest) {
		fmt_chr(f, '|');
		fmt_hex(f, rest);
	}
	x_end(f, start, v, 'x');
}

static void p_leds(struct fmt *f, unsigned int v, int kb)
{
	static const char *const led[8] = {
		"LED_SCR", "LED_NUM", "LED_CAP", 0,
		"LED_SCR<<4", "LED_NUM<<4", "LED_CAP<<4", 0,
	};

	p_bits(f, v, led, "", "", kb ? 8 : 3, "LED_???");
}

/* A keyboard table: K_NORMTAB, or its modifiers 1<<KG_SHIFT|... */
static void p_kbtable(struct fmt *f, unsigned int v)
{
	const char *nm = xlat_name(&xl_kd_kbtables, v);
	const char *kg[8];
	unsigned int i;

	if (nm) {
		p_named(f, nm, v, 'x');
		return;
	}
	for (i = 0; i < 8; i++)
		kg[i] = xlat_name(&xl_kd_kg, i);
	p_bits(f, v, kg, "1<<", "", 8, 0);
}

/* A function key's number: KVAL(K_F1) */
static void p_kbfunc(struct fmt *f, unsigned int v)
{
	const char *nm = xlat_name(&xl_kd_keysyms, K(KT_FN, v));
	size_t start;

	if (!nm) {
		p_hex(f, v);
		return;
	}
	start = x_begin(f);
	fmt_str(f, "KVAL(");
	fmt_str(f, nm);
	fmt_chr(f, ')');
	x_end(f, start, v, 'x');
}

/*
 * Bytes the kernel takes as a whole (fonts, maps), every one in hex: as
 * many as -s shows (the address when even those and one more, to tell
 * whether they go on, cannot be read), "..." after them when longer.
 */
static void p_hexstr(struct call *c, unsigned long p, unsigned long len)
{
	unsigned char buf[4096];
	unsigned long want = (unsigned long)trace_strsize + 1, shown;

	if (!p) {
		fmt_str(c->f, "NULL");
		return;
	}
	if (want > len)
		want = len;
	if (want > sizeof(buf))
		want = sizeof(buf);
	if (want && trace_read(c->s, buf, (void *)p, want) != (long)want) {
		fmt_hex(c->f, p);
		return;
	}
	shown = len > (unsigned long)trace_strsize ?
			(unsigned long)trace_strsize : len;
	if (shown > want)
		shown = want;
	p_hex_bytes(c->f, buf, shown);
	if (shown < len)
		fmt_str(c->f, "...");
}

/*
 * A NUL-terminated string: at most shown bytes of it, "..." when it has
 * at least `cut` (a font's name, which must end within its 32 bytes,
 * shows 31 and is cut at 32; a function key's string shows and is cut
 * at -s); NULL, or the address when it cannot be read to its end.
 */
static void p_str_cut(struct call *c, unsigned long p, unsigned long shown,
		      unsigned long cut)
{
	char buf[4096];
	long n;

	if (!p) {
		fmt_str(c->f, "NULL");
		return;
	}
	if (cut > sizeof(buf) - 1)
		cut = sizeof(buf) - 1;
	n = sysgate_read_str(c->s, buf, (void *)p, cut + 1, 0);
	if (n < 0) {
		fmt_hex(c->f, p);
		return;
	}
	p_data_local(c->f, (const unsigned char *)buf,
		     (unsigned long)n < shown ? (unsigned long)n : shown);
	if ((unsigned long)n >= cut)
		fmt_str(c->f, "...");
}

/* an accent: {diacr=, base=, result=} each by pr */
static void p_accent(struct fmt *f, unsigned int d, unsigned int b,
		     unsigned int r, void (*pr)(struct fmt *f, unsigned int v))
{
	fmt_str(f, "{diacr=");
	pr(f, d);
	fmt_str(f, ", base=");
	pr(f, b);
	fmt_str(f, ", result=");
	pr(f, r);
	fmt_chr(f, '}');
}

static void p_hex32(struct fmt *f, unsigned int v)
{
	p_hex(f, v);
}

static void e_diacr(struct fmt *f, const void *e)
{
	const struct kbdiacr *d = e;

	p_accent(f, d->diacr, d->base, d->result, p_char);
}

static void e_diacruc(struct fmt *f, const void *e)
{
	const struct kbdiacruc *d = e;

	p_accent(f, d->diacr, d->base, d->result, p_hex32);
}

static void e_unipair(struct fmt *f, const void *e)
{
	const struct unipair *u = e;

	fmt_str(f, "{unicode=");
	p_hex(f, u->unicode);
	fmt_str(f, ", fontpos=");
	p_hex(f, u->fontpos);
	fmt_chr(f, '}');
}

/* A Unicode screen map entry: UNI_DIRECT_BASE+0x15 in the direct range */
static void e_uniscr(struct fmt *f, const void *e)
{
	unsigned short v = *(const unsigned short *)e;
	size_t start;

	if ((v & ~UNI_DIRECT_MASK) != UNI_DIRECT_BASE) {
		p_hex(f, v);
		return;
	}
	start = x_begin(f);
	fmt_str(f, "UNI_DIRECT_BASE+");
	p_hex(f, v - UNI_DIRECT_BASE);
	x_end(f, start, v, 'x');
}

/* An out-argument of one value (unsigned char or int): [value] */
static void k_out_val(struct call *c, unsigned long arg, int bytes,
		      void (*pr)(struct fmt *f, unsigned int v))
{
	unsigned int v = 0;

	if (fetch_out(c, &v, arg, (unsigned long)bytes))
		return;
	fmt_chr(c->f, '[');
	pr(c->f, v);
	fmt_chr(c->f, ']');
}

static void v_led(struct fmt *f, unsigned int v) { p_leds(f, v & 0xff, 0); }
static void v_kbled(struct fmt *f, unsigned int v) { p_leds(f, v & 0xff, 1); }
static void v_kbtype(struct fmt *f, unsigned int v)
{
	p_xlat(f, v & 0xff, &xl_kd_kbtypes, "KB_???");
}
static void v_mode(struct fmt *f, unsigned int v)
{
	p_xlat(f, v, &xl_kd_modes, "KD_???");
}
static void v_kbmode(struct fmt *f, unsigned int v)
{
	p_xlat_as(f, v, &xl_kd_kbmodes, "K_???", 'd');
}
static void v_meta(struct fmt *f, unsigned int v)
{
	p_xlat(f, v, &xl_kd_kbmeta, "K_???");
}

static void k_sound(struct call *c, unsigned long arg)
{
	a_udec(c, arg);
	if (is_raw())
		return;
	if (!arg || arg > PIT_TICK_RATE)
		fmt_str(c->f, " /* off */");
	else {
		f_udec(c->f, " /* ", PIT_TICK_RATE / arg);
		fmt_str(c->f, " Hz */");
	}
}

/* KDMKTONE: ticks (ms) << 16 | count */
static void k_tone(struct call *c, unsigned long arg)
{
	unsigned int ms = (arg >> 16) & 0xffff, cnt = arg & 0xffff;

	a_sep(c);
	if (ms) {
		fmt_udec(c->f, ms);
		fmt_str(c->f, "<<16|");
	}
	fmt_udec(c->f, cnt);
	if (is_raw())
		return;
	if (!ms || !cnt) {
		fmt_str(c->f, " /* off */");
		return;
	}
	f_udec(c->f, " /* ", PIT_TICK_RATE / cnt);
	f_udec(c->f, " Hz, ", ms);
	fmt_str(c->f, " ms */");
}

/* KDADDIO, KDDELIO: a port, the general purpose ones counted */
static void k_port(struct call *c, unsigned long arg)
{
	a_hex(c, arg);
	if (is_raw() || arg < GPFIRST || arg > GPLAST)
		return;
	f_udec(c->f, " /* GPFIRST + ", arg - GPFIRST);
	fmt_str(c->f, " */");
}

static void k_kbent(struct call *c, unsigned long arg, int set)
{
	struct kbentry e;

	a_sep(c);
	if (fetch(c->f, c->s, &e, arg, 2))
		return;
	fmt_str(c->f, "{kb_table=");
	p_kbtable(c->f, e.kb_table);
	f_udec(c->f, ", kb_index=", e.kb_index);
	if (set || c_ok(c)) {
		fmt_str(c->f, ", kb_value=");
		if (trace_read(c->s, &e.kb_value, (void *)(arg + 2), 2) != 2) {
			fmt_str(c->f, "???");
		} else {
			p_hex(c->f, e.kb_value);
			if (!is_raw()) {
				fmt_str(c->f, " /* ");
				p_keysym_comment(c->f, e.kb_value);
				fmt_str(c->f, " */");
			}
		}
	}
	fmt_chr(c->f, '}');
}

static void k_kbsent(struct call *c, unsigned long arg, int set)
{
	unsigned char func;
	char tmp[sizeof(((struct kbsentry *)0)->kb_string)];

	a_sep(c);
	if (fetch(c->f, c->s, &func, arg, 1))
		return;
	fmt_str(c->f, "{kb_func=");
	p_kbfunc(c->f, func);
	if (set || c_ok(c)) {
		fmt_str(c->f, ", kb_string=");
		/* (a string the page ends before its NUL is unknown) */
		if (sysgate_read_str(c->s, tmp, (void *)(arg + 1), sizeof(tmp),
				     0) < 0)
			fmt_str(c->f, "???");
		else
			p_str_cut(c, arg + 1, strmax(sizeof(tmp)),
				  strmax(sizeof(tmp)));
	}
	fmt_chr(c->f, '}');
}

static void k_diacrs(struct call *c, unsigned long arg, int set, int uc)
{
	unsigned int cnt;

	if (set)
		a_sep(c);
	else if (!a_out(c, arg))
		return;
	if (fetch(c->f, c->s, &cnt, arg, sizeof(cnt)))
		return;
	f_udec(c->f, "{kb_cnt=", cnt);
	fmt_str(c->f, uc ? ", kbdiacruc=" : ", kbdiacr=");
	if (uc)
		p_elems(c, arg + 4, cnt, 256, sizeof(struct kbdiacruc),
			e_diacruc);
	else
		p_elems(c, arg + 4, cnt, 256, sizeof(struct kbdiacr), e_diacr);
	fmt_chr(c->f, '}');
}

static void k_keycode(struct call *c, unsigned long arg, int get)
{
	struct kbkeycode k;

	a_sep(c);
	if (fetch(c->f, c->s, &k, arg, sizeof(k)))
		return;
	fmt_str(c->f, "{scancode=");
	p_hex(c->f, k.scancode);
	fmt_str(c->f, ", keycode=");
	p_hex(c->f, k.keycode);
	if (get && c_ok(c)) {
		fmt_str(c->f, " => ");
		p_hex(c->f, k.keycode);
	}
	fmt_chr(c->f, '}');
}

static void k_sigaccept(struct call *c, unsigned long arg)
{
	a_sep(c);
	if (arg && arg <= 64 && sysgate_signal_name((int)arg))
		p_signame(c->f, (int)arg);
	else
		fmt_udec(c->f, arg);
}

static void k_kbdrep(struct call *c, unsigned long arg)
{
	struct kbd_repeat r;

	a_sep(c);
	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return;
	f_dec(c->f, "{delay=", r.delay);
	f_dec(c->f, ", period=", r.period);
	fmt_chr(c->f, '}');
	if (c_ok(c)) {
		f_dec(c->f, " => {delay=", r.delay);
		f_dec(c->f, ", period=", r.period);
		fmt_chr(c->f, '}');
	}
}

/* Bytes read (set) or written (get): the address until they are */
static void k_bytes(struct call *c, unsigned long arg, unsigned long len,
		    int set)
{
	if (set)
		a_sep(c);
	else if (!a_out(c, arg))
		return;
	p_hexstr(c, arg, len);
}

static void k_unimap(struct call *c, unsigned long arg, int get)
{
	struct unimapdesc u;

	a_sep(c);
	if (fetch(c->f, c->s, &u, arg, sizeof(u)))
		return;
	f_udec(c->f, "{entry_ct=", u.entry_ct);
	if (get) {
		/* (the kernel writes the count it has, even when it fails) */
		f_udec(c->f, " => ", u.entry_ct);
	}
	fmt_str(c->f, ", entries=");
	if (get && !c_ok(c))
		p_ptr(c->f, (unsigned long)u.entries);
	else
		p_elems(c, (unsigned long)u.entries, u.entry_ct, ~0UL,
			sizeof(struct unipair), e_unipair);
	fmt_chr(c->f, '}');
}

static void k_unimapclr(struct call *c, unsigned long arg)
{
	struct unimapinit u;

	a_sep(c);
	if (fetch(c->f, c->s, &u, arg, sizeof(u)))
		return;
	f_udec(c->f, "{advised_hashsize=", u.advised_hashsize);
	f_udec(c->f, ", advised_hashstep=", u.advised_hashstep);
	f_udec(c->f, ", advised_hashlevel=", u.advised_hashlevel);
	fmt_chr(c->f, '}');
}

static void k_uniscrnmap(struct call *c, unsigned long arg, int set)
{
	if (set)
		a_sep(c);
	else if (!a_out(c, arg))
		return;
	p_elems(c, arg, E_TABSZ, E_TABSZ, 2, e_uniscr);
}

/* consolefontdesc: its data (charcount glyphs of 32 bytes) when in */
static void p_fontdesc(struct call *c, const struct consolefontdesc *d,
		       int data)
{
	f_udec(c->f, "{charcount=", d->charcount);
	f_udec(c->f, ", charheight=", d->charheight);
	fmt_str(c->f, ", chardata=");
	if (data)
		p_hexstr(c, (unsigned long)d->chardata,
			 (unsigned long)d->charcount * 32);
	else
		p_ptr(c->f, (unsigned long)d->chardata);
	fmt_chr(c->f, '}');
}

static void k_fontx(struct call *c, unsigned long arg, int set)
{
	struct consolefontdesc d;

	a_sep(c);
	if (fetch(c->f, c->s, &d, arg, sizeof(d)))
		return;
	p_fontdesc(c, &d, set);
	if (!set && c_ok(c)) {
		fmt_str(c->f, " => ");
		p_fontdesc(c, &d, 1);
	}
}

/* console_font_op's geometry and data: bytes of the glyphs when shown */
static void p_fontop(struct call *c, const struct console_font_op *o,
		     int flags, int data)
{
	if (flags) {
		fmt_str(c->f, ", flags=");
		p_flags_unknown(c->f, o->flags, &xl_kd_font_flags,
				"KD_FONT_FLAG_???");
	}
	f_udec(c->f, flags ? ", width=" : "{width=", o->width);
	f_udec(c->f, ", height=", o->height);
	f_udec(c->f, ", charcount=", o->charcount);
	fmt_str(c->f, ", data=");
	if (data)
		p_hexstr(c, (unsigned long)o->data,
			 (unsigned long)o->charcount * 32 *
			 ((o->width + 7) / 8));
	else
		p_ptr(c->f, (unsigned long)o->data);
	fmt_chr(c->f, '}');
}

static void k_fontop(struct call *c, unsigned long arg)
{
	struct console_font_op o;

	a_sep(c);
	if (fetch(c->f, c->s, &o, arg, sizeof(o)))
		return;
	fmt_str(c->f, "{op=");
	p_xlat(c->f, o.op, &xl_kd_font_ops, "KD_FONT_OP_???");
	switch (o.op) {
	case KD_FONT_OP_SET_DEFAULT:
		f_udec(c->f, ", width=", o.width);
		f_udec(c->f, ", height=", o.height);
		fmt_str(c->f, ", data=");
		/* (a font's name: at most MAX_FONT_NAME bytes, NUL included) */
		p_str_cut(c, (unsigned long)o.data, strmax(31), 32);
		fmt_chr(c->f, '}');
		if (c_ok(c)) {
			f_udec(c->f, " => {width=", o.width);
			f_udec(c->f, ", height=", o.height);
			fmt_chr(c->f, '}');
		}
		return;
	case KD_FONT_OP_COPY:
		f_udec(c->f, ", height=", o.height);
		fmt_chr(c->f, '}');
		return;
	}
	p_fontop(c, &o, 1, o.op == KD_FONT_OP_SET);
	if (o.op != KD_FONT_OP_SET && c_ok(c)) {
		fmt_str(c->f, " => ");
		p_fontop(c, &o, 0, o.op == KD_FONT_OP_GET);
	}
}

int ioctl_kd(struct call *c, unsigned int req, unsigned long arg)
{
	if (!ioctl_name(c, req, 'K', &xl_ioctl_kd))
		return 0;
	switch (req) {
	case KDENABIO: case KDDISABIO: case KDMAPDISP: case KDUNMAPDISP:
	case PIO_FONTRESET:
		return 1;	/* (no argument) */
	case KIOCSOUND:
		k_sound(c, arg);
		return 1;
	case KDMKTONE:
		k_tone(c, arg);
		return 1;
	case KDADDIO: case KDDELIO:
		k_port(c, arg);
		return 1;
	case KDSETLED:
		a_sep(c), p_leds(c->f, arg & 0xff, 0);
		return 1;
	case KDSKBLED:
		a_sep(c), p_leds(c->f, arg & 0xff, 1);
		return 1;
	case KDSETMODE:
		a_sep(c), v_mode(c->f, (unsigned int)arg);
		return 1;
	case KDSKBMODE:
		a_sep(c), v_kbmode(c->f, (unsigned int)arg);
		return 1;
	case KDSKBMETA:
		a_sep(c), v_meta(c->f, (unsigned int)arg);
		return 1;
	case KDSIGACCEPT:
		k_sigaccept(c, arg);
		return 1;
	}
	if (!trace_structs(c->s)) {
		a_hex(c, arg);
		return 1;
	}
	switch (req) {
	case KDGETLED: k_out_val(c, arg, 1, v_led); break;
	case KDGKBLED: k_out_val(c, arg, 1, v_kbled); break;
	case KDGKBTYPE: k_out_val(c, arg, 1, v_kbtype); break;
	case KDGETMODE: k_out_val(c, arg, 4, v_mode); break;
	case KDGKBMODE: k_out_val(c, arg, 4, v_kbmode); break;
	case KDGKBMETA: k_out_val(c, arg, 4, v_meta); break;
	case GIO_SCRNMAP: case PIO_SCRNMAP:
		k_bytes(c, arg, E_TABSZ, req == PIO_SCRNMAP);
		break;
	case GIO_FONT: case PIO_FONT:
		k_bytes(c, arg, 8192, req == PIO_FONT);
		break;
	case GIO_CMAP: case PIO_CMAP:
		k_bytes(c, arg, 48, req == PIO_CMAP);
		break;
	case KDGKBENT: case KDSKBENT:
		k_kbent(c, arg, req == KDSKBENT);
		break;
	case KDGKBSENT: case KDSKBSENT:
		k_kbsent(c, arg, req == KDSKBSENT);
		break;
	case KDGKBDIACR: case KDSKBDIACR:
		k_diacrs(c, arg, req == KDSKBDIACR, 0);
		break;
	case KDGKBDIACRUC: case KDSKBDIACRUC:
		k_diacrs(c, arg, req == KDSKBDIACRUC, 1);
		break;
	case KDGETKEYCODE: case KDSETKEYCODE:
		k_keycode(c, arg, req == KDGETKEYCODE);
		break;
	case KDKBDREP:
		k_kbdrep(c, arg);
		break;
	case GIO_UNIMAP: case PIO_UNIMAP:
		k_unimap(c, arg, req == GIO_UNIMAP);
		break;
	case PIO_UNIMAPCLR:
		k_unimapclr(c, arg);
		break;
	case GIO_UNISCRNMAP: case PIO_UNISCRNMAP:
		k_uniscrnmap(c, arg, req == PIO_UNISCRNMAP);
		break;
	case GIO_FONTX: case PIO_FONTX:
		k_fontx(c, arg, req == PIO_FONTX);
		break;
	case KDFONTOP:
		k_fontop(c, arg);
		break;
	default:
		a_hex(c, arg);
		break;
	}
	return 1;
}
