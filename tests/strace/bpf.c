/* SPDX-License-Identifier: MIT */
/* bpf(2): BPF_PROG_LOAD's attributes, cut where the size given ends
 * (each kernel release's layout), and bytes past strace's layout.  No
 * program loads (no instructions): the calls fail, the log buffer as it
 * was given.  maps(): BPF_MAP_CREATE cut the same way, a map made where
 * the kernel lets us, and BPF_OBJ_GET_INFO_BY_FD's info length, which
 * the kernel lowers to its own. */
#include "corpus.h"
#include <linux/bpf.h>
#include <sys/syscall.h>

static long bpf(int cmd, void *attr, unsigned long size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

static void maps(void)
{
	static union {
		union bpf_attr a;
		unsigned char b[160];
	} u;
	/* (zeros past the kernel's struct, or E2BIG: whatever the stack
	 * held there differed between the two runs) */
	static unsigned char info[200];
	int fd;

	u.a.map_type = BPF_MAP_TYPE_ARRAY;
	u.a.key_size = 4;
	u.a.value_size = 8;
	u.a.max_entries = 2;
	u.a.map_flags = BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG | 0x800000;
	u.a.numa_node = -1;
	memcpy(u.a.map_name, "corpus_map_name", 16);
	bpf(BPF_MAP_CREATE, &u, 16);
	bpf(BPF_MAP_CREATE, &u, 28);
	bpf(BPF_MAP_CREATE, &u, 40);
	bpf(BPF_MAP_CREATE, &u, 72);
	u.a.map_flags = 0;
	memcpy(u.a.map_name, "corpus", 7);
	fd = bpf(BPF_MAP_CREATE, &u, 72);
	memset(&u, 0, sizeof(u));
	u.a.info.bpf_fd = fd;
	u.a.info.info_len = sizeof(info);
	u.a.info.info = (unsigned long)info;
	bpf(BPF_OBJ_GET_INFO_BY_FD, &u, 16);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	static char log[64] = "";
	static union {
		union bpf_attr a;
		unsigned char b[160];
	} u;

	begin();
	u.a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	u.a.license = (unsigned long)"GPL";
	u.a.log_level = 1;
	u.a.log_size = sizeof(log);
	u.a.log_buf = (unsigned long)log;
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
	maps();
	return 0;
}
