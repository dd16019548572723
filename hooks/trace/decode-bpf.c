/* SPDX-License-Identifier: MIT */
/*
 * bpf(2): the command by name, and the attributes of BPF_MAP_CREATE,
 * BPF_PROG_LOAD and BPF_OBJ_GET_INFO_BY_FD as strace 6.1 prints them.
 * strace reads the attributes the size argument gives (up to a page),
 * zero-filled past it, and prints the fields of each kernel release's
 * layout only while the size covers them; bytes past the layout it knows
 * print only when not all zero.  The other commands print their
 * attributes' address (not decoded yet), as do programs' instructions
 * and the info an object's descriptor gives under -v (strace lists
 * them).
 */
#include <stddef.h>
#include <linux/bpf.h>
#include "trace.h"

#define PAGE 4096
/* strace 6.1's layouts' ends */
#define PROG_LOAD_SIZE (offsetof(union bpf_attr, fd_array) + 8)
#define MAP_CREATE_SIZE (offsetof(union bpf_attr, map_extra) + 8)
#define INFO_SIZE (offsetof(union bpf_attr, info.info) + 8)
#define NUMA_NO_NODE_ 0xffffffffU

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

/* A name of at most size bytes whose first len bytes the attributes
 * have (map_name, prog_name) */
static void f_name(struct fmt *f, const char *field, const char *name,
		   unsigned long size, unsigned long len)
{
	fmt_str(f, field);
	p_cstring(f, name, len < size ? len : size);
}

/*
 * BPF_PROG_LOAD's log buffer as it was at entry (strace prints it
 * then; the kernel writes the verifier's log there): e_bpf keeps its
 * first bytes in the scratch's given[], their number in
 * trace_saved(c)[2] (+1; 0: none kept).
 */
#define LOG_KEPT sizeof(trace_scratch(0)->given)

static void p_log_buf(struct call *c, const union bpf_attr *a)
{
	const unsigned char *kept =
		(const unsigned char *)trace_scratch(c->s)->given;
	unsigned long n = trace_saved(c)[2], i;

	for (i = 0; n && i < n - 1 && kept[i]; i++)
		;
	if (!n || !a->log_buf || i == n - 1)
		p_str_max(c->f, c->s, a->log_buf, a->log_size);
	else
		p_data_local(c->f, kept, i);
}

