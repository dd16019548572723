/* SPDX-License-Identifier: MIT */
/*
 * Unit test of the generated tables ($(BUILD)/gen/syscalls.[ch]) for the
 * arch it is built for; run under qemu-user when cross-testing.
 *
 * usage: table-test TOPDIR [--native]
 *
 * Reads the CSV sources itself and checks the generated C against every
 * row: name -> number -> name for every system call of this arch, -1 for
 * the others, shapes, classes and gpu values, errno and signal lookups.
 * --native also compares the errno messages with this libc's strerror()
 * (the wording strace prints).  Prints each failure; exit 1 if any.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysgate.h"
#include "syscalls.h"

static int failures;

#define check(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("FAIL %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			failures++;					\
		}							\
	} while (0)

/* Split a CSV line in place; the last field takes the rest of the line
 * (errno messages).  Returns the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	f[n++] = line;
	while (n < max && (line = strchr(line, ','))) {
		*line++ = 0;
		f[n++] = line;
	}
	return n;
}

static FILE *open_csv(const char *top, const char *name)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/syscalls/%s", top, name);
	fp = fopen(path, "r");
	if (!fp) {
		perror(path);
		exit(1);
	}
	return fp;
}

/* Next line that is not a comment: the header first, then the rows. */
static int next_row(FILE *fp, char *buf, size_t len)
{
	while (fgets(buf, len, fp))
		if (buf[0] != '#' && buf[0] != '\n')
			return 1;
	return 0;
}

static unsigned int class_bits(const char *s)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} classes[] = {
		{ "file", SYSGATE_CLASS_FILE },
		{ "process", SYSGATE_CLASS_PROCESS },
		{ "network", SYSGATE_CLASS_NETWORK },
		{ "signal", SYSGATE_CLASS_SIGNAL },
		{ "ipc", SYSGATE_CLASS_IPC },
		{ "desc", SYSGATE_CLASS_DESC },
		{ "memory", SYSGATE_CLASS_MEMORY },
		{ "creds", SYSGATE_CLASS_CREDS },
		{ "stat", SYSGATE_CLASS_STAT },
		{ "clock", SYSGATE_CLASS_CLOCK },
		{ "pure", SYSGATE_CLASS_PURE },
	};
	unsigned int bits = 0;
	char buf[256], *tok, *save;
	size_t i;

	if (strcmp(s, "-") == 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save)) {
		for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
			if (strcmp(tok, classes[i].name) == 0)
				break;
		check(i < sizeof(classes) / sizeof(classes[0]),
		      "unknown class %s", tok);
		if (i < sizeof(classes) / sizeof(classes[0]))
			bits |= classes[i].bit;
	}
	return bits;
}

static int gpu_value(const char *s)
{
	if (strcmp(s, "yes") == 0)
		return SG_GPU_YES;
	if (strcmp(s, "limited") == 0)
		return SG_GPU_LIMITED;
	if (strcmp(s, "no") == 0)
		return SG_GPU_NO;
	return SG_GPU_UNLISTED;
}

