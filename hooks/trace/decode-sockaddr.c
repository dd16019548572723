/* SPDX-License-Identifier: MIT */
/*
 * Socket addresses of the families decode-net.c leaves: packet sockets,
 * RxRPC (with its AF_INET or AF_INET6 transport), IEEE 802.15.4, the
 * kernel crypto API, NFC, vsock, Qualcomm IPC router, XDP and MCTP, as
 * strace prints them.  An address shorter than its family's structure
 * prints as sa_data, which decode-net.c does.  Some fields strace shows
 * as a number with its name in a comment even without -X (its
 * XVAL_VERBOSE): p_xval_verbose.
 */
#include <stddef.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <linux/vm_sockets.h>
#include <linux/if_xdp.h>
#include <linux/qrtr.h>
#include <linux/mctp.h>
#include "trace.h"

/* The kernel's structures no installed header has (strace's layouts) */
struct sa_rxrpc {
	unsigned short srx_family, srx_service, transport_type,
		       transport_len;
	union {
		unsigned short family;
		struct sockaddr_in sin;
		struct sockaddr_in6 sin6;
	} transport;
};

struct sa_ipx {
	unsigned short family, port;
	unsigned int network;
	unsigned char node[6], type, zero;
};

struct sa_x25 {
	unsigned short family;
	char x25_addr[16];
};

/* AX.25: a call sign (six characters shifted left by one, the SSID in
 * the seventh byte), and the digipeaters of a full address */
struct sa_ax25 {
	unsigned short family;
	unsigned char call[7];
	int ndigis;
	unsigned char digi[8][7];
};

struct sa_ieee802154 {
	unsigned short family;
	struct {
		int addr_type;
		unsigned short pan_id;
		union {
			unsigned char hwaddr[8];
			unsigned short short_addr;
		};
	} addr;
};

struct sa_alg {
	unsigned short family;
	unsigned char salg_type[14];
	unsigned int salg_feat, salg_mask;
	unsigned char salg_name[];
};

struct sa_nfc {
	unsigned short family;
	unsigned int dev_idx, target_idx, nfc_protocol;
	unsigned char dsap, ssap;
	char service_name[63];
	unsigned long long service_name_len __attribute__((aligned(8)));
};

void p_xval_verbose(struct fmt *f, unsigned long v, const struct xlat *t,
		    const char *unknown)
{
	const char *nm = xlat_name(t, v);

	p_hex(f, v);
	if (trace_xstyle == XS_RAW || !(nm || unknown))
		return;
	fmt_str(f, " /* ");
	fmt_str(f, nm ? nm : unknown);
	fmt_str(f, " */");
}

/* The same of flags: none known, only bits left, or zero alike */
static void p_flags_verbose(struct fmt *f, unsigned long v,
			    const struct xlat *t, const char *unknown)
{
	p_hex(f, v);
	if (trace_xstyle == XS_RAW || !v)
		return;
	fmt_str(f, " /* ");
	if (!p_flag_names(f, v, t))
		fmt_str(f, unknown);
	fmt_str(f, " */");
}

static void p_named_field(struct fmt *f, const char *name, unsigned long v,
			  const struct xlat *t, const char *unknown)
{
	fmt_str(f, name);
	p_xlat(f, v, t, unknown);
}

