/* SPDX-License-Identifier: MIT */
/*
 * Code first run in a fork child, so first trapped and patched there, and
 * then other code first run in the parent.  sysgate keeps /proc/self/mem
 * open for writing code; one handed down to a fork child names the
 * parent's memory, so a child writing through it would patch its
 * parent's copy of the site (which must keep its bytes), with a stub in
 * a slot the parent hands out again to the next site it patches: the
 * parent's copy of the first site would then make the other's call.
 * Both list their descriptors too: none of sysgate's appears.
 */
#include <dirent.h>
#include <string.h>
#include <sys/wait.h>
#include "../lib/util.h"

/* (their own functions: no other code reaches these sites first; the
 * parent calls neither getppid before the child has run) */
long late_getppid(void);
long late_getpid(void);
long late_getuid(void);
__asm__(".text\n"
	".globl late_getuid\n"
	".type late_getuid,@function\n"
	"late_getuid:\n"
	".cfi_startproc\n"
	"	mov $102, %eax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size late_getuid, .-late_getuid\n"
	".globl late_getppid\n"
	".type late_getppid,@function\n"
	"late_getppid:\n"
	".cfi_startproc\n"
	"	mov $110, %eax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size late_getppid, .-late_getppid\n"
	".globl late_getpid\n"
	".type late_getpid,@function\n"
	"late_getpid:\n"
	".cfi_startproc\n"
	"	mov $39, %eax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size late_getpid, .-late_getpid\n");

/* The entries of /proc/self/fd, less the listing's own. */
static int descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	test_assert(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

int main(void)
{
	unsigned char code[16], libc[16];
	int st, i, before;
	pid_t p;

	/* (the parent's own patch first: the child's stub then goes where
	 * the parent's next one would) */
	for (i = 0; i < 3; i++)
		test_assert(late_getpid() == getpid());
	before = descriptors();
	memcpy(code, (const void *)late_getppid, sizeof(code));
	memcpy(libc, (const void *)getppid, sizeof(libc));
	p = fork();
	test_assert(p >= 0);
	if (p == 0) {
		for (i = 0; i < 3; i++)
			test_assert(late_getppid() == getppid());
		test_assert(descriptors() == before);
		_exit(0);
	}
	test_assert(waitpid(p, &st, 0) == p && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0);
	atomic_puts("child ran its first-trapped code");
	/* (neither ran here since: their bytes are still the program's) */
	test_assert(!memcmp(code, (const void *)late_getppid, sizeof(code)));
	test_assert(!memcmp(libc, (const void *)getppid, sizeof(libc)));
	for (i = 0; i < 3; i++)
		test_assert(late_getuid() == getuid());
	for (i = 0; i < 3; i++)
		test_assert(late_getppid() == getppid());
	test_assert(descriptors() == before);
	atomic_printf("parent's code intact, %d descriptors as before\n",
		      before);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
