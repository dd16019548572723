/* SPDX-License-Identifier: MIT */
/*
 * ioctl on GPIO character devices (linux/gpio.h), v1 and v2: chip and
 * line information, line requests (what the call asks, then " => {fd=N}"
 * once it succeeded), values and configurations, as strace prints them.
 * The structures are read at the call's exit: the kernel leaves what a
 * request asks as it was and writes only its results.
 */
#include <linux/gpio.h>
#include "trace.h"

/* A char array field: up to its NUL, "..." when it has none. */
static void p_cstr(struct fmt *f, const char *name, const char *s,
		   unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n && s[i]; i++)
		;
	fmt_str(f, name);
	p_data_local(f, (const unsigned char *)s, i);
	if (i == n)
		fmt_str(f, "...");
}

/* The first min(n, max) of a local array of u32s (esize 4) or u8s, in
 * decimal or hex, cut at -s elements unless -v. */
static void p_nums(struct call *c, const void *a, int esize, unsigned long n,
		   unsigned long max, int hex)
{
	unsigned long i, lim = trace_whole(c->s) ? ~0UL :
			       (unsigned long)trace_strsize;
	unsigned int v;

	if (n > max)
		n = max;
	fmt_chr(c->f, '[');
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(c->f, ", ");
		if (i >= lim) {
			fmt_str(c->f, "...");
			break;
		}
		v = esize == 1 ? ((const unsigned char *)a)[i] :
				 ((const unsigned int *)a)[i];
		if (hex)
			p_hex(c->f, v);
		else
			fmt_udec(c->f, v);
	}
	fmt_chr(c->f, ']');
}

static int all_zero(const unsigned int *a, unsigned long n)
{
	while (n--)
		if (a[n])
			return 0;
	return 1;
}

/* ", padding=[...]" when any of it is set */
static void p_padding(struct call *c, const unsigned int *a, unsigned long n)
{
	if (all_zero(a, n))
		return;
	fmt_str(c->f, ", padding=");
	p_nums(c, a, 4, n, n, 1);
}

static void p_v2_flags(struct fmt *f, unsigned long long v)
{
	p_flags_unknown(f, v, &xl_gpio_v2_line_flags, "GPIO_V2_LINE_FLAG_???");
}

/* An attribute by its id; with padding set or an unknown id, its raw
 * fields (inside "attr={...}" when it is a field). */
static void p_v2_attr(struct fmt *f, const struct gpio_v2_line_attribute *a,
		      int field)
{
	if (!a->padding) {
		switch (a->id) {
		case GPIO_V2_LINE_ATTR_ID_FLAGS:
			fmt_str(f, "flags=");
			p_v2_flags(f, a->flags);
			return;
		case GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES:
			fmt_str(f, "values=");
			p_hex(f, a->values);
			return;
		case GPIO_V2_LINE_ATTR_ID_DEBOUNCE:
			f_udec(f, "debounce_period_us=", a->debounce_period_us);
			return;
		}
	}
	if (field)
		fmt_str(f, "attr={");
	f_udec(f, "id=", a->id);
	if (a->padding) {
		fmt_str(f, ", padding=");
		p_hex(f, a->padding);
	}
	fmt_str(f, ", data=");
	p_hex(f, a->values);
	if (field)
		fmt_chr(f, '}');
}

static void p_v2_config(struct call *c, const struct gpio_v2_line_config *lc)
{
	unsigned int i;

	fmt_str(c->f, "{flags=");
	p_v2_flags(c->f, lc->flags);
	f_udec(c->f, ", num_attrs=", lc->num_attrs);
	p_padding(c, lc->padding, 5);
	if (lc->num_attrs) {
		fmt_str(c->f, ", attrs=[");
		for (i = 0; i < lc->num_attrs &&
			    i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++) {
			if (i)
				fmt_str(c->f, ", ");
			fmt_chr(c->f, '{');
			p_v2_attr(c->f, &lc->attrs[i].attr, 1);
			fmt_str(c->f, ", mask=");
			p_hex(c->f, lc->attrs[i].mask);
			fmt_chr(c->f, '}');
		}
		fmt_chr(c->f, ']');
	}
	fmt_chr(c->f, '}');
}

/* " => " before what a call that succeeded wrote; 0 when it failed */
static int changed(struct call *c)
{
	if (!c_ok(c))
		return 0;
	fmt_str(c->f, " => ");
	return 1;
}

