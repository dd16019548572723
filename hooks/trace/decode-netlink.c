/* SPDX-License-Identifier: MIT */
/*
 * Netlink messages in the buffers of netlink sockets (send and receive
 * calls), as strace prints them: each message [header, payload], several
 * in an array; attributes the same way, [header, value].  What a payload
 * or value is comes from tables: the message types and flags of each
 * protocol, the sock_diag requests and replies of each address family
 * (their fields), attribute names and how each attribute's value prints.
 */
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/nexthop.h>
#include <linux/dcbnl.h>
#include <linux/if.h>
#include <linux/if_bridge.h>
#include <linux/can/netlink.h>
#include <linux/sockios.h>
#include <linux/selinux_netlink.h>
#include <linux/xfrm.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/inet_diag.h>
#include <linux/packet_diag.h>
#include <linux/smc_diag.h>
#include <linux/filter.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/neighbour.h>
#include <linux/pkt_sched.h>
#include <linux/pkt_cls.h>
#include <linux/gen_stats.h>
#include <linux/fib_rules.h>
#include <linux/if_bonding.h>
#include <linux/mpls.h>
#include <linux/genetlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netfilter/nfnetlink_acct.h>
#include <linux/netfilter/nfnetlink_cttimeout.h>
#include <linux/netfilter/nfnetlink_cthelper.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>
#include <linux/netfilter/nfnetlink_hook.h>
#include <fcntl.h>
#include <sys/socket.h>
#include "trace.h"

#define NL_ALIGN4(n) (((n) + 3UL) & ~3UL)

struct nl {
	struct fmt *f;
	const struct sysgate_sys *s;
	int proto;		/* NETLINK_*, -1: not known */
	int family;		/* the payload's address family (NK_GATEWAY) */
	/* IFLA_LINKINFO's IFLA_INFO_KIND and IFLA_INFO_SLAVE_KIND, which
	 * say what its IFLA_INFO_DATA and IFLA_INFO_SLAVE_DATA hold */
	char link_kind[2][16];
};

/* --- fields of fixed structures ------------------------------------- */

enum {
	FK_U,		/* unsigned decimal */
	FK_D,		/* signed decimal (of an int) */
	FK_X,		/* hex */
	FK_XLAT,	/* a name of t */
	FK_FLAGS,	/* flags of t */
	FK_BITS,	/* 1<<NAME for each bit, NAME t's name of its index */
	FK_COOKIE,	/* two u32s: [a, b] */
	FK_DEV,		/* makedev(0x.., 0x..) */
	FK_NLPROTO,	/* NETLINK_*, or NDIAG_PROTO_ALL */
	FK_IFINDEX,	/* if_nametoindex("lo") */
	FK_RTNL_FAMILY,	/* RTNL_FAMILY_*, else AF_* */
	FK_X_SET,	/* hex, the field shown only when not 0 (reserved) */
	FK_MAC,		/* a hardware address of the field's bytes */
	FK_U8S,		/* [u8, ...] of the field's bytes */
	FK_ETH_PROTO,	/* htons(ETH_P_...) of a big-endian u16 */
	FK_X0,		/* hex, zero-padded to the field's width (%#0*x) */
	FK_BITS1,	/* FK_BITS of 1<<(NAME-1), NAME t's name of index+1 */
	FK_SOCKID,	/* struct inet_diag_sockid of the family in b[0] */
	FK_SOCKID4,	/* the same of AF_INET (SMC's) */
	FK_CSTR,	/* a string of the field's bytes, up to its NUL */
	FK_HTONL,	/* htonl(0x...) of a big-endian u32 */
	FK_MDB_ADDR,	/* br_mdb_entry's addr: {u=address, proto=htons(AF_)} */
	FK_DIR_PAIR,	/* two u64s: [[BR_MCAST_DIR_RX]=a, [..._TX]=b] */
	FK_SMC_CURSOR,	/* struct smc_diag_cursor: {reserved, wrap, count} */
	FK_SMC_LINKS,	/* [{link_id=..., ...}]: smc_diag_linkinfo array */
	FK_XLAT_VERBOSE,	/* hex and t's name in a comment (p_xval_verbose) */
};

struct field {
	const char *name;
	unsigned char off, size, kind;
	const struct xlat *t;
	const char *unknown;
};

struct layout {
	const struct field *f;
	unsigned char n;
	unsigned short size;
};

void p_hex0(struct fmt *f, unsigned long v, int width)
{
	int i;

	if (v) {
		fmt_str(f, "0x");
		width -= 2;
	}
	for (i = 15; i > 0 && !(v >> i * 4); i--)
		;
	for (; width > i + 1; width--)
		fmt_chr(f, '0');
	for (; i >= 0; i--)
		fmt_chr(f, "0123456789abcdef"[v >> i * 4 & 15]);
}

static unsigned long long get_uint(const unsigned char *b, int size)
{
	switch (size) {
	case 1: return *b;
	case 2: return *(const unsigned short *)(const void *)b;
	case 4: return *(const unsigned int *)(const void *)b;
	}
	return *(const unsigned long long *)(const void *)b;
}

/* strace's "1<<TCP_LISTEN|..." of a state mask; off 1: bit i is
 * "1<<(NAME-1)", NAME t's name of i + 1 (inet_diag's extensions) */
static void p_bits(struct fmt *f, unsigned long v, const struct xlat *t,
		   const char *unknown, int off)
{
	size_t start = x_begin(f);
	unsigned long left = v;
	int i, any = 0;

	for (i = 0; i < (int)sizeof(v) * 8; i++) {
		const char *nm = xlat_name(t, (unsigned long)(i + off));

		if (!(v >> i & 1) || !nm)
			continue;
		if (any++)
			fmt_chr(f, '|');
		fmt_str(f, off ? "1<<(" : "1<<");
		fmt_str(f, nm);
		if (off)
			fmt_str(f, "-1)");
		left &= ~(1UL << i);
	}
	if (!any) {
		p_hex(f, v);
		if (v) {
			fmt_str(f, " /* ");
			fmt_str(f, unknown);
			fmt_str(f, " */");
		}
	} else if (left) {
		fmt_chr(f, '|');
		fmt_hex(f, left);
	}
	x_end(f, start, v, 'x');
}

/* (asked of the kernel by a socket of our own) */
void p_ifindex(struct fmt *f, unsigned int idx)
{
	struct ifreq r;
	char text[64];
	struct fmt t;
	long fd, ok;

	hk_memset(&r, 0, sizeof(r));
	r.ifr_ifindex = (int)idx;
	fd = sysgate_syscall(sysgate_syscall_number("socket"), AF_UNIX,
			     SOCK_DGRAM | SOCK_CLOEXEC, 0, 0, 0, 0);
	if (fd < 0) {
		fmt_udec(f, idx);
		return;
	}
	ok = sysgate_syscall(sysgate_syscall_number("ioctl"), fd, SIOCGIFNAME,
			     (long)&r, 0, 0, 0) == 0;
	sysgate_syscall(sysgate_syscall_number("close"), fd, 0, 0, 0, 0, 0);
	if (!ok) {
		fmt_udec(f, idx);
		return;
	}
	r.ifr_name[sizeof(r.ifr_name) - 1] = 0;
	fmt_init(&t, text, sizeof(text) - 1);
	fmt_str(&t, "if_nametoindex(");
	p_data_local(&t, (const unsigned char *)r.ifr_name,
		     hk_strlen(r.ifr_name));
	fmt_chr(&t, ')');
	text[t.len] = 0;
	p_named(f, text, idx, 'u');
}

/* Flags, or the name a table gives 0 (NUD_NONE) */
static void p_nl_flags(struct fmt *f, unsigned long v, const struct xlat *t,
		       const char *unknown)
{
	const char *zero = v ? 0 : xlat_name(t, 0);

	if (zero)
		p_named(f, zero, 0, 'x');
	else
		p_flags_unknown(f, v, t, unknown);
}

/* {idiag_sport=htons(N), ..., idiag_src=inet_addr("..."), ...} */
/* htons(80), or under -X its bytes (a port of a sockid) */
static void p_sockid_port(struct fmt *f, const char *name,
			  const unsigned short *port)
{
	char text[16];
	struct fmt t;

	fmt_init(&t, text, sizeof(text));
	f_udec(&t, "htons(", __builtin_bswap16(*port));
	fmt_chr(&t, ')');
	p_in_field(f, name, port, 2, text, t.len);
}

static void p_sockid(struct fmt *f, const unsigned char *b, int family)
{
	struct inet_diag_sockid id;
	int n = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;

	hk_memcpy(&id, b, sizeof(id));
	fmt_str(f, "{idiag_sport=");
	p_sockid_port(f, 0, &id.idiag_sport);
	p_sockid_port(f, "idiag_dport", &id.idiag_dport);
	if (n) {
		/* (the address's text; its field's 16 bytes under -X) */
		p_in_addr_sized(f, "idiag_src", id.idiag_src, n,
				sizeof(id.idiag_src), n == 4 ? "inet_addr(" :
				"inet_pton(AF_INET6, ",
				n == 4 ? ")" : ", &idiag_src)");
		p_in_addr_sized(f, "idiag_dst", id.idiag_dst, n,
				sizeof(id.idiag_dst), n == 4 ? "inet_addr(" :
				"inet_pton(AF_INET6, ",
				n == 4 ? ")" : ", &idiag_dst)");
	} else {
		fmt_str(f, ", idiag_src=");
		p_hex_bytes(f, (const unsigned char *)id.idiag_src,
			    sizeof(id.idiag_src));
		fmt_str(f, ", idiag_dst=");
		p_hex_bytes(f, (const unsigned char *)id.idiag_dst,
			    sizeof(id.idiag_dst));
	}
	fmt_str(f, ", idiag_if=");
	p_ifindex(f, id.idiag_if);
	f_udec(f, ", idiag_cookie=[", id.idiag_cookie[0]);
	f_udec(f, ", ", id.idiag_cookie[1]);
	fmt_str(f, "]}");
}

/* {u=inet_addr("..."), proto=htons(AF_INET)}: the address of the family
 * its proto names (else its bytes) */
static void p_mdb_addr(struct fmt *f, const unsigned char *b)
{
	struct br_mdb_entry e;
	int proto, n;

	hk_memcpy(&e.addr, b, sizeof(e.addr));
	proto = __builtin_bswap16(e.addr.proto);
	n = proto == AF_INET ? 4 : proto == AF_INET6 ? 16 : 0;
	fmt_str(f, "{u=");
	if (n)
		p_in_addr(f, 0, &e.addr.u, n, n == 4 ? "inet_addr(" :
			  "inet_pton(AF_INET6, ", n == 4 ? ")" : ", &u)");
	else
		p_hex_bytes(f, (const unsigned char *)&e.addr.u,
			    sizeof(e.addr.u));
	fmt_str(f, ", proto=htons(");
	p_xlat(f, (unsigned long)proto, &xl_families, "AF_???");
	fmt_str(f, ")}");
}

static void p_fields(struct fmt *f, const unsigned char *b,
		     const struct layout *l, int from);
/* (SMC's link information: FK_SMC_LINKS's elements) */
static const struct layout smc_link_l;

/* The value of field d of the structure at b */
static void p_field_value(struct fmt *f, const unsigned char *b,
			  const struct field *d)
{
	/* (a field of another size is bytes, no number) */
	unsigned long long v = d->size == 1 || d->size == 2 || d->size == 4 ||
			       d->size == 8 ? get_uint(b + d->off, d->size) : 0;
	unsigned int i;

	switch (d->kind) {
	case FK_U:
		fmt_udec(f, v);
		break;
	case FK_D:
		fmt_dec(f, d->size == 1 ? (signed char)v :
			   d->size == 2 ? (short)v : (int)v);
		break;
	case FK_X:
	case FK_X_SET:
		p_hex(f, v);
		break;
	case FK_XLAT:
		p_xlat(f, v, d->t, d->unknown);
		break;
	case FK_FLAGS:
		p_nl_flags(f, v, d->t, d->unknown);
		break;
	case FK_BITS:
	case FK_BITS1:
		p_bits(f, v, d->t, d->unknown, d->kind == FK_BITS1);
		break;
	case FK_SOCKID:
	case FK_SOCKID4:
		p_sockid(f, b + d->off, d->kind == FK_SOCKID ? b[0] : AF_INET);
		break;
	case FK_COOKIE:
		fmt_chr(f, '[');
		fmt_udec(f, (unsigned int)v);
		fmt_str(f, ", ");
		fmt_udec(f, get_uint(b + d->off + 4, 4));
		fmt_chr(f, ']');
		break;
	case FK_NLPROTO:
		if (v == NDIAG_PROTO_ALL)
			p_named(f, "NDIAG_PROTO_ALL", v, 'x');
		else
			p_xlat(f, v, &xl_netlink_protos, "NETLINK_???");
		break;
	case FK_IFINDEX:
		p_ifindex(f, (unsigned int)v);
		break;
	case FK_RTNL_FAMILY:
		if (xlat_name(&xl_rtnl_families, v))
			p_xlat(f, v, &xl_rtnl_families, 0);
		else
			p_xlat(f, v, &xl_families, "RTNL_FAMILY_???");
		break;
	case FK_MAC:
		p_mac(f, b + d->off, d->size);
		break;
	case FK_X0:
		p_hex0(f, (unsigned long)v, d->size * 2);
		break;
	case FK_CSTR:
		p_cstring(f, (const char *)b + d->off, d->size);
		break;
	case FK_DIR_PAIR:
		for (i = 0; i < 2; i++) {
			fmt_str(f, i ? ", [" : "[[");
			p_named(f, xlat_str(&xl_br_mcast_dirs, (int)i), i, 'u');
			fmt_str(f, "]=");
			fmt_udec(f, get_uint(b + d->off + 8 * i, 8));
		}
		fmt_chr(f, ']');
		break;
	case FK_MDB_ADDR:
		p_mdb_addr(f, b + d->off);
		break;
	case FK_XLAT_VERBOSE:
		p_xval_verbose(f, v, d->t, d->unknown);
		break;
	case FK_SMC_CURSOR:
		fmt_chr(f, '{');
		f_udec(f, "reserved=", get_uint(b + d->off, 2));
		f_udec(f, ", wrap=", get_uint(b + d->off + 2, 2));
		f_udec(f, ", count=", get_uint(b + d->off + 4, 4));
		fmt_chr(f, '}');
		break;
	case FK_SMC_LINKS:
		for (i = 0; i * smc_link_l.size < d->size; i++) {
			fmt_str(f, i ? ", {" : "[{");
			p_fields(f, b + d->off + i * smc_link_l.size,
				 &smc_link_l, 0);
			fmt_chr(f, '}');
		}
		fmt_chr(f, ']');
		break;
	case FK_HTONL:
		fmt_str(f, "htonl(");
		p_hex(f, __builtin_bswap32((unsigned int)v));
		fmt_chr(f, ')');
		break;
	case FK_U8S:
		for (i = 0; i < d->size; i++) {
			fmt_str(f, i ? ", " : "[");
			fmt_udec(f, b[d->off + i]);
		}
		fmt_chr(f, ']');
		break;
	case FK_ETH_PROTO:
		fmt_str(f, "htons(");
		p_xlat(f, (unsigned long)__builtin_bswap16((unsigned short)v),
		       &xl_ethernet_protocols, "ETH_P_???");
		fmt_chr(f, ')');
		break;
	case FK_DEV:
		fmt_str(f, "makedev(");
		p_hex(f, ((v >> 32) & ~0xfffULL) | ((v >> 8) & 0xfff));
		fmt_str(f, ", ");
		p_hex(f, ((v >> 12) & ~0xffULL) | (v & 0xff));
		fmt_chr(f, ')');
		break;
	}
}

static void p_field(struct fmt *f, const unsigned char *b,
		    const struct field *d)
{
	fmt_str(f, d->name);
	fmt_chr(f, '=');
	p_field_value(f, b, d);
}

/* Fields from..n of l, ", " between them. */
static void p_fields(struct fmt *f, const unsigned char *b,
		     const struct layout *l, int from)
{
	int i, any = 0;

	for (i = from; i < l->n; i++) {
		if (l->f[i].kind == FK_X_SET &&
		    !get_uint(b + l->f[i].off, l->f[i].size))
			continue;
		if (any++)
			fmt_str(f, ", ");
		p_field(f, b, &l->f[i]);
	}
}

/* --- the walk shared by messages and attributes ---------------------- */

/*
 * strace's walk of a netlink buffer: headers of hsize bytes whose first
 * field (of lsize bytes) is the element's length, each element aligned
 * to 4; one element alone, several in [...]; at most -s of them (-v:
 * all); bytes too few for a header in hex; where reading stops, the
 * address.
 */
struct walk {
	unsigned int hsize, lsize;
	void (*one)(struct nl *x, const void *h, unsigned long p,
		    unsigned long len, const void *arg);
};

static void walk(struct nl *x, const struct walk *w, unsigned long p,
		 unsigned long len, const void *arg)
{
	unsigned char h[16];
	unsigned long elt;
	int array = 0;

	for (elt = 0;; elt++) {
		unsigned long elen, alen, next = 0, nlen = 0;

		if (len < w->hsize) {
			p_data(x->f, x->s, p, len, 1);
			break;
		}
		if (sysgate_read_mem(x->s, h, (void *)p, w->hsize) !=
		    (long)w->hsize) {
			if (array) {
				fmt_str(x->f, "... /* ");
				fmt_hex(x->f, p);
				fmt_str(x->f, " */");
			} else {
				p_ptr(x->f, p);
			}
			break;
		}
		if (!trace_whole(x->s) && elt == (unsigned long)trace_strsize) {
			fmt_str(x->f, "...");
			break;
		}
		elen = get_uint(h, (int)w->lsize);
		alen = NL_ALIGN4(elen);
		if (elen >= w->hsize) {
			nlen = len >= alen ? len - alen : 0;
			if (nlen && p + alen > p)
				next = p + alen;
		}
		if (!array && next) {
			fmt_chr(x->f, '[');
			array = 1;
		}
		w->one(x, h, p, len, arg);
		if (!next)
			break;
		fmt_str(x->f, ", ");
		p = next;
		len = nlen;
	}
	if (array)
		fmt_chr(x->f, ']');
}

/* --- attributes ----------------------------------------------------- */

enum {
	NK_HEX,		/* the bytes in hex (strace: no decoder) */
	NK_STR,		/* a string, its NUL not shown */
	NK_U8, NK_U16, NK_U32, NK_U64,
	NK_S32,
	NK_UID, NK_FD, NK_IFINDEX,
	NK_U8S,		/* [u8, ...] */
	NK_U16S,	/* [u16, ...] */
	NK_U32S,	/* [u32, ...] */
	NK_INDEXED,	/* [[SK_MEMINFO_...]=u32, ...]: an array by index */
	NK_WORDS,	/* [0x..., ...]: longs in hex of their full width */
	NK_FLAGS32,	/* a u32 of flags */
	NK_FLAGS16, NK_FLAGS8,
	NK_STRUCT,	/* a layout's fields */
	NK_XLAT8,	/* a u8's name in t */
	NK_XLAT32,	/* a u32's name in t */
	NK_X32,		/* a u32 in hex */
	NK_IN_ADDR,	/* inet_addr("1.2.3.4") */
	NK_IN6_ADDR,	/* inet_pton(AF_INET6, "::1") */
	NK_NESTED,	/* attributes of the set nest */
	NK_PORT_VSI,	/* struct ifla_port_vsi */
	NK_COUNTERS,	/* {name=N, ...}: as many counters as fit */
	NK_XLAT16,	/* a u16's name in t */
	NK_CLOCK,	/* clock ticks of 1 to 8 bytes, with seconds */
	NK_GATEWAY,	/* an address of the payload's family */
	NK_STRUCTS,	/* an array of the layout's structures */
	NK_X16,		/* a u16 in hex */
	NK_BY_FAMILY,	/* attributes of the set of the payload's family */
	NK_MAC,		/* a hardware address of any length */
	NK_HTONS,	/* htons(N) */
	NK_HTOBE64,	/* htobe64(N) */
	NK_MULTIPATH,	/* RTA_MULTIPATH's next hops */
	NK_RTVIA,	/* struct rtvia: a family and its address */
	NK_MCLIST,	/* struct packet_diag_mclist array */
	NK_BPF,		/* classic BPF instructions */
	NK_STRUCT_ATTRS,	/* a layout's fields, then attributes */
	NK_INET_BC,	/* an inet_diag filter's operation and its operand */
	NK_LINKINFO,	/* IFLA_LINKINFO: its kinds, then their data */
	NK_LINK_KIND,	/* a string kept as the link's kind (0) or slave */
	NK_LINK_SLAVE_KIND,	/* kind (1) */
	NK_LINK_DATA,	/* attributes of the set the kind (0) or the slave */
	NK_LINK_SLAVE_DATA,	/* kind (1) names */
	NK_LINK_XSTATS,	/* the kind's (0) statistics' structure */
	NK_ETH_PROTO,	/* htons(ETH_P_...) */
};

struct nla_set;

/* Counters of one width, named; the first min of them at least (a
 * structure that grew: its later fields only when the value has them) */
struct counters {
	const char *const *names;
	unsigned char n, min, size;
};

/* An array whose elements the index names: [[NAME]=v, ...] */
struct indexed {
	const struct xlat *t;
	const char *unknown;
	unsigned char size, is_signed;
};

/* A structure followed by attributes (NK_STRUCT_ATTRS); bare: a lone
 * field's value (no braces, no name) */
struct struct_attrs {
	const struct layout *l;
	const struct nla_set *rest;
	int bare;
};

/* The attributes of a family (NK_BY_FAMILY), a list ending in set 0 */
struct family_set {
	unsigned char family;
	const struct nla_set *set;
};

struct nla_kind {
	unsigned char kind;
	union {
		const struct layout *l;		/* NK_STRUCT */
		const struct nla_set *nest;	/* NK_NESTED */
		const struct counters *ctr;	/* NK_COUNTERS */
		const struct indexed *idx;	/* NK_INDEXED */
		const struct family_set *fam;	/* NK_BY_FAMILY */
		const struct struct_attrs *sa;	/* NK_STRUCT_ATTRS */
	};
	const struct xlat *t;		/* NK_FLAGS32, NK_XLAT8 */
	const char *unknown;
};

