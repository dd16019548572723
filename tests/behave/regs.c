/* SPDX-License-Identifier: MIT */
/*
 * Every register keeps its value across a hooked syscall, as the kernel
 * leaves it: rax = result, rcx = address after `syscall`, r11 = rflags;
 * all others, the flags and the vector registers unchanged.
 */
#include "../lib/util.h"

struct regs {
	unsigned long rbx, rbp, rdi, rsi, rdx, r8, r9, r10, r12, r13, r14, r15;
	unsigned long rax, rcx, r11, flags_before, flags_after, after_addr;
	unsigned long xmm[4];
};

struct regs out;
unsigned long flags_in;		/* the flags the syscall runs with */
void regs_probe(void);
__asm__(
	".text\n"
	".globl regs_probe\n"
	".type regs_probe,@function\n"
	"regs_probe:\n"
	".cfi_startproc\n"
	"	push %rbx\n .cfi_adjust_cfa_offset 8\n"
	"	push %rbp\n .cfi_adjust_cfa_offset 8\n"
	"	push %r12\n .cfi_adjust_cfa_offset 8\n"
	"	push %r13\n .cfi_adjust_cfa_offset 8\n"
	"	push %r14\n .cfi_adjust_cfa_offset 8\n"
	"	push %r15\n .cfi_adjust_cfa_offset 8\n"
	"	mov $0x1b, %rbx\n mov $0x2b, %rbp\n mov $0x3b, %rdi\n"
	"	mov $0x4b, %rsi\n mov $0x5b, %rdx\n mov $0x6b, %r8\n"
	"	mov $0x7b, %r9\n mov $0x8b, %r10\n mov $0x9b, %r12\n"
	"	mov $0xab, %r13\n mov $0xbb, %r14\n mov $0xcb, %r15\n"
	"	mov $0x1234, %rax\n movq %rax, %xmm0\n movq %rax, %xmm15\n"
	"	mov $0x1111, %rax\n movq %rax, %xmm7\n"
	"	pushq flags_in(%rip)\n .cfi_adjust_cfa_offset 8\n"
	"	popfq\n .cfi_adjust_cfa_offset -8\n"
	"	pushfq\n .cfi_adjust_cfa_offset 8\n"
	"	popq out+120(%rip)\n .cfi_adjust_cfa_offset -8\n"
	"	mov $110, %eax\n"
	"	syscall\n"
	"regs_after:\n"
	"	pushfq\n .cfi_adjust_cfa_offset 8\n"
	"	popq out+128(%rip)\n .cfi_adjust_cfa_offset -8\n"
	"	cld\n"
	"	mov %rbx, out+0(%rip)\n mov %rbp, out+8(%rip)\n"
	"	mov %rdi, out+16(%rip)\n mov %rsi, out+24(%rip)\n"
	"	mov %rdx, out+32(%rip)\n mov %r8, out+40(%rip)\n"
	"	mov %r9, out+48(%rip)\n mov %r10, out+56(%rip)\n"
	"	mov %r12, out+64(%rip)\n mov %r13, out+72(%rip)\n"
	"	mov %r14, out+80(%rip)\n mov %r15, out+88(%rip)\n"
	"	mov %rax, out+96(%rip)\n mov %rcx, out+104(%rip)\n"
	"	mov %r11, out+112(%rip)\n"
	"	lea regs_after(%rip), %rax\n mov %rax, out+136(%rip)\n"
	"	movq %xmm0, out+144(%rip)\n movq %xmm15, out+152(%rip)\n"
	"	movq %xmm7, out+160(%rip)\n"
	"	pop %r15\n .cfi_adjust_cfa_offset -8\n"
	"	pop %r14\n .cfi_adjust_cfa_offset -8\n"
	"	pop %r13\n .cfi_adjust_cfa_offset -8\n"
	"	pop %r12\n .cfi_adjust_cfa_offset -8\n"
	"	pop %rbp\n .cfi_adjust_cfa_offset -8\n"
	"	pop %rbx\n .cfi_adjust_cfa_offset -8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size regs_probe, .-regs_probe\n");

/* CF PF AF ZF SF DF OF in several combinations (sysgate restores them
 * without popfq, so each needs checking). */
static const unsigned long flag_sets[] = {
	0x401, 0xcd5, 0x000, 0x800, 0x0c0, 0x014, 0x8d5, 0x400, 0x001,
};

static void check_flags(void)
{
	unsigned int k;

	for (k = 0; k < sizeof(flag_sets) / sizeof(flag_sets[0]); k++) {
		flags_in = flag_sets[k] | 0x202;	/* reserved bit, IF */
		regs_probe();
		test_assert((out.flags_before & 0xcd5) == flag_sets[k]);
		test_assert(out.r11 == out.flags_before);
		test_assert(out.flags_after == out.flags_before);
	}
}

int main(void)
{
	const unsigned long want[12] = { 0x1b, 0x2b, 0x3b, 0x4b, 0x5b, 0x6b,
					 0x7b, 0x8b, 0x9b, 0xab, 0xbb, 0xcb };
	const unsigned long *got = &out.rbx;
	int i;

	check_flags();
	flags_in = 0x401 | 0x202;			/* CF, DF */
	regs_probe();
	for (i = 0; i < 12; i++)
		test_assert(got[i] == want[i]);
	atomic_puts("general registers preserved");
	test_assert(out.rax == (unsigned long)getppid());
	test_assert(out.rcx == out.after_addr);
	atomic_puts("rcx = address after syscall");
	/* The kernel returns the flags in r11 and restores them. */
	test_assert(out.r11 == out.flags_before);
	test_assert(out.flags_after == out.flags_before);
	test_assert(out.flags_after & 1);		/* CF */
	test_assert(out.flags_after & 0x400);		/* DF */
	atomic_puts("r11 = rflags, flags preserved");
	test_assert(out.xmm[0] == 0x1234 && out.xmm[1] == 0x1234);
	test_assert(out.xmm[2] == 0x1111);
	atomic_puts("vector registers preserved");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