static void k_chipinfo(struct call *c, unsigned long arg)
{
	struct gpiochip_info ci;

	if (fetch_out(c, &ci, arg, sizeof(ci)))
		return;
	p_cstr(c->f, "{name=", ci.name, sizeof(ci.name));
	p_cstr(c->f, ", label=", ci.label, sizeof(ci.label));
	f_udec(c->f, ", lines=", ci.lines);
	fmt_chr(c->f, '}');
}

static void k_lineinfo(struct call *c, unsigned long arg)
{
	struct gpioline_info li;

	if (fetch_arg(c, &li, arg, sizeof(li), 0))
		return;
	f_udec(c->f, "{line_offset=", li.line_offset);
	fmt_chr(c->f, '}');
	if (!changed(c))
		return;
	fmt_str(c->f, "{flags=");
	p_flags_unknown(c->f, li.flags, &xl_gpio_line_flags,
			"GPIOLINE_FLAG_???");
	p_cstr(c->f, ", name=", li.name, sizeof(li.name));
	p_cstr(c->f, ", consumer=", li.consumer, sizeof(li.consumer));
	fmt_chr(c->f, '}');
}

static void k_unwatch(struct call *c, unsigned long arg)
{
	unsigned int off;

	if (fetch_arg(c, &off, arg, sizeof(off), 0))
		return;
	f_udec(c->f, "{offset=", off);
	fmt_chr(c->f, '}');
}

static void p_fd_field(struct call *c, int fd)
{
	f_dec(c->f, "{fd=", fd);
	p_fdpath_now(c->f, c->s, fd);
	fmt_chr(c->f, '}');
}

static void k_handle_request(struct call *c, unsigned long arg)
{
	struct gpiohandle_request hr;

	if (fetch_arg(c, &hr, arg, sizeof(hr), 0))
		return;
	f_udec(c->f, "{lines=", hr.lines);
	fmt_str(c->f, ", lineoffsets=");
	p_nums(c, hr.lineoffsets, 4, hr.lines, GPIOHANDLES_MAX, 0);
	fmt_str(c->f, ", flags=");
	p_flags_unknown(c->f, hr.flags, &xl_gpio_handle_flags,
			"GPIOHANDLE_REQUEST_???");
	fmt_str(c->f, ", default_values=");
	p_nums(c, hr.default_values, 1, hr.lines, GPIOHANDLES_MAX, 0);
	p_cstr(c->f, ", consumer_label=", hr.consumer_label,
	       sizeof(hr.consumer_label));
	fmt_chr(c->f, '}');
	if (changed(c))
		p_fd_field(c, hr.fd);
}

static void k_event_request(struct call *c, unsigned long arg)
{
	struct gpioevent_request er;

	if (fetch_arg(c, &er, arg, sizeof(er), 0))
		return;
	f_udec(c->f, "{lineoffset=", er.lineoffset);
	fmt_str(c->f, ", handleflags=");
	p_flags_unknown(c->f, er.handleflags, &xl_gpio_handle_flags,
			"GPIOHANDLE_REQUEST_???");
	fmt_str(c->f, ", eventflags=");
	p_flags_unknown(c->f, er.eventflags, &xl_gpio_event_flags,
			"GPIOEVENT_REQUEST_???");
	p_cstr(c->f, ", consumer_label=", er.consumer_label,
	       sizeof(er.consumer_label));
	fmt_chr(c->f, '}');
	if (changed(c))
		p_fd_field(c, er.fd);
}

/* {values=[...]} of a handle: the 64 values in full */
static void k_handle_values(struct call *c, unsigned long arg, int out)
{
	struct gpiohandle_data d;

	if (fetch_arg(c, &d, arg, sizeof(d), out))
		return;
	fmt_str(c->f, "{values=");
	p_nums(c, d.values, 1, GPIOHANDLES_MAX, GPIOHANDLES_MAX, 0);
	fmt_chr(c->f, '}');
}

static void k_handle_config(struct call *c, unsigned long arg)
{
	struct gpiohandle_config hc;

	if (fetch_arg(c, &hc, arg, sizeof(hc), 0))
		return;
	fmt_str(c->f, "{flags=");
	p_flags_unknown(c->f, hc.flags, &xl_gpio_handle_flags,
			"GPIOHANDLE_REQUEST_???");
	fmt_str(c->f, ", default_values=");
	p_nums(c, hc.default_values, 1, GPIOHANDLES_MAX, GPIOHANDLES_MAX, 0);
	fmt_chr(c->f, '}');
}

