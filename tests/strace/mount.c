/* SPDX-License-Identifier: MIT */
/* Mounting, as an unprivileged caller (every call fails): mount's flags
 * with and without the old magic number, the type and data the kernel
 * ignores for remounts, binds and propagation changes; the mount API's
 * calls with known and unknown flags, fsconfig's commands with the
 * arguments each makes meaningful, mount_setattr's structure by its
 * size, with bytes past it. */
#include "corpus.h"
#include <fcntl.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct {
		struct mount_attr a;
		uint64_t more;
	} attr = { { MOUNT_ATTR_RDONLY | MOUNT_ATTR_IDMAP | (1ULL << 40),
		     MOUNT_ATTR_NOEXEC, MS_SLAVE, 0 }, 0 };
	static const char blob[] = "\x01\x02key\xff";
	int dir;

	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	dir = open(".", O_RDONLY | O_DIRECTORY);
	check(dir >= 0, "open");
	attr.a.userns_fd = (uint64_t)dir;
	begin();
	syscall(SYS_mount, "none", "mnt", "tmpfs", MS_NOSUID | MS_NODEV |
		MS_RELATIME | 0x200, "size=1m");
	syscall(SYS_mount, "none", "mnt", "tmpfs", MS_MGC_VAL, NULL);
	syscall(SYS_mount, "none", "mnt", "tmpfs", MS_MGC_VAL | MS_RDONLY,
		"ro");
	syscall(SYS_mount, "src", "mnt", "ignored", MS_REMOUNT | MS_RDONLY,
		"data");
	syscall(SYS_mount, "src", "mnt", "ignored", MS_BIND | MS_REC, "data");
	syscall(SYS_mount, NULL, "mnt", NULL, MS_PRIVATE, NULL);
	syscall(SYS_mount, NULL, NULL, NULL, 0, NULL);
	syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	syscall(SYS_fsopen, "nosuchfs", 6);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_FLAG, "ro", NULL, 0);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_STRING, "size", "1m", 0);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_BINARY, "key", blob,
		(int)sizeof(blob) - 1);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_PATH, "source", "/dev/null",
		AT_FDCWD);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_PATH_EMPTY, "source", "",
		dir);
	syscall(SYS_fsconfig, dir, FSCONFIG_SET_FD, "fd", NULL, dir);
	syscall(SYS_fsconfig, dir, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
	syscall(SYS_fsconfig, -100, 42, "k", "v", -7);
	syscall(SYS_fsmount, dir, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV |
		MOUNT_ATTR_NOATIME);
	syscall(SYS_fsmount, -100, 2, MOUNT_ATTR_IDMAP);
	syscall(SYS_fspick, AT_FDCWD, ".", FSPICK_CLOEXEC | FSPICK_EMPTY_PATH);
	syscall(SYS_fspick, dir, "", 0x30);
	syscall(SYS_open_tree, AT_FDCWD, "nonexistent",
		OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	syscall(SYS_open_tree, dir, "", 0x4);
	syscall(SYS_move_mount, dir, "", AT_FDCWD, "mnt",
		MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_SYMLINKS);
	syscall(SYS_move_mount, AT_FDCWD, "a", dir, "b", 0x8);
	syscall(SYS_mount_setattr, dir, "", AT_EMPTY_PATH | AT_RECURSIVE,
		&attr.a, sizeof(attr.a));
	attr.more = 0x1122;
	syscall(SYS_mount_setattr, AT_FDCWD, "mnt", 0, &attr, sizeof(attr));
	attr.a.attr_set = MOUNT_ATTR_NOSUID;
	attr.a.attr_clr = 0;
	attr.a.propagation = 3;
	syscall(SYS_mount_setattr, AT_FDCWD, "mnt", 0x8000, &attr.a,
		sizeof(attr.a));
	syscall(SYS_mount_setattr, AT_FDCWD, "mnt", 0, &attr.a, 16);
	return 0;
}
