/* SPDX-License-Identifier: MIT */
/* Descriptors: dup family, pipe2, fcntl and its results, terminal and
 * FIO* ioctls; memfd_create's names (up to the kernel's limit, and one
 * past it) and flags (huge page sizes, unknown bits). */
#include "corpus.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/memfd.h>
#include <sys/sendfile.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <termios.h>

int main(void)
{
	struct termios t;
	int p[2], fd, n, on = 1, m, mf, sf, in;
	off_t off = 0;
	sigset_t set;

	begin();
	check(pipe2(p, O_CLOEXEC) == 0, "pipe2");
	fd = dup(p[0]);
	check(dup2(p[1], 100) == 100, "dup2");
	check(dup3(p[1], 101, O_CLOEXEC) == 101, "dup3");
	check(fcntl(fd, F_GETFL) >= 0, "F_GETFL");
	check(fcntl(fd, F_SETFL, O_NONBLOCK) == 0, "F_SETFL");
	check(fcntl(fd, F_GETFL) >= 0, "F_GETFL");
	check(fcntl(fd, F_GETFD) == 0, "F_GETFD");
	check(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, "F_SETFD");
	check(fcntl(fd, F_DUPFD_CLOEXEC, 20) >= 20, "F_DUPFD_CLOEXEC");
	check(fcntl(p[1], F_GETPIPE_SZ) > 0, "F_GETPIPE_SZ");
	check(write(p[1], "abc", 3) == 3, "write");
	check(ioctl(p[0], FIONREAD, &n) == 0, "FIONREAD");
	check(ioctl(p[0], FIONBIO, &on) == 0, "FIONBIO");
	check(ioctl(p[0], TCGETS, &t) < 0, "TCGETS pipe");
	m = posix_openpt(O_RDWR | O_NOCTTY);
	check(m >= 0, "posix_openpt");
	check(tcgetattr(m, &t) == 0, "tcgetattr");
	t.c_lflag &= ~(ICANON | ECHO);
	check(tcsetattr(m, TCSANOW, &t) == 0, "tcsetattr");
	close(m);
	check(flock(fd, LOCK_EX | LOCK_NB) == 0 && flock(fd, LOCK_UN) == 0,
	      "flock");
	mf = memfd_create("corpus", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	check(mf >= 0 && write(mf, "memfd", 5) == 5, "memfd_create");
	check(sendfile(p[1], mf, &off, 5) == 5, "sendfile");
	check(sendfile(p[1], mf, NULL, 5) == 0, "sendfile");
	off = -5;	/* (an offset strace shows unsigned) */
	check(sendfile(p[1], mf, &off, 5) < 0, "sendfile negative");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sf = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	check(sf >= 0, "signalfd");
	in = inotify_init1(IN_CLOEXEC);
	check(in >= 0 && inotify_add_watch(in, "/", IN_MODIFY | IN_CREATE |
					   IN_DELETE) >= 0, "inotify");
	close(in);
	close(sf);
	close(mf);
	close(fd);
	close(100);
	close(101);
	/* unsigned int flags: what the kernel reads of the register */
	syscall(SYS_pidfd_getfd, -1, -1, 0xdefaced00000000UL);
	syscall(SYS_process_mrelease, -1, 0xdefaced00000000UL);
	syscall(SYS_pidfd_open, 0, O_NONBLOCK);	/* PIDFD_NONBLOCK */
	syscall(SYS_pidfd_open, 0, 0xfacef6edU);
	/* dup3's flags are an int (unnamed ones commented); a new
	 * descriptor's path is the file it now holds (-yy) */
	fd = open("/dev/null", O_RDONLY);
	n = open("/dev/zero", O_RDONLY);
	syscall(SYS_dup3, fd, n, 0xdefaced00000000UL | O_CLOEXEC);
	syscall(SYS_dup3, fd, n, 0x1);
	syscall(SYS_dup2, n, fd);
	close(n);
	close(fd);
	/* fallocate's mode, mlock2's flags */
	syscall(SYS_fallocate, -1, 0xdeadca75UL, 1, 2);
	syscall(SYS_fallocate, -1, 0x80, 1, 2);
	syscall(SYS_mlock2, 0, 0, 0xfffffffffffffffeUL | MLOCK_ONFAULT);
	/* ints of flags and descriptors: the low 32 bits */
	syscall(SYS_close_range, 0xfffffffeUL, 0xffffffff00000003UL, 0x1);
	syscall(SYS_close_range, 1000, 999, 0xdead0006UL);
	syscall(SYS_pipe2, NULL, 0xffffffff00000000UL | O_NONBLOCK);
	syscall(SYS_inotify_init1, 0xdead0000UL | IN_NONBLOCK);
	syscall(SYS_inotify_init1, 0x10);
	syscall(SYS_memfd_secret, 0xbeefcafe00000000UL | 0x40);
	/* userfaultfd's flags (refused: one it does not know) */
	syscall(SYS_userfaultfd, 1 | O_NONBLOCK | O_CLOEXEC | 0x100);
	{
		static char name[300];

		memset(name, 'n', sizeof(name) - 1);
		syscall(SYS_memfd_create, name, 0);
		name[249] = 0;
		syscall(SYS_memfd_create, name,
			MFD_HUGETLB | MFD_HUGE_2MB | 0x100);
		syscall(SYS_memfd_create, "x", MFD_HUGE_1GB);
		syscall(SYS_memfd_create, "x", 0x80);
	}
	syscall(SYS_landlock_restrict_self, -1, 0xd1efaced00000001UL);
	syscall(SYS_ioperm, 0xdeafbeefffffffffUL, 1, 0);
	/* offsets as they were at entry (the call moves them), splice's
	 * and sync_file_range's flags */
	{
		loff_t in_off = 2, out_off = 0;

		m = memfd_create("a", 0);
		n = memfd_create("b", 0);
		check(m >= 0 && n >= 0 && write(m, "01234567", 8) == 8, "memfd");
		check(syscall(SYS_copy_file_range, m, &in_off, n, &out_off, 4,
			      0) == 4, "copy_file_range");
		syscall(SYS_splice, -1, &in_off, -2, NULL, 5,
			0xfffffff0UL | SPLICE_F_MOVE | SPLICE_F_MORE);
		syscall(SYS_splice, -1, NULL, -2, (void *)8, 5, 0x10);
		syscall(SYS_tee, -1, -2, 5, SPLICE_F_NONBLOCK);
		syscall(SYS_sync_file_range, -1, -1, 2,
			SYNC_FILE_RANGE_WRITE | 0x100);
		close(m);
		close(n);
	}
	{
		/* fanotify: class and flags, marks and masks, FAN_NOFD */
		long fa = syscall(SYS_fanotify_init, 0x4 | 0x1 | 0x1000000,
				  O_RDONLY | O_LARGEFILE);

		syscall(SYS_fanotify_init, 0xc, O_RDWR);
		syscall(SYS_fanotify_mark, (int)fa, 0x1 | 0x8 | 0x8000,
			0x20UL | 0x40000000UL | 0x800000000UL, AT_FDCWD, ".");
		syscall(SYS_fanotify_mark, -1, 0x80, 0, -1, NULL);
		if (fa >= 0)
			close((int)fa);
	}
	/* an offset of 64 bits, an unknown whence; advice's length */
	lseek(-1, (off_t)-374081421428539665LL, SEEK_SET);
	lseek(-1, 7, 9);
	posix_fadvise(-1, 1, (off_t)-2, POSIX_FADV_RANDOM);
	return 0;
}
