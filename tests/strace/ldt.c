/* SPDX-License-Identifier: MIT */
/* x86's segment descriptors: modify_ldt reading an LDT the process does
 * not have, with and without a descriptor-sized buffer;
 * set_thread_area with an entry it refuses; get_thread_area of a TLS
 * entry, of one that is not, and with nothing to read. */
#include "corpus.h"
#include <sys/syscall.h>

struct desc {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit:1, contents:2, read_exec_only:1,
		     limit_in_pages:1, seg_not_present:1, useable:1, lm:1;
};

int main(void)
{
	struct desc d = { 5, 0x1000, 0xfffff, 1, 2, 0, 1, 0, 1, 0 };
	char buf[40];

	begin();
	syscall(SYS_modify_ldt, 0, &d, sizeof(d));
	syscall(SYS_modify_ldt, 0, buf, sizeof(buf));
	syscall(SYS_modify_ldt, 0x11, NULL, 0);
	syscall(SYS_set_thread_area, &d);
	d.entry_number = -1;
	d.base_addr = 0;
	syscall(SYS_set_thread_area, &d);
	syscall(SYS_set_thread_area, NULL);
	d.entry_number = 12;
	syscall(SYS_get_thread_area, &d);
	d.entry_number = 3;
	syscall(SYS_get_thread_area, &d);
	syscall(SYS_get_thread_area, NULL);
	return 0;
}
