/* SPDX-License-Identifier: MIT */
/*
 * Network: socket domains, types and protocols, socket addresses (inet,
 * inet6, unix, netlink), socket options, message headers, shutdown.
 */
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "trace.h"

static void p_socktype(struct fmt *f, unsigned long v)
{
	unsigned long fl = v & ~0xfUL;

	p_xlat(f, v & 0xf, &xl_sock_types, "SOCK_???");
	if (fl) {
		fmt_chr(f, '|');
		p_flags(f, fl, &xl_sock_flags, 0);
	}
}

static void p_proto(struct fmt *f, int domain, unsigned long proto)
{
	if (domain == AF_INET || domain == AF_INET6)
		p_xlat(f, proto, &xl_ipprotos, "IPPROTO_???");
	else if (domain == AF_NETLINK)
		p_xlat(f, proto, &xl_netlink_protos, "NETLINK_???");
	else
		fmt_udec(f, proto);
}

static void d_socket(struct call *c)
{
	int dom = (int)c->s->args[0];

	a_xlat(c, dom, &xl_families, "AF_???");
	a_sep(c);
	p_socktype(c->f, c->s->args[1]);
	a_sep(c);
	p_proto(c->f, dom, (unsigned int)c->s->args[2]);
}

static void d_socketpair(struct call *c)
{
	d_socket(c);
	p_fdpair(c, c->s->args[3]);
}

/* 127.0.0.1 from 4 bytes */
void p_inet4(struct fmt *f, const unsigned char *a)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (i)
			fmt_chr(f, '.');
		fmt_udec(f, a[i]);
	}
}

/* The shortest text form of an IPv6 address (RFC 5952). */
void p_inet6(struct fmt *f, const unsigned char *a)
{
	static const char hx[] = "0123456789abcdef";
	int best = -1, bestlen = 0, i, j;

	for (i = 0; i < 8; i++) {
		for (j = i; j < 8 && !a[2 * j] && !a[2 * j + 1]; j++)
			;
		if (j - i > bestlen && j - i >= 2) {
			best = i;
			bestlen = j - i;
		}
	}
	for (i = 0; i < 8; i++) {
		unsigned v = a[2 * i] << 8 | a[2 * i + 1];
		int k, started = 0;

		if (i == best) {
			fmt_str(f, "::");
			i += bestlen - 1;
			continue;
		}
		if (i && i != best + bestlen)
			fmt_chr(f, ':');
		if (i == 6 && best == 0 && (bestlen == 6 ||
		    (bestlen == 5 && a[10] == 0xff && a[11] == 0xff))) {
			/* ::ffff:1.2.3.4 */
			p_inet4(f, a + 12);
			return;
		}
		for (k = 12; k >= 0; k -= 4) {
			unsigned d = v >> k & 15;

			if (d || started || !k) {
				fmt_chr(f, hx[d]);
				started = 1;
			}
		}
	}
}

static unsigned short ntohs_(unsigned short v)
{
	return (unsigned short)(v >> 8 | v << 8);
}

/* ", NAME=" and an address field: htons(80) as strace abbreviates it;
 * under -X its bytes "\x00\x50", with that in a comment (verbose).
 * Without a name, the value alone (a netlink attribute's). */
void p_in_field(struct fmt *f, const char *name, const void *bytes, int n,
		char *text, size_t len)
{
	/* (inet_pton's text names the field itself) */
	int pton = name && text[0] == 'i' && text[5] == 'p';

	if (name)
		fmt_str(f, ", ");
	if (trace_xstyle == XS_ABBREV) {
		if (name && !pton) {
			fmt_str(f, name);
			fmt_chr(f, '=');
		}
		fmt_mem(f, text, len);
		return;
	}
	if (name) {
		fmt_str(f, name);
		fmt_chr(f, '=');
	}
	p_hex_bytes(f, bytes, (unsigned long)n);
	if (trace_xstyle != XS_VERBOSE)
		return;
	fmt_str(f, " /* ");
	/* inet_pton(AF_INET6, "::1", &sin6_addr): the comment has no
	 * third argument (", &" and the name) */
	if (pton)
		len -= hk_strlen(", &") + hk_strlen(name), text[len - 1] = ')';
	fmt_mem(f, text, len);
	fmt_str(f, " */");
}

/* htons(80), htonl(0): an n-byte number field. */
static void p_in_number(struct fmt *f, const char *name, const void *bytes,
			int n, const char *fn, unsigned long v)
{
	char text[32];
	struct fmt t;

	fmt_init(&t, text, sizeof(text));
	fmt_str(&t, fn);
	fmt_udec(&t, v);
	fmt_chr(&t, ')');
	p_in_field(f, name, bytes, n, text, t.len);
}

void p_in_addr(struct fmt *f, const char *name, const void *bytes,
		      int n, const char *head, const char *tail)
{
	p_in_addr_sized(f, name, bytes, n, n, head, tail);
}