struct nla_set {
	const struct xlat *names;
	const char *unknown;
	const struct nla_kind *kinds;	/* by type, n of them */
	unsigned int n;
};

/* p_array_ctx's printer of unsigned elements of *ctx bytes */
static void p_uint_elem(struct fmt *f, const void *e, void *ctx)
{
	fmt_udec(f, get_uint(e, *(const unsigned char *)ctx));
}

void p_u32_elem(struct fmt *f, const void *e, void *ctx)
{
	(void)ctx;
	fmt_udec(f, *(const unsigned int *)e);
}

/* strace's "%#0*lx" of a long: 0x and digits, 16 characters at least */
static void p_word_elem(struct fmt *f, const void *e, void *ctx)
{
	(void)ctx;
	p_hex0(f, *(const unsigned long *)e, 16);
}

struct indexed_at {
	const struct indexed *d;
	unsigned long i;
};

static void p_indexed_elem(struct fmt *f, const void *e, void *ctx)
{
	struct indexed_at *at = ctx;
	const char *nm = xlat_name(at->d->t, at->i);
	unsigned long long v = get_uint(e, at->d->size);

	/* (strace's indices are decimal under -X too) */
	fmt_chr(f, '[');
	if (nm) {
		p_named(f, nm, at->i, 'u');
	} else {
		fmt_udec(f, at->i);
		if (trace_xstyle != XS_RAW) {
			fmt_str(f, " /* ");
			fmt_str(f, at->d->unknown);
			fmt_str(f, " */");
		}
	}
	at->i++;
	fmt_str(f, "]=");
	if (at->d->is_signed)
		fmt_dec(f, at->d->size == 4 ? (int)v : (long)v);
	else
		fmt_udec(f, v);
}

/* A string value: bytes up to -s, a final NUL not shown; "..." after
 * one that does not end in NUL. */
static void p_nla_str(struct nl *x, unsigned long p, unsigned long len)
{
	unsigned char b[256];
	unsigned long n = len < (unsigned long)trace_strsize ?
				  len : (unsigned long)trace_strsize;

	if (n > sizeof(b))
		n = sizeof(b);
	if (n && sysgate_read_mem(x->s, b, (void *)p, n) != (long)n) {
		p_ptr(x->f, p);
		return;
	}
	if (n && n == len && !b[n - 1]) {
		p_data_local(x->f, b, n - 1);
		return;
	}
	p_data_local(x->f, b, n);
	if (len)
		fmt_str(x->f, "...");
}

static const struct walk nla_walk;

/* {vsi_mgr_id=, vsi_type_id="\x..", vsi_type_version=[, pad=]} */
static int p_port_vsi(struct nl *x, unsigned long p, unsigned long len)
{
	struct ifla_port_vsi v;
	unsigned int i;

	if (len < sizeof(v))
		return 0;
	if (fetch(x->f, x->s, &v, p, sizeof(v)))
		return 1;
	f_udec(x->f, "{vsi_mgr_id=", v.vsi_mgr_id);
	fmt_str(x->f, ", vsi_type_id=");
	p_hex_bytes(x->f, v.vsi_type_id, sizeof(v.vsi_type_id));
	f_udec(x->f, ", vsi_type_version=", v.vsi_type_version);
	for (i = 0; i < sizeof(v.pad) && !v.pad[i]; i++)
		;
	if (i < sizeof(v.pad)) {
		fmt_str(x->f, ", pad=");
		p_hex_bytes(x->f, v.pad, sizeof(v.pad));
	}
	fmt_chr(x->f, '}');
	return 1;
}

/* p_array_ctx's printer of a layout's structure */
static void p_struct_elem(struct fmt *f, const void *e, void *ctx)
{
	fmt_chr(f, '{');
	p_fields(f, e, ctx, 0);
	fmt_chr(f, '}');
}

static int p_counters(struct nl *x, const struct counters *c, unsigned long p,
		      unsigned long len)
{
	unsigned long long v[32];
	unsigned int n = (unsigned int)(len / c->size), i;

	if (n < c->min)
		return 0;
	if (n > c->n)
		n = c->n;
	if (fetch(x->f, x->s, v, p, n * c->size))
		return 1;
	fmt_chr(x->f, '{');
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(x->f, ", ");
		fmt_str(x->f, c->names[i]);
		fmt_chr(x->f, '=');
		fmt_udec(x->f, get_uint((const unsigned char *)v + i * c->size,
					c->size));
	}
	fmt_chr(x->f, '}');
	return 1;
}

static const struct nla_set rta_attrs;
static const struct nla_set raw_rest;

/* {pdmc_index=, pdmc_count=, pdmc_type=, pdmc_alen=, pdmc_addr="\x.."} */
static void p_mclist_elem(struct fmt *f, const void *e, void *ctx)
{
	const struct packet_diag_mclist *m = e;
	unsigned int n = m->pdmc_alen < sizeof(m->pdmc_addr) ?
				 m->pdmc_alen : sizeof(m->pdmc_addr);

	(void)ctx;
	fmt_str(f, "{pdmc_index=");
	p_ifindex(f, m->pdmc_index);
	f_udec(f, ", pdmc_count=", m->pdmc_count);
	f_udec(f, ", pdmc_type=", m->pdmc_type);
	f_udec(f, ", pdmc_alen=", m->pdmc_alen);
	fmt_str(f, ", pdmc_addr=");
	p_hex_bytes(f, m->pdmc_addr, n);
	fmt_chr(f, '}');
}

/* RTA_MULTIPATH: struct rtnexthop each with its attributes, [{...},
 * attrs] (strace's brackets: around the list when the first does not
 * take all of it, around a hop with attributes) */
static int p_multipath(struct nl *x, unsigned long p, unsigned long len)
{
	struct rtnexthop nh;
	unsigned long at = p, left = len, n;
	const unsigned long hl = RTNH_ALIGN(sizeof(nh));
	int array = 0;

	if (len < sizeof(nh))
		return 0;
	while (!fetch(x->f, x->s, &nh, at, sizeof(nh))) {
		n = nh.rtnh_len < left ? nh.rtnh_len : left;
		if (at == p && nh.rtnh_len < len) {
			fmt_chr(x->f, '[');
			array = 1;
		}
		if (at > p)
			fmt_str(x->f, ", ");
		if (n > hl)
			fmt_chr(x->f, '[');
		f_udec(x->f, "{rtnh_len=", nh.rtnh_len);
		fmt_str(x->f, ", rtnh_flags=");
		p_flags_unknown(x->f, nh.rtnh_flags, &xl_rtnh_flags,
				"RTNH_F_???");
		f_udec(x->f, ", rtnh_hops=", nh.rtnh_hops);
		fmt_str(x->f, ", rtnh_ifindex=");
		p_ifindex(x->f, (unsigned int)nh.rtnh_ifindex);
		fmt_chr(x->f, '}');
		if (n > hl) {
			fmt_str(x->f, ", ");
			walk(x, &nla_walk, at + hl, n - hl, &rta_attrs);
			fmt_chr(x->f, ']');
		}
		if (RTNH_ALIGN(n) >= left)
			break;
		at += RTNH_ALIGN(n);
		left -= RTNH_ALIGN(n);
	}
	if (array)
		fmt_chr(x->f, ']');
	return 1;
}

/* {rtvia_family=AF_INET, rtvia_addr=inet_addr("...")} */
static int p_rtvia(struct nl *x, unsigned long p, unsigned long len)
{
	unsigned char b[2 + 16];
	unsigned short family;
	unsigned long n = len < sizeof(b) ? len : sizeof(b), alen;

	if (len < 2)
		return 0;
	if (fetch(x->f, x->s, b, p, n))
		return 1;
	family = (unsigned short)get_uint(b, 2);
	fmt_str(x->f, "{rtvia_family=");
	p_xlat(x->f, family, &xl_families, "AF_???");
	alen = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	if (len > 2) {
		if (alen && n - 2 >= alen)
			p_in_addr(x->f, "rtvia_addr", b + 2, (int)alen,
				  alen == 4 ? "inet_addr(" :
				  "inet_pton(AF_INET6, ",
				  alen == 4 ? ")" : ", &rtvia_addr)");
		else {
			fmt_str(x->f, ", rtvia_addr=");
			p_data(x->f, x->s, p + 2, len - 2, 1);
		}
	}
	fmt_chr(x->f, '}');
	return 1;
}

/* {code=..., yes=N, no=N}: an inet_diag bytecode operation */
static void p_bc_op(struct fmt *f, const unsigned char *b)
{
	fmt_str(f, "{code=");
	p_xlat(f, b[0], &xl_inet_diag_bytecodes, "INET_DIAG_BC_???");
	f_udec(f, ", yes=", b[1]);
	f_udec(f, ", no=", get_uint(b + 2, 2));
	fmt_chr(f, '}');
}

/* A host condition: family, prefix, port, and the address after them
 * (as long as the family's, else its bytes) */
static void p_bc_host(struct nl *x, unsigned long p, unsigned long len)
{
	struct inet_diag_hostcond h;
	unsigned char a[16];
	unsigned long alen;

	if (fetch(x->f, x->s, &h, p, sizeof(h)))
		return;
	fmt_str(x->f, "{family=");
	p_xlat(x->f, h.family, &xl_families, "AF_???");
	f_udec(x->f, ", prefix_len=", h.prefix_len);
	f_udec(x->f, ", port=", (unsigned int)h.port);
	len -= sizeof(h);
	alen = h.family == AF_INET ? 4 : h.family == AF_INET6 ? 16 : 0;
	if (len && (!alen || len < alen)) {
		fmt_str(x->f, ", addr=");
		p_data(x->f, x->s, p + sizeof(h), len, 1);
	} else if (len && trace_read(x->s, a, (void *)(p + sizeof(h)), alen) !=
				  (long)alen) {
		fmt_str(x->f, ", addr=");
		p_ptr(x->f, p + sizeof(h));
	} else if (len) {
		p_in_addr(x->f, "addr", a, (int)alen,
			  alen == 4 ? "inet_addr(" : "inet_pton(AF_INET6, ",
			  alen == 4 ? ")" : ", &addr)");
	}
	fmt_chr(x->f, '}');
}

/* INET_DIAG_REQ_BYTECODE: an operation, then its operand by its code
 * (its bytes when too short for it, or of a code without one) */
static int p_inet_bc(struct nl *x, unsigned long p, unsigned long len)
{
	unsigned char b[8];
	unsigned long n = len - 4;
	int code;

	if (len < 4)
		return 0;
	if (fetch(x->f, x->s, b, p, 4))
		return 1;
	p_bc_op(x->f, b);
	if (!n)
		return 1;
	fmt_str(x->f, ", ");
	p += 4;
	code = b[0];
	switch (code) {
	case INET_DIAG_BC_S_COND: case INET_DIAG_BC_D_COND:
		if (n < sizeof(struct inet_diag_hostcond))
			break;
		p_bc_host(x, p, n);
		return 1;
	case INET_DIAG_BC_DEV_COND:
	case INET_DIAG_BC_S_GE: case INET_DIAG_BC_S_LE:
	case INET_DIAG_BC_D_GE: case INET_DIAG_BC_D_LE:
		if (n < 4)
			break;
		if (fetch(x->f, x->s, b, p, 4))
			return 1;
		if (code == INET_DIAG_BC_DEV_COND)
			p_ifindex(x->f, (unsigned int)get_uint(b, 4));
		else	/* (the port's bound: an operation's shape) */
			p_bc_op(x->f, b);
		return 1;
	case INET_DIAG_BC_MARK_COND:
		if (n < sizeof(struct inet_diag_markcond))
			break;
		if (fetch(x->f, x->s, b, p, 8))
			return 1;
		f_udec(x->f, "{mark=", get_uint(b, 4));
		f_udec(x->f, ", mask=", get_uint(b + 4, 4));
		fmt_chr(x->f, '}');
		return 1;
	}
	p_data(x->f, x->s, p, n, 1);
	return 1;
}

static const struct nla_set *link_data_set(int slave, const char *kind);
static const struct layout *link_xstats(const char *kind);

/* The value by its kind: 0 when it does not fit (then in hex). */
static int p_nla_value(struct nl *x, const struct nla_kind *k,
		       unsigned long p, unsigned long len)
{
	static const unsigned char isize[] = {
		[NK_U8] = 1, [NK_U16] = 2, [NK_U32] = 4, [NK_U64] = 8,
		[NK_UID] = 4, [NK_S32] = 4, [NK_FD] = 4, [NK_IFINDEX] = 4,
	};
	unsigned char b[64];
	unsigned long i = 0;
	unsigned long long v;
	struct indexed_at at = { k->idx, 0 };
	const struct family_set *fs;

	switch (k->kind) {
	case NK_STR:
		p_nla_str(x, p, len);
		return 1;
	case NK_U8: case NK_U16: case NK_U32: case NK_U64: case NK_UID:
	case NK_S32: case NK_FD: case NK_IFINDEX:
		if (len < isize[k->kind])
			return 0;
		if (fetch(x->f, x->s, b, p, isize[k->kind]))
			return 1;
		v = get_uint(b, isize[k->kind]);
		if ((k->kind == NK_UID && v == 0xffffffffULL) ||
		    k->kind == NK_S32)
			fmt_dec(x->f, (int)v);
		else if (k->kind == NK_FD) {
			fmt_dec(x->f, (int)v);
			p_fdpath(x->f, x->s, (int)v);
		} else if (k->kind == NK_IFINDEX)
			p_ifindex(x->f, (unsigned int)v);
		else
			fmt_udec(x->f, v);
		return 1;
	case NK_U8S:
	case NK_U16S:
	case NK_U32S:
		b[0] = k->kind == NK_U8S ? 1 : k->kind == NK_U16S ? 2 : 4;
		if (len < b[0])
			return 0;
		p_array_ctx(x->f, x->s, p, len / b[0], b[0], 0, p_uint_elem,
			    b);
		return 1;
	case NK_INDEXED:
		if (len < k->idx->size)
			return 0;
		p_array_ctx(x->f, x->s, p, len / k->idx->size, k->idx->size, 0,
			    p_indexed_elem, &at);
		return 1;
	case NK_BY_FAMILY:
		for (fs = k->fam; fs->set && fs->family != x->family; fs++)
			;
		if (!fs->set)
			return 0;
		walk(x, &nla_walk, p, len, fs->set);
		return 1;
	case NK_WORDS:
		if (len < sizeof(long))
			return 0;
		p_array_ctx(x->f, x->s, p, len / sizeof(long), sizeof(long), 0,
			    p_word_elem, 0);
		return 1;
	case NK_FLAGS32:
	case NK_FLAGS16:
	case NK_FLAGS8:
		i = k->kind == NK_FLAGS32 ? 4 : k->kind == NK_FLAGS16 ? 2 : 1;
		if (len < i)
			return 0;
		if (!fetch(x->f, x->s, b, p, i))
			p_nl_flags(x->f, get_uint(b, (int)i), k->t,
				   k->unknown);
		return 1;
	case NK_MAC:
		if (len > sizeof(b))
			return 0;
		if (!fetch(x->f, x->s, b, p, len))
			p_mac(x->f, b, (unsigned int)len);
		return 1;
	case NK_HTONS:
	case NK_HTOBE64:
		i = k->kind == NK_HTONS ? 2 : 8;
		if (len < i)
			return 0;
		if (fetch(x->f, x->s, b, p, i))
			return 1;
		v = get_uint(b, (int)i);
		fmt_str(x->f, i == 2 ? "htons(" : "htobe64(");
		fmt_udec(x->f, i == 2 ? __builtin_bswap16((unsigned short)v) :
			 __builtin_bswap64(v));
		fmt_chr(x->f, ')');
		return 1;
	case NK_MULTIPATH:
		return p_multipath(x, p, len);
	case NK_STRUCT_ATTRS:
		if (len < k->sa->l->size)
			return 0;
		if (fetch(x->f, x->s, b, p, k->sa->l->size))
			;
		else if (k->sa->bare)
			p_field_value(x->f, b, &k->sa->l->f[0]);
		else {
			fmt_chr(x->f, '{');
			p_fields(x->f, b, k->sa->l, 0);
			fmt_chr(x->f, '}');
		}
		if (len > NL_ALIGN4(k->sa->l->size)) {
			fmt_str(x->f, ", ");
			if (k->sa->rest == &raw_rest)
				p_data(x->f, x->s, p + NL_ALIGN4(k->sa->l->size),
				       len - NL_ALIGN4(k->sa->l->size), 1);
			else
				walk(x, &nla_walk,
				     p + NL_ALIGN4(k->sa->l->size),
				     len - NL_ALIGN4(k->sa->l->size),
				     k->sa->rest);
		}
		return 1;
	case NK_MCLIST:
		if (len < sizeof(struct packet_diag_mclist))
			return 0;
		p_array_ctx(x->f, x->s, p, len / sizeof(struct packet_diag_mclist),
			    sizeof(struct packet_diag_mclist), 0, p_mclist_elem,
			    0);
		return 1;
	case NK_BPF:
		i = len / sizeof(struct sock_filter);
		if (!i || (unsigned short)i != i)
			return 0;
		p_bpf_filter(x->f, x->s, p, i, 1);
		return 1;
	case NK_RTVIA:
		return p_rtvia(x, p, len);
	case NK_INET_BC:
		return p_inet_bc(x, p, len);
	case NK_XLAT8:
		if (!fetch(x->f, x->s, b, p, 1))
			p_xlat(x->f, b[0], k->t, k->unknown);
		return 1;
	case NK_XLAT16:
		if (len < 2)
			return 0;
		if (!fetch(x->f, x->s, b, p, 2))
			p_xlat(x->f, get_uint(b, 2), k->t, k->unknown);
		return 1;
	case NK_CLOCK:
		if (len > 8)
			return 0;
		hk_memset(b, 0, 8);
		if (!fetch(x->f, x->s, b, p, len))
			p_clock_t(x->f, get_uint(b, 8));
		return 1;
	case NK_GATEWAY:
		i = x->family == AF_INET ? 4 : x->family == AF_INET6 ? 16 : 0;
		if (!i || len < i)
			return 0;
		if (!fetch(x->f, x->s, b, p, i))
			p_in_addr(x->f, 0, b, (int)i, i == 4 ? "inet_addr(" :
				  "inet_pton(AF_INET6, ", ")");
		return 1;
	case NK_STRUCTS:
		if (len < k->l->size)
			return 0;
		p_array_ctx(x->f, x->s, p, len / k->l->size, k->l->size, 0,
			    p_struct_elem, (void *)k->l);
		return 1;
	case NK_XLAT32:
	case NK_X32:
	case NK_X16:
		i = k->kind == NK_X16 ? 2 : 4;
		if (len < i)
			return 0;
		if (fetch(x->f, x->s, b, p, i))
			return 1;
		if (k->kind != NK_XLAT32)
			p_hex(x->f, get_uint(b, (int)i));
		else
			p_xlat(x->f, get_uint(b, 4), k->t, k->unknown);
		return 1;
	case NK_NESTED:
		walk(x, &nla_walk, p, len, k->nest);
		return 1;
	case NK_LINKINFO:
		hk_memset(x->link_kind, 0, sizeof(x->link_kind));
		walk(x, &nla_walk, p, len, k->nest);
		return 1;
	case NK_LINK_KIND:
	case NK_LINK_SLAVE_KIND:
		i = k->kind == NK_LINK_SLAVE_KIND;
		hk_memset(x->link_kind[i], 0, sizeof(x->link_kind[i]));
		if (len < sizeof(x->link_kind[i]) &&
		    sysgate_read_mem(x->s, x->link_kind[i], (void *)p, len) !=
			    (long)len)
			x->link_kind[i][0] = 0;
		p_nla_str(x, p, len);
		return 1;
	case NK_LINK_DATA:
	case NK_LINK_SLAVE_DATA:
		i = k->kind == NK_LINK_SLAVE_DATA;
		if (!link_data_set((int)i, x->link_kind[i]))
			return 0;
		walk(x, &nla_walk, p, len, link_data_set((int)i,
							 x->link_kind[i]));
		return 1;
	case NK_LINK_XSTATS: {
		const struct layout *l = link_xstats(x->link_kind[0]);

		if (!l || len < l->size)
			return 0;
		if (!fetch(x->f, x->s, b, p, l->size)) {
			fmt_chr(x->f, '{');
			p_fields(x->f, b, l, 0);
			fmt_chr(x->f, '}');
		}
		return 1;
	}
	case NK_ETH_PROTO: {
		static const struct field eth = { "", 0, 2, FK_ETH_PROTO, 0, 0 };

		if (len < 2)
			return 0;
		if (!fetch(x->f, x->s, b, p, 2))
			p_field_value(x->f, b, &eth);
		return 1;
	}
	case NK_PORT_VSI:
		return p_port_vsi(x, p, len);
	case NK_COUNTERS:
		return p_counters(x, k->ctr, p, len);
	case NK_IN_ADDR:
	case NK_IN6_ADDR:
		i = k->kind == NK_IN_ADDR ? 4 : 16;
		if (len < i)
			return 0;
		if (!fetch(x->f, x->s, b, p, i))
			p_in_addr(x->f, 0, b, (int)i, i == 4 ? "inet_addr(" :
				  "inet_pton(AF_INET6, ", ")");
		return 1;
	case NK_STRUCT:
		if (len < k->l->size)
			return 0;
		if (fetch(x->f, x->s, b, p, k->l->size))
			return 1;
		fmt_chr(x->f, '{');
		p_fields(x->f, b, k->l, 0);
		fmt_chr(x->f, '}');
		return 1;
	}
	return 0;
}

static void nla_one(struct nl *x, const void *hp, unsigned long p,
		    unsigned long len, const void *arg)
{
	const struct nla_set *set = arg;
	const struct nlattr *h = hp;
	unsigned int type = h->nla_type & NLA_TYPE_MASK;
	unsigned long n = h->nla_len < len ? h->nla_len : len;
	struct fmt *f = x->f;

	if (n > NLA_HDRLEN)
		fmt_chr(f, '[');
	f_udec(f, "{nla_len=", h->nla_len);
	fmt_str(f, ", nla_type=");
	if (h->nla_type & NLA_F_NESTED) {
		p_named(f, "NLA_F_NESTED", NLA_F_NESTED, 'x');
		fmt_chr(f, '|');
	}
	if (h->nla_type & NLA_F_NET_BYTEORDER) {
		p_named(f, "NLA_F_NET_BYTEORDER", NLA_F_NET_BYTEORDER, 'x');
		fmt_chr(f, '|');
	}
	if (set->names)
		p_xlat(f, type, set->names, set->unknown);
	else
		p_hex(f, type);
	fmt_chr(f, '}');
	if (n <= NLA_HDRLEN)
		return;
	fmt_str(f, ", ");
	if (type >= set->n || !p_nla_value(x, &set->kinds[type],
					    p + NLA_HDRLEN, n - NLA_HDRLEN))
		p_data(f, x->s, p + NLA_HDRLEN, n - NLA_HDRLEN, 1);
	fmt_chr(f, ']');
}

