/* SPDX-License-Identifier: MIT */
/* Kernel modules, as an unprivileged caller (every call fails): the
 * image's address and length, parameter strings cut at -s, flags known
 * and not, a name that cannot be read. */
#include "corpus.h"
#include <fcntl.h>
#include <linux/module.h>
#include <sys/syscall.h>

int main(void)
{
	static const char image[64];

	begin();
	syscall(SYS_init_module, image, sizeof(image), "debug=1 verbose=yes");
	syscall(SYS_init_module, NULL, 0, NULL);
	syscall(SYS_finit_module, -1, "", MODULE_INIT_IGNORE_VERMAGIC);
	syscall(SYS_finit_module, 0, "a parameter string longer than -s",
		0xdeadbe00 | MODULE_INIT_COMPRESSED_FILE);
	syscall(SYS_finit_module, -1, NULL, 0xdeadbe00);
	syscall(SYS_delete_module, "sysgate_none", O_NONBLOCK | O_TRUNC);
	syscall(SYS_delete_module, (char *)8, 0xdead0000);
	syscall(SYS_delete_module, NULL, 0);
	return 0;
}