static void sa_ll(struct fmt *f, const unsigned char *buf, unsigned long len)
{
	const struct sockaddr_ll *ll = (const void *)buf;
	unsigned short proto = (unsigned short)(ll->sll_protocol >> 8 |
						ll->sll_protocol << 8);
	unsigned long room = len - offsetof(struct sockaddr_ll, sll_addr), i;
	char text[64];
	struct fmt t;

	fmt_init(&t, text, sizeof(text));
	fmt_str(&t, "htons(");
	x_hold(&t);
	p_xlat(&t, proto, &xl_ethernet_protocols, "ETH_P_???");
	x_release(&t);
	fmt_chr(&t, ')');
	fmt_str(f, "sll_protocol=");
	p_in_field(f, 0, &ll->sll_protocol, 2, text, t.len);
	fmt_str(f, ", sll_ifindex=");
	p_ifindex(f, (unsigned int)ll->sll_ifindex);
	p_named_field(f, ", sll_hatype=", ll->sll_hatype, &xl_arphrd_types,
		      "ARPHRD_???");
	p_named_field(f, ", sll_pkttype=", ll->sll_pkttype, &xl_packet_types,
		      "PACKET_???");
	f_udec(f, ", sll_halen=", ll->sll_halen);
	if (!ll->sll_halen)
		return;
	fmt_str(f, ", sll_addr=[");
	for (i = 0; i < ll->sll_halen; i++) {
		if (i)
			fmt_str(f, ", ");
		if (i >= room) {
			fmt_str(f, "...");
			break;
		}
		/* (C's %#02x: 0 has no 0x) */
		if (ll->sll_addr[i])
			p_hex(f, ll->sll_addr[i]);
		else
			fmt_str(f, "00");
	}
	fmt_chr(f, ']');
}

/* ", " and the n bytes left of an address, when there are some */
static void p_rest(struct fmt *f, const unsigned char *b, long n)
{
	if (n <= 0)
		return;
	fmt_str(f, ", ");
	p_quoted(f, b, (unsigned long)n);
}

/* "[0x41, 0x42]": bytes as C's %#02x prints them (0 as "00") */
static void p_bytes_0x(struct fmt *f, const unsigned char *b, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		fmt_str(f, i ? ", " : "[");
		if (b[i])
			p_hex(f, b[i]);
		else
			fmt_str(f, "00");
	}
	fmt_chr(f, ']');
}

static void sa_ipx(struct fmt *f, const unsigned char *buf,
		   unsigned long len)
{
	const struct sa_ipx *x = (const void *)buf;
	char text[32];
	struct fmt t;

	(void)len;
	fmt_init(&t, text, sizeof(text));
	f_udec(&t, "htons(", (unsigned short)(x->port >> 8 | x->port << 8));
	fmt_chr(&t, ')');
	fmt_str(f, "sipx_port=");
	p_in_field(f, 0, &x->port, 2, text, t.len);
	fmt_str(f, ", sipx_network=htonl(");
	p_hex(f, __builtin_bswap32(x->network));
	fmt_str(f, "), sipx_node=");
	p_bytes_0x(f, x->node, sizeof(x->node));
	fmt_str(f, ", sipx_type=");
	p_hex0(f, x->type, 2);
	f_hex_set(f, ", sipx_zero=", x->zero);
}

static void sa_x25(struct fmt *f, const unsigned char *buf,
		   unsigned long len)
{
	const struct sa_x25 *x = (const void *)buf;

	(void)len;
	fmt_str(f, "sx25_addr={x25_addr=");
	p_cstring(f, x->x25_addr, sizeof(x->x25_addr));
	fmt_chr(f, '}');
}

/* How a call sign shows: -1 as its bytes alone (characters that do not
 * print), 1 with its text in a comment (not a well-formed call sign),
 * 0 as -X says */
static int ax25_style(const unsigned char *call)
{
	int i, odd = 0, space = 0, chars = 0;

	for (i = 0; i < 6; i++) {
		unsigned char c = call[i] >> 1;

		odd |= call[i] & 1;
		if (c < ' ' || c > 0x7e || c == '*' || c == '/')
			return -1;
		if (c == ' ')
			space = 1;
		else
			chars = 1;
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		      c == ' ') || (c != ' ' && space))
			odd = 1;
	}
	return odd || (call[6] & ~0x1e) || (!chars && call[6]);
}

/* VALID-13, or "*" for an empty call sign of SSID 0 */
static void p_ax25_text(struct fmt *f, const unsigned char *call)
{
	unsigned int end = 6, i, ssid = (call[6] >> 1) & 0xf;

	while (end && call[end - 1] >> 1 == ' ')
		end--;
	if (!end && !ssid) {
		fmt_chr(f, '*');
		return;
	}
	for (i = 0; i < end; i++)
		fmt_chr(f, (char)(call[i] >> 1));
	f_udec(f, "-", ssid);
}

