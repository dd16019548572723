/* SPDX-License-Identifier: MIT */
/*
 * What the patcher needs from a loaded ELF object: its load bias, build-id
 * and the .eh_frame_hdr search table, which gives the start and end of
 * every function with unwind info.  Instructions are only ever decoded from
 * a function start, so bytes that merely look like a system call inside
 * data are never taken for one.
 *
 * Every read of the tables is bounds-checked against the object's readable
 * mappings: a damaged table, or one not mapped yet (ld.so maps a library's
 * text before its later segments), makes a site "unverified", never a
 * crash.
 */
#include <elf.h>
#include "patch.h"

int sg_obj_readable(const struct sg_obj *o, unsigned long addr,
		    unsigned long len)
{
	int i;

	if (addr + len < addr)
		return 0;
	for (i = 0; i < o->nrd; i++)
		if (addr >= o->rd[i].lo && addr + len <= o->rd[i].hi)
			return 1;
	return 0;
}

/* DWARF pointer encodings (DW_EH_PE_*) */
#define PE_OMIT 0xff
#define PE_FMT 0x0f
#define PE_APP 0x70
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

struct cursor {
	const struct sg_obj *o;
	unsigned long p, end;
	int bad;
};

static unsigned long get(struct cursor *c, int n)
{
	unsigned long v = 0;
	int i;

	if (c->bad || c->p + n > c->end || !sg_obj_readable(c->o, c->p, n)) {
		c->bad = 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (unsigned long)((const unsigned char *)c->p)[i] << (8 * i);
	c->p += n;
	return v;
}

static unsigned long uleb(struct cursor *c)
{
	unsigned long v = 0;
	int shift = 0;
	unsigned long b;

	do {
		b = get(c, 1);
		if (shift < 64)
			v |= (b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad);
	return v;
}

static long sleb(struct cursor *c)
{
	long v = 0;
	int shift = 0;
	unsigned long b;

	do {
		b = get(c, 1);
		if (shift < 64)
			v |= (long)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad);
	if (shift < 64 && (b & 0x40))
		v |= (long)(~0UL << shift);
	return v;
}

/* Decode a pointer; base is used for datarel; value_only skips pcrel. */
static unsigned long enc_ptr(struct cursor *c, int enc, unsigned long base,
			     int value_only)
{
	unsigned long at = c->p, v;

	if (enc == PE_OMIT)
		return 0;
	switch (enc & PE_FMT) {
	case 0x00: v = get(c, 8); break;
	case 0x01: v = uleb(c); break;
	case 0x02: v = get(c, 2); break;
	case 0x03: v = get(c, 4); break;
	case 0x04: v = get(c, 8); break;
	case 0x09: v = sleb(c); break;
	case 0x0a: v = (long)(short)get(c, 2); break;
	case 0x0b: v = (long)(int)get(c, 4); break;
	case 0x0c: v = get(c, 8); break;
	default: c->bad = 1; return 0;
	}
	if (value_only)
		return v;
	switch (enc & PE_APP) {
	case 0: break;
	case PE_PCREL: v += at; break;
	case PE_DATAREL: v += base; break;
	default: c->bad = 1; break;
	}
	return v;
}

static void find_build_id(struct sg_obj *o, unsigned long p, unsigned long len)
{
	unsigned long end = p + len;

	while (p + 12 <= end && sg_obj_readable(o, p, 12)) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)p;
		unsigned long name = p + 12;
		unsigned long desc = name + ((n->n_namesz + 3) & ~3UL);

		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    n->n_descsz <= sizeof(o->build_id) &&
		    sg_obj_readable(o, desc, n->n_descsz) &&
		    !sg_strncmp((const char *)name, "GNU", 4)) {
			memcpy(o->build_id, (const void *)desc, n->n_descsz);
			o->build_id_len = n->n_descsz;
			return;
		}
		p = desc + ((n->n_descsz + 3) & ~3UL);
	}
}