static void test_syscalls(const char *top)
{
	static char seen[SG_NSYSCALLS];
	char line[1024], *f[16], *hdr[16];
	int nf, nh, i, col = -1, c_nargs = -1, c_args = -1, c_cls = -1;
	int c_gpu = -1, count = 0, rows = 0;
	FILE *fp = open_csv(top, "syscalls.csv");

	check(next_row(fp, line, sizeof(line)), "no header");
	nh = split(line, hdr, 16);
	for (i = 0; i < nh; i++) {
		if (strcmp(hdr[i], SG_ARCH_NAME) == 0)
			col = i;
		else if (strcmp(hdr[i], "nargs") == 0)
			c_nargs = i;
		else if (strcmp(hdr[i], "args") == 0)
			c_args = i;
		else if (strcmp(hdr[i], "classes") == 0)
			c_cls = i;
		else if (strcmp(hdr[i], "gpu") == 0)
			c_gpu = i;
	}
	check(col > 0 && c_nargs > 0 && c_args > 0 && c_cls > 0 && c_gpu > 0,
	      "syscalls.csv header lacks a column");
	if (failures)
		exit(1);

	while (next_row(fp, line, sizeof(line))) {
		const char *name;
		long nr;

		nf = split(line, f, 16);
		check(nf == nh, "%s: %d fields", f[0], nf);
		if (nf != nh)
			continue;
		rows++;
		name = f[0];
		if (strcmp(f[col], "-") == 0) {
			check(sg_syscall_lookup(name) == -1,
			      "%s is not on %s but lookup gives %ld", name,
			      SG_ARCH_NAME, sg_syscall_lookup(name));
			continue;
		}
		nr = atol(f[col]);
		count++;
		check(nr >= 0 && nr < SG_NSYSCALLS, "%s: number %ld", name, nr);
		if (nr < 0 || nr >= SG_NSYSCALLS)
			continue;
		seen[nr] = 1;
		check(sg_syscall_lookup(name) == nr,
		      "lookup(%s) = %ld, not %ld", name,
		      sg_syscall_lookup(name), nr);
		check(sg_syscall_table[nr].name &&
		      strcmp(sg_str(sg_syscall_table[nr].name), name) == 0,
		      "table[%ld] is %s, not %s", nr,
		      sg_str(sg_syscall_table[nr].name), name);
		check(sg_syscall_table[nr].nargs == atoi(f[c_nargs]),
		      "%s: nargs %d", name, sg_syscall_table[nr].nargs);
		check(strcmp(sg_syscall_table[nr].args, f[c_args]) == 0 &&
		      strlen(sg_syscall_table[nr].args) ==
		      (size_t)sg_syscall_table[nr].nargs,
		      "%s: args '%s'", name, sg_syscall_table[nr].args);
		check(sg_syscall_table[nr].classes == class_bits(f[c_cls]),
		      "%s: classes %#x, csv %s", name,
		      sg_syscall_table[nr].classes, f[c_cls]);
		check(sg_syscall_table[nr].gpu == gpu_value(f[c_gpu]),
		      "%s: gpu %d, csv %s", name, sg_syscall_table[nr].gpu,
		      f[c_gpu]);
	}
	fclose(fp);

	/* Holes: everything the CSV did not name. */
	for (i = 0; i < SG_NSYSCALLS; i++) {
		const struct sg_syscall *e = &sg_syscall_table[i];

		if (seen[i])
			continue;
		check(!e->name && e->nargs == -1 && !e->args[0] && !e->classes,
		      "hole %d is not empty (%s)", i, sg_str(e->name));
	}
	check(seen[SG_NSYSCALLS - 1], "SG_NSYSCALLS is not max + 1");
	printf("%s: %d of %d system calls, table size %d\n", SG_ARCH_NAME,
	       count, rows, SG_NSYSCALLS);

	/* Names that are not system calls, including near misses on both
	 * sides of real names, so the binary search's edges get exercised. */
	{
		static const char *const unknown[] = {
			"", "a", "_", "read_", "rea", "readx", "Read", "zzz",
			"_sysctm", "accep", "writev2", "\xff", "open ",
		};

		for (i = 0; i < (int)(sizeof(unknown) / sizeof(unknown[0]));
		     i++)
			check(sg_syscall_lookup(unknown[i]) == -1,
			      "lookup('%s') = %ld", unknown[i],
			      sg_syscall_lookup(unknown[i]));
		check(sg_syscall_lookup(NULL) == -1, "lookup(NULL)");
	}

	/* SG_NR_* macros agree with the lookup, exist on every arch, and are
	 * distinct (a duplicate would not compile as case labels). */
	check(SG_NR_read == sg_syscall_lookup("read"), "SG_NR_read");
	check(SG_NR_openat == sg_syscall_lookup("openat"), "SG_NR_openat");
	check(SG_NR_exit_group == sg_syscall_lookup("exit_group"),
	      "SG_NR_exit_group");
	check(SG_NR_open == sg_syscall_lookup("open") ||
	      (SG_NR_open <= -1000 && sg_syscall_lookup("open") == -1),
	      "SG_NR_open = %ld", (long)SG_NR_open);
	check(SG_NR_riscv_flush_icache ==
	      sg_syscall_lookup("riscv_flush_icache") ||
	      SG_NR_riscv_flush_icache <= -1000, "SG_NR_riscv_flush_icache");
	switch (sg_syscall_lookup("fork")) {
	case SG_NR_fork:
	case SG_NR_vfork:
	case SG_NR_clone:
	case SG_NR_clone3:
	case SG_NR_open:
	case SG_NR_arch_prctl:
	case SG_NR_riscv_flush_icache:
	case SG_NR_renameat:
		break;
	default:
		check(sg_syscall_lookup("fork") == -1, "fork");
	}

	/* A few shapes generic code relies on. */
	check(strcmp(sg_syscall_table[SG_NR_read].args, "fBu") == 0,
	      "read args");
	check(strcmp(sg_syscall_table[SG_NR_write].args, "fbu") == 0,
	      "write args");
	check(sg_syscall_table[SG_NR_openat].classes ==
	      (SYSGATE_CLASS_FILE | SYSGATE_CLASS_DESC), "openat classes");
	check(sg_syscall_table[SG_NR_getppid].classes == SYSGATE_CLASS_PURE,
	      "getppid classes");
	check(sg_syscall_table[SG_NR_mmap].classes & SYSGATE_CLASS_MEMORY,
	      "mmap classes");
	check(sg_syscall_table[SG_NR_socket].classes == SYSGATE_CLASS_NETWORK,
	      "socket classes");
	check(sg_syscall_table[SG_NR_clone].classes == SYSGATE_CLASS_PROCESS,
	      "clone classes");
	check(sg_syscall_table[SG_NR_pread64].gpu == SG_GPU_YES, "pread64 gpu");
	check(sg_syscall_table[SG_NR_set_robust_list].gpu == SG_GPU_NO,
	      "set_robust_list gpu");
}

