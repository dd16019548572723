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
 * The loader's own libc runs only until the jump; the runtime never calls
 * libc after start-up.  Errors: one line on stderr, exit status 127.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/prctl.h>
#include "sg.h"
#include "registry.h"
#include "env.h"
#include "loader_arch.h"

#define PAGE 4096UL
#define DOWN(x) ((x) & ~(PAGE - 1))
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))

struct image {
	unsigned long base;	/* load bias */
	unsigned long entry;
	unsigned long phdr;	/* address of the program headers */
	unsigned int phnum;
	char interp[4096];
};

static void __attribute__((noreturn)) fail(const char *what, const char *why)
{
	fprintf(stderr, "sysgate: %s: %s\n", what, why);
	exit(127);
}

static int prot_of(unsigned int flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

static char **self_argv;
#define AGAIN "sysgate-loader, again: "

/*
 * A program at fixed addresses that overlap memory we already use: the
 * kernel put our heap, where our libc keeps this thread's TLS, up to
 * 1 GiB past our end at random, and the program's addresses may be there
 * (valgrind's tools load at 0x58000000): mapping it would wipe the TLS.
 * Another start of the loader draws another place for the heap.  The
 * tries are counted in our argv[0], which the program never sees.
 */
static void start_again(const char *path)
{
	static char name[64];
	int tries = 0;

	if (!strncmp(self_argv[0], AGAIN, strlen(AGAIN)))
		tries = atoi(self_argv[0] + strlen(AGAIN));
	if (tries >= 8)
		fail(path, "its fixed addresses overlap sysgate-loader's");
	snprintf(name, sizeof(name), AGAIN "%d", tries + 1);
	self_argv[0] = name;
	execv("/proc/self/exe", self_argv);
	fail(path, strerror(errno));
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
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		fail(path, strerror(errno));
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != SG_LOADER_MACHINE)
		fail(path, "not an ELF executable for this machine");
	if ((eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64 ||
	    pread(fd, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
		    (ssize_t)(eh.e_phnum * sizeof(*ph)))
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
			    pread(fd, im->interp, ph[i].p_filesz, ph[i].p_offset) !=
				    (ssize_t)ph[i].p_filesz)
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
		void *r = mmap(0, UP(hi) - lo, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (r == MAP_FAILED)
			fail(path, strerror(errno));
		base = (unsigned long)r - lo;
	} else {
		void *r = mmap((void *)lo, UP(hi) - lo, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (r == MAP_FAILED && errno == EEXIST)
			start_again(path);
		/* (a kernel before 4.17 takes it as a hint) */
		if (r != MAP_FAILED && r != (void *)lo)
			munmap(r, UP(hi) - lo);
	}
	im->phdr = 0;
	for (i = 0; i < eh.e_phnum; i++) {
		unsigned long start, fend, mend, off;
		int prot;

		if (ph[i].p_type != PT_LOAD)
			continue;
		start = base + DOWN(ph[i].p_vaddr);
		fend = base + ph[i].p_vaddr + ph[i].p_filesz;
		mend = base + ph[i].p_vaddr + ph[i].p_memsz;
		off = DOWN(ph[i].p_offset);
		prot = prot_of(ph[i].p_flags);
		if (ph[i].p_filesz &&
		    mmap((void *)start, UP(fend) - start, prot,
			 MAP_PRIVATE | MAP_FIXED, fd, off) == MAP_FAILED)
			fail(path, strerror(errno));
		/* Past the file's bytes the page reads as zero, as the kernel
		 * leaves it: ld.so's early malloc hands out that space. */
		if ((ph[i].p_flags & PF_W) && ph[i].p_filesz && UP(fend) > fend)
			memset((void *)fend, 0, UP(fend) - fend);
		if (mend > fend) {
			/* bss beyond the last file page */
			if (UP(fend) < mend &&
			    mmap((void *)UP(fend), UP(mend) - UP(fend), prot,
				 MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1,
				 0) == MAP_FAILED)
				fail(path, strerror(errno));
		}
		if (ph[i].p_offset <= eh.e_phoff &&
		    eh.e_phoff < ph[i].p_offset + ph[i].p_filesz)
			im->phdr = base + ph[i].p_vaddr +
				   (eh.e_phoff - ph[i].p_offset);
	}
	close(fd);
	im->base = base;
	im->entry = base + eh.e_entry;
	im->phnum = eh.e_phnum;
}

/*
 * Our libc registered this thread's restartable-sequence area; the
 * program's libc will want to register its own, which the kernel refuses
 * while ours is there.  Unregister it (the length must be the one
 * registered: glibc 2.36 registers 32 bytes; older ones the exported size).
 */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

static void release_rseq(void)
{
	char *area;

	if (!&__rseq_offset || !&__rseq_size || !__rseq_size)
		return;
	area = (char *)__builtin_thread_pointer() + __rseq_offset;
	if (syscall(SYS_rseq, area, 32, 1 /* UNREGISTER */, 0x53053053) < 0)
		syscall(SYS_rseq, area, __rseq_size, 1, 0x53053053);
}

/*
 * /proc/self/stat's numeric fields 1.. (0 for the others), read once:
 * the heap's start (below) and the fields PR_SET_MM_MAP must be given
 * again (set_mm) do not change while the loader runs.  Returns the
 * number of the last field read.
 */
static unsigned long stat_v[53];
static int stat_n;

static int self_stat(void)
{
	char buf[2048], *p;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), i;
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the name (field 2) may hold anything */
	for (i = 3; p && i < 53; i++) {
		p = strchr(p, ' ');
		if (p)
			stat_v[i] = strtoul(++p, 0, 10);
	}
	return stat_n = p ? i - 1 : i - 2;
}

/*
 * Our libc's heap (the brk area, where it keeps this thread's TLS) is
 * given back before the jump, and the program's heap starts where ours
 * did, empty, as the kernel leaves a new program's.  The kernel draws
 * that place up to 1 GiB past our end, and there a mapping may land in
 * AddressSanitizer's shadow range (from 0x7fff8000), which makes an ASan
 * program refuse to start.  Where the heap began is in /proc/self/stat
 * (start_brk, field 47); without /proc it stays.
 */
static unsigned long heap_start(void)
{
	return self_stat() >= 47 ? stat_v[47] : 0;
}

/* After this, nothing may touch our libc or TLS: the last step before the
 * jump. */
static void release_heap(unsigned long start)
{
	struct sg_thread *t = sg_self();

	if (!start || (t && sg_thread_hook_tls_move(t) < 0))
		return;
	sg.loader_file = 0;	/* (it was on that heap: plan_exe) */
	/* (our libc's robust-mutex list head is in that TLS) */
	sg_sc2(SYS_set_robust_list, 0, 24);
	sg_sc1(SYS_brk, start);
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
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fail(path, strerror(errno));
	n = read(fd, line, 255);
	close(fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return 0;
	line[n] = 0;
	if (!strchr(line, '\n') && n == 255)
		fail(path, "interpreter line too long");
	*strchrnul(line, '\n') = 0;
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
	for (p = arg + strlen(arg); p > arg && (p[-1] == ' ' || p[-1] == '\t');)
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
	unsigned long size = strlen(s->execfn) + 1, i, off = 0;
	char *tmp, *dst;

	for (i = 0; i < s->argc; i++)
		size += strlen(s->argv[i]) + 1;
	for (i = 0; i < s->envc; i++)
		size += strlen(s->env[i]) + 1;
	tmp = malloc(size);
	if (!tmp)
		fail("sysgate-loader", strerror(errno));
	if (old_start < old_end && size <= (unsigned long)(old_end - old_start))
		dst = old_end - size;
	else if ((dst = mmap(0, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		fail("sysgate-loader", strerror(errno));
#define PUT(p) do {							\
		size_t len_ = strlen(p) + 1;				\
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
	free(tmp);
}

/* Whether this process may give itself another /proc/self/exe
 * (CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN, kernel/sys.c). */
static int may_set_exe(void)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, 0 };
	struct { unsigned int eff, perm, inh; } d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return 0;
	return (d[40 / 32].eff >> (40 % 32) & 1) ||	/* CHECKPOINT_RESTORE */
	       (d[21 / 32].eff >> (21 % 32) & 1);	/* SYS_ADMIN */
}

/*
 * The loader's segments the file has as they are (not writable in the
 * ELF file: text, read-only data), which may be mapped again from
 * another name of the same file.
 */
extern const Elf64_Ehdr __ehdr_start;

static int pristine(unsigned long lo, unsigned long hi)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)&__ehdr_start +
						    __ehdr_start.e_phoff);
	int i;

	for (i = 0; i < __ehdr_start.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && lo >= DOWN(ph[i].p_vaddr) &&
		    hi <= UP(ph[i].p_vaddr + ph[i].p_memsz))
			return !(ph[i].p_flags & PF_W);
	return 0;
}

