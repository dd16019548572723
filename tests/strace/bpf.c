/* SPDX-License-Identifier: MIT */
/* bpf(2): BPF_PROG_LOAD's attributes, cut where the size given ends
 * (each kernel release's layout), and bytes past strace's layout.  No
 * program loads (no instructions): the calls fail. */
#include "corpus.h"
#include <linux/bpf.h>
#include <sys/syscall.h>

static long bpf(int cmd, void *attr, unsigned long size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

int main(void)
{
	static union {
		union bpf_attr a;
		unsigned char b[160];
	} u;

	begin();
	u.a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	u.a.license = (unsigned long)"GPL";
	u.a.log_level = 1;
	u.a.log_size = 0;
	u.a.kern_version = 0x050a00;	/* 5.10.0 */
	u.a.prog_flags = BPF_F_STRICT_ALIGNMENT | 0x100000;
	memcpy(u.a.prog_name, "corpus", 7);
	u.a.expected_attach_type = BPF_CGROUP_INET_EGRESS;
	u.a.attach_prog_fd = 1;
	bpf(BPF_PROG_LOAD, &u, 128);
	/* the layouts of older kernels: up to the license, the log, the
	 * version, the name cut short */
	bpf(BPF_PROG_LOAD, &u, 24);
	bpf(BPF_PROG_LOAD, &u, 40);
	bpf(BPF_PROG_LOAD, &u, 44);
	bpf(BPF_PROG_LOAD, &u, 52);
	/* past strace's layout: zeros, then not */
	bpf(BPF_PROG_LOAD, &u, 136);
	u.b[140] = 7;
	bpf(BPF_PROG_LOAD, &u, 144);
	bpf(BPF_PROG_LOAD, NULL, 128);
	bpf(BPF_PROG_LOAD, &u, 0);
	return 0;
}
