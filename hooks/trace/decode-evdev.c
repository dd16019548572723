/* SPDX-License-Identifier: MIT */
/*
 * ioctl on input devices (type 'E', linux/input.h): the request's name,
 * with the numbers some requests carry (EVIOCGBIT(EV_KEY, 96),
 * EVIOCGABS(ABS_X)), and its argument as strace prints it: bit sets by
 * name, absinfo, ids, keymap entries, force-feedback effects.
 */
#include <linux/input.h>
#include "trace.h"

/* The requests that carry a size (a buffer's) in their name. */
static const struct {
	unsigned int nr;
	const char *name;
} sized[] = {
	{ 0x06, "EVIOCGNAME" }, { 0x07, "EVIOCGPHYS" },
	{ 0x08, "EVIOCGUNIQ" }, { 0x09, "EVIOCGPROP" },
	{ 0x0a, "EVIOCGMTSLOTS" }, { 0x18, "EVIOCGKEY" },
	{ 0x19, "EVIOCGLED" }, { 0x1a, "EVIOCGSND" },
	{ 0x1b, "EVIOCGSW" },
};

/* A number inside a request's name: under -X verbose the whole name is
 * the comment, where strace leaves unknown ones bare. */
static void p_name_arg(struct fmt *f, unsigned long v, const struct xlat *t,
		       const char *unknown)
{
	p_xlat(f, v, t, trace_xstyle == XS_VERBOSE ? 0 : unknown);
}

/* The request's name; 0 when it is no evdev request sysgate knows. */
static int p_evdev_req(struct fmt *f, unsigned int req)
{
	unsigned int nr = _IOC_NR(req), dir = _IOC_DIR(req), i;
	const char *nm = xlat_name(&xl_ioctl_evdev, req);
	size_t start = x_begin(f);

	if (dir == _IOC_WRITE && nr >= 0xc0) {
		fmt_str(f, "EVIOCSABS(");
		p_name_arg(f, nr - 0xc0, &xl_evdev_abs, "ABS_???");
		fmt_chr(f, ')');
	} else if (dir == _IOC_READ && nr >= 0x20 && nr < 0x40) {
		fmt_str(f, "EVIOCGBIT(");
		if (nr == 0x20)
			fmt_chr(f, '0');
		else
			p_name_arg(f, nr - 0x20, &xl_evdev_ev, "EV_???");
		f_udec(f, ", ", _IOC_SIZE(req));
		fmt_chr(f, ')');
	} else if (dir == _IOC_READ && nr >= 0x40 && nr < 0x80) {
		fmt_str(f, "EVIOCGABS(");
		p_name_arg(f, nr - 0x40, &xl_evdev_abs, "ABS_???");
		fmt_chr(f, ')');
	} else {
		for (i = 0; dir == _IOC_READ && i < sizeof(sized) /
						 sizeof(sized[0]); i++)
			if (sized[i].nr == nr)
				break;
		if (dir == _IOC_READ && i < sizeof(sized) / sizeof(sized[0])) {
			fmt_str(f, sized[i].name);
			f_udec(f, "(", _IOC_SIZE(req));
			fmt_chr(f, ')');
		} else if (nm) {
			fmt_str(f, nm);
		} else {
			f->len = start;
			f->depth--;	/* (the group x_begin opened) */
			return 0;
		}
	}
	x_end(f, start, req, 'x');
	return 1;
}

/* [v] of an int, in decimal, unsigned or hex */
static void a_int_in(struct call *c, unsigned long p, char base, int out)
{
	unsigned int v;

	if (fetch_arg(c, &v, p, sizeof(v), out))
		return;
	fmt_chr(c->f, '[');
	if (base == 'x')
		p_hex(c->f, v);
	else if (base == 'u')
		fmt_udec(c->f, v);
	else
		fmt_dec(c->f, (int)v);
	fmt_chr(c->f, ']');
}

/* autorepeat's [delay, period] */
static void a_rep(struct call *c, unsigned long p, int out)
{
	unsigned int r[2];

	if (fetch_arg(c, r, p, sizeof(r), out))
		return;
	f_udec(c->f, "[", r[0]);
	f_udec(c->f, ", ", r[1]);
	fmt_chr(c->f, ']');
}

/* struct input_absinfo as far as the request's size goes (20 bytes
 * first, 24 with the resolution) */
