/* SPDX-License-Identifier: MIT */
/*
 * A hook without SYSGATE_HOOK_NOFPU that changes every register it may:
 * all vector registers (zmm0-31 with AVX-512, else ymm0-15), k0-7, MXCSR
 * and the x87 control word, status and stack, on getppid's enter and
 * exit.  tests/behave/vecregs.c, run under it, finds any of them not
 * given back to the program.
 */
#include "sysgate.h"

__attribute__((target("avx512f,avx512bw")))
static void clobber_avx512(void)
{
	__asm__ volatile("vpternlogd $0xff, %%zmm0, %%zmm0, %%zmm0\n\t"
#define Z(n) "vmovdqa64 %%zmm0, %%zmm" #n "\n\t"
			 Z(1) Z(2) Z(3) Z(4) Z(5) Z(6) Z(7) Z(8) Z(9) Z(10)
			 Z(11) Z(12) Z(13) Z(14) Z(15) Z(16) Z(17) Z(18) Z(19)
			 Z(20) Z(21) Z(22) Z(23) Z(24) Z(25) Z(26) Z(27) Z(28)
			 Z(29) Z(30) Z(31)
			 "kxnorq %%k0, %%k0, %%k1\n\tkmovq %%k1, %%k2\n\t"
			 "kmovq %%k1, %%k3\n\tkmovq %%k1, %%k4\n\t"
			 "kmovq %%k1, %%k5\n\tkmovq %%k1, %%k6\n\tkmovq %%k1, %%k7"
			 ::: "memory");
}

__attribute__((target("avx2")))
static void clobber_avx2(void)
{
	__asm__ volatile("vpcmpeqd %%ymm0, %%ymm0, %%ymm0\n\t"
#define Y(n) "vmovdqa %%ymm0, %%ymm" #n "\n\t"
			 Y(1) Y(2) Y(3) Y(4) Y(5) Y(6) Y(7) Y(8) Y(9) Y(10)
			 Y(11) Y(12) Y(13) Y(14) Y(15) ::: "memory");
}

static void clobber(void)
{
	unsigned int csr = 0x9fc0;	/* flush to zero, round down */
	unsigned short cw = 0x0c7f;	/* truncate, extended */
	volatile long double x = 3.0L;

	x = x / 7.0L;			/* x87 arithmetic, flags set */
	__asm__ volatile("ldmxcsr %0\n\tfldcw %1\n\tfld1\n\tfldz\n\tfcompp"
			 :: "m"(csr), "m"(cw) : "memory");
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw"))
		clobber_avx512();
	else if (__builtin_cpu_supports("avx2"))
		clobber_avx2();
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\tmovdqa %%xmm0, %%xmm7"
			 ::: "memory");
	(void)x;
}

static int init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict enter(struct sysgate_sys *s, void *data)
{
	(void)s;
	(void)data;
	clobber();
	return SYSGATE_RUN;
}

#ifndef CLOBBER_ENTER_ONLY
static void on_exit(struct sysgate_sys *s, void *data)
{
	(void)s;
	(void)data;
	clobber();
}
#endif

static const struct sysgate_hook hook = {
	.abi = SYSGATE_HOOK_ABI, .name = "clobber",
	.init = init, .enter = enter,
#ifndef CLOBBER_ENTER_ONLY
	.exit = on_exit,
#endif
};
SYSGATE_HOOK_DEFINE(hook);
