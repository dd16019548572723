/* SPDX-License-Identifier: MIT */
/*
 * The program's memory, read and written from its own process (--fs
 * never runs under -m ptrace): sysgate's copies that turn a fault into
 * -EFAULT without a system call, where process_vm_readv cost ~2.5 us for
 * a path on a 2-core VM, a quarter of a stat on CephFS through
 * libcephfs.  The answers of sysgate_read_mem, _read_str and _write_mem.
 */
#include <linux/errno.h>
#include "fs.h"

#define STR_CHUNK 256

long fs_read_mem(const struct sysgate_sys *s, void *dst, const void *src,
		 unsigned long len)
{
	(void)s;
	return sysgate_copy_nofault(dst, src, len) ? -EFAULT : (long)len;
}

long fs_write_mem(const struct sysgate_sys *s, void *dst, const void *src,
		  unsigned long len)
{
	(void)s;
	return sysgate_copy_nofault(dst, src, len) ? -EFAULT : (long)len;
}

long fs_read_str(const struct sysgate_sys *s, char *dst, const void *src,
		 unsigned long max, int *trunc)
{
	unsigned long done = 0;
	char c;

	(void)s;
	if (trunc)
		*trunc = 0;
	if (!max)
		return 0;
	while (done < max - 1) {
		/* Never past src's page: a string that ends before an
		 * unmapped one is still read whole. */
		unsigned long addr = (unsigned long)src + done, i;
		unsigned long chunk = 4096 - (addr & 4095);

		chunk = fs_min(fs_min(chunk, STR_CHUNK), max - 1 - done);
		if (sysgate_copy_nofault(dst + done, (const void *)addr,
					 chunk)) {
			dst[done] = 0;
			return -EFAULT;
		}
		for (i = 0; i < chunk; i++)
			if (!dst[done + i])
				return done + i;
		done += chunk;
	}
	dst[done] = 0;
	if (trunc)
		*trunc = !sysgate_copy_nofault(&c, (const char *)src + done, 1) &&
			 c;
	return done;
}
