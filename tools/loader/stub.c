/* SPDX-License-Identifier: MIT */
/*
 * The installed loader's first code.  Its program headers map only the
 * pages of this code (tools/loader/stubify.c marked the loader's own
 * segments PT_SG_LOAD, which the kernel skips), so no mapping of the
 * file under the name it was started by needs to go again before the
 * program can be named in /proc/self/exe (loader.c: the kernel refuses a
 * new exe while the old path is mapped): remapping the loader's text,
 * read-only data and data there cost about 0.4 ms per process.  Here
 * every segment is mapped from sysgate-loader.text, the loader as linked
 * (where it has the same build ID), or from this file without it.
 *
 * Nothing outside these pages is mapped yet: everything is inlined
 * (flatten), and the entry and the only constants are emitted into the
 * same section (SG_LOADER_STUB_ENTRY).
 */
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include "sg.h"
#include "loader.h"
#include "loader_arch.h"

#define PAGE 4096UL
#define DOWN(x) ((x) & ~(PAGE - 1))
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))
#define AT_FDCWD_ (-100)

#define STUB_SECTION ".text.sg_stub"

SG_LOADER_STUB_ENTRY(STUB_SECTION, "/proc/self/exe", ".text",
		     "sysgate: sysgate-loader: cannot map itself");
extern const char sg_loader_stub_self[] SG_HIDDEN;
extern const char sg_loader_stub_suffix[] SG_HIDDEN;
extern const char sg_loader_stub_error[] SG_HIDDEN;
void sg_loader_stub(unsigned long *sp) SG_HIDDEN;

int sg_loader_from_link;

/* Whether the notes (the build ID) at [off, off + n) of files a and b
 * are the same. */
static inline int same_build(long a, long b, unsigned long off,
			     unsigned long n)
{
	unsigned char x[256], y[256];
	unsigned long i;

	if (!n || n > sizeof(x) ||
	    sg_sc4(SG_NR_pread64, a, (long)x, n, off) != (long)n ||
	    sg_sc4(SG_NR_pread64, b, (long)y, n, off) != (long)n)
		return 0;
	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

static inline void __attribute__((noreturn)) stub_fail(void)
{
	const char *e = sg_loader_stub_error;
	long n = 0;

	while (e[n] != '\n')
		n++;
	sg_sc3(SG_NR_write, 2, (long)e, n + 1);
	for (;;)
		sg_sc1(SG_NR_exit_group, 127);
}

__attribute__((section(STUB_SECTION), flatten, used))
void sg_loader_stub(unsigned long *sp)
{
	char **v = (char **)(sp + 1 + sp[0] + 1), path[4096 + 8];
	const char *execfn = 0;
	unsigned long *aux;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[32];
	unsigned long relro = 0;
	unsigned int load = PT_SG_LOAD;
	long fd, link, n, i;

	/* This very file (/proc/self/exe, even if it was replaced since)
	 * and its name with links resolved; without /proc, the name execve
	 * was given. */
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)sg_loader_stub_self,
		    O_RDONLY | O_CLOEXEC, 0);
	n = sg_sc3(SG_NR_readlink, (long)sg_loader_stub_self, (long)path, 4095);
	if (fd < 0 || n <= 0 || path[0] != '/') {
		while (*v)
			v++;
		aux = (unsigned long *)(v + 1);
		for (n = 0; aux[0] != AT_NULL; aux += 2)
			if (aux[0] == AT_EXECFN)
				for (execfn = (const char *)aux[1];
				     execfn[n] && n < 4095; n++)
					path[n] = execfn[n];
		path[n] = 0;
		if (fd < 0)
			fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path,
				    O_RDONLY | O_CLOEXEC, 0);
	}
	if (fd < 0 ||
	    sg_sc4(SG_NR_pread64, fd, (long)&eh, sizeof(eh), 0) != sizeof(eh) ||
	    eh.e_phnum > 32 ||
	    sg_sc4(SG_NR_pread64, fd, (long)ph, eh.e_phnum * sizeof(*ph),
		   eh.e_phoff) != (long)(eh.e_phnum * sizeof(*ph)))
		stub_fail();
	/* The bytes from sysgate-loader.text where it is this build. */
	for (i = 0; n < 4096 && (path[n] = sg_loader_stub_suffix[i]); i++)
		n++;
	path[n] = 0;
	link = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, O_RDONLY | O_CLOEXEC,
		      0);
	for (i = 0; link >= 0 && i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_NOTE)
			break;
	if (link >= 0 && i < eh.e_phnum &&
	    same_build(fd, link, ph[i].p_offset, ph[i].p_filesz) &&
	    sg_sc4(SG_NR_pread64, link, (long)ph, eh.e_phnum * sizeof(*ph),
		   eh.e_phoff) == (long)(eh.e_phnum * sizeof(*ph))) {
		/* (its own headers: PT_LOAD, and PT_GNU_RELRO) */
		sg_sc1(SG_NR_close, fd);
		fd = link;
		load = PT_LOAD;
	} else if (link >= 0) {
		sg_sc1(SG_NR_close, link);
		link = -1;
	}
	for (i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_GNU_RELRO)
			relro = ph[i].p_vaddr + ph[i].p_memsz;
	/* As the kernel maps a program's segments (loader.c: map_elf),
	 * but no mapping of the file is writable: the read-only data the
	 * static link relocated (RELRO) stays read-only, and the data after
	 * it is a copy (valgrind, for one, reads the symbols of a file it
	 * sees mapped writable, and warns of the entry code's CFI). */
	for (i = 0; i < eh.e_phnum; i++) {
		unsigned long start = DOWN(ph[i].p_vaddr), ro_end = start, a;
		unsigned long fend = ph[i].p_vaddr + ph[i].p_filesz;
		unsigned long mend = ph[i].p_vaddr + ph[i].p_memsz;
		int prot = (ph[i].p_flags & PF_R ? PROT_READ : 0) |
			   (ph[i].p_flags & PF_W ? PROT_WRITE : 0) |
			   (ph[i].p_flags & PF_X ? PROT_EXEC : 0);

		if (ph[i].p_type != load || !ph[i].p_filesz)
			continue;
		if (!(prot & PROT_WRITE))
			ro_end = UP(fend);
		else if (relro > start && relro <= UP(fend) &&
			 !(relro & (PAGE - 1)))
			ro_end = relro;
		if (ro_end > start &&
		    sg_sc6(SG_NR_mmap, start, ro_end - start,
			   prot & PROT_WRITE ? PROT_READ : prot,
			   MAP_PRIVATE | MAP_FIXED, fd,
			   DOWN(ph[i].p_offset)) != (long)start)
			stub_fail();
		a = ro_end > ph[i].p_vaddr ? ro_end : ph[i].p_vaddr;
		if (ro_end < UP(fend) &&
		    (sg_sc6(SG_NR_mmap, ro_end, UP(fend) - ro_end, prot,
			    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) !=
			     (long)ro_end ||
		     sg_sc4(SG_NR_pread64, fd, a, fend - a,
			    ph[i].p_offset + (a - ph[i].p_vaddr)) !=
			     (long)(fend - a)))
			stub_fail();
		if (UP(fend) < mend &&
		    sg_sc6(SG_NR_mmap, UP(fend), UP(mend) - UP(fend), prot,
			   MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) !=
			    (long)UP(fend))
			stub_fail();
	}
	sg_sc1(SG_NR_close, fd);
	sg_loader_from_link = link >= 0;
}
