/* SPDX-License-Identifier: MIT */
/*
 * bpf(2): the command by name, and BPF_PROG_LOAD's attributes as strace
 * 6.1 prints them.  strace reads the attributes the size argument gives
 * (up to a page), zero-filled past it, and prints the fields of each
 * kernel release's layout only while the size covers them; bytes past
 * the layout it knows print only when not all zero.  The other commands
 * print their attributes' address (not decoded yet), as do programs'
 * instructions under -v (strace lists them).
 */
#include <stddef.h>
#include <linux/bpf.h>
#include "trace.h"

#define PAGE 4096
/* strace 6.1's BPF_PROG_LOAD layout ends with fd_array */
#define PROG_LOAD_SIZE (offsetof(union bpf_attr, fd_array) + 8)

void p_kernel_version(struct fmt *f, unsigned int v)
{
	if (trace_xstyle != XS_ABBREV)
		p_hex(f, v);
	if (trace_xstyle == XS_RAW)
		return;
	fmt_str(f, trace_xstyle == XS_VERBOSE ? " /* KERNEL_VERSION(" :
						"KERNEL_VERSION(");
	fmt_udec(f, v >> 16);
	fmt_str(f, ", ");
	fmt_udec(f, (v >> 8) & 0xff);
	fmt_str(f, ", ");
	fmt_udec(f, v & 0xff);
	fmt_str(f, trace_xstyle == XS_VERBOSE ? ") */" : ")");
}

static void f_fd(struct call *c, const char *name, int fd)
{
	f_dec(c->f, name, fd);
	p_fdpath(c->f, c->s, fd);
}

static void f_addr(struct fmt *f, const char *name, unsigned long long p)
{
	fmt_str(f, name);
	p_ptr(f, p);
}

/* The fields that len bytes of a's BPF_PROG_LOAD attributes cover.
 * (each "if (len <= ...) return" is where a kernel release's layout
 * ended) */
static void p_prog_load(struct call *c, const union bpf_attr *a,
			unsigned long len)
{
	struct fmt *f = c->f;
	unsigned long name;

	fmt_str(f, "{prog_type=");
	p_xlat(f, a->prog_type, &xl_bpf_prog_types, "BPF_PROG_TYPE_???");
	f_udec(f, ", insn_cnt=", a->insn_cnt);
	f_addr(f, ", insns=", a->insns);
	fmt_str(f, ", license=");
	p_str_max(f, c->s, a->license, -1UL);
	if (len <= offsetof(union bpf_attr, log_level))
		return;
	f_udec(f, ", log_level=", a->log_level);
	f_udec(f, ", log_size=", a->log_size);
	fmt_str(f, ", log_buf=");
	p_str_max(f, c->s, a->log_buf, a->log_size);
	if (len <= offsetof(union bpf_attr, kern_version))
		return;
	fmt_str(f, ", kern_version=");
	p_kernel_version(f, a->kern_version);
	if (len <= offsetof(union bpf_attr, prog_flags))
		return;
	fmt_str(f, ", prog_flags=");
	p_flags(f, a->prog_flags, &xl_bpf_prog_flags, 0);
	name = offsetof(union bpf_attr, prog_name);
	if (len <= name)
		return;
	fmt_str(f, ", prog_name=");
	p_cstring(f, a->prog_name, len - name < sizeof(a->prog_name) ?
				   len - name : sizeof(a->prog_name));
	if (len <= offsetof(union bpf_attr, prog_ifindex))
		return;
	fmt_str(f, ", prog_ifindex=");
	p_ifindex(f, a->prog_ifindex);
	if (len <= offsetof(union bpf_attr, expected_attach_type))
		return;
	fmt_str(f, ", expected_attach_type=");
	p_xlat(f, a->expected_attach_type, &xl_bpf_attach_types, "BPF_???");
	if (len <= offsetof(union bpf_attr, prog_btf_fd))
		return;
	f_fd(c, ", prog_btf_fd=", (int)a->prog_btf_fd);
	f_udec(f, ", func_info_rec_size=", a->func_info_rec_size);
	f_addr(f, ", func_info=", a->func_info);
	f_udec(f, ", func_info_cnt=", a->func_info_cnt);
	f_udec(f, ", line_info_rec_size=", a->line_info_rec_size);
	f_addr(f, ", line_info=", a->line_info);
	f_udec(f, ", line_info_cnt=", a->line_info_cnt);
	if (len <= offsetof(union bpf_attr, attach_btf_id))
		return;
	f_udec(f, ", attach_btf_id=", a->attach_btf_id);
	if (len <= offsetof(union bpf_attr, attach_prog_fd))
		return;
	f_fd(c, ", attach_prog_fd=", (int)a->attach_prog_fd);
	if (len <= offsetof(union bpf_attr, fd_array))
		return;
	f_addr(f, ", fd_array=", a->fd_array);
}

/* Bytes past the layout (from known to size): "..." when not all zero,
 * under -v the bytes themselves */
static void p_extra(struct call *c, const unsigned char *b,
		    unsigned long known, unsigned long size)
{
	unsigned long i;

	for (i = known; i < size && !b[i]; i++)
		;
	if (i >= size)
		return;
	if (!trace_whole(c->s)) {
		fmt_str(c->f, ", ...");
		return;
	}
	fmt_str(c->f, ", extra_data=");
	p_hex_bytes(c->f, b + known, size - known);
	f_udec(c->f, " /* bytes ", known);
	f_udec(c->f, "..", size - 1);
	fmt_str(c->f, " */");
}

static void d_bpf(struct call *c)
{
	unsigned int cmd = (unsigned int)c->s->args[0];
	unsigned int size = (unsigned int)c->s->args[2];
	unsigned long p = c->s->args[1];
	union {
		union bpf_attr a;
		unsigned char b[PAGE];
	} u;

	a_xlat(c, cmd, &xl_bpf_commands, "BPF_???");
	a_sep(c);
	if (cmd != BPF_PROG_LOAD || !size || size > PAGE ||
	    !trace_structs(c->s) ||
	    trace_read(c->s, u.b, (void *)p, size) != (long)size) {
		p_ptr(c->f, p);
	} else {
		hk_memset(u.b + size, 0, size < sizeof(u.a) ?
					 sizeof(u.a) - size : 0);
		p_prog_load(c, &u.a, size < PROG_LOAD_SIZE ? size :
							  PROG_LOAD_SIZE);
		p_extra(c, u.b, PROG_LOAD_SIZE, size);
		fmt_chr(c->f, '}');
	}
	a_udec(c, size);
}

/* A program loaded: its descriptor (-y: its path) */
static void r_bpf(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	if ((unsigned int)c->s->args[0] == BPF_PROG_LOAD)
		p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

const struct decoder dec_bpf[] = {
	{ "bpf", d_bpf, r_bpf, 0 },
	{ 0, 0, 0, 0 },
};
