/* SPDX-License-Identifier: MIT */
/* ioctl on loop devices and their control device, on no descriptor so
 * that each fails alike: the backing file's descriptor, both status
 * structures (with and without encryption, which shows its fields),
 * LOOP_CONFIGURE with and without reserved words, sizes, device
 * numbers and the requests without an argument. */
#include "corpus.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <linux/loop.h>

int main(int argc, char **argv)
{
	struct loop_info li;
	struct loop_info64 l64;
	struct loop_config cfg;
	int fd;

	(void)argc;
	check(chdir(argv[1]) == 0, "chdir");
	fd = open("backing", O_RDWR | O_CREAT, 0600);
	check(fd >= 0, "open");
	fill_bytes(&li, sizeof(li), 0x10, 1);
	fill_bytes(&l64, sizeof(l64), 0x40, 3);
	memset(&cfg, 0, sizeof(cfg));
	begin();
	ioctl(-1, LOOP_SET_FD, fd);
	ioctl(-1, LOOP_CHANGE_FD, -1);
	ioctl(-1, LOOP_CLR_FD);
	ioctl(-1, LOOP_SET_STATUS, &li);
	li.lo_encrypt_type = LO_CRYPT_NONE;
	li.lo_flags = LO_FLAGS_AUTOCLEAR;
	strcpy(li.lo_name, "backing");
	ioctl(-1, LOOP_SET_STATUS, &li);
	ioctl(-1, LOOP_GET_STATUS, &li);
	ioctl(-1, LOOP_SET_STATUS64, &l64);
	l64.lo_encrypt_type = LO_CRYPT_NONE;
	l64.lo_flags = LO_FLAGS_PARTSCAN | LO_FLAGS_DIRECT_IO;
	ioctl(-1, LOOP_SET_STATUS64, &l64);
	ioctl(-1, LOOP_GET_STATUS64, NULL);
	cfg.fd = fd;
	cfg.block_size = 4096;
	cfg.info = l64;
	ioctl(-1, LOOP_CONFIGURE, &cfg);
	cfg.__reserved[3] = 0xfeed;
	ioctl(-1, LOOP_CONFIGURE, &cfg);
	ioctl(-1, LOOP_SET_CAPACITY);
	ioctl(-1, LOOP_SET_DIRECT_IO, 1UL);
	ioctl(-1, LOOP_SET_BLOCK_SIZE, 512UL);
	ioctl(-1, LOOP_CTL_ADD, 7);
	ioctl(-1, LOOP_CTL_REMOVE, -7);
	ioctl(-1, LOOP_CTL_GET_FREE);
	close(fd);
	return 0;
}
