/* SPDX-License-Identifier: MIT */
/*
 * x86's segment descriptors (modify_ldt, set_thread_area,
 * get_thread_area) as strace 6.1 prints them.  The struct is the
 * kernel's user_desc, written out here: its header exists only on x86,
 * and the calls only there (elsewhere the table has no number for them
 * and these decoders are never registered).
 */
#include "trace.h"

struct user_desc_ {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit:1, contents:2, read_exec_only:1,
		     limit_in_pages:1, seg_not_present:1, useable:1, lm:1;
};

/* an entry number: -1 (ask for a free one) as -1 */
static void f_entry(struct fmt *f, const char *name, unsigned int n)
{
	if (n == ~0U)
		f_dec(f, name, -1);
	else
		f_udec(f, name, n);
}

/* from ", base_addr=" to the end */
static void p_desc_rest(struct fmt *f, const struct user_desc_ *d)
{
	fmt_str(f, ", base_addr=");
	p_hex0(f, d->base_addr, 8);
	fmt_str(f, ", limit=");
	p_hex0(f, d->limit, 8);
	f_udec(f, ", seg_32bit=", d->seg_32bit);
	f_udec(f, ", contents=", d->contents);
	f_udec(f, ", read_exec_only=", d->read_exec_only);
	f_udec(f, ", limit_in_pages=", d->limit_in_pages);
	f_udec(f, ", seg_not_present=", d->seg_not_present);
	f_udec(f, ", useable=", d->useable);
	f_udec(f, ", lm=", d->lm);
	fmt_chr(f, '}');
}

/* the whole descriptor at p, or p */
static void p_desc(struct call *c, unsigned long p)
{
	struct user_desc_ d;

	if (fetch(c->f, c->s, &d, p, sizeof(d)))
		return;
	f_entry(c->f, "{entry_number=", d.entry_number);
	p_desc_rest(c->f, &d);
}

/* (a descriptor only when bytecount is its size) */
static void d_modify_ldt(struct call *c)
{
	a_int(c, 0);
	a_sep(c);
	if ((unsigned long)c->s->args[2] == sizeof(struct user_desc_))
		p_desc(c, c->s->args[1]);
	else
		p_ptr(c->f, c->s->args[1]);
	a_udec(c, c->s->args[2]);
}

/* The kernel's int result in a long: an error in its low half is one
 * (strace prints the number and the error) */
static void r_modify_ldt(struct call *c)
{
	unsigned long r = (unsigned long)c->s->ret;
	int e = -(int)(unsigned int)r;
	const char *nm = sysgate_errno_name(e), *msg = sysgate_strerror(e);

	fmt_udec(c->f, r);
	if (r < 0xfffff000UL || r > 0xffffffffUL || !nm)
		return;
	fmt_chr(c->f, ' ');
	fmt_str(c->f, nm);
	if (msg) {
		fmt_str(c->f, " (");
		fmt_str(c->f, msg);
		fmt_chr(c->f, ')');
	}
}

static void d_set_thread_area(struct call *c)
{
	a_sep(c);
	p_desc(c, c->s->args[0]);
}

/* "0 (entry_number=12)": the entry the kernel chose */
static void r_set_thread_area(struct call *c)
{
	struct user_desc_ d;

	fmt_dec(c->f, c->s->ret);
	if (trace_read(c->s, &d, (void *)c->s->args[0], sizeof(d)) ==
	    sizeof(d))
		f_udec(c->f, " (entry_number=", d.entry_number);
	else
		return;
	fmt_chr(c->f, ')');
}

/* The entry asked for (kept at entry), then the descriptor got */
static void d_get_thread_area(struct call *c)
{
	unsigned long p = c->s->args[0];
	struct user_desc_ d;
	int asked = trace_saved(c)[0] != 0;

	a_sep(c);
	if (!asked) {
		p_ptr(c->f, p);
		return;
	}
	f_entry(c->f, "{entry_number=", (unsigned int)trace_saved(c)[1]);
	if (!trace_structs(c->s))
		return;
	if (!c_ok(c) ||
	    trace_read(c->s, &d, (void *)p, sizeof(d)) != sizeof(d)) {
		fmt_str(c->f, ", ...}");
		return;
	}
	if (d.entry_number != (unsigned int)trace_saved(c)[1])
		f_entry(c->f, " => ", d.entry_number);
	p_desc_rest(c->f, &d);
}

static void e_get_thread_area(struct call *c)
{
	unsigned int n;

	trace_saved(c)[0] = trace_read(c->s, &n, (void *)c->s->args[0],
				       sizeof(n)) == sizeof(n);
	trace_saved(c)[1] = n;
}

const struct decoder dec_ldt[] = {
	{ "modify_ldt", d_modify_ldt, r_modify_ldt, 0 },
	{ "set_thread_area", d_set_thread_area, r_set_thread_area, 0 },
	{ "get_thread_area", d_get_thread_area, 0, e_get_thread_area },
	{ 0, 0, 0, 0 },
};
