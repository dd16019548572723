/* SPDX-License-Identifier: MIT */
/* Terminal attributes in each of the kernel's three structures (termios,
 * termios2 with its speeds, the older termio), read from and written to
 * a pseudo-terminal, with an input speed of its own (CIBAUD), locked
 * attributes, and on no descriptor with values no name covers. */
#include "corpus.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <asm/termbits.h>

/* (asm/termbits.h's struct termio is libc's alone) */
struct old_termio {
	unsigned short c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[8];
};

int main(void)
{
	struct termios t;
	struct termios2 t2;
	struct old_termio to;
	int m, s;

	/* (no pseudo-terminals here: the calls fail alike on -1) */
	m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	if (m >= 0)
		ioctl(m, TIOCSPTLCK, &(int){ 0 });
	begin();
	s = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	if (s < 0)
		s = m;
	ioctl(s, TCGETS, &t);
	t.c_cflag |= (B1200 << IBSHIFT);
	ioctl(s, TCSETS, &t);
	ioctl(s, TCGETS2, &t2);
	t2.c_cflag = (t2.c_cflag & ~CBAUD) | BOTHER;
	t2.c_ospeed = 12345;
	ioctl(s, TCSETSW2, &t2);
	ioctl(s, TCGETS2, &t2);
	ioctl(s, TCGETA, &to);
	ioctl(s, TCSETAF, &to);
	ioctl(s, TIOCGLCKTRMIOS, &t);
	fill_bytes(&t2, sizeof(t2), 0x81, 3);
	ioctl(-1, TCSETS2, &t2);
	ioctl(-1, TCSETSF2, NULL);
	fill_bytes(&to, sizeof(to), 0x91, 5);
	ioctl(-1, TCSETAW, &to);
	ioctl(-1, TIOCSLCKTRMIOS, &t2);
	close(s);
	close(m);
	return 0;
}
