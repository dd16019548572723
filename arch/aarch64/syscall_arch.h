/* SPDX-License-Identifier: MIT */
/*
 * Raw aarch64 system calls (musl's syscall_arch.h shape): number in x8,
 * arguments in x0-x5, result in x0; the kernel preserves every other
 * register (and NZCV).  These `svc #0`s live in libsysgate's own text,
 * never patched.
 */
#ifndef SG_SYSCALL_ARCH_H
#define SG_SYSCALL_ARCH_H

/* The system call instruction's length, and the alignment of code. */
#define SG_SYSCALL_INSN_LEN 4
/* Does code at pc (readable: it just ran) start with the system call
 * instruction?  A call the kernel will restart is rewound to it. */
static inline int sg_arch_at_syscall(unsigned long pc)
{
	return *(const unsigned int *)pc == 0xd4000001u;
}
#define SG_INSN_ALIGN 4
/* How far a patched site's jump reaches its stub: `b`, ±128 MiB. */
#define SG_STUB_REACH (1UL << 27)

#define SG_VDSO_CLOCK_GETTIME "__kernel_clock_gettime"
/* glibc's dynamic loader (the ABI's PT_INTERP): programs that name
 * another cannot load libsysgate.so. */
#define SG_LIBC_INTERP "/lib/ld-linux-aarch64.so.1"
/* seccomp_data.arch of this ABI (AUDIT_ARCH_*). */
#define SG_AUDIT_ARCH 0xc00000b7U

#define SG_SVC_ASM(...)							\
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), ##__VA_ARGS__ : "memory")

static inline long sg_sc0(long n)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0");

	SG_SVC_ASM();
	return x0;
}

static inline long sg_sc1(long n, long a)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;

	SG_SVC_ASM();
	return x0;
}

static inline long sg_sc2(long n, long a, long b)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;

	SG_SVC_ASM("r"(x1));
	return x0;
}

static inline long sg_sc3(long n, long a, long b, long c)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;

	SG_SVC_ASM("r"(x1), "r"(x2));
	return x0;
}

static inline long sg_sc4(long n, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	SG_SVC_ASM("r"(x1), "r"(x2), "r"(x3));
	return x0;
}

static inline long sg_sc5(long n, long a, long b, long c, long d, long e)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;

	SG_SVC_ASM("r"(x1), "r"(x2), "r"(x3), "r"(x4));
	return x0;
}

/* Both result registers: the API returns x0 and x1 on every arch (x1 is
 * the caller's own value, which the kernel leaves alone). */
static inline void sg_sc6_2(long n, long a, long b, long c, long d, long e,
			    long f, long *r1, long *r2)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc #0" : "+r"(x0), "+r"(x1) : "r"(x8), "r"(x2),
			 "r"(x3), "r"(x4), "r"(x5) : "memory");
	*r1 = x0;
	*r2 = x1;
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
	register long x8 __asm__("x8") = 215;	/* munmap */
	register long x0 __asm__("x0") = addr;
	register long x1 __asm__("x1") = len;

	__asm__ volatile("svc #0\n\t"
			 "mov x0, %3\n\t"
			 "mov x8, #93\n\t"	/* exit */
			 "svc #0"
			 : "+r"(x0), "+r"(x8) : "r"(x1), "r"(code) : "memory");
	__builtin_unreachable();
}

#endif