int sg_obj_parse(struct sg_obj *o, unsigned long ehdr_addr)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)ehdr_addr;
	const Elf64_Phdr *ph;
	unsigned long first_vaddr = ~0UL, ehf_vaddr = 0;
	int i;

	if (!sg_obj_readable(o, ehdr_addr, sizeof(*eh)) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) ||
	    !sg_obj_readable(o, ehdr_addr + eh->e_phoff,
			     (unsigned long)eh->e_phnum * sizeof(*ph)))
		return -1;
	ph = (const Elf64_Phdr *)(ehdr_addr + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0)
			first_vaddr = ph[i].p_vaddr;
	if (first_vaddr == ~0UL)
		first_vaddr = 0;
	o->bias = ehdr_addr - first_vaddr;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_GNU_EH_FRAME)
			ehf_vaddr = ph[i].p_vaddr;
		else if (ph[i].p_type == PT_NOTE && !o->build_id_len)
			find_build_id(o, o->bias + ph[i].p_vaddr,
				      ph[i].p_memsz);
	}
	if (ehf_vaddr)
		o->ehf_hdr = o->bias + ehf_vaddr;
	return 0;
}

unsigned long sg_obj_eh_frame_hdr(struct sg_obj *o)
{
	unsigned long hdr = o->ehf_hdr, version;
	struct cursor c = { o, hdr, o->hi, 0 };
	int ptr_enc, count_enc, table_enc;

	if (o->ehf_count || !o->ehf_hdr)
		return o->ehf_count;
	o->ehf_hdr = 0;		/* (read once) */
	version = get(&c, 1);
	ptr_enc = get(&c, 1);
	count_enc = get(&c, 1);
	table_enc = get(&c, 1);
	enc_ptr(&c, ptr_enc, c.p, 0);
	o->ehf_count = enc_ptr(&c, count_enc, hdr, 0);
	/* Only the usual fixed-size table can be binary searched. */
	if (!c.bad && version == 1 && table_enc == 0x3b &&
	    sg_obj_readable(o, c.p, o->ehf_count * 8)) {
		o->ehf = (const unsigned char *)hdr;
		o->ehf_table = (const unsigned char *)c.p;
		o->ehf_table_enc = table_enc;
	} else {
		o->ehf_count = 0;
	}
	return o->ehf_count;
}

static unsigned long table_loc(const struct sg_obj *o, unsigned long i)
{
	return (unsigned long)o->ehf + *(const int *)(o->ehf_table + 8 * i);
}

static unsigned long table_fde(const struct sg_obj *o, unsigned long i)
{
	return (unsigned long)o->ehf + *(const int *)(o->ehf_table + 8 * i + 4);
}