static const struct walk nla_walk = { NLA_HDRLEN, 2, nla_one };

/* --- sock_diag ------------------------------------------------------ */

#define F(st, m, k, t, u) { #m, __builtin_offsetof(st, m), \
			    sizeof(((st *)0)->m), k, t, u }

static const struct field unix_req_f[] = {
	F(struct unix_diag_req, sdiag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct unix_diag_req, sdiag_protocol, FK_U, 0, 0),
	F(struct unix_diag_req, udiag_states, FK_BITS, &xl_tcp_states,
	  "1<<TCP_???"),
	F(struct unix_diag_req, udiag_ino, FK_U, 0, 0),
	F(struct unix_diag_req, udiag_show, FK_FLAGS, &xl_udiag_show,
	  "UDIAG_SHOW_???"),
	F(struct unix_diag_req, udiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field unix_msg_f[] = {
	F(struct unix_diag_msg, udiag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct unix_diag_msg, udiag_type, FK_XLAT, &xl_sock_types,
	  "SOCK_???"),
	F(struct unix_diag_msg, udiag_state, FK_XLAT, &xl_tcp_states,
	  "TCP_???"),
	F(struct unix_diag_msg, udiag_ino, FK_U, 0, 0),
	F(struct unix_diag_msg, udiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field unix_vfs_f[] = {
	F(struct unix_diag_vfs, udiag_vfs_dev, FK_DEV, 0, 0),
	F(struct unix_diag_vfs, udiag_vfs_ino, FK_U, 0, 0),
};
static const struct field unix_rqlen_f[] = {
	F(struct unix_diag_rqlen, udiag_rqueue, FK_U, 0, 0),
	F(struct unix_diag_rqlen, udiag_wqueue, FK_U, 0, 0),
};
#define LAYOUT(fl, st) { fl, sizeof(fl) / sizeof(fl[0]), sizeof(st) }
/* A structure strace reads without its tail padding: up to field last */
#define LAYOUT_TO(fl, st, last) { fl, sizeof(fl) / sizeof(fl[0]), \
				  __builtin_offsetof(st, last) + \
				  sizeof(((st *)0)->last) }
static const struct layout unix_req_l = LAYOUT(unix_req_f, struct unix_diag_req);
static const struct layout unix_msg_l = LAYOUT(unix_msg_f, struct unix_diag_msg);
static const struct layout unix_vfs_l = LAYOUT(unix_vfs_f, struct unix_diag_vfs);
static const struct layout unix_rqlen_l =
	LAYOUT(unix_rqlen_f, struct unix_diag_rqlen);

static const struct indexed meminfo = { &xl_sk_meminfo, "SK_MEMINFO_???", 4,
					0 };
static const struct nla_kind unix_attr_k[] = {
	[UNIX_DIAG_NAME] = { NK_STR, { 0 }, 0, 0 },
	[UNIX_DIAG_VFS] = { NK_STRUCT, { &unix_vfs_l }, 0, 0 },
	[UNIX_DIAG_PEER] = { NK_U32, { 0 }, 0, 0 },
	[UNIX_DIAG_ICONS] = { NK_U32S, { 0 }, 0, 0 },
	[UNIX_DIAG_RQLEN] = { NK_STRUCT, { &unix_rqlen_l }, 0, 0 },
	[UNIX_DIAG_MEMINFO] = { .kind = NK_INDEXED, .idx = &meminfo },
	[UNIX_DIAG_SHUTDOWN] = { NK_U8, { 0 }, 0, 0 },
	[UNIX_DIAG_UID] = { NK_UID, { 0 }, 0, 0 },
};
static const struct field nl_req_f[] = {
	F(struct netlink_diag_req, sdiag_family, FK_XLAT, &xl_families,
	  "AF_???"),
	F(struct netlink_diag_req, sdiag_protocol, FK_NLPROTO, 0, 0),
	F(struct netlink_diag_req, ndiag_ino, FK_U, 0, 0),
	F(struct netlink_diag_req, ndiag_show, FK_FLAGS, &xl_ndiag_show,
	  "NDIAG_SHOW_???"),
	F(struct netlink_diag_req, ndiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field nl_msg_f[] = {
	F(struct netlink_diag_msg, ndiag_family, FK_XLAT, &xl_families,
	  "AF_???"),
	F(struct netlink_diag_msg, ndiag_type, FK_XLAT, &xl_sock_types,
	  "SOCK_???"),
	F(struct netlink_diag_msg, ndiag_protocol, FK_XLAT, &xl_netlink_protos,
	  "NETLINK_???"),
	F(struct netlink_diag_msg, ndiag_state, FK_XLAT, &xl_netlink_states,
	  "NETLINK_???"),
	F(struct netlink_diag_msg, ndiag_portid, FK_U, 0, 0),
	F(struct netlink_diag_msg, ndiag_dst_portid, FK_U, 0, 0),
	F(struct netlink_diag_msg, ndiag_dst_group, FK_U, 0, 0),
	F(struct netlink_diag_msg, ndiag_ino, FK_U, 0, 0),
	F(struct netlink_diag_msg, ndiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field nl_ring_f[] = {
	F(struct netlink_diag_ring, ndr_block_size, FK_U, 0, 0),
	F(struct netlink_diag_ring, ndr_block_nr, FK_U, 0, 0),
	F(struct netlink_diag_ring, ndr_frame_size, FK_U, 0, 0),
	F(struct netlink_diag_ring, ndr_frame_nr, FK_U, 0, 0),
};
static const struct layout nl_req_l =
	LAYOUT(nl_req_f, struct netlink_diag_req);
static const struct layout nl_msg_l =
	LAYOUT(nl_msg_f, struct netlink_diag_msg);
static const struct layout nl_ring_l =
	LAYOUT(nl_ring_f, struct netlink_diag_ring);
static const struct nla_kind nl_attr_k[] = {
	[NETLINK_DIAG_MEMINFO] = { .kind = NK_INDEXED, .idx = &meminfo },
	[NETLINK_DIAG_GROUPS] = { NK_WORDS, { 0 }, 0, 0 },
	[NETLINK_DIAG_RX_RING] = { NK_STRUCT, { &nl_ring_l }, 0, 0 },
	[NETLINK_DIAG_TX_RING] = { NK_STRUCT, { &nl_ring_l }, 0, 0 },
	[NETLINK_DIAG_FLAGS] = { NK_FLAGS32, { 0 }, &xl_ndiag_flags,
				 "NDIAG_FLAG_???" },
};
static const struct nla_set nl_attrs = {
	&xl_netlink_diag_attrs, "NETLINK_DIAG_???", nl_attr_k,
	sizeof(nl_attr_k) / sizeof(nl_attr_k[0]),
};

/* AF_INET and AF_INET6: the requests (v2, and the older TCPDIAG's) and
 * replies */
static const struct field inet_req_f[] = {
	F(struct inet_diag_req_v2, sdiag_family, FK_XLAT, &xl_families,
	  "AF_???"),
	F(struct inet_diag_req_v2, sdiag_protocol, FK_XLAT, &xl_ipprotos,
	  "IPPROTO_???"),
	F(struct inet_diag_req_v2, idiag_ext, FK_BITS1, &xl_inet_diag_attrs,
	  "1<<INET_DIAG_??\?-1"),
	F(struct inet_diag_req_v2, idiag_states, FK_BITS, &xl_tcp_states,
	  "1<<TCP_???"),
	F(struct inet_diag_req_v2, id, FK_SOCKID, 0, 0),
};
static const struct field inet_req_compat_f[] = {
	F(struct inet_diag_req, idiag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct inet_diag_req, idiag_src_len, FK_U, 0, 0),
	F(struct inet_diag_req, idiag_dst_len, FK_U, 0, 0),
	F(struct inet_diag_req, idiag_ext, FK_BITS1, &xl_inet_diag_attrs,
	  "1<<INET_DIAG_??\?-1"),
	F(struct inet_diag_req, id, FK_SOCKID, 0, 0),
	F(struct inet_diag_req, idiag_states, FK_BITS, &xl_tcp_states,
	  "1<<TCP_???"),
	F(struct inet_diag_req, idiag_dbs, FK_U, 0, 0),
};
static const struct field inet_msg_f[] = {
	F(struct inet_diag_msg, idiag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct inet_diag_msg, idiag_state, FK_XLAT, &xl_tcp_states,
	  "TCP_???"),
	F(struct inet_diag_msg, idiag_timer, FK_U, 0, 0),
	F(struct inet_diag_msg, idiag_retrans, FK_U, 0, 0),
	F(struct inet_diag_msg, id, FK_SOCKID, 0, 0),
	F(struct inet_diag_msg, idiag_expires, FK_U, 0, 0),
	F(struct inet_diag_msg, idiag_rqueue, FK_U, 0, 0),
	F(struct inet_diag_msg, idiag_wqueue, FK_U, 0, 0),
	F(struct inet_diag_msg, idiag_uid, FK_U, 0, 0),
	F(struct inet_diag_msg, idiag_inode, FK_U, 0, 0),
};
static const struct layout inet_req_l =
	LAYOUT(inet_req_f, struct inet_diag_req_v2);
static const struct layout inet_req_compat_l =
	LAYOUT(inet_req_compat_f, struct inet_diag_req);
static const struct layout inet_msg_l =
	LAYOUT(inet_msg_f, struct inet_diag_msg);
static const struct nla_kind inet_req_attr_k[] = {
	[INET_DIAG_REQ_BYTECODE] = { NK_INET_BC, { 0 }, 0, 0 },
	[INET_DIAG_REQ_PROTOCOL] = { NK_XLAT32, { 0 }, &xl_ipprotos,
				     "IPPROTO_???" },
};
static const struct nla_set inet_req_attrs = {
	&xl_inet_diag_req_attrs, "INET_DIAG_REQ_???", inet_req_attr_k,
	sizeof(inet_req_attr_k) / sizeof(inet_req_attr_k[0]),
};
static const struct field inet_meminfo_f[] = {
	F(struct inet_diag_meminfo, idiag_rmem, FK_U, 0, 0),
	F(struct inet_diag_meminfo, idiag_wmem, FK_U, 0, 0),
	F(struct inet_diag_meminfo, idiag_fmem, FK_U, 0, 0),
	F(struct inet_diag_meminfo, idiag_tmem, FK_U, 0, 0),
};
static const struct layout inet_meminfo_l =
	LAYOUT(inet_meminfo_f, struct inet_diag_meminfo);
static const struct nla_kind inet_attr_k[] = {
	[INET_DIAG_MEMINFO] = { NK_STRUCT, { &inet_meminfo_l }, 0, 0 },
	[INET_DIAG_CONG] = { NK_STR, { 0 }, 0, 0 },
	[INET_DIAG_TOS] = { NK_U8, { 0 }, 0, 0 },
	[INET_DIAG_TCLASS] = { NK_U8, { 0 }, 0, 0 },
	[INET_DIAG_SKMEMINFO] = { .kind = NK_INDEXED, .idx = &meminfo },
	[INET_DIAG_SHUTDOWN] = { NK_FLAGS8, { 0 }, &xl_sock_shutdown_flags,
				 "???_SHUTDOWN" },
	[INET_DIAG_PROTOCOL] = { NK_XLAT8, { 0 }, &xl_ipprotos,
				 "IPPROTO_???" },
	[INET_DIAG_SKV6ONLY] = { NK_U8, { 0 }, 0, 0 },
	[INET_DIAG_MARK] = { NK_U32, { 0 }, 0, 0 },
	[INET_DIAG_CLASS_ID] = { NK_U32, { 0 }, 0, 0 },
	[INET_DIAG_CGROUP_ID] = { NK_U64, { 0 }, 0, 0 },
};
static const struct nla_set inet_attrs = {
	&xl_inet_diag_attrs, "INET_DIAG_???", inet_attr_k,
	sizeof(inet_attr_k) / sizeof(inet_attr_k[0]),
};

/* AF_PACKET */
static const struct field packet_req_f[] = {
	F(struct packet_diag_req, sdiag_family, FK_XLAT, &xl_families,
	  "AF_???"),
	F(struct packet_diag_req, sdiag_protocol, FK_X, 0, 0),
	F(struct packet_diag_req, pdiag_ino, FK_U, 0, 0),
	F(struct packet_diag_req, pdiag_show, FK_FLAGS, &xl_packet_diag_show,
	  "PACKET_SHOW_???"),
	F(struct packet_diag_req, pdiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field packet_msg_f[] = {
	F(struct packet_diag_msg, pdiag_family, FK_XLAT, &xl_families,
	  "AF_???"),
	F(struct packet_diag_msg, pdiag_type, FK_XLAT, &xl_sock_types,
	  "SOCK_???"),
	F(struct packet_diag_msg, pdiag_num, FK_XLAT, &xl_ethernet_protocols,
	  "ETH_P_???"),
	F(struct packet_diag_msg, pdiag_ino, FK_U, 0, 0),
	F(struct packet_diag_msg, pdiag_cookie, FK_COOKIE, 0, 0),
};
static const struct field packet_info_f[] = {
	F(struct packet_diag_info, pdi_index, FK_IFINDEX, 0, 0),
	F(struct packet_diag_info, pdi_version, FK_XLAT, &xl_tpacket_versions,
	  "TPACKET_???"),
	F(struct packet_diag_info, pdi_reserve, FK_U, 0, 0),
	F(struct packet_diag_info, pdi_copy_thresh, FK_U, 0, 0),
	F(struct packet_diag_info, pdi_tstamp, FK_U, 0, 0),
	F(struct packet_diag_info, pdi_flags, FK_FLAGS,
	  &xl_packet_diag_info_flags, "PDI_???"),
};
static const struct field packet_ring_f[] = {
	F(struct packet_diag_ring, pdr_block_size, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_block_nr, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_frame_size, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_frame_nr, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_retire_tmo, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_sizeof_priv, FK_U, 0, 0),
	F(struct packet_diag_ring, pdr_features, FK_U, 0, 0),
};
static const struct layout packet_req_l =
	LAYOUT(packet_req_f, struct packet_diag_req);
static const struct layout packet_msg_l =
	LAYOUT(packet_msg_f, struct packet_diag_msg);
static const struct layout packet_info_l =
	LAYOUT(packet_info_f, struct packet_diag_info);
static const struct layout packet_ring_l =
	LAYOUT(packet_ring_f, struct packet_diag_ring);
static const struct nla_kind packet_attr_k[] = {
	[PACKET_DIAG_INFO] = { NK_STRUCT, { &packet_info_l }, 0, 0 },
	[PACKET_DIAG_MCLIST] = { NK_MCLIST, { 0 }, 0, 0 },
	[PACKET_DIAG_RX_RING] = { NK_STRUCT, { &packet_ring_l }, 0, 0 },
	[PACKET_DIAG_TX_RING] = { NK_STRUCT, { &packet_ring_l }, 0, 0 },
	[PACKET_DIAG_FANOUT] = { NK_U32, { 0 }, 0, 0 },
	[PACKET_DIAG_UID] = { NK_UID, { 0 }, 0, 0 },
	[PACKET_DIAG_MEMINFO] = { .kind = NK_INDEXED, .idx = &meminfo },
	[PACKET_DIAG_FILTER] = { NK_BPF, { 0 }, 0, 0 },
};
static const struct nla_set packet_attrs = {
	&xl_packet_diag_attrs, "PACKET_DIAG_???", packet_attr_k,
	sizeof(packet_attr_k) / sizeof(packet_attr_k[0]),
};

/* AF_SMC */
static const struct field smc_req_f[] = {
	F(struct smc_diag_req, diag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct smc_diag_req, diag_ext, FK_BITS1, &xl_smc_diag_attrs,
	  "1<<SMC_DIAG_??\?-1"),
	F(struct smc_diag_req, id, FK_SOCKID4, 0, 0),
};
static const struct field smc_msg_f[] = {
	F(struct smc_diag_msg, diag_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct smc_diag_msg, diag_state, FK_XLAT, &xl_smc_states, "SMC_???"),
	F(struct smc_diag_msg, diag_fallback, FK_XLAT, &xl_smc_diag_modes,
	  "SMC_DIAG_MODE_???"),
	F(struct smc_diag_msg, diag_shutdown, FK_U, 0, 0),
	F(struct smc_diag_msg, id, FK_SOCKID4, 0, 0),
	F(struct smc_diag_msg, diag_uid, FK_U, 0, 0),
	F(struct smc_diag_msg, diag_inode, FK_U, 0, 0),
};
static const struct layout smc_req_l = LAYOUT(smc_req_f, struct smc_diag_req);
static const struct layout smc_msg_l = LAYOUT(smc_msg_f, struct smc_diag_msg);
static const struct field smc_conn_f[] = {
	F(struct smc_diag_conninfo, token, FK_U, 0, 0),
	F(struct smc_diag_conninfo, sndbuf_size, FK_U, 0, 0),
	F(struct smc_diag_conninfo, rmbe_size, FK_U, 0, 0),
	F(struct smc_diag_conninfo, peer_rmbe_size, FK_U, 0, 0),
	F(struct smc_diag_conninfo, rx_prod, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, rx_cons, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, tx_prod, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, tx_cons, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, rx_prod_flags, FK_X0, 0, 0),
	F(struct smc_diag_conninfo, rx_conn_state_flags, FK_X0, 0, 0),
	F(struct smc_diag_conninfo, tx_prod_flags, FK_X0, 0, 0),
	F(struct smc_diag_conninfo, tx_conn_state_flags, FK_X0, 0, 0),
	F(struct smc_diag_conninfo, tx_prep, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, tx_sent, FK_SMC_CURSOR, 0, 0),
	F(struct smc_diag_conninfo, tx_fin, FK_SMC_CURSOR, 0, 0),
};
static const struct field smc_link_f[] = {
	F(struct smc_diag_linkinfo, link_id, FK_U, 0, 0),
	F(struct smc_diag_linkinfo, ibname, FK_CSTR, 0, 0),
	F(struct smc_diag_linkinfo, ibport, FK_U, 0, 0),
	F(struct smc_diag_linkinfo, gid, FK_CSTR, 0, 0),
	F(struct smc_diag_linkinfo, peer_gid, FK_CSTR, 0, 0),
};
static const struct field smc_lgr_f[] = {
	F(struct smc_diag_lgrinfo, lnk, FK_SMC_LINKS, 0, 0),
	F(struct smc_diag_lgrinfo, role, FK_XLAT, &xl_smc_lgr_roles,
	  "SMC_???"),
};
static const struct field smc_dmb_f[] = {
	F(struct smcd_diag_dmbinfo, linkid, FK_U, 0, 0),
	F(struct smcd_diag_dmbinfo, peer_gid, FK_X, 0, 0),
	F(struct smcd_diag_dmbinfo, my_gid, FK_X, 0, 0),
	F(struct smcd_diag_dmbinfo, token, FK_X, 0, 0),
	F(struct smcd_diag_dmbinfo, peer_token, FK_X, 0, 0),
};
static const struct field smc_fallback_f[] = {
	F(struct smc_diag_fallback, reason, FK_XLAT_VERBOSE,
	  &xl_smc_decl_codes, "SMC_CLC_DECL_???"),
	F(struct smc_diag_fallback, peer_diagnosis, FK_XLAT_VERBOSE,
	  &xl_smc_decl_codes, "SMC_CLC_DECL_???"),
};
static const struct layout smc_fallback_l = LAYOUT(smc_fallback_f,
						   struct smc_diag_fallback);
static const struct layout smc_dmb_l = LAYOUT(smc_dmb_f,
					      struct smcd_diag_dmbinfo);
static const struct layout smc_conn_l = LAYOUT(smc_conn_f,
					       struct smc_diag_conninfo);
static const struct layout smc_link_l = LAYOUT(smc_link_f,
					       struct smc_diag_linkinfo);
static const struct layout smc_lgr_l = LAYOUT(smc_lgr_f,
					      struct smc_diag_lgrinfo);
static const struct nla_kind smc_attr_k[] = {
	[SMC_DIAG_CONNINFO] = { NK_STRUCT, { &smc_conn_l }, 0, 0 },
	[SMC_DIAG_LGRINFO] = { NK_STRUCT, { &smc_lgr_l }, 0, 0 },
	[SMC_DIAG_SHUTDOWN] = { NK_FLAGS8, { 0 }, &xl_sock_shutdown_flags,
				"???_SHUTDOWN" },
	[SMC_DIAG_DMBINFO] = { NK_STRUCT, { &smc_dmb_l }, 0, 0 },
	[SMC_DIAG_FALLBACK] = { NK_STRUCT, { &smc_fallback_l }, 0, 0 },
};
static const struct nla_set smc_attrs = {
	&xl_smc_diag_attrs, "SMC_DIAG_???", smc_attr_k,
	sizeof(smc_attr_k) / sizeof(smc_attr_k[0]),
};

static const struct nla_set unix_attrs = {
	&xl_unix_diag_attrs, "UNIX_DIAG_???", unix_attr_k,
	sizeof(unix_attr_k) / sizeof(unix_attr_k[0]),
};

static const struct field selnl_enforce_f[] = {
	F(struct selnl_msg_setenforce, val, FK_D, 0, 0),
};
static const struct field selnl_load_f[] = {
	F(struct selnl_msg_policyload, seqno, FK_U, 0, 0),
};
static const struct layout selnl_enforce_l =
	LAYOUT(selnl_enforce_f, struct selnl_msg_setenforce);
static const struct layout selnl_load_l =
	LAYOUT(selnl_load_f, struct selnl_msg_policyload);

/* route messages: their structures, and attributes */
struct rtgen { unsigned char family; };
static const struct field rtgen_nsid_f[] = {
	{ "rtgen_family", 0, 1, FK_XLAT, &xl_families, "AF_???" },
};
static const struct field netconf_f[] = {
	{ "ncm_family", 0, 1, FK_XLAT, &xl_families, "AF_???" },
};
static const struct field dcb_f[] = {
	F(struct dcbmsg, dcb_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct dcbmsg, cmd, FK_XLAT, &xl_dcb_commands, "DCB_CMD_???"),
};
static const struct field br_port_f[] = {
	F(struct br_port_msg, family, FK_XLAT, &xl_families, "AF_???"),
	F(struct br_port_msg, ifindex, FK_IFINDEX, 0, 0),
};
static const struct layout rtgen_nsid_l = LAYOUT(rtgen_nsid_f, struct rtgen);
static const struct layout netconf_l = LAYOUT(netconf_f, struct rtgen);
static const struct layout dcb_l = LAYOUT(dcb_f, struct dcbmsg);
static const struct layout br_port_l = LAYOUT(br_port_f, struct br_port_msg);

static const struct nla_kind nsid_attr_k[] = {
	[1] = { NK_S32, { 0 }, 0, 0 },	/* NETNSA_NSID */
	[2] = { NK_U32, { 0 }, 0, 0 },	/* NETNSA_PID */
	[3] = { NK_FD, { 0 }, 0, 0 },	/* NETNSA_FD */
	[4] = { NK_S32, { 0 }, 0, 0 },	/* NETNSA_TARGET_NSID */
	[5] = { NK_S32, { 0 }, 0, 0 },	/* NETNSA_CURRENT_NSID */
};
static const struct nla_kind netconf_attr_k[] = {
	[1] = { NK_IFINDEX, { 0 }, 0, 0 },	/* NETCONFA_IFINDEX */
	[2] = { NK_S32, { 0 }, 0, 0 }, [3] = { NK_S32, { 0 }, 0, 0 },
	[4] = { NK_S32, { 0 }, 0, 0 }, [5] = { NK_S32, { 0 }, 0, 0 },
	[6] = { NK_S32, { 0 }, 0, 0 }, [7] = { NK_S32, { 0 }, 0, 0 },
	[8] = { NK_S32, { 0 }, 0, 0 },
};
#define SET(names, unknown, kinds) { names, unknown, kinds, \
				     sizeof(kinds) / sizeof(kinds[0]) }
static const struct nla_set nsid_attrs =
	SET(&xl_rtnl_nsid_attrs, "NETNSA_???", nsid_attr_k);
static const struct nla_set netconf_attrs =
	SET(&xl_rtnl_netconf_attrs, "NETCONFA_???", netconf_attr_k);
static const struct nla_set dcb_attrs = { &xl_rtnl_dcb_attrs,
					  "DCB_ATTR_???", 0, 0 };
/* RTM_*MDB's entries (a struct br_mdb_entry and its attributes) and
 * router ports (an interface and its attributes) */
static const struct nla_kind mdb_eattr_k[] = {
	[MDBA_MDB_EATTR_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
};
static const struct nla_set mdb_eattrs =
	SET(&xl_mdba_mdb_eattr_attrs, "MDBA_MDB_EATTR_???", mdb_eattr_k);
static const struct field mdb_entry_f[] = {
	F(struct br_mdb_entry, ifindex, FK_IFINDEX, 0, 0),
	F(struct br_mdb_entry, state, FK_XLAT, &xl_mdb_states, "MDB_???"),
	F(struct br_mdb_entry, flags, FK_FLAGS, &xl_mdb_flags,
	  "MDB_FLAGS_???"),
	F(struct br_mdb_entry, vid, FK_U, 0, 0),
	F(struct br_mdb_entry, addr, FK_MDB_ADDR, 0, 0),
};
static const struct layout mdb_entry_l =
	LAYOUT(mdb_entry_f, struct br_mdb_entry);
static const struct struct_attrs mdb_entry_info = { &mdb_entry_l,
						    &mdb_eattrs, 0 };
static const struct nla_kind mdb_entry_k[] = {
	[MDBA_MDB_ENTRY_INFO] = { .kind = NK_STRUCT_ATTRS,
				  .sa = &mdb_entry_info },
};
static const struct nla_set mdb_entry_attrs =
	SET(&xl_mdba_mdb_entry_attrs, "MDBA_MDB_ENTRY_???", mdb_entry_k);
static const struct nla_kind mdb_mdb_k[] = {
	[MDBA_MDB_ENTRY] = { .kind = NK_NESTED, .nest = &mdb_entry_attrs },
};
static const struct nla_set mdb_mdb_attrs =
	SET(&xl_mdba_mdb_attrs, "MDBA_MDB_???", mdb_mdb_k);
static const struct nla_kind mdb_pattr_k[] = {
	[MDBA_ROUTER_PATTR_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
	[MDBA_ROUTER_PATTR_TYPE] = { NK_XLAT8, { 0 }, &xl_mdb_rtr_types,
				     "MDB_RTR_TYPE_???" },
	[MDBA_ROUTER_PATTR_INET_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
	[MDBA_ROUTER_PATTR_INET6_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
};
static const struct nla_set mdb_pattrs =
	SET(&xl_mdba_router_pattr_attrs, "MDBA_ROUTER_PATTR_???", mdb_pattr_k);
struct mdb_port { unsigned int ifindex; };
static const struct field mdb_port_f[] = {
	F(struct mdb_port, ifindex, FK_IFINDEX, 0, 0),
};
static const struct layout mdb_port_l = LAYOUT(mdb_port_f, struct mdb_port);
static const struct struct_attrs mdb_port = { &mdb_port_l, &mdb_pattrs, 1 };
static const struct nla_kind mdb_router_k[] = {
	[MDBA_ROUTER_PORT] = { .kind = NK_STRUCT_ATTRS, .sa = &mdb_port },
};
static const struct nla_set mdb_router_attrs =
	SET(&xl_mdba_router_attrs, "MDBA_ROUTER_???", mdb_router_k);
static const struct nla_kind mdb_attr_k[] = {
	[MDBA_MDB] = { .kind = NK_NESTED, .nest = &mdb_mdb_attrs },
	[MDBA_ROUTER] = { .kind = NK_NESTED, .nest = &mdb_router_attrs },
};
static const struct nla_set mdb_attrs =
	SET(&xl_rtnl_mdb_attrs, "MDBA_???", mdb_attr_k);
/* What follows the structure, as bytes (strace decodes no attributes) */
static const struct nla_set raw_rest = { 0, 0, 0, 0 };

/* RTM_*LINK: struct ifinfomsg and the IFLA_* attributes */
static const struct field ifinfo_f[] = {
	F(struct ifinfomsg, ifi_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct ifinfomsg, ifi_type, FK_XLAT, &xl_arphrd_types, "ARPHRD_???"),
	F(struct ifinfomsg, ifi_index, FK_IFINDEX, 0, 0),
	F(struct ifinfomsg, ifi_flags, FK_FLAGS, &xl_iff_flags, "IFF_???"),
	F(struct ifinfomsg, ifi_change, FK_X, 0, 0),
};
static const struct layout ifinfo_l = LAYOUT(ifinfo_f, struct ifinfomsg);

static const struct nla_kind xdp_attr_k[] = {
	[IFLA_XDP_FD] = { NK_FD, { 0 }, 0, 0 },
	[IFLA_XDP_ATTACHED] = { NK_XLAT8, { 0 }, &xl_xdp_attached,
				"XDP_ATTACHED_???" },
	[IFLA_XDP_FLAGS] = { NK_FLAGS32, { 0 }, &xl_xdp_flags,
			     "XDP_FLAGS_???" },
	[IFLA_XDP_PROG_ID] = { NK_U32, { 0 }, 0, 0 },
	[IFLA_XDP_DRV_PROG_ID] = { NK_U32, { 0 }, 0, 0 },
	[IFLA_XDP_SKB_PROG_ID] = { NK_U32, { 0 }, 0, 0 },
	[IFLA_XDP_HW_PROG_ID] = { NK_U32, { 0 }, 0, 0 },
	[IFLA_XDP_EXPECTED_FD] = { NK_FD, { 0 }, 0, 0 },
};
static const struct nla_kind down_reason_attr_k[] = {
	[IFLA_PROTO_DOWN_REASON_MASK] = { NK_X32, { 0 }, 0, 0 },
	[IFLA_PROTO_DOWN_REASON_VALUE] = { NK_X32, { 0 }, 0, 0 },
};
static const struct nla_kind port_attr_k[] = {
	[IFLA_PORT_VF] = { NK_U32, { 0 }, 0, 0 },
	[IFLA_PORT_PROFILE] = { NK_STR, { 0 }, 0, 0 },
	[IFLA_PORT_VSI_TYPE] = { NK_PORT_VSI, { 0 }, 0, 0 },
	[IFLA_PORT_REQUEST] = { NK_U8, { 0 }, 0, 0 },
	[IFLA_PORT_RESPONSE] = { NK_U16, { 0 }, 0, 0 },
};
static const struct nla_set xdp_attrs =
	SET(&xl_ifla_xdp_attrs, "IFLA_XDP_???", xdp_attr_k);
static const struct nla_set down_reason_attrs =
	SET(&xl_ifla_proto_down_reason_attrs, "IFLA_PROTO_DOWN_REASON_???",
	    down_reason_attr_k);
/* (strace names an unknown port attribute IFLA_VF_PORT_???) */
static const struct nla_set port_attrs =
	SET(&xl_ifla_port_attrs, "IFLA_VF_PORT_???", port_attr_k);
static const struct nla_kind vf_port_attr_k[] = {
	[IFLA_VF_PORT] = { .kind = NK_NESTED, .nest = &port_attrs },
};
static const struct nla_set vf_port_attrs =
	SET(&xl_ifla_vf_port_attrs, "IFLA_VF_PORT_???", vf_port_attr_k);
/* rtnl_link_stats and rtnl_link_stats64: rx_nohandler and
 * rx_otherhost_dropped came later */
static const char *const link_stats_names[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors",
	"tx_errors", "rx_dropped", "tx_dropped", "multicast", "collisions",
	"rx_length_errors", "rx_over_errors", "rx_crc_errors",
	"rx_frame_errors", "rx_fifo_errors", "rx_missed_errors",
	"tx_aborted_errors", "tx_carrier_errors", "tx_fifo_errors",
	"tx_heartbeat_errors", "tx_window_errors", "rx_compressed",
	"tx_compressed", "rx_nohandler", "rx_otherhost_dropped",
};
static const struct counters link_stats = { link_stats_names, 24, 23, 4 };
static const struct counters link_stats64 = { link_stats_names, 25, 23, 8 };
static const struct field ifmap_f[] = {
	F(struct rtnl_link_ifmap, mem_start, FK_X, 0, 0),
	F(struct rtnl_link_ifmap, mem_end, FK_X, 0, 0),
	F(struct rtnl_link_ifmap, base_addr, FK_X, 0, 0),
	F(struct rtnl_link_ifmap, irq, FK_U, 0, 0),
	F(struct rtnl_link_ifmap, dma, FK_U, 0, 0),
	F(struct rtnl_link_ifmap, port, FK_U, 0, 0),
};
/* (28 bytes, as strace reads it) */
static const struct layout ifmap_l =
	LAYOUT_TO(ifmap_f, struct rtnl_link_ifmap, port);
static const struct nla_kind linkinfo_attr_k[] = {
	[IFLA_INFO_KIND] = { NK_LINK_KIND, { 0 }, 0, 0 },
	[IFLA_INFO_DATA] = { NK_LINK_DATA, { 0 }, 0, 0 },
	[IFLA_INFO_XSTATS] = { NK_LINK_XSTATS, { 0 }, 0, 0 },
	[IFLA_INFO_SLAVE_KIND] = { NK_LINK_SLAVE_KIND, { 0 }, 0, 0 },
	[IFLA_INFO_SLAVE_DATA] = { NK_LINK_SLAVE_DATA, { 0 }, 0, 0 },
};
static const struct nla_set linkinfo_attrs =
	SET(&xl_ifla_info_attrs, "IFLA_INFO_???", linkinfo_attr_k);
#define K(k) { k, { 0 }, 0, 0 }
/* IFLA_PROTINFO of a bridge's port */
static const struct field bridge_id_f[] = {
	F(struct ifla_bridge_id, prio, FK_U8S, 0, 0),
	F(struct ifla_bridge_id, addr, FK_MAC, 0, 0),
};
static const struct layout bridge_id_l =
	LAYOUT(bridge_id_f, struct ifla_bridge_id);
static const struct nla_kind brport_attr_k[] = {
	[IFLA_BRPORT_STATE] = K(NK_U8), [IFLA_BRPORT_PRIORITY] = K(NK_U16),
	[IFLA_BRPORT_COST] = K(NK_U32), [IFLA_BRPORT_MODE] = K(NK_U8),
	[IFLA_BRPORT_GUARD] = K(NK_U8), [IFLA_BRPORT_PROTECT] = K(NK_U8),
	[IFLA_BRPORT_FAST_LEAVE] = K(NK_U8), [IFLA_BRPORT_LEARNING] = K(NK_U8),
	[IFLA_BRPORT_UNICAST_FLOOD] = K(NK_U8),
	[IFLA_BRPORT_PROXYARP] = K(NK_U8),
	[IFLA_BRPORT_LEARNING_SYNC] = K(NK_U8),
	[IFLA_BRPORT_PROXYARP_WIFI] = K(NK_U8),
	[IFLA_BRPORT_ROOT_ID] = { NK_STRUCT, { &bridge_id_l }, 0, 0 },
	[IFLA_BRPORT_BRIDGE_ID] = { NK_STRUCT, { &bridge_id_l }, 0, 0 },
	[IFLA_BRPORT_DESIGNATED_PORT] = K(NK_U16),
	[IFLA_BRPORT_DESIGNATED_COST] = K(NK_U16),
	[IFLA_BRPORT_ID] = K(NK_U16), [IFLA_BRPORT_NO] = K(NK_U16),
	[IFLA_BRPORT_TOPOLOGY_CHANGE_ACK] = K(NK_U8),
	[IFLA_BRPORT_CONFIG_PENDING] = K(NK_U8),
	[IFLA_BRPORT_MESSAGE_AGE_TIMER] = K(NK_CLOCK),
	[IFLA_BRPORT_FORWARD_DELAY_TIMER] = K(NK_CLOCK),
	[IFLA_BRPORT_HOLD_TIMER] = K(NK_CLOCK),
	[IFLA_BRPORT_MULTICAST_ROUTER] = K(NK_U8),
	[IFLA_BRPORT_MCAST_FLOOD] = K(NK_U8),
	[IFLA_BRPORT_MCAST_TO_UCAST] = K(NK_U8),
	[IFLA_BRPORT_VLAN_TUNNEL] = K(NK_U8),
	[IFLA_BRPORT_BCAST_FLOOD] = K(NK_U8),
	[IFLA_BRPORT_GROUP_FWD_MASK] = K(NK_X16),
	[IFLA_BRPORT_NEIGH_SUPPRESS] = K(NK_U8),
	[IFLA_BRPORT_ISOLATED] = K(NK_U8),
	[IFLA_BRPORT_BACKUP_PORT] = K(NK_IFINDEX),
	[IFLA_BRPORT_MRP_RING_OPEN] = K(NK_U8),
	[IFLA_BRPORT_MRP_IN_OPEN] = K(NK_U8),
	[IFLA_BRPORT_MCAST_EHT_HOSTS_LIMIT] = K(NK_U32),
	[IFLA_BRPORT_MCAST_EHT_HOSTS_CNT] = K(NK_U32),
	[IFLA_BRPORT_LOCKED] = K(NK_U8),
};
static const struct nla_set brport_attrs =
	SET(&xl_ifla_brport_attrs, "IFLA_BRPORT_???", brport_attr_k);
/* IFLA_INFO_DATA of a bridge ("bridge") */
static const struct nla_kind querier_attr_k[] = {
	[BRIDGE_QUERIER_IP_ADDRESS] = K(NK_IN_ADDR),
	[BRIDGE_QUERIER_IP_PORT] = K(NK_IFINDEX),
	[BRIDGE_QUERIER_IP_OTHER_TIMER] = K(NK_CLOCK),
	[BRIDGE_QUERIER_IPV6_ADDRESS] = K(NK_IN6_ADDR),
	[BRIDGE_QUERIER_IPV6_PORT] = K(NK_IFINDEX),
	[BRIDGE_QUERIER_IPV6_OTHER_TIMER] = K(NK_CLOCK),
};
static const struct nla_set querier_attrs =
	SET(&xl_bridge_querier_attrs, "BRIDGE_QUERIER_???", querier_attr_k);
static const struct field boolopt_f[] = {
	F(struct br_boolopt_multi, optval, FK_BITS, &xl_br_boolopts,
	  "1<<BR_BOOLOPT_???"),
	F(struct br_boolopt_multi, optmask, FK_BITS, &xl_br_boolopts,
	  "1<<BR_BOOLOPT_???"),
};
static const struct layout boolopt_l =
	LAYOUT(boolopt_f, struct br_boolopt_multi);
static const struct nla_kind br_attr_k[] = {
	[IFLA_BR_FORWARD_DELAY] = K(NK_CLOCK), [IFLA_BR_HELLO_TIME] = K(NK_CLOCK),
	[IFLA_BR_MAX_AGE] = K(NK_CLOCK), [IFLA_BR_AGEING_TIME] = K(NK_CLOCK),
	[IFLA_BR_STP_STATE] = K(NK_U32), [IFLA_BR_PRIORITY] = K(NK_U16),
	[IFLA_BR_VLAN_FILTERING] = K(NK_U8),
	[IFLA_BR_VLAN_PROTOCOL] = K(NK_ETH_PROTO),
	[IFLA_BR_GROUP_FWD_MASK] = K(NK_X16),
	[IFLA_BR_ROOT_ID] = { NK_STRUCT, { &bridge_id_l }, 0, 0 },
	[IFLA_BR_BRIDGE_ID] = { NK_STRUCT, { &bridge_id_l }, 0, 0 },
	[IFLA_BR_ROOT_PORT] = K(NK_U16), [IFLA_BR_ROOT_PATH_COST] = K(NK_U32),
	[IFLA_BR_TOPOLOGY_CHANGE] = K(NK_U8),
	[IFLA_BR_TOPOLOGY_CHANGE_DETECTED] = K(NK_U8),
	[IFLA_BR_HELLO_TIMER] = K(NK_CLOCK), [IFLA_BR_TCN_TIMER] = K(NK_CLOCK),
	[IFLA_BR_TOPOLOGY_CHANGE_TIMER] = K(NK_CLOCK),
	[IFLA_BR_GC_TIMER] = K(NK_CLOCK), [IFLA_BR_GROUP_ADDR] = K(NK_MAC),
	[IFLA_BR_MCAST_ROUTER] = K(NK_U8), [IFLA_BR_MCAST_SNOOPING] = K(NK_U8),
	[IFLA_BR_MCAST_QUERY_USE_IFADDR] = K(NK_U8),
	[IFLA_BR_MCAST_QUERIER] = K(NK_U8),
	[IFLA_BR_MCAST_HASH_ELASTICITY] = K(NK_U32),
	[IFLA_BR_MCAST_HASH_MAX] = K(NK_U32),
	[IFLA_BR_MCAST_LAST_MEMBER_CNT] = K(NK_U32),
	[IFLA_BR_MCAST_STARTUP_QUERY_CNT] = K(NK_U32),
	[IFLA_BR_MCAST_LAST_MEMBER_INTVL] = K(NK_CLOCK),
	[IFLA_BR_MCAST_MEMBERSHIP_INTVL] = K(NK_CLOCK),
	[IFLA_BR_MCAST_QUERIER_INTVL] = K(NK_CLOCK),
	[IFLA_BR_MCAST_QUERY_INTVL] = K(NK_CLOCK),
	[IFLA_BR_MCAST_QUERY_RESPONSE_INTVL] = K(NK_CLOCK),
	[IFLA_BR_MCAST_STARTUP_QUERY_INTVL] = K(NK_CLOCK),
	[IFLA_BR_NF_CALL_IPTABLES] = K(NK_U8),
	[IFLA_BR_NF_CALL_IP6TABLES] = K(NK_U8),
	[IFLA_BR_NF_CALL_ARPTABLES] = K(NK_U8),
	[IFLA_BR_VLAN_DEFAULT_PVID] = K(NK_U16),
	[IFLA_BR_VLAN_STATS_ENABLED] = K(NK_U8),
	[IFLA_BR_MCAST_STATS_ENABLED] = K(NK_U8),
	[IFLA_BR_MCAST_IGMP_VERSION] = K(NK_U8),
	[IFLA_BR_MCAST_MLD_VERSION] = K(NK_U8),
	[IFLA_BR_VLAN_STATS_PER_PORT] = K(NK_U8),
	[IFLA_BR_MULTI_BOOLOPT] = { NK_STRUCT, { &boolopt_l }, 0, 0 },
	[IFLA_BR_MCAST_QUERIER_STATE] = { NK_NESTED, { .nest = &querier_attrs },
					  0, 0 },
};
static const struct nla_set br_attrs =
	SET(&xl_ifla_br_attrs, "IFLA_BR_???", br_attr_k);
/* IFLA_INFO_DATA of a tun or tap device ("tun") */
static const struct nla_kind tun_attr_k[] = {
	[IFLA_TUN_OWNER] = K(NK_UID), [IFLA_TUN_GROUP] = K(NK_UID),
	[IFLA_TUN_TYPE] = { NK_XLAT8, { 0 }, &xl_tun_types, "IFF_???" },
	[IFLA_TUN_PI] = K(NK_U8), [IFLA_TUN_VNET_HDR] = K(NK_U8),
	[IFLA_TUN_PERSIST] = K(NK_U8), [IFLA_TUN_MULTI_QUEUE] = K(NK_U8),
	[IFLA_TUN_NUM_QUEUES] = K(NK_U32),
	[IFLA_TUN_NUM_DISABLED_QUEUES] = K(NK_U32),
};
static const struct nla_set tun_attrs =
	SET(&xl_ifla_tun_attrs, "IFLA_TUN_???", tun_attr_k);

/* IFLA_INFO_XSTATS of a CAN device ("can") */
static const struct field can_stats_f[] = {
	F(struct can_device_stats, bus_error, FK_U, 0, 0),
	F(struct can_device_stats, error_warning, FK_U, 0, 0),
	F(struct can_device_stats, error_passive, FK_U, 0, 0),
	F(struct can_device_stats, bus_off, FK_U, 0, 0),
	F(struct can_device_stats, arbitration_lost, FK_U, 0, 0),
	F(struct can_device_stats, restarts, FK_U, 0, 0),
};
static const struct layout can_stats_l =
	LAYOUT(can_stats_f, struct can_device_stats);

static const struct layout *link_xstats(const char *kind)
{
	return !hk_strcmp(kind, "can") ? &can_stats_l : 0;
}

/* The attributes IFLA_INFO_DATA (slave: IFLA_INFO_SLAVE_DATA) of a link
 * of this kind hold, or 0 */
static const struct nla_set *link_data_set(int slave, const char *kind)
{
	static const struct {
		const char *kind;
		const struct nla_set *set, *slave_set;
	} kinds[] = {
		{ "bridge", &br_attrs, &brport_attrs },
		{ "tun", &tun_attrs, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!hk_strcmp(kinds[i].kind, kind))
			return slave ? kinds[i].slave_set : kinds[i].set;
	return 0;
}
/* IFLA_PROTINFO (and IFLA_AF_SPEC) of AF_INET6 */
static const struct indexed inet6_conf = { &xl_inet6_devconf, "DEVCONF_???",
					   4, 1 };
static const struct indexed inet6_stats = { &xl_ipstats_mib,
					    "IPSTATS_MIB_???", 8, 0 };
static const struct indexed icmp6_stats = { &xl_icmp6_mib, "ICMP6_MIB_???",
					    8, 0 };
static const struct field cacheinfo_f[] = {
	F(struct ifla_cacheinfo, max_reasm_len, FK_U, 0, 0),
	F(struct ifla_cacheinfo, tstamp, FK_U, 0, 0),
	F(struct ifla_cacheinfo, reachable_time, FK_U, 0, 0),
	F(struct ifla_cacheinfo, retrans_time, FK_U, 0, 0),
};
static const struct layout cacheinfo_l =
	LAYOUT(cacheinfo_f, struct ifla_cacheinfo);
static const struct nla_kind inet6_attr_k[] = {
	[IFLA_INET6_FLAGS] = { NK_FLAGS32, { 0 }, &xl_inet6_if_flags,
			       "IF_???" },
	[IFLA_INET6_CONF] = { .kind = NK_INDEXED, .idx = &inet6_conf },
	[IFLA_INET6_STATS] = { .kind = NK_INDEXED, .idx = &inet6_stats },
	[IFLA_INET6_CACHEINFO] = { NK_STRUCT, { &cacheinfo_l }, 0, 0 },
	[IFLA_INET6_ICMP6STATS] = { .kind = NK_INDEXED, .idx = &icmp6_stats },
	[IFLA_INET6_TOKEN] = K(NK_IN6_ADDR),
	[IFLA_INET6_ADDR_GEN_MODE] = { NK_XLAT8, { 0 }, &xl_in6_addr_gen_modes,
				       "IN6_ADDR_GEN_MODE_???" },
	[IFLA_INET6_RA_MTU] = K(NK_U32),
};
static const struct nla_set inet6_attrs =
	SET(&xl_ifla_inet6_attrs, "IFLA_INET6_???", inet6_attr_k);
static const struct family_set protinfo_sets[] = {
	{ AF_BRIDGE, &brport_attrs }, { AF_INET6, &inet6_attrs }, { 0, 0 },
};
/* IFLA_VFINFO_LIST: each VF's IFLA_VF_INFO */
static const struct field vf_mac_f[] = {
	F(struct ifla_vf_mac, vf, FK_U, 0, 0),
	F(struct ifla_vf_mac, mac, FK_MAC, 0, 0),
};
static const struct field vf_vlan_f[] = {
	F(struct ifla_vf_vlan, vf, FK_U, 0, 0),
	F(struct ifla_vf_vlan, vlan, FK_U, 0, 0),
	F(struct ifla_vf_vlan, qos, FK_U, 0, 0),
};
static const struct field vf_tx_rate_f[] = {
	F(struct ifla_vf_tx_rate, vf, FK_U, 0, 0),
	F(struct ifla_vf_tx_rate, rate, FK_U, 0, 0),
};
/* (spoofchk, rss_query_en and trust: the same two u32s) */
static const struct field vf_setting_f[] = {
	F(struct ifla_vf_spoofchk, vf, FK_U, 0, 0),
	F(struct ifla_vf_spoofchk, setting, FK_U, 0, 0),
};
static const struct field vf_link_state_f[] = {
	F(struct ifla_vf_link_state, vf, FK_U, 0, 0),
	F(struct ifla_vf_link_state, link_state, FK_XLAT,
	  &xl_ifla_vf_link_states, "IFLA_VF_LINK_STATE_???"),
};
static const struct field vf_rate_f[] = {
	F(struct ifla_vf_rate, vf, FK_U, 0, 0),
	F(struct ifla_vf_rate, min_tx_rate, FK_U, 0, 0),
	F(struct ifla_vf_rate, max_tx_rate, FK_U, 0, 0),
};
static const struct field vf_guid_f[] = {
	F(struct ifla_vf_guid, vf, FK_U, 0, 0),
	F(struct ifla_vf_guid, guid, FK_X, 0, 0),
};
static const struct field vf_vlan_info_f[] = {
	F(struct ifla_vf_vlan_info, vf, FK_U, 0, 0),
	F(struct ifla_vf_vlan_info, vlan, FK_U, 0, 0),
	F(struct ifla_vf_vlan_info, qos, FK_U, 0, 0),
	F(struct ifla_vf_vlan_info, vlan_proto, FK_ETH_PROTO, 0, 0),
};
static const struct field vf_broadcast_f[] = {
	F(struct ifla_vf_broadcast, broadcast, FK_MAC, 0, 0),
};
static const struct layout vf_mac_l = LAYOUT(vf_mac_f, struct ifla_vf_mac);
static const struct layout vf_vlan_l = LAYOUT(vf_vlan_f, struct ifla_vf_vlan);
static const struct layout vf_tx_rate_l =
	LAYOUT(vf_tx_rate_f, struct ifla_vf_tx_rate);
static const struct layout vf_setting_l =
	LAYOUT(vf_setting_f, struct ifla_vf_spoofchk);
static const struct layout vf_link_state_l =
	LAYOUT(vf_link_state_f, struct ifla_vf_link_state);
static const struct layout vf_rate_l = LAYOUT(vf_rate_f, struct ifla_vf_rate);
static const struct layout vf_guid_l = LAYOUT(vf_guid_f, struct ifla_vf_guid);
static const struct layout vf_vlan_info_l =
	LAYOUT(vf_vlan_info_f, struct ifla_vf_vlan_info);
static const struct layout vf_broadcast_l =
	LAYOUT(vf_broadcast_f, struct ifla_vf_broadcast);
static const struct nla_kind vf_stats_attr_k[] = {
	[IFLA_VF_STATS_RX_PACKETS] = K(NK_U64),
	[IFLA_VF_STATS_TX_PACKETS] = K(NK_U64),
	[IFLA_VF_STATS_RX_BYTES] = K(NK_U64),
	[IFLA_VF_STATS_TX_BYTES] = K(NK_U64),
	[IFLA_VF_STATS_BROADCAST] = K(NK_U64),
	[IFLA_VF_STATS_MULTICAST] = K(NK_U64),
	[IFLA_VF_STATS_RX_DROPPED] = K(NK_U64),
	[IFLA_VF_STATS_TX_DROPPED] = K(NK_U64),
};
static const struct nla_set vf_stats_attrs =
	SET(&xl_ifla_vf_stats_attrs, "IFLA_VF_STATS_???", vf_stats_attr_k);
static const struct nla_kind vf_vlan_list_attr_k[] = {
	[IFLA_VF_VLAN_INFO] = { NK_STRUCT, { &vf_vlan_info_l }, 0, 0 },
};
static const struct nla_set vf_vlan_list_attrs =
	SET(&xl_ifla_vf_vlan_list_attrs, "IFLA_VF_VLAN_INFO_???",
	    vf_vlan_list_attr_k);
static const struct nla_kind vf_attr_k[] = {
	[IFLA_VF_MAC] = { NK_STRUCT, { &vf_mac_l }, 0, 0 },
	[IFLA_VF_VLAN] = { NK_STRUCT, { &vf_vlan_l }, 0, 0 },
	[IFLA_VF_TX_RATE] = { NK_STRUCT, { &vf_tx_rate_l }, 0, 0 },
	[IFLA_VF_SPOOFCHK] = { NK_STRUCT, { &vf_setting_l }, 0, 0 },
	[IFLA_VF_LINK_STATE] = { NK_STRUCT, { &vf_link_state_l }, 0, 0 },
	[IFLA_VF_RATE] = { NK_STRUCT, { &vf_rate_l }, 0, 0 },
	[IFLA_VF_RSS_QUERY_EN] = { NK_STRUCT, { &vf_setting_l }, 0, 0 },
	[IFLA_VF_STATS] = { .kind = NK_NESTED, .nest = &vf_stats_attrs },
	[IFLA_VF_TRUST] = { NK_STRUCT, { &vf_setting_l }, 0, 0 },
	[IFLA_VF_IB_NODE_GUID] = { NK_STRUCT, { &vf_guid_l }, 0, 0 },
	[IFLA_VF_IB_PORT_GUID] = { NK_STRUCT, { &vf_guid_l }, 0, 0 },
	[IFLA_VF_VLAN_LIST] = { .kind = NK_NESTED,
				.nest = &vf_vlan_list_attrs },
	[IFLA_VF_BROADCAST] = { NK_STRUCT, { &vf_broadcast_l }, 0, 0 },
};
static const struct nla_set vf_attrs =
	SET(&xl_ifla_vf_attrs, "IFLA_VF_???", vf_attr_k);
static const struct nla_kind vf_info_attr_k[] = {
	[IFLA_VF_INFO] = { .kind = NK_NESTED, .nest = &vf_attrs },
};
static const struct nla_set vf_info_attrs =
	SET(&xl_ifla_vf_info_attrs, "IFLA_VF_INFO_???", vf_info_attr_k);
static const struct nla_set ifla_attrs;
static const struct nla_kind ifla_attr_k[] = {
	[IFLA_IFNAME] = K(NK_STR), [IFLA_MTU] = K(NK_U32),
	[IFLA_STATS] = { .kind = NK_COUNTERS, .ctr = &link_stats },
	[IFLA_STATS64] = { .kind = NK_COUNTERS, .ctr = &link_stats64 },
	[IFLA_MAP] = { NK_STRUCT, { &ifmap_l }, 0, 0 },
	[IFLA_LINKINFO] = { .kind = NK_LINKINFO, .nest = &linkinfo_attrs },
	[IFLA_LINK] = K(NK_U32), [IFLA_QDISC] = K(NK_STR),
	[IFLA_PROTINFO] = { .kind = NK_BY_FAMILY, .fam = protinfo_sets },
	[IFLA_VFINFO_LIST] = { .kind = NK_NESTED, .nest = &vf_info_attrs },
	[IFLA_MASTER] = K(NK_U32), [IFLA_TXQLEN] = K(NK_U32),
	[IFLA_WEIGHT] = K(NK_U32), [IFLA_OPERSTATE] = K(NK_U8),
	[IFLA_LINKMODE] = K(NK_U8), [IFLA_NET_NS_PID] = K(NK_U32),
	[IFLA_IFALIAS] = K(NK_STR), [IFLA_NUM_VF] = K(NK_U32),
	[IFLA_VF_PORTS] = { .kind = NK_NESTED, .nest = &vf_port_attrs },
	[IFLA_PORT_SELF] = { .kind = NK_NESTED, .nest = &port_attrs },
	[IFLA_GROUP] = K(NK_U32), [IFLA_NET_NS_FD] = K(NK_FD),
	[IFLA_EXT_MASK] = { NK_FLAGS32, { 0 }, &xl_rtext_filters,
			    "RTEXT_FILTER_???" },
	[IFLA_PROMISCUITY] = K(NK_U32), [IFLA_NUM_TX_QUEUES] = K(NK_U32),
	[IFLA_NUM_RX_QUEUES] = K(NK_U32), [IFLA_CARRIER] = K(NK_U8),
	[IFLA_CARRIER_CHANGES] = K(NK_U32), [IFLA_LINK_NETNSID] = K(NK_S32),
	[IFLA_PHYS_PORT_NAME] = K(NK_STR), [IFLA_PROTO_DOWN] = K(NK_U8),
	[IFLA_GSO_MAX_SEGS] = K(NK_U32), [IFLA_GSO_MAX_SIZE] = K(NK_U32),
	[IFLA_XDP] = { .kind = NK_NESTED, .nest = &xdp_attrs },
	[IFLA_EVENT] = { NK_XLAT32, { 0 }, &xl_ifla_events, "IFLA_EVENT_???" },
	[IFLA_NEW_NETNSID] = K(NK_S32), [IFLA_IF_NETNSID] = K(NK_S32),
	[IFLA_CARRIER_UP_COUNT] = K(NK_U32),
	[IFLA_CARRIER_DOWN_COUNT] = K(NK_U32),
	[IFLA_NEW_IFINDEX] = K(NK_IFINDEX), [IFLA_MIN_MTU] = K(NK_U32),
	[IFLA_MAX_MTU] = K(NK_U32),
	/* (a list of IFLA_ALT_IFNAMEs: this set again) */
	[IFLA_PROP_LIST] = { .kind = NK_NESTED, .nest = &ifla_attrs },
	[IFLA_ALT_IFNAME] = K(NK_STR),
	[IFLA_PROTO_DOWN_REASON] = { .kind = NK_NESTED,
				     .nest = &down_reason_attrs },
	[IFLA_PARENT_DEV_NAME] = K(NK_STR),
	[IFLA_PARENT_DEV_BUS_NAME] = K(NK_STR),
	[IFLA_GRO_MAX_SIZE] = K(NK_U32), [IFLA_TSO_MAX_SIZE] = K(NK_U32),
	[IFLA_TSO_MAX_SEGS] = K(NK_U32), [IFLA_ALLMULTI] = K(NK_U32),
};
static const struct nla_set ifla_attrs =
	SET(&xl_ifla_attrs, "IFLA_???", ifla_attr_k);

/* RTM_*ADDR: struct ifaddrmsg and the IFA_* attributes */
static const struct field ifaddr_f[] = {
	F(struct ifaddrmsg, ifa_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct ifaddrmsg, ifa_prefixlen, FK_U, 0, 0),
	F(struct ifaddrmsg, ifa_flags, FK_FLAGS, &xl_ifa_flags, "IFA_F_???"),
	F(struct ifaddrmsg, ifa_scope, FK_XLAT, &xl_rt_scopes, 0),
	F(struct ifaddrmsg, ifa_index, FK_IFINDEX, 0, 0),
};
static const struct layout ifaddr_l = LAYOUT(ifaddr_f, struct ifaddrmsg);
static const struct field ifa_cacheinfo_f[] = {
	F(struct ifa_cacheinfo, ifa_prefered, FK_U, 0, 0),
	F(struct ifa_cacheinfo, ifa_valid, FK_U, 0, 0),
	F(struct ifa_cacheinfo, cstamp, FK_U, 0, 0),
	F(struct ifa_cacheinfo, tstamp, FK_U, 0, 0),
};
static const struct layout ifa_cacheinfo_l =
	LAYOUT(ifa_cacheinfo_f, struct ifa_cacheinfo);
static const struct nla_kind ifa_attr_k[] = {
	[IFA_ADDRESS] = K(NK_GATEWAY), [IFA_LOCAL] = K(NK_GATEWAY),
	[IFA_LABEL] = K(NK_STR), [IFA_BROADCAST] = K(NK_GATEWAY),
	[IFA_ANYCAST] = K(NK_GATEWAY),
	[IFA_CACHEINFO] = { NK_STRUCT, { &ifa_cacheinfo_l }, 0, 0 },
	[IFA_MULTICAST] = K(NK_GATEWAY),
	[IFA_FLAGS] = { NK_FLAGS32, { 0 }, &xl_ifa_flags, "IFA_F_???" },
	[IFA_RT_PRIORITY] = K(NK_U32), [IFA_TARGET_NETNSID] = K(NK_S32),
};
static const struct nla_set ifa_attrs =
	SET(&xl_ifa_attrs, "IFA_???", ifa_attr_k);

/* RTM_*ADDRLABEL: struct ifaddrlblmsg and the IFAL_* attributes */
static const struct field ifaddrlbl_f[] = {
	F(struct ifaddrlblmsg, ifal_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct ifaddrlblmsg, ifal_prefixlen, FK_U, 0, 0),
	F(struct ifaddrlblmsg, ifal_flags, FK_U, 0, 0),
	F(struct ifaddrlblmsg, ifal_index, FK_IFINDEX, 0, 0),
	F(struct ifaddrlblmsg, ifal_seq, FK_U, 0, 0),
};
static const struct layout ifaddrlbl_l =
	LAYOUT(ifaddrlbl_f, struct ifaddrlblmsg);
static const struct nla_kind ifal_attr_k[] = {
	[IFAL_ADDRESS] = K(NK_IN6_ADDR), [IFAL_LABEL] = K(NK_U32),
};
static const struct nla_set ifal_attrs =
	SET(&xl_ifal_attrs, "IFAL_???", ifal_attr_k);

/* Traffic control: struct tcmsg (qdiscs, classes, filters, chains) and
 * the TCA_* attributes, struct tcamsg (actions) and TCA_ACT_*'s */
static const struct field tcmsg_f[] = {
	F(struct tcmsg, tcm_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct tcmsg, tcm_ifindex, FK_IFINDEX, 0, 0),
	F(struct tcmsg, tcm_handle, FK_U, 0, 0),
	F(struct tcmsg, tcm_parent, FK_U, 0, 0),
	F(struct tcmsg, tcm_info, FK_U, 0, 0),
};
static const struct layout tcmsg_l = LAYOUT(tcmsg_f, struct tcmsg);
static const struct field tc_stats_f[] = {
	F(struct tc_stats, bytes, FK_U, 0, 0),
	F(struct tc_stats, packets, FK_U, 0, 0),
	F(struct tc_stats, drops, FK_U, 0, 0),
	F(struct tc_stats, overlimits, FK_U, 0, 0),
	F(struct tc_stats, bps, FK_U, 0, 0),
	F(struct tc_stats, pps, FK_U, 0, 0),
	F(struct tc_stats, qlen, FK_U, 0, 0),
	F(struct tc_stats, backlog, FK_U, 0, 0),
};
static const struct layout tc_stats_l = LAYOUT_TO(tc_stats_f, struct tc_stats,
						  backlog);
static const struct field tc_estimator_f[] = {
	F(struct tc_estimator, interval, FK_D, 0, 0),
	F(struct tc_estimator, ewma_log, FK_U, 0, 0),
};
static const struct layout tc_estimator_l =
	LAYOUT(tc_estimator_f, struct tc_estimator);
static const struct field sizespec_f[] = {
	F(struct tc_sizespec, cell_log, FK_U, 0, 0),
	F(struct tc_sizespec, size_log, FK_U, 0, 0),
	F(struct tc_sizespec, cell_align, FK_D, 0, 0),
	F(struct tc_sizespec, overhead, FK_D, 0, 0),
	F(struct tc_sizespec, linklayer, FK_U, 0, 0),
	F(struct tc_sizespec, mpu, FK_U, 0, 0),
	F(struct tc_sizespec, mtu, FK_U, 0, 0),
	F(struct tc_sizespec, tsize, FK_U, 0, 0),
};
static const struct layout sizespec_l = LAYOUT(sizespec_f, struct tc_sizespec);
static const struct nla_kind stab_attr_k[] = {
	[TCA_STAB_BASE] = { NK_STRUCT, { &sizespec_l }, 0, 0 },
	[TCA_STAB_DATA] = K(NK_U16S),
};
static const struct nla_set stab_attrs =
	SET(&xl_tca_stab_attrs, "TCA_STAB_???", stab_attr_k);
static const struct field stats_basic_f[] = {
	F(struct gnet_stats_basic, bytes, FK_U, 0, 0),
	F(struct gnet_stats_basic, packets, FK_U, 0, 0),
};
static const struct layout stats_basic_l =
	LAYOUT_TO(stats_basic_f, struct gnet_stats_basic, packets);
static const struct field rate_est_f[] = {
	F(struct gnet_stats_rate_est, bps, FK_U, 0, 0),
	F(struct gnet_stats_rate_est, pps, FK_U, 0, 0),
};
static const struct layout rate_est_l =
	LAYOUT(rate_est_f, struct gnet_stats_rate_est);
static const struct field stats_queue_f[] = {
	F(struct gnet_stats_queue, qlen, FK_U, 0, 0),
	F(struct gnet_stats_queue, backlog, FK_U, 0, 0),
	F(struct gnet_stats_queue, drops, FK_U, 0, 0),
	F(struct gnet_stats_queue, requeues, FK_U, 0, 0),
	F(struct gnet_stats_queue, overlimits, FK_U, 0, 0),
};
static const struct layout stats_queue_l =
	LAYOUT(stats_queue_f, struct gnet_stats_queue);
static const struct field rate_est64_f[] = {
	F(struct gnet_stats_rate_est64, bps, FK_U, 0, 0),
	F(struct gnet_stats_rate_est64, pps, FK_U, 0, 0),
};
static const struct layout rate_est64_l =
	LAYOUT(rate_est64_f, struct gnet_stats_rate_est64);
static const struct nla_kind tc_stats_attr_k[] = {
	[TCA_STATS_BASIC] = { NK_STRUCT, { &stats_basic_l }, 0, 0 },
	[TCA_STATS_RATE_EST] = { NK_STRUCT, { &rate_est_l }, 0, 0 },
	[TCA_STATS_QUEUE] = { NK_STRUCT, { &stats_queue_l }, 0, 0 },
	[TCA_STATS_RATE_EST64] = { NK_STRUCT, { &rate_est64_l }, 0, 0 },
	[TCA_STATS_BASIC_HW] = { NK_STRUCT, { &stats_basic_l }, 0, 0 },
	[TCA_STATS_PKT64] = K(NK_U64),
};
static const struct nla_set tc_stats_attrs =
	SET(&xl_tca_stats_attrs, "TCA_STATS_???", tc_stats_attr_k);
static const struct nla_kind tca_attr_k[] = {
	[TCA_KIND] = K(NK_STR),
	[TCA_STATS] = { NK_STRUCT, { &tc_stats_l }, 0, 0 },
	[TCA_RATE] = { NK_STRUCT, { &tc_estimator_l }, 0, 0 },
	[TCA_FCNT] = K(NK_U32),
	[TCA_STATS2] = { .kind = NK_NESTED, .nest = &tc_stats_attrs },
	[TCA_STAB] = { .kind = NK_NESTED, .nest = &stab_attrs },
	[TCA_CHAIN] = K(NK_U32), [TCA_HW_OFFLOAD] = K(NK_U8),
	[TCA_INGRESS_BLOCK] = K(NK_U32), [TCA_EGRESS_BLOCK] = K(NK_U32),
};
static const struct nla_set tca_attrs =
	SET(&xl_tca_attrs, "TCA_???", tca_attr_k);
static const struct field tcamsg_f[] = {
	F(struct tcamsg, tca_family, FK_XLAT, &xl_families, "AF_???"),
};
static const struct layout tcamsg_l = LAYOUT(tcamsg_f, struct tcamsg);
static const struct nla_kind tca_act_attr_k[] = {
	[TCA_ACT_KIND] = K(NK_STR), [TCA_ACT_INDEX] = K(NK_U32),
	[TCA_ACT_STATS] = { .kind = NK_NESTED, .nest = &tc_stats_attrs },
	[TCA_ACT_FLAGS] = { NK_FLAGS32, { 0 }, &xl_tca_act_flags,
			    "TCA_ACT_FLAGS_???" },
	[TCA_ACT_HW_STATS] = { NK_FLAGS32, { 0 }, &xl_tca_act_hw_stats,
			       "TCA_ACT_HW_STATS_???" },
	[TCA_ACT_USED_HW_STATS] = { NK_FLAGS32, { 0 }, &xl_tca_act_hw_stats,
				    "TCA_ACT_HW_STATS_???" },
	[TCA_ACT_IN_HW_COUNT] = K(NK_U32),
};
static const struct nla_set tca_act_attrs =
	SET(&xl_tca_act_attrs, "TCA_ACT_???", tca_act_attr_k);

/* RTM_*NEIGHTBL: struct ndtmsg and the NDTA_* attributes */
static const struct field ndtmsg_f[] = {
	F(struct ndtmsg, ndtm_family, FK_XLAT, &xl_families, "AF_???"),
};
static const struct layout ndtmsg_l = LAYOUT(ndtmsg_f, struct ndtmsg);
static const struct field ndt_config_f[] = {
	F(struct ndt_config, ndtc_key_len, FK_U, 0, 0),
	F(struct ndt_config, ndtc_entry_size, FK_U, 0, 0),
	F(struct ndt_config, ndtc_entries, FK_U, 0, 0),
	F(struct ndt_config, ndtc_last_flush, FK_U, 0, 0),
	F(struct ndt_config, ndtc_last_rand, FK_U, 0, 0),
	F(struct ndt_config, ndtc_hash_rnd, FK_U, 0, 0),
	F(struct ndt_config, ndtc_hash_mask, FK_X0, 0, 0),
	F(struct ndt_config, ndtc_hash_chain_gc, FK_U, 0, 0),
	F(struct ndt_config, ndtc_proxy_qlen, FK_U, 0, 0),
};
static const struct layout ndt_config_l =
	LAYOUT(ndt_config_f, struct ndt_config);
static const struct field ndt_stats_f[] = {
	F(struct ndt_stats, ndts_allocs, FK_U, 0, 0),
	F(struct ndt_stats, ndts_destroys, FK_U, 0, 0),
	F(struct ndt_stats, ndts_hash_grows, FK_U, 0, 0),
	F(struct ndt_stats, ndts_res_failed, FK_U, 0, 0),
	F(struct ndt_stats, ndts_lookups, FK_U, 0, 0),
	F(struct ndt_stats, ndts_hits, FK_U, 0, 0),
	F(struct ndt_stats, ndts_rcv_probes_mcast, FK_U, 0, 0),
	F(struct ndt_stats, ndts_rcv_probes_ucast, FK_U, 0, 0),
	F(struct ndt_stats, ndts_periodic_gc_runs, FK_U, 0, 0),
	F(struct ndt_stats, ndts_forced_gc_runs, FK_U, 0, 0),
	F(struct ndt_stats, ndts_table_fulls, FK_U, 0, 0),
};
/* (strace 6.1's: without ndts_table_fulls' successors) */
static const struct layout ndt_stats_l =
	LAYOUT_TO(ndt_stats_f, struct ndt_stats, ndts_table_fulls);
static const struct nla_kind ndtpa_attr_k[] = {
	[NDTPA_IFINDEX] = K(NK_IFINDEX), [NDTPA_REFCNT] = K(NK_U32),
	[NDTPA_REACHABLE_TIME] = K(NK_U64),
	[NDTPA_BASE_REACHABLE_TIME] = K(NK_U64),
	[NDTPA_RETRANS_TIME] = K(NK_U64), [NDTPA_GC_STALETIME] = K(NK_U64),
	[NDTPA_DELAY_PROBE_TIME] = K(NK_U64), [NDTPA_QUEUE_LEN] = K(NK_U32),
	[NDTPA_APP_PROBES] = K(NK_U32), [NDTPA_UCAST_PROBES] = K(NK_U32),
	[NDTPA_MCAST_PROBES] = K(NK_U32), [NDTPA_ANYCAST_DELAY] = K(NK_U64),
	[NDTPA_PROXY_DELAY] = K(NK_U64), [NDTPA_PROXY_QLEN] = K(NK_U32),
	[NDTPA_LOCKTIME] = K(NK_U64), [NDTPA_QUEUE_LENBYTES] = K(NK_U32),
	[NDTPA_MCAST_REPROBES] = K(NK_U32),
};
static const struct nla_set ndtpa_attrs =
	SET(&xl_ndtpa_attrs, "NDTPA_???", ndtpa_attr_k);
static const struct nla_kind ndta_attr_k[] = {
	[NDTA_NAME] = K(NK_STR), [NDTA_THRESH1] = K(NK_U32),
	[NDTA_THRESH2] = K(NK_U32), [NDTA_THRESH3] = K(NK_U32),
	[NDTA_CONFIG] = { NK_STRUCT, { &ndt_config_l }, 0, 0 },
	[NDTA_PARMS] = { .kind = NK_NESTED, .nest = &ndtpa_attrs },
	[NDTA_STATS] = { NK_STRUCT, { &ndt_stats_l }, 0, 0 },
	[NDTA_GC_INTERVAL] = K(NK_U64),
};
static const struct nla_set ndta_attrs =
	SET(&xl_ndta_attrs, "NDTA_???", ndta_attr_k);

/* RTM_*ROUTE: struct rtmsg and the RTA_* attributes */
static const struct field rtmsg_f[] = {
	F(struct rtmsg, rtm_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct rtmsg, rtm_dst_len, FK_U, 0, 0),
	F(struct rtmsg, rtm_src_len, FK_U, 0, 0),
	F(struct rtmsg, rtm_tos, FK_FLAGS, &xl_ip_tos, "IPTOS_TOS_???"),
	F(struct rtmsg, rtm_table, FK_XLAT, &xl_rt_tables, 0),
	F(struct rtmsg, rtm_protocol, FK_XLAT, &xl_rt_protocols, "RTPROT_???"),
	F(struct rtmsg, rtm_scope, FK_XLAT, &xl_rt_scopes, 0),
	F(struct rtmsg, rtm_type, FK_XLAT, &xl_rtn_types, "RTN_???"),
	F(struct rtmsg, rtm_flags, FK_FLAGS, &xl_rtm_flags, "RTM_F_???"),
};
static const struct layout rtmsg_l = LAYOUT(rtmsg_f, struct rtmsg);
static const struct nla_kind rtax_attr_k[] = {
	[RTAX_LOCK] = K(NK_U32), [RTAX_MTU] = K(NK_U32),
	[RTAX_WINDOW] = K(NK_U32), [RTAX_RTT] = K(NK_U32),
	[RTAX_RTTVAR] = K(NK_U32), [RTAX_SSTHRESH] = K(NK_U32),
	[RTAX_CWND] = K(NK_U32), [RTAX_ADVMSS] = K(NK_U32),
	[RTAX_REORDERING] = K(NK_U32), [RTAX_HOPLIMIT] = K(NK_U32),
	[RTAX_INITCWND] = K(NK_U32), [RTAX_FEATURES] = K(NK_U32),
	[RTAX_RTO_MIN] = K(NK_U32), [RTAX_INITRWND] = K(NK_U32),
	[RTAX_QUICKACK] = K(NK_U32), [RTAX_CC_ALGO] = K(NK_STR),
	[RTAX_FASTOPEN_NO_COOKIE] = K(NK_U32),
};
static const struct nla_set rtax_attrs =
	SET(&xl_rtax_attrs, "RTAX_???", rtax_attr_k);
static const struct field rta_cacheinfo_f[] = {
	F(struct rta_cacheinfo, rta_clntref, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_lastuse, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_expires, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_error, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_used, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_id, FK_X, 0, 0),
	F(struct rta_cacheinfo, rta_ts, FK_U, 0, 0),
	F(struct rta_cacheinfo, rta_tsage, FK_U, 0, 0),
};
static const struct layout rta_cacheinfo_l =
	LAYOUT(rta_cacheinfo_f, struct rta_cacheinfo);
static const struct field mfc_stats_f[] = {
	F(struct rta_mfc_stats, mfcs_packets, FK_U, 0, 0),
	F(struct rta_mfc_stats, mfcs_bytes, FK_U, 0, 0),
	F(struct rta_mfc_stats, mfcs_wrong_if, FK_U, 0, 0),
};
static const struct layout mfc_stats_l =
	LAYOUT(mfc_stats_f, struct rta_mfc_stats);
static const struct nla_kind rta_attr_k[] = {
	[RTA_DST] = K(NK_GATEWAY), [RTA_SRC] = K(NK_GATEWAY),
	[RTA_IIF] = K(NK_IFINDEX), [RTA_OIF] = K(NK_IFINDEX),
	[RTA_GATEWAY] = K(NK_GATEWAY), [RTA_PRIORITY] = K(NK_U32),
	[RTA_PREFSRC] = K(NK_GATEWAY),
	[RTA_METRICS] = { .kind = NK_NESTED, .nest = &rtax_attrs },
	[RTA_MULTIPATH] = K(NK_MULTIPATH), [RTA_PROTOINFO] = K(NK_U32),
	[RTA_FLOW] = K(NK_U32),
	[RTA_CACHEINFO] = { NK_STRUCT, { &rta_cacheinfo_l }, 0, 0 },
	[RTA_MP_ALGO] = K(NK_U32),
	[RTA_TABLE] = { NK_XLAT32, { 0 }, &xl_rt_tables, 0 },
	[RTA_MARK] = K(NK_U32),
	[RTA_MFC_STATS] = { NK_STRUCT, { &mfc_stats_l }, 0, 0 },
	[RTA_VIA] = K(NK_RTVIA), [RTA_NEWDST] = K(NK_GATEWAY),
	[RTA_PREF] = K(NK_U8),
	[RTA_ENCAP_TYPE] = { NK_XLAT16, { 0 }, &xl_lwt_encap_types,
			     "LWTUNNEL_ENCAP_???" },
	[RTA_EXPIRES] = K(NK_U64), [RTA_UID] = K(NK_U32),
	[RTA_TTL_PROPAGATE] = K(NK_U8), [RTA_IP_PROTO] = K(NK_U8),
	[RTA_SPORT] = K(NK_U16), [RTA_DPORT] = K(NK_U16),
	[RTA_NH_ID] = K(NK_U32),
};
static const struct nla_set rta_attrs =
	SET(&xl_rta_attrs, "RTA_???", rta_attr_k);

/* RTM_*RULE: struct fib_rule_hdr and the FRA_* attributes */
static const struct field rule_f[] = {
	F(struct fib_rule_hdr, family, FK_XLAT, &xl_families, "AF_???"),
	F(struct fib_rule_hdr, dst_len, FK_U, 0, 0),
	F(struct fib_rule_hdr, src_len, FK_U, 0, 0),
	F(struct fib_rule_hdr, tos, FK_FLAGS, &xl_ip_tos, "IPTOS_TOS_???"),
	F(struct fib_rule_hdr, table, FK_XLAT, &xl_rt_tables, 0),
	F(struct fib_rule_hdr, action, FK_XLAT, &xl_fr_actions, "FR_ACT_???"),
	F(struct fib_rule_hdr, flags, FK_FLAGS, &xl_fib_rule_flags,
	  "FIB_RULE_???"),
};
static const struct layout rule_l = LAYOUT(rule_f, struct fib_rule_hdr);
static const struct field uid_range_f[] = {
	F(struct fib_rule_uid_range, start, FK_U, 0, 0),
	F(struct fib_rule_uid_range, end, FK_U, 0, 0),
};
static const struct layout uid_range_l =
	LAYOUT(uid_range_f, struct fib_rule_uid_range);
static const struct field port_range_f[] = {
	F(struct fib_rule_port_range, start, FK_U, 0, 0),
	F(struct fib_rule_port_range, end, FK_U, 0, 0),
};
static const struct layout port_range_l =
	LAYOUT(port_range_f, struct fib_rule_port_range);
static const struct nla_kind fra_attr_k[] = {
	[FRA_DST] = K(NK_GATEWAY), [FRA_SRC] = K(NK_GATEWAY),
	[FRA_IIFNAME] = K(NK_STR), [FRA_GOTO] = K(NK_U32),
	[FRA_PRIORITY] = K(NK_U32), [FRA_FWMARK] = K(NK_U32),
	[FRA_FLOW] = K(NK_U32), [FRA_TUN_ID] = K(NK_HTOBE64),
	[FRA_SUPPRESS_IFGROUP] = K(NK_U32),
	[FRA_SUPPRESS_PREFIXLEN] = K(NK_U32),
	[FRA_TABLE] = { NK_XLAT32, { 0 }, &xl_rt_tables, 0 },
	[FRA_FWMASK] = K(NK_U32), [FRA_OIFNAME] = K(NK_STR),
	[FRA_L3MDEV] = K(NK_U8),
	[FRA_UID_RANGE] = { NK_STRUCT, { &uid_range_l }, 0, 0 },
	[FRA_PROTOCOL] = { NK_XLAT8, { 0 }, &xl_rt_protocols, "RTPROT_???" },
	[FRA_IP_PROTO] = { NK_XLAT8, { 0 }, &xl_ipprotos, "IPPROTO_???" },
	[FRA_SPORT_RANGE] = { NK_STRUCT, { &port_range_l }, 0, 0 },
	[FRA_DPORT_RANGE] = { NK_STRUCT, { &port_range_l }, 0, 0 },
};
static const struct nla_set fra_attrs =
	SET(&xl_fra_attrs, "FRA_???", fra_attr_k);

/* RTM_*NEIGH: struct ndmsg and the NDA_* attributes */
static const struct field ndmsg_f[] = {
	F(struct ndmsg, ndm_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct ndmsg, ndm_ifindex, FK_IFINDEX, 0, 0),
	F(struct ndmsg, ndm_state, FK_FLAGS, &xl_nud_states, "NUD_???"),
	F(struct ndmsg, ndm_flags, FK_FLAGS, &xl_ntf_flags, "NTF_???"),
	F(struct ndmsg, ndm_type, FK_XLAT, &xl_rtn_types, "RTN_???"),
};
static const struct layout ndmsg_l = LAYOUT(ndmsg_f, struct ndmsg);
static const struct field nda_cacheinfo_f[] = {
	F(struct nda_cacheinfo, ndm_confirmed, FK_U, 0, 0),
	F(struct nda_cacheinfo, ndm_used, FK_U, 0, 0),
	F(struct nda_cacheinfo, ndm_updated, FK_U, 0, 0),
	F(struct nda_cacheinfo, ndm_refcnt, FK_U, 0, 0),
};
static const struct layout nda_cacheinfo_l =
	LAYOUT(nda_cacheinfo_f, struct nda_cacheinfo);
static const struct nla_kind nfea_attr_k[] = {
	[NFEA_ACTIVITY_NOTIFY] = { NK_FLAGS8, { 0 }, &xl_fdb_notify_flags,
				   "FDB_NOTIFY_???" },
};
static const struct nla_set nfea_attrs =
	SET(&xl_nfea_attrs, "NFEA_???", nfea_attr_k);
static const struct nla_kind nda_attr_k[] = {
	[NDA_DST] = K(NK_GATEWAY), [NDA_LLADDR] = K(NK_MAC),
	[NDA_CACHEINFO] = { NK_STRUCT, { &nda_cacheinfo_l }, 0, 0 },
	[NDA_PROBES] = K(NK_U32), [NDA_VLAN] = K(NK_U16),
	[NDA_PORT] = K(NK_HTONS), [NDA_VNI] = K(NK_U32),
	[NDA_IFINDEX] = K(NK_IFINDEX), [NDA_MASTER] = K(NK_IFINDEX),
	[NDA_LINK_NETNSID] = K(NK_U32), [NDA_SRC_VNI] = K(NK_U32),
	[NDA_PROTOCOL] = { NK_XLAT8, { 0 }, &xl_rt_protocols, "RTPROT_???" },
	[NDA_NH_ID] = K(NK_U32),
	[NDA_FDB_EXT_ATTRS] = { .kind = NK_NESTED, .nest = &nfea_attrs },
	[NDA_FLAGS_EXT] = { NK_FLAGS32, { 0 }, &xl_ntf_ext_flags,
			    "NTF_EXT_???" },
	[NDA_NDM_STATE_MASK] = { NK_FLAGS16, { 0 }, &xl_nud_states,
				 "NUD_???" },
	[NDA_NDM_FLAGS_MASK] = { NK_FLAGS8, { 0 }, &xl_ntf_flags, "NTF_???" },
};
static const struct nla_set nda_attrs =
	SET(&xl_nda_attrs, "NDA_???", nda_attr_k);

/* RTM_*STATS' extended statistics: a bridge's (its VLANs', multicast's,
 * STP's: the structures and any bytes after them), a bond's (802.3ad
 * counters); the offloaded ones; MPLS' of AF_SPEC */
static const struct field br_vlan_xstats_f[] = {
	F(struct bridge_vlan_xstats, rx_bytes, FK_U, 0, 0),
	F(struct bridge_vlan_xstats, rx_packets, FK_U, 0, 0),
	F(struct bridge_vlan_xstats, tx_bytes, FK_U, 0, 0),
	F(struct bridge_vlan_xstats, tx_packets, FK_U, 0, 0),
	F(struct bridge_vlan_xstats, vid, FK_U, 0, 0),
	F(struct bridge_vlan_xstats, flags, FK_FLAGS,
	  &xl_bridge_vlan_info_flags, "BRIDGE_VLAN_INFO_???"),
	F(struct bridge_vlan_xstats, pad2, FK_X_SET, 0, 0),
};
static const struct layout br_vlan_xstats_l =
	LAYOUT(br_vlan_xstats_f, struct bridge_vlan_xstats);
static const struct field br_stp_xstats_f[] = {
	F(struct bridge_stp_xstats, transition_blk, FK_U, 0, 0),
	F(struct bridge_stp_xstats, transition_fwd, FK_U, 0, 0),
	F(struct bridge_stp_xstats, rx_bpdu, FK_U, 0, 0),
	F(struct bridge_stp_xstats, tx_bpdu, FK_U, 0, 0),
	F(struct bridge_stp_xstats, rx_tcn, FK_U, 0, 0),
	F(struct bridge_stp_xstats, tx_tcn, FK_U, 0, 0),
};
static const struct layout br_stp_xstats_l =
	LAYOUT(br_stp_xstats_f, struct bridge_stp_xstats);
#define DIR(m) F(struct br_mcast_stats, m, FK_DIR_PAIR, 0, 0)
static const struct field br_mcast_f[] = {
	DIR(igmp_v1queries), DIR(igmp_v2queries), DIR(igmp_v3queries),
	DIR(igmp_leaves), DIR(igmp_v1reports), DIR(igmp_v2reports),
	DIR(igmp_v3reports),
	F(struct br_mcast_stats, igmp_parse_errors, FK_U, 0, 0),
	DIR(mld_v1queries), DIR(mld_v2queries), DIR(mld_leaves),
	DIR(mld_v1reports), DIR(mld_v2reports),
	F(struct br_mcast_stats, mld_parse_errors, FK_U, 0, 0),
	DIR(mcast_bytes), DIR(mcast_packets),
};
#undef DIR
static const struct layout br_mcast_l =
	LAYOUT(br_mcast_f, struct br_mcast_stats);
static const struct struct_attrs br_vlan_xstats = { &br_vlan_xstats_l,
						    &raw_rest, 0 };
static const struct struct_attrs br_mcast = { &br_mcast_l, &raw_rest, 0 };
static const struct struct_attrs br_stp_xstats = { &br_stp_xstats_l,
						   &raw_rest, 0 };
static const struct nla_kind br_xstats_k[] = {
	[BRIDGE_XSTATS_VLAN] = { .kind = NK_STRUCT_ATTRS,
				 .sa = &br_vlan_xstats },
	[BRIDGE_XSTATS_MCAST] = { .kind = NK_STRUCT_ATTRS, .sa = &br_mcast },
	[BRIDGE_XSTATS_STP] = { .kind = NK_STRUCT_ATTRS, .sa = &br_stp_xstats },
};
static const struct nla_set br_xstats_attrs =
	SET(&xl_bridge_xstats_attrs, "BRIDGE_XSTATS_???", br_xstats_k);
static const struct nla_kind bond_3ad_k[] = {
	[BOND_3AD_STAT_LACPDU_RX] = K(NK_U64),
	[BOND_3AD_STAT_LACPDU_TX] = K(NK_U64),
	[BOND_3AD_STAT_LACPDU_UNKNOWN_RX] = K(NK_U64),
	[BOND_3AD_STAT_LACPDU_ILLEGAL_RX] = K(NK_U64),
	[BOND_3AD_STAT_MARKER_RX] = K(NK_U64),
	[BOND_3AD_STAT_MARKER_TX] = K(NK_U64),
	[BOND_3AD_STAT_MARKER_RESP_RX] = K(NK_U64),
	[BOND_3AD_STAT_MARKER_RESP_TX] = K(NK_U64),
	[BOND_3AD_STAT_MARKER_UNKNOWN_RX] = K(NK_U64),
};
/* (strace names an unknown one BOND_XSTATS_???) */
static const struct nla_set bond_3ad_attrs =
	SET(&xl_bond_3ad_stat_attrs, "BOND_XSTATS_???", bond_3ad_k);
static const struct nla_kind bond_xstats_k[] = {
	[BOND_XSTATS_3AD] = { .kind = NK_NESTED, .nest = &bond_3ad_attrs },
};
static const struct nla_set bond_xstats_attrs =
	SET(&xl_bond_xstats_attrs, "BOND_XSTATS_???", bond_xstats_k);
static const struct nla_kind link_xstats_k[] = {
	[LINK_XSTATS_TYPE_BRIDGE] = { .kind = NK_NESTED,
				      .nest = &br_xstats_attrs },
	[LINK_XSTATS_TYPE_BOND] = { .kind = NK_NESTED,
				    .nest = &bond_xstats_attrs },
};
static const struct nla_set link_xstats_attrs =
	SET(&xl_link_xstats_types, "LINK_XSTATS_TYPE_???", link_xstats_k);
static const struct nla_kind offload_xstats_k[] = {
	[IFLA_OFFLOAD_XSTATS_CPU_HIT] = { .kind = NK_COUNTERS,
					  .ctr = &link_stats64 },
};
static const struct nla_set offload_xstats_attrs =
	SET(&xl_offload_xstats_attrs, "IFLA_OFFLOAD_XSTATS_???",
	    offload_xstats_k);
static const struct field mpls_stats_f[] = {
	F(struct mpls_link_stats, rx_packets, FK_U, 0, 0),
	F(struct mpls_link_stats, tx_packets, FK_U, 0, 0),
	F(struct mpls_link_stats, rx_bytes, FK_U, 0, 0),
	F(struct mpls_link_stats, tx_bytes, FK_U, 0, 0),
	F(struct mpls_link_stats, rx_errors, FK_U, 0, 0),
	F(struct mpls_link_stats, tx_errors, FK_U, 0, 0),
	F(struct mpls_link_stats, rx_dropped, FK_U, 0, 0),
	F(struct mpls_link_stats, tx_dropped, FK_U, 0, 0),
	F(struct mpls_link_stats, rx_noroute, FK_U, 0, 0),
};
static const struct layout mpls_stats_l =
	LAYOUT(mpls_stats_f, struct mpls_link_stats);
static const struct struct_attrs mpls_stats = { &mpls_stats_l, &raw_rest, 0 };
static const struct nla_kind mpls_stats_k[] = {
	[MPLS_STATS_LINK] = { .kind = NK_STRUCT_ATTRS, .sa = &mpls_stats },
};
static const struct nla_set mpls_stats_attrs =
	SET(&xl_mpls_stats_attrs, "MPLS_STATS_???", mpls_stats_k);
static const struct nla_kind stats_af_k[] = {
	[AF_MPLS] = { .kind = NK_NESTED, .nest = &mpls_stats_attrs },
};
static const struct nla_set stats_af_attrs =
	SET(&xl_families, "AF_???", stats_af_k);

/* RTM_*STATS: struct if_stats_msg and the IFLA_STATS_* attributes */
static const struct field ifstats_f[] = {
	F(struct if_stats_msg, family, FK_XLAT, &xl_families, "AF_???"),
	F(struct if_stats_msg, pad1, FK_X_SET, 0, 0),
	F(struct if_stats_msg, pad2, FK_X_SET, 0, 0),
	F(struct if_stats_msg, ifindex, FK_IFINDEX, 0, 0),
	F(struct if_stats_msg, filter_mask, FK_BITS, &xl_ifla_stats_attrs,
	  "1<<IFLA_STATS_???"),
};
static const struct layout ifstats_l = LAYOUT(ifstats_f, struct if_stats_msg);
static const struct nla_kind ifstats_attr_k[] = {
	[IFLA_STATS_LINK_64] = { .kind = NK_COUNTERS, .ctr = &link_stats64 },
	[IFLA_STATS_LINK_XSTATS] = { .kind = NK_NESTED,
				     .nest = &link_xstats_attrs },
	[IFLA_STATS_LINK_XSTATS_SLAVE] = { .kind = NK_NESTED,
					   .nest = &link_xstats_attrs },
	[IFLA_STATS_LINK_OFFLOAD_XSTATS] = { .kind = NK_NESTED,
					     .nest = &offload_xstats_attrs },
	[IFLA_STATS_AF_SPEC] = { .kind = NK_NESTED, .nest = &stats_af_attrs },
};
static const struct nla_set ifstats_attrs =
	SET(&xl_ifla_stats_attrs, "IFLA_STATS_???", ifstats_attr_k);

/* RTM_*NEXTHOP: struct nhmsg and the NHA_* attributes */
static const struct field nhmsg_f[] = {
	F(struct nhmsg, nh_family, FK_XLAT, &xl_families, "AF_???"),
	F(struct nhmsg, nh_scope, FK_XLAT, &xl_rt_scopes, 0),
	F(struct nhmsg, nh_protocol, FK_XLAT, &xl_rt_protocols, "RTPROT_???"),
	F(struct nhmsg, resvd, FK_X_SET, 0, 0),
	F(struct nhmsg, nh_flags, FK_FLAGS, &xl_rtnh_flags, "RTNH_F_???"),
};
static const struct layout nhmsg_l = LAYOUT(nhmsg_f, struct nhmsg);
/* (strace 6.1's names: weight_high was resvd1 then) */
struct nh_grp { unsigned int id; unsigned char weight, resvd1;
		unsigned short resvd2; };
static const struct field nh_grp_f[] = {
	F(struct nh_grp, id, FK_U, 0, 0),
	F(struct nh_grp, weight, FK_U, 0, 0),
	F(struct nh_grp, resvd1, FK_X_SET, 0, 0),
	F(struct nh_grp, resvd2, FK_X_SET, 0, 0),
};
static const struct layout nh_grp_l = LAYOUT(nh_grp_f, struct nh_grp);
static const struct nla_kind res_group_attr_k[] = {
	[NHA_RES_GROUP_BUCKETS] = { NK_U16, { 0 }, 0, 0 },
	[NHA_RES_GROUP_IDLE_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
	[NHA_RES_GROUP_UNBALANCED_TIMER] = { NK_CLOCK, { 0 }, 0, 0 },
	[NHA_RES_GROUP_UNBALANCED_TIME] = { NK_CLOCK, { 0 }, 0, 0 },
};
static const struct nla_kind res_bucket_attr_k[] = {
	[NHA_RES_BUCKET_INDEX] = { NK_U16, { 0 }, 0, 0 },
	[NHA_RES_BUCKET_IDLE_TIME] = { NK_CLOCK, { 0 }, 0, 0 },
	[NHA_RES_BUCKET_NH_ID] = { NK_U32, { 0 }, 0, 0 },
};
static const struct nla_set res_group_attrs =
	SET(&xl_nha_res_group_attrs, "NHA_RES_GROUP_???", res_group_attr_k);
static const struct nla_set res_bucket_attrs =
	SET(&xl_nha_res_bucket_attrs, "NHA_RES_BUCKET_???", res_bucket_attr_k);
static const struct nla_kind nha_attr_k[] = {
	[NHA_ID] = { NK_U32, { 0 }, 0, 0 },
	[NHA_GROUP] = { NK_STRUCTS, { &nh_grp_l }, 0, 0 },
	[NHA_GROUP_TYPE] = { NK_XLAT16, { 0 }, &xl_nh_grp_types,
			     "NEXTHOP_GRP_TYPE_???" },
	[NHA_BLACKHOLE] = { NK_U32, { 0 }, 0, 0 },
	[NHA_OIF] = { NK_IFINDEX, { 0 }, 0, 0 },
	[NHA_GATEWAY] = { NK_GATEWAY, { 0 }, 0, 0 },
	[NHA_ENCAP_TYPE] = { NK_XLAT16, { 0 }, &xl_lwt_encap_types,
			     "LWTUNNEL_ENCAP_???" },
	[NHA_GROUPS] = { NK_U32, { 0 }, 0, 0 },
	[NHA_MASTER] = { NK_IFINDEX, { 0 }, 0, 0 },
	[NHA_FDB] = { NK_U32, { 0 }, 0, 0 },
	[NHA_RES_GROUP] = { .kind = NK_NESTED, .nest = &res_group_attrs },
	[NHA_RES_BUCKET] = { .kind = NK_NESTED, .nest = &res_bucket_attrs },
};
static const struct nla_set nha_attrs =
	SET(&xl_nha_attrs, "NHA_???", nha_attr_k);

/* RTM_NEWCACHEREPORT: multicast routing's reports of each family */
static const struct field cachereport_f[] = {
	{ "rtgen_family", 0, 1, FK_RTNL_FAMILY, 0, 0 },
};
static const struct layout cachereport_l = LAYOUT(cachereport_f,
						  struct rtgen);
static const struct nla_kind ipmra_attr_k[] = {
	[1] = { NK_XLAT8, { 0 }, &xl_igmpmsg_types, "IGMPMSG_???" },
	[2] = { NK_U32, { 0 }, 0, 0 },		/* IPMRA_CREPORT_VIF_ID */
	[3] = { NK_IN_ADDR, { 0 }, 0, 0 }, [4] = { NK_IN_ADDR, { 0 }, 0, 0 },
	[6] = { NK_U32, { 0 }, 0, 0 },		/* IPMRA_CREPORT_TABLE */
};
static const struct nla_kind ip6mra_attr_k[] = {
	[1] = { NK_XLAT8, { 0 }, &xl_mrt6msg_types, "MRT6MSG_???" },
	[2] = { NK_U32, { 0 }, 0, 0 },		/* IP6MRA_CREPORT_MIF_ID */
	[3] = { NK_IN6_ADDR, { 0 }, 0, 0 }, [4] = { NK_IN6_ADDR, { 0 }, 0, 0 },
};
static const struct nla_set ipmra_attrs =
	SET(&xl_ipmra_creport_attrs, "IPMRA_CREPORT_???", ipmra_attr_k);
static const struct nla_set ip6mra_attrs =
	SET(&xl_ip6mra_creport_attrs, "IP6MRA_CREPORT_???", ip6mra_attr_k);

/*
 * What a message's payload is: by protocol and type, and where the
 * payload begins with an address family (route, sock_diag: family >= 0
 * or ANY_FAMILY), by that and by whether the message is a request.
 */
#define NO_FAMILY (-2)
#define ANY_FAMILY (-1)
struct body {
	unsigned char proto;
	unsigned short lo, hi;		/* nlmsg_type */
	short family;			/* ANY_FAMILY, NO_FAMILY */
	signed char request;		/* -1: any */
	const struct layout *l;
	const struct nla_set *attrs;
};

static const struct body bodies[] = {
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_UNIX, 1, &unix_req_l, 0 },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_UNIX, 0, &unix_msg_l, &unix_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_NETLINK, 1, &nl_req_l, 0 },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_NETLINK, 0, &nl_msg_l, &nl_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_PACKET, 1, &packet_req_l, 0 },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_PACKET, 0, &packet_msg_l,
	  &packet_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_SMC, 1, &smc_req_l, 0 },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_SMC, 0, &smc_msg_l, &smc_attrs },
	/* (TCPDIAG_GETSOCK and DCCPDIAG_GETSOCK: the older request) */
	{ NETLINK_SOCK_DIAG, TCPDIAG_GETSOCK, DCCPDIAG_GETSOCK, AF_INET, 1,
	  &inet_req_compat_l, &inet_req_attrs },
	{ NETLINK_SOCK_DIAG, TCPDIAG_GETSOCK, DCCPDIAG_GETSOCK, AF_INET6, 1,
	  &inet_req_compat_l, &inet_req_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_INET, 1, &inet_req_l,
	  &inet_req_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_INET6, 1, &inet_req_l,
	  &inet_req_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_INET, 0, &inet_msg_l, &inet_attrs },
	{ NETLINK_SOCK_DIAG, 0, 0xffff, AF_INET6, 0, &inet_msg_l, &inet_attrs },
	{ NETLINK_ROUTE, RTM_NEWNEXTHOP, RTM_GETNEXTHOP, ANY_FAMILY, -1,
	  &nhmsg_l, &nha_attrs },
	{ NETLINK_ROUTE, RTM_NEWLINK, RTM_SETLINK, ANY_FAMILY, -1, &ifinfo_l,
	  &ifla_attrs },
	{ NETLINK_ROUTE, RTM_NEWADDR, RTM_GETADDR, ANY_FAMILY, -1, &ifaddr_l,
	  &ifa_attrs },
	{ NETLINK_ROUTE, RTM_GETMULTICAST, RTM_GETMULTICAST, ANY_FAMILY, -1,
	  &ifaddr_l, &ifa_attrs },
	{ NETLINK_ROUTE, RTM_GETANYCAST, RTM_GETANYCAST, ANY_FAMILY, -1,
	  &ifaddr_l, &ifa_attrs },
	{ NETLINK_ROUTE, RTM_NEWROUTE, RTM_GETROUTE, ANY_FAMILY, -1, &rtmsg_l,
	  &rta_attrs },
	{ NETLINK_ROUTE, RTM_NEWRULE, RTM_GETRULE, ANY_FAMILY, -1, &rule_l,
	  &fra_attrs },
	{ NETLINK_ROUTE, RTM_NEWNEIGH, RTM_GETNEIGH, ANY_FAMILY, -1, &ndmsg_l,
	  &nda_attrs },
	{ NETLINK_ROUTE, RTM_NEWADDRLABEL, RTM_GETADDRLABEL, ANY_FAMILY, -1,
	  &ifaddrlbl_l, &ifal_attrs },
	{ NETLINK_ROUTE, RTM_NEWQDISC, RTM_GETQDISC, ANY_FAMILY, -1,
	  &tcmsg_l, &tca_attrs },
	{ NETLINK_ROUTE, RTM_NEWTCLASS, RTM_GETTCLASS, ANY_FAMILY, -1,
	  &tcmsg_l, &tca_attrs },
	{ NETLINK_ROUTE, RTM_NEWTFILTER, RTM_GETTFILTER, ANY_FAMILY, -1,
	  &tcmsg_l, &tca_attrs },
	{ NETLINK_ROUTE, RTM_NEWCHAIN, RTM_GETCHAIN, ANY_FAMILY, -1,
	  &tcmsg_l, &tca_attrs },
	{ NETLINK_ROUTE, RTM_NEWACTION, RTM_GETACTION, ANY_FAMILY, -1,
	  &tcamsg_l, &tca_act_attrs },
	{ NETLINK_ROUTE, RTM_NEWNEIGHTBL, RTM_NEWNEIGHTBL, ANY_FAMILY, -1,
	  &ndtmsg_l, &ndta_attrs },
	{ NETLINK_ROUTE, RTM_GETNEIGHTBL, RTM_SETNEIGHTBL, ANY_FAMILY, -1,
	  &ndtmsg_l, &ndta_attrs },
	{ NETLINK_ROUTE, RTM_NEWSTATS, RTM_NEWSTATS, ANY_FAMILY, -1,
	  &ifstats_l, &ifstats_attrs },
	{ NETLINK_ROUTE, RTM_GETSTATS, RTM_GETSTATS, ANY_FAMILY, -1,
	  &ifstats_l, &ifstats_attrs },
	{ NETLINK_ROUTE, RTM_NEWNETCONF, RTM_GETNETCONF, ANY_FAMILY, -1,
	  &netconf_l, &netconf_attrs },
	{ NETLINK_ROUTE, RTM_NEWNSID, RTM_GETNSID, ANY_FAMILY, -1,
	  &rtgen_nsid_l, &nsid_attrs },
	{ NETLINK_ROUTE, RTM_GETDCB, RTM_SETDCB, ANY_FAMILY, -1, &dcb_l,
	  &dcb_attrs },
	{ NETLINK_ROUTE, RTM_NEWMDB, RTM_GETMDB, ANY_FAMILY, -1, &br_port_l,
	  &mdb_attrs },
	{ NETLINK_ROUTE, RTM_NEWCACHEREPORT, RTM_NEWCACHEREPORT,
	  RTNL_FAMILY_IPMR, -1, &cachereport_l, &ipmra_attrs },
	{ NETLINK_ROUTE, RTM_NEWCACHEREPORT, RTM_NEWCACHEREPORT,
	  RTNL_FAMILY_IP6MR, -1, &cachereport_l, &ip6mra_attrs },
	{ NETLINK_ROUTE, RTM_NEWCACHEREPORT, RTM_NEWCACHEREPORT, ANY_FAMILY,
	  -1, &cachereport_l, &raw_rest },
	{ NETLINK_SELINUX, SELNL_MSG_SETENFORCE, SELNL_MSG_SETENFORCE,
	  NO_FAMILY, -1, &selnl_enforce_l, 0 },
	{ NETLINK_SELINUX, SELNL_MSG_POLICYLOAD, SELNL_MSG_POLICYLOAD,
	  NO_FAMILY, -1, &selnl_load_l, 0 },
};

static const struct body *find_body(int proto, const struct nlmsghdr *h,
				    int family)
{
	int req = !!(h->nlmsg_flags & NLM_F_REQUEST);
	unsigned int i;

	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		const struct body *b = &bodies[i];

		if (b->proto == proto && h->nlmsg_type >= b->lo &&
		    h->nlmsg_type <= b->hi &&
		    (b->family == ANY_FAMILY || b->family == family) &&
		    (b->request < 0 || b->request == req))
			return b;
	}
	return 0;
}

/* A payload without an address family: its structure when it is long
 * enough, else its bytes. */
static int plain_payload(struct nl *x, const struct nlmsghdr *h,
			 unsigned long p, unsigned long len)
{
	const struct body *d = find_body(x->proto, h, NO_FAMILY);
	unsigned char b[128];

	if (!d)
		return 0;
	if (len < d->l->size)
		p_data(x->f, x->s, p, len, 1);
	else if (!fetch(x->f, x->s, b, p, d->l->size)) {
		fmt_chr(x->f, '{');
		p_fields(x->f, b, d->l, 0);
		fmt_chr(x->f, '}');
	}
	return 1;
}

/* A payload that begins with an address family: the structure of the
 * family's messages (then its attributes), or {family=, data=}. */
static int family_payload(struct nl *x, const struct nlmsghdr *h,
			  unsigned long p, unsigned long len)
{
	const struct body *d;
	unsigned char b[128];
	unsigned int ok = 0;

	if (h->nlmsg_type == NLMSG_DONE)
		return 0;
	if (fetch(x->f, x->s, b, p, 1))
		return 1;
	d = find_body(x->proto, h, b[0]);
	x->family = b[0];
	/* (sock_diag: a family alone is no request) */
	if (!d || (x->proto == NETLINK_SOCK_DIAG && len <= 1)) {
		fmt_str(x->f, "{family=");
		p_xlat(x->f, b[0], &xl_families, "AF_???");
		if (len > 1) {
			fmt_str(x->f, ", data=");
			p_data(x->f, x->s, p + 1, len - 1, 1);
		}
		fmt_chr(x->f, '}');
		return 1;
	}
	fmt_chr(x->f, '{');
	p_field(x->f, b, &d->l->f[0]);
	if (d->l->n == 1)
		ok = 1;
	else if (fmt_str(x->f, ", "), len < d->l->size)
		fmt_str(x->f, "...");
	else if (!fetch(x->f, x->s, b + 1, p + 1, d->l->size - 1U) &&
		 (ok = 1))
		p_fields(x->f, b, d->l, 1);
	fmt_chr(x->f, '}');
	if (ok && d->attrs && len > NL_ALIGN4(d->l->size)) {
		unsigned long at = p + NL_ALIGN4(d->l->size),
			      n = len - NL_ALIGN4(d->l->size);

		fmt_str(x->f, ", ");
		if (d->attrs == &raw_rest)
			p_data(x->f, x->s, at, n, 1);
		else
			walk(x, &nla_walk, at, n, d->attrs);
	}
	return 1;
}

/* --- messages ------------------------------------------------------- */

/* What flags mean depends on the request: get, new, delete, an ack. */
enum { FL_NONE, FL_GET, FL_NEW, FL_DEL };

/* (RTM_DELACTION's are NLM_F_ROOT's) */
static int route_flags(unsigned int type)
{
	static const int by_kind[] = { FL_NEW, FL_DEL, FL_GET, FL_NONE };

	return type == RTM_DELACTION ? FL_GET : by_kind[type & 3];
}

static int sock_diag_flags(unsigned int type)
{
	(void)type;
	return FL_GET;
}

/* The other protocols' requests, one by one */
static const struct {
	unsigned char proto, fl;
	unsigned short type;
} type_flags[] = {
	{ NETLINK_XFRM, FL_NEW, XFRM_MSG_NEWSA },
	{ NETLINK_XFRM, FL_NEW, XFRM_MSG_NEWPOLICY },
	{ NETLINK_XFRM, FL_NEW, XFRM_MSG_NEWAE },
	{ NETLINK_XFRM, FL_NEW, XFRM_MSG_NEWSADINFO },
	{ NETLINK_XFRM, FL_NEW, XFRM_MSG_NEWSPDINFO },
	{ NETLINK_XFRM, FL_DEL, XFRM_MSG_DELSA },
	{ NETLINK_XFRM, FL_DEL, XFRM_MSG_DELPOLICY },
	{ NETLINK_XFRM, FL_GET, XFRM_MSG_GETSA },
	{ NETLINK_XFRM, FL_GET, XFRM_MSG_GETPOLICY },
	{ NETLINK_XFRM, FL_GET, XFRM_MSG_GETAE },
	{ NETLINK_XFRM, FL_GET, XFRM_MSG_GETSADINFO },
	{ NETLINK_XFRM, FL_GET, XFRM_MSG_GETSPDINFO },
	{ NETLINK_CRYPTO, FL_NEW, 0x10 },	/* CRYPTO_MSG_NEWALG */
	{ NETLINK_CRYPTO, FL_DEL, 0x11 },	/* CRYPTO_MSG_DELALG */
	{ NETLINK_CRYPTO, FL_GET, 0x13 },	/* CRYPTO_MSG_GETALG */
	{ NETLINK_CRYPTO, FL_DEL, 0x14 },	/* CRYPTO_MSG_DELRNG */
#define NF(subsys, msg) (NFNL_SUBSYS_##subsys << 8 | msg)
	{ NETLINK_NETFILTER, FL_NEW, NF(CTNETLINK, IPCTNL_MSG_CT_NEW) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTNETLINK, IPCTNL_MSG_CT_GET) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTNETLINK, IPCTNL_MSG_CT_GET_CTRZERO) },
	{ NETLINK_NETFILTER, FL_GET,
	  NF(CTNETLINK, IPCTNL_MSG_CT_GET_STATS_CPU) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTNETLINK, IPCTNL_MSG_CT_GET_STATS) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTNETLINK, IPCTNL_MSG_CT_GET_DYING) },
	{ NETLINK_NETFILTER, FL_GET,
	  NF(CTNETLINK, IPCTNL_MSG_CT_GET_UNCONFIRMED) },
	{ NETLINK_NETFILTER, FL_DEL, NF(CTNETLINK, IPCTNL_MSG_CT_DELETE) },
	{ NETLINK_NETFILTER, FL_NEW, NF(CTNETLINK_EXP, IPCTNL_MSG_EXP_NEW) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTNETLINK_EXP, IPCTNL_MSG_EXP_GET) },
	{ NETLINK_NETFILTER, FL_GET,
	  NF(CTNETLINK_EXP, IPCTNL_MSG_EXP_GET_STATS_CPU) },
	{ NETLINK_NETFILTER, FL_DEL, NF(CTNETLINK_EXP, IPCTNL_MSG_EXP_DELETE) },
	{ NETLINK_NETFILTER, FL_NEW, NF(ACCT, NFNL_MSG_ACCT_NEW) },
	{ NETLINK_NETFILTER, FL_GET, NF(ACCT, NFNL_MSG_ACCT_GET) },
	{ NETLINK_NETFILTER, FL_GET, NF(ACCT, NFNL_MSG_ACCT_GET_CTRZERO) },
	{ NETLINK_NETFILTER, FL_DEL, NF(ACCT, NFNL_MSG_ACCT_DEL) },
	{ NETLINK_NETFILTER, FL_NEW,
	  NF(CTNETLINK_TIMEOUT, IPCTNL_MSG_TIMEOUT_NEW) },
	{ NETLINK_NETFILTER, FL_GET,
	  NF(CTNETLINK_TIMEOUT, IPCTNL_MSG_TIMEOUT_GET) },
	{ NETLINK_NETFILTER, FL_DEL,
	  NF(CTNETLINK_TIMEOUT, IPCTNL_MSG_TIMEOUT_DELETE) },
	{ NETLINK_NETFILTER, FL_NEW, NF(CTHELPER, NFNL_MSG_CTHELPER_NEW) },
	{ NETLINK_NETFILTER, FL_GET, NF(CTHELPER, NFNL_MSG_CTHELPER_GET) },
	{ NETLINK_NETFILTER, FL_DEL, NF(CTHELPER, NFNL_MSG_CTHELPER_DEL) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWTABLE) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWCHAIN) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWRULE) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWSET) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWSETELEM) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWGEN) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWOBJ) },
	{ NETLINK_NETFILTER, FL_NEW, NF(NFTABLES, NFT_MSG_NEWFLOWTABLE) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETTABLE) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETCHAIN) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETRULE) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETSET) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETSETELEM) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETGEN) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETOBJ) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETOBJ_RESET) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFTABLES, NFT_MSG_GETFLOWTABLE) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELTABLE) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELCHAIN) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELRULE) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELSET) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELSETELEM) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELOBJ) },
	{ NETLINK_NETFILTER, FL_DEL, NF(NFTABLES, NFT_MSG_DELFLOWTABLE) },
	{ NETLINK_NETFILTER, FL_GET, NF(NFT_COMPAT, NFNL_MSG_COMPAT_GET) },
	{ NETLINK_NETFILTER, FL_GET, NF(HOOK, NFNL_MSG_HOOK_GET) },
};

