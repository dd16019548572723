/* SPDX-License-Identifier: MIT */
/* ioctl on seccomp user-notification descriptors: a notification
 * received into a zeroed buffer and into one that is not (the call number
 * by name for the running arch, a number for another), responses with
 * errors named and not, id checks in both directions, descriptors added.
 * On descriptor -1 (every request fails alike anywhere); under
 * `-e inject=ioctl:retval=0` what the kernel would have written. */
#include "corpus.h"
#include <fcntl.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

int main(void)
{
	struct seccomp_notif n;
	struct seccomp_notif_resp r = { 0x1234, -5, -ENOENT,
					SECCOMP_USER_NOTIF_FLAG_CONTINUE };
	struct seccomp_notif_addfd a = { 7, SECCOMP_ADDFD_FLAG_SETFD | 0x10, 1, 9,
					 O_CLOEXEC };
	unsigned long long id = 0xfeedULL;

	begin();
	memset(&n, 0, sizeof(n));
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, &n);
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, NULL);
	n.id = 42;
	n.pid = getpid();
	n.data.nr = SYS_openat;
	n.data.arch = AUDIT_ARCH_X86_64;
	n.data.instruction_pointer = 0x401000;
	n.data.args[0] = (unsigned long long)-100;
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, &n);
	n.data.arch = AUDIT_ARCH_AARCH64;
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, &n);
	n.data.nr = 0x7fff;
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, &n);
	ioctl(-1, SECCOMP_IOCTL_NOTIF_SEND, &r);
	r.error = -4000;
	r.flags = 6;
	ioctl(-1, SECCOMP_IOCTL_NOTIF_SEND, &r);
	ioctl(-1, SECCOMP_IOCTL_NOTIF_ID_VALID, &id);
	ioctl(-1, SECCOMP_IOR(2, __u64), &id);
	ioctl(-1, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
	ioctl(-1, SECCOMP_IOCTL_NOTIF_ADDFD, NULL);
	ioctl(-1, _IOC(_IOC_READ, '!', 9, 8), 0x99);
	return 0;
}
