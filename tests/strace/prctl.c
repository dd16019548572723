/* SPDX-License-Identifier: MIT */
/* prctl: each option's arguments and result comment, with values that
 * leave the process as it was (most fail alike on any x86-64 kernel:
 * the SVE, SME, MTE and PAC options are other architectures'). */
#include "corpus.h"
#include <linux/prctl.h>
#include <linux/capability.h>
#include <sys/syscall.h>

static long pr(long op, unsigned long a2, unsigned long a3, unsigned long a4,
	       unsigned long a5)
{
	return syscall(SYS_prctl, op, a2, a3, a4, a5);
}

int main(void)
{
	char name[16];
	unsigned long long cookie;
	void *tid;
	int v;

	begin();
	pr(PR_GET_KEEPCAPS, 0, 0, 0, 0);
	pr(PR_GET_SECUREBITS, 0, 0, 0, 0);
	pr(PR_GET_DUMPABLE, 0, 0, 0, 0);
	pr(PR_SET_DUMPABLE, 3, 0, 0, 0);
	pr(PR_GET_ENDIAN, (unsigned long)&v, 0, 0, 0);
	pr(PR_GET_TSC, (unsigned long)&v, 0, 0, 0);
	pr(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	pr(PR_SET_TSC, 0, 0, 0, 0);
	pr(PR_GET_UNALIGN, (unsigned long)&v, 0, 0, 0);
	pr(PR_SET_UNALIGN, PR_UNALIGN_NOPRINT | 0x10, 0, 0, 0);
	pr(PR_GET_TID_ADDRESS, (unsigned long)&tid, 0, 0, 0);
	pr(PR_GET_PDEATHSIG, (unsigned long)&v, 0, 0, 0);
	pr(PR_GET_PDEATHSIG, 0, 0, 0, 0);
	pr(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	pr(PR_SET_PDEATHSIG, 200, 0, 0, 0);
	pr(PR_GET_CHILD_SUBREAPER, (unsigned long)&v, 0, 0, 0);
	pr(PR_SET_NAME, (unsigned long)"a name longer than sixteen", 0, 0, 0);
	pr(PR_GET_NAME, (unsigned long)name, 0, 0, 0);
	pr(PR_SET_NAME, (unsigned long)"corpus-prctl", 0, 0, 0);
	pr(PR_SET_SECUREBITS, 0xdeadbeef, 0, 0, 0);
	pr(PR_SET_SECUREBITS, 0x100000, 0, 0, 0);
	pr(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0);
	pr(PR_CAPBSET_READ, 99, 0, 0, 0);
	pr(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_CHOWN, 0, 0);
	pr(PR_CAP_AMBIENT, 99, 1, 2, 3);
	pr(PR_MCE_KILL_GET, 0, 0, 0, 0);
	pr(PR_MCE_KILL, PR_MCE_KILL_SET, 7, 0, 0);
	pr(PR_MCE_KILL, 5, 6, 0, 0);
	pr(PR_SET_MM, 99, 1, 2, 3);
	pr(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0);
	pr(PR_GET_SPECULATION_CTRL, 99, 0, 0, 0);
	pr(PR_SET_SPECULATION_CTRL, PR_SPEC_L1D_FLUSH, 0x40, 0, 0);
	pr(PR_SET_SPECULATION_CTRL, 99, 0x40, 0, 0);
	pr(PR_SVE_SET_VL, PR_SVE_SET_VL_ONEXEC | 0x30, 0, 0, 0);
	pr(PR_SVE_GET_VL, 0, 0, 0, 0);
	pr(PR_SME_SET_VL, 0x10, 0, 0, 0);
	pr(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_SYNC |
	   (0x5UL << PR_MTE_TAG_SHIFT), 0, 0, 0);
	pr(PR_SET_TAGGED_ADDR_CTRL, 0, 1, 2, 3);
	pr(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	pr(PR_PAC_RESET_KEYS, PR_PAC_APIAKEY | PR_PAC_APGAKEY, 0, 0, 0);
	pr(PR_PAC_SET_ENABLED_KEYS, PR_PAC_APDAKEY, 0x100, 0, 0);
	pr(PR_SET_FP_MODE, PR_FP_MODE_FR, 0, 0, 0);
	pr(PR_GET_FP_MODE, 0, 0, 0, 0);
	pr(PR_SET_PTRACER, -1UL, 0, 0, 0);
	pr(PR_SET_PTRACER, 0, 0, 0, 0);
	pr(PR_SET_VMA, PR_SET_VMA_ANON_NAME, 1, 4096, (unsigned long)"anon");
	pr(PR_SET_VMA, 7, 1, 2, 3);
	pr(PR_SET_NO_NEW_PRIVS, 0, 1, 0, 0);
	pr(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	pr(PR_SET_SYSCALL_USER_DISPATCH, 7, 0, 0, 0);
	pr(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, 1, (unsigned long)&cookie);
	pr(PR_SCHED_CORE, 9, 0, 7, 0);
	pr(PR_SET_TIMERSLACK, -1UL, 0, 0, 0);
	pr(1000, 1, 2, 3, 4);
	{
		/* personality: the query, a type with flags (known and
		 * not), a type with no name; the old one put back */
		long old = syscall(SYS_personality, 0xffffffffUL);

		syscall(SYS_personality, 0x6 | 0x0400000 | 0x10000);
		syscall(SYS_personality, 0x1f);
		syscall(SYS_personality, old);
	}
	return 0;
}