static void a_absinfo(struct call *c, unsigned int req, unsigned long p,
		      int out)
{
	struct input_absinfo a;
	unsigned int sz = _IOC_SIZE(req);

	if (sz < 20) {
		if (!out)
			a_ptr(c, p);
		else if (a_out(c, p))
			p_ptr(c->f, p);
		return;
	}
	if (fetch_arg(c, &a, p, sz < sizeof(a) ? sz : sizeof(a), out))
		return;
	f_udec(c->f, "{value=", (unsigned int)a.value);
	f_udec(c->f, ", minimum=", (unsigned int)a.minimum);
	if (!trace_whole(c->s)) {
		fmt_str(c->f, ", ...}");
		return;
	}
	f_udec(c->f, ", maximum=", (unsigned int)a.maximum);
	f_udec(c->f, ", fuzz=", (unsigned int)a.fuzz);
	f_udec(c->f, ", flat=", (unsigned int)a.flat);
	if (sz >= 24)
		f_udec(c->f, ", resolution=", (unsigned int)a.resolution);
	if (sz > 20 && sz != 24)
		fmt_str(c->f, ", ...");
	fmt_chr(c->f, '}');
}

/* [scancode, KEY_...] */
static void a_keycode(struct call *c, unsigned long p, int out)
{
	unsigned int k[2];

	if (fetch_arg(c, k, p, sizeof(k), out))
		return;
	f_udec(c->f, "[", k[0]);
	fmt_str(c->f, ", ");
	p_xlat(c->f, k[1], &xl_evdev_keys, "KEY_???");
	fmt_chr(c->f, ']');
}

static void a_keymap_entry(struct call *c, unsigned long p, int out)
{
	struct input_keymap_entry e;
	unsigned int i;

	if (fetch_arg(c, &e, p, sizeof(e), out))
		return;
	f_udec(c->f, "{flags=", e.flags);
	f_udec(c->f, ", len=", e.len);
	if (!trace_whole(c->s)) {
		fmt_str(c->f, ", ...}");
		return;
	}
	f_udec(c->f, ", index=", e.index);
	fmt_str(c->f, ", keycode=");
	p_xlat(c->f, e.keycode, &xl_evdev_keys, "KEY_???");
	fmt_str(c->f, ", scancode=[");
	for (i = 0; i < sizeof(e.scancode); i++) {
		if (i)
			fmt_str(c->f, ", ");
		p_hex(c->f, e.scancode[i]);
	}
	fmt_str(c->f, "]}");
}

static void p_envelope(struct fmt *f, const struct ff_envelope *e)
{
	f_udec(f, ", envelope={attack_length=", e->attack_length);
	f_udec(f, ", attack_level=", e->attack_level);
	f_udec(f, ", fade_length=", e->fade_length);
	fmt_str(f, ", fade_level=");
	p_hex(f, e->fade_level);
	fmt_chr(f, '}');
}

static void a_ff_effect(struct call *c, unsigned long p)
{
	struct ff_effect e;
	struct fmt *f = c->f;

	if (fetch_arg(c, &e, p, sizeof(e), 0))
		return;
	fmt_str(f, "{type=");
	p_xlat(f, e.type, &xl_evdev_ff_types, "FF_???");
	f_dec(f, ", id=", e.id);
	f_udec(f, ", direction=", e.direction);
	if (!trace_whole(c->s)) {
		fmt_str(f, ", ...}");
		return;
	}
	f_udec(f, ", trigger={button=", e.trigger.button);
	f_udec(f, ", interval=", e.trigger.interval);
	f_udec(f, "}, replay={length=", e.replay.length);
	f_udec(f, ", delay=", e.replay.delay);
	fmt_chr(f, '}');
	switch (e.type) {
	case FF_CONSTANT:
		f_dec(f, ", constant={level=", e.u.constant.level);
		p_envelope(f, &e.u.constant.envelope);
		fmt_chr(f, '}');
		break;
	case FF_RAMP:
		f_dec(f, ", ramp={start_level=", e.u.ramp.start_level);
		f_dec(f, ", end_level=", e.u.ramp.end_level);
		p_envelope(f, &e.u.ramp.envelope);
		fmt_chr(f, '}');
		break;
	case FF_PERIODIC:
		f_udec(f, ", periodic={waveform=", e.u.periodic.waveform);
		f_udec(f, ", period=", e.u.periodic.period);
		f_dec(f, ", magnitude=", e.u.periodic.magnitude);
		f_dec(f, ", offset=", e.u.periodic.offset);
		f_udec(f, ", phase=", e.u.periodic.phase);
		p_envelope(f, &e.u.periodic.envelope);
		f_udec(f, ", custom_len=", e.u.periodic.custom_len);
		fmt_str(f, ", custom_data=");
		p_ptr(f, (unsigned long)e.u.periodic.custom_data);
		fmt_chr(f, '}');
		break;
	case FF_RUMBLE:
		f_udec(f, ", rumble={strong_magnitude=",
		       e.u.rumble.strong_magnitude);
		f_udec(f, ", weak_magnitude=", e.u.rumble.weak_magnitude);
		fmt_chr(f, '}');
		break;
	}
	fmt_chr(f, '}');
}

