/* SPDX-License-Identifier: MIT */
/* Running programs stored in DIR: a copy of this program by execve,
 * relative path, execveat, fexecve and posix_spawn; #! scripts (with an
 * argument, with an interpreter in DIR); what may not run (no x bit, a
 * directory, an empty or unknown file, a missing one). */
#include "fstest.h"
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>

extern char **environ;

/* argv and the process name, paths cut to their last component */
static int child(int argc, char **argv)
{
	char comm[32] = "";
	int i, fd = open("/proc/self/comm", O_RDONLY);

	if (fd >= 0 && read(fd, comm, sizeof(comm) - 1) > 0)
		comm[strcspn(comm, "\n")] = 0;
	printf("child comm %s:", comm);
	for (i = 0; i < argc; i++)
		printf(" %s", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 :
						      argv[i]);
	printf("\n");
	return 3;
}

static void put(const char *name, const char *text, mode_t mode)
{
	int fd = open(P(name), O_CREAT | O_WRONLY | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, strlen(text)) < 0 || close(fd) < 0 ||
	    chmod(P(name), mode) < 0)
		printf("put %s: %s\n", name, strerrorname_np(errno));
}

/* Run fn in a child; print how the exec went and how the child ended. */
#define RUN(call)                                                          \
	do {                                                               \
		pid_t pid_;                                                \
		int st_;                                                   \
		fflush(stdout);                                            \
		if ((pid_ = fork()) == 0) {                                \
			call;                                              \
			printf("%-50s: %s\n", #call, strerrorname_np(errno)); \
			_exit(100);                                        \
		}                                                          \
		waitpid(pid_, &st_, 0);                                    \
		printf("  exit %d\n", WEXITSTATUS(st_));                   \
	} while (0)

int main(int argc, char **argv)
{
	char self[4096], text[4200], *av[] = { "prog", "--child", "x", 0 };
	char *sv[] = { "s", "y", 0 };
	ssize_t n;
	int in, out, d, f, st;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child(argc, argv);
	start(argc, argv);
	/* this program, copied into DIR (by its path: under the loader
	 * /proc/self/exe is the loader) */
	in = open(argv[0], O_RDONLY);
	out = open(P("prog"), O_CREAT | O_WRONLY | O_TRUNC, 0755);
	while (in >= 0 && out >= 0 && (n = read(in, self, sizeof(self))) > 0)
		if (write(out, self, n) != n)
			break;
	T(close(out));
	close(in);
	RUN(execve(P("prog"), av, environ));
	snprintf(text, sizeof(text), "#!/bin/sh\necho script $# \"$1\"\n");
	put("s", text, 0755);
	RUN(execve(P("s"), sv, environ));
	put("s1", "#!/bin/sh -u\necho arg \"$1\"\n", 0755);
	RUN(execve(P("s1"), sv, environ));
	snprintf(text, sizeof(text), "#!%s --child\n", P("prog"));
	put("s2", text, 0755);
	RUN(execve(P("s2"), sv, environ));
	snprintf(text, sizeof(text), "#!%s\n", P("s2"));
	put("s3", text, 0755);
	RUN(execve(P("s3"), sv, environ));
	put("text", "hello\n", 0644);
	RUN(execve(P("text"), av, environ));
	put("empty", "", 0755);
	RUN(execve(P("empty"), av, environ));
	put("junk", "\x7f" "ELF junk", 0755);
	RUN(execve(P("junk"), av, environ));
	T(mkdir(P("dir"), 0755));
	RUN(execve(P("dir"), av, environ));
	RUN(execve(P("missing"), av, environ));
	RUN(if (chdir(dir) == 0) execve("./prog", av, environ));
	T(d = open(dir, O_RDONLY | O_DIRECTORY));
	RUN(syscall(SYS_execveat, d, "prog", av, environ, 0));
	T(f = open(P("prog"), O_RDONLY | O_CLOEXEC));
	RUN(fexecve(f, av, environ));
	/* posix_spawn: a vfork-like clone, then execve */
	fflush(stdout);
	st = 0;
	errno = posix_spawn(&pid, P("prog"), 0, 0, av, environ);
	if (!errno && waitpid(pid, &st, 0) != pid)
		st = -1;	/* the child's output first, then this */
	printf("posix_spawn: %s exit %d\n", errno ? strerrorname_np(errno) : "ok",
	       WEXITSTATUS(st));
	errno = posix_spawn(&pid, P("text"), 0, 0, av, environ);
	printf("posix_spawn text: %s\n", errno ? strerrorname_np(errno) : "ok");
	return 0;
}