void p_in_addr_sized(struct fmt *f, const char *name, const void *bytes,
		     int n, int size, const char *head, const char *tail)
{
	char text[256], addr[64];
	struct fmt t, a;

	fmt_init(&a, addr, sizeof(addr) - 1);
	if (n == 4)
		p_inet4(&a, bytes);
	else
		p_inet6(&a, bytes);
	addr[a.len] = 0;
	fmt_init(&t, text, sizeof(text));
	fmt_str(&t, head);
	/* (not cut at -s) */
	p_cstring(&t, addr, a.len + 1);
	fmt_str(&t, tail);
	p_in_field(f, name, bytes, size, text, t.len);
}

void p_sa_inet(struct fmt *f, const void *sa, unsigned long len)
{
	const struct sockaddr_in *in = sa;
	const struct sockaddr_in6 *in6 = sa;
	const unsigned char *a6 = in6->sin6_addr.s6_addr;

	if (in->sin_family == AF_INET) {
		p_in_number(f, "sin_port", &in->sin_port, 2, "htons(",
			    ntohs_(in->sin_port));
		p_in_addr(f, "sin_addr", &in->sin_addr, 4, "inet_addr(", ")");
		return;
	}
	p_in_number(f, "sin6_port", &in6->sin6_port, 2, "htons(",
		    ntohs_(in6->sin6_port));
	p_in_number(f, "sin6_flowinfo", &in6->sin6_flowinfo, 4, "htonl(",
		    __builtin_bswap32(in6->sin6_flowinfo));
	p_in_addr(f, "sin6_addr", &in6->sin6_addr, 16, "inet_pton(AF_INET6, ",
		  ", &sin6_addr)");
	/* (RFC 2133's 24-byte form has no scope; a link-local address's
	 * is an interface) */
	if (len <= 24)
		return;
	fmt_str(f, ", sin6_scope_id=");
	if ((a6[0] == 0xfe && (a6[1] & 0xc0) == 0x80) ||
	    (a6[0] == 0xff && (a6[1] & 0xf) == 2))
		p_ifindex(f, in6->sin6_scope_id);
	else
		fmt_udec(f, in6->sin6_scope_id);
}

void p_sockaddr(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		unsigned long len)
{
	union {
		struct sockaddr sa;
		struct sockaddr_un un;
		struct sockaddr_nl nl;
		unsigned char raw[129];
	} u;

	if (!p) {
		fmt_str(f, "NULL");
		return;
	}
	/* (struct sockaddr_storage's) */
	if (len > 128)
		len = 128;
	if (len < 2 || fetch(f, s, &u, p, len)) {
		if (len < 2)
			fmt_hex(f, p);
		return;
	}
	hk_memset(u.raw + len, 0, sizeof(u) - len);
	fmt_str(f, "{sa_family=");
	p_xlat(f, u.sa.sa_family, &xl_families, "AF_???");
	switch (u.sa.sa_family) {
	case AF_INET:
	case AF_INET6:
		/* (shorter than the family's address: its bytes) */
		if (len < (u.sa.sa_family == AF_INET ? 16UL : 24UL))
			break;
		p_sa_inet(f, &u, len);
		fmt_chr(f, '}');
		return;
	case AF_UNIX: {
		unsigned long n = len > 2 ? len - 2 : 0, k;

		if (n > sizeof(u.un.sun_path))
			n = sizeof(u.un.sun_path);
		if (!n) {
			fmt_chr(f, '}');
			return;
		}
		fmt_str(f, ", sun_path=");
		/* (never cut at -s, as strace) */
		if (!u.un.sun_path[0]) {
			/* abstract: every byte counts */
			fmt_chr(f, '@');
			p_quoted(f, (unsigned char *)u.un.sun_path + 1, n - 1);
		} else {
			for (k = 0; k < n && u.un.sun_path[k]; k++)
				;
			p_quoted(f, (unsigned char *)u.un.sun_path, k);
		}
		fmt_chr(f, '}');
		return;
	}
	case AF_NETLINK:
		if (len < sizeof(u.nl))
			break;
		f_hex_set(f, ", nl_pad=", u.nl.nl_pad);
		fmt_str(f, ", nl_pid=");
		p_pid(f, (int)u.nl.nl_pid, PT_TGID);
		fmt_str(f, ", nl_groups=");
		p_hex0(f, u.nl.nl_groups, 8);
		fmt_chr(f, '}');
		return;
	default:
		if (len > 2 && p_sockaddr_other(f, s, u.raw, len)) {
			fmt_chr(f, '}');
			return;
		}
	}
	if (len > 2) {
		/* (never cut at -s) */
		fmt_str(f, ", sa_data=");
		p_quoted(f, u.raw + 2, len - 2);
	}
	fmt_chr(f, '}');
}

/* bind, connect: fd, address, length */
static void d_addr_in(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_sockaddr(c->f, c->s, c->s->args[1], c->s->args[2]);
	a_udec(c, (unsigned int)c->s->args[2]);
}

/* The socklen an address-returning call gets: kept at entry so the
 * line can show [in => out] as strace does (an address's only when
 * there is an address to fill: addr, the argument before it). */
static void e_save_len(struct call *c, int i, int addr)
{
	unsigned int v = 0;

	trace_saved(c)[0] = ~0UL;
	if ((!addr || c->s->args[i - 1]) && c->s->args[i] &&
	    trace_read(c->s, &v, (void *)c->s->args[i], sizeof(v)) ==
		    sizeof(v))
		trace_saved(c)[0] = v;
}