static void test_errno(const char *top, int native)
{
	char line[1024], *f[3];
	int n, rows = 0, named = 0;
	FILE *fp = open_csv(top, "errno.csv");
	static char first[SG_NERRNO];

	check(next_row(fp, line, sizeof(line)) &&
	      strcmp(line, "name,number,message\n") == 0, "errno.csv header");
	while (next_row(fp, line, sizeof(line))) {
		if (split(line, f, 3) != 3) {
			check(0, "errno row %s", f[0]);
			continue;
		}
		n = atoi(f[1]);
		rows++;
		check(n > 0 && n < SG_NERRNO, "%s: %d", f[0], n);
		if (n <= 0 || n >= SG_NERRNO)
			continue;
		check(sg_errno_lookup(f[0]) == n, "errno_lookup(%s) = %d",
		      f[0], sg_errno_lookup(f[0]));
		if (!first[n]) {
			/* The first row of a number is its printed name. */
			first[n] = 1;
			named++;
			check(sg_errno_name[n] &&
			      strcmp(sg_str(sg_errno_name[n]), f[0]) == 0,
			      "errno_name[%d] = %s, not %s", n,
			      sg_str(sg_errno_name[n]), f[0]);
			check(sg_errno_msg[n] &&
			      strcmp(sg_str(sg_errno_msg[n]), f[2]) == 0,
			      "errno_msg[%d] = %s", n, sg_str(sg_errno_msg[n]));
		}
		/* strace has its own words for these four; the rest are
		 * strerror()'s, "Unknown error N" included. */
		if (native && n != 512 && n != 513 && n != 514 && n != 516)
			check(strcmp(f[2], strerror(n)) == 0,
			      "%s: '%s' but strerror says '%s'", f[0], f[2],
			      strerror(n));
	}
	fclose(fp);
	for (n = 0; n < SG_NERRNO; n++)
		check(first[n] || (!sg_errno_name[n] && !sg_errno_msg[n]),
		      "errno %d named but not in the csv", n);
	printf("errno: %d names for %d numbers, SG_NERRNO %d\n", rows, named,
	       SG_NERRNO);

	check(sg_errno_lookup("ENOENT") == 2, "ENOENT");
	check(sg_errno_lookup("EWOULDBLOCK") == 11, "EWOULDBLOCK");
	check(sg_errno_lookup("ENOTSUP") == 95, "ENOTSUP");
	check(strcmp(sg_str(sg_errno_name[11]), "EAGAIN") == 0, "EAGAIN name");
	check(strcmp(sg_str(sg_errno_name[35]), "EDEADLK") == 0, "EDEADLK name");
	check(strcmp(sg_str(sg_errno_name[95]), "EOPNOTSUPP") == 0, "EOPNOTSUPP name");
	check(strcmp(sg_str(sg_errno_msg[2]), "No such file or directory") == 0,
	      "ENOENT message");
	check(sg_errno_lookup("ERESTARTSYS") == 512 &&
	      sg_errno_lookup("ERESTARTNOINTR") == 513 &&
	      sg_errno_lookup("ERESTARTNOHAND") == 514 &&
	      sg_errno_lookup("ENOIOCTLCMD") == 515 &&
	      sg_errno_lookup("ERESTART_RESTARTBLOCK") == 516,
	      "kernel-internal errnos");
	check(sg_errno_lookup("EFOO") == -1 && sg_errno_lookup("") == -1 &&
	      sg_errno_lookup("enoent") == -1 && sg_errno_lookup(NULL) == -1,
	      "unknown errno names");
	check(!sg_errno_name[0] && !sg_errno_name[41] && !sg_errno_name[520],
	      "errno holes");
	/* The numbers this libc was built with. */
	check(sg_errno_lookup("EAGAIN") == EAGAIN &&
	      sg_errno_lookup("EHWPOISON") == EHWPOISON &&
	      sg_errno_lookup("EDEADLOCK") == EDEADLOCK,
	      "errno numbers differ from <errno.h>");
}