static void p_ax25(struct fmt *f, const unsigned char *call)
{
	int style = ax25_style(call);
	int xs = style < 0 ? XS_RAW : style ? XS_VERBOSE : trace_xstyle;

	if (xs != XS_ABBREV) {
		fmt_str(f, "{ax25_call=");
		p_hex_bytes(f, call, 7);
		fmt_chr(f, '}');
	}
	if (xs == XS_RAW)
		return;
	if (xs == XS_VERBOSE)
		fmt_str(f, " /* ");
	p_ax25_text(f, call);
	if (xs == XS_VERBOSE)
		fmt_str(f, " */");
}

static void sa_ax25(struct fmt *f, const unsigned char *buf,
		    unsigned long len)
{
	const struct sa_ax25 *a = (const void *)buf;
	unsigned long head = offsetof(struct sa_ax25, digi), has, want, i;
	int full = a->ndigis || len > head;

	fmt_str(f, full ? "fsa_ax25={sax25_call=" : "sax25_call=");
	p_ax25(f, a->call);
	f_dec(f, ", sax25_ndigis=", a->ndigis);
	if (!full)
		return;
	fmt_chr(f, '}');
	has = (len - head) / 7;
	if (has > 8)
		has = 8;
	want = a->ndigis > 0 ? (unsigned long)a->ndigis : 0;
	if (want > 8)
		want = 8;
	if (want) {
		/* (at most -s of them, as strace's arrays) */
		unsigned long max = trace_verbose ? 8 :
				    (unsigned long)trace_strsize;

		fmt_str(f, ", fsa_digipeater=[");
		for (i = 0; i < want && i < has && i < max; i++) {
			if (i)
				fmt_str(f, ", ");
			p_ax25(f, a->digi[i]);
		}
		if (want > i)
			fmt_str(f, i ? ", ..." : "...");
		fmt_chr(f, ']');
	}
	if (len > has * 7 + head)
		fmt_str(f, ", ...");
}

/* RxRPC: the service, and its transport's address (AF_INET or AF_INET6
 * when long enough, else its bytes) */
static void sa_rxrpc(struct fmt *f, const unsigned char *buf,
		     unsigned long len)
{
	const struct sa_rxrpc *r = (const void *)buf;
	unsigned short fam = r->transport.family;
	unsigned long at = offsetof(struct sa_rxrpc, transport),
		      tlen = len - at;
	long rest;

	fmt_str(f, "srx_service=");
	p_xval_verbose(f, r->srx_service, &xl_rxrpc_services, "???_SERVICE");
	p_named_field(f, ", transport_type=", r->transport_type,
		      &xl_sock_types, "SOCK_???");
	f_udec(f, ", transport_len=", r->transport_len);
	if (r->transport_len < tlen)
		tlen = r->transport_len;
	rest = (long)tlen - 2;
	fmt_str(f, ", transport={");
	if (fam == AF_INET || fam == AF_INET6) {
		fmt_str(f, fam == AF_INET ? "sin={sin_family=" :
					    "sin6={sin6_family=");
		p_xlat(f, fam, &xl_families, "AF_???");
		if (r->transport_len >= (fam == AF_INET ? 16 : 24))
			p_sa_inet(f, &r->transport, tlen);
		else
			p_rest(f, buf + at + 2, rest);
		fmt_chr(f, '}');
	} else {
		p_named_field(f, "family=", fam, &xl_families, "AF_???");
		p_rest(f, buf + at + 2, rest);
	}
	fmt_chr(f, '}');
}