/* Index of the last table entry starting at or before addr, or -1. */
static long table_index(const struct sg_obj *o, unsigned long addr)
{
	long lo = 0, hi = (long)o->ehf_count - 1, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (table_loc(o, mid) <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

/* Parse the FDE at fde: its range and whether it names an LSDA. */
static int fde_range(const struct sg_obj *o, unsigned long fde,
		     unsigned long *start, unsigned long *end, int *has_lsda)
{
	struct cursor c = { o, fde, o->hi, 0 };
	unsigned long len = get(&c, 4), cie_ptr_at, cie, fde_end;
	int fde_enc = 0, lsda_enc = PE_OMIT, zaug = 0, sigframe = 0;
	const char *aug;
	unsigned long version, i;

	if (len == 0 || len == 0xffffffff)
		return -1;
	fde_end = c.p + len;
	cie_ptr_at = c.p;
	cie = cie_ptr_at - get(&c, 4);
	{
		struct cursor k = { o, cie, o->hi, 0 };
		unsigned long clen = get(&k, 4), cend = k.p + clen;

		k.end = cend;
		if (get(&k, 4) != 0)
			return -1;
		version = get(&k, 1);
		aug = (const char *)k.p;
		for (i = 0; i < 8 && get(&k, 1); i++)
			;
		if (k.bad)
			return -1;
		if (version >= 4)
			get(&k, 2);
		uleb(&k);
		sleb(&k);
		if (version == 1)
			get(&k, 1);
		else
			uleb(&k);
		if (aug[0] == 'z') {
			zaug = 1;
			uleb(&k);
			for (i = 1; aug[i] && !k.bad; i++) {
				if (aug[i] == 'R') {
					fde_enc = get(&k, 1);
				} else if (aug[i] == 'L') {
					lsda_enc = get(&k, 1);
				} else if (aug[i] == 'P') {
					int penc = get(&k, 1);

					enc_ptr(&k, penc & 0x7f, 0, 0);
				} else if (aug[i] == 'S') {
					sigframe = 1;
				} else if (aug[i] != 'B') {
					return -1;
				}
			}
		}
		if (k.bad)
			return -1;
	}
	c.end = fde_end;
	*start = enc_ptr(&c, fde_enc, 0, 0);
	*end = *start + enc_ptr(&c, fde_enc & PE_FMT, 0, 1);
	*has_lsda = 0;
	if (zaug) {
		unsigned long alen = uleb(&c), after = c.p + alen;

		if (lsda_enc != PE_OMIT && alen)
			*has_lsda = enc_ptr(&c, lsda_enc, 0, 0) != 0;
		c.p = after;
	}
	/*
	 * Signal trampolines (augmentation 'S') conventionally start their
	 * FDE one byte early, inside the preceding nop, so that unwinders
	 * looking up pc-1 find them: decode from the next byte, and treat
	 * the function like one with hidden entry points.
	 */
	if (sigframe) {
		*start += 1;
		*has_lsda = 1;
	}
	return c.bad ? -1 : 0;
}

/*
 * Static binaries are usually linked without .eh_frame_hdr: find
 * .eh_frame through the section headers in the file and build the same
 * sorted table (pairs of 32-bit offsets from .eh_frame's start) from its
 * FDEs, so lookups work the same way.
 */
/* The section headers and their names from the file, in a mapping of
 * their own: 12 KiB is too much for a signal stack (a site planned at
 * its first trap is planned there, and Go's are 32 KiB). */
struct sections {
	Elf64_Shdr sh[128];
	char names[4096];
	unsigned long names_len;
	int count;
};

static struct sections *read_sections(struct sg_obj *o)
{
	struct sections *s = sg_mmap(sizeof(*s));
	Elf64_Ehdr eh;
	Elf64_Shdr *str;

	if (!s)
		return 0;
	if (o->fd < 0 ||
	    sg_sc4(SG_NR_pread64, o->fd, (long)&eh, sizeof(eh), 0) != sizeof(eh) ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum ||
	    eh.e_shnum > 128 || eh.e_shstrndx >= eh.e_shnum ||
	    sg_sc4(SG_NR_pread64, o->fd, (long)s->sh, eh.e_shnum * sizeof(*s->sh),
		   eh.e_shoff) != (long)(eh.e_shnum * sizeof(*s->sh)))
		return s;
	str = &s->sh[eh.e_shstrndx];
	if (str->sh_size > sizeof(s->names) ||
	    sg_sc4(SG_NR_pread64, o->fd, (long)s->names, str->sh_size,
		   str->sh_offset) != (long)str->sh_size)
		return s;
	s->names_len = str->sh_size;
	s->count = eh.e_shnum;
	return s;
}

static void drop_sections(struct sections *s)
{
	if (s)
		sg_munmap(s, sizeof(*s));
}

int sg_obj_code_ranges(struct sg_obj *o, unsigned long r[][2], int max)
{
	struct sections *s = read_sections(o);
	int i, n = 0;

	for (i = 0; s && i < s->count && n < max; i++)
		if ((s->sh[i].sh_flags & SHF_EXECINSTR) && s->sh[i].sh_addr &&
		    s->sh[i].sh_type == SHT_PROGBITS) {
			r[n][0] = o->bias + s->sh[i].sh_addr;
			r[n][1] = r[n][0] + s->sh[i].sh_size;
			n++;
		}
	drop_sections(s);
	return n;
}

/* .eh_frame's section header, copied to *ehf; 0 if none. */
static int find_eh_frame(struct sg_obj *o, Elf64_Shdr *ehf)
{
	struct sections *s = read_sections(o);
	int i, found = 0;

	for (i = 0; s && i < s->count; i++)
		if (s->sh[i].sh_name < s->names_len - 10 &&
		    !sg_strcmp(s->names + s->sh[i].sh_name, ".eh_frame") &&
		    s->sh[i].sh_addr) {
			*ehf = s->sh[i];
			found = 1;
		}
	drop_sections(s);
	return found;
}

void sg_obj_index_eh_frame(struct sg_obj *o)
{
	Elf64_Shdr eh_frame, *ehf = &eh_frame;
	unsigned long p, end, n = 0, cap;
	int *table;

	memset(ehf, 0, sizeof(*ehf));
	if (sg_obj_eh_frame_hdr(o) || !find_eh_frame(o, ehf))
		return;
	p = o->bias + ehf->sh_addr;
	end = p + ehf->sh_size;
	if (!sg_obj_readable(o, p, ehf->sh_size))
		return;
	cap = ehf->sh_size / 16 + 1;	/* an FDE is at least 16 bytes */
	table = sg_mmap(cap * 8);
	if (!table)
		return;
	while (p + 8 <= end && n < cap) {
		unsigned int len = *(const unsigned int *)p;
		unsigned long start, fend;
		int lsda;

		if (len == 0 || len == 0xffffffff || p + 4 + len > end)
			break;
		if (*(const unsigned int *)(p + 4) != 0 &&	/* not a CIE */
		    fde_range(o, p, &start, &fend, &lsda) == 0 && start) {
			unsigned long k = n++;

			/* insertion: FDEs come mostly in address order */
			while (k && table[2 * (k - 1)] >
					    (int)(start - (o->bias + ehf->sh_addr))) {
				table[2 * k] = table[2 * (k - 1)];
				table[2 * k + 1] = table[2 * (k - 1) + 1];
				k--;
			}
			table[2 * k] = (int)(start - (o->bias + ehf->sh_addr));
			table[2 * k + 1] = (int)(p - (o->bias + ehf->sh_addr));
		}
		p += 4 + len;
	}
	o->ehf = (const unsigned char *)(o->bias + ehf->sh_addr);
	o->ehf_table = (const unsigned char *)table;
	o->ehf_count = n;
}

int sg_obj_function(struct sg_obj *o, unsigned long addr, unsigned long *start,
		    unsigned long *end, int *has_lsda)
{
	long i;

	if (!sg_obj_eh_frame_hdr(o))
		return -1;
	i = table_index(o, addr);
	if (i < 0 || fde_range(o, table_fde(o, i), start, end, has_lsda) < 0)
		return -1;
	return addr >= *start && addr < *end ? 0 : -1;
}

unsigned long sg_obj_next_function(struct sg_obj *o, unsigned long addr)
{
	long i = sg_obj_eh_frame_hdr(o) ? table_index(o, addr) : -1;

	if (!o->ehf_count || i + 1 >= (long)o->ehf_count)
		return 0;
	return table_loc(o, i + 1);
}

unsigned long sg_obj_prev_function_end(struct sg_obj *o, unsigned long addr)
{
	unsigned long s, e;
	int lsda;
	long i = sg_obj_eh_frame_hdr(o) ? table_index(o, addr) : -1;

	/* The function before the one containing addr. */
	if (i < 1 || fde_range(o, table_fde(o, i - 1), &s, &e, &lsda) < 0)
		return 0;
	return e;
}

int sg_obj_pad_taken(struct sg_obj *o, unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; i < o->npads; i++)
		if (o->pads[i] < hi && o->pads[i] + 8 > lo)
			return 1;
	return 0;
}

void sg_obj_pad_take(struct sg_obj *o, unsigned long addr)
{
	if (o->npads == o->pads_cap) {
		int cap = o->pads_cap ? 2 * o->pads_cap : 64;
		unsigned long *n = sg_mmap(cap * sizeof(*n));

		if (!n)
			return;
		if (o->pads) {
			memcpy(n, o->pads, o->npads * sizeof(*n));
			sg_munmap(o->pads, o->pads_cap * sizeof(*n));
		}
		o->pads = n;
		o->pads_cap = cap;
	}
	o->pads[o->npads++] = addr;
}