/* A bit set the kernel wrote (as many bytes as the call returned, at
 * most max bits): "[KEY_1 KEY_2]" (4 names, then "...", unless -v),
 * under -X raw its words, under -X verbose both. */
static void a_bitset(struct call *c, unsigned long p, unsigned int max,
		     const struct xlat *t, const char *unknown)
{
	unsigned long w[(KEY_MAX + 64) / 64];
	unsigned long bits, nw, i;
	int shown = 0;
	struct fmt *f = c->f;

	if (!a_out(c, p))
		return;
	bits = (unsigned long)c->s->ret > max / 8 ? max : c->s->ret * 8;
	nw = (bits + 63) / 64;
	if (!nw) {
		p_ptr(f, p);
		return;
	}
	if (fetch(f, c->s, w, p, nw * 8))
		return;
	if (trace_xstyle != XS_RAW) {
		fmt_chr(f, '[');
		for (i = 0; i < bits; i++) {
			if (!(w[i / 64] >> (i % 64) & 1))
				continue;
			if (shown)
				fmt_chr(f, ' ');
			if (shown++ >= 4 && !trace_whole(c->s)) {
				fmt_str(f, "...");
				break;
			}
			p_xlat(f, i, t, unknown);
		}
		fmt_chr(f, ']');
	}
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(f, " /* ");
	if (trace_xstyle != XS_ABBREV) {
		fmt_chr(f, '[');
		for (i = 0; i < nw; i++) {
			if (i)
				fmt_str(f, ", ");
			p_hex(f, w[i]);
		}
		fmt_chr(f, ']');
	}
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(f, " */");
}

static void e_int(struct fmt *f, const void *e)
{
	fmt_dec(f, *(const int *)e);
}

/* EVIOCGMTSLOTS: {code=ABS_MT_..., values=[...]} in size bytes */
static void a_mtslots(struct call *c, unsigned int req, unsigned long p)
{
	unsigned int n = _IOC_SIZE(req) / sizeof(int), code;

	if (!a_out(c, p))
		return;
	if (!n) {
		p_ptr(c->f, p);
		return;
	}
	if (fetch(c->f, c->s, &code, p, sizeof(code)))
		return;
	fmt_str(c->f, "{code=");
	p_xlat(c->f, code, &xl_evdev_mtslots, "ABS_MT_???");
	fmt_str(c->f, ", values=");
	p_array(c, p + sizeof(int), n - 1, sizeof(int), 0, e_int);
	fmt_chr(c->f, '}');
}

static void a_getbit(struct call *c, unsigned int ev, unsigned long p)
{
	static const struct {
		unsigned int max;
		const struct xlat *t;
		const char *unknown;
	} sets[EV_CNT] = {
		[0] = { EV_MAX, &xl_evdev_ev, "EV_???" },
		[EV_KEY] = { KEY_MAX, &xl_evdev_keys, "KEY_???" },
		[EV_REL] = { REL_MAX, &xl_evdev_rel, "REL_???" },
		[EV_ABS] = { ABS_MAX, &xl_evdev_abs, "ABS_???" },
		[EV_MSC] = { MSC_MAX, &xl_evdev_misc, "MSC_???" },
		[EV_SW] = { SW_MAX, &xl_evdev_sw, "SW_???" },
		[EV_LED] = { LED_MAX, &xl_evdev_leds, "LED_???" },
		[EV_SND] = { SND_MAX, &xl_evdev_snd, "SND_???" },
		[EV_REP] = { REP_MAX, &xl_evdev_rep, "REP_???" },
		[EV_FF] = { FF_MAX, &xl_evdev_ff_types, "FF_???" },
		[EV_FF_STATUS] = { FF_STATUS_MAX, &xl_evdev_ff_status,
				   "FF_STATUS_???" },
	};

	if (ev == EV_PWR)
		a_int_in(c, p, 'd', 1);
	else if (ev < EV_CNT && sets[ev].t)
		a_bitset(c, p, sets[ev].max, sets[ev].t, sets[ev].unknown);
	else if (a_out(c, p))
		p_ptr(c->f, p);
}

