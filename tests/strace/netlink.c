/* SPDX-License-Identifier: MIT */
/* Netlink messages on netlink sockets: a sock_diag request and the
 * kernel's error reply echoing it, several messages in one buffer
 * (AF_UNIX replies with attributes of each kind, NLMSG_DONE), AF_NETLINK
 * requests and replies, a family with no structure, bytes too few for a
 * header, an error with its cookie, route messages whose flags mean get,
 * new and delete, netconf's (interfaces by name), cache reports, a
 * link's attributes (nested ones too), nexthops.  Each socket is bound first: strace
 * tells a netlink socket's protocol from the kernel's list of bound
 * ones, so it prints an unbound socket's first message as of no
 * protocol (sysgate asks the socket itself). */
#include "corpus.h"
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/netlink_diag.h>
#include <linux/netconf.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/nexthop.h>
#include <linux/fib_rules.h>
#include <linux/if_bridge.h>
#include <linux/mpls.h>
#include <linux/if_ether.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/neighbour.h>
#include <linux/if_addr.h>
#include <linux/pkt_sched.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/inet_diag.h>
#include <sys/socket.h>

/* appends an attribute of type t with n bytes of v at *at */
static void attr(unsigned char **at, unsigned short t, const void *v,
		 unsigned short n)
{
	struct nlattr a = { (unsigned short)(NLA_HDRLEN + n), t };

	memcpy(*at, &a, sizeof(a));
	memcpy(*at + NLA_HDRLEN, v, n);
	*at += NLA_ALIGN(NLA_HDRLEN + n);
}

/* a link's ifinfomsg and attributes of each kind, nested ones too */
static void link_attrs(int rt, unsigned char *buf)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct ifinfomsg *ifi = (struct ifinfomsg *)(buf + NLMSG_HDRLEN);
	unsigned char *at, *nest, one = 1;
	unsigned int v = 1500, stats[24], mask = RTEXT_FILTER_VF | 0x800;
	struct rtnl_link_ifmap map = { 0x1000, 0x2000, 0x300, 11, 2, 3 };
	struct ifla_port_vsi vsi = { 5, { 1, 2, 3 }, 7, { 0, 0, 9 } };
	int fd = -1, i;

	for (i = 0; i < 24; i++)
		stats[i] = (unsigned int)i * 1000;
	memset(buf, 0, 512);
	h->nlmsg_type = RTM_NEWLINK;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE;
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_type = ARPHRD_ETHER;
	ifi->ifi_index = 1;
	ifi->ifi_flags = IFF_UP | IFF_RUNNING | 0x100000;
	ifi->ifi_change = 0xffffffff;
	at = buf + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*ifi));
	attr(&at, IFLA_IFNAME, "dummy0", 7);
	attr(&at, IFLA_MTU, &v, sizeof(v));
	attr(&at, IFLA_OPERSTATE, &one, 1);
	attr(&at, IFLA_EXT_MASK, &mask, sizeof(mask));
	attr(&at, IFLA_STATS, stats, 23 * 4);
	attr(&at, IFLA_MAP, &map, 28);
	attr(&at, IFLA_EVENT, &v, sizeof(v));
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, IFLA_XDP_FD, &fd, sizeof(fd));
	attr(&at, IFLA_XDP_ATTACHED, &one, 1);
	attr(&at, IFLA_XDP_FLAGS, &mask, sizeof(mask));
	((struct nlattr *)nest)->nla_len = (unsigned short)(at - nest);
	((struct nlattr *)nest)->nla_type = IFLA_XDP;
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, IFLA_PORT_VF, &v, sizeof(v));
	attr(&at, IFLA_PORT_VSI_TYPE, &vsi, sizeof(vsi));
	attr(&at, 99, &v, sizeof(v));
	((struct nlattr *)nest)->nla_len = (unsigned short)(at - nest);
	((struct nlattr *)nest)->nla_type = IFLA_PORT_SELF;
	h->nlmsg_len = (unsigned int)(at - buf);
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	/* a structure cut short */
	h->nlmsg_len = NLMSG_HDRLEN + 8;
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
}

/* nexthops: nhmsg (a reserved byte set), groups, gateways of the
 * message's family, resilient groups' timers */
