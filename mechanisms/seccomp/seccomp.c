/* SPDX-License-Identifier: MIT */
/*
 * -m seccomp: a seccomp filter sends every system call made outside
 * sysgate's own text to SIGSYS (SECCOMP_RET_TRAP), and the SIGSYS handler
 * (core/sud.c, shared with syscall user dispatch) runs it through the hook
 * chain from sysgate's text, where the filter lets it through.
 *
 * A filter cannot be removed, and it survives execve.  So the program is
 * always started by sysgate-loader, linked at a fixed address: the range
 * the filter allows is the loader's text in every process of the tree,
 * and every execve goes through the loader again (core/exec.c), followed
 * or not; an unfollowed program runs "passive", its calls passed through.
 *
 * vfork, clone3 and clone with CLONE_VM must run on the program's own
 * stack: the handler has them made there from sysgate's text
 * (sg_dispatch_raw), and sysgate gives every child its own state.  Where
 * the arch cannot (SG_ARCH_TRAP_RAW), they are let through by number from
 * anywhere, and their sites in ELF code are patched (stubs, like -m sud),
 * so hooks see them there.  An rt_sigreturn traps like any other call: the
 * handler has it made again from sysgate's text at the program's stack
 * pointer (core/sud.c).
 *
 * The filter's SECCOMP_RET_DATA is SG_SECCOMP_COOKIE: a SIGSYS from a
 * filter of the program's own carries another value and goes to the
 * program's handler.
 */
#include "sg.h"
#include "seccomp.h"
#include "mech.h"
#include "patch.h"
#include "signal_arch.h"
#include "process.h"
#include "maps.h"

#define PR_SET_SECCOMP 22
#define SECCOMP_MODE_STRICT 1
#define SECCOMP_MODE_FILTER 2
#define SECCOMP_SET_MODE_STRICT 0
#define BPF_MAXINSNS 4096
#define BPF_LD_IMM 0x00
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_SECCOMP 21
#define SECCOMP_SET_MODE_FILTER 1
#define SECCOMP_GET_ACTION_AVAIL 2
#define SECCOMP_FILTER_FLAG_TSYNC 1
#define SECCOMP_RET_TRAP 0x00030000U
#define SECCOMP_RET_ALLOW 0x7fff0000U
#define EACCES_ 13

/* classic BPF */
#define BPF_LD_W_ABS 0x20
#define BPF_JEQ_K 0x15
#define BPF_JGE_K 0x35
#define BPF_JGT_K 0x25
#define BPF_JSET_K 0x45
#define BPF_RET_K 0x06

/* struct seccomp_data */
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_IP_LO 8
#define OFF_IP_HI 12
#define OFF_ARG0_LO 16

#define CLONE_VM_ 0x100

struct bpf_insn {
	unsigned short code;
	unsigned char jt, jf;
	unsigned int k;
};

struct bpf_prog {
	unsigned short len;
	const struct bpf_insn *insns;
};

#define STMT(c, v) { (c), 0, 0, (v) }
#define JUMP(c, v, t, f) { (c), (t), (f), (v) }

int sg_seccomp_available(const char **why)
{
	unsigned int action = SECCOMP_RET_TRAP;

	if (sg_sc3(SG_NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0,
		   (long)&action) < 0) {
		*why = "seccomp filters are not available here "
		       "(CONFIG_SECCOMP_FILTER)";
		return -1;
	}
	return 0;
}

/*
 * Install a filter of sysgate's making; 0 or -errno.  Without
 * CAP_SYS_ADMIN the kernel wants no_new_privs first: under -m seccomp a
 * set-id program then runs without its privileges; a thread in strict
 * mode (strict_mode) cannot execve, so it cannot tell.
 */
