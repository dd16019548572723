/* SPDX-License-Identifier: MIT */
/*
 * Control messages of sendmsg/recvmsg (msg_control), as strace prints
 * them: each header, its level and type by name, and the data of the
 * types strace decodes (descriptors, credentials, timestamps, IP packet
 * information, errors, addresses), from a table of types and printers.
 */
#include <netinet/in.h>
#include <sys/socket.h>
#include "trace.h"

/* (the kernel's: no uapi header has it) */
#define CMSG_SECURITY 3

enum {
	C_FDS,		/* [fd, ...] */
	C_CREDS,	/* {pid=, uid=, gid=} */
	C_STR,		/* the bytes, quoted */
	C_TV,		/* {tv_sec=, tv_usec=} */
	C_TS,		/* {tv_sec=, tv_nsec=} */
	C_TS3,		/* [{tv_sec=, tv_nsec=}, x3] */
	C_PKTINFO,	/* struct in_pktinfo */
	C_UINTS,	/* [u32, ...] */
	C_XBYTES,	/* [0x.., ...] */
	C_RECVERR,	/* struct sock_extended_err and the offender */
	C_SOCKADDR,	/* a socket address */
};

/* The types whose data strace prints, when there are min bytes of it */
static const struct {
	int level, type;
	unsigned char min, kind;
} printers[] = {
	{ SOL_SOCKET, SCM_RIGHTS, sizeof(int), C_FDS },
	{ SOL_SOCKET, SCM_CREDENTIALS, 12, C_CREDS },
	{ SOL_SOCKET, CMSG_SECURITY, 1, C_STR },
	{ SOL_SOCKET, SO_TIMESTAMP_OLD, 1, C_TV },
	{ SOL_SOCKET, SO_TIMESTAMPNS_OLD, 1, C_TS },
	{ SOL_SOCKET, SO_TIMESTAMPING_OLD, 1, C_TS3 },
	{ SOL_SOCKET, SO_TIMESTAMP_NEW, 1, C_TV },
	{ SOL_SOCKET, SO_TIMESTAMPNS_NEW, 1, C_TS },
	{ SOL_SOCKET, SO_TIMESTAMPING_NEW, 1, C_TS3 },
	{ SOL_IP, IP_PKTINFO, sizeof(struct in_pktinfo), C_PKTINFO },
	{ SOL_IP, IP_TTL, sizeof(int), C_UINTS },
	{ SOL_IP, IP_TOS, 1, C_XBYTES },
	{ SOL_IP, IP_RECVOPTS, 1, C_XBYTES },
	{ SOL_IP, IP_RETOPTS, 1, C_XBYTES },
	{ SOL_IP, IP_RECVERR, 32, C_RECVERR },
	{ SOL_IP, IP_ORIGDSTADDR, sizeof(struct sockaddr_in), C_SOCKADDR },
	{ SOL_IP, IP_CHECKSUM, sizeof(int), C_UINTS },
	{ SOL_IP, CMSG_SECURITY, 1, C_STR },
};

struct elem_ctx {
	const struct sysgate_sys *s;
};

static void p_fd_elem(struct fmt *f, const void *e, void *ctx)
{
	const struct elem_ctx *x = ctx;
	int fd = *(const int *)e;

	fmt_dec(f, fd);
	p_fdpath(f, x->s, fd);
}

static void p_xbyte_elem(struct fmt *f, const void *e, void *ctx)
{
	(void)ctx;
	p_hex(f, *(const unsigned char *)e);
}

/* -1 for an id of -1, else unsigned (strace's ids) */
static void p_id(struct fmt *f, unsigned int v)
{
	if (v == ~0U)
		fmt_str(f, "-1");
	else
		fmt_udec(f, v);
}

