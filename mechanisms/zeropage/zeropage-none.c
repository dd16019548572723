/* SPDX-License-Identifier: MIT */
/* The zero-page mechanism on architectures without it (x86-64 only: it
 * relies on `call *%rax` being as short as `syscall`). */
#include "zeropage.h"

int sg_zeropage_probe(const char **why)
{
	*why = "zeropage: x86-64 only (this build is for another architecture)";
	return -1;
}

int sg_zeropage_check(int readable_ok, const char **why)
{
	(void)readable_ok;
	return sg_zeropage_probe(why);
}

int sg_zeropage_setup(int readable_ok, const char **why)
{
	(void)readable_ok;
	return sg_zeropage_probe(why);
}

int sg_zeropage_readable(void)
{
	return 0;
}

unsigned long sg_zeropage_add(unsigned long ret, unsigned long stub)
{
	(void)ret;
	(void)stub;
	return 0;
}

void sg_zeropage_commit(void)
{
}
