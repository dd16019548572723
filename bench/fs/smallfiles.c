/* SPDX-License-Identifier: MIT */
/*
 * smallfiles DIR N: create N files of 100 bytes in DIR (made if missing), stat them, read
 * them, unlink them; prints one JSON object with the rate of each phase
 * (operations per second, wall clock).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char *phase[] = { "create", "stat", "read", "unlink" };
	char path[4096], buf[100] = { 0 };
	double rate[4];
	struct stat st;
	int n, i, p, fd;

	if (argc != 3 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: smallfiles DIR N\n");
		return 2;
	}
	/* (made here when missing, by the client that will fill it, as
	 * smallfiles-ceph does: a directory another CephFS client made
	 * holds capabilities the MDS must take back at the first create) */
	mkdir(argv[1], 0755);
	for (p = 0; p < 4; p++) {
		double t0 = now();

		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/f%06d", argv[1], i);
			switch (p) {
			case 0:
				fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
				if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
					return perror(path), 1;
				close(fd);
				break;
			case 1:
				if (stat(path, &st) < 0 || st.st_size != sizeof(buf))
					return perror(path), 1;
				break;
			case 2:
				fd = open(path, O_RDONLY);
				if (fd < 0 || read(fd, buf, sizeof(buf)) != sizeof(buf))
					return perror(path), 1;
				close(fd);
				break;
			case 3:
				if (unlink(path) < 0)
					return perror(path), 1;
				break;
			}
		}
		rate[p] = n / (now() - t0);
	}
	printf("{\"files\":%d", n);
	for (p = 0; p < 4; p++)
		printf(",\"%s_per_s\":%.0f", phase[p], rate[p]);
	printf("}\n");
	return 0;
}
