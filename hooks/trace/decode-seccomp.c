/* SPDX-License-Identifier: MIT */
/*
 * seccomp (linux/seccomp.h): the seccomp call and its classic BPF
 * filters (prctl's PR_SET_SECCOMP too); ioctl on user-notification
 * descriptors: the notification received, the response sent, id checks
 * and descriptors added, as strace prints them.
 */
#include <linux/filter.h>
#include <linux/ioctl.h>
#include <linux/seccomp.h>
#include "trace.h"

/* The syscall number of a seccomp_data: by name ("__NR_gettid") when the
 * arch is the running one's and the table names it, else the number. */
static void p_seccomp_nr(struct fmt *f, unsigned int nr, unsigned int arch)
{
	const char *nm = arch == xl_native_audit_arch.e[0].value ?
			 sysgate_syscall_name((long)nr) : 0;

	if (!nm || nr >= SYSGATE_NR_MAX)
		fmt_udec(f, nr);
	else
		p_named_pre(f, "__NR_", nm, nr, 'u');
}

static void p_notif(struct call *c, const struct seccomp_notif *n)
{
	struct fmt *f = c->f;
	unsigned int i;

	fmt_str(f, "{id=");
	p_hex(f, n->id);
	fmt_str(f, ", pid=");
	p_pid(f, (int)n->pid, PT_TGID);
	fmt_str(f, ", flags=");
	p_hex(f, n->flags);
	fmt_str(f, ", data={nr=");
	p_seccomp_nr(f, (unsigned int)n->data.nr, n->data.arch);
	fmt_str(f, ", arch=");
	p_xlat(f, n->data.arch, &xl_audit_arches, "AUDIT_ARCH_???");
	fmt_str(f, ", instruction_pointer=");
	p_ptr(f, n->data.instruction_pointer);
	fmt_str(f, ", args=[");
	for (i = 0; i < 6; i++) {
		if (i)
			fmt_str(f, ", ");
		p_hex(f, n->data.args[i]);
	}
	fmt_str(f, "]}}");
}

/* NOTIF_RECV: the kernel wants a zeroed buffer and fills it.  A buffer
 * that was not zero at entry (the kernel refuses it, writing nothing)
 * prints as given, then " => " what the call left. */
static void k_recv(struct call *c, unsigned long arg)
{
	struct seccomp_notif n;

	a_sep(c);
	if (!trace_saved(c)[0]) {
		/* (a call that waits: its resumed line starts here) */
		a_exit_here(c);
		if (!c_ok(c))
			p_ptr(c->f, arg);
		else if (!fetch(c->f, c->s, &n, arg, sizeof(n)))
			p_notif(c, &n);
		return;
	}
	if (fetch(c->f, c->s, &n, arg, sizeof(n)))
		return;
	p_notif(c, &n);
	fmt_str(c->f, " => ");
	a_exit_here(c);
	if (c_ok(c))
		p_notif(c, &n);
	else
		p_ptr(c->f, arg);
}

static void k_send(struct call *c, unsigned long arg)
{
	struct seccomp_notif_resp r;

	if (fetch_arg(c, &r, arg, sizeof(r), 0))
		return;
	fmt_str(c->f, "{id=");
	p_hex(c->f, r.id);
	f_dec(c->f, ", val=", (long)r.val);
	fmt_str(c->f, ", error=");
	p_neg_err(c->f, r.error);
	fmt_str(c->f, ", flags=");
	p_flags_unknown(c->f, r.flags, &xl_seccomp_resp_flags,
			"SECCOMP_USER_NOTIF_FLAG_???");
	fmt_chr(c->f, '}');
}

static void k_addfd(struct call *c, unsigned long arg)
{
	struct seccomp_notif_addfd a;

	if (fetch_arg(c, &a, arg, sizeof(a), 0))
		return;
	fmt_str(c->f, "{id=");
	p_hex(c->f, a.id);
	fmt_str(c->f, ", flags=");
	p_flags_unknown(c->f, a.flags, &xl_seccomp_addfd_flags,
			"SECCOMP_ADDFD_FLAG_???");
	f_dec(c->f, ", srcfd=", (int)a.srcfd);
	p_fdpath(c->f, c->s, (int)a.srcfd);
	f_dec(c->f, ", newfd=", (int)a.newfd);
	fmt_str(c->f, ", newfd_flags=");
	p_flags_unknown(c->f, a.newfd_flags, &xl_open_flags, "O_???");
	fmt_chr(c->f, '}');
}

