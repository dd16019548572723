/* SPDX-License-Identifier: MIT */
/* sendmmsg/recvmmsg past IOV_MAX messages: strace shows 1024 of them
 * and "...", and under -v such a line is far longer than the trace
 * hook's line buffer, yet comes out whole. */
#include "corpus.h"
#include <sys/socket.h>
#include <sys/un.h>

#define N 1025

static struct mmsghdr mm[N];
static struct iovec iov[N];
static struct sockaddr_un from[N];
static char data[N];

int main(void)
{
	int sv[2], i, sent;

	begin();
	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair");
	for (i = 0; i < N; i++) {
		data[i] = (char)('0' + i % 10);
		iov[i].iov_base = &data[i];
		iov[i].iov_len = 1;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	sent = sendmmsg(sv[0], mm, N, MSG_DONTWAIT);
	check(sent > 0, "sendmmsg");
	/* (the names the kernel fills: each message's namelen in and out) */
	for (i = 0; i < N; i++) {
		mm[i].msg_hdr.msg_name = &from[i];
		mm[i].msg_hdr.msg_namelen = sizeof(from[i]) - i % 3;
	}
	check(recvmmsg(sv[1], mm, N, MSG_DONTWAIT, NULL) == sent, "recvmmsg");
	close(sv[0]);
	close(sv[1]);
	return 0;
}
