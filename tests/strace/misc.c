/* SPDX-License-Identifier: MIT */
/* Directory listings, system information, random bytes, umask. */
#include "corpus.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

int main(int argc, char **argv)
{
	struct utsname u;
	struct sysinfo si;
	unsigned char rnd[8];
	struct dirent *de;
	DIR *d;
	int fd;

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	fd = open("a", O_WRONLY | O_CREAT, 0600);
	close(fd);
	fd = open("b", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	d = opendir(".");
	check(d != NULL, "opendir");
	while ((de = readdir(d)))
		;
	closedir(d);
	unlink("a");
	unlink("b");
	check(uname(&u) == 0, "uname");
	check(sysinfo(&si) == 0, "sysinfo");
	/* The bytes differ between runs: ask for none. */
	check(getrandom(rnd, 0, GRND_NONBLOCK) == 0, "getrandom");
	fd = open("/dev/null", O_WRONLY);
	check(write(fd, "\x01\x7f\x80\xff\t\x1b[0m\0001", 11) == 11, "write");
	close(fd);
	umask(022);
	check(umask(027) == 022, "umask");
	return 0;
}