static void a_evdev_read(struct call *c, unsigned int req, unsigned long p)
{
	unsigned int nr = _IOC_NR(req);

	switch (req) {
	case EVIOCGVERSION:
		a_int_in(c, p, 'x', 1);
		return;
	case EVIOCGEFFECTS:
		a_int_in(c, p, 'u', 1);
		return;
	case EVIOCGID: {
		struct input_id id;

		if (fetch_arg(c, &id, p, sizeof(id), 1))
			return;
		f_udec(c->f, "{bustype=", id.bustype);
		f_udec(c->f, ", vendor=", id.vendor);
		f_udec(c->f, ", product=", id.product);
		f_udec(c->f, ", version=", id.version);
		fmt_chr(c->f, '}');
		return;
	}
	case EVIOCGREP:
		a_rep(c, p, 1);
		return;
	case EVIOCGKEYCODE:
		a_keycode(c, p, 1);
		return;
	case EVIOCGKEYCODE_V2:
		a_keymap_entry(c, p, 1);
		return;
	}
	switch (nr) {
	case 0x0a:
		a_mtslots(c, req, p);
		return;
	case 0x06: case 0x07: case 0x08:	/* name, phys, uniq */
		if (a_out(c, p))
			p_data(c->f, c->s, p, c->s->ret, 0);
		return;
	case 0x09:
		a_bitset(c, p, INPUT_PROP_MAX, &xl_evdev_prop, "PROP_???");
		return;
	case 0x18:
		a_bitset(c, p, KEY_MAX, &xl_evdev_keys, "KEY_???");
		return;
	case 0x19:
		a_bitset(c, p, LED_MAX, &xl_evdev_leds, "LED_???");
		return;
	case 0x1a:
		a_bitset(c, p, SND_MAX, &xl_evdev_snd, "SND_???");
		return;
	case 0x1b:
		a_bitset(c, p, SW_MAX, &xl_evdev_sw, "SW_???");
		return;
	}
	if (nr >= 0x40 && nr < 0x80)
		a_absinfo(c, req, p, 1);
	else if (nr >= 0x20 && nr < 0x40)
		a_getbit(c, nr - 0x20, p);
	else if (a_out(c, p))
		p_ptr(c->f, p);
}

static void a_evdev_write(struct call *c, unsigned int req, unsigned long p)
{
	switch (req) {
	case EVIOCSREP:
		a_rep(c, p, 0);
		return;
	case EVIOCSKEYCODE:
		a_keycode(c, p, 0);
		return;
	case EVIOCSKEYCODE_V2:
		a_keymap_entry(c, p, 0);
		return;
	case EVIOCRMFF:
		a_dec(c, (int)p);
		return;
	case EVIOCGRAB:
	case EVIOCREVOKE:
		a_udec(c, p);
		return;
	case EVIOCSCLOCKID:
		a_int_in(c, p, 'u', 0);
		return;
	case EVIOCSFF:
		a_ff_effect(c, p);
		return;
	}
	if (_IOC_NR(req) >= 0xc0)
		a_absinfo(c, req, p, 0);
	else
		a_ptr(c, p);
}

int ioctl_evdev(struct call *c, unsigned int req, unsigned long arg)
{
	if (_IOC_TYPE(req) != 'E' || !p_evdev_req(c->f, req))
		return 0;
	if (_IOC_DIR(req) == _IOC_READ)
		a_evdev_read(c, req, arg);
	else if (_IOC_DIR(req) == _IOC_WRITE)
		a_evdev_write(c, req, arg);
	else
		a_hex(c, arg);
	return 1;
}
