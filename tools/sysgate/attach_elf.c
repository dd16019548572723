/* SPDX-License-Identifier: MIT */
/*
 * Reading ELF files for sysgate -p (attach_elf.h): the runtime image the
 * CLI maps into a process, hook libraries it links there, and the
 * libraries the process has loaded, whose symbols a hook imports.  The
 * files are input like any other: every offset and size is checked
 * against the file before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "attach_elf.h"

#define MAX_TABLE (64UL << 20)	/* a symbol or string table we read */
#define PAGE 4096UL
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))

static int bad(struct sg_elf *f, char *why, size_t n, const char *what)
{
	snprintf(why, n, "%s: %s", f->path, what);
	sg_elf_close(f);
	return -1;
}

int sg_elf_read(const struct sg_elf *f, unsigned long off, void *buf,
		unsigned long n)
{
	if (off > f->size || n > f->size - off)
		return -1;
	return pread(f->fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

long sg_elf_offset(const struct sg_elf *f, unsigned long v, unsigned long len)
{
	int i;

	for (i = 0; i < f->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type == PT_LOAD && v >= p->p_vaddr &&
		    v - p->p_vaddr <= p->p_filesz &&
		    len <= p->p_filesz - (v - p->p_vaddr))
			return (long)(p->p_offset + (v - p->p_vaddr));
	}
	return -1;
}

static int read_dynamic(struct sg_elf *f)
{
	int i;

	for (i = 0; i < f->eh.e_phnum; i++) {
		unsigned long n = f->ph[i].p_filesz / sizeof(Elf64_Dyn);

		if (f->ph[i].p_type != PT_DYNAMIC)
			continue;
		if (n > SG_ELF_MAX_DYN)
			n = SG_ELF_MAX_DYN;
		if (sg_elf_read(f, f->ph[i].p_offset, f->dyn,
				n * sizeof(Elf64_Dyn)) < 0)
			return -1;
		for (f->ndyn = 0; f->ndyn < (int)n &&
		     f->dyn[f->ndyn].d_tag != DT_NULL; f->ndyn++)
			;
		return 0;
	}
	return 0;
}

int sg_elf_open(struct sg_elf *f, const char *path, int machine, int exec_ok,
		char *why, size_t whylen)
{
	struct stat st;
	unsigned long hi = 0;
	int i;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		sg_elf_close(f);
		return -1;
	}
	f->size = st.st_size;
	if (sg_elf_read(f, 0, &f->eh, sizeof(f->eh)) < 0 ||
	    memcmp(f->eh.e_ident, ELFMAG, SELFMAG) ||
	    f->eh.e_ident[EI_CLASS] != ELFCLASS64)
		return bad(f, why, whylen, "not a 64-bit ELF file");
	if (f->eh.e_type != ET_DYN && (!exec_ok || f->eh.e_type != ET_EXEC))
		return bad(f, why, whylen, "not a shared object");
	if (machine && f->eh.e_machine != machine)
		return bad(f, why, whylen, "built for another machine");
	if (f->eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    f->eh.e_phnum > SG_ELF_MAX_PH ||
	    sg_elf_read(f, f->eh.e_phoff, f->ph,
			f->eh.e_phnum * sizeof(Elf64_Phdr)) < 0)
		return bad(f, why, whylen, "bad program headers");
	for (i = 0; i < f->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		if (p->p_filesz > p->p_memsz || p->p_offset > f->size ||
		    p->p_filesz > f->size - p->p_offset ||
		    p->p_memsz > (1UL << 40) || p->p_vaddr > (1UL << 40) ||
		    (p->p_vaddr & (PAGE - 1)) != (p->p_offset & (PAGE - 1)))
			return bad(f, why, whylen, "bad segment");
		if (p->p_vaddr + p->p_memsz > hi)
			hi = p->p_vaddr + p->p_memsz;
	}
	if (!hi)
		return bad(f, why, whylen, "nothing to load");
	f->span = UP(hi);
	if (read_dynamic(f) < 0)
		return bad(f, why, whylen, "bad dynamic section");
	return 0;
}

void sg_elf_close(struct sg_elf *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->sym);
	free(f->str);
	free(f->versym);
	f->sym = 0;
	f->str = 0;
	f->versym = 0;
}

unsigned long sg_elf_dyn(const struct sg_elf *f, long tag, unsigned long dflt)
{
	int i;

	for (i = 0; i < f->ndyn; i++)
		if (f->dyn[i].d_tag == tag)
			return f->dyn[i].d_un.d_val;
	return dflt;
}

