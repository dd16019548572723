/* SPDX-License-Identifier: MIT */
/*
 * ioctl on PTP clocks (linux/ptp_clock.h), both versions of each request:
 * capabilities, external timestamp and periodic output requests, system
 * offsets (the samples the kernel wrote, once it succeeded), pin
 * functions, as strace prints them.  Reserved fields show only when set;
 * real-time clock values carry their date.  The structures are read at
 * the call's exit: the kernel writes only what a request returns.
 */
#include <linux/ptp_clock.h>
#include "trace.h"

/* Reserved words: ", NAME=[0x1, 0, ...]" when any is set */
void p_reserved(struct fmt *f, const char *name, const unsigned int *r,
		int n)
{
	int i;

	for (i = 0; i < n && !r[i]; i++)
		;
	if (i == n)
		return;
	fmt_str(f, ", ");
	fmt_str(f, name);
	fmt_str(f, "=[");
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(f, ", ");
		p_hex(f, r[i]);
	}
	fmt_chr(f, ']');
}

/* {sec=, nsec=[, reserved=]} and, of a real-time clock, its date */
static void p_ptime(struct fmt *f, const struct ptp_clock_time *t, int rtc)
{
	f_dec(f, "{sec=", t->sec);
	f_udec(f, ", nsec=", t->nsec);
	if (t->reserved) {
		fmt_str(f, ", reserved=");
		p_hex(f, t->reserved);
	}
	fmt_chr(f, '}');
	if (rtc && trace_xstyle != XS_RAW)
		p_date(f, t->sec, t->nsec);
}

static void p_ptime_field(struct fmt *f, const char *name,
			  const struct ptp_clock_time *t, int rtc)
{
	fmt_str(f, name);
	p_ptime(f, t, rtc);
}

/* ", ts=[...]": n samples of `per` times each (an array of them when
 * per > 1), cut at -s unless -v */
static void p_samples(struct call *c, const struct ptp_clock_time *ts,
		      unsigned int n, int per)
{
	unsigned int i, max = trace_whole(c->s) ? n :
			      (unsigned int)trace_strsize;
	int k;

	fmt_str(c->f, ", ts=[");
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(c->f, ", ");
		if (i >= max) {
			fmt_str(c->f, "...");
			break;
		}
		if (per > 1)
			fmt_chr(c->f, '[');
		for (k = 0; k < per; k++) {
			if (k)
				fmt_str(c->f, ", ");
			p_ptime(c->f, &ts[i * (unsigned int)per + (unsigned int)k],
				1);
		}
		if (per > 1)
			fmt_chr(c->f, ']');
	}
	fmt_chr(c->f, ']');
}

static void k_caps(struct call *c, unsigned long arg)
{
	static const char *const names[] = {
		"{max_adj=", ", n_alarm=", ", n_ext_ts=", ", n_per_out=",
		", pps=", ", n_pins=", ", cross_timestamping=",
		", adjust_phase=",
	};
	int v[20];	/* (struct ptp_clock_caps: 8 ints, 12 reserved) */
	unsigned int i;

	if (fetch_out(c, v, arg, sizeof(v)))
		return;
	for (i = 0; i < 8; i++)
		f_dec(c->f, names[i], v[i]);
	p_reserved(c->f, "rsv", (const unsigned int *)v + 8, 12);
	fmt_chr(c->f, '}');
}

static void k_extts(struct call *c, unsigned long arg, int v2)
{
	struct ptp_extts_request r;

	a_sep(c);
	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return;
	f_udec(c->f, "{index=", r.index);
	fmt_str(c->f, ", flags=");
	p_flags_unknown(c->f, r.flags, &xl_ptp_extts_flags, "PTP_???");
	if (v2)
		p_reserved(c->f, "rsv", r.rsv, 2);
	fmt_chr(c->f, '}');
}

static void k_perout(struct call *c, unsigned long arg, int v2)
{
	struct ptp_perout_request r;

	a_sep(c);
	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return;
	if (r.flags & PTP_PEROUT_PHASE)
		p_ptime_field(c->f, "{phase=", &r.phase, 0);
	else
		p_ptime_field(c->f, "{start=", &r.start, 1);
	p_ptime_field(c->f, ", period=", &r.period, 0);
	f_udec(c->f, ", index=", r.index);
	fmt_str(c->f, ", flags=");
	p_flags_unknown(c->f, r.flags, &xl_ptp_perout_flags, "PTP_PEROUT_???");
	if (r.flags & PTP_PEROUT_DUTY_CYCLE)
		p_ptime_field(c->f, ", on=", &r.on, 0);
	else if (v2)
		p_reserved(c->f, "rsv", r.rsv, 4);
	fmt_chr(c->f, '}');
}