static void k_v2_lineinfo(struct call *c, unsigned long arg)
{
	struct gpio_v2_line_info li;
	unsigned int i;

	if (fetch_arg(c, &li, arg, sizeof(li), 0))
		return;
	f_udec(c->f, "{offset=", li.offset);
	fmt_chr(c->f, '}');
	if (!changed(c))
		return;
	p_cstr(c->f, "{name=", li.name, sizeof(li.name));
	p_cstr(c->f, ", consumer=", li.consumer, sizeof(li.consumer));
	fmt_str(c->f, ", flags=");
	p_v2_flags(c->f, li.flags);
	f_udec(c->f, ", num_attrs=", li.num_attrs);
	if (li.num_attrs) {
		fmt_str(c->f, ", attrs=[");
		for (i = 0; i < li.num_attrs &&
			    i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++) {
			if (i)
				fmt_str(c->f, ", ");
			fmt_chr(c->f, '{');
			p_v2_attr(c->f, &li.attrs[i], 0);
			fmt_chr(c->f, '}');
		}
		fmt_chr(c->f, ']');
	}
	p_padding(c, li.padding, 4);
	fmt_chr(c->f, '}');
}

static void k_v2_request(struct call *c, unsigned long arg)
{
	struct gpio_v2_line_request lr;

	if (fetch_arg(c, &lr, arg, sizeof(lr), 0))
		return;
	f_udec(c->f, "{num_lines=", lr.num_lines);
	fmt_str(c->f, ", offsets=");
	p_nums(c, lr.offsets, 4, lr.num_lines, GPIO_V2_LINES_MAX, 0);
	p_cstr(c->f, ", consumer=", lr.consumer, sizeof(lr.consumer));
	fmt_str(c->f, ", config=");
	p_v2_config(c, &lr.config);
	if (lr.event_buffer_size)
		f_udec(c->f, ", event_buffer_size=", lr.event_buffer_size);
	p_padding(c, lr.padding, 5);
	fmt_chr(c->f, '}');
	if (changed(c))
		p_fd_field(c, lr.fd);
}

static void k_v2_values(struct call *c, unsigned long arg, int get)
{
	struct gpio_v2_line_values v;

	if (fetch_arg(c, &v, arg, sizeof(v), 0))
		return;
	if (get) {
		fmt_str(c->f, "{mask=");
		p_hex(c->f, v.mask);
		fmt_chr(c->f, '}');
		if (!changed(c))
			return;
		fmt_str(c->f, "{bits=");
		p_hex(c->f, v.bits);
		fmt_chr(c->f, '}');
		return;
	}
	fmt_str(c->f, "{bits=");
	p_hex(c->f, v.bits);
	fmt_str(c->f, ", mask=");
	p_hex(c->f, v.mask);
	fmt_chr(c->f, '}');
}

static void k_v2_config(struct call *c, unsigned long arg)
{
	struct gpio_v2_line_config lc;

	if (!fetch_arg(c, &lc, arg, sizeof(lc), 0))
		p_v2_config(c, &lc);
}

int ioctl_gpio(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm;

	if (_IOC_TYPE(req) != 0xb4 || !(nm = xlat_name(&xl_ioctl_gpio, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	switch (req) {
	case GPIO_GET_CHIPINFO_IOCTL:
		k_chipinfo(c, arg);
		break;
	case GPIO_GET_LINEINFO_IOCTL:
	case GPIO_GET_LINEINFO_WATCH_IOCTL:
		k_lineinfo(c, arg);
		break;
	case GPIO_GET_LINEINFO_UNWATCH_IOCTL:
		k_unwatch(c, arg);
		break;
	case GPIO_GET_LINEHANDLE_IOCTL:
		k_handle_request(c, arg);
		break;
	case GPIO_GET_LINEEVENT_IOCTL:
		k_event_request(c, arg);
		break;
	case GPIOHANDLE_GET_LINE_VALUES_IOCTL:
		k_handle_values(c, arg, 1);
		break;
	case GPIOHANDLE_SET_LINE_VALUES_IOCTL:
		k_handle_values(c, arg, 0);
		break;
	case GPIOHANDLE_SET_CONFIG_IOCTL:
		k_handle_config(c, arg);
		break;
	case GPIO_V2_GET_LINEINFO_IOCTL:
	case GPIO_V2_GET_LINEINFO_WATCH_IOCTL:
		k_v2_lineinfo(c, arg);
		break;
	case GPIO_V2_GET_LINE_IOCTL:
		k_v2_request(c, arg);
		break;
	case GPIO_V2_LINE_SET_CONFIG_IOCTL:
		k_v2_config(c, arg);
		break;
	case GPIO_V2_LINE_GET_VALUES_IOCTL:
		k_v2_values(c, arg, 1);
		break;
	case GPIO_V2_LINE_SET_VALUES_IOCTL:
		k_v2_values(c, arg, 0);
		break;
	}
	return 1;
}
