/* SPDX-License-Identifier: MIT */
/* ioctl on real-time clocks, on no descriptor: times, alarms, wakeup
 * alarms, PLL corrections, rates, epochs, low-voltage flags and each
 * parameter; list.sh's inject runs make them succeed, so what the read
 * requests return (the buffers as filled here) is compared too. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <linux/rtc.h>

int main(void)
{
	struct rtc_time t;
	struct rtc_wkalrm w;
	struct rtc_pll_info pll;
	struct rtc_param p;
	unsigned long v = 1024;
	unsigned int vl = RTC_VL_BACKUP_LOW | 0x100;

	fill_bytes(&t, sizeof(t), 1, 1);
	fill_bytes(&w, sizeof(w), 0, 2);
	fill_bytes(&pll, sizeof(pll), 0x30, 1);
	memset(&p, 0, sizeof(p));
	begin();
	ioctl(-1, RTC_AIE_ON);
	ioctl(-1, RTC_UIE_OFF);
	ioctl(-1, RTC_RD_TIME, &t);
	ioctl(-1, RTC_SET_TIME, &t);
	ioctl(-1, RTC_ALM_READ, NULL);
	ioctl(-1, RTC_WKALM_RD, &w);
	ioctl(-1, RTC_WKALM_SET, &w);
	ioctl(-1, RTC_PLL_GET, &pll);
	ioctl(-1, RTC_PLL_SET, &pll);
	ioctl(-1, RTC_IRQP_SET, 64UL);
	ioctl(-1, RTC_IRQP_READ, &v);
	ioctl(-1, RTC_EPOCH_READ, &v);
	ioctl(-1, RTC_VL_READ, &vl);
	ioctl(-1, RTC_VL_CLR);
	p.param = RTC_PARAM_FEATURES;
	p.uvalue = 1 << RTC_FEATURE_ALARM | 1 << RTC_FEATURE_CORRECTION |
		   1ULL << 40;
	ioctl(-1, RTC_PARAM_SET, &p);
	ioctl(-1, RTC_PARAM_GET, &p);
	p.param = RTC_PARAM_CORRECTION;
	p.svalue = -42;
	p.index = 3;
	ioctl(-1, RTC_PARAM_SET, &p);
	p.param = RTC_PARAM_BACKUP_SWITCH_MODE;
	p.uvalue = RTC_BSM_LEVEL;
	p.__pad = 1;
	ioctl(-1, RTC_PARAM_GET, &p);
	p.param = 9;
	ioctl(-1, RTC_PARAM_SET, &p);
	return 0;
}
