/* SPDX-License-Identifier: MIT */
/*
 * sysgate bench ... -o FILE: the report goes to FILE only if the run
 * succeeds.  `sysgate bench --json > doc/bench.json` empties the file
 * (the shell truncates it) even when bench stops at once, e.g. because
 * --plot has no matplotlib; with -o the old file stays until a complete
 * new one replaces it (written beside it, then renamed).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

int sg_bench_cli(int argc, char **argv)
{
	const char *out = 0;
	char tmp[4096];
	int i, j, fd, rc;

	for (i = j = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else
			argv[j++] = argv[i];
	}
	argv[j] = 0;
	if (!out)
		return sg_bench_main(j, argv);
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp)) {
		fprintf(stderr, "sysgate bench: -o: path too long\n");
		return 1;
	}
	fd = mkstemp(tmp);	/* O_EXCL, 0600, never a followed link */
	if (fd < 0) {
		perror("sysgate bench: -o");
		return 1;
	}
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		perror("sysgate bench: -o");
		unlink(tmp);
		return 1;
	}
	close(fd);
	rc = sg_bench_main(j, argv);
	if (fflush(stdout) || fsync(STDOUT_FILENO))
		rc = 1;
	mode_t mask = umask(0);

	umask(mask);
	if (rc == 0 && (fchmod(STDOUT_FILENO, 0666 & ~mask) ||
			rename(tmp, out))) {
		perror("sysgate bench: -o");
		rc = 1;
	}
	if (rc)
		unlink(tmp);
	return rc;
}
