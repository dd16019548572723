/* SPDX-License-Identifier: MIT */
/*
 * io_uring_setup, io_uring_enter and io_uring_register as strace prints
 * them: the setup parameters and the rings' offsets the kernel returns,
 * each register opcode's argument (descriptor and buffer tables, their
 * updates and tags, probes, restrictions, worker affinity and limits,
 * ring descriptors, provided buffer rings).  Reserved fields show only
 * when set.  A probe is shown at entry only when not all zero (the
 * kernel fills a zeroed one), so enter() notes which it was; the other
 * arguments are inputs, read at exit.
 */
#include <linux/io_uring.h>
#include "trace.h"

/* ", name=" and a named value */
static void f_xlat(struct fmt *f, const char *name, unsigned long v,
		   const struct xlat *t, const char *unknown, char base)
{
	fmt_str(f, name);
	p_xlat_as(f, v, t, unknown, base);
}

static void f_flags(struct fmt *f, const char *name, unsigned long v,
		    const struct xlat *t, const char *unknown)
{
	fmt_str(f, name);
	p_flags_unknown(f, v, t, unknown);
}

/* ", resv=[0x1, 0, 0]" of 64-bit reserved words, when any is set */
static void f_resv64(struct fmt *f, const char *name, const __u64 *r, int n)
{
	int i;

	for (i = 0; i < n && !r[i]; i++)
		;
	if (i == n)
		return;
	fmt_str(f, name);
	for (i = 0; i < n; i++) {
		fmt_str(f, i ? ", " : "[");
		p_hex(f, r[i]);
	}
	fmt_chr(f, ']');
}

static void e_fd(struct fmt *f, const void *e, void *s)
{
	int fd = *(const int *)e;

	fmt_dec(f, fd);
	p_fdpath(f, s, fd);
}

/* An update's descriptor: IORING_REGISTER_FILES_SKIP by name */
static void e_fd_update(struct fmt *f, const void *e, void *s)
{
	int fd = *(const int *)e;

	if (fd < -1)
		p_xlat_as(f, (unsigned long)(long)fd, &xl_uring_files_skip, 0,
			  'd');
	else
		e_fd(f, e, s);
}

static void e_hex64(struct fmt *f, const void *e, void *ctx)
{
	(void)ctx;
	p_hex(f, *(const __u64 *)e);
}

static void p_fds(struct call *c, unsigned long p, unsigned long n,
		  int update)
{
	p_array_ctx(c->f, c->s, p, n, sizeof(int), 0,
		    update ? e_fd_update : e_fd, c->s);
}

/* A ring's offsets: seven words named by names, then the reserved ones
 * (the same layout for both rings: checked below). */
static void p_ring_off(struct fmt *f, const char *names, const void *o)
{
	const struct io_sqring_offsets *sq = o;

	fmt_chr(f, '{');
	f_ints(f, names, o, 7, 'u');
	f_hex_set(f, ", resv1=", sq->resv1);
	f_hex_set(f, ", resv2=", sq->resv2);
	fmt_chr(f, '}');
}
_Static_assert(sizeof(struct io_sqring_offsets) ==
	       sizeof(struct io_cqring_offsets) &&
	       __builtin_offsetof(struct io_sqring_offsets, resv1) ==
	       __builtin_offsetof(struct io_cqring_offsets, resv1) &&
	       __builtin_offsetof(struct io_sqring_offsets, resv2) ==
	       __builtin_offsetof(struct io_cqring_offsets, resv2),
	       "io_uring's ring offsets differ in layout");

