/* SPDX-License-Identifier: MIT */
/*
 * ioctl on seccomp user-notification descriptors (linux/seccomp.h): the
 * notification received, the response sent, id checks and descriptors
 * added, as strace prints them.
 */
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
