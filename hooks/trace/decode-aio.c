/* SPDX-License-Identifier: MIT */
/*
 * Linux native AIO (libaio's io_setup, io_submit, io_getevents,
 * io_pgetevents, io_cancel, io_destroy) as strace prints it: contexts as
 * addresses, each control block by its command (a write's data, a
 * vector's iovecs, a poll's events; the priority, result descriptor and
 * flags when set), the events completed.
 */
#include <linux/aio_abi.h>
#include "trace.h"

/* What a command's block carries after its descriptor */
enum { SUB_NONE, SUB_COMMON, SUB_VECTOR, SUB_POLL };

/* {aio_data=..., aio_lio_opcode=..., aio_fildes=...: what every block
 * has; the command's kind of block */
static int p_iocb_head(struct fmt *f, const struct sysgate_sys *s,
		       const struct iocb *cb)
{
	static const unsigned char subs[] = {
		[IOCB_CMD_PREAD] = SUB_COMMON, [IOCB_CMD_PWRITE] = SUB_COMMON,
		[IOCB_CMD_POLL] = SUB_POLL, [IOCB_CMD_PREADV] = SUB_VECTOR,
		[IOCB_CMD_PWRITEV] = SUB_VECTOR,
	};

	fmt_str(f, "{aio_data=");
	p_hex(f, cb->aio_data);
	if (cb->aio_key)
		f_udec(f, ", aio_key=", cb->aio_key);
	if (cb->aio_rw_flags) {
		fmt_str(f, ", aio_rw_flags=");
		p_flags_unknown(f, (unsigned int)cb->aio_rw_flags,
				&xl_rwf_flags, "RWF_???");
	}
	fmt_str(f, ", aio_lio_opcode=");
	p_xlat_as(f, cb->aio_lio_opcode, &xl_aio_cmds, "IOCB_CMD_???", 'u');
	if (cb->aio_flags & IOCB_FLAG_IOPRIO) {
		fmt_str(f, ", aio_reqprio=");
		p_ioprio_value(f, (unsigned short)cb->aio_reqprio);
	} else if (cb->aio_reqprio) {
		f_dec(f, ", aio_reqprio=", cb->aio_reqprio);
	}
	f_dec(f, ", aio_fildes=", (int)cb->aio_fildes);
	p_fdpath(f, s, (int)cb->aio_fildes);
	return cb->aio_lio_opcode < sizeof(subs) ? subs[cb->aio_lio_opcode] :
						   SUB_NONE;
}

/* The flags and the descriptor to signal, when set */
static void p_iocb_flags(struct fmt *f, const struct sysgate_sys *s,
			 const struct iocb *cb)
{
	if (cb->aio_flags) {
		fmt_str(f, ", aio_flags=");
		p_flags_unknown(f, cb->aio_flags, &xl_aio_iocb_flags,
				"IOCB_FLAG_???");
	}
	if (cb->aio_flags & IOCB_FLAG_RESFD) {
		f_dec(f, ", aio_resfd=", (int)cb->aio_resfd);
		p_fdpath(f, s, (int)cb->aio_resfd);
	} else {
		f_hex_set(f, ", aio_resfd=", cb->aio_resfd);
	}
}

static void p_iocb(struct fmt *f, struct sysgate_sys *s,
		   const struct iocb *cb)
{
	int sub = p_iocb_head(f, s, cb);
	/* (a buffer and size the kernel would take) */
	int valid = (long long)cb->aio_nbytes >= 0;

	if (sub == SUB_COMMON) {
		fmt_str(f, ", aio_buf=");
		if (cb->aio_lio_opcode == IOCB_CMD_PWRITE && valid)
			p_data(f, s, cb->aio_buf, cb->aio_nbytes, 0);
		else
			p_hex(f, cb->aio_buf);
		f_udec(f, ", aio_nbytes=", cb->aio_nbytes);
	} else if (sub == SUB_VECTOR && valid) {
		fmt_str(f, ", aio_buf=");
		put_iov(f, s, cb->aio_buf, cb->aio_nbytes,
			cb->aio_lio_opcode == IOCB_CMD_PWRITEV ? -1 : IOV_ADDR);
	} else if (sub == SUB_VECTOR) {
		fmt_str(f, ", aio_buf=");
		p_hex(f, cb->aio_buf);
		f_udec(f, ", aio_nbytes=", cb->aio_nbytes);
	} else if (sub == SUB_POLL) {
		fmt_str(f, ", aio_buf=");
		p_flags_unknown(f, cb->aio_buf, &xl_poll_events, "POLL???");
	}
	if (sub == SUB_COMMON || sub == SUB_VECTOR)
		f_dec(f, ", aio_offset=", cb->aio_offset);
	if (sub != SUB_NONE)
		p_iocb_flags(f, s, cb);
	fmt_chr(f, '}');
}