static void sa_ieee802154(struct fmt *f, const unsigned char *buf,
			  unsigned long len)
{
	const struct sa_ieee802154 *a = (const void *)buf;

	(void)len;
	fmt_str(f, "addr={addr_type=");
	p_xval_verbose(f, (unsigned int)a->addr.addr_type,
		       &xl_ieee802154_addr_types, "IEEE802154_ADDR_???");
	fmt_str(f, ", pan_id=");
	p_xval_verbose(f, a->addr.pan_id, &xl_ieee802154_pan_ids, 0);
	if (a->addr.addr_type == 2) {		/* IEEE802154_ADDR_SHORT */
		fmt_str(f, ", short_addr=");
		p_xval_verbose(f, a->addr.short_addr, &xl_ieee802154_addrs, 0);
	} else if (a->addr.addr_type) {		/* (not ..._NONE) */
		fmt_str(f, ", hwaddr=");
		p_mac(f, a->addr.hwaddr, sizeof(a->addr.hwaddr));
	}
	fmt_chr(f, '}');
}

static void sa_alg(struct fmt *f, const unsigned char *buf,
		   unsigned long len)
{
	const struct sa_alg *a = (const void *)buf;

	fmt_str(f, "salg_type=");
	p_cstring(f, (const char *)a->salg_type, sizeof(a->salg_type));
	fmt_str(f, ", salg_feat=");
	p_flags_verbose(f, a->salg_feat, &xl_alg_flags, "CRYPTO_ALG_???");
	fmt_str(f, ", salg_mask=");
	p_flags_verbose(f, a->salg_mask, &xl_alg_flags, "CRYPTO_ALG_???");
	fmt_str(f, ", salg_name=");
	p_cstring(f, (const char *)a->salg_name,
		  len - offsetof(struct sa_alg, salg_name));
}

/* NFC: the device and target; the LLCP service when the address is
 * whole (a longer one than the plain NFC one: "...") */
static void sa_nfc(struct fmt *f, const unsigned char *buf,
		   unsigned long len)
{
	const struct sa_nfc *n = (const void *)buf;
	unsigned long long sn = n->service_name_len;

	fmt_str(f, "dev_idx=");
	p_ifindex(f, n->dev_idx);
	fmt_str(f, ", target_idx=");
	p_hex(f, n->target_idx);
	p_named_field(f, ", nfc_protocol=", n->nfc_protocol,
		      &xl_nfc_protocols, "NFC_PROTO_???");
	if (len < sizeof(*n)) {
		/* (struct sockaddr_nfc: 16 bytes) */
		if (len > 16)
			fmt_str(f, ", ...");
		return;
	}
	fmt_str(f, ", dsap=");
	p_xval_verbose(f, n->dsap, &xl_nfc_saps, 0);
	fmt_str(f, ", ssap=");
	p_xval_verbose(f, n->ssap, &xl_nfc_saps, 0);
	fmt_str(f, ", service_name=");
	p_quoted(f, (const unsigned char *)n->service_name,
		 sn < sizeof(n->service_name) ? sn : sizeof(n->service_name));
	f_udec(f, ", service_name_len=", sn);
}

static void sa_vsock(struct fmt *f, const unsigned char *buf,
		     unsigned long len)
{
	const struct sockaddr_vm *v = (const void *)buf;
	unsigned int i;

	(void)len;
	if (v->svm_reserved1) {
		fmt_str(f, "svm_reserved1=");
		p_hex(f, v->svm_reserved1);
		fmt_str(f, ", ");
	}
	p_named_field(f, "svm_cid=", v->svm_cid, &xl_vsock_cids, 0);
	p_named_field(f, ", svm_port=", v->svm_port, &xl_vsock_ports, 0);
	fmt_str(f, ", svm_flags=");
	p_flags_unknown(f, v->svm_flags, &xl_vsock_flags, "VMADDR_FLAG_???");
	for (i = 0; i < sizeof(v->svm_zero) && !v->svm_zero[i]; i++)
		;
	if (i < sizeof(v->svm_zero)) {
		fmt_str(f, ", svm_zero=");
		p_hex_bytes(f, v->svm_zero, sizeof(v->svm_zero));
	}
}

