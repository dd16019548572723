/* SPDX-License-Identifier: MIT */
/* -V, --list-syscalls, --list-mechanisms */
#include <stdio.h>
#include <sys/utsname.h>
#include "sg.h"
#include "registry.h"
#include "cli.h"
#include "options.h"

static void class_names(unsigned int c, char *buf, size_t n)
{
	static const char *const names[] = {
		"file", "process", "network", "signal", "ipc", "desc",
		"memory", "creds", "stat", "clock", "pure",
	};
	size_t len = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (c & (1u << i))
			len += snprintf(buf + len, len < n ? n - len : 0, "%s%s",
					len ? "|" : "", names[i]);
}

int sg_cli_list_syscalls(void)
{
	long nr;
	char cls[128];

	printf("%-6s %-24s %-5s %-7s %s\n", "nr", "name", "nargs", "args",
	       "classes");
	for (nr = 0; nr < SG_NSYSCALLS; nr++) {
		const struct sg_syscall *e = &sg_syscall_table[nr];

		if (!e->name)
			continue;
		class_names(e->classes, cls, sizeof(cls));
		printf("%-6ld %-24s %-5d %-7s %s\n", nr, sg_str(e->name), e->nargs,
		       e->args, cls);
	}
	return 0;
}

int sg_cli_list_mechanisms(const struct sg_options *o)
{
	static const struct sg_options defaults;
	int i;

	for (i = 0; sg_mechanisms[i]; i++) {
		const char *why;
		int ok = sg_mech_check(sg_mechanisms[i], o ? o : &defaults,
				       &why) == 0;

		printf("%-10s %-9s %s%s%s\n", sg_mechanisms[i]->name,
		       ok ? "available" : "no", sg_mechanisms[i]->summary,
		       why ? ": " : "", why ? why : "");
	}
	return 0;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int sg_cli_version(void)
{
	struct utsname u;

	uname(&u);
	printf("sysgate %s (hook ABI %d) for %s\n", sysgate_version(),
	       SYSGATE_HOOK_ABI, SG_ARCH_NAME);
	printf("kernel: %s %s\n", u.sysname, u.release);
	printf("vm.mmap_min_addr: %ld\n", read_long("/proc/sys/vm/mmap_min_addr"));
	printf("mechanisms:\n");
	return sg_cli_list_mechanisms(0);
}
