/* SPDX-License-Identifier: MIT */
/*
 * ioctl on real-time clocks ('p' requests, as hwclock uses them): times
 * and alarms (the weekday, yearday and DST flag only under -v), wakeup
 * alarms, PLL corrections and the clock's parameters (rates, epochs and
 * low-voltage flags are decode-ioctl.c's kinds), as strace prints them.
 * What a read request returns is read at the call's exit; RTC_PARAM_GET shows the parameter
 * asked for, then " => " and the value the kernel gave.
 */
#include <linux/ioctl.h>
#include <linux/rtc.h>
#include "trace.h"

static void p_rtc_time(struct fmt *f, const struct rtc_time *t, int whole)
{
	fmt_chr(f, '{');
	f_ints(f, "tm_sec tm_min tm_hour tm_mday tm_mon tm_year", t, 6, 'd');
	if (whole) {
		fmt_str(f, ", ");
		f_ints(f, "tm_wday tm_yday tm_isdst", &t->tm_wday, 3, 'd');
	}
	fmt_str(f, whole ? "}" : ", ...}");
}

/* A parameter's value, by what the parameter is: the correction is
 * signed, the others unsigned */
static void p_param_value(struct fmt *f, const struct rtc_param *p)
{
	if (p->param == RTC_PARAM_CORRECTION) {
		f_dec(f, "svalue=", p->svalue);
		return;
	}
	fmt_str(f, "uvalue=");
	if (p->param == RTC_PARAM_FEATURES)
		p_bit_flags(f, p->uvalue, &xl_rtc_feature_bits,
			    "1<<RTC_FEATURE_???");
	else if (p->param == RTC_PARAM_BACKUP_SWITCH_MODE)
		p_xlat(f, p->uvalue, &xl_rtc_bsm, "RTC_BSM_???");
	else
		p_hex(f, p->uvalue);
}

/* RTC_PARAM_SET's {param, value, index}; RTC_PARAM_GET's {param, index}
 * and, once it returned, " => {value}" */
static void k_param(struct call *c, unsigned long arg, int get)
{
	struct rtc_param p;
	struct fmt *f = c->f;

	if (fetch_arg(c, &p, arg, sizeof(p), 0))
		return;
	fmt_str(f, "{param=");
	p_xlat(f, p.param, &xl_rtc_params, "RTC_PARAM_???");
	if (!get) {
		fmt_str(f, ", ");
		p_param_value(f, &p);
	}
	f_udec(f, ", index=", p.index);
	f_hex_set(f, ", __pad=", p.__pad);
	fmt_chr(f, '}');
	if (!get)
		return;
	fmt_str(f, " => ");
	if (!c_ok(c) || fetch(f, c->s, &p, arg, sizeof(p))) {
		if (!c_ok(c))
			p_ptr(f, arg);
		return;
	}
	fmt_chr(f, '{');
	p_param_value(f, &p);
	f_hex_set(f, ", __pad=", p.__pad);
	fmt_chr(f, '}');
}

static void k_time(struct call *c, unsigned long arg, int out)
{
	struct rtc_time t;

	if (!fetch_arg(c, &t, arg, sizeof(t), out))
		p_rtc_time(c->f, &t, trace_whole(c->s));
}

static void k_wkalrm(struct call *c, unsigned long arg, int out)
{
	struct rtc_wkalrm w;

	if (fetch_arg(c, &w, arg, sizeof(w), out))
		return;
	f_udec(c->f, "{enabled=", w.enabled);
	f_udec(c->f, ", pending=", w.pending);
	fmt_str(c->f, ", time=");
	p_rtc_time(c->f, &w.time, trace_whole(c->s));
	fmt_chr(c->f, '}');
}

static void k_pll(struct call *c, unsigned long arg, int out)
{
	struct rtc_pll_info p;

	if (fetch_arg(c, &p, arg, sizeof(p), out))
		return;
	fmt_chr(c->f, '{');
	f_ints(c->f, "pll_ctrl pll_value pll_max pll_min pll_posmult "
		     "pll_negmult", &p, 6, 'd');
	f_dec(c->f, ", pll_clock=", p.pll_clock);
	fmt_chr(c->f, '}');
}

int ioctl_rtc(struct call *c, unsigned int req, unsigned long arg)
{
	/* (a read request's structure is the kernel's) */
	int out = req == RTC_ALM_READ || req == RTC_RD_TIME ||
		  req == RTC_WKALM_RD || req == RTC_PLL_GET;

	if (!ioctl_name(c, req, 'p', &xl_ioctl_rtc))
		return 0;
	if (req == RTC_WKALM_SET || req == RTC_WKALM_RD)
		k_wkalrm(c, arg, out);
	else if (req == RTC_PLL_SET || req == RTC_PLL_GET)
		k_pll(c, arg, out);
	else if (req == RTC_PARAM_GET || req == RTC_PARAM_SET)
		k_param(c, arg, req == RTC_PARAM_GET);
	else
		k_time(c, arg, out);
	return 1;
}
