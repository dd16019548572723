/* SPDX-License-Identifier: MIT */
/*
 * sysgate -p PID: what the CLI (tools/sysgate/attach.c) and the runtime
 * it maps into the running process (core/attach.c) tell each other.  The
 * CLI writes this block into memory it mapped in the process, makes one
 * stopped thread call the image's entry with its address, and reads the
 * answer back when the call returns.
 */
#ifndef SG_ATTACH_H
#define SG_ATTACH_H

#define SG_ATTACH_MAGIC 0x5347617474616368UL	/* "SGattach" */
#define SG_ATTACH_BUSY_MAX 4096
#define SG_ATTACH_HOOKS_MAX 4
#define SG_ATTACH_IFUNC_MAX 64

enum {
	SG_ATTACH_START = 1,	/* start hooking: options in, fds out */
	SG_ATTACH_DETACH = 2,	/* put the code back, stop hooking */
};

/*
 * A --hook library the CLI mapped and linked into the process (its
 * imports bound to the image's sysgate_* functions and to the libraries
 * the process has loaded).  What is left needs code run in the process:
 * the GNU indirect functions it imports, its constructors, then the hook
 * (START); its destructors (DETACH).
 */
struct sg_attach_hook {
	unsigned long table;		/* &sysgate_hook_v1 */
	unsigned long init, init_array, init_count;
	unsigned long fini, fini_array, fini_count;
	int nifunc;
	struct {
		unsigned long slot, resolver;
		long addend;
	} ifunc[SG_ATTACH_IFUNC_MAX];
	char name[256];			/* its file, for messages */
	char args[1024];		/* after ':' in --hook=PATH:ARGS */
};

struct sg_attach_args {
	unsigned long magic;
	int op;
	/* in, SG_ATTACH_START */
	unsigned long vdso;		/* the process's AT_SYSINFO_EHDR */
	unsigned long hwcap2;		/* its AT_HWCAP2 */
	long tz_offset;			/* the CLI's UTC offset (-t) */
	unsigned long tls_init, tls_filesz, tls_memsz, tls_align;
	/* Addresses no rewritten range may have strictly inside: each
	 * stopped thread's pc, the syscall instruction of a thread stopped
	 * in a call, and code addresses found on the threads' stacks. */
	int nbusy;
	unsigned long busy[SG_ATTACH_BUSY_MAX];
	char options[8192];		/* SG_OPT_BUF */
	int nhooks;
	struct sg_attach_hook hooks[SG_ATTACH_HOOKS_MAX];
	/* in, SG_ATTACH_DETACH: no thread is inside the runtime, so its
	 * descriptors and shared mapping can go */
	int quiet;
	/* out */
	long result;		/* 0, or -errno with error set */
	int out_read_fd;	/* read end of the output pipe (START) */
	int state_fd;		/* the -c state memfd, -1 if none */
	unsigned long restored;	/* DETACH: patched places put back */
	unsigned long changed;	/* DETACH: changed since: left alone */
	unsigned long first_changed;	/* the first of those (--stats) */
	int sud_used;		/* SUD was armed: threads to disarm */
	char error[256];
};

/* Serve one request, with the mechanisms and built-in hooks the image
 * was composed of (tools/attach/image.c). */
struct sg_registry;
long sg_attach_main(struct sg_attach_args *a, const struct sg_registry *reg);

#endif
