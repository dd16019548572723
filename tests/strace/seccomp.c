/* SPDX-License-Identifier: MIT */
/* The seccomp call's operations and classic BPF filters of every
 * instruction class (in seccomp and prctl; refused: an unknown flag, a
 * filter that does not end in a return, so nothing is installed even as
 * root); a socket filter attached and read back, its loads from the
 * kernel's special offsets by name.  ioctl on seccomp user-notification descriptors: a notification
 * received into a zeroed buffer and into one that is not (the call number
 * by name for the running arch, a number for another), responses with
 * errors named and not, id checks in both directions, descriptors added.
 * On descriptor -1 (every request fails alike anywhere); under
 * `-e inject=ioctl:retval=0` what the kernel would have written. */
#include "corpus.h"
#include <fcntl.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

int main(void)
{
	struct seccomp_notif n;
	struct seccomp_notif_resp r = { 0x1234, -5, -ENOENT,
					SECCOMP_USER_NOTIF_FLAG_CONTINUE };
	struct seccomp_notif_addfd a = { 7, SECCOMP_ADDFD_FLAG_SETFD | 0x10, 1, 9,
					 O_CLOEXEC };
	unsigned long long id = 0xfeedULL;
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOENT),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 14),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		BPF_STMT(BPF_ST, 3),
		BPF_STMT(BPF_STX | 0x40, 4),
		BPF_STMT(BPF_RET | BPF_A, 0),
		BPF_STMT(BPF_RET | BPF_K, 0x60000),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_X, 0x10, 2, 0),
		BPF_STMT(BPF_MISC | BPF_TXA | 0x8, 0),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	struct sock_filter sf[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_NET_OFF + 9),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_LL_OFF + 12),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_CPU),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
	}, bad[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + 200),
		BPF_STMT(BPF_RET | BPF_K, 0),
	}, back[8];
	struct sock_fprog bprog = { 2, bad };
	struct sock_fprog sprog = { sizeof(sf) / sizeof(sf[0]), sf };
	socklen_t blen = 0;
	int sk;
	struct seccomp_notif_sizes sizes;
	unsigned int act = SECCOMP_RET_LOG;

	begin();
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	act = 0x12340000;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 1, NULL);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		SECCOMP_FILTER_FLAG_LOG | 0x1000, &prog);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0x1000, NULL);
	syscall(SYS_seccomp, 9, 2, 0x1000);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
	sk = socket(AF_INET, SOCK_DGRAM, 0);
	setsockopt(sk, SOL_SOCKET, SO_ATTACH_FILTER, &sprog, sizeof(sprog));
	setsockopt(sk, SOL_SOCKET, SO_ATTACH_FILTER, &sprog, 4);
	setsockopt(sk, SOL_SOCKET, SO_ATTACH_FILTER, &bprog, sizeof(bprog));
	getsockopt(sk, SOL_SOCKET, SO_GET_FILTER, NULL, &blen);
	blen = 8;
	getsockopt(sk, SOL_SOCKET, SO_GET_FILTER, back, &blen);
	close(sk);
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
