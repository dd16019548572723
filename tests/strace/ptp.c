/* SPDX-License-Identifier: MIT */
/* ioctl on PTP clocks, each request in both versions, on a descriptor
 * that is none (EBADF): what each request reads; list.sh's inject runs
 * make them succeed, so what they return (capabilities, samples, pin
 * names) is compared too. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <linux/ptp_clock.h>

int main(void)
{
	struct ptp_clock_caps caps;
	struct ptp_extts_request ex;
	struct ptp_perout_request po;
	struct ptp_sys_offset so;
	struct ptp_sys_offset_extended se;
	struct ptp_sys_offset_precise sp;
	struct ptp_pin_desc pd;
	unsigned int i;

	fill_bytes(&caps, sizeof(caps), 1, 7);
	memset(&ex, 0, sizeof(ex));
	memset(&po, 0, sizeof(po));
	memset(&so, 0, sizeof(so));
	memset(&se, 0, sizeof(se));
	memset(&sp, 0, sizeof(sp));
	memset(&pd, 0, sizeof(pd));
	begin();
	ioctl(-1, PTP_CLOCK_GETCAPS, &caps);
	ioctl(-1, PTP_CLOCK_GETCAPS2, NULL);
	ex.index = 3;
	ex.flags = PTP_ENABLE_FEATURE | PTP_RISING_EDGE | 0x100;
	ioctl(-1, PTP_EXTTS_REQUEST, &ex);
	ex.rsv[1] = 7;
	ioctl(-1, PTP_EXTTS_REQUEST2, &ex);
	ex.flags = 0x100;
	ioctl(-1, PTP_EXTTS_REQUEST2, &ex);
	po.start.sec = 1700000000;
	po.start.nsec = 5;
	po.period.sec = 1;
	po.index = 2;
	ioctl(-1, PTP_PEROUT_REQUEST, &po);
	po.flags = PTP_PEROUT_DUTY_CYCLE | PTP_PEROUT_PHASE;
	po.on.nsec = 500;
	ioctl(-1, PTP_PEROUT_REQUEST2, &po);
	po.flags = 0;
	po.rsv[0] = 1;
	ioctl(-1, PTP_PEROUT_REQUEST2, &po);
	ioctl(-1, PTP_ENABLE_PPS, 1);
	ioctl(-1, PTP_ENABLE_PPS2, -5L);
	so.n_samples = 3;
	for (i = 0; i < 2 * PTP_MAX_SAMPLES + 1; i++) {
		so.ts[i].sec = 1600000000 + i;
		so.ts[i].nsec = i * 1000;
		so.ts[i].reserved = i & 1;
	}
	ioctl(-1, PTP_SYS_OFFSET, &so);
	so.n_samples = 40;
	so.rsv[2] = 9;
	ioctl(-1, PTP_SYS_OFFSET2, &so);
	se.n_samples = 2;
	for (i = 0; i < PTP_MAX_SAMPLES; i++) {
		se.ts[i][0].sec = 1600000000 + i;
		se.ts[i][1].nsec = i;
		se.ts[i][2].sec = -1;
	}
	ioctl(-1, PTP_SYS_OFFSET_EXTENDED, &se);
	ioctl(-1, PTP_SYS_OFFSET_EXTENDED2, &se);
	sp.device.sec = 1600000000;
	sp.sys_monoraw.reserved = 4;
	ioctl(-1, PTP_SYS_OFFSET_PRECISE, &sp);
	ioctl(-1, PTP_SYS_OFFSET_PRECISE2, &sp);
	pd.index = 1;
	strcpy(pd.name, "pin\t1");
	pd.func = PTP_PF_PEROUT;
	pd.chan = 4;
	ioctl(-1, PTP_PIN_GETFUNC, &pd);
	pd.rsv[4] = 1;
	ioctl(-1, PTP_PIN_GETFUNC2, &pd);
	memset(pd.name, 'x', sizeof(pd.name));
	pd.func = 9;
	ioctl(-1, PTP_PIN_SETFUNC, &pd);
	ioctl(-1, PTP_PIN_SETFUNC2, &pd);
	ioctl(-1, PTP_PIN_GETFUNC, &pd);
	return 0;
}
