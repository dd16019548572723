/* SPDX-License-Identifier: MIT */
/*
 * ptrace, as strace 6.1 prints it: the request's name, then what that
 * request takes (the pid alone, a signal to deliver, options, a signal
 * mask, a siginfo, register sets).  The register sets' layouts are data,
 * one per architecture (picked by the running ABI's audit arch); an arch
 * without one prints their addresses.  Each line is written at exit, so
 * what the kernel overwrites (a regset's iov_len) is kept at entry.
 */
#include <linux/ptrace.h>
#include <linux/elf.h>
#include "trace.h"

/* One field of a register set: size bytes (2, 4 or 8), or an array of
 * count 4-byte words. */
struct reg_field {
	const char *name;
	unsigned char size, count;
};

struct reg_layout {
	unsigned int arch;	/* AUDIT_ARCH_* */
	const struct reg_field *regs, *fpregs;
	unsigned int regs_size, fpregs_size;
};

#define R8(n) { #n, 8, 0 }
static const struct reg_field x86_64_regs[] = {
	R8(r15), R8(r14), R8(r13), R8(r12), R8(rbp), R8(rbx), R8(r11),
	R8(r10), R8(r9), R8(r8), R8(rax), R8(rcx), R8(rdx), R8(rsi), R8(rdi),
	R8(orig_rax), R8(rip), R8(cs), R8(eflags), R8(rsp), R8(ss),
	R8(fs_base), R8(gs_base), R8(ds), R8(es), R8(fs), R8(gs), { 0, 0, 0 },
};

/* user_fpregs_struct (the FXSAVE area) */
static const struct reg_field x86_64_fpregs[] = {
	{ "cwd", 2, 0 }, { "swd", 2, 0 }, { "ftw", 2, 0 }, { "fop", 2, 0 },
	{ "rip", 8, 0 }, { "rdp", 8, 0 }, { "mxcsr", 4, 0 },
	{ "mxcr_mask", 4, 0 }, { "st_space", 4, 32 }, { "xmm_space", 4, 64 },
	{ "padding", 4, 24 }, { 0, 0, 0 },
};

static const struct reg_layout layouts[] = {
	{ 0xc000003eU /* AUDIT_ARCH_X86_64 */, x86_64_regs, x86_64_fpregs,
	  27 * 8, 512 },
};

static const struct reg_layout *layout(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].arch == xl_native_audit_arch.e[0].value)
			return &layouts[i];
	return 0;
}

static unsigned long field_at(const unsigned char *b, unsigned int size)
{
	unsigned long v = 0;

	hk_memcpy(&v, b, size);	/* (little-endian arches) */
	return v;
}

/*
 * The first len bytes of a register set (len a multiple of 8, at most
 * the set's size) read into b: the fields that fit whole, and of an
 * array the words that begin within them (at most -s of them).
 */
static void p_regs(struct fmt *f, const struct sysgate_sys *s,
		   const struct reg_field *r, const unsigned char *b,
		   unsigned long len, int more)
{
	unsigned long off = 0, i, max = trace_whole(s) ? ~0UL :
					(unsigned long)trace_strsize;

	fmt_chr(f, '{');
	for (; r->name && off < len; r++) {
		if (!r->count && off + r->size > len)
			break;
		if (off)
			fmt_str(f, ", ");
		fmt_str(f, r->name);
		fmt_chr(f, '=');
		if (!r->count) {
			p_hex(f, field_at(b + off, r->size));
			off += r->size;
			continue;
		}
		fmt_chr(f, '[');
		for (i = 0; i < r->count && off + i * r->size < len; i++) {
			if (i)
				fmt_str(f, ", ");
			if (i >= max) {
				fmt_str(f, "...");
				break;
			}
			p_hex(f, field_at(b + off + i * r->size, r->size));
		}
		fmt_chr(f, ']');
		off += (unsigned long)r->size * r->count;
	}
	fmt_str(f, more ? ", ...}" : "}");
}

/* A register set of len bytes at p (its layout r, whole size bytes;
 * what is past them is "..."): the address where it cannot be shown. */
static void p_regset(struct fmt *f, const struct sysgate_sys *s,
		     const struct reg_field *r, unsigned long size,
		     unsigned long p, unsigned long len)
{
	unsigned char b[1024];
	unsigned long n = len < size ? len : size;

	if (!r || !len || len % 8 || size > sizeof(b) ||
	    trace_read(s, b, (void *)p, n) != (long)n) {
		p_ptr(f, p);
		return;
	}
	p_regs(f, s, r, b, n, len > size);
}

