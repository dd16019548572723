/* SPDX-License-Identifier: MIT */
/*
 * TEE (trusted execution environment) devices' ioctls as strace 6.1
 * prints them, as given (the calls' results are not shown yet).  The
 * session calls pass a buffer {buf_len, buf_ptr}: its arguments and
 * parameters print only when buf_len is exactly what their number of
 * parameters makes, else buf_ptr in hex.  TEE_IOC_SHM_REGISTER_FD has
 * no name in strace's tables but its structure prints.
 */
#include <linux/ioctl.h>
#include <linux/tee.h>
#include "trace.h"

#define TEE_PARAM_SIZE 32
/* (newer headers' request: _IOWR(0xa4, 8, 32 bytes)) */
#define SHM_REGISTER_FD_ _IOC(_IOC_READ | _IOC_WRITE, TEE_IOC_MAGIC, 8, 32)

struct tee_param_ {
	unsigned long long attr, a, b, c;
};

static void p_tee_param(struct fmt *f, const struct tee_param_ *p)
{
	unsigned int type = p->attr & TEE_IOCTL_PARAM_ATTR_TYPE_MASK;

	fmt_str(f, "{attr=");
	p_xlat(f, type, &xl_tee_param_types, "TEE_IOCTL_PARAM_ATTR_TYPE_???");
	/* (strace writes the flag's name whatever -X says) */
	if (p->attr & TEE_IOCTL_PARAM_ATTR_META)
		fmt_str(f, "|TEE_IOCTL_PARAM_ATTR_META");
	if (p->attr & ~(unsigned long long)(TEE_IOCTL_PARAM_ATTR_TYPE_MASK |
					    TEE_IOCTL_PARAM_ATTR_META))
		f_hex(f, "|", p->attr & ~(unsigned long long)
				  (TEE_IOCTL_PARAM_ATTR_TYPE_MASK |
				   TEE_IOCTL_PARAM_ATTR_META));
	/* (a memory reference or nothing only with no flag set) */
	if (p->attr >= TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT &&
	    p->attr <= TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT) {
		f_hex(f, ", shm_offs=", p->a);
		f_hex(f, ", size=", p->b);
		f_udec(f, ", shm_id=", p->c);
	} else if (p->attr != TEE_IOCTL_PARAM_ATTR_TYPE_NONE) {
		f_hex(f, ", a=", p->a);
		f_hex(f, ", b=", p->b);
		f_hex(f, ", c=", p->c);
	}
	fmt_chr(f, '}');
}

/* 8f1e...: a UUID's 16 bytes in their usual groups */
static void p_uuid(struct fmt *f, const unsigned char *u)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			fmt_chr(f, '-');
		fmt_chr(f, hex[u[i] >> 4]);
		fmt_chr(f, hex[u[i] & 15]);
	}
}

/* OPEN_SESSION's fields up to num_params */
static void p_open_session(struct fmt *f, const unsigned char *b)
{
	const struct tee_ioctl_open_session_arg *o = (const void *)b;
	int i;

	fmt_str(f, "{uuid=");
	p_uuid(f, o->uuid);
	fmt_str(f, ", clnt_login=");
	p_xlat(f, o->clnt_login, &xl_tee_logins, "TEE_IOCTL_LOGIN_???");
	if (o->clnt_login == TEE_IOCTL_LOGIN_GROUP ||
	    o->clnt_login == TEE_IOCTL_LOGIN_GROUP_APPLICATION) {
		unsigned int gid;

		hk_memcpy(&gid, o->clnt_uuid, sizeof(gid));
		f_udec(f, ", clnt_uuid=", gid);
	} else if (!xlat_name(&xl_tee_logins, o->clnt_login)) {
		for (i = 0; i < 16; i++)
			f_hex(f, i ? ", " : ", clnt_uuid=[", o->clnt_uuid[i]);
		fmt_chr(f, ']');
	}
	f_udec(f, ", cancel_id=", o->cancel_id);
}

/* The session calls' {buf_len, buf_ptr}: hdr bytes of arguments before
 * the parameters, whose count is the u32 at num_at */
