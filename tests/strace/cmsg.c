/* SPDX-License-Identifier: MIT */
/* Control messages: credentials and descriptors passed on a unix socket
 * and received; every type strace decodes sent as it would be read
 * (timestamps of each kind, IP packet information by interface name,
 * TTL, TOS bytes, extended errors, original addresses), types with no
 * printer or too little data, another level, a header cut short. */
#include "corpus.h"
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/errqueue.h>

static unsigned char ctl[1024];
static size_t used;

/* appends a control message of n bytes of data */
static void add(int level, int type, const void *data, size_t n)
{
	struct cmsghdr *h = (void *)(ctl + used);

	h->cmsg_len = CMSG_LEN(n);
	h->cmsg_level = level;
	h->cmsg_type = type;
	memcpy(CMSG_DATA(h), data, n);
	used += CMSG_SPACE(n);
}

int main(void)
{
	int sv[2], one = 1, fd;
	char data[] = "x", in[8];
	struct iovec iov = { data, 1 }, rio = { in, sizeof(in) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ucred cr;
	long ts[6] = { 1, 2, 3, 4, 5, 6 };
	struct in_pktinfo pi = { 1, { htonl(0x7f000001) },
				 { htonl(0x7f000002) } };
	struct {
		struct sock_extended_err e;
		struct sockaddr_in off;
	} err = { { .ee_errno = 111, .ee_origin = SO_EE_ORIGIN_ICMP,
		    .ee_type = 3, .ee_code = 1, .ee_info = 5, .ee_data = 6 },
		  { .sin_family = AF_INET, .sin_port = htons(53),
		    .sin_addr = { htonl(0x0a000001) } } };
	struct sockaddr_in dst = { AF_INET, htons(80), { htonl(0x7f000001) },
				   { 0 } };
	unsigned int ttl = 64;

	begin();
	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair");
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	fd = open("/dev/null", O_RDONLY);
	cr.pid = getpid();
	cr.uid = getuid();
	cr.gid = getgid();
	add(SOL_SOCKET, SCM_CREDENTIALS, &cr, sizeof(cr));
	add(SOL_SOCKET, SCM_RIGHTS, &fd, sizeof(fd));
	m.msg_control = ctl;
	m.msg_controllen = used;
	sendmsg(sv[0], &m, 0);
	memset(ctl, 0, sizeof(ctl));
	m.msg_iov = &rio;
	m.msg_controllen = 256;
	recvmsg(sv[1], &m, 0);

	/* what a receiver reads (refused on a unix socket) */
	used = 0;
	memset(ctl, 0, sizeof(ctl));
	add(SOL_SOCKET, SO_TIMESTAMP_OLD, ts, 2 * sizeof(long));
	add(SOL_SOCKET, SO_TIMESTAMPNS_OLD, ts, 2 * sizeof(long));
	add(SOL_SOCKET, SO_TIMESTAMPING_OLD, ts, 6 * sizeof(long));
	add(SOL_SOCKET, SO_TIMESTAMPNS_OLD, ts, 4);
	add(SOL_SOCKET, SO_TXTIME, ts, 8);
	add(SOL_IP, IP_PKTINFO, &pi, sizeof(pi));
	add(SOL_IP, IP_TTL, &ttl, sizeof(ttl));
	add(SOL_IP, IP_TOS, "\x10\x20", 2);
	add(SOL_IP, IP_RECVERR, &err, sizeof(err));
	add(SOL_IP, IP_ORIGDSTADDR, &dst, sizeof(dst));
	add(IPPROTO_TCP, 5, "ab", 2);
	m.msg_iov = &iov;
	m.msg_control = ctl;
	m.msg_controllen = used + 10;
	sendmsg(sv[0], &m, 0);
	/* no room for a header */
	m.msg_controllen = 8;
	sendmsg(sv[0], &m, 0);
	return 0;
}
