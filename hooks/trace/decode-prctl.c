/* SPDX-License-Identifier: MIT */
/*
 * prctl: each option's arguments and result as strace 6.1 prints them
 * (which arguments an option takes, their names, the "(...)" after a
 * result that holds flags).  The options' names and their values' names
 * are hooks/trace/xlat.list's prctl unit.  And personality, its type
 * and flags.
 */
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <linux/personality.h>
#include "trace.h"

#define TASK_COMM_LEN 16

/* Arguments from i to the last (prctl has five) in hex. */
static void hex_from(struct call *c, int i)
{
	for (; i < 5; i++)
		a_hex(c, c->s->args[i]);
}

/* [int] the call wrote (unsigned, or with the table's names). */
static void out_int(struct call *c, const struct xlat *names, int flags,
		    const char *unknown)
{
	unsigned int v;

	if (fetch_out(c, &v, c->s->args[1], sizeof(v)))
		return;
	fmt_chr(c->f, '[');
	if (!names)
		fmt_udec(c->f, v);
	else if (flags)
		p_flags_unknown(c->f, v, names, unknown);
	else
		p_xlat(c->f, v, names, unknown);
	fmt_chr(c->f, ']');
}

/* A result with a name: " (NAME)" whatever -X says, when it has one. */
static void aux_name(struct fmt *f, unsigned long v, const struct xlat *t)
{
	const char *nm = xlat_name(t, v);

	if (nm) {
		fmt_str(f, " (");
		fmt_str(f, nm);
		fmt_chr(f, ')');
	}
}

/* SVE and SME vector lengths: the flags, then the length; aux: only the
 * names, in a result's comment, when there are flags. */
static void p_vl(struct fmt *f, unsigned long v, const struct xlat *flags,
		 int aux)
{
	unsigned long len = v & 0xffff, fl = v & ~0xffffUL;
	size_t start = 0;

	if (aux) {
		if (trace_xstyle == XS_RAW || !fl)
			return;
		fmt_str(f, " (");
		x_hold(f);
	} else {
		start = x_begin(f);
	}
	if (fl) {
		p_flags(f, fl, flags, 0);
		fmt_chr(f, '|');
	}
	p_hex(f, len);
	if (aux) {
		x_release(f);
		fmt_chr(f, ')');
	} else {
		x_end(f, start, v, 'x');
	}
}

/* PR_SET_TAGGED_ADDR_CTRL's word: enable bit, MTE fault mode and tags. */
static void p_tagged(struct fmt *f, unsigned long v, int aux)
{
	unsigned long tag = v & PR_MTE_TAG_MASK,
		      rest = v & ~(1UL | PR_MTE_TCF_MASK | PR_MTE_TAG_MASK);
	size_t start;

	if (aux) {
		if (trace_xstyle == XS_RAW)
			return;
		fmt_str(f, " (");
		x_hold(f);
	}
	start = x_begin(f);
	fmt_str(f, v & PR_TAGGED_ADDR_ENABLE ? "PR_TAGGED_ADDR_ENABLE|" :
					       "!PR_TAGGED_ADDR_ENABLE|");
	p_xlat(f, v & PR_MTE_TCF_MASK, &xl_pr_mte_tcf, 0);
	if (tag) {
		fmt_str(f, "|");
		fmt_hex(f, tag >> PR_MTE_TAG_SHIFT);
		fmt_str(f, "<<PR_MTE_TAG_SHIFT");
	}
	if (rest) {
		fmt_chr(f, '|');
		fmt_hex(f, rest);
	}
	x_end(f, start, v, 'x');
	if (aux) {
		x_release(f);
		fmt_chr(f, ')');
	}
}

static int spec_cmd_has_flags(unsigned long cmd)
{
	return cmd == PR_SPEC_STORE_BYPASS || cmd == PR_SPEC_INDIRECT_BRANCH ||
	       cmd == PR_SPEC_L1D_FLUSH;
}