static void p_tee_buf(struct call *c, unsigned int req, unsigned long arg)
{
	struct tee_ioctl_buf_data d;
	unsigned char b[64 + 64 * TEE_PARAM_SIZE];
	unsigned long hdr = req == TEE_IOC_OPEN_SESSION ? 56 :
			    req == TEE_IOC_INVOKE ? 24 : 8;
	unsigned long num_at = hdr - 4, i;
	unsigned int n;
	struct fmt *f = c->f;

	if (fetch(f, c->s, &d, arg, sizeof(d)))
		return;
	f_udec(f, "{buf_len=", d.buf_len);
	fmt_str(f, ", buf_ptr=");
	if (d.buf_len < hdr || d.buf_len > sizeof(b) ||
	    trace_read(c->s, b, (void *)(unsigned long)d.buf_ptr,
		       d.buf_len) != (long)d.buf_len ||
	    (hk_memcpy(&n, b + num_at, 4),
	     d.buf_len != hdr + (unsigned long)n * TEE_PARAM_SIZE)) {
		p_hex(f, d.buf_ptr);
		fmt_chr(f, '}');
		return;
	}
	if (req == TEE_IOC_OPEN_SESSION) {
		p_open_session(f, b);
	} else if (req == TEE_IOC_INVOKE) {
		const struct tee_ioctl_invoke_arg *v = (const void *)b;

		f_udec(f, "{func=", v->func);
		f_hex(f, ", session=", v->session);
		f_udec(f, ", cancel_id=", v->cancel_id);
	} else if (req == TEE_IOC_SUPPL_RECV) {
		f_udec(f, "{func=", *(const unsigned int *)b);
	} else {
		fmt_chr(f, '{');
	}
	f_udec(f, req == TEE_IOC_SUPPL_SEND ? "num_params=" : ", num_params=",
	       n);
	fmt_str(f, ", params=[");
	for (i = 0; i < n; i++) {
		struct tee_param_ p;

		hk_memcpy(&p, b + hdr + i * TEE_PARAM_SIZE, sizeof(p));
		if (i)
			fmt_str(f, ", ");
		p_tee_param(f, &p);
	}
	fmt_str(f, "]}}");
}

static void p_tee_struct(struct call *c, unsigned int req, unsigned long arg)
{
	union {
		struct tee_ioctl_cancel_arg cancel;
		struct tee_ioctl_close_session_arg close;
		struct tee_ioctl_shm_alloc_data alloc;
		struct tee_ioctl_shm_register_data reg;
		struct {
			long long fd;
			unsigned long long size;
			unsigned int flags;
		} reg_fd;
	} u;
	unsigned long size = req == TEE_IOC_CANCEL ? sizeof(u.cancel) :
			     req == TEE_IOC_CLOSE_SESSION ? sizeof(u.close) :
			     req == TEE_IOC_SHM_ALLOC ? sizeof(u.alloc) :
			     req == TEE_IOC_SHM_REGISTER ? sizeof(u.reg) :
							   sizeof(u.reg_fd);
	struct fmt *f = c->f;

	if (fetch(f, c->s, &u, arg, size))
		return;
	if (req == TEE_IOC_CANCEL) {
		f_udec(f, "{cancel_id=", u.cancel.cancel_id);
		f_hex(f, ", session=", u.cancel.session);
	} else if (req == TEE_IOC_CLOSE_SESSION) {
		f_hex(f, "{session=", u.close.session);
	} else if (req == TEE_IOC_SHM_ALLOC) {
		f_hex(f, "{size=", u.alloc.size);
		fmt_str(f, ", flags=");
		p_flags(f, u.alloc.flags, &xl_tee_shm_flags, 0);
	} else if (req == TEE_IOC_SHM_REGISTER) {
		f_hex(f, "{addr=", u.reg.addr);
		f_hex(f, ", length=", u.reg.length);
		fmt_str(f, ", flags=");
		p_flags(f, u.reg.flags, &xl_tee_shm_flags, 0);
	} else {
		f_dec(f, "{fd=", u.reg_fd.fd);
		p_fdpath(f, c->s, (int)u.reg_fd.fd);
		fmt_str(f, ", flags=");
		p_flags(f, u.reg_fd.flags, &xl_tee_shm_flags, 0);
	}
	fmt_chr(f, '}');
}

int ioctl_tee(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm = xlat_name(&xl_ioctl_tee, req);

	if (!nm && req != SHM_REGISTER_FD_)
		return 0;
	if (nm)
		p_named(c->f, nm, req, 'x');
	else
		p_ioc(c->f, req);
	if (req == TEE_IOC_VERSION) {
		a_ptr(c, arg);	/* (its result: not decoded yet) */
		return 1;
	}
	a_sep(c);
	if (req == TEE_IOC_OPEN_SESSION || req == TEE_IOC_INVOKE ||
	    req == TEE_IOC_SUPPL_RECV || req == TEE_IOC_SUPPL_SEND)
		p_tee_buf(c, req, arg);
	else
		p_tee_struct(c, req, arg);
	return 1;
}
