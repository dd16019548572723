/* SPDX-License-Identifier: MIT */
/* Directories: getdents64 through readdir (sorted), nlink counts, rename
 * of files and directories, rewinddir, deleting while reading. */
#include "fstest.h"
#include <dirent.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list(const char *name)
{
	char *names[512];
	int n = 0, i;
	struct dirent *e;
	DIR *d = opendir(P(name));

	if (!d) {
		printf("opendir %s: %s\n", name, strerrorname_np(errno));
		return;
	}
	while ((e = readdir(d)) && n < 512) {
		names[n] = malloc(strlen(e->d_name) + 4);
		sprintf(names[n], "%s%s", e->d_name,
			e->d_type == DT_DIR ? "/" : e->d_type == DT_REG ? "" : "?");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp);
	printf("%s:", name);
	for (i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

static void links(const char *name)
{
	struct stat st;

	if (stat(P(name), &st) == 0)
		printf("%s: nlink %ld %s\n", name, (long)st.st_nlink,
		       S_ISDIR(st.st_mode) ? "dir" : "file");
	else
		printf("%s: %s\n", name, strerrorname_np(errno));
}

int main(int argc, char **argv)
{
	char name[300];
	int i, fd;
	DIR *d;
	struct dirent *e;

	start(argc, argv);
	T(mkdir(P("t"), 0755));
	list("t");
	T(mkdir(P("t/sub"), 0755));
	T(mkdir(P("t/sub2"), 0755));
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "t/file-%03d", i);
		T(fd = open(P(name), O_CREAT | O_WRONLY, 0644));
		close(fd);
	}
	links("t");
	T(rename(P("t/sub2"), P("t/sub/moved")));
	links("t");
	links("t/sub");
	T(rename(P("t/file-000"), P("t/sub/f0")));
	T(rename(P("t/file-001"), P("t/file-002")));
	list("t/sub");
	/* rm -r reads a batch, deletes it, reads on: nothing is missed. */
	d = opendir(P("t"));
	i = 0;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "file-", 5)) {
			snprintf(name, sizeof(name), "t/%s", e->d_name);
			if (unlink(P(name)) == 0)
				i++;
		}
	}
	printf("deleted while reading: %d\n", i);
	rewinddir(d);
	i = 0;
	while ((e = readdir(d)))
		i++;
	printf("after rewind: %d\n", i);
	closedir(d);
	list("t");
	T(renameat2(AT_FDCWD, P("t/sub"), AT_FDCWD, P("t/x"), RENAME_NOREPLACE));
	T(fd = open(P("t/y"), O_CREAT | O_WRONLY, 0600));
	T(close(fd));
	T(renameat2(AT_FDCWD, P("t/x"), AT_FDCWD, P("t/y"), RENAME_EXCHANGE));
	list("t");
	links("t/y");
	links("t/x");
	list("t/y");
	return 0;
}
