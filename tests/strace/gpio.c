/* SPDX-License-Identifier: MIT */
/* ioctl on GPIO character devices, v1 and v2: requests (their fields,
 * flags known and not, padding, attributes of each id, arrays longer
 * than -s) and, under `-e inject=ioctl:retval=N`, what the kernel would
 * write back.  On descriptor -1: every request fails alike anywhere. */
#include "corpus.h"
#include <linux/gpio.h>
#include <sys/ioctl.h>

int main(void)
{
	struct gpiochip_info ci = { "chip0", "pinctrl", 54 };
	struct gpioline_info li = { 17, GPIOLINE_FLAG_IS_OUT | 0x8000, "led",
				    "kernel" };
	struct gpiohandle_request hr;
	struct gpioevent_request er = { 4, GPIOHANDLE_REQUEST_INPUT,
					GPIOEVENT_REQUEST_BOTH_EDGES, "btn", 9 };
	struct gpiohandle_data hd;
	struct gpiohandle_config hc;
	struct gpio_v2_line_info l2;
	struct gpio_v2_line_request lr;
	struct gpio_v2_line_config lc;
	struct gpio_v2_line_values lv = { 0x5, 0xf };
	unsigned int off = 3, i;

	memset(&hr, 0, sizeof(hr));
	hr.lines = 40;
	for (i = 0; i < 64; i++) {
		hr.lineoffsets[i] = i * 2;
		hr.default_values[i] = (unsigned char)(i & 1);
	}
	hr.flags = GPIOHANDLE_REQUEST_OUTPUT | GPIOHANDLE_REQUEST_ACTIVE_LOW;
	strcpy(hr.consumer_label, "app");
	hr.fd = 7;
	memset(&hd, 0, sizeof(hd));
	hd.values[1] = 1;
	memset(&hc, 0, sizeof(hc));
	hc.flags = 0x100;
	memset(&l2, 0, sizeof(l2));
	strcpy(l2.name, "GPIO17");
	l2.offset = 17;
	l2.flags = GPIO_V2_LINE_FLAG_USED | GPIO_V2_LINE_FLAG_OUTPUT;
	l2.num_attrs = 3;
	l2.attrs[0].id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
	l2.attrs[0].debounce_period_us = 5000;
	l2.attrs[1].id = GPIO_V2_LINE_ATTR_ID_FLAGS;
	l2.attrs[1].flags = GPIO_V2_LINE_FLAG_BIAS_PULL_UP | (1ULL << 40);
	l2.attrs[2].id = 9;
	l2.attrs[2].values = 0x1234;
	l2.padding[3] = 1;
	memset(&lc, 0, sizeof(lc));
	lc.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING;
	lc.num_attrs = 2;
	lc.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	lc.attrs[0].attr.values = 3;
	lc.attrs[0].mask = 3;
	lc.attrs[1].attr.id = GPIO_V2_LINE_ATTR_ID_FLAGS;
	lc.attrs[1].attr.padding = 2;
	lc.attrs[1].mask = 1;
	memset(&lr, 0, sizeof(lr));
	lr.num_lines = 2;
	lr.offsets[0] = 5;
	lr.offsets[1] = 6;
	strcpy(lr.consumer, "v2");
	lr.config = lc;
	lr.event_buffer_size = 16;
	lr.fd = 8;

	begin();
	ioctl(-1, GPIO_GET_CHIPINFO_IOCTL, &ci);
	ioctl(-1, GPIO_GET_CHIPINFO_IOCTL, NULL);
	ioctl(-1, GPIO_GET_LINEINFO_IOCTL, &li);
	ioctl(-1, GPIO_GET_LINEINFO_WATCH_IOCTL, &li);
	ioctl(-1, GPIO_GET_LINEINFO_UNWATCH_IOCTL, &off);
	ioctl(-1, GPIO_GET_LINEHANDLE_IOCTL, &hr);
	ioctl(-1, GPIO_GET_LINEEVENT_IOCTL, &er);
	ioctl(-1, GPIOHANDLE_GET_LINE_VALUES_IOCTL, &hd);
	ioctl(-1, GPIOHANDLE_SET_LINE_VALUES_IOCTL, &hd);
	ioctl(-1, GPIOHANDLE_SET_CONFIG_IOCTL, &hc);
	ioctl(-1, GPIO_V2_GET_LINEINFO_IOCTL, &l2);
	ioctl(-1, GPIO_V2_GET_LINE_IOCTL, &lr);
	ioctl(-1, GPIO_V2_LINE_SET_CONFIG_IOCTL, &lc);
	ioctl(-1, GPIO_V2_LINE_GET_VALUES_IOCTL, &lv);
	ioctl(-1, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv);
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 0xb4, 0x5e, 0x10), 0x1234);
	return 0;
}
