/* SPDX-License-Identifier: MIT */
/* ioctl requests of each kind of argument (none, an int, [int] and
 * [flags] in and out, structures), on descriptor -1 so that every
 * request fails alike on any machine, and one sysgate does not know. */
#include "corpus.h"
#include <linux/counter.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/blkpg.h>
#include <linux/nbd.h>
#include <linux/lirc.h>
#include <mtd/ubi-user.h>
#include <linux/blktrace_api.h>
#include <linux/hdreg.h>
#include <linux/nsfs.h>
#include <scsi/sg.h>
#include <sys/syscall.h>
#include <linux/inotify.h>
#include <linux/random.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>
#include <termios.h>

/* namespaces: their type, owner, user namespace, parent */
static void nsfs(void)
{
	unsigned int uid;
	/* (<fcntl.h> clashes with the kernel's headers here) */
	int fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/ns/uts", O_RDONLY),
	    user = syscall(SYS_openat, AT_FDCWD, "/proc/self/ns/user",
			   O_RDONLY);

	ioctl(-1, NS_GET_USERNS);
	ioctl(-1, NS_GET_OWNER_UID, NULL);
	ioctl(fd, NS_GET_NSTYPE);
	ioctl(user, NS_GET_NSTYPE);
	ioctl(user, NS_GET_OWNER_UID, &uid);
	ioctl(user, NS_GET_PARENT);
	close(ioctl(fd, NS_GET_USERNS));
	close(fd);
	close(user);
}

/* SCSI generic: numbers by pointer both ways and by value, none, resets
 * (SG_IO's request itself is not decoded yet: NULL only) */
static void sg(void)
{
	int v = 30000;
	unsigned int reset = 0x100 | SG_SCSI_RESET_DEVICE;
	char id[32];

	ioctl(-1, SG_GET_TIMEOUT);
	ioctl(-1, SG_SET_TIMEOUT, &v);
	ioctl(-1, SG_GET_VERSION_NUM, &v);
	ioctl(-1, SG_SET_TRANSFORM, 0xfacefeed);
	ioctl(-1, SG_SCSI_RESET, &reset);
	reset = 0x77;
	ioctl(-1, SG_SCSI_RESET, &reset);
	ioctl(-1, SG_IO, NULL);
	ioctl(-1, SG_GET_SCSI_ID, id);
}

