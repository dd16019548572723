/* SPDX-License-Identifier: MIT */
/*
 * stubify IN OUT: the installed sysgate-loader from the linked one (which
 * is installed as sysgate-loader.text).  Its PT_LOAD segments become
 * PT_SG_LOAD, which the kernel skips, and two PT_LOADs take the place of
 * GNU_EH_FRAME and GNU_RELRO (unwinding and tools read the loader's
 * headers from the .text file, which the stub maps): the pages of
 * .text.sg_stub (the symbols named sg_loader_stub*), where the kernel
 * enters at sg_loader_stub_entry and tools/loader/stub.c maps the rest
 * from sysgate-loader.text; and the last page of the data segment with
 * its bss, so that the kernel puts the heap (brk) after the loader as
 * before.  A build tool, run on the build machine.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stub.h"

#define PAGE 4096UL
#define DOWN(x) ((x) & ~(PAGE - 1))
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))

static void die(const char *what)
{
	fprintf(stderr, "stubify: %s\n", what);
	exit(1);
}

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *b;
	long size;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph, out[64], *text = 0, *data = 0;
	Elf64_Shdr *sh;
	unsigned long lo = ~0UL, hi = 0, entry = 0;
	int i, n = 0, notes = 0;

	if (argc != 3)
		die("usage: stubify IN OUT");
	if (!(f = fopen(argv[1], "rb")) || fseek(f, 0, SEEK_END) ||
	    (size = ftell(f)) < (long)sizeof(*eh) || fseek(f, 0, SEEK_SET) ||
	    !(b = malloc(size)) || fread(b, 1, size, f) != (size_t)size)
		die("cannot read the loader");
	fclose(f);
	eh = (Elf64_Ehdr *)b;
	ph = (Elf64_Phdr *)(b + eh->e_phoff);
	sh = (Elf64_Shdr *)(b + eh->e_shoff);
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_type != ET_EXEC ||
	    eh->e_phnum > 64)
		die("not the loader as linked (a static ELF executable)");
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *s = (Elf64_Sym *)(b + sh[i].sh_offset);
		const char *names = (const char *)(b + sh[sh[i].sh_link].sh_offset);
		unsigned long k;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		for (k = 0; k < sh[i].sh_size / sizeof(*s); k++) {
			if (strncmp(names + s[k].st_name, "sg_loader_stub", 14))
				continue;
			if (s[k].st_value < lo)
				lo = s[k].st_value;
			if (s[k].st_value + s[k].st_size > hi)
				hi = s[k].st_value + s[k].st_size;
			if (!strcmp(names + s[k].st_name, "sg_loader_stub_entry"))
				entry = s[k].st_value;
		}
	}
	if (!entry || hi <= lo || UP(hi) - DOWN(lo) > 4 * PAGE)
		die("no stub of at most four pages (sg_loader_stub*)");
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr <= lo && hi <= ph[i].p_vaddr + ph[i].p_filesz &&
		    (ph[i].p_flags & PF_X))
			text = &ph[i];
		data = &ph[i];		/* (the last) */
	}
	if (!text || !(data->p_flags & PF_W) || !data->p_filesz)
		die("unexpected segments: stub outside the text, or no data");
	out[n] = *text;
	out[n].p_vaddr = out[n].p_paddr = DOWN(lo);
	out[n].p_offset = text->p_offset + (DOWN(lo) - text->p_vaddr);
	out[n].p_filesz = out[n].p_memsz = UP(hi) - DOWN(lo);
	n++;
	out[n] = *data;
	out[n].p_vaddr = out[n].p_paddr =
		DOWN(data->p_vaddr + data->p_filesz - 1);
	out[n].p_offset = data->p_offset + (out[n].p_vaddr - data->p_vaddr);
	out[n].p_filesz = data->p_vaddr + data->p_filesz - out[n].p_vaddr;
	out[n].p_memsz = data->p_vaddr + data->p_memsz - out[n].p_vaddr;
	n++;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_GNU_EH_FRAME || ph[i].p_type == PT_GNU_RELRO)
			continue;
		if (ph[i].p_type == PT_NOTE)
			notes++;
		out[n] = ph[i];
		if (out[n].p_type == PT_LOAD)
			out[n].p_type = PT_SG_LOAD;
		n++;
	}
	if (n > eh->e_phnum)
		die("no room for the stub's program headers");
	if (notes != 1)
		die("no build ID note (the stub compares it with the .text file's)");
	for (; n < eh->e_phnum; n++)
		memset(&out[n], 0, sizeof(out[n]));	/* PT_NULL */
	memcpy(ph, out, eh->e_phnum * sizeof(*ph));
	eh->e_entry = entry;
	if (!(f = fopen(argv[2], "wb")) || fwrite(b, 1, size, f) != (size_t)size ||
	    fclose(f))
		die("cannot write the loader");
	return 0;
}