static void nexthops(int rt, unsigned char *buf)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nhmsg *nh = (struct nhmsg *)(buf + NLMSG_HDRLEN);
	struct nexthop_grp grp[2] = { { 7, 1, 0, 0 }, { 8, 2, 0, 5 } };
	static const unsigned char gw6[16] = { 0xfe, 0x80, [15] = 2 };
	unsigned char *at, *nest;
	unsigned int id = 42, gw4 = 0x0100007f, ticks = 12345;
	unsigned short type = NEXTHOP_GRP_TYPE_RES;
	int i;

	for (i = 0; i < 2; i++) {
		memset(buf, 0, 512);
		h->nlmsg_type = RTM_NEWNEXTHOP;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE;
		nh->nh_family = i ? AF_INET6 : AF_INET;
		nh->nh_scope = i ? 7 : RT_SCOPE_LINK;
		nh->nh_protocol = RTPROT_STATIC;
		nh->resvd = (unsigned char)i;
		nh->nh_flags = RTNH_F_ONLINK | 0x1000;
		at = buf + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nh));
		attr(&at, NHA_ID, &id, sizeof(id));
		attr(&at, NHA_GROUP, grp, sizeof(grp));
		attr(&at, NHA_GROUP_TYPE, &type, sizeof(type));
		if (i)
			attr(&at, NHA_GATEWAY, gw6, sizeof(gw6));
		else
			attr(&at, NHA_GATEWAY, &gw4, sizeof(gw4));
		nest = at;
		at += NLA_HDRLEN;
		attr(&at, NHA_RES_GROUP_BUCKETS, &type, sizeof(type));
		attr(&at, NHA_RES_GROUP_IDLE_TIMER, &ticks, sizeof(ticks));
		((struct nlattr *)nest)->nla_len = (unsigned short)(at - nest);
		((struct nlattr *)nest)->nla_type = NHA_RES_GROUP;
		h->nlmsg_len = (unsigned int)(at - buf);
		sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	}
}

/* multicast routing's cache reports: of IPv4, IPv6 (attributes by
 * family) and another family (bytes) */
static void cachereports(int rt, unsigned char *buf)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	static const unsigned char a4[4] = { 10, 1, 2, 3 };
	static const unsigned char a6[16] = { 0xfe, 0x80, [15] = 1 };
	unsigned char type = 1, bad = 9, *at;
	unsigned int vif = 3;
	int i;

	for (i = 0; i < 3; i++) {
		memset(buf, 0, 256);
		h->nlmsg_type = RTM_NEWCACHEREPORT;
		buf[NLMSG_HDRLEN] = i == 0 ? RTNL_FAMILY_IPMR :
				    i == 1 ? RTNL_FAMILY_IP6MR : AF_INET;
		at = buf + NLMSG_HDRLEN + 4;
		attr(&at, 1, i ? &bad : &type, 1);
		attr(&at, 2, &vif, sizeof(vif));
		if (i)
			attr(&at, 3, a6, sizeof(a6));
		else
			attr(&at, 4, a4, sizeof(a4));
		attr(&at, 7, &vif, sizeof(vif));
		h->nlmsg_len = (unsigned int)(at - buf);
		sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	}
}

/* starts a message of type t whose payload begins with n bytes of hdr;
 * returns where its attributes go */
static unsigned char *msg(unsigned char *buf, unsigned short t,
			 const void *hdr, unsigned int n)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	memset(buf, 0, 512);
	h->nlmsg_type = t;
	/* (no NLM_F_REQUEST: the kernel acts on none of them) */
	h->nlmsg_flags = NLM_F_DUMP;
	memcpy(buf + NLMSG_HDRLEN, hdr, n);
	return buf + NLMSG_HDRLEN + NLMSG_ALIGN(n);
}

static void send_msg(int rt, unsigned char *buf, unsigned char *end)
{
	((struct nlmsghdr *)buf)->nlmsg_len = (unsigned int)(end - buf);
	sendto(rt, buf, (size_t)(end - buf), 0, NULL, 0);
}

/* nests the attributes from nest to at as one of type t */
static void nest_end(unsigned char *nest, unsigned char *at,
		     unsigned short t)
{
	((struct nlattr *)nest)->nla_len = (unsigned short)(at - nest);
	((struct nlattr *)nest)->nla_type = t;
}

/* at *at: an attribute of type outer holding one of type inner that
 * holds one of type t with n bytes of v */
