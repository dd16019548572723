/* SPDX-License-Identifier: MIT */
/*
 * examples.h - the GENESYS case studies, written once over any caller so
 * the same code runs on CPU lanes (tests/gpu) and on a GPU (gpu/examples.cu).
 */
#ifndef SYSGATE_GPU_EXAMPLES_H
#define SYSGATE_GPU_EXAMPLES_H

#include <fcntl.h>
#include <sys/mman.h>

#include "sysgate_gpu.h"

namespace sysgate_gpu {

SYSGATE_GPU_HD bool wc_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' ||
		c == '\v';
}

/*
 * Wordcount, per block: the block's leader opens, reads and closes (block
 * granularity); every thread counts the word starts at its stride of the
 * buffer.  Returns this thread's share of the count, or -errno.  buf must
 * be memory the runtime accepts (registered pinned or managed memory).
 */
template <class A>
SYSGATE_GPU_HD int64_t wordcount_block(A &api, unsigned tid, unsigned nthreads,
			      const char *path, char *buf, unsigned cap)
{
	int64_t fd = api.open(path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	int64_t words = 0, off = 0;
	char prev = ' ';
	for (;;) {
		/* strong: nobody may still be reading the previous chunk */
		int64_t n = api.pread((int)fd, buf, cap, off);
		if (n <= 0) {
			if (n < 0)
				words = n;
			break;
		}
		for (int64_t i = tid; i < n; i += nthreads) {
			char p = i ? buf[i - 1] : prev;
			if (!wc_space(buf[i]) && wc_space(p))
				words++;
		}
		prev = buf[n - 1];
		off += n;
	}
	api.close((int)fd, SYSGATE_GPU_RELAXED);
	return words;
}

/*
 * UDP echo, per work-item: each lane receives one datagram into its own
 * buffer and sends it back to where it came from.  addr is 128 bytes and
 * alen one word, both lane-private and registered.  Returns the bytes
 * echoed or -errno.
 */
template <class A>
SYSGATE_GPU_HD int64_t udp_echo_lane(A &api, int fd, char *buf, unsigned cap,
			    void *addr, uint32_t *alen)
{
	*alen = 128;
	int64_t n = api.recvfrom(fd, buf, cap, 0, addr, alen);
	if (n < 0)
		return n;
	return api.sendto(fd, buf, (size_t)n, 0, addr, *alen);
}

/*
 * madvise: map scratch memory, use it, and tell the kernel it is no longer
 * needed (MADV_DONTNEED), then unmap.  touch: the caller can access host
 * memory the runtime maps (CPU lanes; on a GPU that would need the mapping
 * registered with CUDA, so the GPU example passes false).  Returns 0 or
 * -errno (-EIO when the released pages were not zero afterwards).
 */
template <class A>
SYSGATE_GPU_HD int64_t madvise_release(A &api, size_t len, bool touch)
{
	int64_t a = api.mmap(0, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a < 0)
		return a;
	unsigned char *p = (unsigned char *)(uintptr_t)a;
	if (touch)
		for (size_t i = 0; i < len; i += 512)
			p[i] = 0xa5;
	int64_t r = api.madvise(p, len, MADV_DONTNEED);
	if (!r && touch)
		for (size_t i = 0; i < len; i += 512)
			if (p[i])
				r = -5;	/* EIO */
	int64_t u = api.munmap(p, len);
	return r ? r : u;
}

} /* namespace sysgate_gpu */

#endif