/* PTRACE_GETREGSET's and SETREGSET's regset type and iovec */
static void d_regset(struct call *c, int get)
{
	unsigned long nt = c->s->args[2], p = c->s->args[3], given;
	const struct reg_layout *l = layout();
	const struct reg_field *r = 0;
	unsigned long size = 0;
	struct { unsigned long base, len; } iov;

	a_sep(c);
	p_xlat(c->f, nt, &xl_nt_types, "NT_???");
	a_exit_next(c);
	a_sep(c);
	if (fetch(c->f, c->s, &iov, p, sizeof(iov)))
		return;
	given = trace_saved(c)[1] ? trace_saved(c)[0] : iov.len;
	if (l && nt == NT_PRSTATUS)
		r = l->regs, size = l->regs_size;
	else if (l && nt == 2 /* NT_FPREGSET */)
		r = l->fpregs, size = l->fpregs_size;
	fmt_str(c->f, "{iov_base=");
	if (get && !c_ok(c))
		p_ptr(c->f, iov.base);
	else
		p_regset(c->f, c->s, r, size, iov.base, get ? iov.len : given);
	f_udec(c->f, ", iov_len=", given);
	if (c_ok(c) && iov.len != given) {
		fmt_str(c->f, " => ");
		fmt_udec(c->f, iov.len);
	}
	fmt_chr(c->f, '}');
}

/* PTRACE_GETREGS and the like: the whole set at data (addr unused) */
static void d_regs(struct call *c, int get, int fp)
{
	const struct reg_layout *l = layout();

	a_exit_next(c);
	a_sep(c);
	if (get && !c_ok(c))
		p_ptr(c->f, c->s->args[3]);
	else
		p_regset(c->f, c->s, fp ? l->fpregs : l->regs,
			 fp ? l->fpregs_size : l->regs_size, c->s->args[3],
			 fp ? l->fpregs_size : l->regs_size);
}

/* PTRACE_PEEKSIGINFO's siginfo array: ret of them */
static void p_siginfos(struct call *c, unsigned long p, unsigned long n)
{
	unsigned char si[128];
	unsigned long i, max = trace_whole(c->s) ? n :
					(unsigned long)trace_strsize;

	for (i = 0; i < n; i++) {
		if (trace_read(c->s, si, (void *)(p + i * sizeof(si)),
			       sizeof(si)) != sizeof(si)) {
			if (!i) {
				p_ptr(c->f, p);
				return;
			}
			break;
		}
		fmt_str(c->f, i ? ", " : "[");
		if (i >= max) {
			fmt_str(c->f, "...");
			break;
		}
		p_siginfo(c->f, c->s, si);
	}
	fmt_str(c->f, n ? "]" : "[]");
}

static void d_peeksiginfo(struct call *c)
{
	struct ptrace_peeksiginfo_args a;

	a_sep(c);
	if (!fetch(c->f, c->s, &a, c->s->args[2], sizeof(a))) {
		f_udec(c->f, "{off=", a.off);
		fmt_str(c->f, ", flags=");
		p_flags(c->f, a.flags, &xl_ptrace_peeksiginfo_flags, 0);
		f_dec(c->f, ", nr=", a.nr);
		fmt_chr(c->f, '}');
	}
	if (a_out(c, c->s->args[3]))
		p_siginfos(c, c->s->args[3], (unsigned long)c->s->ret);
}

/* {filter_off=N, flags=...}: flags once the kernel filled them */
static void d_seccomp_metadata(struct call *c)
{
	unsigned long size = c->s->args[2], p = c->s->args[3];
	struct seccomp_metadata m;

	a_udec(c, size);
	a_exit_next(c);
	a_sep(c);
	if (size < sizeof(m.filter_off)) {
		p_ptr(c->f, p);
		return;
	}
	if (fetch(c->f, c->s, &m, p, sizeof(m.filter_off)))
		return;
	f_udec(c->f, "{filter_off=", m.filter_off);
	if (c_ok(c) && size >= sizeof(m) &&
	    trace_read(c->s, &m, (void *)p, sizeof(m)) == sizeof(m)) {
		fmt_str(c->f, ", flags=");
		p_flags(c->f, m.flags, &xl_seccomp_filter_flags, 0);
	}
	fmt_chr(c->f, '}');
}