static void e_len2(struct call *c)
{
	e_save_len(c, 2, 1);
}

static void e_len5(struct call *c)
{
	e_save_len(c, 5, 1);
}

static void e_len4(struct call *c)
{
	e_save_len(c, 4, 0);
}

/* address out, [len] in and out (ints); a failed call's [len] as given */
static void a_addr_out(struct call *c, unsigned long p, unsigned long lenp)
{
	unsigned int out = 0;
	unsigned long in = trace_saved(c)[0];

	a_sep(c);
	if (in == ~0UL) {
		p_ptr(c->f, p);
		a_ptr(c, lenp);
		return;
	}
	if (!c_ok(c) ||
	    trace_read(c->s, &out, (void *)lenp, sizeof(out)) !=
		    sizeof(out)) {
		p_ptr(c->f, p);
		a_sep(c);
		fmt_chr(c->f, '[');
		fmt_dec(c->f, (int)in);
		fmt_chr(c->f, ']');
		return;
	}
	p_sockaddr(c->f, c->s, p, out < in ? out : in);
	a_sep(c);
	fmt_chr(c->f, '[');
	if (in != out) {
		fmt_dec(c->f, (int)in);
		fmt_str(c->f, " => ");
	}
	fmt_dec(c->f, (int)out);
	fmt_chr(c->f, ']');
}

static void d_getsockname(struct call *c)
{
	a_fd(c, 0);
	a_addr_out(c, c->s->args[1], c->s->args[2]);
}

static void d_accept4(struct call *c)
{
	d_getsockname(c);
	if (sysgate_syscall_nargs(c->s->nr) > 3)
		a_flags(c, c->s->args[3], &xl_sock_flags, 0);
}

static void a_msgflags(struct call *c, unsigned long v)
{
	a_flags(c, (unsigned int)v, &xl_msg_flags, 0);
}

static void d_sendto(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_sockbuf(c->f, c->s, (int)c->s->args[0], c->s->args[1],
		  c->s->args[2]);
	a_udec(c, c->s->args[2]);
	a_msgflags(c, c->s->args[3]);
	a_sep(c);
	p_sockaddr(c->f, c->s, c->s->args[4], c->s->args[5]);
	a_udec(c, (unsigned int)c->s->args[5]);
}

static void d_recvfrom(struct call *c)
{
	a_fd(c, 0);
	/* (MSG_TRUNC: the datagram's length, more than the buffer) */
	if (a_out(c, c->s->args[1]))
		p_sockbuf(c->f, c->s, (int)c->s->args[0], c->s->args[1],
			  (unsigned long)c->s->ret < (unsigned long)c->s->args[2] ?
				  (unsigned long)c->s->ret :
				  (unsigned long)c->s->args[2]);
	a_udec(c, c->s->args[2]);
	a_msgflags(c, c->s->args[3]);
	a_addr_out(c, c->s->args[4], c->s->args[5]);
}

static const struct xlat *sockopt_names(int level)
{
	switch (level) {
	case SOL_SOCKET: return &xl_so_names;
	case IPPROTO_TCP: return &xl_tcp_names;
	case IPPROTO_IP: return &xl_ip_names;
	case IPPROTO_IPV6: return &xl_ipv6_names;
	case SOL_NETLINK: return &xl_netlink_sockopts;
	case SOL_PACKET: return &xl_packet_sockopts;
	case SOL_RAW: return &xl_raw_sockopts;
	}
	return 0;
}

/* get: getsockopt's, whose SO_ATTACH_FILTER is SO_GET_FILTER */
static void a_level_name(struct call *c, int get)
{
	int level = (int)c->s->args[1];
	const struct xlat *t = sockopt_names(level);

	a_xlat(c, (unsigned int)level, &xl_sol_levels, "SOL_???");
	a_sep(c);
	if (get && level == SOL_SOCKET &&
	    (unsigned int)c->s->args[2] == SO_ATTACH_FILTER)
		p_named(c->f, "SO_GET_FILTER", SO_ATTACH_FILTER, 'x');
	else if (t)
		p_xlat(c->f, (unsigned int)c->s->args[2], t,
		       level == SOL_SOCKET ? "SO_???" :
		       level == IPPROTO_TCP ? "TCP_???" :
		       level == SOL_NETLINK ? "NETLINK_???" :
		       level == SOL_PACKET ? "PACKET_???" :
		       level == SOL_RAW ? "ICMP_???" :
		       level == IPPROTO_IP ? "IP_???" : "IPV6_???");
	else
		fmt_udec(c->f, (unsigned int)c->s->args[2]);
}

/* An option value: [int] when it is one, else the bytes. */
static void p_optval(struct fmt *f, const struct sysgate_sys *s,
		     unsigned long p, unsigned long len)
{
	int v;

	if (len == sizeof(int)) {
		if (fetch(f, s, &v, p, sizeof(v)))
			return;
		fmt_chr(f, '[');
		fmt_dec(f, v);
		fmt_chr(f, ']');
		return;
	}
	p_data(f, s, p, len, 0);
}