int sg_elf_dynstr(const struct sg_elf *f, unsigned long off, char *buf,
		  size_t size)
{
	unsigned long strtab = sg_elf_dyn(f, DT_STRTAB, 0);
	unsigned long strsz = sg_elf_dyn(f, DT_STRSZ, 0);
	long at = sg_elf_offset(f, strtab, strsz);
	unsigned long n = size - 1;

	if (at < 0 || off >= strsz)
		return -1;
	if (n > strsz - off)
		n = strsz - off;
	if (sg_elf_read(f, at + off, buf, n) < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static void *read_table(const struct sg_elf *f, const Elf64_Shdr *s)
{
	void *p;

	if (s->sh_size > MAX_TABLE || !(p = malloc(s->sh_size + 1)))
		return 0;
	if (sg_elf_read(f, s->sh_offset, p, s->sh_size) < 0) {
		free(p);
		return 0;
	}
	((char *)p)[s->sh_size] = 0;
	return p;
}

int sg_elf_symbols(struct sg_elf *f, int dynamic)
{
	Elf64_Shdr *sh;
	unsigned long n = f->eh.e_shnum, i;
	int ok = -1;

	if (f->sym)
		return 0;
	if (!n || n > 4096 || f->eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !(sh = malloc(n * sizeof(*sh))))
		return -1;
	if (sg_elf_read(f, f->eh.e_shoff, sh, n * sizeof(*sh)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const Elf64_Shdr *s = &sh[i];

		if (s->sh_type != (dynamic ? SHT_DYNSYM : SHT_SYMTAB) ||
		    s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link >= n)
			continue;
		f->sym = read_table(f, s);
		f->str = read_table(f, &sh[s->sh_link]);
		f->nsym = s->sh_size / sizeof(Elf64_Sym);
		f->strsz = sh[s->sh_link].sh_size;
		break;
	}
	for (i = 0; dynamic && i < n; i++)
		if (sh[i].sh_type == SHT_GNU_versym &&
		    sh[i].sh_size >= f->nsym * 2)
			f->versym = read_table(f, &sh[i]);
	ok = f->sym && f->str ? 0 : -1;
out:
	free(sh);
	return ok;
}

const Elf64_Sym *sg_elf_lookup(const struct sg_elf *f, const char *name)
{
	const Elf64_Sym *weak = 0;
	unsigned long i;

	for (i = 1; i < f->nsym; i++) {
		const Elf64_Sym *s = &f->sym[i];
		int bind = ELF64_ST_BIND(s->st_info);

		if (s->st_shndx == SHN_UNDEF || s->st_name >= f->strsz ||
		    (bind != STB_GLOBAL && bind != STB_WEAK) ||
		    (f->versym && (f->versym[i] & 0x8000)) ||
		    strcmp(f->str + s->st_name, name))
			continue;
		if (bind == STB_GLOBAL)
			return s;
		weak = s;
	}
	return weak;
}

/* One table of Elf64_Rela (DT_RELA or DT_JMPREL). */
static int apply(const struct sg_elf *f, unsigned long base,
		 const Elf64_Phdr *rw, unsigned char *seg,
		 struct sg_elf_resolver *r, unsigned long at,
		 unsigned long size)
{
	long off = size ? sg_elf_offset(f, at, size) : 0;
	unsigned long k;

	if (off < 0) {
		snprintf(r->why, r->whylen, "%s: relocations outside the file",
			 f->path);
		return -1;
	}
	for (k = 0; k < size / sizeof(Elf64_Rela); k++) {
		Elf64_Rela e;
		unsigned long v, type, isym;

		if (sg_elf_read(f, off + k * sizeof(e), &e, sizeof(e)) < 0)
			return -1;
		type = ELF64_R_TYPE(e.r_info);
		isym = ELF64_R_SYM(e.r_info);
		if (type == R_X86_64_NONE)
			continue;
		if (e.r_offset < rw->p_vaddr ||
		    e.r_offset + 8 > rw->p_vaddr + rw->p_filesz) {
			snprintf(r->why, r->whylen, "%s: relocates its text "
				 "(build it with -fPIC)", f->path);
			return -1;
		}
		if (type == R_X86_64_RELATIVE)
			v = base + e.r_addend;
		else if ((type == R_X86_64_GLOB_DAT ||
			  type == R_X86_64_JUMP_SLOT || type == R_X86_64_64) &&
			 r && r->resolve)
		{
			if (r->resolve(r, f, base, isym, base + e.r_offset,
				       type == R_X86_64_64 ? e.r_addend : 0,
				       &v) < 0)
				return -1;
			if (type == R_X86_64_64)
				v += e.r_addend;
		} else {
			snprintf(r->why, r->whylen, "%s: relocation type %lu "
				 "is not handled (thread-local storage?)",
				 f->path, type);
			return -1;
		}
		memcpy(seg + (e.r_offset - rw->p_vaddr), &v, 8);
	}
	return 0;
}

int sg_elf_relocate(const struct sg_elf *f, unsigned long base,
		    const Elf64_Phdr *rw, unsigned char *seg,
		    struct sg_elf_resolver *r)
{
	if (sg_elf_dyn(f, DT_TEXTREL, 0) || (sg_elf_dyn(f, DT_FLAGS, 0) &
					     DF_TEXTREL)) {
		snprintf(r->why, r->whylen, "%s: relocates its text (build "
			 "it with -fPIC)", f->path);
		return -1;
	}
	if (sg_elf_dyn(f, DT_JMPREL, 0) &&
	    sg_elf_dyn(f, DT_PLTREL, DT_RELA) != DT_RELA) {
		snprintf(r->why, r->whylen, "%s: REL relocations", f->path);
		return -1;
	}
	if (apply(f, base, rw, seg, r, sg_elf_dyn(f, DT_RELA, 0),
		  sg_elf_dyn(f, DT_RELASZ, 0)) < 0)
		return -1;
	return apply(f, base, rw, seg, r, sg_elf_dyn(f, DT_JMPREL, 0),
		     sg_elf_dyn(f, DT_PLTRELSZ, 0));
}
