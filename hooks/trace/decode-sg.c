/* SPDX-License-Identifier: MIT */
/*
 * SCSI generic's SG_IO as strace 6.1 prints it: the request's first int
 * says which structure follows ('S': sg_io_hdr, version 3; 'Q':
 * sg_io_v4), any other prints as [N].  strace shows the fields the
 * device reads at the call's entry and those it writes at its exit, the
 * data in between (a buffer in hex escapes, an iovec array as strace's
 * iovecs) where the direction says it goes: to the device at entry, from
 * it at exit, both with " => " between them.  Each line is written at
 * exit here, from the structure as it is then.
 */
#include <linux/bsg.h>
#include <scsi/sg.h>
#include "trace.h"

/* A buffer of len bytes at p, or count iovecs there holding len bytes */
static void p_sg_data(struct call *c, unsigned long p, unsigned long count,
		      unsigned long len)
{
	if (count)
		put_iov(c->f, c->s, p, count, (long)len);
	else
		p_data(c->f, c->s, p, len, 1);
}

/* A buffer the device filled: len less what was left (resid, when in
 * range) */
static unsigned long sg_got(unsigned long len, int resid)
{
	return resid > 0 && (unsigned long)resid <= len ? len - resid : len;
}

static void p_sg_v3(struct call *c, const struct sg_io_hdr *h)
{
	struct fmt *f = c->f;
	int dir = h->dxfer_direction;
	int in = dir == SG_DXFER_TO_DEV || dir == SG_DXFER_TO_FROM_DEV;
	int out = dir == SG_DXFER_FROM_DEV || dir == SG_DXFER_TO_FROM_DEV;

	fmt_str(f, "{interface_id='S', dxfer_direction=");
	p_xlat(f, (unsigned long)(long)dir, &xl_sg_dxfer_directions,
	       "SG_DXFER_???");
	f_udec(f, ", cmd_len=", h->cmd_len);
	fmt_str(f, ", cmdp=");
	p_data(f, c->s, (unsigned long)h->cmdp, h->cmd_len, 1);
	f_udec(f, ", mx_sb_len=", h->mx_sb_len);
	f_udec(f, ", iovec_count=", h->iovec_count);
	f_udec(f, ", dxfer_len=", h->dxfer_len);
	f_udec(f, ", timeout=", h->timeout);
	fmt_str(f, ", flags=");
	p_flags(f, h->flags, &xl_sg_io_flags, 0);
	if (in) {
		fmt_str(f, ", dxferp=");
		p_sg_data(c, (unsigned long)h->dxferp, h->iovec_count,
			  h->dxfer_len);
	}
	/* (both ways: only when something came back) */
	if (out && (!in || sg_got(h->dxfer_len, h->resid))) {
		fmt_str(f, in ? " => dxferp=" : ", dxferp=");
		p_sg_data(c, (unsigned long)h->dxferp, h->iovec_count,
			  sg_got(h->dxfer_len, h->resid));
	}
	f_hex(f, ", status=", h->status);
	f_hex(f, ", masked_status=", h->masked_status);
	f_hex(f, ", msg_status=", h->msg_status);
	f_udec(f, ", sb_len_wr=", h->sb_len_wr);
	fmt_str(f, ", sbp=");
	p_data(f, c->s, (unsigned long)h->sbp, h->sb_len_wr, 1);
	f_hex(f, ", host_status=", h->host_status);
	f_hex(f, ", driver_status=", h->driver_status);
	f_dec(f, ", resid=", h->resid);
	f_udec(f, ", duration=", h->duration);
	fmt_str(f, ", info=");
	p_flags(f, h->info, &xl_sg_io_info, 0);
	fmt_chr(f, '}');
}

static void p_sg_v4(struct call *c, const struct sg_io_v4 *h)
{
	struct fmt *f = c->f;

	fmt_str(f, "{guard='Q', protocol=");
	p_xlat(f, h->protocol, &xl_bsg_protocols, "BSG_PROTOCOL_???");
	fmt_str(f, ", subprotocol=");
	p_xlat(f, h->subprotocol, &xl_bsg_subprotocols,
	       "BSG_SUB_PROTOCOL_???");
	f_udec(f, ", request_len=", h->request_len);
	fmt_str(f, ", request=");
	p_data(f, c->s, h->request, h->request_len, 1);
	f_hex(f, ", request_tag=", h->request_tag);
	f_udec(f, ", request_attr=", h->request_attr);
	f_udec(f, ", request_priority=", h->request_priority);
	f_udec(f, ", request_extra=", h->request_extra);
	f_udec(f, ", max_response_len=", h->max_response_len);
	f_udec(f, ", dout_iovec_count=", h->dout_iovec_count);
	f_udec(f, ", dout_xfer_len=", h->dout_xfer_len);
	f_udec(f, ", din_iovec_count=", h->din_iovec_count);
	f_udec(f, ", din_xfer_len=", h->din_xfer_len);
	fmt_str(f, ", dout_xferp=");
	p_sg_data(c, h->dout_xferp, h->dout_iovec_count, h->dout_xfer_len);
	f_udec(f, ", timeout=", h->timeout);
	fmt_str(f, ", flags=");
	p_flags(f, h->flags, &xl_bsg_flags, 0);
	f_hex(f, ", usr_ptr=", h->usr_ptr);
	/* (at exit) */
	f_udec(f, ", response_len=", h->response_len);
	fmt_str(f, ", response=");
	p_data(f, c->s, h->response, h->response_len, 1);
	fmt_str(f, ", din_xferp=");
	p_sg_data(c, h->din_xferp, h->din_iovec_count,
		  sg_got(h->din_xfer_len, h->din_resid));
	f_hex(f, ", driver_status=", h->driver_status);
	f_hex(f, ", transport_status=", h->transport_status);
	f_hex(f, ", device_status=", h->device_status);
	f_udec(f, ", retry_delay=", h->retry_delay);
	fmt_str(f, ", info=");
	p_flags(f, h->info, &xl_sg_io_info, 0);
	f_udec(f, ", duration=", h->duration);
	f_udec(f, ", response_len=", h->response_len);
	f_dec(f, ", din_resid=", h->din_resid);
	f_dec(f, ", dout_resid=", h->dout_resid);
	f_hex(f, ", generated_tag=", h->generated_tag);
	fmt_chr(f, '}');
}

int ioctl_sg(struct call *c, unsigned int req, unsigned long arg)
{
	union {
		struct sg_io_hdr v3;
		struct sg_io_v4 v4;
	} u;
	unsigned long size;
	int id;

	if (req != SG_IO)
		return 0;
	p_named(c->f, "SG_IO", req, 'x');
	a_sep(c);
	if (fetch(c->f, c->s, &id, arg, sizeof(id)))
		return 1;
	if (id != 'S' && id != 'Q') {
		fmt_chr(c->f, '[');
		fmt_udec(c->f, (unsigned int)id);
		fmt_chr(c->f, ']');
		return 1;
	}
	size = id == 'S' ? sizeof(u.v3) : sizeof(u.v4);
	if (trace_read(c->s, &u, (void *)arg, size) != (long)size) {
		/* (the address of what follows the id) */
		fmt_str(c->f, id == 'S' ? "{interface_id='S', " :
					  "{guard='Q', ");
		p_ptr(c->f, arg + sizeof(id));
		fmt_chr(c->f, '}');
	} else if (id == 'S') {
		p_sg_v3(c, &u.v3);
	} else {
		p_sg_v4(c, &u.v4);
	}
	return 1;
}