/* sys_offset and sys_offset_extended: what was asked, then the samples
 * (2n + 1 times, or n triples) */
static void k_sys_offset(struct call *c, unsigned long arg, int extended)
{
	union {
		struct ptp_sys_offset o;
		struct ptp_sys_offset_extended e;
	} u;
	unsigned int n;

	a_sep(c);
	if (fetch(c->f, c->s, &u, arg, extended ? sizeof(u.e) : sizeof(u.o)))
		return;
	/* (the two begin alike) */
	f_udec(c->f, "{n_samples=", u.o.n_samples);
	p_reserved(c->f, "rsv", u.o.rsv, 3);
	n = u.o.n_samples < PTP_MAX_SAMPLES ? u.o.n_samples : PTP_MAX_SAMPLES;
	if (c_ok(c)) {
		if (extended)
			p_samples(c, &u.e.ts[0][0], n, 3);
		else
			p_samples(c, u.o.ts, 2 * n + 1, 1);
	}
	fmt_chr(c->f, '}');
}

static void k_pin(struct call *c, unsigned long arg, int get, int v2)
{
	struct ptp_pin_desc d;

	a_sep(c);
	if (fetch(c->f, c->s, &d, arg, sizeof(d)))
		return;
	f_udec(c->f, "{index=", d.index);
	if (get && v2)
		p_reserved(c->f, "rsv", d.rsv, 5);
	if (!get || c_ok(c)) {
		if (get) {
			fmt_str(c->f, ", name=");
			p_cstring(c->f, d.name, sizeof(d.name));
		}
		fmt_str(c->f, ", func=");
		p_xlat(c->f, d.func, &xl_ptp_pin_funcs, "PTP_PF_???");
		f_udec(c->f, ", chan=", d.chan);
		if (!get && v2)
			p_reserved(c->f, "rsv", d.rsv, 5);
	}
	fmt_chr(c->f, '}');
}

static void k_precise(struct call *c, unsigned long arg)
{
	struct ptp_sys_offset_precise o;

	if (fetch_out(c, &o, arg, sizeof(o)))
		return;
	p_ptime_field(c->f, "{device=", &o.device, 1);
	p_ptime_field(c->f, ", sys_realtime=", &o.sys_realtime, 1);
	p_ptime_field(c->f, ", sys_monoraw=", &o.sys_monoraw, 0);
	p_reserved(c->f, "rsv", o.rsv, 4);
	fmt_chr(c->f, '}');
}

int ioctl_ptp(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm;

	if (_IOC_TYPE(req) != PTP_CLK_MAGIC ||
	    !(nm = xlat_name(&xl_ioctl_ptp, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	if (!trace_structs(c->s)) {
		a_hex(c, arg);
		return 1;
	}
	switch (req) {
	case PTP_CLOCK_GETCAPS: case PTP_CLOCK_GETCAPS2:
		k_caps(c, arg);
		break;
	case PTP_EXTTS_REQUEST: case PTP_EXTTS_REQUEST2:
		k_extts(c, arg, req == PTP_EXTTS_REQUEST2);
		break;
	case PTP_PEROUT_REQUEST: case PTP_PEROUT_REQUEST2:
		k_perout(c, arg, req == PTP_PEROUT_REQUEST2);
		break;
	case PTP_SYS_OFFSET: case PTP_SYS_OFFSET2:
		k_sys_offset(c, arg, 0);
		break;
	case PTP_SYS_OFFSET_EXTENDED: case PTP_SYS_OFFSET_EXTENDED2:
		k_sys_offset(c, arg, 1);
		break;
	case PTP_PIN_GETFUNC: case PTP_PIN_SETFUNC:
		k_pin(c, arg, req == PTP_PIN_GETFUNC, 0);
		break;
	case PTP_PIN_GETFUNC2: case PTP_PIN_SETFUNC2:
		k_pin(c, arg, req == PTP_PIN_GETFUNC2, 1);
		break;
	case PTP_SYS_OFFSET_PRECISE: case PTP_SYS_OFFSET_PRECISE2:
		k_precise(c, arg);
		break;
	default:	/* PTP_ENABLE_PPS{,2}: an int */
		a_hex(c, arg);
		break;
	}
	return 1;
}