static void nested2(unsigned char **at, unsigned short outer,
		    unsigned short inner, unsigned short t, const void *v,
		    unsigned short n)
{
	unsigned char *o = *at, *i = o + NLA_HDRLEN;

	*at = i + NLA_HDRLEN;
	attr(at, t, v, n);
	nest_end(i, *at, inner);
	nest_end(o, *at, outer);
}

/* IFLA_LINKINFO: the data of a bridge (timers, ids, options, the
 * querier's state) and of its port, of a tun device, a CAN device's
 * statistics, and a kind whose data is not decoded */
static void linkinfo(int rt, unsigned char *buf)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 1 };
	static const char *const kinds[] = { "bridge", "tun", "can", "veth" };
	unsigned int delay = 1500, owner = 1000, st[6] = { 1, 2, 3, 4, 5, 6 };
	unsigned short prio = 0x8000, proto = htons(0x8100);
	unsigned char mac[6] = { 1, 0x80, 0xc2, 0, 0, 0 }, tap = 2, one = 1;
	struct ifla_bridge_id id = { { 0x80, 0 }, { 2, 3, 4, 5, 6, 7 } };
	struct br_boolopt_multi bo = { 1, 3 | 0x100 };
	struct in_addr q = { htonl(0x0a000001) };
	unsigned char *at, *li, *data, *n2;
	unsigned int k;

	for (k = 0; k < 4; k++) {
		at = msg(buf, RTM_NEWLINK, &ifi, sizeof(ifi));
		li = at;
		at += NLA_HDRLEN;
		attr(&at, IFLA_INFO_KIND, kinds[k], strlen(kinds[k]) + 1);
		data = at;
		at += NLA_HDRLEN;
		if (k == 0) {
			attr(&at, IFLA_BR_FORWARD_DELAY, &delay, 4);
			attr(&at, IFLA_BR_PRIORITY, &prio, 2);
			attr(&at, IFLA_BR_VLAN_PROTOCOL, &proto, 2);
			attr(&at, IFLA_BR_ROOT_ID, &id, sizeof(id));
			attr(&at, IFLA_BR_GROUP_ADDR, mac, 6);
			attr(&at, IFLA_BR_MULTI_BOOLOPT, &bo, sizeof(bo));
			attr(&at, IFLA_BR_STP_STATE, &one, 1);
			n2 = at;
			at += NLA_HDRLEN;
			attr(&at, BRIDGE_QUERIER_IP_ADDRESS, &q, 4);
			nest_end(n2, at, IFLA_BR_MCAST_QUERIER_STATE);
		} else if (k == 1) {
			attr(&at, IFLA_TUN_OWNER, &owner, 4);
			attr(&at, IFLA_TUN_TYPE, &tap, 1);
		} else {
			attr(&at, 1, &delay, 4);
		}
		nest_end(data, at, IFLA_INFO_DATA);
		if (k == 0) {
			attr(&at, IFLA_INFO_SLAVE_KIND, "bridge", 7);
			n2 = at;
			at += NLA_HDRLEN;
			attr(&at, IFLA_BRPORT_STATE, &one, 1);
			nest_end(n2, at, IFLA_INFO_SLAVE_DATA);
		}
		if (k == 2)
			attr(&at, IFLA_INFO_XSTATS, st, sizeof(st));
		nest_end(li, at, IFLA_LINKINFO);
		send_msg(rt, buf, at);
	}
}

/* route messages of each structure: addresses, routes (a multipath one
 * with its hops' attributes), rules, neighbours, traffic control,
 * neighbour tables, statistics, a link's IFLA_PROTINFO of AF_INET6 and
 * AF_BRIDGE and its VF information */
