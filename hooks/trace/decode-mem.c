/* SPDX-License-Identifier: MIT */
/* Memory: mmap's protections, type, flags and huge page size, madvise,
 * mremap, msync. */
#include <sys/mman.h>
#include "trace.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

void p_prot(struct fmt *f, unsigned long v)
{
	p_flags(f, v, &xl_mmap_prot, "PROT_NONE");
}

static void d_mmap(struct call *c)
{
	unsigned long fl = c->s->args[3], huge = fl >> MAP_HUGE_SHIFT & 0x3f;
	struct fmt *f = c->f;
	size_t start;

	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_sep(c);
	p_prot(f, c->s->args[2]);
	a_sep(c);
	start = x_begin(f);
	p_xlat(f, fl & MAP_TYPE, &xl_mmap_type, "MAP_???");
	fl &= ~(unsigned long)MAP_TYPE & ~(0x3fUL << MAP_HUGE_SHIFT);
	if (fl) {
		fmt_chr(f, '|');
		p_flags(f, fl, &xl_mmap_flags, 0);
	}
	if (huge) {
		fmt_chr(f, '|');
		fmt_udec(f, huge);
		fmt_str(f, "<<MAP_HUGE_SHIFT");
	}
	x_end(f, start, c->s->args[3], 'x');
	a_int(c, 4);
	a_hex(c, c->s->args[5]);
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

static void d_madvise(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_xlat(c, (unsigned int)c->s->args[2], &xl_madvise, "MADV_???");
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

const struct decoder dec_mem[] = {
	{ "mmap", d_mmap, r_ptr, 0 },
	{ "mprotect", d_mprotect, 0, 0 },
	{ "pkey_mprotect", d_pkey_mprotect, 0, 0 },
	{ "madvise", d_madvise, 0, 0 },
	{ "mremap", d_mremap, r_ptr, 0 },
	{ "msync", d_msync, 0, 0 },
	{ "mlockall", d_mlockall, 0, 0 },
	{ 0, 0, 0, 0 },
};