/* An int-valued SOL_SOCKET option (name); SO_TXREHASH's has names */
static int so_int(int level, int name)
{
	return level == SOL_SOCKET &&
	       (xlat_name(&xl_so_int_options, name) || name == SO_TXREHASH);
}

/* [int], SO_TXREHASH's by name (strace's decimal for others) */
static void p_int_opt(struct fmt *f, const struct sysgate_sys *s,
		      unsigned long p, int name)
{
	const char *nm;
	int v;

	if (fetch(f, s, &v, p, sizeof(v)))
		return;
	fmt_chr(f, '[');
	nm = name == SO_TXREHASH ? xlat_name(&xl_sock_txrehash,
					     (unsigned int)v) : 0;
	if (nm) {
		p_named(f, nm, v, 'd');
	} else {
		fmt_dec(f, v);
		if (name == SO_TXREHASH && trace_xstyle != XS_RAW)
			fmt_str(f, " /* SOCK_TXREHASH_??? */");
	}
	fmt_chr(f, ']');
}

/* SOL_SOCKET options whose value is a classic BPF program */
static int is_filter(int level, int name)
{
	return level == SOL_SOCKET && (name == SO_ATTACH_FILTER ||
				       name == SO_ATTACH_REUSEPORT_CBPF);
}

/* A structure of n ints as far as len goes (strace's
 * MAYBE_PRINT_FIELD_LEN): a field cut short shows as its bytes;
 * SO_PEERCRED's {pid=..., uid=..., gid=...} (FIELDS_PID: its first is
 * one), PACKET_STATISTICS' (unsigned), SO_LINGER's (FIELDS_SIGNED) */
#define FIELDS_PID 1
#define FIELDS_SIGNED 2
static void p_uint_fields(struct fmt *f, const struct sysgate_sys *s,
			  unsigned long p, unsigned long len,
			  const char *const *names, unsigned long n, int how)
{
	unsigned int v[4];
	unsigned long i;

	if (len > n * 4)
		len = n * 4;
	if (!len || fetch(f, s, v, p, len))
		return;
	fmt_chr(f, '{');
	for (i = 0; i < n && i * 4 < len; i++) {
		if (i)
			fmt_str(f, ", ");
		fmt_str(f, names[i]);
		if (len < (i + 1) * 4)
			p_hex_bytes(f, (const unsigned char *)&v[i],
				    len - i * 4);
		else if (!i && how == FIELDS_PID)
			p_pid(f, (int)v[0], PT_TGID);
		else if (how == FIELDS_SIGNED)
			fmt_dec(f, (int)v[i]);
		else
			fmt_udec(f, v[i]);
	}
	fmt_chr(f, '}');
}

static void p_peercred(struct fmt *f, const struct sysgate_sys *s,
		       unsigned long p, unsigned long len)
{
	static const char *const names[] = { "pid=", "uid=", "gid=" };

	p_uint_fields(f, s, p, len, names, 3, FIELDS_PID);
}

static const char *const linger_names[] = { "l_onoff=", "l_linger=" };

void p_mac(struct fmt *f, const unsigned char *a, unsigned int n)
{
	p_hwaddr(f, a, n, n);
}

void p_hwaddr(struct fmt *f, const unsigned char *a, unsigned int size,
	      unsigned int n)
{
	unsigned int i;

	if (trace_xstyle != XS_ABBREV)
		p_hex_bytes(f, a, size);
	if (trace_xstyle == XS_RAW)
		return;
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(f, " /* ");
	for (i = 0; i < n; i++) {
		if (i)
			fmt_chr(f, ':');
		fmt_chr(f, "0123456789abcdef"[a[i] >> 4]);
		fmt_chr(f, "0123456789abcdef"[a[i] & 15]);
	}
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(f, " */");
}

/* An option's structure, which strace reads only when len is its size:
 * 0, or its address printed and -1 */
static int fetch_sized(struct fmt *f, const struct sysgate_sys *s, void *dst,
		       unsigned long p, int len, size_t size)
{
	if (len == (int)size && trace_read(s, dst, (void *)p, size) ==
				       (long)size)
		return 0;
	p_ptr(f, p);
	return -1;
}

/* SOL_PACKET's PACKET_ADD/DROP_MEMBERSHIP value */
static void p_packet_mreq(struct fmt *f, const struct sysgate_sys *s,
			  unsigned long p, int len)
{
	struct packet_mreq m;

	if (fetch_sized(f, s, &m, p, len, sizeof(m)))
		return;
	fmt_str(f, "{mr_ifindex=");
	p_ifindex(f, (unsigned int)m.mr_ifindex);
	fmt_str(f, ", mr_type=");
	p_xlat(f, m.mr_type, &xl_packet_mr_types, "PACKET_MR_???");
	f_udec(f, ", mr_alen=", m.mr_alen);
	fmt_str(f, ", mr_address=");
	p_mac(f, m.mr_address, m.mr_alen < sizeof(m.mr_address) ?
				       m.mr_alen : sizeof(m.mr_address));
	fmt_chr(f, '}');
}