static void route_msgs(int rt, unsigned char *buf)
{
	static const unsigned char a4[4] = { 10, 1, 2, 3 };
	static const unsigned char a6[16] = { 0xfe, 0x80, [15] = 1 };
	static const unsigned char mac[6] = { 2, 0x42, 0xac, 0x11, 0, 2 };
	struct ifaddrmsg ifa = { AF_INET, 24, IFA_F_PERMANENT, 0, 1 };
	struct ifa_cacheinfo ci = { 1, 2, 3, 4 };
	struct rtmsg rtm = { AF_INET6, 64, 0, 0x10, RT_TABLE_MAIN,
			     RTPROT_BOOT, RT_SCOPE_UNIVERSE, RTN_UNICAST,
			     RTM_F_NOTIFY | 0x10000 };
	struct rtnexthop nh = { 8 + 20, RTNH_F_ONLINK, 2, 1 };
	struct fib_rule_hdr fr = { AF_INET, 8, 0, 0, RT_TABLE_LOCAL, 0, 0,
				   FR_ACT_TO_TBL, FIB_RULE_INVERT };
	struct fib_rule_port_range pr = { 80, 8080 };
	struct ndmsg nd = { AF_INET, 0, 0, 1, NUD_REACHABLE, NTF_SELF, 1 };
	struct tcmsg tc = { AF_UNSPEC, 0, 0, 1, 0x10000, 0xffffffff, 0 };
	struct gnet_stats_queue q = { 1, 2, 3, 4, 5 };
	struct tc_estimator est = { -2, 3 };
	struct ndtmsg ndt = { AF_INET, 0, 0 };
	struct ndt_config cfg = { 4, 8, 16, 1, 2, 3, 0xff, 5, 6 };
	struct if_stats_msg st = { AF_UNSPEC, 0, 0, 1,
				   1 << IFLA_STATS_LINK_64 | 1 << 9 };
	struct ifinfomsg ifi = { AF_INET6, 0, ARPHRD_ETHER, 1, IFF_UP, 0 };
	struct ifla_vf_mac vm = { 3, { 2, 0x42, 0xac, 0x11, 0, 2 } };
	struct ifla_vf_vlan_info vi = { 3, 100, 1, 0x0081 };
	unsigned int devconf[3] = { 1, 64, 0x7fffffff };
	unsigned int u32 = 7, oif = 1, flags = IFA_F_PERMANENT | 0x10000;
	unsigned short port = 0x5000, stab[2] = { 1, 2 };
	struct br_port_msg bpm = { AF_BRIDGE, 1 };
	struct mpls_link_stats ms = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct br_mdb_entry mdb = { 1, MDB_PERMANENT, MDB_FLAGS_OFFLOAD, 10,
				    { { 0 }, 0 } };
	unsigned char *at, *nest, *hop, u8 = 1;

	at = msg(buf, RTM_GETADDR, &ifa, sizeof(ifa));
	attr(&at, IFA_ADDRESS, a4, sizeof(a4));
	attr(&at, IFA_LABEL, "lo", 3);
	attr(&at, IFA_CACHEINFO, &ci, sizeof(ci));
	attr(&at, IFA_FLAGS, &flags, sizeof(flags));
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETROUTE, &rtm, sizeof(rtm));
	attr(&at, RTA_DST, a6, sizeof(a6));
	attr(&at, RTA_OIF, &oif, sizeof(oif));
	attr(&at, RTA_TABLE, &u32, sizeof(u32));
	nest = at;
	at += NLA_HDRLEN;
	hop = at;
	memcpy(hop, &nh, sizeof(nh));
	at += sizeof(nh);
	attr(&at, RTA_GATEWAY, a6, sizeof(a6));
	((struct rtnexthop *)hop)->rtnh_len = (unsigned short)(at - hop);
	memcpy(at, &nh, sizeof(nh));
	((struct rtnexthop *)at)->rtnh_len = sizeof(nh);
	at += sizeof(nh);
	nest_end(nest, at, RTA_MULTIPATH);
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETRULE, &fr, sizeof(fr));
	attr(&at, FRA_DST, a4, sizeof(a4));
	attr(&at, FRA_TABLE, &u32, sizeof(u32));
	attr(&at, FRA_DPORT_RANGE, &pr, sizeof(pr));
	attr(&at, FRA_PROTOCOL, &u8, 1);
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETNEIGH, &nd, sizeof(nd));
	attr(&at, NDA_DST, a4, sizeof(a4));
	attr(&at, NDA_LLADDR, mac, sizeof(mac));
	attr(&at, NDA_PORT, &port, sizeof(port));
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETQDISC, &tc, sizeof(tc));
	attr(&at, TCA_KIND, "pfifo", 6);
	attr(&at, TCA_RATE, &est, sizeof(est));
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, TCA_STATS_QUEUE, &q, sizeof(q));
	nest_end(nest, at, TCA_STATS2);
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, TCA_STAB_DATA, stab, sizeof(stab));
	nest_end(nest, at, TCA_STAB);
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETNEIGHTBL, &ndt, sizeof(ndt));
	attr(&at, NDTA_NAME, "arp_cache", 10);
	attr(&at, NDTA_CONFIG, &cfg, sizeof(cfg));
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETSTATS, &st, sizeof(st));
	nested2(&at, IFLA_STATS_AF_SPEC, AF_MPLS, MPLS_STATS_LINK, &ms,
		sizeof(ms));
	send_msg(rt, buf, at);
	at = msg(buf, RTM_GETLINK, &ifi, sizeof(ifi));
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, IFLA_INET6_FLAGS, &flags, sizeof(flags));
	attr(&at, IFLA_INET6_CONF, devconf, sizeof(devconf));
	attr(&at, IFLA_INET6_TOKEN, a6, sizeof(a6));
	nest_end(nest, at, IFLA_PROTINFO);
	nested2(&at, IFLA_VFINFO_LIST, IFLA_VF_INFO, IFLA_VF_MAC, &vm,
		sizeof(vm));
	send_msg(rt, buf, at);
	mdb.addr.u.ip4 = htonl(0xe0000001);
	mdb.addr.proto = htons(ETH_P_IP);
	at = msg(buf, RTM_GETMDB, &bpm, sizeof(bpm));
	nested2(&at, MDBA_MDB, MDBA_MDB_ENTRY, MDBA_MDB_ENTRY_INFO, &mdb,
		sizeof(mdb));
	nested2(&at, MDBA_ROUTER, MDBA_ROUTER_PORT, MDBA_ROUTER_PATTR_TYPE,
		&u8, 1);
	send_msg(rt, buf, at);
	ifi.ifi_family = AF_BRIDGE;
	at = msg(buf, RTM_GETLINK, &ifi, sizeof(ifi));
	nest = at;
	at += NLA_HDRLEN;
	attr(&at, IFLA_BRPORT_STATE, &u8, 1);
	attr(&at, IFLA_BRPORT_COST, &u32, sizeof(u32));
	attr(&at, IFLA_BRPORT_GROUP_FWD_MASK, &port, sizeof(port));
	nest_end(nest, at, IFLA_PROTINFO);
	nested2(&at, 99, IFLA_VF_VLAN_LIST, IFLA_VF_VLAN_INFO, &vi,
		sizeof(vi));
	send_msg(rt, buf, at);
}