int main(void)
{
	struct {
		struct rand_pool_info r;
		char buf[8];
	} pool = { { 3, 8 }, "12345678" };
	struct counter_watch w = { { COUNTER_COMPONENT_COUNT,
				     COUNTER_SCOPE_COUNT, 2, 3 },
				   COUNTER_EVENT_CAPTURE, 4 };
	struct counter_watch odd = { { 9, 7, 1, 1 }, 11, 0 };
	struct fiemap fm = { 4096, 1 << 20, FIEMAP_FLAG_SYNC, 0, 2, 0 };
	struct fstrim_range trim = { 0x1000, 1 << 20, 4096 };
	struct fsxattr xattr = { FS_XFLAG_APPEND | FS_XFLAG_NOATIME | 0x4, 7,
				 0, 0x2a, 9, { 0 } };
	int v = 42, flags = FS_IMMUTABLE_FL | FS_APPEND_FL | 0x1000000;
	struct hd_drive_cmd_hdr cmd = { 0xca /* ATA_CMD_WRITE */, 255, 238, 0 };
	struct hd_drive_cmd_hdr odd_cmd = { 0x80, 1, 2, 0 };
	unsigned int reset[3] = { 0xdeadbeef, 0xaaaaaaaa, 0xbeefbeef };
	unsigned long lv = 0;
	int unnamed = 0xc000000, bits = TIOCM_DTR | TIOCM_RTS | 0x8000 /* TIOCM_LOOP */;

	begin();
	/* (each fails with EBADF: the results are not looked at) */
	ioctl(-1, FIOCLEX);
	ioctl(-1, RNDCLEARPOOL);
	ioctl(-1, RNDZAPENTCNT);
	ioctl(-1, COUNTER_ENABLE_EVENTS_IOCTL);
	ioctl(-1, WDIOC_KEEPALIVE);
	ioctl(-1, TCSBRK, 1);
	ioctl(-1, INOTIFY_IOC_SETNEXTWD, -5);
	ioctl(-1, TCFLSH, TCIOFLUSH);
	ioctl(-1, FIONBIO, &v);
	ioctl(-1, WDIOC_SETTIMEOUT, &v);
	ioctl(-1, RNDADDTOENTCNT, NULL);
	ioctl(-1, FIONREAD, &v);
	ioctl(-1, WDIOC_GETTIMELEFT, &v);
	ioctl(-1, TIOCMBIS, &bits);
	ioctl(-1, TIOCMSET, &unnamed);
	ioctl(-1, TIOCMGET, &v);
	ioctl(-1, FS_IOC_SETFLAGS, &flags);
	ioctl(-1, FS_IOC32_SETFLAGS, &unnamed);
	ioctl(-1, FS_IOC_GETFLAGS, &v);
	ioctl(-1, RNDADDENTROPY, &pool);
	ioctl(-1, COUNTER_ADD_WATCH_IOCTL, &w);
	ioctl(-1, COUNTER_ADD_WATCH_IOCTL, &odd);
	ioctl(-1, COUNTER_ADD_WATCH_IOCTL, NULL);
	ioctl(-1, FIFREEZE, 0);
	ioctl(-1, FITHAW, 0);
	ioctl(-1, FITRIM, &trim);
	ioctl(-1, FS_IOC_FSSETXATTR, &xattr);
	xattr.fsx_xflags = 0x4;
	ioctl(-1, FS_IOC_FSSETXATTR, &xattr);
	ioctl(-1, FS_IOC_FSGETXATTR, &xattr);
	ioctl(-1, FS_IOC_FIEMAP, &fm);
	fm.fm_flags = 0x40;
	ioctl(-1, FS_IOC_FIEMAP, &fm);
	ioctl(-1, FS_IOC_FIEMAP, NULL);
	/* HDIO: a value, [value] out, flags by bit, bus states, the drive
	 * command header, u32 arrays, requests printed in hex */
	ioctl(-1, HDIO_SET_MULTCOUNT, 0xfacefeeddeadbeefUL);
	ioctl(-1, HDIO_GET_DMA, &lv);
	ioctl(-1, HDIO_SET_NICE, 1UL << IDE_NICE_1 | 1UL << IDE_NICE_0 | 0x100);
	ioctl(-1, HDIO_SET_NICE, 0);
	ioctl(-1, HDIO_GET_NICE, &lv);
	ioctl(-1, HDIO_SET_BUSSTATE, BUSSTATE_TRISTATE);
	ioctl(-1, HDIO_SET_BUSSTATE, 7);
	ioctl(-1, HDIO_GET_BUSSTATE, NULL);
	ioctl(-1, HDIO_GETGEO, &lv);
	ioctl(-1, HDIO_GET_IDENTITY, &lv);
	ioctl(-1, HDIO_DRIVE_CMD, &cmd);
	ioctl(-1, HDIO_DRIVE_CMD, &odd_cmd);
	ioctl(-1, HDIO_DRIVE_CMD, NULL);
	ioctl(-1, HDIO_DRIVE_RESET, reset);
	ioctl(-1, HDIO_SCAN_HWIF, NULL);
	ioctl(-1, HDIO_GET_QDMA, 0);
	ioctl(-1, HDIO_DRIVE_TASK, 0x1234);
	ioctl(-1, _IOC(_IOC_NONE, 0x4b, 0, 0), 0x1234);
	ioctl(-1, _IOC(_IOC_READ, 0x12, 0x99, 8), &v);
	{
		/* block devices: numbers in and out of each size, ranges,
		 * partitions, block traces */
		unsigned long long range[2] = { 4096, 1 << 20 };
		struct blkpg_partition part = { 1 << 20, 1 << 30, 2, "sda2",
						"root" };
		struct blkpg_ioctl_arg pg = { BLKPG_ADD_PARTITION, 0,
					      sizeof(part), &part };
		struct blk_user_trace_setup bt = { "", 0xffff, 512, 4, 0,
						   100, 1 };

		ioctl(-1, BLKRASET, 256UL);
		ioctl(-1, BLKRAGET, &lv);
		ioctl(-1, BLKSECTGET, &v);
		ioctl(-1, BLKIOMIN, &v);
		ioctl(-1, BLKGETSIZE64, &lv);
		ioctl(-1, BLKROSET, &v);
		ioctl(-1, BLKALIGNOFF, &v);
		ioctl(-1, BLKDISCARD, range);
		ioctl(-1, BLKZEROOUT, NULL);
		ioctl(-1, BLKPG, &pg);
		pg.op = 9;
		pg.data = NULL;
		ioctl(-1, BLKPG, &pg);
		ioctl(-1, BLKTRACESETUP, &bt);
		ioctl(-1, BLKTRACESTART);
	}
	{
		/* network block devices and infrared remotes: requests
		 * without an argument, a socket, sizes, flags, [u32] in and
		 * out, modes by name, a mask */
		unsigned int u = 38000, mode = LIRC_MODE_PULSE, mask = 0x3;

		ioctl(-1, NBD_DO_IT);
		ioctl(-1, NBD_SET_SOCK, 1);
		ioctl(-1, NBD_SET_SIZE, 1UL << 30);
		ioctl(-1, NBD_SET_FLAGS, NBD_FLAG_HAS_FLAGS | NBD_FLAG_SEND_TRIM |
			  0x10000);
		ioctl(-1, LIRC_SET_SEND_CARRIER, &u);
		ioctl(-1, LIRC_GET_REC_RESOLUTION, &u);
		ioctl(-1, LIRC_SET_REC_MODE, &mode);
		mode = 0x20;
		ioctl(-1, LIRC_SET_SEND_MODE, &mode);
		ioctl(-1, LIRC_SET_TRANSMITTER_MASK, &mask);
		ioctl(-1, LIRC_GET_FEATURES, &u);
	}
	{
		/* UBI: a volume made, renamed, resized; an attach; numbers */
		struct ubi_mkvol_req mk = { .vol_id = UBI_VOL_NUM_AUTO,
					    .alignment = 1, .bytes = 1 << 20,
					    .vol_type = UBI_DYNAMIC_VOLUME,
					    .name_len = 4, .name = "data" };
		struct ubi_rnvol_req rn = { .count = 2 };
		struct ubi_attach_req att = { .ubi_num = UBI_DEV_NUM_AUTO,
					      .mtd_num = 3 };
		struct ubi_rsvol_req rs = { .bytes = 4096, .vol_id = 1 };
		int n = 2;
		long long up = 1 << 16;

		rn.ents[0].vol_id = 1;
		rn.ents[0].name_len = 3;
		memcpy(rn.ents[0].name, "old", 4);
		rn.ents[1].vol_id = 2;
		ioctl(-1, UBI_IOCMKVOL, &mk);
		ioctl(-1, UBI_IOCRNVOL, &rn);
		ioctl(-1, UBI_IOCATT, &att);
		ioctl(-1, UBI_IOCRSVOL, &rs);
		ioctl(-1, UBI_IOCRMVOL, &n);
		ioctl(-1, UBI_IOCVOLUP, &up);
		ioctl(-1, UBI_IOCVOLRMBLK);
	}
	nsfs();
	sg();
	return 0;
}