static int listed_flags(int proto, unsigned int type)
{
	unsigned int i;

	for (i = 0; i < sizeof(type_flags) / sizeof(type_flags[0]); i++)
		if (type_flags[i].proto == proto && type_flags[i].type == type)
			return type_flags[i].fl;
	return FL_NONE;
}

/* netfilter's types: a subsystem and its message, SUBSYS<<8|MSG; the
 * batch's own two */
static void nf_type(struct fmt *f, unsigned int type)
{
	static const struct {
		const struct xlat *t;
		const char *unknown;
	} msgs[] = {
		[NFNL_SUBSYS_CTNETLINK] = { &xl_nf_ct_msgs, "IPCTNL_MSG_CT_???" },
		[NFNL_SUBSYS_CTNETLINK_EXP] = { &xl_nf_ct_exp_msgs,
						"IPCTNL_MSG_EXP_???" },
		[NFNL_SUBSYS_QUEUE] = { &xl_nf_queue_msgs, "NFQNL_MSG_???" },
		[NFNL_SUBSYS_ULOG] = { &xl_nf_ulog_msgs, "NFULNL_MSG_???" },
		[NFNL_SUBSYS_OSF] = { &xl_nf_osf_msgs, "OSF_MSG_???" },
		[NFNL_SUBSYS_IPSET] = { &xl_nf_ipset_msgs, "IPSET_CMD_???" },
		[NFNL_SUBSYS_ACCT] = { &xl_nf_acct_msgs, "NFNL_MSG_ACCT_???" },
		[NFNL_SUBSYS_CTNETLINK_TIMEOUT] = { &xl_nf_cttimeout_msgs,
						    "IPCTNL_MSG_TIMEOUT_???" },
		[NFNL_SUBSYS_CTHELPER] = { &xl_nf_cthelper_msgs,
					   "NFNL_MSG_CTHELPER_???" },
		[NFNL_SUBSYS_NFTABLES] = { &xl_nf_nftables_msgs,
					   "NFT_MSG_???" },
		[NFNL_SUBSYS_NFT_COMPAT] = { &xl_nf_compat_msgs,
					     "NFNL_MSG_COMPAT_???" },
		[NFNL_SUBSYS_HOOK] = { &xl_nf_hook_msgs, "NFT_MSG_HOOK_???" },
	};
	const char *batch = xlat_name(&xl_nf_batch_types, type);
	unsigned int subsys = type >> 8 & 0xff, msg = type & 0xff;

	if (batch) {
		p_named(f, batch, type, 'x');
		return;
	}
	p_xlat(f, subsys, &xl_nf_subsys_ids, "NFNL_SUBSYS_???");
	fmt_str(f, "<<8|");
	if (subsys < sizeof(msgs) / sizeof(msgs[0]) && msgs[subsys].t)
		p_xlat(f, msg, msgs[subsys].t, msgs[subsys].unknown);
	else
		p_hex(f, msg);
}