/* SOL_PACKET's PACKET_RX/TX_RING value */
static void p_tpacket_req(struct fmt *f, const struct sysgate_sys *s,
			  unsigned long p, int len)
{
	struct tpacket_req r;

	if (fetch_sized(f, s, &r, p, len, sizeof(r)))
		return;
	f_udec(f, "{tp_block_size=", r.tp_block_size);
	f_udec(f, ", tp_block_nr=", r.tp_block_nr);
	f_udec(f, ", tp_frame_size=", r.tp_frame_size);
	f_udec(f, ", tp_frame_nr=", r.tp_frame_nr);
	fmt_chr(f, '}');
}

/* p_in_addr of a structure's first field: without the ", " */
static void p_in_addr_first(struct fmt *f, const char *name, const void *bytes,
			    int n, const char *head, const char *tail)
{
	char text[256];
	struct fmt t;

	fmt_init(&t, text, sizeof(text));
	p_in_addr(&t, name, bytes, n, head, tail);
	fmt_mem(f, text + 2, t.len - 2);
}

/* IP_ADD/DROP_MEMBERSHIP's struct ip_mreq, IPV6_ADD/DROP_MEMBERSHIP's
 * and IPV6_JOIN/LEAVE_ANYCAST's struct ipv6_mreq, MCAST_JOIN/LEAVE_GROUP's
 * struct group_req: its address when len is shorter (strace reads the
 * structure's size of a longer one) */
static int p_mreq(struct fmt *f, const struct sysgate_sys *s, int level,
		  int name, unsigned long p, int len)
{
	union {
		struct ip_mreq v4;
		struct ipv6_mreq v6;
		struct group_req g;
	} u;
	int size;

	if (name == MCAST_JOIN_GROUP || name == MCAST_LEAVE_GROUP)
		size = sizeof(u.g);
	else if (level == SOL_IP && (name == IP_ADD_MEMBERSHIP ||
				     name == IP_DROP_MEMBERSHIP))
		size = sizeof(u.v4);
	else if (level == SOL_IPV6 && (name == IPV6_ADD_MEMBERSHIP ||
				       name == IPV6_DROP_MEMBERSHIP ||
				       name == IPV6_JOIN_ANYCAST ||
				       name == IPV6_LEAVE_ANYCAST))
		size = sizeof(u.v6);
	else
		return 0;
	if (len < size) {
		p_ptr(f, p);
		return 1;
	}
	if (fetch(f, s, &u, p, (unsigned long)size))
		return 1;
	if (size == sizeof(u.g)) {
		fmt_str(f, "{gr_interface=");
		p_ifindex(f, u.g.gr_interface);
		fmt_str(f, ", gr_group=");
		p_sockaddr(f, (struct sysgate_sys *)s,
			   p + __builtin_offsetof(struct group_req, gr_group),
			   sizeof(u.g.gr_group));
	} else if (size == sizeof(u.v4)) {
		fmt_chr(f, '{');
		p_in_addr_first(f, "imr_multiaddr", &u.v4.imr_multiaddr, 4,
				"inet_addr(", ")");
		p_in_addr(f, "imr_interface", &u.v4.imr_interface, 4,
			  "inet_addr(", ")");
	} else {
		fmt_chr(f, '{');
		p_in_addr_first(f, "ipv6mr_multiaddr", &u.v6.ipv6mr_multiaddr,
				16, "inet_pton(AF_INET6, ",
				", &ipv6mr_multiaddr)");
		fmt_str(f, ", ipv6mr_interface=");
		p_ifindex(f, u.v6.ipv6mr_interface);
	}
	fmt_chr(f, '}');
	return 1;
}

/* ICMP_FILTER's set of ICMP types (of len bytes, at most its 4):
 * [ICMP_ECHO ...], ~[...] when more than half are in it */
static void p_icmp_filter(struct fmt *f, const struct sysgate_sys *s,
			  unsigned long p, int len)
{
	unsigned int set = ~0U, i, any = 0;

	if (len <= 0) {
		p_ptr(f, p);
		return;
	}
	if (fetch(f, s, &set, p, len < 4 ? (unsigned long)len : 4))
		return;
	if (__builtin_popcount(set) > 16) {
		fmt_chr(f, '~');
		set = ~set;
	}
	fmt_chr(f, '[');
	for (i = 0; i < 32; i++) {
		if (!(set >> i & 1))
			continue;
		if (any++)
			fmt_chr(f, ' ');
		p_xlat(f, i, &xl_icmp_filter_types, "ICMP_???");
	}
	fmt_chr(f, ']');
}

/* setsockopt's value when the level and name give it a structure: 1
 * (printed), else 0 */
static int p_set_struct(struct call *c, int level, int name, int len)
{
	unsigned long p = c->s->args[3];

	if (!p || !trace_structs(c->s))
		return 0;
	if (level == SOL_SOCKET && name == SO_LINGER) {
		/* (the whole of it, or its address) */
		if (len < 8)
			p_ptr(c->f, p);
		else
			p_uint_fields(c->f, c->s, p, 8, linger_names, 2,
				      FIELDS_SIGNED);
		return 1;
	}
	if (level == SOL_IP || level == SOL_IPV6)
		return p_mreq(c->f, c->s, level, name, p, len);
	if (level == SOL_RAW && name == 1) {	/* ICMP_FILTER */
		p_icmp_filter(c->f, c->s, p, len);
		return 1;
	}
	if (level != SOL_PACKET)
		return 0;
	if (name == PACKET_ADD_MEMBERSHIP || name == PACKET_DROP_MEMBERSHIP)
		p_packet_mreq(c->f, c->s, p, len);
	else if (name == PACKET_RX_RING || name == PACKET_TX_RING)
		p_tpacket_req(c->f, c->s, p, len);
	else
		return 0;
	return 1;
}

