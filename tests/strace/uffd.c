/* SPDX-License-Identifier: MIT */
/* userfaultfd's ioctls: the handshake (features granted), a range
 * registered, a page copied and one zeroed, waking and unregistering;
 * each also on no descriptor and with no argument. */
#include "corpus.h"
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int main(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_copy cp = { .mode = UFFDIO_COPY_MODE_DONTWAKE };
	struct uffdio_zeropage zp = { .mode = 0x10 };
	struct uffdio_range r;
	long pg = sysconf(_SC_PAGESIZE);
	char *m;
	int fd;

	begin();
	m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(m != MAP_FAILED, "mmap");
	ioctl(-1, UFFDIO_API, &api);
	fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	ioctl(fd, UFFDIO_API, NULL);
	ioctl(fd, UFFDIO_API, &api);
	reg.range.start = (unsigned long)m;
	reg.range.len = 2 * pg;
	ioctl(fd, UFFDIO_REGISTER, &reg);
	cp.dst = (unsigned long)m;
	cp.src = (unsigned long)(m + 2 * pg);
	cp.len = pg;
	ioctl(fd, UFFDIO_COPY, &cp);
	cp.mode = 0xf0;
	ioctl(fd, UFFDIO_COPY, &cp);
	zp.range.start = (unsigned long)(m + pg);
	zp.range.len = pg;
	ioctl(fd, UFFDIO_ZEROPAGE, &zp);
	zp.mode = UFFDIO_ZEROPAGE_MODE_DONTWAKE;
	ioctl(fd, UFFDIO_ZEROPAGE, &zp);
	r = reg.range;
	ioctl(fd, UFFDIO_WAKE, &r);
	ioctl(fd, UFFDIO_UNREGISTER, &r);
	ioctl(fd, UFFDIO_UNREGISTER, m + 3 * pg - 8);
	close(fd);
	return 0;
}