/* PR_SCHED_CORE's pid argument's kind, from its pid type */
static int sched_core_pid_type(unsigned int t)
{
	return t == 0 ? PT_TID : t == 1 ? PT_TGID : t == 2 ? PT_PGID :
	       t == 3 ? PT_SID : PT_NONE;
}

static void d_prctl(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[0];
	const unsigned long *a = (const unsigned long *)c->s->args;
	struct fmt *f = c->f;

	a_xlat(c, op, &xl_prctl_options, "PR_???");
	switch (op) {
	case PR_GET_KEEPCAPS: case PR_GET_SECCOMP: case PR_GET_TIMERSLACK:
	case PR_GET_TIMING: case PR_GET_DUMPABLE: case PR_GET_SECUREBITS:
	case PR_GET_FP_MODE: case PR_SVE_GET_VL: case PR_SME_GET_VL:
	case PR_TASK_PERF_EVENTS_DISABLE: case PR_TASK_PERF_EVENTS_ENABLE:
		return;
	case PR_GET_CHILD_SUBREAPER: case PR_GET_ENDIAN: case PR_GET_FPEMU:
	case PR_GET_FPEXC:
		out_int(c, 0, 0, 0);
		return;
	case PR_GET_NAME:
		if (a_out(c, a[1]))
			p_str_max(f, c->s, a[1], TASK_COMM_LEN);
		return;
	case PR_GET_PDEATHSIG: {
		int v;

		if (fetch_out(c, &v, a[1], sizeof(v)))
			return;
		fmt_chr(f, '[');
		p_signame(f, v);
		fmt_chr(f, ']');
		return;
	}
	case PR_GET_TID_ADDRESS: {
		unsigned long v;

		if (fetch_out(c, &v, a[1], sizeof(v)))
			return;
		fmt_chr(f, '[');
		p_ptr(f, v);
		fmt_chr(f, ']');
		return;
	}
	case PR_GET_TSC:
		out_int(c, &xl_pr_tsc, 0, "PR_TSC_???");
		return;
	case PR_GET_UNALIGN:
		out_int(c, &xl_pr_unalign_flags, 1, "PR_UNALIGN_???");
		return;
	case PR_SVE_SET_VL: case PR_SME_SET_VL:
		a_sep(c);
		p_vl(f, a[1], op == PR_SVE_SET_VL ? &xl_pr_sve_vl_flags :
						    &xl_pr_sme_vl_flags, 0);
		return;
	case PR_GET_SPECULATION_CTRL:
		a_xlat(c, a[1], &xl_pr_spec_cmds, "PR_SPEC_???");
		return;
	case PR_SET_TAGGED_ADDR_CTRL:
		a_sep(c);
		p_tagged(f, a[1], 0);
		hex_from(c, 2);
		return;
	case PR_SET_CHILD_SUBREAPER: case PR_SET_ENDIAN: case PR_SET_FPEMU:
	case PR_SET_FPEXC: case PR_SET_KEEPCAPS: case PR_SET_TIMING:
		a_udec(c, a[1]);
		return;
	case PR_SET_DUMPABLE:
		a_xlat(c, a[1], &xl_suid_dump, "SUID_DUMP_???");
		return;
	case PR_CAPBSET_DROP: case PR_CAPBSET_READ:
		a_xlat(c, a[1], &xl_caps, "CAP_???");
		return;
	case PR_CAP_AMBIENT:
		a_xlat(c, a[1], &xl_pr_cap_ambient, "PR_CAP_AMBIENT_???");
		if (a[1] == PR_CAP_AMBIENT_RAISE || a[1] == PR_CAP_AMBIENT_LOWER ||
		    a[1] == PR_CAP_AMBIENT_IS_SET) {
			a_xlat(c, a[2], &xl_caps, "CAP_???");
			hex_from(c, 3);
		} else {
			hex_from(c, 2);
		}
		return;
	case PR_MCE_KILL:
		a_xlat(c, a[1], &xl_pr_mce_kill, "PR_MCE_KILL_???");
		if (a[1] == PR_MCE_KILL_SET)
			a_xlat(c, a[2], &xl_pr_mce_kill_policy,
			       "PR_MCE_KILL_???");
		else
			a_hex(c, a[2]);
		hex_from(c, 3);
		return;
	case PR_SET_NAME:
		a_sep(c);
		p_str_max(f, c->s, a[1], TASK_COMM_LEN - 1);
		return;
	case PR_SET_VMA:
		a_xlat(c, a[1], &xl_pr_set_vma, "PR_SET_VMA_???");
		if (a[1] != PR_SET_VMA_ANON_NAME) {
			hex_from(c, 2);
			return;
		}
		a_ptr(c, a[2]);
		a_udec(c, a[3]);
		a_sep(c);
		p_str_max(f, c->s, a[4], ~0UL);
		return;
	case PR_SET_MM:
		a_xlat(c, (unsigned int)a[1], &xl_pr_set_mm, "PR_SET_MM_???");
		hex_from(c, 2);
		return;
	case PR_SET_PDEATHSIG:
		if (a[1] > 128)
			a_udec(c, a[1]);
		else {
			a_sep(c);
			p_signame(f, (int)a[1]);
		}
		return;
	case PR_SET_PTRACER:
		a_sep(c);
		if ((int)a[1] == -1)
			p_named(f, "PR_SET_PTRACER_ANY", -1, 'd');
		else
			p_pid(f, (int)a[1], PT_TGID);
		return;
	case PR_SET_SECCOMP:
		a_xlat(c, a[1], &xl_seccomp_modes, "SECCOMP_MODE_???");
		if (a[1] == 1)
			return;
		if (a[1] == 2) {
			a_sep(c);
			p_bpf_fprog(f, c->s, a[2], 0);
		} else
			hex_from(c, 2);
		return;
	case PR_SET_SECUREBITS:
		a_sep(c);
		p_flags_unknown(f, a[1], &xl_secbits, "SECBIT_???");
		return;
	case PR_SET_TIMERSLACK:
		a_dec(c, a[1]);
		return;
	case PR_SET_TSC:
		a_xlat(c, (unsigned int)a[1], &xl_pr_tsc, "PR_TSC_???");
		return;
	case PR_SET_UNALIGN:
		a_sep(c);
		p_flags_unknown(f, (unsigned int)a[1], &xl_pr_unalign_flags,
				"PR_UNALIGN_???");
		return;
	case PR_SET_NO_NEW_PRIVS: case PR_SET_THP_DISABLE:
	case PR_SET_IO_FLUSHER:
		a_udec(c, a[1]);
		hex_from(c, 2);
		return;
	case PR_SET_FP_MODE:
		a_sep(c);
		p_flags_unknown(f, (unsigned int)a[1], &xl_pr_fp_mode,
				"PR_FP_MODE_???");
		return;
	case PR_SET_SPECULATION_CTRL:
		a_xlat(c, a[1], &xl_pr_spec_cmds, "PR_SPEC_???");
		if (spec_cmd_has_flags(a[1]))
			a_xlat(c, a[2], &xl_pr_spec_set_flags, "PR_SPEC_???");
		else
			a_hex(c, a[2]);
		return;
	case PR_PAC_RESET_KEYS:
		a_sep(c);
		p_flags_unknown(f, a[1], &xl_pr_pac_reset_keys, "PR_PAC_???");
		hex_from(c, 2);
		return;
	case PR_PAC_SET_ENABLED_KEYS:
		a_sep(c);
		p_flags_unknown(f, a[1], &xl_pr_pac_enabled_keys, "PR_PAC_???");
		a_sep(c);
		p_flags_unknown(f, a[2], &xl_pr_pac_enabled_keys, "PR_PAC_???");
		hex_from(c, 3);
		return;
	case PR_SET_SYSCALL_USER_DISPATCH:
		a_xlat(c, a[1], &xl_pr_sud_cmds, "PR_SYS_DISPATCH_???");
		a_hex(c, a[2]);
		a_hex(c, a[3]);
		a_ptr(c, a[4]);
		return;
	case PR_SCHED_CORE: {
		unsigned long v;

		a_xlat(c, (unsigned int)a[1], &xl_pr_sched_core_cmds,
		       "PR_SCHED_CORE_???");
		a_sep(c);
		p_pid(f, (int)a[2], sched_core_pid_type((unsigned int)a[3]));
		/* (the type's number with its name, unless -X raw) */
		a_sep(c);
		p_hex(f, (unsigned int)a[3]);
		if (trace_xstyle != XS_RAW) {
			const char *nm = xlat_name(&xl_pr_sched_core_pidtypes,
						   (unsigned int)a[3]);

			fmt_str(f, " /* ");
			fmt_str(f, nm ? nm : "PIDTYPE_???");
			fmt_str(f, " */");
		}
		if ((unsigned int)a[1] != PR_SCHED_CORE_GET) {
			a_ptr(c, a[4]);
			return;
		}
		if (fetch_out(c, &v, a[4], sizeof(v)))
			return;
		fmt_chr(f, '[');
		p_hex(f, v);
		fmt_chr(f, ']');
		return;
	}
	}
	hex_from(c, 1);
}