static void d_setsockopt(struct call *c)
{
	int len = (int)c->s->args[4];

	a_fd(c, 0);
	a_level_name(c, 0);
	a_sep(c);
	/* (an int option shorter than an int: its address) */
	if (is_filter((int)c->s->args[1], (int)c->s->args[2]) &&
	    len == (int)sizeof(struct sock_fprog) && trace_structs(c->s))
		p_bpf_fprog(c->f, c->s, c->s->args[3], 1);
	else if (is_filter((int)c->s->args[1], (int)c->s->args[2]))
		p_ptr(c->f, c->s->args[3]);
	else if (p_set_struct(c, (int)c->s->args[1], (int)c->s->args[2], len))
		;
	/* (SOL_NETLINK's options: all ints to strace) */
	else if (!so_int((int)c->s->args[1], (int)c->s->args[2]) &&
		 (int)c->s->args[1] != SOL_NETLINK)
		p_optval(c->f, c->s, c->s->args[3], (unsigned int)len);
	else if (!c->s->args[3] || !trace_structs(c->s) ||
		 len < (int)sizeof(int))
		p_ptr(c->f, c->s->args[3]);
	else
		p_int_opt(c->f, c->s, c->s->args[3], (int)c->s->args[2]);
	a_dec(c, len);
}

/* SO_ERROR's [ECONNREFUSED]: an errno by name; cut short, its bytes */
static void p_so_error(struct fmt *f, const struct sysgate_sys *s,
		       unsigned long p, unsigned long len)
{
	unsigned int e;
	const char *nm;

	if (len < sizeof(e)) {
		p_data(f, s, p, len, 1);
		return;
	}
	if (fetch(f, s, &e, p, sizeof(e)))
		return;
	fmt_chr(f, '[');
	nm = e ? sysgate_errno_name((int)e) : 0;
	if (nm)
		p_named(f, nm, e, 'u');
	else
		fmt_udec(f, e);
	fmt_chr(f, ']');
}

static void d_getsockopt(struct call *c)
{
	unsigned int out;

	a_fd(c, 0);
	a_level_name(c, 1);
	if (trace_saved(c)[0] == ~0UL) {
		/* (the length unread at entry: both addresses) */
		a_ptr(c, c->s->args[3]);
		a_ptr(c, c->s->args[4]);
		return;
	}
	if (!c_ok(c) || trace_read(c->s, &out, (void *)c->s->args[4],
					 sizeof(out)) != sizeof(out)) {
		a_ptr(c, c->s->args[3]);
		a_sep(c);
		fmt_chr(c->f, '[');
		fmt_dec(c->f, (int)trace_saved(c)[0]);
		fmt_chr(c->f, ']');
		return;
	}
	a_sep(c);
	if ((int)c->s->args[1] == SOL_SOCKET &&
	    (int)c->s->args[2] == SO_PEERCRED) {
		if (!out)
			p_ptr(c->f, c->s->args[3]);
		else
			p_peercred(c->f, c->s, c->s->args[3], out);
	} else if ((int)c->s->args[1] == SOL_NETLINK &&
		   (int)c->s->args[2] == NETLINK_LIST_MEMBERSHIPS) {
		/* (the groups' words the buffer holds, of those there are) */
		p_array_ctx(c->f, c->s, c->s->args[3],
			    (trace_saved(c)[0] < out ? trace_saved(c)[0] : out) /
				    4, 4, 0, p_u32_elem, 0);
	} else if ((int)trace_saved(c)[0] <= 0 || (int)out <= 0) {
		p_ptr(c->f, c->s->args[3]);
	} else if ((int)c->s->args[1] == SOL_RAW &&
		   (int)c->s->args[2] == 1) {	/* ICMP_FILTER */
		p_icmp_filter(c->f, c->s, c->s->args[3], (int)out);
	} else if ((int)c->s->args[1] == SOL_PACKET &&
		   (int)c->s->args[2] == PACKET_STATISTICS) {
		static const char *const names[] = {
			"tp_packets=", "tp_drops=", "tp_freeze_q_cnt="
		};

		p_uint_fields(c->f, c->s, c->s->args[3], out, names, 3, 0);
	} else if ((int)c->s->args[1] == SOL_SOCKET &&
		   (int)c->s->args[2] == SO_ATTACH_FILTER &&
		   trace_structs(c->s) && c->s->args[3]) {
		/* (the kernel's count of instructions: a u16) */
		if ((unsigned short)out == out)
			p_bpf_filter(c->f, c->s, c->s->args[3], out, 1);
		else
			p_ptr(c->f, c->s->args[3]);
	} else if ((int)c->s->args[1] == SOL_SOCKET &&
		   (int)c->s->args[2] == SO_LINGER) {
		p_uint_fields(c->f, c->s, c->s->args[3], out, linger_names, 2,
			      FIELDS_SIGNED);
	} else if ((int)c->s->args[1] == SOL_SOCKET &&
		   (int)c->s->args[2] == SO_ERROR) {
		p_so_error(c->f, c->s, c->s->args[3], out);
	} else if (so_int((int)c->s->args[1], (int)c->s->args[2]) &&
		   out < sizeof(int) && trace_structs(c->s)) {
		/* (an int cut short: its bytes in hex) */
		unsigned char b[sizeof(int)];

		if (!fetch(c->f, c->s, b, c->s->args[3], out))
			p_hex_bytes(c->f, b, out);
	} else if (so_int((int)c->s->args[1], (int)c->s->args[2]) &&
		   trace_structs(c->s)) {
		p_int_opt(c->f, c->s, c->s->args[3], (int)c->s->args[2]);
	} else {
		p_optval(c->f, c->s, c->s->args[3], out);
	}
	a_sep(c);
	fmt_chr(c->f, '[');
	if (trace_saved(c)[0] != ~0UL && trace_saved(c)[0] != out) {
		fmt_udec(c->f, trace_saved(c)[0]);
		fmt_str(c->f, " => ");
	}
	fmt_udec(c->f, out);
	fmt_chr(c->f, ']');
}

