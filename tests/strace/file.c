/* SPDX-License-Identifier: MIT */
/* File and stat family: open flags and modes, the stat structs, AT_*. */
#include "corpus.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <linux/xattr.h>

int main(int argc, char **argv)
{
	struct stat st;
	struct statx stx;
	struct statfs sfs;
	char buf[256];
	int fd, dfd;

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	fd = open("f.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0, "open");
	check(write(fd, "hello world\n", 12) == 12, "write");
	check(fstat(fd, &st) == 0, "fstat");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	close(fd);
	fd = openat(AT_FDCWD, "f.txt", O_RDONLY | O_CLOEXEC);
	check(read(fd, buf, sizeof(buf)) == 12, "read");
	check(pread(fd, buf, 5, 6) == 5, "pread");
	check(fstatat(fd, "", &st, AT_EMPTY_PATH) == 0, "fstatat");
	close(fd);
	check(stat("f.txt", &st) == 0, "stat");
	check(lstat("f.txt", &st) == 0, "lstat");
	check(stat("missing", &st) < 0, "stat missing");
	check(fstatat(AT_FDCWD, "f.txt", &st, AT_SYMLINK_NOFOLLOW) == 0, "fstatat");
	check(statx(AT_FDCWD, "f.txt", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS,
		    &stx) == 0, "statx");
	/* both sync bits (strace names each), a mask of unknown bits, a
	 * device (its size, not its numbers, as strace 6.1) */
	check(statx(AT_FDCWD, "f.txt", AT_STATX_SYNC_TYPE, 0xc0000000,
		    &stx) < 0, "statx flags");
	check(statx(AT_FDCWD, "/dev/null", AT_STATX_DONT_SYNC, STATX_TYPE,
		    &stx) == 0, "statx dev");
	check(statfs(".", &sfs) == 0, "statfs");
	check(access("f.txt", R_OK | W_OK) == 0, "access");
	check(faccessat(AT_FDCWD, "f.txt", X_OK, 0) < 0, "faccessat");
	check(mkdir("d", 0755) == 0, "mkdir");
	dfd = open("d", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	check(dfd >= 0, "open dir");
	check(mkdirat(dfd, "sub", 0700) == 0, "mkdirat");
	check(symlink("f.txt", "link") == 0, "symlink");
	check(readlink("link", buf, sizeof(buf)) == 5, "readlink");
	check(rename("f.txt", "g.txt") == 0, "rename");
	check(chmod("g.txt", 0600) == 0, "chmod");
	check(truncate("g.txt", 3) == 0, "truncate");
	check(getcwd(buf, sizeof(buf)) != NULL, "getcwd");
	fd = open("g.txt", O_RDWR | O_APPEND);
	check(fchmod(fd, 0640) == 0, "fchmod");
	check(fchown(fd, -1, -1) == 0, "fchown");
	check(fsync(fd) == 0, "fsync");
	close(fd);
	check(unlinkat(dfd, "sub", AT_REMOVEDIR) == 0, "unlinkat");
	close(dfd);
	check(unlink("link") == 0 && unlink("g.txt") == 0, "unlink");
	check(rmdir("d") == 0, "rmdir");
	/* a filesystem whose fsid has a 0 half */
	check(statfs("/proc", &sfs) == 0, "statfs /proc");
	/* openat2's struct, its mode only where it means something, and an
	 * extension's bytes (each call fails before any lookup) */
	{
		struct {
			struct open_how how;
			unsigned char ext[8];
		} h = { { O_RDONLY | O_EXCL, 0, RESOLVE_NO_XDEV },
			{ 0, 0, 0x80, 0, 0, 0, 0, 1 } };

		syscall(SYS_openat2, -1, "nosuch", &h, sizeof(h.how));
		syscall(SYS_openat2, -1, "nosuch", &h, sizeof(h));
		syscall(SYS_openat2, -1, "nosuch", &h, 11);
		h.how.flags = O_WRONLY | O_CREAT;
		h.how.mode = 0600;
		h.how.resolve = 0xc0;
		memset(h.ext, 0, sizeof(h.ext));
		syscall(SYS_openat2, -1, "nosuch", &h, sizeof(h));
	}
	/* modes are the kernel's 16 bits; mknod's symbolic, its device only
	 * for a device node; access modes and flags of 32 bits, unnamed bits
	 * commented (each call fails: no such directory) */
	syscall(SYS_mkdir, "no/d", 0xdead0000UL | 0755);
	syscall(SYS_umask, 0xbeef0000UL | 022);
	syscall(SYS_umask, 022);
	syscall(SYS_mknod, "no/n", S_IFREG | S_ISUID | 0600, 0x103);
	syscall(SYS_mknod, "no/n", S_IFCHR | 0600, 0x103);
	syscall(SYS_mknodat, AT_FDCWD, "no/n", 0xffff0000UL | S_IFBLK | 0640,
		0x1234567);
	syscall(SYS_mknod, "no/n", 0170644, 0);
	syscall(SYS_mknod, "no/n", S_ISVTX | 0644, 0);
	syscall(SYS_faccessat, AT_FDCWD, "no/f", 0xdefa000000000000UL | R_OK);
	syscall(SYS_faccessat, AT_FDCWD, "no/f", 0x10);
	syscall(SYS_faccessat, AT_FDCWD, "no/f", 0);
	syscall(SYS_faccessat2, AT_FDCWD, "no/f", W_OK, 0x1);
	syscall(SYS_faccessat2, AT_FDCWD, "no/f", W_OK,
		AT_EACCESS | 0x10000);
	/* AT_*, RENAME_* and MNT_* flags: ints, unnamed bits commented */
	syscall(SYS_unlinkat, AT_FDCWD, "no/f", 0xffff0000UL | AT_REMOVEDIR);
	syscall(SYS_unlinkat, AT_FDCWD, "no/f", 0x10000000);
	syscall(SYS_linkat, AT_FDCWD, "no/a", AT_FDCWD, "no/b",
		AT_SYMLINK_FOLLOW);
	syscall(SYS_renameat2, AT_FDCWD, "no/a", AT_FDCWD, "no/b",
		RENAME_NOREPLACE | 0x100);
	syscall(SYS_renameat2, AT_FDCWD, "no/a", AT_FDCWD, "no/b", 0x100);
	syscall(SYS_umount2, "no/m", 0xdead0000UL | MNT_DETACH | UMOUNT_NOFOLLOW);
	syscall(SYS_umount2, "no/m", 0x10);
	/* paths: PATH_MAX - 1 bytes then "..."; one that runs into an
	 * unmapped page before its NUL is its address */
	{
		char *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		check(pg != MAP_FAILED, "mmap");
		memset(pg, '/', 8191);
		pg[8191] = 0;
		syscall(SYS_chdir, pg);
		munmap(pg + 4096, 4096);
		syscall(SYS_chdir, pg + 1);
		munmap(pg, 4096);
	}
	/* uids and gids: 32 bits unsigned, -1 as -1 */
	syscall(SYS_chown, "no/f", 0xdeadffff0000UL, -1);
	syscall(SYS_fchownat, AT_FDCWD, "no/f", -1, 0xfffffffeU, 0);
	{
		/* ustat: a 32-bit device, makedev() */
		struct stat st;
		char u[32];

		if (stat(".", &st) == 0)
			syscall(SYS_ustat, (unsigned long)st.st_dev, u);
		syscall(SYS_ustat, 0xfacefeedffffffffUL, NULL);
	}
	/* swapon's flags and priority (no such file) */
	syscall(SYS_swapon, "nonexistent", 0x8000 | 0x10000 | 42);
	syscall(SYS_swapon, "nonexistent", 0x80000 | 7);
	{
		/* extended attributes: values with and without their final
		 * NUL, one larger than the kernel takes, flags, lists */
		char v[16];

		syscall(SYS_setxattr, ".", "user.sysgate", "foo\0bar", 8,
			XATTR_CREATE);
		syscall(SYS_lsetxattr, ".", "user.sysgate", "foo\0bar", 7,
			XATTR_REPLACE | 4);
		syscall(SYS_fsetxattr, -1, "user.sysgate", v, 70000, 0);
		syscall(SYS_getxattr, ".", "user.none", v, sizeof(v));
		syscall(SYS_fgetxattr, -1, "user.none", v, sizeof(v));
		syscall(SYS_listxattr, ".", v, 0);
		syscall(SYS_flistxattr, -1, v, sizeof(v));
		syscall(SYS_removexattr, ".", "user.none");
		syscall(SYS_fremovexattr, -1, "user.none");
	}
	/* __O_SYNC and __O_TMPFILE alone (the mode shown with the latter) */
	/* (the mode given: -e raw prints the register, which held what
	 * earlier code left there, different in the two runs) */
	syscall(SYS_openat, -1, "x", O_RDONLY | 04000000, 0);
	syscall(SYS_openat, -1, "x", O_WRONLY | 020000000, 0600);
	return 0;
}