static void e_log_buf(struct call *c)
{
	const unsigned long upto = offsetof(union bpf_attr, kern_version);
	union bpf_attr a;
	unsigned long n;

	trace_saved(c)[2] = 0;
	if ((unsigned int)c->s->args[2] < upto ||
	    trace_read(c->s, &a, (void *)c->s->args[1], upto) != (long)upto ||
	    !a.log_buf)
		return;
	n = a.log_size < LOG_KEPT ? a.log_size : LOG_KEPT;
	if (n && trace_read(c->s, trace_scratch(c->s)->given,
			    (void *)(unsigned long)a.log_buf, n) == (long)n)
		trace_saved(c)[2] = n + 1;
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
	p_log_buf(c, a);
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
	f_name(f, ", prog_name=", a->prog_name, sizeof(a->prog_name),
	       len - name);
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

/* BPF_MAP_CREATE's fields that len bytes cover */
static void p_map_create(struct call *c, const union bpf_attr *a,
			 unsigned long len)
{
	struct fmt *f = c->f;

	fmt_str(f, "{map_type=");
	p_xlat(f, a->map_type, &xl_bpf_map_types, "BPF_MAP_TYPE_???");
	f_udec(f, ", key_size=", a->key_size);
	f_udec(f, ", value_size=", a->value_size);
	f_udec(f, ", max_entries=", a->max_entries);
	if (len <= offsetof(union bpf_attr, map_flags))
		return;
	fmt_str(f, ", map_flags=");
	p_flags_unknown(f, a->map_flags, &xl_bpf_map_flags, "BPF_F_???");
	if (len <= offsetof(union bpf_attr, inner_map_fd))
		return;
	f_fd(c, ", inner_map_fd=", (int)a->inner_map_fd);
	if (len <= offsetof(union bpf_attr, numa_node))
		return;
	if (a->map_flags & 4 /* BPF_F_NUMA_NODE */) {
		f_udec(f, ", numa_node=", a->numa_node);
		/* (a kernel-internal name: in a comment, as strace) */
		if (a->numa_node == NUMA_NO_NODE_ && trace_xstyle != XS_RAW)
			fmt_str(f, " /* NUMA_NO_NODE */");
	}
	if (len <= offsetof(union bpf_attr, map_name))
		return;
	f_name(f, ", map_name=", a->map_name, sizeof(a->map_name),
	       len - offsetof(union bpf_attr, map_name));
	if (len <= offsetof(union bpf_attr, map_ifindex))
		return;
	fmt_str(f, ", map_ifindex=");
	p_ifindex(f, a->map_ifindex);
	if (len <= offsetof(union bpf_attr, btf_fd))
		return;
	f_fd(c, ", btf_fd=", (int)a->btf_fd);
	f_udec(f, ", btf_key_type_id=", a->btf_key_type_id);
	f_udec(f, ", btf_value_type_id=", a->btf_value_type_id);
	if (len <= offsetof(union bpf_attr, btf_vmlinux_value_type_id))
		return;
	f_udec(f, ", btf_vmlinux_value_type_id=",
	       a->btf_vmlinux_value_type_id);
	if (len <= offsetof(union bpf_attr, map_extra))
		return;
	f_udec(f, ", map_extra=", a->map_extra);
}

/* Whether fd is a BPF map ("anon_inode:bpf-map") */
static int is_map(const struct sysgate_sys *s, int fd)
{
	static const char want[] = "anon_inode:bpf-map";
	char path[64];
	long n = fd_path(s, fd, path, sizeof(path) - 1);

	return n == (long)sizeof(want) - 1 &&
	       !hk_strncmp(path, want, sizeof(want) - 1);
}

#define COVERS(len, field) \
	((len) >= offsetof(struct bpf_map_info, field) + sizeof(m->field))

/* A map's info (the first len bytes the kernel wrote), strace's fields */
static void p_map_info(struct fmt *f, const struct bpf_map_info *m,
		       unsigned long len)
{
	fmt_str(f, "{type=");
	p_xlat(f, m->type, &xl_bpf_map_types, "BPF_MAP_TYPE_???");
	if (COVERS(len, id))
		f_udec(f, ", id=", m->id);
	if (COVERS(len, key_size))
		f_udec(f, ", key_size=", m->key_size);
	if (COVERS(len, value_size))
		f_udec(f, ", value_size=", m->value_size);
	if (COVERS(len, max_entries))
		f_udec(f, ", max_entries=", m->max_entries);
	if (COVERS(len, map_flags)) {
		fmt_str(f, ", map_flags=");
		p_flags_unknown(f, m->map_flags, &xl_bpf_map_flags,
				"BPF_F_???");
	}
	if (COVERS(len, name))
		f_name(f, ", name=", m->name, sizeof(m->name), sizeof(m->name));
	if (COVERS(len, ifindex)) {
		fmt_str(f, ", ifindex=");
		p_ifindex(f, m->ifindex);
	}
	if (COVERS(len, btf_vmlinux_value_type_id))
		f_udec(f, ", btf_vmlinux_value_type_id=",
		       m->btf_vmlinux_value_type_id);
	if (COVERS(len, netns_dev)) {
		fmt_str(f, ", netns_dev=");
		p_dev(f, m->netns_dev);
	}
	if (COVERS(len, netns_ino))
		f_udec(f, ", netns_ino=", m->netns_ino);
	if (COVERS(len, btf_id))
		f_udec(f, ", btf_id=", m->btf_id);
	if (COVERS(len, btf_key_type_id))
		f_udec(f, ", btf_key_type_id=", m->btf_key_type_id);
	if (COVERS(len, btf_value_type_id))
		f_udec(f, ", btf_value_type_id=", m->btf_value_type_id);
	fmt_chr(f, '}');
}

/* BPF_OBJ_GET_INFO_BY_FD: the object and the buffer for its info, whose
 * length the kernel sets (given at entry: trace_saved); under -v a
 * map's info (a program's is not decoded yet) */
static void p_info_by_fd(struct call *c, const union bpf_attr *a,
			 unsigned long len)
{
	struct fmt *f = c->f;
	unsigned long given = trace_saved(c)[1] ? trace_saved(c)[0] :
						  a->info.info_len;
	struct bpf_map_info m;
	unsigned long n = a->info.info_len < sizeof(m) ? a->info.info_len :
							 sizeof(m);

	(void)len;
	f_fd(c, "{info={bpf_fd=", (int)a->info.bpf_fd);
	f_udec(f, ", info_len=", given);
	if (c_ok(c) && given != a->info.info_len)
		f_udec(f, " => ", a->info.info_len);
	fmt_str(f, ", info=");
	hk_memset(&m, 0, sizeof(m));
	if (!c_ok(c) || !trace_whole(c->s) ||
	    !is_map(c->s, (int)a->info.bpf_fd))
		p_ptr(f, a->info.info);
	else if (!fetch(f, c->s, &m, a->info.info, n))
		p_map_info(f, &m, a->info.info_len);
	fmt_chr(f, '}');
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

/* The commands decoded: their attributes' printer and layout's size */
static const struct cmd_attrs {
	unsigned int cmd;
	void (*print)(struct call *c, const union bpf_attr *a,
		      unsigned long len);
	unsigned long size;
} cmds[] = {
	{ BPF_MAP_CREATE, p_map_create, MAP_CREATE_SIZE },
	{ BPF_PROG_LOAD, p_prog_load, PROG_LOAD_SIZE },
	{ BPF_OBJ_GET_INFO_BY_FD, p_info_by_fd, INFO_SIZE },
};

static const struct cmd_attrs *cmd_of(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].cmd == cmd)
			return &cmds[i];
	return 0;
}

