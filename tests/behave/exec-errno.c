/* SPDX-License-Identifier: MIT */
/*
 * execve's errors when pointers are bad or descriptors run out, which a
 * mechanism that checks a program itself before starting it (-m seccomp
 * and the loader) must give as the kernel does: which error comes first
 * (a missing file or a bad argv) is the kernel's order; a NULL argv runs
 * the program; with every descriptor in use the exec itself succeeds.
 * A missing program (sysgate answers it without preparing the exec) must
 * fail as the kernel fails it, and a PATH search past missing
 * directories must still find and run the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

static char *av[] = { "sh", "-c", "exit 5", 0 }, *ev[] = { 0 };
static char *path_ev[] = { "PATH=/nonexistent:/etc/passwd:/usr/bin:/bin", 0 };
/* Above user space: bad for the kernel whatever is mapped (-m zeropage
 * may map page 0, where a small address would read fine). */
#define BAD ((void *)-4096L)
static char **bad = BAD, *badstr[] = { BAD, 0 };

/* execve in a child: how it failed, or how the program it ran ended. */
static void try(const char *what, const char *path, char **argv, char **envp,
		int nofile)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		if (nofile) {
			struct rlimit rl = { 16, 16 };

			test_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
			while (open("/dev/null", O_RDONLY) >= 0)
				;
		}
		if (path)
			syscall(SYS_execve, path, argv, envp);
		else
			execvpe(argv[0], argv, envp);
		atomic_printf("%s: execve failed, errno %d\n", what, errno);
		_exit(1);
	}
	test_assert(waitpid(pid, &st, 0) == pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) != 1)
		atomic_printf("%s: ran, exit %d\n", what, WEXITSTATUS(st));
}

int main(void)
{
	try("bad path", BAD, av, ev, 0);
	try("missing, bad argv", "/nonexistent", bad, ev, 0);
	try("missing, bad envp", "/nonexistent", av, bad, 0);
	try("missing, bad argv string", "/nonexistent", badstr, ev, 0);
	try("missing, bad envp string", "/nonexistent", av, badstr, 0);
	try("missing", "/nonexistent", av, ev, 0);
	try("below a file", "/etc/passwd/sh", av, ev, 0);
	try("PATH search", 0, av, path_ev, 0);
	try("directory, bad argv", "/", bad, ev, 0);
	try("directory, bad envp", "/", av, bad, 0);
	try("program, bad argv", "/bin/sh", bad, ev, 0);
	try("program, bad envp string", "/bin/sh", av, badstr, 0);
	try("NULL argv", "/bin/true", 0, ev, 0);
	try("no descriptor free", "/bin/sh", av, ev, 1);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