/* avail: bytes transferred, for the iovecs' contents (-1: all); in: the
 * msg_namelen given, which the kernel changed (-1: not known) */
static void p_msghdr_local(struct fmt *f, struct sysgate_sys *s,
			   const struct msghdr *mp, long avail, long in)
{
	const struct msghdr m = *mp;
	unsigned int namelen = m.msg_namelen;

	if (in >= 0 && (unsigned long)in < namelen)
		namelen = (unsigned int)in;
	fmt_str(f, "{msg_name=");
	p_sockaddr(f, s, (unsigned long)m.msg_name, namelen);
	fmt_str(f, ", msg_namelen=");
	if (in >= 0 && (unsigned long)in != m.msg_namelen) {
		fmt_udec(f, (unsigned long)in);
		fmt_str(f, " => ");
	}
	fmt_udec(f, m.msg_namelen);
	fmt_str(f, ", msg_iov=");
	put_iov(f, s, (unsigned long)m.msg_iov, m.msg_iovlen, avail);
	f_udec(f, ", msg_iovlen=", m.msg_iovlen);
	if (m.msg_controllen) {
		fmt_str(f, ", msg_control=");
		p_cmsgs(f, s, (unsigned long)m.msg_control, m.msg_controllen);
	}
	f_udec(f, ", msg_controllen=", m.msg_controllen);
	fmt_str(f, ", msg_flags=");
	p_flags(f, (unsigned int)m.msg_flags, &xl_msg_flags, 0);
	fmt_chr(f, '}');
}

static void p_msghdr(struct fmt *f, struct sysgate_sys *s, unsigned long p,
		     long avail)
{
	struct msghdr m;

	if (!fetch(f, s, &m, p, sizeof(m)))
		p_msghdr_local(f, s, &m, avail, -1);
}

/* sendmmsg/recvmmsg's array: the first done of them with msg_len (and
 * their data up to it); those not done without (sendmmsg's) */
struct mmsg_ctx {
	struct sysgate_sys *s;
	unsigned long i, done;
	const unsigned short *in;	/* recvmmsg's namelens given */
};

/* strace shows at most IOV_MAX messages, then "..." */
#define MMSG_SHOWN 1024
/* recvmmsg keeps the msg_namelen of the messages shown as shorts
 * (MMSG_IN_NONE: not known, or too large for one) in the scratch's
 * namelens, and its timeout as given (saved[4], [5]; [5] ~0: none) */
#define MMSG_IN MMSG_SHOWN
#define MMSG_IN_NONE 0xffff

static void p_mmsghdr_elem(struct fmt *f, const void *e, void *ctx)
{
	const struct mmsghdr *m = e;
	struct mmsg_ctx *x = ctx;
	int done = x->i < x->done;
	long in;

	if (x->i++ == MMSG_SHOWN) {
		fmt_str(f, "...");
		return;
	}
	in = x->in && x->i <= MMSG_IN && x->in[x->i - 1] != MMSG_IN_NONE ?
	     x->in[x->i - 1] : -1;
	fmt_str(f, "{msg_hdr=");
	p_msghdr_local(f, x->s, &m->msg_hdr, done ? (long)m->msg_len : -1,
		       in);
	if (done)
		f_udec(f, ", msg_len=", m->msg_len);
	fmt_chr(f, '}');
}

static void p_mmsg(struct call *c, unsigned long n, unsigned long done,
		   const unsigned short *in)
{
	struct mmsg_ctx x = { c->s, 0, done, in };

	if (!trace_structs(c->s)) {
		p_ptr(c->f, c->s->args[1]);
		return;
	}
	p_array_ctx(c->f, c->s, c->s->args[1],
		    n > MMSG_SHOWN ? MMSG_SHOWN + 1 : n,
		    sizeof(struct mmsghdr), 0, p_mmsghdr_elem, &x);
}