int ioctl_seccomp(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm;
	unsigned long long id;

	if (_IOC_TYPE(req) != SECCOMP_IOC_MAGIC ||
	    !(nm = xlat_name(&xl_ioctl_seccomp, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	switch (_IOC_NR(req)) {
	case 0:
		k_recv(c, arg);
		break;
	case 1:
		k_send(c, arg);
		break;
	case 2:	/* ID_VALID, either direction: [id] */
		if (fetch_arg(c, &id, arg, sizeof(id), 0))
			break;
		fmt_chr(c->f, '[');
		p_hex(c->f, id);
		fmt_chr(c->f, ']');
		break;
	case 3:
		k_addfd(c, arg);
		break;
	}
	return 1;
}

/* At NOTIF_RECV's entry: whether the buffer was readable and not zero. */
void ioctl_seccomp_enter(struct call *c)
{
	unsigned char b[sizeof(struct seccomp_notif)];
	unsigned int i;

	trace_saved(c)[0] = 0;
	if ((unsigned int)c->s->args[1] != SECCOMP_IOCTL_NOTIF_RECV ||
	    trace_read(c->s, b, (void *)c->s->args[2], sizeof(b)) !=
		    sizeof(b))
		return;
	for (i = 0; i < sizeof(b) && !b[i]; i++)
		;
	trace_saved(c)[0] = i < sizeof(b);
}

/* --- classic BPF filters ------------------------------------------- */

/* strace's limit on the instructions it prints */
#define BPF_INSNS_MAX 4096

/* An instruction's code: its class, then the parts the class has
 * (BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_K|BPF_JEQ), bits no part names as
 * hex with strace's comment. */
static void p_bpf_code(struct fmt *f, unsigned int code)
{
	unsigned int cls = code & 0x07, rest = code & ~0x07U;

	p_xlat(f, cls, &xl_bpf_class, "BPF_???");
	switch (cls) {
	case BPF_LD:
	case BPF_LDX:
		fmt_chr(f, '|');
		p_xlat(f, code & 0x18, &xl_bpf_size, "BPF_???");
		fmt_chr(f, '|');
		p_xlat(f, code & 0xe0, &xl_bpf_mode, "BPF_???");
		return;
	case BPF_ALU:
	case BPF_JMP:
		fmt_chr(f, '|');
		p_xlat(f, code & 0x08, &xl_bpf_src, "BPF_???");
		fmt_chr(f, '|');
		p_xlat(f, code & 0xf0, cls == BPF_ALU ? &xl_bpf_op_alu :
			&xl_bpf_op_jmp, "BPF_???");
		return;
	case BPF_MISC:
		fmt_chr(f, '|');
		p_xlat(f, code & 0xf8, &xl_bpf_miscop, "BPF_???");
		rest &= ~0xf8U;
		break;
	case BPF_RET:
		fmt_chr(f, '|');
		p_xlat(f, code & 0x18, &xl_bpf_rval, "BPF_???");
		rest &= ~0x18U;
		break;
	}
	if (rest) {
		fmt_chr(f, '|');
		p_hex(f, rest);
		fmt_str(f, " /* BPF_??? */");
	}
}

/* The k of a socket filter's absolute load: an offset from one of the
 * kernel's special bases (SKF_AD_OFF+SKF_AD_PROTOCOL, SKF_NET_OFF+8). */
static int p_sock_k(struct fmt *f, const struct sock_filter *i)
{
	static const struct {
		const char *name;
		unsigned int base;
	} bases[] = {
		{ "SKF_AD_OFF", (unsigned int)SKF_AD_OFF },
		{ "SKF_NET_OFF", (unsigned int)SKF_NET_OFF },
		{ "SKF_LL_OFF", (unsigned int)SKF_LL_OFF },
	};
	unsigned int b;

	if ((i->code & 0x07) != BPF_LD || (i->code & 0xe0) != BPF_ABS)
		return 0;
	for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
		if (i->k < bases[b].base)
			continue;
		p_named(f, bases[b].name, bases[b].base, 'x');
		fmt_chr(f, '+');
		if (!b)
			p_xlat(f, i->k - bases[b].base, &xl_skf_ad, "SKF_AD_???");
		else
			fmt_udec(f, i->k - bases[b].base);
		return 1;
	}
	return 0;
}

/* A seccomp filter's return value: its action (and data). */
static int p_seccomp_k(struct fmt *f, const struct sock_filter *i)
{
	unsigned int act = i->k & SECCOMP_RET_ACTION_FULL;

	if ((i->code & 0x07) != BPF_RET)
		return 0;
	p_xlat(f, act, &xl_seccomp_ret_action, "SECCOMP_RET_???");
	if (i->k & ~SECCOMP_RET_ACTION_FULL) {
		fmt_chr(f, '|');
		p_hex(f, i->k & ~SECCOMP_RET_ACTION_FULL);
	}
	return 1;
}

struct bpf_walk {
	unsigned int count;
	int (*k)(struct fmt *f, const struct sock_filter *i);
};

/* BPF_STMT(code, k) or BPF_JUMP(code, k, jt, jf), k by the filter's
 * kind where it names something */
static void p_bpf_insn(struct fmt *f, const void *e, void *ctx)
{
	const struct sock_filter *i = e;
	struct bpf_walk *w = ctx;

	if (w->count++ >= BPF_INSNS_MAX) {
		fmt_str(f, "...");
		return;
	}
	fmt_str(f, i->jt || i->jf ? "BPF_JUMP(" : "BPF_STMT(");
	p_bpf_code(f, i->code);
	fmt_str(f, ", ");
	if (i->jt || i->jf || !w->k(f, i))
		p_hex(f, i->k);
	if (i->jt || i->jf) {
		fmt_str(f, ", ");
		p_hex(f, i->jt);
		fmt_str(f, ", ");
		p_hex(f, i->jf);
	}
	fmt_chr(f, ')');
}

void p_bpf_filter(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		  unsigned long n, int sock)
{
	struct bpf_walk w = { 0, sock ? p_sock_k : p_seccomp_k };

	if (!trace_whole(s))
		p_ptr(f, p);
	else
		p_array_ctx(f, s, p, n > BPF_INSNS_MAX ? BPF_INSNS_MAX + 1 : n,
			    sizeof(struct sock_filter), 0, p_bpf_insn, &w);
}

void p_bpf_fprog(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		 int sock)
{
	struct sock_fprog prog;

	if (fetch(f, s, &prog, p, sizeof(prog)))
		return;
	f_udec(f, "{len=", prog.len);
	fmt_str(f, ", filter=");
	p_bpf_filter(f, s, (unsigned long)prog.filter, prog.len, sock);
	fmt_chr(f, '}');
}

static void d_seccomp(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[0];
	unsigned int flags = (unsigned int)c->s->args[1];
	unsigned long p = c->s->args[2];
	unsigned int act;
	struct seccomp_notif_sizes sz;

	a_xlat(c, op, &xl_seccomp_ops, "SECCOMP_SET_MODE_???");
	if (op == SECCOMP_SET_MODE_FILTER) {
		a_int_flags(c, flags, &xl_seccomp_filter_flags,
			    "SECCOMP_FILTER_FLAG_???");
		a_sep(c);
		p_bpf_fprog(c->f, c->s, p, 0);
		return;
	}
	a_hex(c, flags);
	if (op == SECCOMP_GET_ACTION_AVAIL) {
		a_sep(c);
		if (fetch(c->f, c->s, &act, p, sizeof(act)))
			return;
		fmt_chr(c->f, '[');
		p_xlat(c->f, act, &xl_seccomp_ret_action, "SECCOMP_RET_???");
		fmt_chr(c->f, ']');
	} else if (op == SECCOMP_GET_NOTIF_SIZES) {
		if (!a_out(c, p) || fetch(c->f, c->s, &sz, p, sizeof(sz)))
			return;
		f_udec(c->f, "{seccomp_notif=", sz.seccomp_notif);
		f_udec(c->f, ", seccomp_notif_resp=", sz.seccomp_notif_resp);
		f_udec(c->f, ", seccomp_data=", sz.seccomp_data);
		fmt_chr(c->f, '}');
	} else {
		a_ptr(c, p);
	}
}

const struct decoder dec_seccomp[] = {
	{ "seccomp", d_seccomp, 0, 0 },
	{ 0, 0, 0, 0 },
};