/* n bytes of type kind's data at p */
static void p_cmsg_data(struct fmt *f, const struct sysgate_sys *s,
			int kind, unsigned long p, unsigned long n)
{
	struct elem_ctx x = { s };
	unsigned long v[6];
	int i;

	switch (kind) {
	case C_FDS:
		p_array_ctx(f, s, p, n / sizeof(int), sizeof(int), 0,
			    p_fd_elem, &x);
		return;
	case C_UINTS:
		p_array_ctx(f, s, p, n / 4, 4, 0, p_u32_elem, &x);
		return;
	case C_XBYTES:
		p_array_ctx(f, s, p, n, 1, 0, p_xbyte_elem, &x);
		return;
	case C_STR:
		p_data(f, s, p, n, 0);
		return;
	case C_SOCKADDR:
		p_sockaddr(f, s, p, n);
		return;
	}
	if (n > sizeof(v))
		n = sizeof(v);
	hk_memset(v, 0, sizeof(v));
	if (sysgate_read_mem(s, v, (void *)p, n) != (long)n) {
		p_ptr(f, p);
		return;
	}
	switch (kind) {
	case C_CREDS:
		fmt_str(f, "{pid=");
		p_pid(f, ((const int *)v)[0], PT_TGID);
		fmt_str(f, ", uid=");
		p_id(f, ((const unsigned int *)v)[1]);
		fmt_str(f, ", gid=");
		p_id(f, ((const unsigned int *)v)[2]);
		fmt_chr(f, '}');
		return;
	case C_TV:
	case C_TS:
		if (n < 2 * sizeof(long)) {
			fmt_str(f, "???");
			return;
		}
		if (kind == C_TV)
			p_timeval(f, (long)v[0], (long)v[1]);
		else
			p_timespec(f, (long)v[0], (long)v[1]);
		return;
	case C_TS3:
		if (n < 6 * sizeof(long)) {
			fmt_str(f, "???");
			return;
		}
		for (i = 0; i < 3; i++) {
			fmt_str(f, i ? ", " : "[");
			p_timespec(f, (long)v[2 * i], (long)v[2 * i + 1]);
		}
		fmt_chr(f, ']');
		return;
	case C_PKTINFO: {
		const struct in_pktinfo *pi = (const void *)v;

		fmt_str(f, "{ipi_ifindex=");
		p_ifindex(f, (unsigned int)pi->ipi_ifindex);
		p_in_addr(f, "ipi_spec_dst", &pi->ipi_spec_dst, 4,
			  "inet_addr(", ")");
		p_in_addr(f, "ipi_addr", &pi->ipi_addr, 4, "inet_addr(", ")");
		fmt_chr(f, '}');
		return;
	}
	case C_RECVERR: {
		static const char *const names[] = {
			"{ee_errno=", ", ee_origin=", ", ee_type=",
			", ee_code=", ", ee_info=", ", ee_data=",
		};
		const unsigned char *b = (const void *)v;
		unsigned int u[6];

		u[0] = *(const unsigned int *)b;
		u[1] = b[4];
		u[2] = b[5];
		u[3] = b[6];
		u[4] = *(const unsigned int *)(b + 8);
		u[5] = *(const unsigned int *)(b + 12);
		for (i = 0; i < 6; i++)
			f_udec(f, names[i], u[i]);
		fmt_str(f, ", offender=");
		p_sockaddr(f, s, p + 16, sizeof(struct sockaddr_in));
		fmt_chr(f, '}');
		return;
	}
	}
}

/* The kernel's limit on control data (strace's: it reads no more) */
static unsigned long optmem_max(void)
{
	static long max;
	char b[32];
	long n, i, v = 0;

	if (max)
		return (unsigned long)max;
	n = trace_read_file("/proc/sys/net/core/optmem_max", b, sizeof(b));
	for (i = 0; i < n && b[i] >= '0' && b[i] <= '9'; i++)
		v = v * 10 + (b[i] - '0');
	max = v > 0 ? (v + 7) & ~7L : 8 * (2 * 1024 + 512);
	return (unsigned long)max;
}

/* Whether all n bytes at p can be read (strace reads them at once). */
static int readable(const struct sysgate_sys *s, unsigned long p,
		    unsigned long n)
{
	unsigned long at;
	char b;

	for (at = p; at < p + n; at = (at | 4095) + 1)
		if (sysgate_read_mem(s, &b, (void *)at, 1) != 1)
			return 0;
	return sysgate_read_mem(s, &b, (void *)(p + n - 1), 1) == 1;
}

void p_cmsgs(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	     unsigned long in_len)
{
	const unsigned long hsize = sizeof(struct cmsghdr);
	unsigned long len = in_len > optmem_max() ? optmem_max() : in_len;
	unsigned long left = len, off = 0;

	if (len < hsize || !readable(s, p, len)) {
		p_ptr(f, p);
		return;
	}
	fmt_chr(f, '[');
	while (left >= hsize) {
		struct cmsghdr h;
		unsigned long n, i;
		int kind = -1;

		sysgate_read_mem(s, &h, (void *)(p + off), hsize);
		if (off)
			fmt_str(f, ", ");
		f_udec(f, "{cmsg_len=", h.cmsg_len);
		fmt_str(f, ", cmsg_level=");
		p_xlat(f, (unsigned int)h.cmsg_level, &xl_sol_levels,
		       "SOL_???");
		fmt_str(f, ", cmsg_type=");
		n = h.cmsg_len > left ? left : h.cmsg_len;
		n = n > hsize ? n - hsize : 0;
		for (i = 0; i < sizeof(printers) / sizeof(printers[0]); i++)
			if (printers[i].level == h.cmsg_level &&
			    printers[i].type == h.cmsg_type && n >= printers[i].min)
				kind = printers[i].kind;
		if (h.cmsg_level == SOL_SOCKET)
			p_xlat(f, (unsigned int)h.cmsg_type, &xl_scm_types,
			       "SCM_???");
		else if (h.cmsg_level == SOL_IP)
			p_xlat(f, (unsigned int)h.cmsg_type, &xl_ip_cmsg_types,
			       "IP_???");
		else
			p_hex(f, (unsigned int)h.cmsg_type);
		if (kind >= 0 && (h.cmsg_level == SOL_SOCKET ||
				  h.cmsg_level == SOL_IP)) {
			fmt_str(f, ", cmsg_data=");
			p_cmsg_data(f, s, kind, p + off + hsize, n);
		}
		fmt_chr(f, '}');
		if ((h.cmsg_len > left ? left : h.cmsg_len) < hsize) {
			left -= hsize;
			break;
		}
		n = (h.cmsg_len + sizeof(long) - 1) & ~(sizeof(long) - 1);
		if (n >= left) {
			left = 0;
			break;
		}
		off += n;
		left -= n;
	}
	if (left) {
		fmt_str(f, ", ... /* ");
		fmt_hex(f, p + (len - left));
		fmt_str(f, " */");
	} else if (len < in_len) {
		fmt_str(f, ", ...");
	}
	fmt_chr(f, ']');
}