/* generic netlink's types: the families the kernel has (nlctrl...) */
static void genl_type(struct fmt *f, unsigned int type)
{
	char name[GENL_NAMSIZ];

	if (!genl_family_name(type, name, sizeof(name))) {
		p_named(f, name, type, 'x');
		return;
	}
	/* (xl_nl_types names none of a family's numbers, all >= 16) */
	p_xlat(f, type, &xl_nl_types, "GENERIC_FAMILY_???");
}

/* Attributes strace does not name */
static const struct nla_set nameless = { 0, 0, 0, 0 };

/* struct nfgenmsg, then attributes (the batch's and the control
 * messages': bytes) */
static int nf_payload(struct nl *x, const struct nlmsghdr *h,
		      unsigned long p, unsigned long len)
{
	struct nfgenmsg g;
	unsigned int subsys = h->nlmsg_type >> 8 & 0xff;
	unsigned short res;

	if (h->nlmsg_type == NLMSG_DONE)
		return 0;
	if (len < sizeof(g)) {
		p_data(x->f, x->s, p, len, 1);
		return 1;
	}
	if (fetch(x->f, x->s, &g, p, sizeof(g)))
		return 1;
	res = __builtin_bswap16(g.res_id);
	fmt_str(x->f, "{nfgen_family=");
	p_xlat(x->f, g.nfgen_family, &xl_families, "AF_???");
	fmt_str(x->f, ", version=");
	p_xlat(x->f, g.version, &xl_nf_versions, "NFNETLINK_???");
	fmt_str(x->f, ", res_id=");
	/* (nftables' res_id has been either byte order: the kernel's
	 * commit v4.3-rc1~28^2~47^2~1) */
	if (subsys == NFNL_SUBSYS_NFTABLES && res == NFNL_SUBSYS_NFTABLES)
		p_named(x->f, "htons(NFNL_SUBSYS_NFTABLES)", g.res_id, 'x');
	else if (subsys == NFNL_SUBSYS_NFTABLES &&
		 g.res_id == NFNL_SUBSYS_NFTABLES)
		p_named(x->f, "NFNL_SUBSYS_NFTABLES", g.res_id, 'x');
	else
		f_udec(x->f, "htons(", res), fmt_chr(x->f, ')');
	fmt_chr(x->f, '}');
	if (len <= NLMSG_ALIGN(sizeof(g)))
		return 1;
	fmt_str(x->f, ", ");
	p += NLMSG_ALIGN(sizeof(g));
	len -= NLMSG_ALIGN(sizeof(g));
	if ((h->nlmsg_type >= NFNL_MSG_BATCH_BEGIN &&
	     h->nlmsg_type <= NFNL_MSG_BATCH_END) ||
	    h->nlmsg_type < NLMSG_MIN_TYPE)
		p_data(x->f, x->s, p, len, 1);
	else
		walk(x, &nla_walk, p, len, &nameless);
	return 1;
}