/*
 * sysgate-loader.text, installed beside the loader as a hard link to it:
 * the same file under another name.  Its descriptor, or -1 if it is
 * missing or is not the very file self_fd is.
 */
static int text_link(const char *self, int self_fd)
{
	char path[PATH_MAX];
	struct stat a, b;
	int fd;

	if (snprintf(path, sizeof(path), "%s.text", self) >= (int)sizeof(path))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && (fstat(fd, &a) < 0 || fstat(self_fd, &b) < 0 ||
			a.st_dev != b.st_dev || a.st_ino != b.st_ino)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* [lo, hi) as an anonymous copy at the same address (this code
 * included: the bytes it runs on do not change).  0 or -1. */
static int copy_in_place(unsigned long lo, unsigned long hi, unsigned long off,
			 int prot, int self_fd)
{
	void *copy = mmap(0, hi - lo, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (copy == MAP_FAILED)
		return -1;
	/* text as the file has it (no faults on ours); the rest as it is
	 * now (data, and RELRO pages relocated at start-up) */
	if (!(prot & PROT_EXEC) ||
	    pread(self_fd, copy, hi - lo, off) != (ssize_t)(hi - lo))
		memcpy(copy, (void *)lo, hi - lo);
	if (mprotect(copy, hi - lo, prot) < 0 ||
	    mremap(copy, hi - lo, hi - lo, MREMAP_MAYMOVE | MREMAP_FIXED,
		   (void *)lo) == MAP_FAILED) {
		munmap(copy, hi - lo);
		return -1;
	}
	return 0;
}

/* The page at a (file offset off) still holds what the file has. */
static int as_in_file(unsigned long a, unsigned long off, int prot, int fd)
{
	/* (on our heap, given back before the jump) */
	static unsigned char *page;

	if (!page && !(page = malloc(PAGE)))
		return 0;
	return (prot & PROT_READ) &&
	       pread(fd, page, PAGE, off) == (ssize_t)PAGE &&
	       !memcmp(page, (void *)a, PAGE);
}

/*
 * Whether each page of [lo, hi) (at most 64) may differ from the file:
 * /proc/self/pagemap tells a page never written (absent, or the page
 * cache's own: bit 61) from a private copy, and only copies are
 * compared byte by byte (a pread each).  Without pagemap, every page is.
 */
static unsigned long written_pages(unsigned long lo, unsigned long hi,
				   int pagemap_fd)
{
	unsigned long long e[64];
	unsigned long n = (hi - lo) / PAGE, mask = 0, i;

	if (pagemap_fd < 0 || pread(pagemap_fd, e, n * 8, lo / PAGE * 8) != (ssize_t)(n * 8))
		return n == 64 ? ~0UL : (1UL << n) - 1;
	for (i = 0; i < n; i++)
		if ((e[i] >> 62) && !(e[i] >> 61 & 1))	/* present/swapped, anon */
			mask |= 1UL << i;
	return mask;
}

/* Whether the page at a (file offset off) still holds what the file has,
 * unwritten ones known from written (a bit per page from chunk). */
static int page_as_in_file(unsigned long a, unsigned long chunk,
			   unsigned long written, unsigned long off, int prot,
			   int fd)
{
	if (!(written >> ((a - chunk) / PAGE) & 1))
		return (prot & PROT_READ) != 0;
	return as_in_file(a, off, prot, fd);
}

/*
 * One mapping of ours [lo, hi) at file offset off, no longer under the
 * loader's name: where it can be, from the text link (the page cache's
 * pages, shared with every process, nothing copied); pages that were
 * written (data, RELRO) as anonymous copies.  0 or -1.
 */
static int rename_mapping(unsigned long lo, unsigned long hi,
			  unsigned long off, int prot, int self_fd, int link_fd,
			  int pagemap_fd)
{
	unsigned long a, end, top = lo, chunk = lo, written = 0;
	int same;

	if (link_fd < 0)
		return copy_in_place(lo, hi, off, prot, self_fd);
	if (!(prot & PROT_WRITE) && pristine(lo, hi))
		return mmap((void *)lo, hi - lo, prot, MAP_PRIVATE | MAP_FIXED,
			    link_fd, off) == (void *)lo ? 0 : -1;
	for (a = lo; a < hi; a = end) {
		/* (pages looked at 64 at a time) */
		if (a == top) {
			chunk = a;
			top = hi - a > 64 * PAGE ? a + 64 * PAGE : hi;
			written = written_pages(a, top, pagemap_fd);
		}
		same = page_as_in_file(a, chunk, written, off + (a - lo), prot,
				       self_fd);
		for (end = a + PAGE; end < top &&
		     page_as_in_file(end, chunk, written, off + (end - lo),
				     prot, self_fd) == same;
		     end += PAGE)
			;
		if (same ? mmap((void *)a, end - a, prot,
				MAP_PRIVATE | MAP_FIXED, link_fd,
				off + (a - lo)) != (void *)a :
			   copy_in_place(a, end, off + (a - lo), prot,
					 self_fd) < 0)
			return -1;
	}
	return 0;
}

/*
 * The kernel gives a process another exe only once no mapping of the old
 * one's name is left: each of ours is mapped again under another name.
 * Returns a descriptor of the program for exe_fd, or -1.
 */
static int exe_fd_for(const char *prog, const char *self)
{
	char line[512];
	FILE *f;
	int fd, self_fd, link_fd, pagemap_fd;

	if (!self || !sg.exe_set)
		return -1;
	fd = open(prog, O_RDONLY | O_CLOEXEC);
	self_fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	f = fopen("/proc/self/maps", "re");
	if (fd < 0 || self_fd < 0 || !f) {
		if (f)
			fclose(f);
		if (fd >= 0)
			close(fd);
		if (self_fd >= 0)
			close(self_fd);
		return -1;
	}
	link_fd = text_link(self, self_fd);
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char perm[8], *name = strchr(line, '/'), *nl;
		int prot;

		if (!name || sscanf(line, "%lx-%lx %7s %lx", &lo, &hi, perm,
				    &off) != 4)
			continue;
		if ((nl = strchr(name, '\n')))
			*nl = 0;
		if (strcmp(name, self))
			continue;
		prot = (perm[0] == 'r' ? PROT_READ : 0) |
		       (perm[1] == 'w' ? PROT_WRITE : 0) |
		       (perm[2] == 'x' ? PROT_EXEC : 0);
		if (rename_mapping(lo, hi, off, prot, self_fd, link_fd,
				   pagemap_fd) < 0)
			break;
	}
	fclose(f);
	if (pagemap_fd >= 0)
		close(pagemap_fd);
	close(self_fd);
	if (link_fd >= 0)
		close(link_fd);
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
		  unsigned long n, int exe_fd)
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
	m.brk = syscall(SYS_brk, 0);
	m.arg_start = s ? s->arg_start : v[48];
	m.arg_end = s ? s->arg_end : v[49];
	m.env_start = s ? s->env_start : v[50];
	m.env_end = s ? s->env_end : v[51];
	m.auxv = (__u64 *)auxv;
	m.auxv_size = n * sizeof(*auxv);	/* (0: left as it is) */
	m.exe_fd = exe_fd;
	return prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long)&m, sizeof(m), 0);
}

