/* SPDX-License-Identifier: MIT */
/*
 * The program cannot tell sysgate is there from what execve gave it: its
 * environ, /proc/self/environ, argv and /proc/self/cmdline, the auxiliary
 * vector (AT_EXECFN, AT_SECURE, AT_PHDR, AT_ENTRY, AT_BASE) and
 * /proc/self/auxv, and what a child it starts finds in its own.  Printed
 * here and again by a child (this program run again), so the native and
 * hooked runs must print the same.  "_" is left out: the shell that
 * starts the test sets it to the command it runs (sysgate or not).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

extern char **environ;
extern char _start[];

/* A file of NUL-separated strings, one per line ("_=" left out). */
static void print_strings(const char *what, const char *path)
{
	static char buf[1 << 17];
	char line[4200];
	ssize_t n = 0, r;
	int fd = open(path, O_RDONLY);
	char *p;

	test_assert(fd >= 0);
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	for (p = buf; p < buf + n; p += strlen(p) + 1) {
		if (!strncmp(p, "_=", 2))
			continue;
		snprintf(line, sizeof(line), "%s %.4000s", what, p);
		atomic_puts(line);
	}
}

static unsigned long ld_base;

static int find_base(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (info->dlpi_addr == getauxval(AT_BASE))
		ld_base = info->dlpi_addr;
	return 0;
}

static int first_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(const void **)arg = info->dlpi_phdr;
	return 1;
}

static void report(const char *who, char **argv)
{
	static const unsigned long types[] = {
		AT_PHDR, AT_PHENT, AT_PHNUM, AT_ENTRY, AT_BASE, AT_SECURE,
		AT_EXECFN, AT_UID, AT_PAGESZ, AT_RANDOM, AT_SYSINFO_EHDR,
	};
	unsigned long aux[128];
	const void *phdr = 0;
	char line[4200];
	char **e;
	int fd, i, j, n;

	snprintf(line, sizeof(line), "== %s", who);
	atomic_puts(line);
	for (e = environ; *e; e++) {
		if (strncmp(*e, "_=", 2)) {
			snprintf(line, sizeof(line), "environ %.4000s", *e);
			atomic_puts(line);
		}
	}
	print_strings("/proc/self/environ", "/proc/self/environ");
	for (e = argv; *e; e++) {
		snprintf(line, sizeof(line), "argv %.4000s", *e);
		atomic_puts(line);
	}
	print_strings("/proc/self/cmdline", "/proc/self/cmdline");

	{
		char comm[17] = "";

		prctl(PR_GET_NAME, comm, 0, 0, 0);
		snprintf(line, sizeof(line), "comm %s", comm);
		atomic_puts(line);
	}
	print_strings("/proc/self/comm", "/proc/self/comm");
	snprintf(line, sizeof(line), "AT_EXECFN %.4000s AT_SECURE %lu",
		 (const char *)getauxval(AT_EXECFN), getauxval(AT_SECURE));
	atomic_puts(line);
	dl_iterate_phdr(first_phdr, &phdr);
	snprintf(line, sizeof(line), "AT_PHDR is the program's: %d",
		 getauxval(AT_PHDR) == (unsigned long)phdr);
	atomic_puts(line);
	snprintf(line, sizeof(line), "AT_ENTRY is _start: %d",
		 getauxval(AT_ENTRY) == (unsigned long)_start);
	atomic_puts(line);
	dl_iterate_phdr(find_base, 0);
	snprintf(line, sizeof(line), "AT_BASE: %s",
		 !getauxval(AT_BASE) ? "0" :
		 ld_base ? "a loaded object's base" : "nothing loaded there");
	atomic_puts(line);

	/* /proc/self/auxv says what the stack's vector says */
	fd = open("/proc/self/auxv", O_RDONLY);
	test_assert(fd >= 0);
	n = read(fd, aux, sizeof(aux)) / (int)sizeof(aux[0]);
	close(fd);
	for (i = 0; i < (int)(sizeof(types) / sizeof(types[0])); i++) {
		for (j = 0; j + 1 < n && aux[j] != types[i]; j += 2)
			;
		snprintf(line, sizeof(line), "/proc/self/auxv %lu: %s",
			 types[i], j + 1 >= n ? "absent" :
			 aux[j + 1] == getauxval(types[i]) ? "same" : "differs");
		atomic_puts(line);
	}
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		report("child", argv);
		return 0;
	}
	report("parent", argv);
	fflush(stdout);
	setenv("ADDED_BY_PARENT", "1", 1);
	/* a variable of the program's own that merely looks like sysgate's */
	setenv("SYSGATE_MINE", "kept", 1);
	pid = fork();
	test_assert(pid >= 0);
	if (pid == 0) {
		char *args[] = { argv[0], "child", 0 };

		execv("/proc/self/exe", args);
		_exit(127);
	}
	test_assert(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
