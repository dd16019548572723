/* SPDX-License-Identifier: MIT */
/*
 * Clock reads for hooks without a system call: the vDSO's clock_gettime,
 * found by walking its dynamic symbol table (the vDSO is a tiny ELF with a
 * DT_HASH table, so the symbol count is nchain).  A program may unmap,
 * move or map over its vDSO (valgrind does, for its guest): from then on
 * the clock is read with the system call.
 */
#include <elf.h>
#include "sg.h"

typedef long (*clock_fn)(long, void *);
static clock_fn vdso_clock_gettime;
/* The vDSO's text and the data pages the kernel maps right below it
 * ([vvar]: a few pages, more with time namespaces), which its code reads. */
static unsigned long vdso_lo, vdso_hi;
#define VVAR_ROOM (64UL << 10)

void sg_vdso_init(unsigned long base)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = 0;
	const Elf64_Sym *sym = 0;
	const char *str = 0;
	const Elf64_Word *hash = 0;
	unsigned long load = 0;
	int i, found_load = 0;

	if (!base)
		return;
	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !found_load) {
			load = base + ph[i].p_offset - ph[i].p_vaddr;
			found_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const Elf64_Dyn *)(base + ph[i].p_offset);
		}
	}
	if (!dyn || !found_load)
		return;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const Elf64_Sym *)(load + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const char *)(load + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const Elf64_Word *)(load + dyn->d_un.d_ptr);
	}
	if (!sym || !str || !hash)
		return;
	vdso_lo = base > VVAR_ROOM ? base - VVAR_ROOM : 0;
	vdso_hi = base;
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD &&
		    base + ph[i].p_offset + ph[i].p_memsz > vdso_hi)
			vdso_hi = base + ph[i].p_offset + ph[i].p_memsz;
	for (i = 0; i < (int)hash[1]; i++)
		if (sym[i].st_shndx != SHN_UNDEF &&
		    !sg_strcmp(str + sym[i].st_name, SG_VDSO_CLOCK_GETTIME))
			vdso_clock_gettime = (clock_fn)(load + sym[i].st_value);
}

/* Called before a call that unmaps, moves, re-protects or maps over
 * [lo, hi): if that touches the vDSO, stop calling into it. */
void sg_vdso_forget(unsigned long lo, unsigned long hi)
{
	if (lo < vdso_hi && hi > vdso_lo)
		__atomic_store_n(&vdso_clock_gettime, 0, __ATOMIC_RELEASE);
}

static unsigned long long clock_ns(long clk)
{
	struct {
		long sec, nsec;
	} ts = { 0, 0 };
	clock_fn f = __atomic_load_n(&vdso_clock_gettime, __ATOMIC_ACQUIRE);

	if (!f || f(clk, &ts) < 0)
		sg_sc2(SG_NR_clock_gettime, clk, (long)&ts);
	return (unsigned long long)ts.sec * 1000000000ULL + ts.nsec;
}

unsigned long long sysgate_now_ns(void)
{
	return clock_ns(1 /* CLOCK_MONOTONIC */);
}

unsigned long long sysgate_realtime_ns(void)
{
	return clock_ns(0 /* CLOCK_REALTIME */);
}
