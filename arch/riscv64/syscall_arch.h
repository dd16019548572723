/* SPDX-License-Identifier: MIT */
/*
 * Raw rv64 system calls (musl's syscall_arch.h shape): number in a7,
 * arguments in a0-a5, result in a0; the kernel preserves every other
 * register.  These `ecall`s live in libsysgate's own text, never patched.
 */
#ifndef SG_SYSCALL_ARCH_H
#define SG_SYSCALL_ARCH_H

/* The system call instruction's length, and the alignment of code. */
#define SG_SYSCALL_INSN_LEN 4
/* Does code at pc (readable: it just ran) start with the system call
 * instruction?  A call the kernel will restart is rewound to it. */
static inline int sg_arch_at_syscall(unsigned long pc)
{
	const unsigned short *h = (const unsigned short *)pc;

	/* (2-byte aligned: read halves) */
	return h[0] == 0x0073 && h[1] == 0;
}
#define SG_INSN_ALIGN 2
/* How far a patched site's jump reaches its stub: auipc+jalr, ±2 GiB. */
#define SG_STUB_REACH (1UL << 31)

#define SG_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
/* glibc's dynamic loader (the ABI's PT_INTERP): programs that name
 * another cannot load libsysgate.so. */
#define SG_LIBC_INTERP "/lib/ld-linux-riscv64-lp64d.so.1"
/* seccomp_data.arch of this ABI (AUDIT_ARCH_*). */
#define SG_AUDIT_ARCH 0xc00000f3U

#define SG_ECALL_ASM(...)						\
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), ##__VA_ARGS__ : "memory")

static inline long sg_sc0(long n)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0");

	SG_ECALL_ASM();
	return a0;
}

static inline long sg_sc1(long n, long a)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;

	SG_ECALL_ASM();
	return a0;
}

static inline long sg_sc2(long n, long a, long b)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;

	SG_ECALL_ASM("r"(a1));
	return a0;
}

static inline long sg_sc3(long n, long a, long b, long c)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;

	SG_ECALL_ASM("r"(a1), "r"(a2));
	return a0;
}

static inline long sg_sc4(long n, long a, long b, long c, long d)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;

	SG_ECALL_ASM("r"(a1), "r"(a2), "r"(a3));
	return a0;
}

static inline long sg_sc5(long n, long a, long b, long c, long d, long e)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;

	SG_ECALL_ASM("r"(a1), "r"(a2), "r"(a3), "r"(a4));
	return a0;
}

/* Both result registers: the API returns a0 and a1 on every arch (a1 is
 * the caller's own value unless the kernel changed it). */
static inline void sg_sc6_2(long n, long a, long b, long c, long d, long e,
			    long f, long *r1, long *r2)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;
	register long a5 __asm__("a5") = f;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7), "r"(a2),
			 "r"(a3), "r"(a4), "r"(a5) : "memory");
	*r1 = a0;
	*r2 = a1;
}

static inline long sg_sc6(long n, long a, long b, long c, long d, long e,
			  long f)
{
	long r1, r2;

	sg_sc6_2(n, a, b, c, d, e, f, &r1, &r2);
	return r1;
}

/* The program's calls are not told from sysgate's own here (x86-64's
 * sg_prog_calls): a seccomp filter of the program's is left as it is. */
/* No uretprobe trampoline call here (x86-64's syscall_arch.h). */
#define SG_ARCH_NR_URETPROBE (-1)

#define SG_ARCH_PROG_CALLS 0
#define sg_prog_sc6_2 sg_sc6_2

/* munmap(addr, len), then exit(code), touching no memory in between: the
 * way out of a thread whose stack is the memory unmapped (core/process.c). */
static inline void __attribute__((noreturn))
sg_unmap_exit(unsigned long addr, unsigned long len, long code)
{
	register long a7 __asm__("a7") = 215;	/* munmap */
	register long a0 __asm__("a0") = addr;
	register long a1 __asm__("a1") = len;

	__asm__ volatile("ecall\n\t"
			 "mv a0, %3\n\t"
			 "li a7, 93\n\t"	/* exit */
			 "ecall"
			 : "+r"(a0), "+r"(a7) : "r"(a1), "r"(code) : "memory");
	__builtin_unreachable();
}

#endif
