/* SPDX-License-Identifier: MIT */
/* Sockets' ioctls: the loopback interface's index, name, flags, MTU,
 * addresses and hardware address got (struct ifreq at exit), settings
 * refused as given (a name no interface has), the owner and OOB mark
 * as ints, a bridge's name, and requests whose argument strace leaves
 * an address. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/sockios.h>

int main(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), v = 0;
	struct ifreq r;
	struct sockaddr_in *in = (struct sockaddr_in *)&r.ifr_addr;

	check(s >= 0, "socket");
	begin();
	memset(&r, 0, sizeof(r));
	strcpy(r.ifr_name, "lo");
	ioctl(s, SIOCGIFINDEX, &r);
	ioctl(s, SIOCGIFNAME, &r);
	ioctl(s, SIOCGIFFLAGS, &r);
	ioctl(s, SIOCGIFMTU, &r);
	ioctl(s, SIOCGIFADDR, &r);
	ioctl(s, SIOCGIFNETMASK, &r);
	ioctl(s, SIOCGIFHWADDR, &r);
	ioctl(s, SIOCGIFTXQLEN, &r);
	strcpy(r.ifr_name, "no-such-if0");
	ioctl(s, SIOCGIFMTU, &r);
	r.ifr_mtu = 1400;
	ioctl(s, SIOCSIFMTU, &r);
	r.ifr_flags = IFF_UP | IFF_RUNNING;
	ioctl(s, SIOCSIFFLAGS, &r);
	in->sin_family = AF_INET;
	in->sin_port = htons(53);
	in->sin_addr.s_addr = htonl(0x0a000001);
	ioctl(s, SIOCSIFADDR, &r);
	strcpy(r.ifr_newname, "renamed0");
	ioctl(s, SIOCSIFNAME, &r);
	ioctl(s, FIOGETOWN, &v);
	v = 0;
	ioctl(s, FIOSETOWN, &v);
	ioctl(s, SIOCATMARK, &v);
	ioctl(-1, SIOCBRADDBR, "br-corpus");
	ioctl(-1, SIOCDARP, NULL);
	ioctl(-1, SIOCGIFINDEX, NULL);
	close(s);
	return 0;
}