static void d_io_uring_setup(struct call *c)
{
	struct io_uring_params p;
	struct fmt *f = c->f;

	a_udec(c, (unsigned int)c->s->args[0]);
	if (fetch_arg(c, &p, c->s->args[1], sizeof(p), 0))
		return;
	f_flags(f, "{flags=", p.flags, &xl_uring_setup_flags,
		"IORING_SETUP_???");
	fmt_str(f, ", sq_thread_cpu=");
	p_hex(f, p.sq_thread_cpu);
	f_udec(f, ", sq_thread_idle=", p.sq_thread_idle);
	if (p.flags & IORING_SETUP_ATTACH_WQ) {
		/* (a __u32 in the header, a descriptor in fact) */
		f_dec(f, ", wq_fd=", (int)p.wq_fd);
		p_fdpath(f, c->s, (int)p.wq_fd);
	}
	p_reserved(f, "resv", p.resv, 3);
	if (c_ok(c)) {
		f_udec(f, ", sq_entries=", p.sq_entries);
		f_udec(f, ", cq_entries=", p.cq_entries);
		f_flags(f, ", features=", p.features, &xl_uring_setup_features,
			"IORING_FEAT_???");
		fmt_str(f, ", sq_off=");
		p_ring_off(f, "head tail ring_mask ring_entries flags dropped "
			   "array", &p.sq_off);
		fmt_str(f, ", cq_off=");
		p_ring_off(f, "head tail ring_mask ring_entries overflow cqes "
			   "flags", &p.cq_off);
	}
	fmt_chr(f, '}');
}