/* GETSIGINFO's (at exit) and SETSIGINFO's siginfo */
static void a_siginfo(struct call *c, int get)
{
	unsigned char si[128];

	if (!get)
		a_sep(c);
	else if (!a_out(c, c->s->args[3]))
		return;
	if (!fetch(c->f, c->s, si, c->s->args[3], sizeof(si)))
		p_siginfo(c->f, c->s, si);
}

static void d_sigmask(struct call *c, int get)
{
	unsigned long set[16] = { 0 }, size = c->s->args[2];

	a_udec(c, size);
	if (!get) {
		a_sigset(c, c->s->args[3], size);
		return;
	}
	if (!a_out(c, c->s->args[3]))
		return;
	if (size > sizeof(set))
		p_ptr(c->f, c->s->args[3]);
	else if (!fetch(c->f, c->s, set, c->s->args[3], size))
		p_sigset(c->f, set, size);
}

/* PTRACE_GETEVENTMSG: [the message] */
static void d_eventmsg(struct call *c)
{
	unsigned long v;

	a_ptr(c, c->s->args[2]);
	if (a_out(c, c->s->args[3]) &&
	    !fetch(c->f, c->s, &v, c->s->args[3], sizeof(v))) {
		fmt_chr(c->f, '[');
		p_hex(c->f, v);
		fmt_chr(c->f, ']');
	}
}

static void d_ptrace(struct call *c)
{
	unsigned long req = c->s->args[0], data = c->s->args[3];
	const struct reg_layout *l = layout();

	a_sep(c);
	p_xlat(c->f, req, &xl_ptrace_cmds, "PTRACE_???");
	if (req == PTRACE_TRACEME)
		return;
	a_pid(c, 1, PT_TID);
	if (xlat_name(&xl_ptrace_pid_only, req))
		return;
	switch (req) {
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		d_regset(c, req == PTRACE_GETREGSET);
		return;
	case PTRACE_PEEKSIGINFO:
		d_peeksiginfo(c);
		return;
	case PTRACE_SECCOMP_GET_METADATA:
		d_seccomp_metadata(c);
		return;
	case PTRACE_GETSIGMASK:
	case PTRACE_SETSIGMASK:
		d_sigmask(c, req == PTRACE_GETSIGMASK);
		return;
	case PTRACE_SECCOMP_GET_FILTER:
		a_udec(c, c->s->args[2]);
		a_ptr(c, data);
		return;
	case PTRACE_GETEVENTMSG:
		d_eventmsg(c);
		return;
	}
	if (l && (xlat_name(&xl_ptrace_getregs, req) ||
		  xlat_name(&xl_ptrace_setregs, req) ||
		  xlat_name(&xl_ptrace_getfpregs, req) ||
		  xlat_name(&xl_ptrace_setfpregs, req))) {
		d_regs(c, xlat_name(&xl_ptrace_getregs, req) ||
			  xlat_name(&xl_ptrace_getfpregs, req),
		       xlat_name(&xl_ptrace_getfpregs, req) ||
		       xlat_name(&xl_ptrace_setfpregs, req));
		return;
	}
	a_ptr(c, c->s->args[2]);
	if (xlat_name(&xl_ptrace_resume, req)) {
		a_sep(c);
		p_signame(c->f, (int)data);
	} else if (req == PTRACE_SETOPTIONS || req == PTRACE_SEIZE) {
		a_flags(c, data, &xl_ptrace_options, 0);
	} else if (req == PTRACE_GETSIGINFO || req == PTRACE_SETSIGINFO) {
		a_siginfo(c, req == PTRACE_GETSIGINFO);
	} else {
		a_ptr(c, data);
	}
}

/* A regset's iov_len as given: the kernel overwrites it */
static void e_ptrace(struct call *c)
{
	struct { unsigned long base, len; } iov;
	unsigned long req = c->s->args[0];

	trace_saved(c)[1] = 0;
	if ((req == PTRACE_GETREGSET || req == PTRACE_SETREGSET) &&
	    trace_read(c->s, &iov, (void *)c->s->args[3], sizeof(iov)) ==
		    sizeof(iov)) {
		trace_saved(c)[0] = iov.len;
		trace_saved(c)[1] = 1;
	}
}

const struct decoder dec_ptrace[] = {
	{ "ptrace", d_ptrace, 0, e_ptrace },
	{ 0, 0, 0, 0 },
};