static void test_signals(const char *top)
{
	char line[256], *f[2], lower[64];
	int n, i, rows = 0;
	FILE *fp = open_csv(top, "signals.csv");
	static char first[SG_NSIG];

	check(next_row(fp, line, sizeof(line)) &&
	      strcmp(line, "name,number\n") == 0, "signals.csv header");
	while (next_row(fp, line, sizeof(line))) {
		if (split(line, f, 2) != 2) {
			check(0, "signal row %s", f[0]);
			continue;
		}
		n = atoi(f[1]);
		rows++;
		check(n > 0 && n < SG_NSIG, "%s: %d", f[0], n);
		if (n <= 0 || n >= SG_NSIG)
			continue;
		check(sg_signal_lookup(f[0]) == n, "signal_lookup(%s)", f[0]);
		check(sg_signal_lookup(f[0] + 3) == n, "signal_lookup(%s)",
		      f[0] + 3);
		for (i = 0; f[0][i] && i < 63; i++)
			lower[i] = f[0][i] >= 'A' && f[0][i] <= 'Z' ?
				   f[0][i] - 'A' + 'a' : f[0][i];
		lower[i] = 0;
		check(sg_signal_lookup(lower) == n, "signal_lookup(%s)", lower);
		snprintf(lower, sizeof(lower), "%d", n);
		check(sg_signal_lookup(lower) == n, "signal_lookup(%s)", lower);
		if (!first[n]) {
			first[n] = 1;
			check(sg_signal_name(n) &&
			      strcmp(sg_signal_name(n), f[0]) == 0,
			      "signal_name(%d) = %s", n, sg_signal_name(n));
		}
	}
	fclose(fp);
	for (n = 1; n < SG_NSIG; n++)
		check(first[n], "signal %d has no name", n);
	printf("signals: %d names, SG_NSIG %d\n", rows, SG_NSIG);

	check(SG_NSIG == 65, "SG_NSIG %d", SG_NSIG);
	check(strcmp(sg_signal_name(SIGSEGV), "SIGSEGV") == 0, "SIGSEGV");
	check(strcmp(sg_signal_name(SIGUSR1), "SIGUSR1") == 0, "SIGUSR1");
	check(strcmp(sg_signal_name(SIGIO), "SIGIO") == 0, "SIGIO");
	check(strcmp(sg_signal_name(SIGABRT), "SIGABRT") == 0, "SIGABRT");
	check(strcmp(sg_signal_name(32), "SIGRTMIN") == 0, "32");
	check(strcmp(sg_signal_name(33), "SIGRT_1") == 0, "33");
	check(strcmp(sg_signal_name(SIGRTMAX), "SIGRT_32") == 0, "SIGRTMAX");
	check(!sg_signal_name(0) && !sg_signal_name(-1) &&
	      !sg_signal_name(SG_NSIG), "signal name out of range");
	check(sg_signal_lookup("SIGUSR1") == SIGUSR1 &&
	      sg_signal_lookup("USR1") == SIGUSR1 &&
	      sg_signal_lookup("10") == 10 &&
	      sg_signal_lookup("SIGIOT") == SIGABRT &&
	      sg_signal_lookup("SIGRTMAX") == SIGRTMAX,
	      "signal lookups");
	check(sg_signal_lookup("SIGFOO") == -1 && sg_signal_lookup("0") == -1 &&
	      sg_signal_lookup("65") == -1 && sg_signal_lookup("10x") == -1 &&
	      sg_signal_lookup("") == -1 && sg_signal_lookup("SIG") == -1 &&
	      sg_signal_lookup("99999999999") == -1 &&
	      sg_signal_lookup("-1") == -1 && sg_signal_lookup(NULL) == -1,
	      "unknown signals");
}

int main(int argc, char **argv)
{
	int native = argc > 2 && strcmp(argv[2], "--native") == 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TOPDIR [--native]\n", argv[0]);
		return 2;
	}
	test_syscalls(argv[1]);
	test_errno(argv[1], native);
	test_signals(argv[1]);
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("all table checks passed\n");
	return 0;
}