/* Each protocol's message types and what its flags mean. */
struct proto {
	int proto;
	const struct xlat *types;
	const char *unknown;
	int (*flags)(unsigned int type);
	int (*payload)(struct nl *x, const struct nlmsghdr *h,
		       unsigned long p, unsigned long len);
	void (*type)(struct fmt *f, unsigned int type);	/* else types */
};

static const struct proto protos[] = {
	{ NETLINK_ROUTE, &xl_nl_route_types, "RTM_???", route_flags,
	  family_payload, 0 },
	{ NETLINK_SOCK_DIAG, &xl_nl_sock_diag_types, "SOCK_DIAG_???",
	  sock_diag_flags, family_payload, 0 },
	{ NETLINK_AUDIT, &xl_nl_audit_types, "AUDIT_???", 0, 0, 0 },
	{ NETLINK_SELINUX, &xl_nl_selinux_types, "SELNL_MSG_???", 0,
	  plain_payload, 0 },
	{ NETLINK_XFRM, &xl_nl_xfrm_types, "XFRM_MSG_???", 0, 0, 0 },
	{ NETLINK_CRYPTO, &xl_nl_crypto_types, "CRYPTO_MSG_???", 0, 0, 0 },
	{ NETLINK_NETFILTER, 0, 0, 0, nf_payload, nf_type },
	{ NETLINK_GENERIC, 0, 0, 0, 0, genl_type },
};

