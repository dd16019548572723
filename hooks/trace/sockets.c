/* SPDX-License-Identifier: MIT */
/*
 * -yy: a device's numbers (</dev/null<char 1:3>>) and a socket's protocol
 * and endpoints, in strace's form
 * (TCP:[127.0.0.1:80->127.0.0.1:4000], UNIX:[123->124,"/path"]), asked
 * from the kernel as strace does: the protocol's name from the
 * descriptor's "system.sockprotoname" attribute, the endpoints from
 * NETLINK_SOCK_DIAG (a socket opened and closed here, close-on-exec,
 * while the call is traced).  No libc: raw calls only.
 */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/genetlink.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "trace.h"

#define REPLY_MAX 8192

static long nr(const char *name)
{
	return sysgate_syscall_number(name);
}

/* Sends a request of type (proto's) with body (len bytes, dump: all of
 * them) on a new netlink socket of proto and hands each reply message to
 * fn until it returns non-zero or the replies end.  fn's result, or
 * -1. */
static int ask_nl(int proto, unsigned short type, int dump, const void *body,
		  unsigned long len,
		  int (*fn)(const struct nlmsghdr *h, void *arg), void *arg)
{
	struct {
		struct nlmsghdr h;
		unsigned char body[64];
	} req = { .h = { .nlmsg_type = type,
			 .nlmsg_flags = NLM_F_REQUEST |
					(dump ? NLM_F_DUMP : 0) } };
	long buf[REPLY_MAX / sizeof(long)];	/* (on the hook stack) */
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	long fd = sysgate_syscall(nr("socket"), AF_NETLINK,
				  SOCK_DGRAM | SOCK_CLOEXEC, proto, 0, 0, 0);
	int r = -1, done = 0;

	if (fd < 0 || len > sizeof(req.body))
		goto out;
	hk_memcpy(req.body, body, len);
	len += NLMSG_HDRLEN;
	req.h.nlmsg_len = len;
	if (sysgate_syscall(nr("sendto"), fd, (long)&req, len, 0, (long)&to,
			    sizeof(to)) != (long)len)
		goto out;
	while (!done) {
		long n = sysgate_syscall(nr("recvfrom"), fd, (long)buf,
					 sizeof(buf), 0, 0, 0);
		const struct nlmsghdr *h = (const void *)buf;

		if (n <= 0)
			break;
		for (; NLMSG_OK(h, (unsigned long)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			r = fn(h, arg);
			if (r > 0) {
				done = 1;
				break;
			}
		}
	}
out:
	if (fd >= 0)
		sysgate_syscall(nr("close"), fd, 0, 0, 0, 0, 0);
	return r;
}

/* ask_nl of NETLINK_SOCK_DIAG's SOCK_DIAG_BY_FAMILY */
static int ask(int dump, const void *body, unsigned long len,
	       int (*fn)(const struct nlmsghdr *h, void *arg), void *arg)
{
	return ask_nl(NETLINK_SOCK_DIAG, SOCK_DIAG_BY_FAMILY, dump, body, len,
		      fn, arg);
}

struct genl_find {
	unsigned int id;
	char *name;
	unsigned long size;
};

/* A family of the controller's dump: its name when its id is the one */
static int genl_found(const struct nlmsghdr *h, void *arg)
{
	struct genl_find *q = arg;
	const unsigned char *at = (const unsigned char *)NLMSG_DATA(h) +
				  GENL_HDRLEN;
	const unsigned char *end = (const unsigned char *)h + h->nlmsg_len;
	const char *name = 0;
	unsigned long name_len = 0;
	int id = -1;

	while (at + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)at;

		if (a->nla_len < NLA_HDRLEN || at + a->nla_len > end)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID && a->nla_len >= 6)
			id = *(const unsigned short *)(at + NLA_HDRLEN);
		else if (a->nla_type == CTRL_ATTR_FAMILY_NAME) {
			name = (const char *)at + NLA_HDRLEN;
			name_len = a->nla_len - NLA_HDRLEN;
		}
		at += NLA_ALIGN(a->nla_len);
	}
	if (id != (int)q->id || !name || !name_len || name_len > q->size)
		return 0;
	hk_memcpy(q->name, name, name_len);
	q->name[name_len - 1] = 0;
	return 1;
}

int genl_family_name(unsigned int id, char *name, unsigned long size)
{
	struct genlmsghdr g = { CTRL_CMD_GETFAMILY, 1, 0 };
	struct genl_find q = { id, name, size };

	return ask_nl(NETLINK_GENERIC, GENL_ID_CTRL, 1, &g, sizeof(g),
		      genl_found, &q) > 0 ? 0 : -1;
}

struct inet_find {
	struct fmt *f;
	unsigned long ino;
	const char *proto;
	int v6;
	int complete;	/* bound or connected: worth keeping */
};

