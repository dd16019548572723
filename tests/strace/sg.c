/* SPDX-License-Identifier: MIT */
/* SCSI generic's SG_IO on no device (the calls fail, the structures
 * print as given): version 3 in each direction, with a buffer and with
 * iovecs, what came back cut by resid; version 4 with its request,
 * response and transfers; an id neither 'S' nor 'Q'; a structure cut
 * short by the end of readable memory. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <scsi/sg.h>
#include <linux/bsg.h>

static void v3(void)
{
	static unsigned char cmd[6] = { 0x12, 0, 0, 0, 36, 0 };
	static unsigned char data[8] = "abc\x01\x02\xff";
	static unsigned char sense[4] = { 0x70, 0, 5 };
	struct iovec iov[2] = { { data, 2 }, { data + 2, 4 } };
	struct sg_io_hdr h;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.dxfer_direction = SG_DXFER_TO_DEV;
	h.cmd_len = sizeof(cmd);
	h.cmdp = cmd;
	h.mx_sb_len = sizeof(sense);
	h.dxfer_len = 5;
	h.dxferp = data;
	h.sbp = sense;
	h.sb_len_wr = 3;
	h.timeout = 1000;
	h.flags = SG_FLAG_DIRECT_IO | 0x10000 | 0x100;
	h.status = 2;
	h.host_status = 7;
	h.resid = 1;
	h.info = SG_INFO_CHECK | 0x40;
	ioctl(-1, SG_IO, &h);
	h.dxfer_direction = SG_DXFER_FROM_DEV;
	ioctl(-1, SG_IO, &h);
	h.dxfer_direction = SG_DXFER_TO_FROM_DEV;
	ioctl(-1, SG_IO, &h);
	h.resid = 5;
	ioctl(-1, SG_IO, &h);
	h.iovec_count = 2;
	h.dxferp = iov;
	h.resid = 0;
	ioctl(-1, SG_IO, &h);
	h.dxfer_direction = -7;
	ioctl(-1, SG_IO, &h);
}

static void v4(void)
{
	static unsigned char req[4] = { 1, 2, 3, 4 }, data[6] = "wxyz";
	struct sg_io_v4 h;

	memset(&h, 0, sizeof(h));
	h.guard = 'Q';
	h.subprotocol = BSG_SUB_PROTOCOL_SCSI_TMF;
	h.request_len = sizeof(req);
	h.request = (unsigned long)req;
	h.request_tag = 0x1234;
	h.max_response_len = 16;
	h.dout_xfer_len = 3;
	h.dout_xferp = (unsigned long)data;
	h.din_xfer_len = 4;
	h.din_xferp = (unsigned long)data;
	h.din_resid = 2;
	h.response_len = 2;
	h.response = (unsigned long)data;
	h.flags = BSG_FLAG_Q_AT_HEAD | 0x1000;
	h.info = SG_INFO_MIXED_IO;
	h.dout_resid = -3;
	ioctl(-1, SG_IO, &h);
}

int main(void)
{
	unsigned char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int *cut;

	check(page != MAP_FAILED, "mmap");
	check(munmap(page + 4096, 4096) == 0, "munmap");
	cut = (int *)(page + 4096 - sizeof(int));
	begin();
	v3();
	v4();
	*cut = 'S';
	ioctl(-1, SG_IO, cut);
	*cut = 'Q';
	ioctl(-1, SG_IO, cut);
	*cut = 0x51525354;
	ioctl(-1, SG_IO, cut);
	ioctl(-1, SG_IO, NULL);
	return 0;
}