static const struct proto *find_proto(int proto)
{
	unsigned int i;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].proto == proto)
			return &protos[i];
	return 0;
}

static void p_nlmsghdr(struct nl *x, const struct nlmsghdr *h)
{
	static const struct xlat *const flag_tables[] = {
		&xl_nl_flags, &xl_nl_get_flags, &xl_nl_new_flags,
		&xl_nl_del_flags,
	};
	const struct proto *pr = find_proto(x->proto);
	struct fmt *f = x->f;
	const struct xlat *ft = &xl_nl_flags;

	f_udec(f, "{nlmsg_len=", h->nlmsg_len);
	fmt_str(f, ", nlmsg_type=");
	if (h->nlmsg_type < NLMSG_MIN_TYPE || !pr)
		p_xlat(f, h->nlmsg_type, &xl_nl_types, "NLMSG_???");
	else if (pr->type)
		pr->type(f, h->nlmsg_type);
	else
		p_xlat(f, h->nlmsg_type, pr->types, pr->unknown);
	if (h->nlmsg_type == NLMSG_ERROR)
		ft = &xl_nl_ack_flags;
	else if (h->nlmsg_type >= NLMSG_MIN_TYPE && pr)
		ft = flag_tables[pr->flags ? pr->flags(h->nlmsg_type) :
				 listed_flags(x->proto, h->nlmsg_type)];
	fmt_str(f, ", nlmsg_flags=");
	p_flags_unknown(f, h->nlmsg_flags, ft, "NLM_F_???");
	f_udec(f, ", nlmsg_seq=", h->nlmsg_seq);
	fmt_str(f, ", nlmsg_pid=");
	p_pid(f, (int)h->nlmsg_pid, PT_TGID);
	fmt_chr(f, '}');
}

