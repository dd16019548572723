/* SPDX-License-Identifier: MIT */
/* Network: sockets of three families, sockaddrs, socket options,
 * messages. */
#include "corpus.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <net/if.h>
#include <sys/un.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <linux/vm_sockets.h>
#include <linux/if_xdp.h>
#include <linux/qrtr.h>
#include <linux/mctp.h>

int main(int argc, char **argv)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len;
	struct iovec iov[2];
	struct msghdr mh = { 0 };
	char buf[64];
	int s, c, a, one = 1, sv[2];

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	check(s >= 0, "socket");
	check(setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0,
	      "SO_REUSEADDR");
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	check(bind(s, (struct sockaddr *)&in, sizeof(in)) == 0, "bind");
	check(listen(s, 8) == 0, "listen");
	len = sizeof(in);
	check(getsockname(s, (struct sockaddr *)&in, &len) == 0, "getsockname");
	c = socket(AF_INET, SOCK_STREAM, 0);
	check(setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0,
	      "TCP_NODELAY");
	check(connect(c, (struct sockaddr *)&in, sizeof(in)) == 0, "connect");
	a = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	check(a >= 0, "accept4");
	check(sendto(c, "ping", 4, 0, NULL, 0) == 4, "sendto");
	check(recvfrom(a, buf, sizeof(buf), 0, NULL, NULL) == 4, "recvfrom");
	len = sizeof(one);
	check(getsockopt(a, SOL_SOCKET, SO_TYPE, &one, &len) == 0, "SO_TYPE");
	/* an address that cannot be written: the length as given; none
	 * read without an address */
	len = sizeof(in);
	getpeername(c, (struct sockaddr *)8, &len);
	getsockname(c, NULL, &len);
	len = -5;
	getsockname(c, (struct sockaddr *)8, &len);
	check(shutdown(c, SHUT_WR) == 0, "shutdown");
	close(a);
	close(c);
	close(s);

	s = socket(AF_INET6, SOCK_DGRAM, 0);
	check(s >= 0, "socket6");
	in6.sin6_addr = in6addr_loopback;
	check(bind(s, (struct sockaddr *)&in6, sizeof(in6)) == 0, "bind6");
	close(s);

	s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	strcpy(un.sun_path, "sock");
	check(bind(s, (struct sockaddr *)&un, sizeof(un)) == 0, "bind unix");
	close(s);
	unlink("sock");

	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair");
	iov[0].iov_base = "head";
	iov[0].iov_len = 4;
	iov[1].iov_base = "tail";
	iov[1].iov_len = 4;
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	check(sendmsg(sv[0], &mh, 0) == 8, "sendmsg");
	iov[0].iov_base = buf;
	iov[0].iov_len = sizeof(buf);
	mh.msg_iovlen = 1;
	check(recvmsg(sv[1], &mh, MSG_DONTWAIT) == 8, "recvmsg");
	{
		/* the peer's credentials, whole and cut short */
		struct ucred cred;
		socklen_t clen = sizeof(cred);

		getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &clen);
		clen = 6;
		getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &clen);
		getsockopt(-1, SOL_SOCKET, SO_PEERCRED, &cred, &clen);
		/* an int option cut short, set short, by name, unknown */
		clen = 3;
		getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &cred, &clen);
		clen = 0;
		getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &cred, &clen);
		setsockopt(sv[0], SOL_SOCKET, SO_DEBUG, &cred, 2);
		cred.pid = 1;
		setsockopt(sv[0], SOL_SOCKET, 74 /* SO_TXREHASH */, &cred, 4);
		cred.pid = 7;
		setsockopt(sv[0], SOL_SOCKET, 74, &cred, 4);
		clen = 4;
		getsockopt(sv[0], SOL_SOCKET, 200, &cred, &clen);
	}
	{
		/* descriptors passed: each one printed, the first too */
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(2 * sizeof(int))];
		} u;
		int fds[2] = { 0, 1 };

		memset(&u, 0, sizeof(u));
		u.h.cmsg_len = CMSG_LEN(sizeof(fds));
		u.h.cmsg_level = SOL_SOCKET;
		u.h.cmsg_type = SCM_RIGHTS;
		memcpy(CMSG_DATA(&u.h), fds, sizeof(fds));
		iov[0].iov_base = "fds";
		iov[0].iov_len = 3;
		mh.msg_control = &u;
		mh.msg_controllen = sizeof(u);
		sendmsg(sv[0], &mh, 0);
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
	}
	{
		/* several messages a call: sent, received with the
		 * lengths of the names given and got, one cut short */
		struct mmsghdr mm[3];
		struct iovec mv[3];
		struct sockaddr_un from[3];
		char rb[3][8];
		int i;

		memset(mm, 0, sizeof(mm));
		memset(rb, 'x', sizeof(rb));
		for (i = 0; i < 3; i++) {
			mv[i].iov_base = (char *)"one\0two\0three" + 4 * i;
			mv[i].iov_len = 3;
			mm[i].msg_hdr.msg_iov = &mv[i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		sendmmsg(sv[0], mm, 3, MSG_DONTWAIT);
		for (i = 0; i < 3; i++) {
			mv[i].iov_base = rb[i];
			mv[i].iov_len = i ? sizeof(rb[i]) : 2;
			mm[i].msg_hdr.msg_name = &from[i];
			mm[i].msg_hdr.msg_namelen = i ? sizeof(from[i]) : 1;
		}
		recvmmsg(sv[1], mm, 3, MSG_DONTWAIT, NULL);
		sendmmsg(-1, mm, 2, 0);
		recvmmsg(-1, mm, 2, 0, NULL);
	}
	close(sv[0]);
	close(sv[1]);
	{
		/* multicast memberships (on no socket: EBADF), one short */
		struct ip_mreq m4 = { { htonl(0xe0000003) },
				      { htonl(INADDR_LOOPBACK) } };
		struct ipv6_mreq m6 = { IN6ADDR_LOOPBACK_INIT, 1 };
		struct group_req g = { 1 };

		memcpy(&g.gr_group, &in, sizeof(in));
		setsockopt(-1, SOL_IP, IP_ADD_MEMBERSHIP, &m4, sizeof(m4));
		setsockopt(-1, SOL_IP, IP_DROP_MEMBERSHIP, &m4, 7);
		setsockopt(-1, SOL_IPV6, IPV6_ADD_MEMBERSHIP, &m6, sizeof(m6));
		setsockopt(-1, SOL_IPV6, IPV6_JOIN_ANYCAST, &m6, sizeof(m6) + 4);
		setsockopt(-1, SOL_IP, MCAST_JOIN_GROUP, &g, sizeof(g));
		setsockopt(-1, SOL_IPV6, MCAST_LEAVE_GROUP, &g, 8);
	}
	/* a path longer than -s: never cut */
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	strcpy(un.sun_path, "a-socket-name-longer-than-thirty-two-bytes");
	connect(s, (struct sockaddr *)&un, sizeof(un));
	close(s);
	{
		/* packet sockets' options (on no socket: EBADF) */
		struct packet_mreq mr = { 1, PACKET_MR_PROMISC, 6,
					  { 0x02, 0x42, 0xac, 0x11, 0, 2 } };
		struct tpacket_req req = { 4096, 4, 2048, 8 };
		unsigned int stats[3];
		socklen_t len = sizeof(stats);

		setsockopt(-1, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
			   sizeof(mr));
		mr.mr_type = 9;
		mr.mr_alen = 12;
		setsockopt(-1, SOL_PACKET, PACKET_DROP_MEMBERSHIP, &mr,
			   sizeof(mr));
		setsockopt(-1, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, 8);
		setsockopt(-1, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req));
		setsockopt(-1, SOL_PACKET, PACKET_TX_RING, &req, 4);
		setsockopt(-1, SOL_PACKET, 99, &req, sizeof(req));
		getsockopt(-1, SOL_PACKET, PACKET_STATISTICS, stats, &len);
	}
	{
		/* SO_LINGER's structure whole and cut short, SO_ERROR by
		 * name and cut short */
		struct linger lg = { 1, 5 };
		socklen_t len = sizeof(lg);
		int e, tcp = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		setsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, 4);
		getsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, &len);
		len = 6;
		getsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, &len);
		len = sizeof(e);
		getsockopt(tcp, SOL_SOCKET, SO_ERROR, &e, &len);
		len = 2;
		getsockopt(tcp, SOL_SOCKET, SO_ERROR, &e, &len);
		close(tcp);
	}
	{
		/* addresses of the rarer families, each on no socket: a
		 * packet socket's, vsock's, XDP's, QRTR's, MCTP's, an AF_ALG
		 * one, an IPv6 link-local one with its scope, and one too
		 * short for its family (its bytes) */
		struct sockaddr_ll ll = { AF_PACKET, htons(ETH_P_IP), 1,
					  1, PACKET_BROADCAST, 6,
					  { 1, 2, 3, 4, 5, 6 } };
		struct sockaddr_vm vm = { .svm_family = AF_VSOCK,
					  .svm_cid = VMADDR_CID_HOST,
					  .svm_port = 1024 };
		struct sockaddr_xdp xdp = { AF_XDP, XDP_ZEROCOPY, 1, 3, 0 };
		struct sockaddr_qrtr qr = { AF_QIPCRTR, 1, QRTR_PORT_CTRL };
		struct sockaddr_mctp mc = { .smctp_family = AF_MCTP,
					    .smctp_addr = { MCTP_ADDR_ANY },
					    .smctp_type = 1 };
		struct {
			unsigned short family;
			unsigned char type[14];
			unsigned int feat, mask;
			unsigned char name[64];
		} alg = { 38 /* AF_ALG */, "hash", 0, 0, "sha256" };
		struct sockaddr_in6 ll6 = { .sin6_family = AF_INET6,
					    .sin6_port = htons(80),
					    .sin6_scope_id = 1 };

		ll6.sin6_addr.s6_addr[0] = 0xfe;
		ll6.sin6_addr.s6_addr[1] = 0x80;
		ll6.sin6_addr.s6_addr[15] = 1;
		connect(-1, (void *)&ll, sizeof(ll));
		connect(-1, (void *)&vm, sizeof(vm));
		connect(-1, (void *)&xdp, sizeof(xdp));
		connect(-1, (void *)&qr, sizeof(qr));
		connect(-1, (void *)&mc, sizeof(mc));
		connect(-1, (void *)&alg, sizeof(alg));
		connect(-1, (void *)&ll6, sizeof(ll6));
		connect(-1, (void *)&vm, sizeof(vm) - 1);
	}
	{
		/* IPX, X.25 and AX.25 addresses (their bytes: headers of
		 * these families are gone), a netlink one with padding */
		static const unsigned char ipx[16] = {
			4, 0, 0x30, 0x39, 0xfa, 0xce, 0xfe, 0xed,
			'A', 'B', 'C', 'D', 'E', 'F', 0xff, 0 };
		static const unsigned char x25[18] = { 9, 0, '1', '2', '3' };
		unsigned char ax25[30] = { 3, 0, 'N' << 1, '0' << 1,
					   'C' << 1, 'A' << 1, 'L' << 1,
					   'L' << 1, 5 << 1, 0, 0, 0, 1 };
		struct sockaddr_nl nl = { AF_NETLINK, 1, 0, 5 };

		memcpy(ax25 + 16, ax25 + 2, 7);
		connect(-1, (void *)ipx, sizeof(ipx));
		connect(-1, (void *)x25, sizeof(x25));
		connect(-1, (void *)ax25, 16);
		connect(-1, (void *)ax25, 23);
		ax25[12] = 3;
		connect(-1, (void *)ax25, 30);
		connect(-1, (void *)&nl, sizeof(nl));
	}
	{
		/* ICMP_FILTER's sets: given, and read back from a raw socket
		 * (where one can be opened) */
		unsigned int types = 1 << 0 | 1 << 8 | 1 << 20, all = ~2U;
		socklen_t n = sizeof(types);
		int raw = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

		setsockopt(-1, SOL_RAW, 1, &types, sizeof(types));
		setsockopt(-1, SOL_RAW, 1, &all, 8);
		setsockopt(raw, SOL_RAW, 1, &types, sizeof(types));
		getsockopt(raw, SOL_RAW, 1, &types, &n);
		close(raw);
	}
	{
		/* SIOCGIFCONF: the length wanted, then the interfaces */
		struct ifreq ifr[2];
		struct ifconf ic = { 0, { NULL } };
		int d = socket(AF_INET, SOCK_DGRAM, 0);

		ioctl(d, SIOCGIFCONF, &ic);
		ic.ifc_len = sizeof(ifr);
		ic.ifc_req = ifr;
		ioctl(d, SIOCGIFCONF, &ic);
		ioctl(d, SIOCGIFCONF, NULL);
		close(d);
	}
	return 0;
}
