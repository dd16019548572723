/* SPDX-License-Identifier: MIT */
/* ioctl on virtual consoles (linux/kd.h) on a descriptor that is none
 * (EBADF): what each request reads, structures that end at an unmapped
 * page among them; list.sh's inject runs make them succeed, so what
 * they return (LEDs, modes, maps, fonts) is compared too. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/kd.h>
#include <linux/keyboard.h>

static unsigned char *page_end;	/* a page followed by an unmapped one */

static void *tail(size_t n)
{
	return page_end - n;
}

int main(void)
{
	unsigned char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const unsigned short keys[] = {
		0x61, 0x7f, 0x105, 0x214, 0x301, 0x41b, 0x512, 0x603, 0x709,
		0x85c, 0x90c, 0xa02, 0xb27, 0xc08, 0xdff, 0xe03, 0xf3a,
	};
	struct kbentry kbe;
	struct kbsentry *kbse;
	struct kbdiacrs *dia;
	struct kbdiacrsuc *diauc;
	struct kbkeycode kc = { 0x1c, 0x60 };
	struct kbd_repeat rep = { 250, -33 };
	struct unimapdesc umd;
	struct unipair up[4] = { { 0x41, 1 }, { 0xf012, 2 }, { 0, 0 }, {
		0x263a, 0x1ff } };
	struct unimapinit umi = { 11, 22, 33 };
	struct consolefontdesc cfd;
	struct console_font_op op;
	unsigned short *usm;
	unsigned char c = 0x13, cmap[48];
	unsigned int i, mode = 1;

	check(m != MAP_FAILED && !munmap(m + 4096, 4096), "mmap");
	page_end = m + 4096;
	begin();
	ioctl(-1, KIOCSOUND, 0);
	ioctl(-1, KIOCSOUND, 1000);
	ioctl(-1, KIOCSOUND, 2000000);
	ioctl(-1, KDMKTONE, 0x01f40200L);
	ioctl(-1, KDMKTONE, 0x300);
	ioctl(-1, KDMKTONE, 0x70000L);
	ioctl(-1, KDGETLED, &c);
	ioctl(-1, KDSETLED, LED_NUM | 0x40);
	ioctl(-1, KDSETLED, 0xf8);
	ioctl(-1, KDGKBLED, &c);
	ioctl(-1, KDSKBLED, 0x35);
	ioctl(-1, KDGKBTYPE, NULL);
	ioctl(-1, KDADDIO, 0x3b5);
	ioctl(-1, KDDELIO, 0x3e1);
	ioctl(-1, KDENABIO);
	ioctl(-1, KDSETMODE, KD_GRAPHICS);
	ioctl(-1, KDSETMODE, 7);
	ioctl(-1, KDGETMODE, &mode);
	ioctl(-1, KDMAPDISP);
	ioctl(-1, KDSKBMODE, K_UNICODE);
	ioctl(-1, KDSKBMODE, -3);
	ioctl(-1, KDGKBMODE, &mode);
	ioctl(-1, KDSKBMETA, K_ESCPREFIX);
	ioctl(-1, KDSKBMETA, 9);
	ioctl(-1, KDGKBMETA, &mode);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		kbe.kb_table = (unsigned char)(i < 4 ? i : 1u << (i & 7) | 1);
		kbe.kb_index = (unsigned char)(i * 9);
		kbe.kb_value = keys[i];
		ioctl(-1, i & 1 ? KDGKBENT : KDSKBENT, &kbe);
	}
	ioctl(-1, KDSKBENT, tail(2));
	kbse = tail(sizeof(*kbse));
	fill_bytes(kbse->kb_string, sizeof(kbse->kb_string), 0x21, 3);
	kbse->kb_func = 24;
	kbse->kb_string[20] = 0;
	ioctl(-1, KDSKBSENT, kbse);
	ioctl(-1, KDGKBSENT, kbse);
	kbse->kb_string[20] = 1;
	ioctl(-1, KDSKBSENT, kbse);
	ioctl(-1, KDSKBSENT, tail(3));
	dia = tail(sizeof(dia->kb_cnt) + 3 * sizeof(dia->kbdiacr[0]));
	fill_bytes(dia->kbdiacr, 3 * sizeof(dia->kbdiacr[0]), 0x5a, 3);
	dia->kbdiacr[1].base = '\'';
	for (i = 0; i < 5; i++) {
		dia->kb_cnt = i;
		ioctl(-1, i & 1 ? KDSKBDIACR : KDGKBDIACR, dia);
	}
	diauc = tail(sizeof(diauc->kb_cnt) + 2 * sizeof(diauc->kbdiacruc[0]));
	fill_bytes(diauc->kbdiacruc, 2 * sizeof(diauc->kbdiacruc[0]), 0x90, 3);
	diauc->kb_cnt = 3;
	ioctl(-1, KDSKBDIACRUC, diauc);
	ioctl(-1, KDGKBDIACRUC, diauc);
	ioctl(-1, KDGETKEYCODE, &kc);
	ioctl(-1, KDSETKEYCODE, &kc);
	ioctl(-1, KDSIGACCEPT, 10);
	ioctl(-1, KDSIGACCEPT, 99);
	ioctl(-1, KDKBDREP, &rep);
	ioctl(-1, KDKBDREP, tail(4));
	fill_bytes(m, 4096, 7, 3);
	ioctl(-1, GIO_SCRNMAP, m);
	ioctl(-1, PIO_SCRNMAP, m + 100);
	ioctl(-1, PIO_SCRNMAP, tail(20));
	ioctl(-1, PIO_FONT, m);
	ioctl(-1, GIO_FONT, m);
	fill_bytes(cmap, sizeof(cmap), 0x30, 3);
	ioctl(-1, PIO_CMAP, cmap);
	ioctl(-1, GIO_CMAP, cmap);
	umd.entry_ct = 4;
	umd.entries = up;
	ioctl(-1, PIO_UNIMAP, &umd);
	ioctl(-1, GIO_UNIMAP, &umd);
	umd.entry_ct = 3;
	umd.entries = tail(2 * sizeof(up[0]));
	memcpy(umd.entries, up, 2 * sizeof(up[0]));
	ioctl(-1, PIO_UNIMAP, &umd);
	ioctl(-1, PIO_UNIMAPCLR, &umi);
	usm = tail(256 * sizeof(*usm));
	for (i = 0; i < 256; i++)
		usm[i] = (unsigned short)(i & 1 ? 0xf000 + i : i * 5);
	ioctl(-1, PIO_UNISCRNMAP, usm);
	ioctl(-1, GIO_UNISCRNMAP, usm);
	ioctl(-1, PIO_UNISCRNMAP, usm + 250);
	cfd.charcount = 2;
	cfd.charheight = 16;
	cfd.chardata = (char *)m;
	ioctl(-1, PIO_FONTX, &cfd);
	ioctl(-1, GIO_FONTX, &cfd);
	ioctl(-1, PIO_FONTRESET);
	memset(&op, 0, sizeof(op));
	op.op = KD_FONT_OP_SET;
	op.flags = KD_FONT_FLAG_DONT_RECALC;
	op.width = 8;
	op.height = 16;
	op.charcount = 1;
	op.data = m;
	ioctl(-1, KDFONTOP, &op);
	op.op = KD_FONT_OP_GET;
	op.flags = 0x10;
	ioctl(-1, KDFONTOP, &op);
	op.op = KD_FONT_OP_SET_DEFAULT;
	op.data = tail(8);
	memcpy(op.data, "lat1-16", 8);
	ioctl(-1, KDFONTOP, &op);
	op.op = KD_FONT_OP_COPY;
	ioctl(-1, KDFONTOP, &op);
	op.op = 9;
	ioctl(-1, KDFONTOP, &op);
	return 0;
}
