/* SPDX-License-Identifier: MIT */
/* Memory: mmap's protections, type, flags and huge page size, madvise,
 * mremap, msync; NUMA policies (mbind, set/get_mempolicy, move_pages,
 * migrate_pages). */
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include "trace.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

void p_prot(struct fmt *f, unsigned long v)
{
	if (v)
		p_flags_unknown(f, v, &xl_mmap_prot, "PROT_???");
	else
		p_flags(f, v, &xl_mmap_prot, "PROT_NONE");
}

/* The mapping's type, its flags, the huge page size (strace clears the
 * bits above it too: its mask is an unsigned int) */
static void p_mmap_flags(struct fmt *f, unsigned long fl)
{
	unsigned long all = fl, huge = fl >> MAP_HUGE_SHIFT & 0x3f;
	size_t start = x_begin(f);

	p_xlat(f, fl & MAP_TYPE, &xl_mmap_type, "MAP_???");
	fl &= ~(unsigned long)MAP_TYPE & ((1UL << MAP_HUGE_SHIFT) - 1);
	if (fl) {
		fmt_chr(f, '|');
		p_flags(f, fl, &xl_mmap_flags, 0);
	}
	if (huge) {
		fmt_chr(f, '|');
		fmt_udec(f, huge);
		fmt_str(f, "<<MAP_HUGE_SHIFT");
	}
	x_end(f, start, all, 'x');
}

static void d_mmap(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_prot(c->f, c->s->args[2]);
	a_sep(c);
	p_mmap_flags(c->f, c->s->args[3]);
	a_int(c, 4);
	a_hex(c, c->s->args[5]);
}

static void d_remap_file_pages(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_prot(c->f, c->s->args[2]);
	a_udec(c, c->s->args[3]);
	a_sep(c);
	p_mmap_flags(c->f, c->s->args[4]);
}

static void d_mprotect(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_prot(c->f, c->s->args[2]);
}

static void d_pkey_mprotect(struct call *c)
{
	d_mprotect(c);
	a_int(c, 3);
}

static void elem_mincore(struct fmt *f, const void *e)
{
	fmt_udec(f, *(const unsigned char *)e & 1);
}

/* mincore's vector: a byte per page, whether it is resident */
static void d_mincore(struct call *c)
{
	unsigned long len = c->s->args[1], pages = len / 4096 + !!(len % 4096);

	a_ptr(c, c->s->args[0]);
	a_udec(c, len);
	if (a_out(c, c->s->args[2]))
		p_array(c, c->s->args[2], pages, 1, 1, elem_mincore);
}

static void d_pkey_alloc(struct call *c)
{
	a_hex(c, c->s->args[0]);
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[1], &xl_pkey_access, "PKEY_???");
}

static void d_madvise(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_xlat(c, (unsigned int)c->s->args[2], &xl_madvise, "MADV_???");
}

/* madvise over another process's ranges, given as an iovec array */
static void d_process_madvise(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	put_iov(c->f, c->s, c->s->args[1], c->s->args[2], IOV_ADDR);
	a_udec(c, c->s->args[2]);
	a_xlat(c, (unsigned int)c->s->args[3], &xl_madvise, "MADV_???");
	a_hex(c, (unsigned int)c->s->args[4]);
}

static void d_mremap(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_udec(c, c->s->args[2]);
	a_flags(c, c->s->args[3], &xl_mremap_flags, 0);
	if (c->s->args[3] & MREMAP_FIXED)
		a_ptr(c, c->s->args[4]);
}

static void d_msync(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_flags(c, c->s->args[2], &xl_msync_flags, 0);
}

static void d_mlockall(struct call *c)
{
	a_flags(c, c->s->args[0], &xl_mlockall_flags, 0);
}

static void r_ptr(struct call *c)
{
	fmt_hex(c->f, c->s->ret);
}

/* A node mask word as strace's %#0*llx: 0 as 16 zeros, else 0x and
 * 14 digits (the 0x counts in the width). */
static void e_node(struct fmt *f, const void *e)
{
	unsigned long v = *(const unsigned long *)e;
	int digits = 0, pad;

	if (!v) {
		fmt_str(f, "0000000000000000");
		return;
	}
	while (digits < 16 && v >> (4 * digits))
		digits++;
	fmt_str(f, "0x");
	for (pad = 14 - digits; pad > 0; pad--)
		fmt_chr(f, '0');
	while (digits--)
		fmt_chr(f, "0123456789abcdef"[(v >> (4 * digits)) & 15]);
}

void p_nodemask(struct call *c, unsigned long p, unsigned long maxnode,
		int out)
{
	unsigned long bits = 8 * sizeof(long);
	unsigned long n = (maxnode + bits - 2) / bits;

	if (n < maxnode / bits || (maxnode && !n)) {
		p_ptr(c->f, p);
		return;
	}
	p_array(c, p, n, sizeof(long), out, e_node);
}