/* The ring's descriptor */
static void r_io_uring_setup(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

static void d_io_uring_enter(struct call *c)
{
	a_fd(c, 0);
	a_udec(c, (unsigned int)c->s->args[1]);
	a_udec(c, (unsigned int)c->s->args[2]);
	a_int_flags(c, (unsigned int)c->s->args[3], &xl_uring_enter_flags,
		    "IORING_ENTER_???");
	a_sigset(c, c->s->args[4], c->s->args[5]);
	a_udec(c, c->s->args[5]);
}

static void p_files_update(struct call *c, unsigned long p, unsigned int n)
{
	struct io_uring_files_update u;

	if (fetch(c->f, c->s, &u, p, sizeof(u)))
		return;
	f_udec(c->f, "{offset=", u.offset);
	f_hex_set(c->f, ", resv=", u.resv);
	fmt_str(c->f, ", fds=");
	p_fds(c, u.fds, n, 1);
	fmt_chr(c->f, '}');
}

/*
 * A probe: its ops as given (n of them), or as the kernel filled them
 * (no more than ops_len, "..." when it has more than n).
 */
static void p_probe(struct call *c, const struct io_uring_probe *pr,
		    unsigned int n, int filled)
{
	struct fmt *f = c->f;
	unsigned int i, max = trace_whole(c->s) ? n :
			      (unsigned int)trace_strsize;
	int more = filled && n < pr->ops_len;

	if (filled && pr->ops_len < n)
		n = pr->ops_len;
	f_xlat(f, "{last_op=", pr->last_op, &xl_uring_ops, "IORING_OP_???",
	       'u');
	f_udec(f, ", ops_len=", pr->ops_len);
	f_hex_set(f, ", resv=", pr->resv);
	p_reserved(f, "resv2", pr->resv2, 3);
	fmt_str(f, ", ops=[");
	for (i = 0; i < n && i < max; i++) {
		const struct io_uring_probe_op *op = &pr->ops[i];

		if (i)
			fmt_str(f, ", ");
		f_xlat(f, "{op=", op->op, &xl_uring_ops, "IORING_OP_???", 'u');
		f_hex_set(f, ", resv=", op->resv);
		f_flags(f, ", flags=", op->flags, &xl_uring_op_flags,
			"IO_URING_OP_???");
		f_hex_set(f, ", resv2=", op->resv2);
		fmt_chr(f, '}');
	}
	if (i < n || more)
		fmt_str(f, i ? ", ..." : "...");
	fmt_str(f, "]}");
}

#define PROBE_MAX 256
/* (the kernel takes no more ring descriptors, and two limits) */
#define GIVEN_MAX 16
union probe_buf {
	struct io_uring_probe pr;
	unsigned char b[sizeof(struct io_uring_probe) +
			PROBE_MAX * sizeof(struct io_uring_probe_op)];
};

static unsigned long probe_size(unsigned int n)
{
	return sizeof(struct io_uring_probe) +
	       n * sizeof(struct io_uring_probe_op);
}

/* At entry: whether a probe is shown as given (not all zero); the
 * limits and ring slots given, which the kernel replaces */
static void e_io_uring_register(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[1];
	unsigned int n = (unsigned int)c->s->args[3], *given;
	unsigned long i, size = probe_size(n);
	union {
		union probe_buf pr;
		struct io_uring_rsrc_update ring[GIVEN_MAX];
	} u;

	trace_saved(c)[0] = 0;
	if (n > PROBE_MAX)
		return;
	if (op == IORING_REGISTER_IOWQ_MAX_WORKERS ||
	    op == IORING_REGISTER_RING_FDS) {
		given = trace_scratch(c->s)->given;
		size = n * (op == IORING_REGISTER_RING_FDS ?
			    sizeof(u.ring[0]) : sizeof(int));
		if (n > GIVEN_MAX || trace_read(c->s, &u, (void *)c->s->args[2],
						size) != (long)size)
			return;
		for (i = 0; i < n; i++)
			given[i] = op == IORING_REGISTER_RING_FDS ?
				   u.ring[i].offset : ((unsigned int *)&u)[i];
		trace_saved(c)[0] = 1;
		return;
	}
	if (op != IORING_REGISTER_PROBE ||
	    trace_read(c->s, u.pr.b, (void *)c->s->args[2], size) !=
		    (long)size)
		return;
	for (i = 0; i < size && !u.pr.b[i]; i++)
		;
	trace_saved(c)[0] = i < size;
}

static void a_probe(struct call *c, unsigned long p, unsigned int n)
{
	unsigned long size = probe_size(n);
	int given = (int)trace_saved(c)[0];
	union probe_buf u;

	a_sep(c);
	if (n > PROBE_MAX || (!given && !c_ok(c))) {
		p_ptr(c->f, p);
		return;
	}
	if (fetch(c->f, c->s, u.b, p, size))
		return;
	if (given)
		p_probe(c, &u.pr, n, 0);
	if (!c_ok(c))
		return;
	if (given)
		fmt_str(c->f, " => ");
	p_probe(c, &u.pr, n, 1);
}

static void e_restriction(struct fmt *f, const void *e, void *ctx)
{
	const struct io_uring_restriction *r = e;

	(void)ctx;
	f_xlat(f, "{opcode=", r->opcode, &xl_uring_restrictions,
	       "IORING_RESTRICTION_???", 'x');
	switch (r->opcode) {
	case IORING_RESTRICTION_REGISTER_OP:
		f_xlat(f, ", register_op=", r->register_op,
		       &xl_uring_register_ops, "IORING_REGISTER_???", 'x');
		break;
	case IORING_RESTRICTION_SQE_OP:
		f_xlat(f, ", sqe_op=", r->sqe_op, &xl_uring_ops,
		       "IORING_OP_???", 'x');
		break;
	case IORING_RESTRICTION_SQE_FLAGS_ALLOWED:
	case IORING_RESTRICTION_SQE_FLAGS_REQUIRED:
		f_flags(f, ", sqe_flags=", r->sqe_flags, &xl_uring_sqe_flags,
			"IOSQE_???");
		break;
	default:
		/* (an opcode it does not know: its operand in a comment) */
		fmt_str(f, " /* op: ");
		p_hex(f, r->register_op);
		fmt_str(f, " */");
	}
	f_hex_set(f, ", resv=", r->resv);
	p_reserved(f, "resv2", r->resv2, 3);
	fmt_chr(f, '}');
}

/* A resource table's entries: descriptors (an update's may skip one)
 * or buffers */
static void p_rsrc_data(struct call *c, unsigned int op, __u64 data,
			unsigned int nr)
{
	fmt_str(c->f, ", data=");
	if (op == IORING_REGISTER_FILES2 || op == IORING_REGISTER_FILES_UPDATE2)
		p_fds(c, data, nr, op == IORING_REGISTER_FILES_UPDATE2);
	else
		put_iov(c->f, c->s, data, nr, IOV_ADDR);
}

static void p_rsrc_tags(struct call *c, __u64 tags, unsigned int nr)
{
	fmt_str(c->f, ", tags=");
	p_array_ctx(c->f, c->s, tags, nr, sizeof(__u64), 0, e_hex64, 0);
}

/* FILES2, BUFFERS2: the table; FILES_UPDATE2, BUFFERS_UPDATE: an update
 * of it.  size is the argument's (the kernel checks it). */
static void p_rsrc(struct call *c, unsigned int op, unsigned long p,
		   unsigned int size)
{
	union {
		struct io_uring_rsrc_register r;
		struct io_uring_rsrc_update2 u;
	} a;
	struct fmt *f = c->f;
	int update = op == IORING_REGISTER_FILES_UPDATE2 ||
		     op == IORING_REGISTER_BUFFERS_UPDATE;

	if (size < sizeof(a)) {
		p_ptr(f, p);
		return;
	}
	if (fetch(f, c->s, &a, p, sizeof(a)))
		return;
	if (update) {
		f_udec(f, "{offset=", a.u.offset);
		f_hex_set(f, ", resv=", a.u.resv);
		p_rsrc_data(c, op, a.u.data, a.u.nr);
		p_rsrc_tags(c, a.u.tags, a.u.nr);
		f_udec(f, ", nr=", a.u.nr);
		f_hex_set(f, ", resv2=", a.u.resv2);
	} else {
		f_udec(f, "{nr=", a.r.nr);
		f_flags(f, ", flags=", a.r.flags, &xl_uring_rsrc_flags,
			"IORING_RSRC_REGISTER_???");
		f_hex_set(f, ", resv2=", a.r.resv2);
		p_rsrc_data(c, op, a.r.data, a.r.nr);
		p_rsrc_tags(c, a.r.tags, a.r.nr);
	}
	p_nonzero_tail(f, c->s, p, sizeof(a), size < 4096 ? size : 4096,
		       ", ");
	fmt_chr(f, '}');
}

/* An array element's index, and the values given at entry (NULL:
 * the element's own) */
struct given_ctx {
	const struct sysgate_sys *s;
	unsigned int i;
	const unsigned int *given;
};

/* The values e_io_uring_register kept, if it could */
static struct given_ctx given_at_entry(struct call *c)
{
	struct given_ctx g = { c->s, 0, 0 };

	if (trace_saved(c)[0])
		g.given = trace_scratch(c->s)->given;
	return g;
}

/* The given value of the element ctx walks, or its own v */
static unsigned int given_or(void *ctx, unsigned int v)
{
	struct given_ctx *g = ctx;
	unsigned int i = g->i++;

	return g->given ? g->given[i] : v;
}

static void e_iowq_max(struct fmt *f, const void *e, void *ctx)
{
	unsigned int i = ((struct given_ctx *)ctx)->i;

	fmt_chr(f, '[');
	p_xlat_as(f, i, &xl_uring_iowq_acct, "IO_WQ_???", 'u');
	fmt_str(f, "]=");
	fmt_udec(f, given_or(ctx, *(const unsigned int *)e));
}

/* The limits of the worker pools, [[IO_WQ_BOUND]=0, ...]: the kernel
 * returns the previous ones in their place (after " => " when the
 * given ones were shown whole). */
static void p_iowq_max(struct call *c, unsigned long p, unsigned int n)
{
	struct given_ctx g = given_at_entry(c);
	int whole = p && n && (n <= (unsigned int)trace_strsize ||
			       trace_whole(c->s)) &&
		    trace_readable(c->s, p, n * sizeof(int));

	p_array_ctx(c->f, c->s, p, n, sizeof(int), 0, e_iowq_max, &g);
	if (!whole)
		return;
	fmt_str(c->f, " => ");
	g.i = 0;
	g.given = 0;
	p_array_ctx(c->f, c->s, p, n, sizeof(int), !c_ok(c), e_iowq_max, &g);
}

/* A descriptor to register in a ring slot: its offset as given (-1:
 * the first free slot; the kernel returns the one it took) */
static void e_ring_fd(struct fmt *f, const void *e, void *ctx)
{
	const struct io_uring_rsrc_update *u = e;
	unsigned int off = given_or(ctx, u->offset);

	if (off == -1U)
		f_dec(f, "{offset=", -1);
	else
		f_udec(f, "{offset=", off);
	f_hex_set(f, ", resv=", u->resv);
	fmt_str(f, ", data=");
	e_fd(f, &(int){ (int)u->data }, (void *)((struct given_ctx *)ctx)->s);
	fmt_chr(f, '}');
}

static void e_ring_fd_off(struct fmt *f, const void *e, void *ctx)
{
	const struct io_uring_rsrc_update *u = e;

	(void)ctx;
	f_udec(f, "{offset=", u->offset);
	f_hex_set(f, ", resv=", u->resv);
	f_hex_set(f, ", data=", u->data);
	fmt_chr(f, '}');
}

/* Ring descriptors to register, or their slots to unregister */
static void p_ring_fds(struct call *c, unsigned int op, unsigned long p,
		       unsigned int n)
{
	struct given_ctx g = given_at_entry(c);

	p_array_ctx(c->f, c->s, p, n, sizeof(struct io_uring_rsrc_update), 0,
		    op == IORING_REGISTER_RING_FDS ? e_ring_fd : e_ring_fd_off,
		    &g);
}

static void p_buf_reg(struct call *c, unsigned long p)
{
	struct io_uring_buf_reg r;
	struct fmt *f = c->f;

	if (fetch(f, c->s, &r, p, sizeof(r)))
		return;
	fmt_str(f, "{ring_addr=");
	p_ptr(f, r.ring_addr);
	f_udec(f, ", ring_entries=", r.ring_entries);
	f_udec(f, ", bgid=", r.bgid);
	f_hex_set(f, ", pad=", r.pad);
	f_resv64(f, ", resv=", r.resv, 3);
	fmt_chr(f, '}');
}

static void d_io_uring_register(struct call *c)
{
	unsigned int op = (unsigned int)c->s->args[1];
	unsigned int n = (unsigned int)c->s->args[3];
	unsigned long p = c->s->args[2];

	a_fd(c, 0);
	a_xlat(c, op, &xl_uring_register_ops, "IORING_REGISTER_???");
	if (op == IORING_REGISTER_PROBE) {
		a_probe(c, p, n);
		a_udec(c, n);
		return;
	}
	a_sep(c);
	switch (op) {
	case IORING_REGISTER_BUFFERS:
		put_iov(c->f, c->s, p, n, IOV_ADDR);
		break;
	case IORING_REGISTER_FILES:
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
		p_fds(c, p, n, 0);
		break;
	case IORING_REGISTER_FILES_UPDATE:
		p_files_update(c, p, n);
		break;
	case IORING_REGISTER_RESTRICTIONS:
		p_array_ctx(c->f, c->s, p, n,
			    sizeof(struct io_uring_restriction), 0,
			    e_restriction, 0);
		break;
	case IORING_REGISTER_FILES2:
	case IORING_REGISTER_BUFFERS2:
	case IORING_REGISTER_FILES_UPDATE2:
	case IORING_REGISTER_BUFFERS_UPDATE:
		p_rsrc(c, op, p, n);
		break;
	case IORING_REGISTER_IOWQ_AFF:
		p_cpus(c, p, n);
		break;
	case IORING_REGISTER_IOWQ_MAX_WORKERS:
		p_iowq_max(c, p, n);
		break;
	case IORING_REGISTER_RING_FDS:
	case IORING_UNREGISTER_RING_FDS:
		p_ring_fds(c, op, p, n);
		break;
	case IORING_REGISTER_PBUF_RING:
	case IORING_UNREGISTER_PBUF_RING:
		p_buf_reg(c, p);
		break;
	default:
		p_ptr(c->f, p);
	}
	a_udec(c, n);
}

const struct decoder dec_uring[] = {
	{ "io_uring_setup", d_io_uring_setup, r_io_uring_setup, 0 },
	{ "io_uring_enter", d_io_uring_enter, 0, 0 },
	{ "io_uring_register", d_io_uring_register, 0, e_io_uring_register },
	{ 0, 0, 0, 0 },
};