static void sa_qrtr(struct fmt *f, const unsigned char *buf,
		    unsigned long len)
{
	const struct sockaddr_qrtr *q = (const void *)buf;

	(void)len;
	p_named_field(f, "sq_node=", q->sq_node, &xl_qrtr_nodes, 0);
	p_named_field(f, ", sq_port=", q->sq_port, &xl_qrtr_ports, 0);
}

static void sa_xdp(struct fmt *f, const struct sysgate_sys *s,
		   const unsigned char *buf)
{
	const struct sockaddr_xdp *x = (const void *)buf;

	fmt_str(f, "sxdp_flags=");
	p_flags_unknown(f, x->sxdp_flags, &xl_xdp_sockaddr_flags, "XDP_???");
	fmt_str(f, ", sxdp_ifindex=");
	p_ifindex(f, x->sxdp_ifindex);
	f_udec(f, ", sxdp_queue_id=", x->sxdp_queue_id);
	if (x->sxdp_flags & XDP_SHARED_UMEM) {
		f_dec(f, ", sxdp_shared_umem_fd=", (int)x->sxdp_shared_umem_fd);
		p_fdpath(f, s, (int)x->sxdp_shared_umem_fd);
	} else {
		f_hex_set(f, ", sxdp_shared_umem_fd=", x->sxdp_shared_umem_fd);
	}
}

static void sa_mctp(struct fmt *f, const unsigned char *buf,
		    unsigned long len)
{
	const struct sockaddr_mctp *m = (const void *)buf;

	(void)len;
	if (m->__smctp_pad0) {
		fmt_str(f, "__smctp_pad0=");
		p_hex(f, m->__smctp_pad0);
		fmt_str(f, ", ");
	}
	p_named_field(f, "smctp_network=", m->smctp_network, &xl_mctp_nets,
		      0);
	p_named_field(f, ", smctp_addr={s_addr=", m->smctp_addr.s_addr,
		      &xl_mctp_addrs, 0);
	fmt_str(f, "}, smctp_type=");
	p_hex(f, m->smctp_type);
	fmt_str(f, ", smctp_tag=");
	p_hex(f, m->smctp_tag);
	f_hex_set(f, ", __smctp_pad1=", m->__smctp_pad1);
}

int p_sockaddr_other(struct fmt *f, const struct sysgate_sys *s,
		     const unsigned char *buf, unsigned long len)
{
	static const struct {
		unsigned short family, min;
		void (*print)(struct fmt *f, const unsigned char *buf,
			      unsigned long len);
	} fams[] = {
		{ AF_PACKET, sizeof(struct sockaddr_ll), sa_ll },
		{ AF_AX25, offsetof(struct sa_ax25, digi), sa_ax25 },
		{ AF_IPX, sizeof(struct sa_ipx), sa_ipx },
		{ AF_X25, sizeof(struct sa_x25), sa_x25 },
		{ AF_RXRPC, sizeof(struct sa_rxrpc), sa_rxrpc },
		{ AF_IEEE802154, sizeof(struct sa_ieee802154), sa_ieee802154 },
		{ AF_ALG, sizeof(struct sa_alg) + 1, sa_alg },
		{ AF_NFC, 16, sa_nfc },
		{ AF_VSOCK, sizeof(struct sockaddr_vm), sa_vsock },
		{ AF_QIPCRTR, sizeof(struct sockaddr_qrtr), sa_qrtr },
		{ AF_XDP, sizeof(struct sockaddr_xdp), 0 },
		{ AF_MCTP, sizeof(struct sockaddr_mctp), sa_mctp },
	};
	unsigned short fam = *(const unsigned short *)(const void *)buf;
	unsigned int i;

	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		if (fams[i].family != fam)
			continue;
		if (len < fams[i].min)
			return 0;
		fmt_str(f, ", ");
		if (fams[i].print)
			fams[i].print(f, buf, len);
		else	/* (XDP's: a descriptor of the process) */
			sa_xdp(f, s, buf);
		return 1;
	}
	return 0;
}
