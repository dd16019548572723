/* SPDX-License-Identifier: MIT */
/*
 * Sockets' ioctls (SIOC*, FIO*OWN) as strace 6.1 prints them: an int
 * (given, or at exit), a bridge's name, or a struct ifreq: the
 * interface's name, then the field the request sets (as given) or gets
 * (at exit, when the call succeeded).  SIOCGIFCONF is decode-ioctl.c's.
 */
#include <stddef.h>
#include <linux/ioctl.h>
#include <linux/sockios.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include "trace.h"

/* A hardware address's length by its type, as strace shows them
 * (0xff: all of sa_data) */
static unsigned int hwaddr_len(unsigned int type)
{
	static const struct {
		unsigned short type;
		unsigned char len;
	} lens[] = {
		{ ARPHRD_NETROM, 7 }, { ARPHRD_ETHER, 6 }, { ARPHRD_AX25, 7 },
		{ ARPHRD_IEEE802, 6 }, { ARPHRD_ARCNET, 1 }, { ARPHRD_DLCI, 2 },
		{ ARPHRD_IEEE1394, 16 }, { ARPHRD_EUI64, 8 },
		{ ARPHRD_INFINIBAND, 20 }, { ARPHRD_SLIP, 0 },
		{ ARPHRD_ROSE, 5 }, { ARPHRD_X25, 0 }, { ARPHRD_CAN, 0 },
		{ ARPHRD_MCTP, 1 }, { ARPHRD_PPP, 0 }, { ARPHRD_RAWHDLC, 0 },
		{ ARPHRD_RAWIP, 0 }, { ARPHRD_TUNNEL, 4 }, { ARPHRD_TUNNEL6, 16 },
		{ ARPHRD_LOOPBACK, 6 }, { ARPHRD_LOCALTLK, 1 },
		{ ARPHRD_FDDI, 6 }, { ARPHRD_SIT, 4 }, { ARPHRD_IPDDP, 0 },
		{ ARPHRD_IPGRE, 4 }, { ARPHRD_PIMREG, 0 }, { ARPHRD_HIPPI, 6 },
		{ ARPHRD_IRDA, 4 }, { ARPHRD_IEEE80211, 6 },
		{ ARPHRD_IEEE80211_PRISM, 6 }, { ARPHRD_IEEE80211_RADIOTAP, 6 },
		{ ARPHRD_IEEE802154, 8 }, { ARPHRD_IEEE802154_MONITOR, 8 },
		{ ARPHRD_PHONET, 1 }, { ARPHRD_PHONET_PIPE, 1 },
		{ ARPHRD_CAIF, 0 }, { ARPHRD_IP6GRE, 16 }, { ARPHRD_NETLINK, 0 },
		{ ARPHRD_6LOWPAN, 8 }, { ARPHRD_VSOCKMON, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		if (lens[i].type == type)
			return lens[i].len;
	return 0xff;
}

/* ifr_hwaddr: its type, then the address */
static void p_ifr_hwaddr(struct fmt *f, const struct sockaddr *sa)
{
	unsigned int n = hwaddr_len(sa->sa_family);

	fmt_str(f, "{sa_family=");
	p_xlat(f, sa->sa_family, &xl_arphrd_types, "ARPHRD_???");
	fmt_str(f, ", sa_data=");
	p_hwaddr(f, (const unsigned char *)sa->sa_data, sizeof(sa->sa_data),
		 n < sizeof(sa->sa_data) ? n : sizeof(sa->sa_data));
	fmt_chr(f, '}');
}

/* The field of ifreq r (at p) that req sets or gets */
static void p_ifreq_field(struct call *c, unsigned int req,
			  const struct ifreq *r, unsigned long p)
{
	struct fmt *f = c->f;
	unsigned long sa = p + offsetof(struct ifreq, ifr_addr);

	switch (req) {
	case SIOCSIFADDR: case SIOCGIFADDR:
	case SIOCSIFDSTADDR: case SIOCGIFDSTADDR:
	case SIOCSIFBRDADDR: case SIOCGIFBRDADDR:
	case SIOCSIFNETMASK: case SIOCGIFNETMASK:
		/* (the union's member by the request) */
		fmt_str(f, req == SIOCSIFADDR || req == SIOCGIFADDR ?
				   "ifr_addr=" :
			   req == SIOCSIFDSTADDR || req == SIOCGIFDSTADDR ?
				   "ifr_dstaddr=" :
			   req == SIOCSIFBRDADDR || req == SIOCGIFBRDADDR ?
				   "ifr_broadaddr=" : "ifr_netmask=");
		p_sockaddr(f, c->s, sa, sizeof(r->ifr_addr));
		break;
	case SIOCADDMULTI: case SIOCDELMULTI: case SIOCGIFHWADDR:
	case SIOCSIFHWADDR: case SIOCSIFHWBROADCAST:
		fmt_str(f, "ifr_hwaddr=");
		p_ifr_hwaddr(f, &r->ifr_hwaddr);
		break;
	case SIOCSIFFLAGS: case SIOCGIFFLAGS:
		fmt_str(f, "ifr_flags=");
		p_flags(f, (unsigned short)r->ifr_flags, &xl_iff_flags, 0);
		break;
	case SIOCGIFINDEX:
		f_dec(f, "ifr_ifindex=", r->ifr_ifindex);
		break;
	case SIOCSIFMETRIC: case SIOCGIFMETRIC:
		f_dec(f, "ifr_metric=", r->ifr_metric);
		break;
	case SIOCSIFMTU: case SIOCGIFMTU:
		f_dec(f, "ifr_mtu=", r->ifr_mtu);
		break;
	case SIOCSIFSLAVE: case SIOCGIFSLAVE:
		fmt_str(f, "ifr_slave=");
		p_cstring(f, r->ifr_slave, sizeof(r->ifr_slave));
		break;
	case SIOCSIFNAME:
		fmt_str(f, "ifr_newname=");
		p_cstring(f, r->ifr_newname, sizeof(r->ifr_newname));
		break;
	case SIOCGIFNAME:
		fmt_str(f, "ifr_name=");
		p_cstring(f, r->ifr_name, sizeof(r->ifr_name));
		break;
	case SIOCSIFTXQLEN: case SIOCGIFTXQLEN:
		f_dec(f, "ifr_qlen=", r->ifr_qlen);
		break;
	case SIOCSIFMAP: case SIOCGIFMAP:
		f_hex(f, "ifr_map={mem_start=", r->ifr_map.mem_start);
		f_hex(f, ", mem_end=", r->ifr_map.mem_end);
		f_hex(f, ", base_addr=", r->ifr_map.base_addr);
		f_hex(f, ", irq=", r->ifr_map.irq);
		f_hex(f, ", dma=", r->ifr_map.dma);
		f_hex(f, ", port=", r->ifr_map.port);
		fmt_chr(f, '}');
		break;
	}
}

/* How a request's argument prints */
enum { SK_PTR, SK_INT_IN, SK_INT_OUT, SK_BRNAME, SK_BRIF, SK_SET, SK_GET };

static int sockio_kind(unsigned int req)
{
	switch (req) {
	case FIOSETOWN: case SIOCSPGRP: case SIOCSIFENCAP:
		return SK_INT_IN;
	case FIOGETOWN: case SIOCGPGRP: case SIOCATMARK: case SIOCGIFENCAP:
	case SIOCOUTQNSD:
		return SK_INT_OUT;
	case SIOCBRADDBR: case SIOCBRDELBR:
		return SK_BRNAME;
	case SIOCBRADDIF: case SIOCBRDELIF:
		return SK_BRIF;
	case SIOCADDMULTI: case SIOCDELMULTI: case SIOCSIFADDR:
	case SIOCSIFBRDADDR: case SIOCSIFDSTADDR: case SIOCSIFFLAGS:
	case SIOCSIFHWADDR: case SIOCSIFHWBROADCAST: case SIOCSIFMAP:
	case SIOCSIFMETRIC: case SIOCSIFMTU: case SIOCSIFNAME:
	case SIOCSIFNETMASK: case SIOCSIFSLAVE: case SIOCSIFTXQLEN:
		return SK_SET;
	case SIOCGIFADDR: case SIOCGIFBRDADDR: case SIOCGIFDSTADDR:
	case SIOCGIFFLAGS: case SIOCGIFHWADDR: case SIOCGIFINDEX:
	case SIOCGIFMAP: case SIOCGIFMETRIC: case SIOCGIFMTU:
	case SIOCGIFNAME: case SIOCGIFNETMASK: case SIOCGIFSLAVE:
	case SIOCGIFTXQLEN:
		return SK_GET;
	}
	return SK_PTR;
}

static void p_int_at(struct call *c, unsigned long arg)
{
	int v;

	if (fetch(c->f, c->s, &v, arg, sizeof(v)))
		return;
	fmt_chr(c->f, '[');
	fmt_dec(c->f, v);
	fmt_chr(c->f, ']');
}

int ioctl_sockio(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm = xlat_name(&xl_ioctl_sockio, req);
	struct ifreq r;
	int kind;

	if (!nm)
		return 0;
	p_named(c->f, nm, req, 'x');
	kind = sockio_kind(req);
	if (kind == SK_INT_OUT) {
		if (a_out(c, arg))
			p_int_at(c, arg);
		return 1;
	}
	a_sep(c);
	if (kind == SK_PTR) {
		p_ptr(c->f, arg);
		return 1;
	}
	if (kind == SK_INT_IN) {
		p_int_at(c, arg);
		return 1;
	}
	if (kind == SK_BRNAME) {
		p_str_max(c->f, c->s, arg, IFNAMSIZ);
		return 1;
	}
	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return 1;
	if (kind == SK_BRIF) {
		fmt_str(c->f, "{ifr_ifindex=");
		p_ifindex(c->f, r.ifr_ifindex);
		fmt_chr(c->f, '}');
		return 1;
	}
	if (req == SIOCGIFNAME) {
		f_dec(c->f, "{ifr_ifindex=", r.ifr_ifindex);
	} else {
		fmt_str(c->f, "{ifr_name=");
		p_cstring(c->f, r.ifr_name, sizeof(r.ifr_name));
	}
	if (kind == SK_SET || c_ok(c)) {
		fmt_str(c->f, ", ");
		p_ifreq_field(c, req, &r, arg);
	}
	fmt_chr(c->f, '}');
	return 1;
}