/*
 * Before sysgate starts: where the kernel will name the program in
 * /proc/self/exe, nothing needs to answer for it, and with nothing to
 * hook and no process to follow, nothing is patched (core/hooks.c).  The
 * runtime finds libsysgate.so beside the loader.
 */
static void plan_exe(void)
{
	/* (on our heap: needed only until the jump, release_heap) */
	char *self = malloc(PATH_MAX);
	ssize_t len = self ? readlink("/proc/self/exe", self, PATH_MAX - 1) : -1;

	if (len <= 0)
		return;
	self[len] = 0;
	sg.loader_file = self;
	sg.exe_set = may_set_exe() && prctl(SG_PR_GET_MDWE, 0, 0, 0, 0) <= 0;
}

/* After: sysgate has found its own text as the loader's file mapping.
 * (Should the kernel still refuse, a program with nothing hooked reads
 * the loader's path there.) */
static void set_exe(const char *prog)
{
	int fd = exe_fd_for(prog, sg.loader_file);

	sg.exe_set = fd >= 0 && set_mm(0, 0, 0, fd) == 0;
	if (fd >= 0)
		close(fd);
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

	if ((!strncmp(execfn, "/dev/fd/", 8) ||
	     !strncmp(execfn, "/proc/self/fd/", 14)) && sg.exe_path)
		execfn = sg.exe_path;
	b = strrchr(execfn, '/');
	prctl(PR_SET_NAME, (unsigned long)(b ? b + 1 : execfn), 0, 0, 0);
}