static void d_sendmmsg(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_mmsg(c, (unsigned int)c->s->args[2],
	       c_ok(c) ? (unsigned long)c->s->ret : 0, 0);
	a_udec(c, (unsigned int)c->s->args[2]);
	a_msgflags(c, c->s->args[3]);
}

static void e_recvmmsg(struct call *c)
{
	unsigned short *in = trace_scratch(c->s)->namelens;
	unsigned int len;
	long ts[2];
	int i;

	trace_saved(c)[5] = ~0UL;
	if (c->s->args[4] && trace_read(c->s, ts, (void *)c->s->args[4],
					sizeof(ts)) == sizeof(ts)) {
		trace_saved(c)[4] = (unsigned long)ts[0];
		trace_saved(c)[5] = (unsigned long)ts[1];
	}
	/* (the messages past vlen are never shown) */
	for (i = 0; i < MMSG_IN && (unsigned int)i < (unsigned int)c->s->args[2];
	     i++) {
		in[i] = MMSG_IN_NONE;
		if (trace_read(c->s, &len, (void *)(c->s->args[1] +
				i * sizeof(struct mmsghdr) +
				__builtin_offsetof(struct msghdr,
						   msg_namelen)),
			       sizeof(len)) == sizeof(len) &&
		    len < MMSG_IN_NONE)
			in[i] = (unsigned short)len;
	}
}

/* (the messages received: ret of them) */
static void d_recvmmsg(struct call *c)
{
	a_fd(c, 0);
	if (a_out(c, c->s->args[1]))
		p_mmsg(c, (unsigned long)c->s->ret, (unsigned long)c->s->ret,
		       trace_scratch(c->s)->namelens);
	a_udec(c, (unsigned int)c->s->args[2]);
	a_msgflags(c, c->s->args[3]);
	if (trace_saved(c)[5] == ~0UL) {
		a_timespec(c, c->s->args[4]);
		return;
	}
	a_sep(c);
	p_timespec(c->f, (long)trace_saved(c)[4], (long)trace_saved(c)[5]);
}

/* what is left of the timeout: " (left {...})" */
static void r_recvmmsg(struct call *c)
{
	long ts[2];

	fmt_dec(c->f, c->s->ret);
	if (c->s->args[4] && trace_read(c->s, ts, (void *)c->s->args[4],
					sizeof(ts)) == sizeof(ts)) {
		fmt_str(c->f, " (left ");
		p_timespec(c->f, ts[0], ts[1]);
		fmt_chr(c->f, ')');
	}
}

/* recvmsg keeps the msg_namelen given (~0: not known) */
static void e_recvmsg(struct call *c)
{
	unsigned int len;

	trace_saved(c)[0] = ~0UL;
	if (trace_read(c->s, &len, (void *)(c->s->args[1] +
				__builtin_offsetof(struct msghdr,
						   msg_namelen)),
		       sizeof(len)) == sizeof(len))
		trace_saved(c)[0] = len;
}

static void d_sendmsg(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_msghdr(c->f, c->s, c->s->args[1], -1);
	a_msgflags(c, c->s->args[2]);
}

static void d_recvmsg(struct call *c)
{
	struct msghdr m;

	a_fd(c, 0);
	/* (a failed call: the msg_namelen it was given, as strace) */
	if (!c_ok(c) && trace_saved(c)[0] != ~0UL) {
		a_exit_next(c);
		a_sep(c);
		f_dec(c->f, "{msg_namelen=", (int)trace_saved(c)[0]);
		fmt_chr(c->f, '}');
	} else if (a_out(c, c->s->args[1]) &&
		   !fetch(c->f, c->s, &m, c->s->args[1], sizeof(m)))
		p_msghdr_local(c->f, c->s, &m, c->s->ret,
			       trace_saved(c)[0] == ~0UL ? -1 :
			       (long)trace_saved(c)[0]);
	a_msgflags(c, c->s->args[2]);
}

static void d_shutdown(struct call *c)
{
	a_fd(c, 0);
	a_xlat(c, (unsigned int)c->s->args[1], &xl_shutdown_how, "SHUT_???");
}

const struct decoder dec_net[] = {
	{ "socket", d_socket, 0, 0 },
	{ "socketpair", d_socketpair, 0, 0 },
	{ "bind", d_addr_in, 0, 0 },
	{ "connect", d_addr_in, 0, 0 },
	{ "getsockname", d_getsockname, 0, e_len2 },
	{ "getpeername", d_getsockname, 0, e_len2 },
	{ "accept", d_accept4, 0, e_len2 },
	{ "accept4", d_accept4, 0, e_len2 },
	{ "sendto", d_sendto, 0, 0 },
	{ "recvfrom", d_recvfrom, 0, e_len5 },
	{ "setsockopt", d_setsockopt, 0, 0 },
	{ "getsockopt", d_getsockopt, 0, e_len4 },
	{ "sendmsg", d_sendmsg, 0, 0 },
	{ "recvmsg", d_recvmsg, 0, e_recvmsg },
	{ "sendmmsg", d_sendmmsg, 0, 0 },
	{ "recvmmsg", d_recvmmsg, r_recvmmsg, e_recvmmsg },
	{ "shutdown", d_shutdown, 0, 0 },
	{ 0, 0, 0, 0 },
};