/* a generic netlink message to the controller (its family by name), a
 * netfilter one with its nfgenmsg, a uevent with libudev's header */
/* inet_diag requests filtered by bytecode: a host condition with its
 * address, an interface, a port bound, a mark, an operation without an
 * operand */
static void inet_bytecode(int fd, unsigned char *buf)
{
	struct inet_diag_req_v2 req = { .sdiag_family = AF_INET,
					 .sdiag_protocol = IPPROTO_TCP,
					 .idiag_states = 1 << 10 };
	struct {
		struct inet_diag_bc_op op;
		struct inet_diag_hostcond h;
		unsigned char addr[4];
	} host = { { INET_DIAG_BC_S_COND, 20, 24 },
		   { AF_INET, 8, 80 }, { 10, 1, 2, 3 } };
	struct {
		struct inet_diag_bc_op op;
		unsigned int v[2];
	} dev = { { INET_DIAG_BC_DEV_COND, 12, 16 }, { 1, 0 } },
	  mark = { { INET_DIAG_BC_MARK_COND, 12, 16 }, { 7, 0xff } };
	struct inet_diag_bc_op ge[2] = { { INET_DIAG_BC_D_GE, 8, 12 },
					 { 0, 0, 1024 } },
			       nop = { INET_DIAG_BC_NOP, 4, 8 };
	unsigned char *at;

	/* (requests: the kernel dumps what matches, none of it read) */
	at = msg(buf, SOCK_DIAG_BY_FAMILY, &req, sizeof(req));
	((struct nlmsghdr *)buf)->nlmsg_flags |= NLM_F_REQUEST;
	attr(&at, INET_DIAG_REQ_BYTECODE, &host, sizeof(host));
	send_msg(fd, buf, at);
	at = msg(buf, SOCK_DIAG_BY_FAMILY, &req, sizeof(req));
	((struct nlmsghdr *)buf)->nlmsg_flags |= NLM_F_REQUEST;
	attr(&at, INET_DIAG_REQ_BYTECODE, &dev, 8);
	attr(&at, INET_DIAG_REQ_BYTECODE, &mark, sizeof(mark));
	attr(&at, INET_DIAG_REQ_BYTECODE, ge, sizeof(ge));
	attr(&at, INET_DIAG_REQ_BYTECODE, &nop, sizeof(nop));
	send_msg(fd, buf, at);
}

