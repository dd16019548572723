/* SPDX-License-Identifier: MIT */
/* The rest of the public API: raw calls and table lookups. */
#include "sg.h"

const char *sysgate_version(void)
{
#define STR2(x) #x
#define STR(x) STR2(x)
	return STR(SYSGATE_VERSION_MAJOR) "." STR(SYSGATE_VERSION_MINOR) ".0";
}

long sysgate_syscall(long nr, long a0, long a1, long a2, long a3, long a4,
		     long a5)
{
	return sg_sc6(nr, a0, a1, a2, a3, a4, a5);
}

struct sysgate_result sysgate_syscall2(long nr, long a0, long a1, long a2,
				       long a3, long a4, long a5)
{
	struct sysgate_result r;

	sg_sc6_2(nr, a0, a1, a2, a3, a4, a5, &r.ret, &r.ret2);
	return r;
}

static const struct sg_syscall *entry(long nr)
{
	/* (a 32-bit call with no 64-bit one of its name, seen by -m ptrace) */
	if (nr >= SG_COMPAT_BASE && nr < SG_COMPAT_BASE + SG_NCOMPAT &&
	    sg_compat_table[nr - SG_COMPAT_BASE].name)
		return &sg_compat_table[nr - SG_COMPAT_BASE];
	if (nr < 0 || nr >= SG_NSYSCALLS || !sg_syscall_table[nr].name)
		return 0;
	return &sg_syscall_table[nr];
}

__attribute__((hot))
const char *sysgate_syscall_name(long nr)
{
	const struct sg_syscall *e = entry(nr);

	return e ? sg_str(e->name) : 0;
}

long sysgate_syscall_number(const char *name)
{
	return sg_syscall_lookup(name);
}

__attribute__((hot))
int sysgate_syscall_nargs(long nr)
{
	const struct sg_syscall *e = entry(nr);

	return e ? e->nargs : -1;
}

__attribute__((hot))
const char *sysgate_syscall_args(long nr)
{
	const struct sg_syscall *e = entry(nr);

	return e ? e->args : 0;
}

unsigned int sysgate_syscall_classes(long nr)
{
	const struct sg_syscall *e = entry(nr);

	return e ? e->classes : 0;
}

__attribute__((hot))
const void *sysgate_return_pc(const struct sysgate_sys *s)
{
	/* (every mechanism's pc is the instruction; the ISA gives its size) */
	return s->pc ? (const char *)s->pc + SG_SYSCALL_INSN_LEN : 0;
}

const char *sysgate_errno_name(int err)
{
	return err > 0 && err < SG_NERRNO ? sg_str(sg_errno_name[err]) : 0;
}

const char *sysgate_strerror(int err)
{
	return err > 0 && err < SG_NERRNO ? sg_str(sg_errno_msg[err]) : 0;
}

int sysgate_process_followed(void)
{
	struct sg_thread *t = sg_self();

	return t ? !t->hooks_off : 1;
}

int sysgate_report_here(void)
{
	return sg.is_root && !sg.cli;
}

const char *sysgate_signal_name(int sig)
{
	return sg_signal_name(sig);
}
