/* SPDX-License-Identifier: MIT */
/* ioctl on input devices: requests whose names carry numbers
 * (EVIOCGBIT(EV_KEY, 96), EVIOCGABS(ABS_X), unknown ones), arguments
 * read (key codes, keymap entries, absinfo, force-feedback effects of
 * each type) and, under `-e inject=ioctl:retval=N`, the ones the kernel
 * would write (ids, bit sets by name, multitouch slots, names).  On
 * descriptor -1: every request fails alike on any machine. */
#include "corpus.h"
#include <linux/input.h>
#include <sys/ioctl.h>

int main(void)
{
	struct input_absinfo abs = { 1, -2, 300, 4, 5, 6 };
	struct input_keymap_entry ke = { 1, 4, 7, KEY_1, { 0xaa, 0, 3 } };
	struct input_id id = { BUS_USB, 0x46d, 0xc077, 0x111 };
	struct ff_effect ff;
	unsigned int key[2] = { 30, KEY_A }, rep[2] = { 250, 33 };
	unsigned int odd[2] = { 1, 0x2ff0 }, slots[4] = { ABS_MT_SLOT, 1, 2, 3 };
	unsigned long bits[12] = { 1UL << EV_KEY | 1UL << EV_ABS | 1UL << EV_MSC |
				   1UL << EV_LED | 1UL << EV_FF | 1UL << 6 };
	int v = 1, t;

	begin();
	ioctl(-1, EVIOCGVERSION, &v);
	ioctl(-1, EVIOCGID, NULL);
	ioctl(-1, EVIOCGNAME(64), NULL);
	ioctl(-1, EVIOCGMTSLOTS(16), slots);
	ioctl(-1, EVIOCGBIT(0, 8), bits);
	ioctl(-1, EVIOCGBIT(EV_KEY, 96), bits);
	ioctl(-1, EVIOCGBIT(0x6, 4), bits);
	ioctl(-1, EVIOCGABS(ABS_MT_POSITION_X), &abs);
	ioctl(-1, EVIOCGABS(0x3e), &abs);
	ioctl(-1, EVIOCSABS(ABS_Y), &abs);
	ioctl(-1, _IOC(_IOC_WRITE, 'E', 0xc1, 20), &abs);
	ioctl(-1, _IOC(_IOC_WRITE, 'E', 0xc1, 16), &abs);
	ioctl(-1, EVIOCSREP, rep);
	ioctl(-1, EVIOCSKEYCODE, key);
	ioctl(-1, EVIOCSKEYCODE, odd);
	ioctl(-1, EVIOCSKEYCODE_V2, &ke);
	ioctl(-1, EVIOCSCLOCKID, &v);
	ioctl(-1, EVIOCRMFF, 0x123456789L);
	ioctl(-1, EVIOCGRAB, 1);
	ioctl(-1, EVIOCREVOKE, 0);
	memset(&ff, 0, sizeof(ff));
	ff.id = -1;
	ff.direction = 0x4000;
	ff.trigger.button = 3;
	ff.replay.length = 500;
	for (t = FF_RUMBLE; t <= FF_RAMP + 1; t++) {
		ff.type = (unsigned short)t;
		ff.u.periodic.waveform = FF_SINE;
		ff.u.periodic.period = 20;
		ff.u.periodic.magnitude = -300;
		ff.u.periodic.envelope.fade_level = 0x7f;
		ioctl(-1, EVIOCSFF, &ff);
	}
	ioctl(-1, _IOC(_IOC_READ, 'E', 0x1, 0xff), 0xdeadbeefL);
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 'E', 0xfe, 0xff), 0xdeadbeefL);
	/* what the kernel writes (under inject: these bytes as they are) */
	ioctl(-1, EVIOCGID, &id);
	ioctl(-1, EVIOCGREP, rep);
	ioctl(-1, EVIOCGKEYCODE, key);
	ioctl(-1, EVIOCGKEYCODE_V2, &ke);
	ioctl(-1, EVIOCGEFFECTS, &v);
	ioctl(-1, EVIOCGABS(ABS_X), &abs);
	ioctl(-1, EVIOCGKEY(96), bits);
	ioctl(-1, EVIOCGLED(8), bits);
	ioctl(-1, EVIOCGPROP(8), bits);
	ioctl(-1, EVIOCGBIT(EV_PWR, 4), &v);
	ioctl(-1, EVIOCGBIT(EV_FF, 16), bits);
	ioctl(-1, EVIOCGUNIQ(8), "abc\1defgh");
	return 0;
}