static void other_protocols(unsigned char *buf)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	unsigned int uev[8] = { 0xfeedcafe, 40, 40, 3, 1, 2, 3, 4 };
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	check(fd >= 0 && bind(fd, (void *)&sa, sizeof(sa)) == 0, "genl");
	memset(buf, 0, 64);
	h->nlmsg_type = GENL_ID_CTRL;
	h->nlmsg_len = NLMSG_HDRLEN + 4;
	buf[NLMSG_HDRLEN] = CTRL_CMD_GETFAMILY;
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	close(fd);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	check(fd >= 0 && bind(fd, (void *)&sa, sizeof(sa)) == 0, "nf");
	memset(buf, 0, 64);
	h->nlmsg_type = NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_GETTABLE;
	h->nlmsg_flags = NLM_F_DUMP;
	h->nlmsg_len = NLMSG_HDRLEN + 8;
	buf[NLMSG_HDRLEN] = AF_INET;
	buf[NLMSG_HDRLEN + 3] = NFNL_SUBSYS_NFTABLES;
	buf[NLMSG_HDRLEN + 4] = 4;
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	h->nlmsg_type = 0x33 << 8 | 0x44;
	sendto(fd, buf, NLMSG_HDRLEN, 0, NULL, 0);
	close(fd);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT);
	check(fd >= 0 && bind(fd, (void *)&sa, sizeof(sa)) == 0, "uevent");
	memcpy(buf, "libudev", 8);
	memcpy(buf + 8, uev, sizeof(uev));
	memcpy(buf + 40, "A=b", 4);
	sendto(fd, buf, 44, MSG_DONTWAIT, NULL, 0);
	sendto(fd, "add@/devices", 12, MSG_DONTWAIT, NULL, 0);
	close(fd);
}

