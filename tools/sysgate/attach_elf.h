/* SPDX-License-Identifier: MIT */
/*
 * ELF files as sysgate -p maps them into a running process: the runtime
 * image and hook libraries (attach_elf.c).  Everything read from a file
 * is checked against the file's size before use.
 */
#ifndef SG_ATTACH_ELF_H
#define SG_ATTACH_ELF_H

#include <elf.h>
#include <stddef.h>

#define SG_ELF_MAX_PH 16
#define SG_ELF_MAX_DYN 128

struct sg_elf {
	char path[4096];
	int fd;
	unsigned long size;		/* of the file */
	Elf64_Ehdr eh;
	Elf64_Phdr ph[SG_ELF_MAX_PH];
	unsigned long span;		/* bytes of address space it needs */
	Elf64_Dyn dyn[SG_ELF_MAX_DYN];
	int ndyn;
	/* its symbol table (.dynsym or .symtab), once loaded */
	Elf64_Sym *sym;
	unsigned long nsym;
	char *str;
	unsigned long strsz;
	unsigned short *versym;		/* (.dynsym only; may be absent) */
};

/* Read and check path's headers: an ET_DYN (or, with exec_ok, ET_EXEC)
 * of machine (0: any).  0, or -1 with why. */
int sg_elf_open(struct sg_elf *f, const char *path, int machine, int exec_ok,
		char *why, size_t whylen);
void sg_elf_close(struct sg_elf *f);

/* The first value of tag in the dynamic section, or dflt. */
unsigned long sg_elf_dyn(const struct sg_elf *f, long tag,
			 unsigned long dflt);

/* Read n bytes at file offset off: 0 or -1 (outside the file). */
int sg_elf_read(const struct sg_elf *f, unsigned long off, void *buf,
		unsigned long n);

/* The file offset of virtual address v, or -1 if no segment has it. */
long sg_elf_offset(const struct sg_elf *f, unsigned long v,
		   unsigned long len);

/* The string at offset off of the dynamic string table, read into buf. */
int sg_elf_dynstr(const struct sg_elf *f, unsigned long off, char *buf,
		  size_t size);

/* Load the dynamic (dynamic=1) or full symbol table: 0 or -1. */
int sg_elf_symbols(struct sg_elf *f, int dynamic);

/* A defined global or weak symbol of that name (the default version),
 * or NULL. */
const Elf64_Sym *sg_elf_lookup(const struct sg_elf *f, const char *name);

/*
 * Symbol relocations ask resolve() for the value of symbol index isym
 * (0 with *value set, or -1 with why filled).  slot is where the value
 * goes in the process, base the object's load address.
 */
struct sg_elf_resolver {
	int (*resolve)(struct sg_elf_resolver *r, const struct sg_elf *f,
		       unsigned long base, unsigned long isym,
		       unsigned long slot, long addend, unsigned long *value);
	char *why;
	size_t whylen;
};

/* Apply f's relocations (loaded at base) to seg, a copy of writable
 * segment rw: 0, or -1 with why (a type not handled, a place outside
 * rw: text relocations are refused). */
int sg_elf_relocate(const struct sg_elf *f, unsigned long base,
		    const Elf64_Phdr *rw, unsigned char *seg,
		    struct sg_elf_resolver *r);

#endif
