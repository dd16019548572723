/* SPDX-License-Identifier: MIT */
/*
 * sysgate-loader PATH ARGV0 [ARGS...]: start the program at PATH, with
 * argv ARGV0 ARGS..., and sysgate owning the process from the program's
 * first instruction.
 *
 * LD_PRELOAD cannot reach a static binary, nor the calls the dynamic
 * loader makes before it loads libsysgate.so.  So this small static-PIE
 * program maps PROG (and its interpreter, if it has one) the way the
 * kernel would, starts sysgate's runtime (linked in), which patches PROG
 * and ld.so before either runs, and jumps to the entry point with the
 * stack the kernel gave us, minus our own first two arguments and with
 * the auxiliary vector describing PROG.  Libraries ld.so maps later are patched as they
 * become executable (mmap/mprotect with PROT_EXEC).
 *
 * PATH may be a script ("#!INTERP [ARG]"): the loader then starts INTERP
 * as the kernel would (execve goes through the loader under -m seccomp).
 *
 * The loader has no libc: a libc's start costs more than the rest of
 * the loader's work (glibc's static start makes about seventy CPUIDs,
 * each trapped by a hypervisor, doc/benchmarks.md), and every process of
 * a followed tree starts here.  The installed loader starts in its stub
 * (stub.c), which maps the rest of it, the loader as linked in
 * arch/<isa>/loader_start.S; both come to sg_loader_main.  It makes raw
 * system calls and uses the runtime's own helpers, and start.c gives
 * sg_init what a libc would (core/start.h).
 * Errors: one line on stderr, exit status 127.
 */
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <linux/prctl.h>
#include "sg.h"
#include "registry.h"
#include "env.h"
#include "maps.h"
#include "loader.h"
#include "loader_arch.h"
#include "process.h"
#include "options.h"
#include "start.h"

#define ELOOP_ 40	/* (no errno.h: no libc) */

#define PAGE 4096UL
#define DOWN(x) ((x) & ~(PAGE - 1))
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))
#define PATH_MAX_ 4096
#define AT_FDCWD_ (-100)

static long sys_open(const char *path, int flags)
{
	return sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, flags | O_CLOEXEC,
		      0);
}

static long sys_pread(long fd, void *buf, unsigned long n, unsigned long off)
{
	return sg_sc4(SG_NR_pread64, fd, (long)buf, n, off);
}

static long sys_mmap(unsigned long a, unsigned long len, int prot, int flags,
		     long fd, unsigned long off)
{
	return sg_sc6(SG_NR_mmap, a, len, prot, flags, fd, off);
}

struct image {
	unsigned long base;	/* load bias */
	unsigned long entry;
	unsigned long phdr;	/* address of the program headers */
	unsigned int phnum;
	char interp[4096];
};

void sg_loader_fail(const char *what, const char *why)
{
	char line[PATH_MAX_ + 512];
	size_t n;

	sg_strjoin(line, sizeof(line) - 1, "sysgate: ", what, ": ");
	n = sg_strlen(line);
	n += sg_strlcpy(line + n, why, sizeof(line) - 1 - n);
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	sg_write_all(2, line, n);
	for (;;)
		sg_sc1(SG_NR_exit_group, 127);
}
#define fail sg_loader_fail	/* (the many refusals below) */

/* A failed call's reason (r is -errno). */
static const char *why(long r)
{
	const char *m = sysgate_strerror((int)-r);

	return m ? m : "error";
}