static void d_bpf(struct call *c)
{
	unsigned int cmd = (unsigned int)c->s->args[0];
	unsigned int size = (unsigned int)c->s->args[2];
	unsigned long p = c->s->args[1];
	const struct cmd_attrs *k = cmd_of(cmd);
	union {
		union bpf_attr a;
		unsigned char b[PAGE];
	} u;

	a_xlat(c, cmd, &xl_bpf_commands, "BPF_???");
	if (cmd == BPF_OBJ_GET_INFO_BY_FD)
		a_exit_next(c);
	a_sep(c);
	if (!k || !size || size > PAGE || !trace_structs(c->s) ||
	    trace_read(c->s, u.b, (void *)p, size) != (long)size) {
		p_ptr(c->f, p);
	} else {
		hk_memset(u.b + size, 0, size < sizeof(u.a) ?
					 sizeof(u.a) - size : 0);
		k->print(c, &u.a, size < k->size ? size : k->size);
		p_extra(c, u.b, k->size, size);
		fmt_chr(c->f, '}');
	}
	a_udec(c, size);
}

/* What the kernel overwrites: BPF_OBJ_GET_INFO_BY_FD's info_len,
 * BPF_PROG_LOAD's log */
static void e_bpf(struct call *c)
{
	unsigned int len;

	trace_saved(c)[1] = 0;
	if ((unsigned int)c->s->args[0] == BPF_PROG_LOAD)
		e_log_buf(c);
	if ((unsigned int)c->s->args[0] == BPF_OBJ_GET_INFO_BY_FD &&
	    (unsigned int)c->s->args[2] >= INFO_SIZE &&
	    trace_read(c->s, &len, (void *)(c->s->args[1] +
			offsetof(union bpf_attr, info.info_len)),
		       sizeof(len)) == sizeof(len)) {
		trace_saved(c)[0] = len;
		trace_saved(c)[1] = 1;
	}
}

/* A map or program made: its descriptor (-y: its path) */
static void r_bpf(struct call *c)
{
	unsigned int cmd = (unsigned int)c->s->args[0];

	fmt_dec(c->f, c->s->ret);
	if (cmd == BPF_PROG_LOAD || cmd == BPF_MAP_CREATE)
		p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

const struct decoder dec_bpf[] = {
	{ "bpf", d_bpf, r_bpf, e_bpf },
	{ 0, 0, 0, 0 },
};