/* A nested sysgate's loader reads the variables it is started with. */
static int is_sysgate_loader(const char *path)
{
	const char *b = strrchr(path, '/');

	return !strcmp(b ? b + 1 : path, "sysgate-loader");
}

/* What a re-exec of /proc/self/exe means: PROG, not the loader. */
static char exe_path[PATH_MAX];

int main(int argc, char **argv, char **envp)
{
	unsigned long *sp = (unsigned long *)argv - 1, *auxv, *newsp, entry, n, k;
	unsigned long brk0;
	struct image *prog, *interp;
	struct strings str;
	const char *path;
	char **e, *head[3], *again[3], *old_execfn = 0;
	static char line[256], line2[256];
	int i, nhead, skip = 2;	/* argv entries replaced by head[] */

	if (argc < 2)
		fail("sysgate-loader", "usage: sysgate-loader PATH ARGV0 [ARGS...]");
	self_argv = argv;
	path = argv[1];
	nhead = script_head(path, head, line);
	if (nhead) {
		/* INTERP [ARG] PATH replace loader PATH ARGV0: no more
		 * entries than before, so the stack below still fits. */
		skip = argc > 2 ? 3 : 2;
		if (nhead > skip)
			fail(path, "script without an argv[0]");
		if (script_head(head[0], again, line2))
			fail(head[0], "an interpreter that is itself a script "
				      "is not supported");
		path = head[0];
	}
	/* (on our heap, given back before the jump, not on the stack
	 * below the program's: 8 KiB of it written for nothing) */
	prog = malloc(2 * sizeof(*prog));
	if (!prog)
		fail("sysgate-loader", strerror(errno));
	interp = prog + 1;
	map_elf(path, prog);
	entry = prog->entry;
	interp->base = 0;
	if (prog->interp[0]) {
		map_elf(prog->interp, interp);
		entry = interp->entry;
	}
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

	/* sysgate starts before the stack is rearranged: libc's environ
	 * still points at the variables where the kernel put them. */
	sg.loader = 1;
	brk0 = heap_start();
	sg.exe_path = realpath(path, exe_path) ? exe_path : 0;
	sg.own_loader = !prog->interp[0];
	plan_exe();
	/* (before sysgate starts: a hook may name the process itself) */
	set_comm(strncmp(argv[0], "execfn=", 7) ? argv[1] : argv[0] + 7);
	sg_init(&sg_registry);
	set_exe(path);

	/* The program's argv and environment: sysgate's variables (which
	 * carried its state here) left out, unless the program is another
	 * sysgate's loader that reads them.  AT_EXECFN is the name execve
	 * was given (a script's, not its interpreter's). */
	str.argc = nhead + argc - skip;
	str.argv = malloc((str.argc + 1) * sizeof(char *));
	for (e = envp; *e; e++)
		;
	str.env = malloc((e - envp + 1) * sizeof(char *));
	if (!str.argv || !str.env)
		fail("sysgate-loader", strerror(errno));
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
	str.execfn = strncmp(argv[0], "execfn=", 7) ? argv[1] : argv[0] + 7;
	if (sg.cli && sg.initialised) {
		/* The execve the CLI made: PATH, ARGV0 ARGS... (a script's
		 * too, before its interpreter came first), the environment
		 * the program gets. */
		long a[6] = { (long)argv[1], (long)(argv + 2), (long)str.env };

		sg_dispatch_started(SG_NR_execve, a);
	}
	place_strings(&str, argv[0],
		      old_execfn ? old_execfn + strlen(old_execfn) + 1 : 0);

	/* PROG's stack: argc, ARGV0 ARGS..., the environment, the
	 * auxiliary vector describing PROG.  No more entries than before,
	 * so a forward copy is safe, and the stack pointer stays where the
	 * kernel put it (16-byte aligned). */
	newsp = sp;
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
	set_mm(&str, newsp + k - n, n, -1);
	release_rseq();
	release_heap(brk0);
	sg_tracer_loader_ready();
	sg_loader_jump(entry, newsp);
}