static int prot_of(unsigned int flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

static char **self_argv, **self_envp;
#define AGAIN "sysgate-loader, again: "

/*
 * A program at fixed addresses that overlap memory we already use (the
 * kernel draws where our stack, the vDSO and the memory sysgate maps go):
 * mapping it would wipe them.  Another start of the loader draws other
 * places.  The tries are counted in our argv[0], which the program never
 * sees.
 */
static void start_again(const char *path)
{
	static char name[64];
	char num[24];
	int tries = 0;

	if (!sg_strncmp(self_argv[0], AGAIN, sizeof(AGAIN) - 1))
		tries = self_argv[0][sizeof(AGAIN) - 1] - '0';
	if (tries >= 8)
		fail(path, "its fixed addresses overlap sysgate-loader's");
	sg_strjoin(name, sizeof(name), AGAIN, sg_utoa(num + sizeof(num),
						      tries + 1), "");
	self_argv[0] = name;
	fail(path, why(sg_sc3(SG_NR_execve, (long)"/proc/self/exe",
			      (long)self_argv, (long)self_envp)));
}

/*
 * Program headers are input like any other: refused with one line before
 * anything is mapped.  An interpreter path execve refuses (ENOEXEC); and
 * segments execve maps anyway, to a program that then faults (more file
 * bytes than memory, an address and file offset that disagree within a
 * page, sizes that wrap around), which the loader would otherwise map
 * over its own memory or read past the file with.
 */
static void check_phdrs(const char *path, const Elf64_Phdr *ph, int n)
{
	int i, interps = 0;

	for (i = 0; i < n; i++) {
		if (ph[i].p_type == PT_INTERP) {
			if (ph[i].p_filesz < 2 || ph[i].p_filesz > 4096 ||
			    ++interps > 1)
				fail(path, "bad interpreter path in the ELF "
					   "header");
		} else if (ph[i].p_type == PT_LOAD) {
			if (ph[i].p_filesz > ph[i].p_memsz)
				fail(path, "bad ELF segment: more file bytes "
					   "than memory");
			if ((ph[i].p_vaddr - ph[i].p_offset) & (PAGE - 1))
				fail(path, "bad ELF segment: address and file "
					   "offset differ within a page");
			if (ph[i].p_vaddr + ph[i].p_memsz < ph[i].p_vaddr ||
			    ph[i].p_offset + ph[i].p_filesz < ph[i].p_offset)
				fail(path, "bad ELF segment: it wraps around");
		}
	}
}

/* Map an ELF file as the kernel's binfmt_elf does: each segment with
 * its own protection from the start, never writable and executable at
 * once (PR_SET_MDWE, and no window for anything to write code). */
static void map_elf(const char *path, struct image *im)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	unsigned long lo = ~0UL, hi = 0, base = 0;
	long fd = sys_open(path, O_RDONLY);
	int i;

	if (fd < 0)
		fail(path, why(fd));
	if (sys_pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != SG_LOADER_MACHINE)
		fail(path, "not an ELF executable for this machine");
	if ((eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64 ||
	    sys_pread(fd, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
		    (long)(eh.e_phnum * sizeof(*ph)))
		fail(path, "unsupported ELF file");
	im->interp[0] = 0;
	check_phdrs(path, ph, eh.e_phnum);
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD) {
			if (ph[i].p_vaddr < lo)
				lo = ph[i].p_vaddr;
			if (ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = ph[i].p_vaddr + ph[i].p_memsz;
		} else if (ph[i].p_type == PT_INTERP) {
			if (ph[i].p_filesz >= sizeof(im->interp) ||
			    sys_pread(fd, im->interp, ph[i].p_filesz,
				      ph[i].p_offset) != (long)ph[i].p_filesz)
				fail(path, "bad interpreter path");
			im->interp[ph[i].p_filesz] = 0;
		}
	}
	if (lo >= hi)
		fail(path, "nothing to load");
	lo = DOWN(lo);
	if (eh.e_type == ET_DYN) {
		/* Position-independent: reserve the whole span, then map
		 * each segment at its place inside. */
		long r = sys_mmap(0, UP(hi) - lo, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (sysgate_is_error(r))
			fail(path, why(r));
		base = (unsigned long)r - lo;
	} else {
		long r = sys_mmap(lo, UP(hi) - lo, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS |
				  MAP_FIXED_NOREPLACE, -1, 0);

		if (r == -17 /* EEXIST */)
			start_again(path);
		/* (a kernel before 4.17 takes it as a hint) */
		if (!sysgate_is_error(r) && r != (long)lo)
			sg_munmap((void *)r, UP(hi) - lo);
	}
	im->phdr = 0;
	for (i = 0; i < eh.e_phnum; i++) {
		unsigned long start, fend, mend, off;
		int prot;
		long r;

		if (ph[i].p_type != PT_LOAD)
			continue;
		start = base + DOWN(ph[i].p_vaddr);
		fend = base + ph[i].p_vaddr + ph[i].p_filesz;
		mend = base + ph[i].p_vaddr + ph[i].p_memsz;
		off = DOWN(ph[i].p_offset);
		prot = prot_of(ph[i].p_flags);
		if (ph[i].p_filesz &&
		    sysgate_is_error(r = sys_mmap(start, UP(fend) - start, prot,
						  MAP_PRIVATE | MAP_FIXED, fd,
						  off)))
			fail(path, why(r));
		/* Past the file's bytes the page reads as zero, as the kernel
		 * leaves it: ld.so's early malloc hands out that space. */
		if ((ph[i].p_flags & PF_W) && ph[i].p_filesz && UP(fend) > fend)
			memset((void *)fend, 0, UP(fend) - fend);
		if (mend > fend) {
			/* bss beyond the last file page */
			if (UP(fend) < mend &&
			    sysgate_is_error(r = sys_mmap(UP(fend),
							  UP(mend) - UP(fend),
							  prot,
							  MAP_PRIVATE |
							  MAP_FIXED |
							  MAP_ANONYMOUS,
							  -1, 0)))
				fail(path, why(r));
		}
		if (ph[i].p_offset <= eh.e_phoff &&
		    eh.e_phoff < ph[i].p_offset + ph[i].p_filesz)
			im->phdr = base + ph[i].p_vaddr +
				   (eh.e_phoff - ph[i].p_offset);
	}
	sg_sc1(SG_NR_close, fd);
	im->base = base;
	im->entry = base + eh.e_entry;
	im->phnum = eh.e_phnum;
}

/*
 * /proc/self/stat's numeric fields 1.. (0 for the others), read once:
 * the fields PR_SET_MM_MAP must be given again (set_mm) do not change
 * while the loader runs.  Returns the number of the last field read.
 */
static unsigned long stat_v[53];
static int stat_n;

static int self_stat(void)
{
	char buf[2048];
	const char *p;
	long fd = sys_open("/proc/self/stat", O_RDONLY), n;
	int i;

	n = fd < 0 ? -1 : sg_sc3(SG_NR_read, fd, (long)buf, sizeof(buf) - 1);
	if (fd >= 0)
		sg_sc1(SG_NR_close, fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = sg_strrchr(buf, ')');  /* the name (field 2) may hold anything */
	for (i = 3; p && i < 53; i++) {
		p = sg_strchr(p, ' ');
		if (p)
			for (stat_v[i] = 0, p++; *p >= '0' && *p <= '9'; p++)
				stat_v[i] = stat_v[i] * 10 + (*p - '0');
	}
	return stat_n = p ? i - 1 : i - 2;
}

/*
 * A script's first line, "#!INTERP [ARG]", read as the kernel reads it:
 * the program becomes INTERP with argv INTERP [ARG] PATH ARGS... (the
 * script's own argv[0] is dropped).  Returns the number of head entries
 * put in head[], 0 if PATH is not a script.
 */
static int script_head(const char *path, char *head[3], char line[256])
{
	char *p, *arg;
	long n, fd = sys_open(path, O_RDONLY);

	if (fd < 0)
		fail(path, why(fd));
	n = sg_sc3(SG_NR_read, fd, (long)line, 255);
	sg_sc1(SG_NR_close, fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return 0;
	line[n] = 0;
	if (!sg_strchr(line, '\n') && n == 255)
		fail(path, "interpreter line too long");
	*sg_strchr(line, '\n') = 0;
	for (p = line + 2; *p == ' ' || *p == '\t'; p++)
		;
	if (!*p)
		fail(path, "no interpreter after #!");
	head[0] = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	arg = p;
	if (*p)
		*arg++ = 0;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	/* The rest of the line is one argument, trailing blanks cut. */
	for (p = arg + sg_strlen(arg); p > arg && (p[-1] == ' ' || p[-1] == '\t');)
		*--p = 0;
	if (*arg) {
		head[1] = arg;
		head[2] = (char *)path;
		return 3;
	}
	head[1] = (char *)path;
	return 2;
}

/*
 * The strings the program's stack points at, laid out as the kernel lays
 * them out: argv's, the environment's, then the name execve was given
 * (AT_EXECFN) -- and where the kernel put ours, ending at the same place,
 * so the program finds them where it would natively; in memory of their
 * own if they do not fit there (a long "#!" line).  The vectors' pointers
 * are moved onto the copies.  What sysgate read from the old strings it
 * has copied during start-up.
 */
struct strings {
	char **argv, **env, *execfn;
	unsigned long argc, envc;
	unsigned long arg_start, arg_end, env_start, env_end;
};

static void place_strings(struct strings *s, char *old_start, char *old_end)
{
	unsigned long size = sg_strlen(s->execfn) + 1, i, off = 0;
	char *tmp, *dst;

	for (i = 0; i < s->argc; i++)
		size += sg_strlen(s->argv[i]) + 1;
	for (i = 0; i < s->envc; i++)
		size += sg_strlen(s->env[i]) + 1;
	tmp = sg_mmap(size);
	if (!tmp)
		fail("sysgate-loader", "out of memory");
	if (old_start < old_end && size <= (unsigned long)(old_end - old_start))
		dst = old_end - size;
	else if (!(dst = sg_mmap(size)))
		fail("sysgate-loader", "out of memory");
#define PUT(p) do {							\
		size_t len_ = sg_strlen(p) + 1;				\
		memcpy(tmp + off, (p), len_);				\
		(p) = dst + off;					\
		off += len_;						\
	} while (0)
	s->arg_start = (unsigned long)dst;
	for (i = 0; i < s->argc; i++)
		PUT(s->argv[i]);
	s->arg_end = s->env_start = (unsigned long)dst + off;
	for (i = 0; i < s->envc; i++)
		PUT(s->env[i]);
	s->env_end = (unsigned long)dst + off;
	PUT(s->execfn);
#undef PUT
	memcpy(dst, tmp, size);
	sg_munmap(tmp, size);
}

/* Whether this process may give itself another /proc/self/exe
 * (CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN, kernel/sys.c). */
static int may_set_exe(void)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, 0 };
	struct { unsigned int eff, perm, inh; } d[2];

	if (sg_sc2(SG_NR_capget, (long)&h, (long)d) < 0)
		return 0;
	return (d[40 / 32].eff >> (40 % 32) & 1) ||	/* CHECKPOINT_RESTORE */
	       (d[21 / 32].eff >> (21 % 32) & 1);	/* SYS_ADMIN */
}

/* [lo, hi) as an anonymous copy at the same address (this code
 * included: the bytes it runs on do not change).  0 or -1. */
static int copy_in_place(unsigned long lo, unsigned long hi, unsigned long off,
			 int prot, long self_fd)
{
	long copy = sys_mmap(0, hi - lo, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (sysgate_is_error(copy))
		return -1;
	/* text as the file has it (no faults on ours); the rest as it is
	 * now (data, and bss) */
	if (!(prot & PROT_EXEC) ||
	    sys_pread(self_fd, (void *)copy, hi - lo, off) != (long)(hi - lo))
		memcpy((void *)copy, (void *)lo, hi - lo);
	if (sg_sc3(SG_NR_mprotect, copy, hi - lo, prot) < 0 ||
	    sysgate_is_error(sg_sc5(SG_NR_mremap, copy, hi - lo, hi - lo,
				    MREMAP_MAYMOVE | MREMAP_FIXED, lo))) {
		sg_munmap((void *)copy, hi - lo);
		return -1;
	}
	return 0;
}

/* The page at a (file offset off) still holds what the file has. */
/* What the hand-over of /proc/self/exe works with. */
struct handover {
	const char *self;	/* the loader's path, as maps names it */
	long self_fd;
};

/* (sg_maps_each: each mapping of the loader's file, copied; non-zero
 * stops) */
static int rename_each(const struct sg_mapping *m, void *arg)
{
	const struct handover *h = arg;
	int prot = (m->prot & PROT_R ? PROT_READ : 0) |
		   (m->prot & PROT_W ? PROT_WRITE : 0) |
		   (m->prot & PROT_X ? PROT_EXEC : 0);

	if (sg_strcmp(m->path, h->self))
		return 0;
	return copy_in_place(m->lo, m->hi, m->off, prot, h->self_fd) < 0;
}

/*
 * The kernel gives a process another exe only once no mapping of the old
 * one's name is left.  The installed loader's stub mapped everything from
 * sysgate-loader.text (stub.c); without that file (or run as linked), each
 * of our mappings is copied in place, which costs a copy of the text per
 * process.  Returns a descriptor of the program for exe_fd, or -1.
 */
static long exe_fd_for(const char *prog, const char *self)
{
	struct handover h = { self, -1 };
	unsigned long maps_len = 0;
	char *maps = 0;
	long fd;

	if (!self || !sg.exe_set)
		return -1;
	fd = sys_open(prog, O_RDONLY);
	if (fd < 0 || sg_loader_from_link)
		return fd < 0 ? -1 : fd;
	h.self_fd = sys_open("/proc/self/exe", O_RDONLY);
	if (h.self_fd >= 0 && (maps = sg_maps_read(&maps_len)))
		sg_maps_each(maps, rename_each, &h);
	if (maps)
		sg_munmap(maps, maps_len);
	if (h.self_fd >= 0)
		sg_sc1(SG_NR_close, h.self_fd);
	if (h.self_fd < 0 || !maps) {
		sg_sc1(SG_NR_close, fd);
		return -1;
	}
	return fd;
}

/*
 * /proc/self/cmdline, /proc/self/environ and /proc/self/auxv read what
 * the kernel recorded at execve (ours): point them at the program's.
 * PR_SET_MM_MAP needs no capability where the kernel has
 * CONFIG_CHECKPOINT_RESTORE (kernel/sys.c: only a new exe_fd does);
 * without it the program's own vectors are still right, only /proc
 * tells.
 */
static int set_mm(const struct strings *s, unsigned long *auxv,
		  unsigned long n, long exe_fd)
{
	struct prctl_mm_map m;
	const unsigned long *v = stat_v;

	if (stat_n < 52 && self_stat() < 52)
		return -1;
	memset(&m, 0, sizeof(m));
	m.start_code = v[26];
	m.end_code = v[27];
	m.start_stack = v[28];
	m.start_data = v[45];
	m.end_data = v[46];
	m.start_brk = v[47];
	m.brk = sg_sc1(SG_NR_brk, 0);
	m.arg_start = s ? s->arg_start : v[48];
	m.arg_end = s ? s->arg_end : v[49];
	m.env_start = s ? s->env_start : v[50];
	m.env_end = s ? s->env_end : v[51];
	m.auxv = (__u64 *)auxv;
	m.auxv_size = n * sizeof(*auxv);	/* (0: left as it is) */
	m.exe_fd = exe_fd;
	return sg_sc5(SG_NR_prctl, PR_SET_MM, PR_SET_MM_MAP, (long)&m,
		      sizeof(m), 0) < 0 ? -1 : 0;
}

/*
 * Before sysgate starts: where the kernel will name the program in
 * /proc/self/exe, nothing needs to answer for it, and with nothing to
 * hook and no process to follow, nothing is patched (core/hooks.c).  The
 * runtime finds libsysgate.so beside the loader.
 */
static void plan_exe(void)
{
	static char self[PATH_MAX_];
	long len = sg_sc3(SG_NR_readlink, (long)"/proc/self/exe", (long)self,
			  sizeof(self) - 1);

	if (len <= 0)
		return;
	self[len] = 0;
	sg.loader_file = self;
	sg.exe_set = may_set_exe() &&
		     sg_sc5(SG_NR_prctl, SG_PR_GET_MDWE, 0, 0, 0, 0) <= 0;
}

/* After: sysgate has found its own text as the loader's file mapping.
 * (Should the kernel still refuse, a program with nothing hooked reads
 * the loader's path there.) */
static void set_exe(const char *prog)
{
	long fd = exe_fd_for(prog, sg.loader_file);

	sg.exe_set = fd >= 0 && set_mm(0, 0, 0, fd) == 0;
	if (fd >= 0)
		sg_sc1(SG_NR_close, fd);
}

/*
 * The name ps, pgrep and /proc/self/comm show: the kernel gave us ours;
 * the program's is the last part of the name execve was given (a
 * script's, not its interpreter's), or for a descriptor (fexecve) the
 * file's own name.
 */
static void set_comm(const char *execfn)
{
	const char *b;

	if ((!sg_strncmp(execfn, "/dev/fd/", 8) ||
	     !sg_strncmp(execfn, "/proc/self/fd/", 14)) && sg.exe_path)
		execfn = sg.exe_path;
	b = sg_strrchr(execfn, '/');
	sg_sc5(SG_NR_prctl, PR_SET_NAME, (long)(b ? b + 1 : execfn), 0, 0, 0);
}

/* A nested sysgate's loader reads the variables it is started with. */
static int is_sysgate_loader(const char *path)
{
	const char *b = sg_strrchr(path, '/');

	return !sg_strcmp(b ? b + 1 : path, "sysgate-loader");
}

/*
 * What a re-exec of /proc/self/exe means: PROG, not the loader.  PATH
 * with its links resolved, as /proc names the file opened (without
 * /proc, an absolute PATH as it is).
 */
static const char *real_path(const char *path)
{
	static char real[PATH_MAX_];
	char fd_name[40], num[24];
	long fd = sys_open(path, O_PATH), n;

	if (fd < 0)
		return 0;
	sg_strjoin(fd_name, sizeof(fd_name), "/proc/self/fd/",
		   sg_utoa(num + sizeof(num), fd), "");
	n = sg_sc3(SG_NR_readlink, (long)fd_name, (long)real, sizeof(real) - 1);
	sg_sc1(SG_NR_close, fd);
	if (n > 0 && real[0] == '/') {
		real[n] = 0;
		return real;
	}
	if (path[0] != '/' || sg_strlcpy(real, path, sizeof(real)) >= sizeof(real))
		return 0;
	return real;
}

/* Memory the loader needs only until the jump, given back then. */
static void *scratch(unsigned long size)
{
	void *p = sg_mmap(size);

	if (!p)
		fail("sysgate-loader", "out of memory");
	return p;
}

/*
 * -b execve: the program a traced execve started runs without sysgate
 * from here on.  Its execve's line is out (the trace hook ended it
 * " <detached ...>", as strace does once the exec has succeeded); the
 * kernel gets the program's signal actions, mask and dispatch back, and
 * the same execve runs again, natively, which cannot fail but where the
 * file changed meanwhile (then said, as the loader's own refusals).
 */
static void __attribute__((noreturn)) let_go(char **argv, char **envp,
					      const unsigned long *mask)
{
	char **env, **e;
	unsigned long n = 1;
	char msg[48], num[24];

	/* (strace's message; --json's record says "detached") */
	if (sg.opts && !sg.opts->quiet && !sg.opts->quiet_attach &&
	    !sg.opts->json)
		sg_warn(sg_strjoin(msg, sizeof(msg), "Process ",
				   sg_utoa(num + sizeof(num), sg.pid),
				   " detached"));
	sg_signal_detach();
	if (sg_self())
		sg_sud_disarm(sg_self());
	for (e = envp; *e; e++)
		n++;
	env = scratch(n * sizeof(*env));
	for (n = 0, e = envp; *e; e++)
		if (!sg_env_is_internal(*e))
			env[n++] = *e;
	env[n] = 0;
	sg_sc4(SG_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)mask, 0, 8);
	fail(argv[1], why(sg_sc3(SG_NR_execve, (long)argv[1], (long)(argv + 2),
				 (long)env)));
}

/* From arch/<isa>/loader_start.S: sp is where the kernel left argc. */
void __attribute__((noreturn)) sg_loader_main(unsigned long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1;
	unsigned long *auxv, *newsp, entry, n, k, vec_size;
	struct image *prog, *interp;
	struct strings str;
	const char *path;
	char **e, *heads[2 * SG_SCRIPT_LEVELS + 1], **head, *old_execfn = 0;
	/* (the first two levels' lines in bss, as the one script and its
	 * check used: more would shift the data the start-up writes onto
	 * more pages; deeper levels get a mapping of their own) */
	static char lines[2][256];
	char (*deeper)[256] = 0;
	int i, level, nhead, grow, skip = 2;	/* argv entries replaced by head[] */
	unsigned long mask = 0;
	int detach;

	/* Where the kernel put the auxiliary vector, found before sysgate
	 * starts: start-up may unset variables, which shifts the entries of
	 * the environment array (not the vector after it). */
	for (e = envp; *e; e++)
		;
	auxv = (unsigned long *)(e + 1);
	for (n = 0; auxv[n] != AT_NULL; n += 2)
		if (auxv[n] == AT_EXECFN)
			old_execfn = (char *)auxv[n + 1];
	n += 2;
	sg_loader_start_init(envp, auxv);
	/* (-b execve: the program's mask, which sysgate's start changes) */
	detach = sg_start_getenv("SYSGATE_DETACH") != 0;
	if (detach)
		sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, 0, (long)&mask,
		       8);
	if (argc < 2)
		fail("sysgate-loader", "usage: sysgate-loader PATH ARGV0 [ARGS...]");
	self_argv = argv;
	self_envp = envp;
	path = argv[1];
	/* A script: INTERP [ARG] PATH replace loader PATH ARGV0; for each
	 * interpreter that is a script too, its INTERP [ARG] go in front
	 * (the kernel's argv: INTERP2 [ARG2] INTERP [ARG] PATH ARGS...). */
	head = heads + ARRAY_SIZE(heads);
	for (level = 0; level <= SG_SCRIPT_LEVELS; level++) {
		char *h[3];
		int n;

		if (level == 2)
			deeper = scratch((SG_SCRIPT_LEVELS - 1) * sizeof(*deeper));
		n = script_head(path, h, level < 2 ? lines[level] :
						     deeper[level - 2]);

		if (!n)
			break;
		if (level == SG_SCRIPT_LEVELS)
			fail(argv[1], why(-ELOOP_));
		n -= level > 0;	/* (its last, PATH, is already first) */
		head -= n;
		memcpy(head, h, n * sizeof(*h));
		path = h[0];
		skip = argc > 2 ? 3 : 2;
	}
	nhead = heads + ARRAY_SIZE(heads) - head;
	/* (not on the stack below the program's: 8 KiB of it written for
	 * nothing) */
	prog = scratch(2 * sizeof(*prog));
	interp = prog + 1;
	map_elf(path, prog);
	entry = prog->entry;
	interp->base = 0;
	if (prog->interp[0]) {
		map_elf(prog->interp, interp);
		entry = interp->entry;
	}

	/* sysgate starts before the stack is rearranged: its environment
	 * (tools/loader/start.c) is the variables where the kernel put
	 * them. */
	sg.loader = 1;
	sg.exe_path = real_path(path);
	sg.own_loader = !prog->interp[0];
	plan_exe();
	/* (before sysgate starts: a hook may name the process itself) */
	set_comm(sg_strncmp(argv[0], "execfn=", 7) ? argv[1] : argv[0] + 7);
	sg_init(&sg_registry);
	if (detach && sg.opts && sg.opts->detach_execve)
		let_go(argv, envp, &mask);
	set_exe(path);

	/* The program's argv and environment: sysgate's variables (which
	 * carried its state here) left out, unless the program is another
	 * sysgate's loader that reads them.  AT_EXECFN is the name execve
	 * was given (a script's, not its interpreter's). */
	str.argc = nhead + argc - skip;
	for (e = envp; *e; e++)
		;
	vec_size = (str.argc + 1 + (e - envp) + 1) * sizeof(char *);
	str.argv = scratch(vec_size);
	str.env = str.argv + str.argc + 1;
	k = 0;
	for (i = 0; i < nhead; i++)
		str.argv[k++] = head[i];
	for (i = skip; i < argc; i++)
		str.argv[k++] = argv[i];
	str.envc = 0;
	for (e = envp; *e; e++)
		if (is_sysgate_loader(path) || !sg_env_is_internal(*e))
			str.env[str.envc++] = *e;
	str.env[str.envc] = 0;
	str.execfn = sg_strncmp(argv[0], "execfn=", 7) ? argv[1] : argv[0] + 7;
	if (sg.cli && sg.initialised) {
		/* The execve the CLI made: PATH, ARGV0 ARGS... (a script's
		 * too, before its interpreter came first), the environment
		 * the program gets. */
		long a[6] = { (long)argv[1], (long)(argv + 2), (long)str.env };

		sg_dispatch_started(SG_NR_execve, a);
	}
	place_strings(&str, argv[0],
		      old_execfn ? old_execfn + sg_strlen(old_execfn) + 1 : 0);
	if (deeper)	/* (its strings were copied) */
		sg_munmap(deeper, (SG_SCRIPT_LEVELS - 1) * sizeof(*deeper));

	/* PROG's stack: argc, ARGV0 ARGS..., the environment, the
	 * auxiliary vector describing PROG.  The stack pointer stays where
	 * the kernel put it (16-byte aligned), or, for the interpreters of
	 * nested scripts, moves down by an even number of words into the
	 * room the entry left free (SG_LOADER_ROOM): each entry lands at or
	 * below where the kernel's was, so a forward copy is safe. */
	_Static_assert((ARRAY_SIZE(heads) - 2 + 1) * sizeof(long) <=
		       SG_LOADER_ROOM, "nested scripts' argv outgrows the room");
	grow = nhead > skip ? (nhead - skip + 1) & ~1 : 0;
	newsp = sp - grow;
	k = 0;
	newsp[k++] = str.argc;
	for (i = 0; i < (int)str.argc; i++)
		newsp[k++] = (unsigned long)str.argv[i];
	newsp[k++] = 0;
	for (i = 0; i < (int)str.envc; i++)
		newsp[k++] = (unsigned long)str.env[i];
	newsp[k++] = 0;
	for (i = 0; i < (int)n; i += 2) {
		unsigned long type = auxv[i], val = auxv[i + 1];

		switch (type) {
		case AT_PHDR: val = prog->phdr; break;
		case AT_PHNUM: val = prog->phnum; break;
		case AT_PHENT: val = sizeof(Elf64_Phdr); break;
		case AT_ENTRY: val = prog->entry; break;
		case AT_BASE: val = interp->base; break;
		case AT_EXECFN: val = (unsigned long)str.execfn; break;
		}
		newsp[k++] = type;
		newsp[k++] = val;
	}
	sg_munmap(str.argv, vec_size);
	sg_munmap(prog, 2 * sizeof(*prog));
	set_mm(&str, newsp + k - n, n, -1);
	sg_tracer_loader_ready();
	sg_loader_jump(entry, newsp);
}