/* A policy mode with its mode flags: MPOL_BIND|MPOL_F_STATIC_NODES (one
 * number under -X raw), the flags alone when the mode has no name. */
static void p_mpol_mode(struct fmt *f, unsigned long v)
{
	unsigned long fl = v & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES |
				MPOL_F_NUMA_BALANCING);
	const char *mode = xlat_name(&xl_mpol_modes, v & ~fl);
	size_t start;

	if (!fl) {
		p_xlat(f, v, &xl_mpol_modes, "MPOL_???");
		return;
	}
	if (!mode) {
		p_flags_unknown(f, v, &xl_mpol_mode_flags, "MPOL_???");
		return;
	}
	start = x_begin(f);
	fmt_str(f, mode);
	fmt_chr(f, '|');
	p_flag_names(f, fl, &xl_mpol_mode_flags);
	x_end(f, start, v, 'x');
}

static void d_mbind(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_mpol_mode(c->f, c->s->args[2]);
	a_sep(c);
	p_nodemask(c, c->s->args[3], c->s->args[4], 0);
	a_udec(c, c->s->args[4]);
	a_sep(c);
	p_flags_unknown(c->f, (unsigned int)c->s->args[5], &xl_mbind_flags,
			"MPOL_???");
}

static void d_set_mempolicy(struct call *c)
{
	a_sep(c);
	p_mpol_mode(c->f, (unsigned int)c->s->args[0]);
	a_sep(c);
	p_nodemask(c, c->s->args[1], c->s->args[2], 0);
	a_udec(c, c->s->args[2]);
}

static void d_get_mempolicy(struct call *c)
{
	int mode;

	if (!fetch_out(c, &mode, c->s->args[0], sizeof(mode))) {
		fmt_chr(c->f, '[');
		p_xlat(c->f, (unsigned int)mode, &xl_mpol_modes, "MPOL_???");
		fmt_chr(c->f, ']');
	}
	a_sep(c);
	p_nodemask(c, c->s->args[1], c->s->args[2], 1);
	a_udec(c, c->s->args[2]);
	a_ptr(c, c->s->args[3]);
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[4], &xl_get_mempolicy_flags,
			"MPOL_???");
}

static void e_page(struct fmt *f, const void *e)
{
	p_ptr(f, *(const unsigned long *)e);
}

static void e_int(struct fmt *f, const void *e)
{
	fmt_dec(f, *(const int *)e);
}

/* a page's status: a node, or minus an errno (-EFAULT) */
static void e_page_status(struct fmt *f, const void *e)
{
	int v = *(const int *)e;
	const char *nm = v < 0 ? sysgate_errno_name(-v) : 0;
	char name[40] = "-";
	size_t i;

	if (!nm) {
		fmt_dec(f, v);
		return;
	}
	for (i = 0; nm[i] && i + 2 < sizeof(name); i++)
		name[i + 1] = nm[i];
	name[i + 1] = 0;
	p_named(f, name, (unsigned long)(long)v, 'd');
}

static void d_move_pages(struct call *c)
{
	unsigned long n = c->s->args[1];

	a_pid(c, 0, PT_TGID);
	a_udec(c, n);
	a_sep(c);
	p_array(c, c->s->args[2], n, sizeof(long), 0, e_page);
	a_sep(c);
	p_array(c, c->s->args[3], n, sizeof(int), 0, e_int);
	a_exit_next(c);
	a_sep(c);
	p_array(c, c->s->args[4], n, sizeof(int), 1, e_page_status);
	a_sep(c);
	p_flags_unknown(c->f, (unsigned int)c->s->args[5],
			&xl_move_pages_flags, "MPOL_???");
}

static void d_mlock2(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_int_flags(c, c->s->args[2], &xl_mlock_flags, "MLOCK_???");
}

const struct decoder dec_mem[] = {
	{ "mlock2", d_mlock2, 0, 0 },
	{ "mbind", d_mbind, 0, 0 },
	{ "set_mempolicy", d_set_mempolicy, 0, 0 },
	{ "get_mempolicy", d_get_mempolicy, 0, 0 },
	{ "move_pages", d_move_pages, 0, 0 },
	{ "mmap", d_mmap, r_ptr, 0 },
	{ "mprotect", d_mprotect, 0, 0 },
	{ "remap_file_pages", d_remap_file_pages, 0, 0 },
	{ "pkey_alloc", d_pkey_alloc, 0, 0 },
	{ "mincore", d_mincore, 0, 0 },
	{ "pkey_mprotect", d_pkey_mprotect, 0, 0 },
	{ "madvise", d_madvise, 0, 0 },
	{ "process_madvise", d_process_madvise, 0, 0 },
	{ "mremap", d_mremap, r_ptr, 0 },
	{ "msync", d_msync, 0, 0 },
	{ "mlockall", d_mlockall, 0, 0 },
	{ 0, 0, 0, 0 },
};