static long install(const struct bpf_prog *prog, unsigned long flags)
{
	long r = sg_sc3(SG_NR_seccomp, SECCOMP_SET_MODE_FILTER, flags,
			(long)prog);

	if (r == -EACCES_) {
		sg_sc5(SG_NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		r = sg_sc3(SG_NR_seccomp, SECCOMP_SET_MODE_FILTER, flags,
			   (long)prog);
	}
	return r;
}

/*
 * Install the filter, unless this process inherited it (SYSGATE_SECCOMP
 * names the range it allows; PR_GET_SECCOMP says a filter is there).
 * Returns 0, or -errno.
 */
int sg_seccomp_install(int inherited)
{
	unsigned long lo = sg.self_text_lo, hi = sg.self_text_hi;
	/* Where the handler can make them at the program's stack pointer
	 * (sg_dispatch_raw), clone, clone3 and vfork trap like the rest. */
	const unsigned char let = !SG_ARCH_TRAP_RAW;
	/* Jump offsets below count from the next instruction. */
	const struct bpf_insn insns[] = {
		/* 0 */ STMT(BPF_LD_W_ABS, OFF_ARCH),
		/* 1 */ JUMP(BPF_JEQ_K, SG_AUDIT_ARCH, 0, 12),	/* -> allow */
		/* 2 */ STMT(BPF_LD_W_ABS, OFF_NR),
		/* 3 */ JUMP(BPF_JEQ_K, (unsigned)SG_NR_clone3, 10 * let, 0),
		/* 4 */ JUMP(BPF_JEQ_K, (unsigned)SG_NR_vfork, 9 * let, 0),
		/* 5 */ JUMP(BPF_JEQ_K, SG_NR_clone, 0, 2),	/* -> 8 */
		/* A fork-like clone runs from the handler, which sees the
		 * child; one sharing memory must run on the program's stack. */
		/* 6 */ STMT(BPF_LD_W_ABS, OFF_ARG0_LO),
		/* 7 */ JUMP(BPF_JSET_K, CLONE_VM_, 6 * let, 0), /* -> allow */
		/* 8 */ STMT(BPF_LD_W_ABS, OFF_IP_HI),
		/* 9 */ JUMP(BPF_JEQ_K, (unsigned)(lo >> 32), 0, 3),	/* -> trap */
		/* 10 */ STMT(BPF_LD_W_ABS, OFF_IP_LO),
		/* 11 */ JUMP(BPF_JGE_K, (unsigned)lo, 0, 1),	/* -> trap */
		/* The kernel reports the address after the instruction. */
		/* 12 */ JUMP(BPF_JGT_K, (unsigned)hi, 0, 1),	/* -> allow */
		/* 13 */ STMT(BPF_RET_K, SECCOMP_RET_TRAP | SG_SECCOMP_COOKIE),
		/* 14 */ STMT(BPF_RET_K, SECCOMP_RET_ALLOW),
	};
	struct bpf_prog prog = { ARRAY_SIZE(insns), insns };
	long r;

	if (!lo || (lo >> 32) != ((hi - 1) >> 32))
		return -22;	/* the range must share its upper half */
	if (inherited && sg_sc1(SG_NR_prctl, PR_GET_SECCOMP) == 2)
		return 0;
	r = install(&prog, SECCOMP_FILTER_FLAG_TSYNC);
	/* (TSYNC answers with a thread it could not sync: none at start) */
	return r == 0 ? 0 : r < 0 ? r : -16;	/* EBUSY */
}

/* The filter goes in once the raw-only sites are patched (which finds
 * our own text, the range it allows), before the program runs; a process
 * that got the filter through execve does not stack a second one. */
static int seccomp_start(const struct sg_options *o)
{
	static const struct sg_patch_mode mode = {
		.name = "seccomp", .sud = 1,
	};
	int r;

	if (!sg.loader)
		sg_die("-m seccomp needs the program started by sysgate-loader "
		       "(the sysgate command does that)");
	/* The core's calls are wanted even with no hook: every execve must
	 * go through the loader, every child get its own state. */
	sg.seccomp_on = 1;
	sg_hooks_recompute();
	r = sg_patch_start(o, &mode);
	if (r < 0)
		return r;
	if (sg_sigsys_claim() < 0)
		sg_die("-m seccomp: cannot install the SIGSYS handler");
	if (sg_seccomp_install(sg.seccomp_inherited) < 0)
		sg_die("-m seccomp: the kernel refused the filter");
	return 0;
}

static int seccomp_probe(const char **why)
{
	*why = 0;
	return sg_seccomp_available(why);
}

/* A member of the patch family: the filter catches the calls, only the
 * sites of calls that must run at the program's own stack are patched. */
const struct sg_mechanism sg_mech_seccomp = {
	.name = "seccomp",
	.summary = "a seccomp filter traps each call from the program (SIGSYS)",
	.probe = seccomp_probe,
	.start = seccomp_start,
	SG_PATCH_FAMILY_OPS,
};

/*
 * A filter the program installs judges every call of its process,
 * sysgate's own too: a list that kills the rest (a sandbox's) would kill
 * the program at sysgate's first call outside it (gettid, process_vm_readv
 * ...).  So the program's filter goes in behind a prefix that allows the
 * calls made from sysgate's text, except those made there for the program
 * (sg_raw_call, entry.S: the addresses listed in sg_prog_calls), which
 * the program's filter judges as natively.  The price, said in
 * doc/internals.md: code that gets to run in the program could reach
 * sysgate's system call instructions and pass the filter.
 */
/* (weak: an arch that lists none has no such section) */
extern const int __start_sg_prog_calls[] SG_HIDDEN __attribute__((weak));
extern const int __stop_sg_prog_calls[] SG_HIDDEN __attribute__((weak));

#define PROG_CALLS_MAX 16
#define PREFIX_MAX (7 + PROG_CALLS_MAX)

/* The prefix, jumping to the program's filter at its end; 0 if it cannot
 * be made (no range known, or one crossing 4 GiB). */
static unsigned int filter_prefix(struct bpf_insn *p)
{
	unsigned long lo = sg.self_text_lo, hi = sg.self_text_hi;
	unsigned int ncalls = __stop_sg_prog_calls - __start_sg_prog_calls;
	struct sg_mapping_info self;

	/* (known where the patch mechanism runs; asked of maps elsewhere) */
	if (!lo && sg_maps_info((unsigned long)filter_prefix, &self) == 0)
		lo = self.lo, hi = self.hi;
	/* the program's part starts at to: A cleared, then its filter */
	unsigned int n = 0, i, to = 6 + ncalls;

	if (!SG_ARCH_PROG_CALLS || !lo || ncalls > PROG_CALLS_MAX ||
	    (lo >> 32) != (hi >> 32))
		return 0;
	/* Jump offsets count from the next instruction. */
	p[n++] = (struct bpf_insn)STMT(BPF_LD_W_ABS, OFF_IP_HI);
	p[n] = (struct bpf_insn)JUMP(BPF_JEQ_K, (unsigned)(lo >> 32), 0,
				     to - (n + 1));
	n++;
	p[n++] = (struct bpf_insn)STMT(BPF_LD_W_ABS, OFF_IP_LO);
	/* (the kernel reports the address after the instruction) */
	p[n] = (struct bpf_insn)JUMP(BPF_JGT_K, (unsigned)lo, 0,
				     to - (n + 1));
	n++;
	p[n] = (struct bpf_insn)JUMP(BPF_JGT_K, (unsigned)hi,
				     to - (n + 1), 0);
	n++;
	for (i = 0; i < ncalls; i++) {
		const int *e = __start_sg_prog_calls + i;
		unsigned long at = (unsigned long)e + *e;

		p[n] = (struct bpf_insn)JUMP(BPF_JEQ_K, (unsigned)at,
					     to - (n + 1), 0);
		n++;
	}
	p[n++] = (struct bpf_insn)STMT(BPF_RET_K, SECCOMP_RET_ALLOW);
	/* A filter starts with A = 0 (and X = 0, untouched here). */
	p[n++] = (struct bpf_insn)STMT(BPF_LD_IMM, 0);
	return n;
}

static int program_filters;	/* filters of the program's, wrapped */

/*
 * SECCOMP_MODE_STRICT allows read, write, exit and rt_sigreturn and kills
 * the thread at anything else, sysgate's calls included.  The thread gets
 * a filter of that set behind the prefix instead, whose other calls trap
 * with SG_STRICT_COOKIE to sysgate's SIGSYS handler, which kills the
 * process with SIGKILL as the kernel would (the whole process, where the
 * kernel ends only the thread: no strict thread among others was seen).
 */
static int strict_mode(struct sysgate_sys *s)
{
	struct bpf_insn buf[PREFIX_MAX + 9];
	unsigned int n = filter_prefix(buf);

	if (!n || sg_sigsys_claim() < 0)
		return 0;
	/* after the prefix: 0 ld arch, 1 to 7 if not ours, 2 ld nr,
	 * 3-6 to 8 if one of the four, 7 trap, 8 allow */
	buf[n++] = (struct bpf_insn)STMT(BPF_LD_W_ABS, OFF_ARCH);
	buf[n++] = (struct bpf_insn)JUMP(BPF_JEQ_K, SG_AUDIT_ARCH, 0, 5);
	buf[n++] = (struct bpf_insn)STMT(BPF_LD_W_ABS, OFF_NR);
	buf[n++] = (struct bpf_insn)JUMP(BPF_JEQ_K, SG_NR_read, 4, 0);
	buf[n++] = (struct bpf_insn)JUMP(BPF_JEQ_K, SG_NR_write, 3, 0);
	buf[n++] = (struct bpf_insn)JUMP(BPF_JEQ_K, SG_NR_exit, 2, 0);
	buf[n++] = (struct bpf_insn)JUMP(BPF_JEQ_K, SG_NR_rt_sigreturn, 1, 0);
	buf[n++] = (struct bpf_insn)STMT(BPF_RET_K, SECCOMP_RET_TRAP |
						     SG_STRICT_COOKIE);
	buf[n++] = (struct bpf_insn)STMT(BPF_RET_K, SECCOMP_RET_ALLOW);
	/* The kernel refuses strict mode over a filter of the program's. */
	if (sg_sc1(SG_NR_prctl, PR_GET_SECCOMP) == 2 &&
	    (!sg.seccomp_on || program_filters))
		s->ret = -22;	/* EINVAL */
	else {
		struct bpf_prog prog = { n, buf };

		s->ret = install(&prog, 0);
	}
	return 1;
}

int sg_seccomp_wrap(struct sysgate_sys *s)
{
	long *a = s->args, *fprog_arg;
	struct bpf_prog prog, wrapped;
	struct bpf_insn *buf;
	unsigned int n;
	size_t size;

	if ((s->nr == SG_NR_seccomp && a[0] == SECCOMP_SET_MODE_STRICT &&
	     !a[1] && !a[2]) ||
	    (s->nr == SG_NR_prctl && a[0] == PR_SET_SECCOMP &&
	     a[1] == SECCOMP_MODE_STRICT))
		return strict_mode(s);
	if (s->nr == SG_NR_seccomp && a[0] == SECCOMP_SET_MODE_FILTER)
		fprog_arg = &a[2];
	else if (s->nr == SG_NR_prctl && a[0] == PR_SET_SECCOMP &&
		 a[1] == SECCOMP_MODE_FILTER)
		fprog_arg = &a[2];
	else
		return 0;
	/* What the kernel would refuse, it refuses as natively. */
	if (sysgate_copy_nofault(&prog, (const void *)*fprog_arg,
				 sizeof(prog)) != 0 ||
	    !prog.len || prog.len > BPF_MAXINSNS - PREFIX_MAX)
		return 0;
	size = (PREFIX_MAX + prog.len) * sizeof(*buf);
	buf = sg_mmap(size);
	if (!buf)
		return 0;
	n = filter_prefix(buf);
	if (!n || sysgate_copy_nofault(buf + n, prog.insns,
				       prog.len * sizeof(*buf)) != 0) {
		sg_munmap(buf, size);
		return 0;
	}
	wrapped.len = n + prog.len;
	wrapped.insns = buf;
	{
		long given = *fprog_arg;

		*fprog_arg = (long)&wrapped;
		if (sg_raw_call(s) >= 0)
			program_filters = 1;
		*fprog_arg = given;	/* hooks see the program's */
	}
	sg_munmap(buf, size);
	return 1;
}