/* An element of io_submit's array: the address of a block */
static void e_iocbp(struct fmt *f, const void *e, void *s)
{
	unsigned long p = *(const unsigned long *)e;
	struct iocb cb;

	if (!fetch(f, s, &cb, p, sizeof(cb)))
		p_iocb(f, s, &cb);
}

static void e_event(struct fmt *f, const void *e)
{
	const struct io_event *ev = e;

	fmt_str(f, "{data=");
	p_hex(f, ev->data);
	fmt_str(f, ", obj=");
	p_hex(f, ev->obj);
	f_dec(f, ", res=", ev->res);
	f_dec(f, ", res2=", ev->res2);
	fmt_chr(f, '}');
}

static void d_io_setup(struct call *c)
{
	unsigned long ctx;

	a_udec(c, (unsigned int)c->s->args[0]);
	if (!fetch_out(c, &ctx, c->s->args[1], sizeof(ctx))) {
		fmt_chr(c->f, '[');
		p_ptr(c->f, ctx);
		fmt_chr(c->f, ']');
	}
}

static void d_io_submit(struct call *c)
{
	long n = (long)c->s->args[1];

	a_ptr(c, c->s->args[0]);
	a_dec(c, n);
	a_sep(c);
	if (n < 0)
		p_ptr(c->f, c->s->args[2]);
	else
		p_array_ctx(c->f, c->s, c->s->args[2], (unsigned long)n,
			    sizeof(long), 0, e_iocbp, c->s);
}

static void d_io_cancel(struct call *c)
{
	struct iocb cb;
	struct io_event ev;

	a_ptr(c, c->s->args[0]);
	a_sep(c);
	if (!fetch(c->f, c->s, &cb, c->s->args[1], sizeof(cb))) {
		p_iocb_head(c->f, c->s, &cb);
		fmt_chr(c->f, '}');
	}
	if (!fetch_out(c, &ev, c->s->args[2], sizeof(ev)))
		e_event(c->f, &ev);
}

/* io_getevents and io_pgetevents (sig): the events completed; the
 * timeout (and the signal mask) as given, whatever the call returned */
static void p_getevents(struct call *c, int sig)
{
	unsigned long ev = c->s->args[3];

	a_ptr(c, c->s->args[0]);
	a_dec(c, (long)c->s->args[1]);
	a_dec(c, (long)c->s->args[2]);
	a_exit_next(c);
	if (!ev || !c_ok(c)) {
		a_ptr(c, ev);
	} else {
		a_sep(c);
		p_array(c, ev, c->s->ret, sizeof(struct io_event), 1, e_event);
	}
	a_timespec(c, c->s->args[4]);
	if (sig)
		a_kernel_sigset(c, c->s->args[5]);
}

static void d_io_getevents(struct call *c)
{
	p_getevents(c, 0);
}

static void d_io_pgetevents(struct call *c)
{
	p_getevents(c, 1);
}

static void d_io_destroy(struct call *c)
{
	a_ptr(c, c->s->args[0]);
}

const struct decoder dec_aio[] = {
	{ "io_setup", d_io_setup, 0, 0 },
	{ "io_destroy", d_io_destroy, 0, 0 },
	{ "io_submit", d_io_submit, 0, 0 },
	{ "io_cancel", d_io_cancel, 0, 0 },
	{ "io_getevents", d_io_getevents, 0, 0 },
	{ "io_pgetevents", d_io_pgetevents, 0, 0 },
	{ 0, 0, 0, 0 },
};
