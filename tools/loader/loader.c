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
#include <sys/syscall.h>
#include <unistd.h>
#include "sg.h"
#include "registry.h"
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
	char buf[1024], *p;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field;
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the name (field 2) may hold anything */
	for (field = 2; p && field < 47; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoul(p + 1, 0, 10) : 0;
}

/* After this, nothing may touch our libc or TLS: the last step before the
 * jump. */
static void release_heap(unsigned long start)
{
	struct sg_thread *t = sg_self();

	if (!start || (t && sg_thread_hook_tls_move(t) < 0))
		return;
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

/* What a re-exec of /proc/self/exe means: PROG, not the loader. */
static char exe_path[PATH_MAX];

int main(int argc, char **argv, char **envp)
{
	unsigned long *sp = (unsigned long *)argv - 1, *auxv, *newsp, entry, n, k;
	unsigned long brk0;
	struct image prog, interp;
	const char *path;
	char **e, *head[3], *again[3];
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
	map_elf(path, &prog);
	entry = prog.entry;
	interp.base = 0;
	if (prog.interp[0]) {
		map_elf(prog.interp, &interp);
		entry = interp.entry;
	}
	/* Where the kernel put the auxiliary vector, found before sysgate
	 * starts: start-up may unset variables, which shifts the entries of
	 * the environment array (not the vector after it). */
	for (e = envp; *e; e++)
		;
	auxv = (unsigned long *)(e + 1);
	for (n = 0; auxv[n] != AT_NULL; n += 2)
		;
	n += 2;

	/* sysgate starts before the stack is rearranged: libc's environ
	 * still points at the variables where the kernel put them. */
	sg.loader = 1;
	brk0 = heap_start();
	sg.exe_path = realpath(path, exe_path) ? exe_path : 0;
	sg.own_loader = !prog.interp[0];
	sg_init(&sg_registry);

	/* PROG's stack: argc, ARGV0 ARGS..., the environment as it is now,
	 * the auxiliary vector describing PROG.  Everything moves down (to
	 * lower slots), so a forward copy is safe, and the stack pointer
	 * stays where the kernel put it (16-byte aligned). */
	newsp = sp;
	k = 0;
	newsp[k++] = nhead + argc - skip;
	for (i = 0; i < nhead; i++)
		newsp[k++] = (unsigned long)head[i];
	for (i = skip; i <= argc; i++)	/* argv[argc] is the NULL */
		newsp[k++] = (unsigned long)argv[i];
	for (e = envp; *e; e++)
		newsp[k++] = (unsigned long)*e;
	newsp[k++] = 0;
	for (i = 0; i < (int)n; i += 2) {
		unsigned long type = auxv[i], val = auxv[i + 1];

		switch (type) {
		case AT_PHDR: val = prog.phdr; break;
		case AT_PHNUM: val = prog.phnum; break;
		case AT_PHENT: val = sizeof(Elf64_Phdr); break;
		case AT_ENTRY: val = prog.entry; break;
		case AT_BASE: val = interp.base; break;
		case AT_EXECFN: val = (unsigned long)path; break;
		}
		newsp[k++] = type;
		newsp[k++] = val;
	}
	release_rseq();
	release_heap(brk0);
	sg_loader_jump(entry, newsp);
}
