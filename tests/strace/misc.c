/* SPDX-License-Identifier: MIT */
/* Directory listings, system information, random bytes, umask. */
#include "corpus.h"
#include <dirent.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

/* _sysctl (gone from kernels: ENOSYS): its arguments' fields, an
 * empty set, and an address that cannot be read */
static void sysctl_args(void)
{
	static int name[2] = { 1, 2 };
	static size_t oldlen = 4;
	static char old[4];
	struct {
		int *name;
		int nlen;
		void *oldval;
		size_t *oldlenp;
		void *newval;
		size_t newlen;
		unsigned long unused[4];
	} a = { name, 2, old, &oldlen, NULL, 0, { 0 } };

	syscall(SYS__sysctl, &a);
	a.nlen = -1;
	a.newlen = (size_t)-1;
	syscall(SYS__sysctl, &a);
	syscall(SYS__sysctl, NULL);
	syscall(SYS__sysctl, 8);
}

int main(int argc, char **argv)
{
	struct utsname u;
	cpu_set_t cpus;
	struct sysinfo si;
	unsigned char rnd[8];
	static char dents[4096];
	ssize_t n;
	int fd;

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	fd = open("a", O_WRONLY | O_CREAT, 0600);
	close(fd);
	fd = open("b", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	fd = open("a-name-longer-than-thirty-two-bytes-of-s", O_WRONLY |
		  O_CREAT, 0600);
	close(fd);
	/* getdents64 itself: readdir's buffer would come from malloc, whose
	 * heap differs under a preloaded sysgate. */
	fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	check(fd >= 0, "open .");
	while ((n = getdents64(fd, dents, sizeof(dents))) > 0)
		;
	/* and the older call, whose records keep the type last (-v: after
	 * the name, which is not cut at -s) */
	lseek(fd, 0, SEEK_SET);
	while ((n = syscall(SYS_getdents, fd, dents, sizeof(dents))) > 0)
		;
	close(fd);
	unlink("a");
	unlink("b");
	unlink("a-name-longer-than-thirty-two-bytes-of-s");
	check(uname(&u) == 0, "uname");
	check(sched_getaffinity(0, sizeof(cpus), &cpus) == 0, "sched_getaffinity");
	/* a set that cannot be read: its address */
	syscall(SYS_sched_setaffinity, 0, 1, (void *)8);
	syscall(SYS_sched_setaffinity, 0, 0, (void *)8);
	check(sysinfo(&si) == 0, "sysinfo");
	/* The bytes differ between runs: ask for none. */
	check(getrandom(rnd, 0, GRND_NONBLOCK) == 0, "getrandom");
	fd = open("/dev/null", O_WRONLY);
	check(write(fd, "\x01\x7f\x80\xff\t\x1b[0m\0001", 11) == 11, "write");
	close(fd);
	umask(022);
	check(umask(027) == 022, "umask");
	/* I/O priorities: the macro strace shows a value as */
	syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	syscall(SYS_ioprio_get, 0xfa57beef, -1);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, -1,
		IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 8191));
	syscall(SYS_ioprio_set, 0xfa57beef, -1, (int)0xfacefeed);
	{
		unsigned int node;

		/* the node written (not the CPU: it may differ between the
		 * two runs); alarm's unsigned int (0: none) */
		syscall(SYS_getcpu, NULL, &node, NULL);
		syscall(SYS_alarm, 0xffffffff00000000UL);
	}
	/* syslog's actions: a size, and calls the kernel refuses (no
	 * buffer to read into, a level that does not exist: nothing is
	 * read or changed); lookup_dcookie's cookie */
	syscall(SYS_syslog, 10, NULL, 0);
	syscall(SYS_syslog, 3, NULL, 16);
	syscall(SYS_syslog, 8, NULL, 42);
	syscall(SYS_syslog, -5, dents, -1);
	syscall(SYS_lookup_dcookie, 0xf157feeddeadfaceUL, dents, 16);
	/* reboot with magic numbers the kernel refuses (nothing happens),
	 * sethostname with no name and with one too long */
	syscall(SYS_reboot, 0, 0, 0, NULL);
	syscall(SYS_reboot, 0xfee1dead, 0x13111992, 0xa1b2c3d4, "again");
	syscall(SYS_reboot, 0xfee1dead, 85072278, 0x1234568, NULL);
	syscall(SYS_sethostname, NULL, 64);
	syscall(SYS_sethostname, dents, 65);
	{
		/* kexec with an architecture no kernel knows (refused), and
		 * descriptors that are none */
		unsigned long seg[2][4] = { { 0, 8, 0x100000, 4096 },
					    { (unsigned long)dents, 16,
					      0x200000, 8192 } };

		syscall(SYS_kexec_load, 0x1000UL, 2, seg, 0xdead0000UL | 0x3);
		syscall(SYS_kexec_load, 0, 17, seg, 0x4UL);
		syscall(SYS_kexec_file_load, -1, -1, 6, "quiet", 0x2UL);
	}
	sysctl_args();
	return 0;
}
