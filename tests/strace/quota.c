/* SPDX-License-Identifier: MIT */
/* quotactl and quotactl_fd: each command's id and structure, the ones
 * the call reads (set) and the ones it writes (get: shown only when the
 * call succeeded, which list.sh's inject runs make it), unknown
 * commands, types and formats. */
#include "corpus.h"
#include <fcntl.h>
#include <stdint.h>
#include <linux/quota.h>
#include <linux/dqblk_xfs.h>
#include <sys/syscall.h>

#ifndef SYS_quotactl_fd
#define SYS_quotactl_fd 443
#endif

static void fill(void *p, size_t n, unsigned char from)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(from + i);
}

int main(void)
{
	struct if_dqblk dq;
	struct if_nextdqblk ndq;
	struct if_dqinfo info;
	struct fs_disk_quota xdq;
	struct fs_quota_stat qs;
	struct fs_quota_statv qsv;
	uint32_t fmt = QFMT_VFS_V0, flags = 0xdeadbeef;
	int fd;

	fill(&dq, sizeof(dq), 0x10);
	fill(&ndq, sizeof(ndq), 0x20);
	fill(&info, sizeof(info), 0x30);
	fill(&xdq, sizeof(xdq), 0x80);
	fill(&qs, sizeof(qs), 0x40);
	fill(&qsv, sizeof(qsv), 0x50);
	begin();
	syscall(SYS_quotactl, 0xbadc0ded, "/dev/bogus/", 0xca7faced, &dq);
	syscall(SYS_quotactl, 0, NULL, -1, NULL);
	syscall(SYS_quotactl, QCMD(Q_QUOTAON, USRQUOTA), "/dev/bogus/",
		QFMT_VFS_OLD, "/tmp/bogus/");
	syscall(SYS_quotactl, QCMD(Q_QUOTAON, 0xfacefeed), "/dev/bogus/",
		0xca7faced, NULL);
	syscall(SYS_quotactl, QCMD(Q_QUOTAOFF, GRPQUOTA), "/dev/bogus/", -1,
		NULL);
	syscall(SYS_quotactl, QCMD(Q_QUOTAOFF, 3), NULL, -1, NULL);
	syscall(SYS_quotactl, QCMD(Q_GETQUOTA, USRQUOTA), "/dev/bogus/",
		1000, &dq);
	syscall(SYS_quotactl, QCMD(Q_GETQUOTA, GRPQUOTA), NULL, -1, &dq);
	syscall(SYS_quotactl, QCMD(Q_GETNEXTQUOTA, USRQUOTA), "/dev/bogus/",
		0, &ndq);
	syscall(SYS_quotactl, QCMD(Q_SETQUOTA, PRJQUOTA), "/dev/bogus/",
		3141592653U, &dq);
	syscall(SYS_quotactl, QCMD(Q_SETQUOTA, PRJQUOTA), "/dev/bogus/", 0,
		(char *)&dq + sizeof(dq) * 1000000);
	syscall(SYS_quotactl, QCMD(Q_GETINFO, GRPQUOTA), "/dev/bogus/", -1,
		&info);
	info.dqi_flags = 0xdeadabcd;
	syscall(SYS_quotactl, QCMD(Q_SETINFO, USRQUOTA), "/dev/bogus/", -1,
		&info);
	info.dqi_flags = 0;
	info.dqi_valid = 0x10;
	syscall(SYS_quotactl, QCMD(Q_SETINFO, USRQUOTA), "/dev/bogus/", -1,
		&info);
	syscall(SYS_quotactl, QCMD(Q_GETFMT, GRPQUOTA), "/dev/bogus/", -1,
		&fmt);
	syscall(SYS_quotactl, QCMD(Q_SYNC, 0xfff), NULL, -1, NULL);
	syscall(SYS_quotactl, QCMD(Q_XQUOTAON, USRQUOTA), "/dev/bogus/", -1,
		&flags);
	syscall(SYS_quotactl, QCMD(Q_XQUOTAOFF, 3), "/dev/bogus/", -1, NULL);
	syscall(SYS_quotactl, QCMD(Q_XGETQUOTA, USRQUOTA), "/dev/bogus/",
		1000, &xdq);
	syscall(SYS_quotactl, QCMD(Q_XGETNEXTQUOTA, USRQUOTA), NULL, 0,
		&xdq);
	syscall(SYS_quotactl, QCMD(Q_XSETQLIM, PRJQUOTA), "/dev/bogus/",
		3141592653U, &xdq);
	syscall(SYS_quotactl, QCMD(Q_XGETQSTAT, USRQUOTA), "/dev/bogus/", -1,
		&qs);
	syscall(SYS_quotactl, QCMD(Q_XGETQSTATV, GRPQUOTA), "/dev/bogus/",
		-1, &qsv);
	syscall(SYS_quotactl, QCMD(Q_XQUOTARM, GRPQUOTA), NULL, -1, &flags);
	syscall(SYS_quotactl, QCMD(Q_XQUOTASYNC, USRQUOTA), NULL, -1, NULL);
	syscall(SYS_quotactl, QCMD(0x100, USRQUOTA), NULL, -1, NULL);
	fd = open(".", O_RDONLY | O_DIRECTORY);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_GETQUOTA, USRQUOTA), 1000, &dq);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_SETINFO, PRJQUOTA), -1, &info);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_QUOTAON, USRQUOTA), QFMT_VFS_V1,
		"/tmp/bogus/");
	close(fd);
	return 0;
}