static void p_endpoint(struct fmt *f, const unsigned int *addr,
		       unsigned short port_be, int v6)
{
	const unsigned char *a = (const unsigned char *)addr;

	if (v6) {
		fmt_chr(f, '[');
		p_inet6(f, a);
		fmt_chr(f, ']');
	} else {
		p_inet4(f, a);
	}
	fmt_chr(f, ':');
	fmt_udec(f, (port_be >> 8 | port_be << 8) & 0xffff);
}

static int zero(const unsigned int *a, int v6)
{
	return !a[0] && (!v6 || (!a[1] && !a[2] && !a[3]));
}

static int inet_found(const struct nlmsghdr *h, void *arg)
{
	struct inet_find *q = arg;
	const struct inet_diag_msg *m = NLMSG_DATA(h);

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->idiag_inode != q->ino)
		return 0;
	fmt_str(q->f, q->proto);
	fmt_str(q->f, ":[");
	if (!m->id.idiag_sport && zero(m->id.idiag_src, q->v6)) {
		fmt_udec(q->f, q->ino);	/* neither bound nor connected */
	} else {
		q->complete = 1;
		p_endpoint(q->f, m->id.idiag_src, m->id.idiag_sport, q->v6);
		if (m->id.idiag_dport || !zero(m->id.idiag_dst, q->v6)) {
			fmt_str(q->f, "->");
			p_endpoint(q->f, m->id.idiag_dst, m->id.idiag_dport,
				   q->v6);
		}
	}
	fmt_chr(q->f, ']');
	return 1;
}

static int inet(struct fmt *f, unsigned long ino, const char *proto, int v6,
		int protocol)
{
	struct inet_diag_req_v2 r = {
		.sdiag_family = v6 ? AF_INET6 : AF_INET,
		.sdiag_protocol = protocol,
		.idiag_states = ~0U,
		.id.idiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE },
	};
	struct inet_find q = { f, ino, proto, v6, 0 };

	if (ask(1, &r, sizeof(r), inet_found, &q) <= 0)
		return -1;
	return q.complete;
}

struct unix_find {
	struct fmt *f;
	unsigned long ino;
	const char *proto;	/* UNIX, UNIX-STREAM... */
	int complete;		/* with a peer or a name: worth keeping */
};

static int unix_found(const struct nlmsghdr *h, void *arg)
{
	struct unix_find *q = arg;
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	const struct rtattr *a;
	long left;
	unsigned int peer = 0;
	const char *name = 0;
	unsigned long name_len = 0;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->udiag_ino != q->ino)
		return 0;
	a = (const struct rtattr *)(m + 1);
	left = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
	for (; left >= (long)sizeof(*a) && a->rta_len >= sizeof(*a) &&
	       a->rta_len <= left;
	     left -= NLMSG_ALIGN(a->rta_len),
	     a = (const void *)((const char *)a + NLMSG_ALIGN(a->rta_len))) {
		const char *data = (const char *)a + NLMSG_ALIGN(sizeof(*a));
		unsigned long n = a->rta_len - NLMSG_ALIGN(sizeof(*a));

		if (a->rta_type == UNIX_DIAG_PEER && n >= 4)
			peer = *(const unsigned int *)data;
		else if (a->rta_type == UNIX_DIAG_NAME && n) {
			name = data;
			name_len = n;
		}
	}
	q->complete = peer || name;
	fmt_str(q->f, q->proto);
	fmt_str(q->f, ":[");
	fmt_udec(q->f, q->ino);
	if (peer) {
		fmt_str(q->f, "->");
		fmt_udec(q->f, peer);
	}
	if (name) {
		unsigned char path[110];
		int abstract = !name[0];	/* @"name", as strace */

		if (name_len > sizeof(path))
			name_len = sizeof(path);
		hk_memcpy(path, name, name_len);
		if (!abstract && path[name_len - 1] == 0)
			name_len = hk_strlen((const char *)path);
		fmt_str(q->f, abstract ? ",@" : ",");
		fmt_quoted(q->f, path + abstract, name_len - abstract, 0);
	}
	fmt_chr(q->f, ']');
	return 1;
}

static int unix_sock(struct fmt *f, unsigned long ino, const char *proto)
{
	struct unix_diag_req r = {
		.sdiag_family = AF_UNIX, .udiag_states = ~0U, .udiag_ino = ino,
		.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER,
		.udiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE },
	};
	struct unix_find q = { f, ino, proto, 0 };

	if (ask(0, &r, sizeof(r), unix_found, &q) <= 0)
		return -1;
	return q.complete;
}

/*
 * What was found for each socket, by inode, as strace keeps it: once a
 * socket is found bound, connected or named it prints the same from then
 * on (a datagram socket whose peer has closed still names the peer); one
 * never found prints its protocol and inode.
 */
#define CACHE 32
#define CACHE_TEXT 160
static struct {
	unsigned long ino;
	unsigned int len;
	char text[CACHE_TEXT];
} cache[CACHE];