int main(void)
{
	static unsigned char buf[1024], reply[1024];
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} req = {
		{ sizeof(req), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 7, 0 },
		{ .sdiag_family = AF_UNIX, .udiag_states = 1 << 1 | 1 << 10,
		  .udiag_ino = 1, .udiag_show = UDIAG_SHOW_NAME |
		  UDIAG_SHOW_PEER | 0x1000, .udiag_cookie = { ~0U, ~0U } },
	};
	struct nlmsghdr *h = (void *)buf, done = { 20, NLMSG_DONE, NLM_F_MULTI,
					       8, 0 };
	struct unix_diag_msg m = { .udiag_family = AF_UNIX,
				   .udiag_type = SOCK_DGRAM, .udiag_state = 7,
				   .udiag_ino = 42, .udiag_cookie = { 1, 2 } };
	struct unix_diag_rqlen rq = { 3, 4 };
	unsigned int peer = 99, mem[3] = { 10, 20, 30 }, zero = 0;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct netlink_diag_req *nreq;
	struct netlink_diag_msg *nmsg;
	struct nlmsgerr *err;
	unsigned long groups[2] = { 0x5, 0 };
	unsigned int nflags = NDIAG_FLAG_CB_RUNNING | 0x100, lo = 1;
	int minus1 = -1;
	unsigned char *at;
	int fd, rt;

	begin();
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	check(fd >= 0 && bind(fd, (void *)&sa, sizeof(sa)) == 0, "socket");
	sendto(fd, &req, sizeof(req), 0, NULL, 0);
	recvfrom(fd, reply, sizeof(reply), MSG_DONTWAIT, NULL, NULL);
	inet_bytecode(fd, buf);

	/* replies (no NLM_F_REQUEST: the kernel ignores them) */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h->nlmsg_flags = NLM_F_MULTI;
	h->nlmsg_seq = 8;
	memcpy(buf + NLMSG_HDRLEN, &m, sizeof(m));
	at = buf + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(m));
	attr(&at, UNIX_DIAG_NAME, "sock", 5);
	attr(&at, UNIX_DIAG_PEER, &peer, sizeof(peer));
	attr(&at, UNIX_DIAG_RQLEN, &rq, sizeof(rq));
	attr(&at, UNIX_DIAG_MEMINFO, mem, sizeof(mem));
	attr(&at, UNIX_DIAG_SHUTDOWN, "\2", 1);
	attr(&at, UNIX_DIAG_NAME | NLA_F_NESTED, "ab", 2);
	attr(&at, 20, &peer, sizeof(peer));
	h->nlmsg_len = (unsigned int)(at - buf);
	memcpy(at, &done, sizeof(done));
	memcpy(at + sizeof(done), &zero, sizeof(zero));
	at += sizeof(done) + sizeof(zero);
	sendto(fd, buf, (size_t)(at - buf), 0, NULL, 0);
	/* an address family sock_diag has no structure for */
	buf[NLMSG_HDRLEN] = AF_APPLETALK;
	h->nlmsg_len = NLMSG_HDRLEN + 4;
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	/* too few bytes for a header */
	sendto(fd, buf, 6, 0, NULL, 0);
	/* AF_NETLINK: a request of every protocol, a reply */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	h->nlmsg_len = NLMSG_HDRLEN + sizeof(struct netlink_diag_req);
	nreq = (void *)(buf + NLMSG_HDRLEN);
	nreq->sdiag_family = AF_NETLINK;
	nreq->sdiag_protocol = NDIAG_PROTO_ALL;
	nreq->ndiag_show = NDIAG_SHOW_GROUPS | NDIAG_SHOW_FLAGS;
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	h->nlmsg_flags = NLM_F_MULTI;
	nmsg = (void *)(buf + NLMSG_HDRLEN);
	memset(nmsg, 0, sizeof(*nmsg));
	nmsg->ndiag_family = AF_NETLINK;
	nmsg->ndiag_type = SOCK_RAW;
	nmsg->ndiag_protocol = NETLINK_ROUTE;
	nmsg->ndiag_state = 1;
	nmsg->ndiag_portid = 77;
	at = buf + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nmsg));
	attr(&at, NETLINK_DIAG_GROUPS, groups, sizeof(groups));
	attr(&at, NETLINK_DIAG_FLAGS, &nflags, sizeof(nflags));
	h->nlmsg_len = (unsigned int)(at - buf);
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	/* an error whose request is capped, with a cookie */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	err = (void *)(buf + NLMSG_HDRLEN);
	err->error = -13;
	err->msg.nlmsg_len = 40;
	err->msg.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	at = buf + NLMSG_HDRLEN + sizeof(*err);
	attr(&at, NLMSGERR_ATTR_COOKIE, "\1\2\3", 3);
	attr(&at, NLMSGERR_ATTR_MSG, "no", 3);
	h->nlmsg_len = (unsigned int)(at - buf);
	sendto(fd, buf, h->nlmsg_len, 0, NULL, 0);
	close(fd);

	rt = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	check(rt >= 0 && bind(rt, (void *)&sa, sizeof(sa)) == 0, "socket");
	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = RTM_GETLINK;
	h->nlmsg_flags = NLM_F_DUMP | NLM_F_ECHO;
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	h->nlmsg_type = RTM_DELLINK;
	h->nlmsg_flags = NLM_F_NONREC | 0x4000;
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	h->nlmsg_type = RTM_NEWPREFIX;
	h->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	h->nlmsg_len = NLMSG_HDRLEN + 3;
	buf[NLMSG_HDRLEN] = AF_INET6;
	buf[NLMSG_HDRLEN + 1] = 0xfe;
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	/* netconf: the loopback interface by its name */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = RTM_NEWNETCONF;
	buf[NLMSG_HDRLEN] = AF_INET;
	at = buf + NLMSG_HDRLEN + 4;
	attr(&at, NETCONFA_IFINDEX, &lo, sizeof(lo));
	attr(&at, NETCONFA_FORWARDING, &minus1, sizeof(minus1));
	h->nlmsg_len = (unsigned int)(at - buf);
	sendto(rt, buf, h->nlmsg_len, 0, NULL, 0);
	cachereports(rt, buf);
	link_attrs(rt, buf);
	linkinfo(rt, buf);
	nexthops(rt, buf);
	route_msgs(rt, buf);
	close(rt);
	other_protocols(buf);
	return 0;
}