static void nlmsg_one(struct nl *x, const void *hp, unsigned long p,
		      unsigned long len, const void *arg);

static const struct walk nlmsg_walk = { NLMSG_HDRLEN, 4, nlmsg_one };

static const struct nla_kind err_attr_k[] = {
	[NLMSGERR_ATTR_MSG] = { NK_STR, { 0 }, 0, 0 },
	[NLMSGERR_ATTR_OFFS] = { NK_U32, { 0 }, 0, 0 },
	[NLMSGERR_ATTR_COOKIE] = { NK_U8S, { 0 }, 0, 0 },
};
static const struct nla_set err_attrs = {
	&xl_nlmsgerr_attrs, "NLMSGERR_ATTR_???", err_attr_k,
	sizeof(err_attr_k) / sizeof(err_attr_k[0]),
};

/* NLMSG_ERROR's {error=-EACCES, msg=the request's header (and payload,
 * unless capped)}, then the extended ack's attributes */
static void p_nlmsgerr(struct nl *x, const struct nlmsghdr *h,
		       unsigned long p, unsigned long len)
{
	struct nlmsgerr e;
	unsigned long n, payload;
	const unsigned long off = __builtin_offsetof(struct nlmsgerr, msg);

	if (len < sizeof(e)) {
		p_data(x->f, x->s, p, len, 1);
		return;
	}
	if (fetch(x->f, x->s, &e, p, sizeof(e)))
		return;
	p += off;
	len -= off;
	n = e.msg.nlmsg_len > sizeof(e.msg) ? e.msg.nlmsg_len : sizeof(e.msg);
	payload = h->nlmsg_flags & NLM_F_CAPPED ? sizeof(e.msg) : n;
	if (payload > len)
		payload = len;
	if (len > payload)
		fmt_chr(x->f, '[');
	fmt_str(x->f, "{error=");
	p_neg_err(x->f, e.error);
	fmt_str(x->f, ", msg=");
	nlmsg_one(x, &e.msg, p, payload, 0);
	fmt_chr(x->f, '}');
	if (len > payload) {
		fmt_str(x->f, ", ");
		walk(x, &nla_walk, p + payload, len - payload, &err_attrs);
		fmt_chr(x->f, ']');
	}
}

static void nl_payload(struct nl *x, const struct nlmsghdr *h,
		       unsigned long p, unsigned long len)
{
	const struct proto *pr = find_proto(x->proto);
	int v;

	if (h->nlmsg_type == NLMSG_ERROR) {
		p_nlmsgerr(x, h, p, len);
		return;
	}
	if ((h->nlmsg_type >= NLMSG_MIN_TYPE || h->nlmsg_type == NLMSG_DONE) &&
	    pr && pr->payload && pr->payload(x, h, p, len))
		return;
	if (h->nlmsg_type == NLMSG_DONE && len == sizeof(v)) {
		if (!fetch(x->f, x->s, &v, p, sizeof(v)))
			fmt_dec(x->f, v);
		return;
	}
	p_data(x->f, x->s, p, len, 1);
}

static void nlmsg_one(struct nl *x, const void *hp, unsigned long p,
		      unsigned long len, const void *arg)
{
	const struct nlmsghdr *h = hp;
	unsigned long n = h->nlmsg_len < len ? h->nlmsg_len : len;

	(void)arg;
	if (n > NLMSG_HDRLEN)
		fmt_chr(x->f, '[');
	p_nlmsghdr(x, h);
	if (n <= NLMSG_HDRLEN)
		return;
	fmt_str(x->f, ", ");
	nl_payload(x, h, p + NLMSG_HDRLEN, n - NLMSG_HDRLEN);
	fmt_chr(x->f, ']');
}

/* --- the entry points ----------------------------------------------- */

/* The row of /proc/PID/net/netlink (bound sockets) of the socket with
 * inode ino: its protocol and port id; 0, or -1 when there is none.
 * (Read a chunk at a time: a row is the 10 numbers "sk Eth Pid Groups
 * Rmem Wmem Dump Locks Drops Inode", sk and Groups in hex.) */
int nl_socket_row(const struct sysgate_sys *s, unsigned long ino, int *proto,
		  unsigned int *portid)
{
	char path[64], buf[1024];
	unsigned long col[10];
	long fd, n, i;
	int c = 0, in = 0, found = -1;
	struct fmt t;

	fmt_init(&t, path, sizeof(path) - 1);
	p_proc_dir(&t, s);
	fmt_str(&t, "/net/netlink");
	path[t.len] = 0;
	fd = sysgate_syscall(sysgate_syscall_number("openat"), -100,
			     (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return -1;
	hk_memset(col, 0, sizeof(col));
	while (found && (n = sysgate_syscall(sysgate_syscall_number("read"),
					     fd, (long)buf, sizeof(buf), 0, 0,
					     0)) > 0) {
		for (i = 0; i < n; i++) {
			char ch = buf[i];

			if (ch == '\n') {
				if (c >= 9 && col[9] == ino) {
					*proto = (int)col[1];
					*portid = (unsigned int)col[2];
					found = 0;
					break;
				}
				hk_memset(col, 0, sizeof(col));
				c = in = 0;
			} else if (ch == ' ') {
				c += in;
				in = 0;
			} else {
				if (c < 10 && ch >= '0' && ch <= '9')
					col[c] = col[c] * 10 +
						 (unsigned long)(ch - '0');
				in = 1;
			}
		}
	}
	sysgate_syscall(sysgate_syscall_number("close"), fd, 0, 0, 0, 0, 0);
	return found;
}

/* The netlink protocol of socket fd of s's process, -1 when fd is no
 * netlink socket.  In the process itself its socket options say; of
 * another (ptrace), the row of the socket's inode. */
static int nl_proto(const struct sysgate_sys *s, int fd)
{
	long nr_gso = sysgate_syscall_number("getsockopt");
	int v = 0;
	unsigned int vl = sizeof(v), portid;
	char path[64];
	unsigned long ino = 0;
	long n, i;

	if (s->pid == (int)sysgate_syscall(sysgate_syscall_number("getpid"),
					   0, 0, 0, 0, 0, 0)) {
		if (sysgate_syscall(nr_gso, fd, SOL_SOCKET, SO_DOMAIN,
				    (long)&v, (long)&vl, 0) || v != AF_NETLINK)
			return -1;
		vl = sizeof(v);
		if (sysgate_syscall(nr_gso, fd, SOL_SOCKET, SO_PROTOCOL,
				    (long)&v, (long)&vl, 0))
			return -1;
		return v;
	}
	n = fd_path(s, fd, path, sizeof(path) - 1);
	if (n <= 8 || hk_strncmp(path, "socket:[", 8))
		return -1;
	for (i = 8; i < n && path[i] >= '0' && path[i] <= '9'; i++)
		ino = ino * 10 + (unsigned long)(path[i] - '0');
	return nl_socket_row(s, ino, &v, &portid) ? -1 : v;
}

/* The header libudev puts before a device event it forwards on a
 * NETLINK_KOBJECT_UEVENT socket (systemd's udev-monitor format) */
struct udev_header {
	char prefix[8];		/* "libudev" */
	unsigned int magic, header_size, properties_off, properties_len;
	unsigned int filter_subsystem_hash, filter_devtype_hash;
	unsigned int filter_tag_bloom_hi, filter_tag_bloom_lo;
};

static const struct field udev_f[] = {
	F(struct udev_header, prefix, FK_CSTR, 0, 0),
	F(struct udev_header, magic, FK_HTONL, 0, 0),
	F(struct udev_header, header_size, FK_U, 0, 0),
	F(struct udev_header, properties_off, FK_U, 0, 0),
	F(struct udev_header, properties_len, FK_U, 0, 0),
	F(struct udev_header, filter_subsystem_hash, FK_HTONL, 0, 0),
	F(struct udev_header, filter_devtype_hash, FK_HTONL, 0, 0),
	F(struct udev_header, filter_tag_bloom_hi, FK_HTONL, 0, 0),
	F(struct udev_header, filter_tag_bloom_lo, FK_HTONL, 0, 0),
};
static const struct layout udev_l = LAYOUT(udev_f, struct udev_header);

/* A uevent: libudev's header and the properties after it, else the
 * bytes (the kernel's own events) */
static void p_uevent(struct fmt *f, const struct sysgate_sys *s,
		     unsigned long p, unsigned long len)
{
	struct udev_header u;

	if (len < sizeof(u) ||
	    sysgate_read_mem(s, &u, (void *)p, sizeof(u)) != sizeof(u) ||
	    hk_strncmp(u.prefix, "libudev", 8)) {
		p_data(f, s, p, len, 0);
		return;
	}
	if (len > sizeof(u))
		fmt_chr(f, '[');
	fmt_chr(f, '{');
	p_fields(f, (const unsigned char *)&u, &udev_l, 0);
	fmt_chr(f, '}');
	if (len > sizeof(u)) {
		fmt_str(f, ", ");
		p_data(f, s, p + sizeof(u), len - sizeof(u), 0);
		fmt_chr(f, ']');
	}
}

void p_sockbuf(struct fmt *f, const struct sysgate_sys *s, int fd,
	       unsigned long p, unsigned long len)
{
	struct nl x = { f, s, -1, -1, { "", "" } };

	if (!p || !trace_structs(s) || (x.proto = nl_proto(s, fd)) < 0) {
		p_data(f, s, p, len, 0);
		return;
	}
	if (x.proto == NETLINK_KOBJECT_UEVENT)
		p_uevent(f, s, p, len);
	else
		walk(&x, &nlmsg_walk, p, len, 0);
}