static void r_prctl(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[0];
	unsigned long r = c->s->ret;
	struct fmt *f = c->f;

	switch (op) {
	case PR_GET_DUMPABLE:
		fmt_dec(f, r);
		aux_name(f, r, &xl_suid_dump);
		return;
	case PR_MCE_KILL_GET:
		fmt_dec(f, r);
		aux_name(f, r, &xl_pr_mce_kill_policy);
		return;
	case PR_GET_SECUREBITS: case PR_GET_FP_MODE:
	case PR_SVE_SET_VL: case PR_SVE_GET_VL:
	case PR_SME_SET_VL: case PR_SME_GET_VL:
		if (!r)
			break;
		p_hex(f, r);
		if (op == PR_GET_SECUREBITS)
			r_flags_comment(f, r, &xl_secbits);
		else if (op == PR_GET_FP_MODE)
			r_flags_comment(f, r, &xl_pr_fp_mode);
		else
			p_vl(f, r, op == PR_SVE_SET_VL || op == PR_SVE_GET_VL ?
					   &xl_pr_sve_vl_flags :
					   &xl_pr_sme_vl_flags, 1);
		return;
	case PR_GET_SPECULATION_CTRL:
		if (!spec_cmd_has_flags(c->s->args[1]))
			break;
		p_hex(f, r);
		r_flags_comment(f, r, &xl_pr_spec_get_flags);
		return;
	case PR_GET_TAGGED_ADDR_CTRL:
		p_hex(f, r);
		p_tagged(f, r, 1);
		return;
	case PR_PAC_GET_ENABLED_KEYS:
		p_hex(f, r);
		r_flags_comment(f, r, &xl_pr_pac_enabled_keys);
		return;
	}
	fmt_dec(f, (long)r);
}

/* PER_BSD|SHORT_INODE: the type (the low byte) and the flags */
static void p_personality(struct fmt *f, unsigned int v)
{
	p_xlat(f, v & PER_MASK, &xl_personality_types, "PER_???");
	if (v & ~PER_MASK) {
		fmt_chr(f, '|');
		p_flags(f, v & ~PER_MASK, &xl_personality_flags, 0);
	}
}

static void d_personality(struct call *c)
{
	unsigned int v = (unsigned int)c->s->args[0];

	a_sep(c);
	/* (the query) */
	if (v == 0xffffffff)
		fmt_hex(c->f, v);
	else
		p_personality(c->f, v);
}

/* The previous personality, in hex and (as -X says) by its names */
static void r_personality(struct call *c)
{
	p_hex(c->f, c->s->ret);
	fmt_str(c->f, " (");
	p_personality(c->f, (unsigned int)c->s->ret);
	fmt_chr(c->f, ')');
}

const struct decoder dec_prctl[] = {
	{ "personality", d_personality, r_personality, 0 },
	{ "prctl", d_prctl, r_prctl, 0 },
	{ 0, 0, 0, 0 },
};
