/* SPDX-License-Identifier: MIT */
/*
 * execve's answers, which a mechanism that starts every program itself
 * (-m seccomp runs them through sysgate-loader) must give as the kernel
 * does: execvp walks PATH on ENOENT and runs /bin/sh on ENOEXEC; scripts
 * run with their interpreter and its one argument; a re-exec through
 * /proc/self/exe starts this program again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

static char dir[] = "/tmp/sg-exec-errors-XXXXXX";

static void put_file(const char *name, const char *text, mode_t mode)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	test_assert(fd >= 0);
	test_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	chmod(path, mode);
}

/* Run argv in a child (execvp when search), print how it went. */
static void run(const char *what, char *const argv[], int search)
{
	char line[256], *at;
	int st, p[2];
	pid_t pid;
	ssize_t n;

	test_assert(pipe(p) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		if (search)
			execvp(argv[0], argv);
		else
			execv(argv[0], argv);
		printf("%s\n", strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	if (n > 0 && line[n - 1] == '\n')
		line[n - 1] = 0;
	close(p[0]);
	test_assert(waitpid(pid, &st, 0) == pid);
	/* The directory's name changes from run to run. */
	while ((at = strstr(line, dir)))
		memmove(at + 3, at + strlen(dir), strlen(at + strlen(dir)) + 1),
			memcpy(at, "DIR", 3);
	printf("%s: [%s] exit %d\n", what, line, WEXITSTATUS(st));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char path[128], pathvar[300];

	if (argc > 1) {
		printf("again %s", argv[1]);
		return 3;
	}
	test_assert(mkdtemp(dir));
	put_file("plain", "not a program\n", 0644);
	put_file("text", "echo from sh $0\n", 0755);
	put_file("script", "#!/bin/sh -e\necho script \"$@\"\n", 0755);
	put_file("spaced", "#!  /bin/echo   one arg  \n", 0755);

	snprintf(path, sizeof(path), "%s/missing", dir);
	run("missing", (char *[]){ path, 0 }, 0);
	snprintf(path, sizeof(path), "%s/plain", dir);
	run("not executable", (char *[]){ path, 0 }, 0);
	run("directory", (char *[]){ dir, 0 }, 0);
	snprintf(path, sizeof(path), "%s/text", dir);
	run("no #! (execv)", (char *[]){ path, 0 }, 0);
	run("no #! (execvp runs sh)", (char *[]){ path, 0 }, 1);
	snprintf(path, sizeof(path), "%s/script", dir);
	run("script", (char *[]){ path, "a", "b c", 0 }, 0);
	snprintf(path, sizeof(path), "%s/spaced", dir);
	run("interpreter argument", (char *[]){ path, "x", 0 }, 0);
	/* PATH: a missing directory and a non-executable file first. */
	snprintf(pathvar, sizeof(pathvar), "%s/nodir:%s:/bin:/usr/bin", dir, dir);
	setenv("PATH", pathvar, 1);
	run("PATH search", (char *[]){ "plain", 0 }, 1);
	run("PATH search", (char *[]){ "true", 0 }, 1);
	run("/proc/self/exe", (char *[]){ "/proc/self/exe", "arg", 0 }, 0);
	for (const char *f = "plain\0text\0script\0spaced\0"; *f; f += strlen(f) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, f);
		unlink(path);
	}
	rmdir(dir);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
