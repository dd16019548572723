/* SPDX-License-Identifier: MIT */
/*
 * Raw x86-64 system calls (musl's syscall_arch.h shape).  Used by the core
 * on its hot path and by anything that must reach the kernel without being
 * hooked: these `syscall` instructions live in libsysgate's own text, which
 * is never patched.
 */
#ifndef SG_SYSCALL_ARCH_H
#define SG_SYSCALL_ARCH_H

/* The system call instruction's length, and the alignment of code. */
#define SG_SYSCALL_INSN_LEN 2
/* Does code at pc (readable: it just ran) start with the system call
 * instruction?  A call the kernel will restart is rewound to it. */
static inline int sg_arch_at_syscall(unsigned long pc)
{
	return *(const unsigned short *)pc == 0x050f;
}
#define SG_INSN_ALIGN 1
/* How far a patched site's jump reaches its stub: jmp rel32, ±2 GiB. */
#define SG_STUB_REACH (1UL << 31)

#define SG_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
/* glibc's dynamic loader (the ABI's PT_INTERP): programs that name
 * another cannot load libsysgate.so. */
#define SG_LIBC_INTERP "/lib64/ld-linux-x86-64.so.2"
/* seccomp_data.arch of this ABI (AUDIT_ARCH_*). */
#define SG_AUDIT_ARCH 0xc000003eU

static inline long sg_sc0(long n)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n) : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc1(long n, long a)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a)
			 : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc2(long n, long a, long b)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc3(long n, long a, long b, long c)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc4(long n, long a, long b, long c, long d)
{
	long r;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c),
			 "r"(r10) : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc5(long n, long a, long b, long c, long d, long e)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c),
			 "r"(r10), "r"(r8) : "rcx", "r11", "memory");
	return r;
}

static inline long sg_sc6(long n, long a, long b, long c, long d, long e,
			  long f)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c),
			 "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return r;
}

/* Both result registers (x86-64 returns a second value in rdx only for a
 * few legacy calls, but the API is the same on every arch). */
static inline void sg_sc6_2(long n, long a, long b, long c, long d, long e,
			    long f, long *r1, long *r2)
{
	register long rdx __asm__("rdx") = c;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long r;
	__asm__ volatile("syscall" : "=a"(r), "+r"(rdx) : "a"(n), "D"(a),
			 "S"(b), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	*r1 = r;
	*r2 = rdx;
}

/*
 * A call made for the program (the core's sg_raw_call): as sg_sc6_2, and
 * the address after its instruction listed in sg_prog_calls, where a seccomp
 * filter of the program's, which lets sysgate's own calls pass, still
 * judges it (mechanisms/seccomp/seccomp.c, sg_seccomp_wrap).
 */
/* The kernel's return trampoline of a uretprobe (Linux 6.11) ends in
 * this call, which it refuses (SIGILL) from anywhere else: core/sud.c
 * lets it run where it is.  (Not in syscalls.csv: its headers are 6.1.) */
#define SG_ARCH_NR_URETPROBE 335

#define SG_ARCH_PROG_CALLS 1
static inline void sg_prog_sc6_2(long n, long a, long b, long c, long d,
				 long e, long f, long *r1, long *r2)
{
	register long rdx __asm__("rdx") = c;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long r;
	__asm__ volatile("syscall\n"
			 "1:\t.pushsection sg_prog_calls, \"a\"\n\t"
			 ".long 1b - .\n\t"
			 ".popsection"
			 : "=a"(r), "+r"(rdx) : "a"(n), "D"(a),
			 "S"(b), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	*r1 = r;
	*r2 = rdx;
}

/* munmap(addr, len), then exit(code), touching no memory in between: the
 * way out of a thread whose stack is the memory unmapped (core/process.c). */
static inline void __attribute__((noreturn))
sg_unmap_exit(unsigned long addr, unsigned long len, long code)
{
	__asm__ volatile("syscall\n\t"
			 "mov %3, %%rdi\n\t"
			 "mov %4, %%eax\n\t"
			 "syscall"
			 : : "a"(11L /* munmap */), "D"(addr), "S"(len), "r"(code),
			   "i"(60 /* exit */) : "rcx", "r11", "memory");
	__builtin_unreachable();
}

#endif