static int cached(struct fmt *f, unsigned long ino)
{
	unsigned int i = ino % CACHE, len = cache[i].len;

	if (cache[i].ino != ino || !len || len > CACHE_TEXT)
		return -1;
	fmt_mem(f, cache[i].text, len);
	return 0;
}

static void keep(const struct fmt *f, unsigned long start, unsigned long ino)
{
	unsigned int i = ino % CACHE;
	unsigned long len = f->len - start;

	if (f->full || len > CACHE_TEXT)
		return;
	cache[i].len = 0;
	cache[i].ino = ino;
	hk_memcpy(cache[i].text, f->buf + start, len);
	cache[i].len = len;
}

/* NETLINK:[ROUTE:1234]: its protocol (by name) and port id, once bound */
static int netlink_sock(struct fmt *f, const struct sysgate_sys *s,
			unsigned long ino)
{
	unsigned int portid;
	int proto;
	const char *nm;

	if (nl_socket_row(s, ino, &proto, &portid))
		return -1;
	fmt_str(f, "NETLINK:[");
	nm = xlat_name(&xl_netlink_protos, (unsigned int)proto);
	if (nm && !hk_strncmp(nm, "NETLINK_", 8))
		fmt_str(f, nm + 8);
	else
		fmt_dec(f, proto);
	fmt_chr(f, ':');
	fmt_udec(f, portid);
	fmt_chr(f, ']');
	return 1;
}

/* The endpoints found now: 1 (worth keeping: bound, connected, named),
 * 0 (found, not yet bound), or -1. */
static int lookup_now(struct fmt *f, const struct sysgate_sys *s,
		      const char *proto, unsigned long ino)
{
	static const struct {
		const char *name;
		int v6, protocol;
	} inets[] = {
		{ "TCP", 0, IPPROTO_TCP }, { "TCPv6", 1, IPPROTO_TCP },
		{ "UDP", 0, IPPROTO_UDP }, { "UDPv6", 1, IPPROTO_UDP },
		{ "UDPLITE", 0, IPPROTO_UDPLITE },
		{ "UDPLITEv6", 1, IPPROTO_UDPLITE },
	};
	unsigned int i;

	if (!hk_strncmp(proto, "UNIX", 4))
		return unix_sock(f, ino, proto);
	if (!hk_strcmp(proto, "NETLINK"))
		return netlink_sock(f, s, ino);
	for (i = 0; i < sizeof(inets) / sizeof(inets[0]); i++)
		if (!hk_strcmp(proto, inets[i].name))
			return inet(f, ino, proto, inets[i].v6,
				    inets[i].protocol);
	return -1;
}

/* /proc/PID/fd/FD of the calling process, into link. */
static void fd_link(char *link, unsigned long size,
		    const struct sysgate_sys *s, int fd)
{
	struct fmt l;

	fmt_init(&l, link, size - 1);
	fmt_str(&l, "/proc/");
	fmt_dec(&l, s->pid);
	fmt_str(&l, "/fd/");
	fmt_dec(&l, fd);
	link[l.len] = 0;
}

int p_device(struct fmt *f, const struct sysgate_sys *s, int fd)
{
	char link[64];
	struct statx stx;

	fd_link(link, sizeof(link), s, fd);
	if (sysgate_syscall(nr("statx"), AT_FDCWD, (long)link, 0, STATX_TYPE,
			    (long)&stx, 0) < 0 ||
	    (!S_ISCHR(stx.stx_mode) && !S_ISBLK(stx.stx_mode)))
		return -1;
	fmt_str(f, S_ISCHR(stx.stx_mode) ? "<char " : "<block ");
	fmt_udec(f, stx.stx_rdev_major);
	fmt_chr(f, ':');
	fmt_udec(f, stx.stx_rdev_minor);
	fmt_chr(f, '>');
	return 0;
}

int p_socket_endpoints(struct fmt *f, const struct sysgate_sys *s, int fd,
		       unsigned long ino)
{
	char link[64], proto[32];
	unsigned long start = f->len;
	long n;

	fd_link(link, sizeof(link), s, fd);
	n = sysgate_syscall(nr("getxattr"), (long)link,
			    (long)"system.sockprotoname", (long)proto,
			    sizeof(proto) - 1, 0, 0);
	if (n <= 0)
		return -1;
	proto[n] = 0;
	if (!cached(f, ino))
		return 0;
	switch (lookup_now(f, s, proto, ino)) {
	case 1:
		keep(f, start, ino);
		return 0;
	case 0:
		return 0;
	}
	f->len = start;
	/* not found (not bound yet, another family): the protocol and the
	 * inode, as strace */
	fmt_str(f, proto);
	fmt_str(f, ":[");
	fmt_udec(f, ino);
	fmt_chr(f, ']');
	return 0;
}
