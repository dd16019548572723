/* SPDX-License-Identifier: MIT */
/* MTD (raw flash) ioctls on no device: the structures each request
 * gives, those the device fills (their address when the call fails;
 * run with -e inject=ioctl:retval=0 too, so they print), the 'M'
 * requests strace names MIXER_READ(n) or MIXER_WRITE(n) as well, and
 * one 'M' request of no one's. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <mtd/mtd-abi.h>

int main(void)
{
	struct erase_info_user e = { 0x1000, 0x2000 };
	struct erase_info_user64 e64 = { 0x100000000ULL, 0x4000 };
	struct mtd_oob_buf oob = { 0x10, 0x20, (unsigned char *)0x1234 };
	struct mtd_oob_buf64 oob64 = { 0x30, 0, 0x40, 0x5678 };
	struct otp_info otp = { 0x50, 0x60, 1 };
	struct mtd_write_req w = { 1, 2, 3, 4, 5, MTD_OPS_AUTO_OOB, { 0 } };
	struct mtd_info_user info = { MTD_NANDFLASH,
				      MTD_WRITEABLE | MTD_NO_ERASE | 0x1,
				      0x100000, 0x20000, 0x800, 0x40, 0 };
	struct region_info_user r = { 0x100, 0x200, 0x300, 7 };
	struct mtd_ecc_stats st = { 1, 2, 3, 4 };
	static struct nand_ecclayout_user lay;
	static struct nand_oobinfo oi;
	long long bad = 123456;
	int n = MTD_OTP_USER, i;

	for (i = 0; i < 64; i++)
		lay.eccpos[i] = i * 3;
	lay.eccbytes = 24;
	oi.useecc = MTD_NANDECC_AUTOPLACE;
	oi.eccpos[5] = 9;
	begin();
	ioctl(-1, MEMERASE, &e);
	ioctl(-1, MEMISLOCKED, &e);
	ioctl(-1, MEMERASE64, &e64);
	ioctl(-1, MEMWRITEOOB, &oob);
	ioctl(-1, MEMREADOOB64, &oob64);
	ioctl(-1, OTPLOCK, &otp);
	ioctl(-1, MEMWRITE, &w);
	ioctl(-1, MEMGETINFO, &info);
	ioctl(-1, MEMGETREGIONINFO, &r);
	ioctl(-1, ECCGETSTATS, &st);
	ioctl(-1, ECCGETLAYOUT, &lay);
	ioctl(-1, MEMGETOOBSEL, &oi);
	ioctl(-1, MEMGETBADBLOCK, &bad);
	ioctl(-1, OTPSELECT, &n);
	ioctl(-1, MEMGETREGIONCOUNT, &n);
	ioctl(-1, MTDFILEMODE, MTD_FILE_MODE_RAW);
	ioctl(-1, MEMGETINFO, NULL);
	ioctl(-1, _IOR('M', 0x70, int), 0x55);
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 'M', 0xfe, 0xff), 0x55);
	return 0;
}
