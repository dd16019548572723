/* SPDX-License-Identifier: MIT */
/*
 * fexecve and execveat: of a descriptor (close-on-exec or not, O_PATH),
 * relative to a directory descriptor, and of a memfd holding a copy of
 * the program (before, -m seccomp's loader could not open
 * /proc/self/fd/N once the exec had closed N: exit 127).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

extern char **environ;

static char *self;

/* Run how() in a child; print what the program it starts says. */
static void run(const char *what, void (*how)(char **argv))
{
	char *argv[] = { self, "child", (char *)what, 0 };
	int st;
	pid_t p = fork();

	test_assert(p >= 0);
	if (p == 0) {
		how(argv);
		atomic_printf("%s: exec failed: %s\n", what, strerror(errno));
		_exit(127);
	}
	test_assert(waitpid(p, &st, 0) == p);
	atomic_printf("%s: exit %d\n", what, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static void fd_plain(char **argv)
{
	fexecve(open(self, O_RDONLY), argv, environ);
}

static void fd_cloexec(char **argv)
{
	fexecve(open(self, O_RDONLY | O_CLOEXEC), argv, environ);
}

static void fd_path(char **argv)
{
	syscall(SYS_execveat, open(self, O_PATH | O_CLOEXEC), "", argv, environ,
		AT_EMPTY_PATH);
}

static void dir_relative(char **argv)
{
	char d[4096], b[4096];

	strcpy(d, self);
	strcpy(b, self);
	syscall(SYS_execveat, open(dirname(d), O_RDONLY | O_DIRECTORY), basename(b),
		argv, environ, 0);
}

static void dir_cloexec_relative(char **argv)
{
	char d[4096], b[4096];

	strcpy(d, self);
	strcpy(b, self);
	syscall(SYS_execveat, open(dirname(d), O_PATH | O_DIRECTORY | O_CLOEXEC),
		basename(b), argv, environ, 0);
}

static void memfd(char **argv)
{
	int in = open(self, O_RDONLY), m = memfd_create("copy", MFD_CLOEXEC);
	struct stat st;

	test_assert(in >= 0 && m >= 0 && fstat(in, &st) == 0);
	test_assert(sendfile(m, in, 0, st.st_size) == st.st_size);
	fexecve(m, argv, environ);
}

/* A script in a memfd: run from it while the descriptor stays open; a
 * close-on-exec one fails (ENOENT: the interpreter could not open it). */
static void script(char **argv, unsigned int flags)
{
	static const char text[] = "#!/bin/sh\necho \"$0\" | sed 's/[0-9]*$/N/'\n";
	int m = memfd_create("script", flags);

	test_assert(m >= 0 && write(m, text, sizeof(text) - 1) == sizeof(text) - 1);
	fexecve(m, argv, environ);
}

static void script_open(char **argv)
{
	script(argv, 0);
}

static void script_cloexec(char **argv)
{
	script(argv, MFD_CLOEXEC);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "child")) {
		atomic_printf("%s: running\n", argv[2]);
		return 0;
	}
	self = argv[0];
	run("fexecve", fd_plain);
	run("fexecve of a close-on-exec descriptor", fd_cloexec);
	run("execveat of an O_PATH descriptor", fd_path);
	run("execveat relative to a directory", dir_relative);
	run("execveat relative to a close-on-exec directory", dir_cloexec_relative);
	run("fexecve of a memfd", memfd);
	run("fexecve of a script", script_open);
	run("fexecve of a close-on-exec script", script_cloexec);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
