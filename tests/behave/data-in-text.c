/* SPDX-License-Identifier: MIT */
/*
 * Bytes that look like `syscall` (and `mov $39,%eax; syscall`) inside a
 * function's text, after its `ret`, are data: they must stay untouched.
 * A real syscall in the same function is still hooked normally.
 */
#include "../lib/util.h"

long data_fn(void);
extern const unsigned char data_bytes[];
__asm__(
	".text\n"
	".globl data_fn\n"
	".type data_fn,@function\n"
	"data_fn:\n"
	".cfi_startproc\n"
	"	mov $39, %eax\n"
	"	syscall\n"
	"	ret\n"
	".globl data_bytes\n"
	"data_bytes:\n"
	"	.byte 0x0f, 0x05, 0xb8, 0x27, 0x00, 0x00, 0x00, 0x0f, 0x05\n"
	"	.byte 0x0f, 0x34, 0x90\n"
	".cfi_endproc\n"
	".size data_fn, .-data_fn\n");

int main(void)
{
	static const unsigned char want[] = { 0x0f, 0x05, 0xb8, 0x27, 0x00, 0x00,
					      0x00, 0x0f, 0x05, 0x0f, 0x34, 0x90 };

	test_assert(data_fn() == getpid());
	test_assert(!memcmp(data_bytes, want, sizeof(want)));
	atomic_puts("data bytes intact");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
