/* SPDX-License-Identifier: MIT */
/*
 * -k: the program's stack at a call, unwound in the process from this
 * hook's own frame with the objects' .eh_frame (DWARF CFI), through
 * sysgate's frames (the entry stubs' CFI makes the program's function
 * their caller) into the program's; then named from the objects'
 * .symtab or .dynsym, as strace -k prints it:
 *
 *    > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x10) [0xf8350]
 *
 * No libdw or libunwind is loaded into the program: the objects are
 * found in /proc/self/maps and read in memory (CFI) or from their files
 * (symbols) with raw system calls.  Nothing here knows the ISA: the
 * stack pointer's column is the compiler's, the return address's the
 * CIE's, and the walk starts from the frame pointer, whatever register
 * this function's CFI computes its CFA from.
 */
#include "trace.h"

#define NREG 34		/* DWARF columns kept (the integer registers) */
#define MAX_FRAMES 64
#define MAPS_MAX (1 << 16)
#define BLOB_MAX 1024	/* a CIE or FDE read at once */

struct regs {
	unsigned long v[NREG];
	unsigned char known[NREG];
};

enum { R_UNDEF, R_SAME, R_OFF, R_VALOFF, R_REG, R_EXPR, R_VALEXPR };

struct rules {
	unsigned char kind[NREG];
	long off[NREG];
	const unsigned char *expr[NREG];
	int cfa_reg;
	long cfa_off;
	const unsigned char *cfa_expr;
};

struct cie {
	unsigned long code_align;
	long data_align;
	int ra, fde_enc, signal, z;
	const unsigned char *insns, *end;
};

struct obj {
	unsigned long base, bias;	/* ELF header; load bias */
	char path[256];
};

static long nr(const char *name)
{
	return sysgate_syscall_number(name);
}

static int rd(void *dst, unsigned long src, unsigned long n)
{
	return sysgate_copy_nofault(dst, (const void *)src, n) ? -1 : 0;
}

/* --- /proc/self/maps ------------------------------------------------- */

static unsigned long hex(const char **p)
{
	unsigned long v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v << 4 | (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (unsigned long)(c - 'a' + 10);
		else
			return v;
	}
}

/* One line of /proc/self/maps: its range and its path (after the
 * fields between; empty for anonymous memory).  The next line. */
static const char *map_line(const char *p, unsigned long *start,
			    unsigned long *end, const char **path,
			    size_t *plen)
{
	*start = hex(&p);
	p++;
	*end = hex(&p);
	while (*p && *p != '\n' && *p != '/' && *p != '[')
		p++;
	*path = p;
	while (*p && *p != '\n')
		p++;
	*plen = (size_t)(p - *path);
	return *p ? p + 1 : p;
}

/*
 * The object pc lies in: the nearest mapping at or below pc, of the same
 * file (or anonymous, as sysgate's own image under -p, then joined to
 * pc's mapping without a gap), that starts with an ELF header.  Only
 * such mappings are read: the first bytes of any other could be a
 * device's registers, or pages a userfaultfd handler means to fill (a
 * read there filled them, or hung the program).  0, or -1.
 */
static int find_obj(const char *maps, unsigned long pc, struct obj *o)
{
	const char *p, *hit_path = 0, *path;
	size_t hit_len = 0, plen;
	unsigned long base = 0, start, end, run = 0, run_end = 0;

	for (p = maps; *p && !hit_path;) {
		p = map_line(p, &start, &end, &path, &plen);
		if (start > pc)
			break;
		/* (where a run of anonymous mappings without a gap starts) */
		if (plen || start != run_end)
			run = start;
		run_end = plen ? 0 : end;
		if (pc < end) {
			hit_path = path;
			hit_len = plen;
		}
	}
	if (!hit_path)
		return -1;
	for (p = maps; *p;) {
		unsigned char magic[4];

		p = map_line(p, &start, &end, &path, &plen);
		if (start > pc)
			break;
		if (plen != hit_len || hk_strncmp(path, hit_path, plen) ||
		    (!hit_len && start < run))
			continue;
		if (!rd(magic, start, 4) && magic[0] == 0x7f &&
		    magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F')
			base = start;
	}
	if (!base)
		return -1;
	o->base = base;
	if (hit_len >= sizeof(o->path))
		hit_len = sizeof(o->path) - 1;
	hk_memcpy(o->path, hit_path, hit_len);
	o->path[hit_len] = 0;
	return 0;
}

/* ELF64 program headers, in memory. */
struct phdr {
	unsigned int type, flags;
	unsigned long offset, vaddr, paddr, filesz, memsz, align;
};

/* The load bias and the .eh_frame_hdr's address: 0, or -1. */
static int obj_layout(struct obj *o, unsigned long *eh_hdr)
{
	unsigned char eh[64];
	unsigned long phoff;
	unsigned int i, phnum, have_bias = 0;

	*eh_hdr = 0;
	if (rd(eh, o->base, sizeof(eh)) || eh[4] != 2)	/* ELFCLASS64 */
		return -1;
	hk_memcpy(&phoff, eh + 32, 8);
	phnum = (unsigned int)(eh[56] | eh[57] << 8);
	for (i = 0; i < phnum && i < 64; i++) {
		struct phdr ph;

		if (rd(&ph, o->base + phoff + i * sizeof(ph), sizeof(ph)))
			return -1;
		if (ph.type == 1 && !have_bias) {	/* PT_LOAD */
			o->bias = o->base - (ph.vaddr - ph.offset);
			have_bias = 1;
		}
		if (ph.type == 0x6474e550)	/* PT_GNU_EH_FRAME */
			*eh_hdr = ph.vaddr;
	}
	if (!have_bias)
		return -1;
	if (*eh_hdr)
		*eh_hdr += o->bias;
	return 0;
}

/* --- DWARF encodings ---------------------------------------------------- */

static unsigned long uleb(const unsigned char **p, const unsigned char *end)
{
	unsigned long v = 0;
	int shift = 0;

	while (*p < end) {
		unsigned char b = *(*p)++;

		if (shift < 64)
			v |= (unsigned long)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static long sleb(const unsigned char **p, const unsigned char *end)
{
	long v = 0;
	int shift = 0;
	unsigned char b = 0;

	while (*p < end) {
		b = *(*p)++;
		if (shift < 64)
			v |= (long)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= -(1L << shift);
	return v;
}

/* An encoded pointer at *p (a copy of memory at addr + (*p - buf)). */
static int enc_ptr(const unsigned char **p, const unsigned char *end,
		   int enc, unsigned long addr, const unsigned char *buf,
		   unsigned long datarel, unsigned long *out)
{
	unsigned long here = addr + (unsigned long)(*p - buf), v = 0;
	const unsigned char *q = *p;
	int n = 0;

	if (enc == 0xff)
		return -1;
	switch (enc & 0x0f) {
	case 0x00: n = 8; break;
	case 0x01: v = uleb(&q, end); break;
	case 0x02: case 0x0a: n = 2; break;
	case 0x03: case 0x0b: n = 4; break;
	case 0x04: case 0x0c: n = 8; break;
	case 0x09: v = (unsigned long)sleb(&q, end); break;
	default: return -1;
	}
	if (n) {
		if (q + n > end)
			return -1;
		if (n == 2)
			v = (enc & 8) ? (unsigned long)(long)(short)(q[0] | q[1] << 8) :
					(unsigned long)(q[0] | q[1] << 8);
		else if (n == 4) {
			unsigned int u;

			hk_memcpy(&u, q, 4);
			v = (enc & 8) ? (unsigned long)(long)(int)u : u;
		} else {
			hk_memcpy(&v, q, 8);
		}
		q += n;
	}
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += here; break;
	case 0x30: v += datarel; break;
	default: return -1;
	}
	if ((enc & 0x80) && rd(&v, v, 8))
		return -1;
	*p = q;
	*out = v;
	return 0;
}

/* --- finding a pc's FDE ------------------------------------------------ */

/* The FDE that covers pc, through .eh_frame_hdr's sorted table: its
 * address, or 0. */
static unsigned long find_fde(unsigned long hdr, unsigned long pc)
{
	unsigned char h[16];
	const unsigned char *p = h + 4;
	unsigned long ehf, count, table;
	long lo, hi;
	int tenc, e[2];

	if (rd(h, hdr, sizeof(h)) || h[0] != 1)
		return 0;
	if (enc_ptr(&p, h + sizeof(h), h[1], hdr, h, hdr, &ehf) ||
	    enc_ptr(&p, h + sizeof(h), h[2], hdr, h, hdr, &count))
		return 0;
	tenc = h[3];
	if (tenc != 0x3b)	/* datarel sdata4: what linkers write */
		return 0;
	table = hdr + (unsigned long)(p - h);
	/* the last entry whose start is at or below pc */
	lo = 0;
	hi = (long)count;
	while (hi - lo > 1) {
		long mid = (lo + hi) / 2;

		if (rd(e, table + (unsigned long)mid * 8, 8))
			return 0;
		if (hdr + (unsigned long)(long)e[0] <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (!count || rd(e, table + (unsigned long)lo * 8, 8) ||
	    hdr + (unsigned long)(long)e[0] > pc)
		return 0;
	return hdr + (unsigned long)(long)e[1];
}

/* A CIE or FDE copied into buf: its length after the length field. */
static long blob(unsigned long addr, unsigned char *buf)
{
	unsigned int len;

	if (rd(&len, addr, 4) || !len || len == 0xffffffff || len > BLOB_MAX - 4 ||
	    rd(buf, addr, len + 4))
		return -1;
	return len;
}

static int parse_cie(unsigned long addr, unsigned char *buf, unsigned long hdr,
		     struct cie *c)
{
	long len = blob(addr, buf);
	const unsigned char *p = buf + 8, *end, *aug, *augdata_end = 0;
	int version;

	if (len < 0)
		return -1;
	end = buf + 4 + len;
	version = *p++;
	aug = p;
	while (p < end && *p)
		p++;
	p++;
	if (version >= 4)
		p += 2;
	c->code_align = uleb(&p, end);
	c->data_align = sleb(&p, end);
	c->ra = version == 1 ? *p++ : (int)uleb(&p, end);
	c->fde_enc = 0;
	c->signal = 0;
	c->z = *aug == 'z';
	if (*aug == 'z') {
		unsigned long n = uleb(&p, end);

		augdata_end = p + n;
		for (aug++; *aug; aug++) {
			unsigned long skip;

			if (*aug == 'R') {
				c->fde_enc = *p++;
			} else if (*aug == 'L') {
				p++;
			} else if (*aug == 'P') {
				int enc = *p++;

				if (enc_ptr(&p, end, enc & 0x7f, addr, buf, hdr,
					    &skip))
					return -1;
			} else if (*aug == 'S') {
				c->signal = 1;
			}
		}
		p = augdata_end;
	}
	if (p > end)
		return -1;
	c->insns = p;
	c->end = end;
	return 0;
}

/* --- the CFA program ---------------------------------------------------- */

static void rule_set(struct rules *r, unsigned long reg, int kind, long off,
		     const unsigned char *expr)
{
	if (reg >= NREG)
		return;
	r->kind[reg] = (unsigned char)kind;
	r->off[reg] = off;
	r->expr[reg] = expr;
}

/* DW_CFA_restore: reg's rule as the CIE's instructions left it. */
static void rule_restore(struct rules *r, unsigned long reg,
			 const struct rules *initial)
{
	if (initial && reg < NREG)
		rule_set(r, reg, initial->kind[reg], initial->off[reg],
			 initial->expr[reg]);
}

/* Runs insns until the location passes pc; 0, or -1. */
static int run_cfa(const unsigned char *p, const unsigned char *end,
		   const struct cie *c, unsigned long loc, unsigned long pc,
		   struct rules *r, const struct rules *initial)
{
	struct rules stack[8];
	int depth = 0;

	while (p < end) {
		unsigned char op = *p++;
		unsigned long reg, delta = 0;

		switch (op & 0xc0) {
		case 0x40:
			delta = (op & 0x3f) * c->code_align;
			goto advance;
		case 0x80:
			rule_set(r, op & 0x3f, R_OFF,
				 (long)uleb(&p, end) * c->data_align, 0);
			continue;
		case 0xc0:
			rule_restore(r, op & 0x3f, initial);
			continue;
		}
		switch (op) {
		case 0x00:
			continue;
		case 0x02:
			delta = *p++ * c->code_align;
			goto advance;
		case 0x03:
			delta = (unsigned long)(p[0] | p[1] << 8) * c->code_align;
			p += 2;
			goto advance;
		case 0x04: {
			unsigned int d;

			hk_memcpy(&d, p, 4);
			p += 4;
			delta = d * c->code_align;
			goto advance;
		}
		case 0x05:
			reg = uleb(&p, end);
			rule_set(r, reg, R_OFF, (long)uleb(&p, end) * c->data_align, 0);
			continue;
		case 0x06:
			rule_restore(r, uleb(&p, end), initial);
			continue;
		case 0x07:
			rule_set(r, uleb(&p, end), R_UNDEF, 0, 0);
			continue;
		case 0x08:
			rule_set(r, uleb(&p, end), R_SAME, 0, 0);
			continue;
		case 0x09:
			reg = uleb(&p, end);
			rule_set(r, reg, R_REG, (long)uleb(&p, end), 0);
			continue;
		case 0x0a:
			if (depth >= 8)
				return -1;
			stack[depth++] = *r;
			continue;
		case 0x0b:
			if (!depth)
				return -1;
			*r = stack[--depth];
			continue;
		case 0x0c:
			r->cfa_reg = (int)uleb(&p, end);
			r->cfa_off = (long)uleb(&p, end);
			r->cfa_expr = 0;
			continue;
		case 0x0d:
			r->cfa_reg = (int)uleb(&p, end);
			r->cfa_expr = 0;
			continue;
		case 0x0e:
			r->cfa_off = (long)uleb(&p, end);
			continue;
		case 0x0f:
			r->cfa_expr = p;
			p += uleb(&p, end);
			continue;
		case 0x10:
		case 0x16:
			reg = uleb(&p, end);
			rule_set(r, reg, op == 0x10 ? R_EXPR : R_VALEXPR, 0, p);
			p += uleb(&p, end);
			continue;
		case 0x11:
			reg = uleb(&p, end);
			rule_set(r, reg, R_OFF, sleb(&p, end) * c->data_align, 0);
			continue;
		case 0x12:
			r->cfa_reg = (int)uleb(&p, end);
			r->cfa_off = sleb(&p, end) * c->data_align;
			r->cfa_expr = 0;
			continue;
		case 0x13:
			r->cfa_off = sleb(&p, end) * c->data_align;
			continue;
		case 0x14:
			reg = uleb(&p, end);
			rule_set(r, reg, R_VALOFF, (long)uleb(&p, end) * c->data_align, 0);
			continue;
		case 0x15:
			reg = uleb(&p, end);
			rule_set(r, reg, R_VALOFF, sleb(&p, end) * c->data_align, 0);
			continue;
		case 0x2e:
			uleb(&p, end);
			continue;
		case 0x2f:
			reg = uleb(&p, end);
			rule_set(r, reg, R_OFF, -(long)uleb(&p, end) * c->data_align, 0);
			continue;
		default:
			return -1;
		}
advance:
		loc += delta;
		if (loc > pc)
			return 0;
	}
	return 0;
}

/* A DWARF expression (its length first), with push on the stack first
 * when has_push: 0, or -1. */
static int eval(const unsigned char *p, const struct regs *g, int has_push,
		unsigned long push, unsigned long *out)
{
	unsigned long st[16], len;
	const unsigned char *end;
	int n = 0;

	len = uleb(&p, p + 16);
	end = p + len;
	if (has_push)
		st[n++] = push;
	while (p < end) {
		unsigned char op = *p++;
		unsigned long v;

		if (n >= 15)
			return -1;
		if (op >= 0x30 && op <= 0x4f) {
			st[n++] = op - 0x30;
		} else if (op >= 0x70 && op <= 0x8f) {
			if (op - 0x70 >= NREG || !g->known[op - 0x70])
				return -1;
			st[n++] = g->v[op - 0x70] + (unsigned long)sleb(&p, end);
		} else {
			switch (op) {
			case 0x06:
				if (n < 1 || rd(&v, st[n - 1], 8))
					return -1;
				st[n - 1] = v;
				break;
			case 0x08: st[n++] = *p++; break;
			case 0x09: st[n++] = (unsigned long)(long)(signed char)*p++; break;
			case 0x10: st[n++] = uleb(&p, end); break;
			case 0x11: st[n++] = (unsigned long)sleb(&p, end); break;
			case 0x12:
				if (n < 1)
					return -1;
				st[n] = st[n - 1];
				n++;
				break;
			case 0x1c:
				if (n < 2)
					return -1;
				st[n - 2] -= st[n - 1];
				n--;
				break;
			case 0x22:
				if (n < 2)
					return -1;
				st[n - 2] += st[n - 1];
				n--;
				break;
			case 0x23:
				if (n < 1)
					return -1;
				st[n - 1] += uleb(&p, end);
				break;
			default:
				return -1;
			}
		}
	}
	if (n < 1)
		return -1;
	*out = st[n - 1];
	return 0;
}

/* The rules at pc, from its FDE. */
static int rules_at(const char *maps, unsigned long pc, struct rules *r,
		    struct cie *c, unsigned char *cbuf, unsigned char *fbuf)
{
	struct obj o;
	struct rules initial;
	unsigned long hdr, fde, cie, begin, range;
	const unsigned char *p, *end;
	unsigned int cie_off;
	long len;

	if (find_obj(maps, pc, &o) || obj_layout(&o, &hdr) || !hdr ||
	    !(fde = find_fde(hdr, pc)) || (len = blob(fde, fbuf)) < 0)
		return -1;
	hk_memcpy(&cie_off, fbuf + 4, 4);
	cie = fde + 4 - cie_off;
	if (parse_cie(cie, cbuf, hdr, c))
		return -1;
	p = fbuf + 8;
	end = fbuf + 4 + len;
	if (enc_ptr(&p, end, c->fde_enc, fde, fbuf, hdr, &begin) ||
	    enc_ptr(&p, end, c->fde_enc & 0x0f, fde, fbuf, hdr, &range) ||
	    pc < begin || pc >= begin + range)
		return -1;
	if (c->z)	/* the FDE's augmentation data, skipped */
		p += uleb(&p, end);
	hk_memset(r, 0, sizeof(*r));
	r->cfa_reg = -1;
	if (run_cfa(c->insns, c->end, c, begin, ~0UL, r, 0))
		return -1;
	initial = *r;
	return run_cfa(p, end, c, begin, pc, r, &initial);
}

/* One frame up: 0, or -1 at the end of what can be unwound. */
static int step(const char *maps, struct regs *g, unsigned long *pc,
		int first)
{
	unsigned char cbuf[BLOB_MAX], fbuf[BLOB_MAX];
	struct rules r;
	struct cie c;
	struct regs up;
	unsigned long cfa;
	int i, sp = __builtin_dwarf_sp_column();

	/* a return address is after the call: look up the call itself */
	if (rules_at(maps, first ? *pc : *pc - 1, &r, &c, cbuf, fbuf))
		return -1;
	if (r.cfa_expr) {
		if (eval(r.cfa_expr, g, 0, 0, &cfa))
			return -1;
	} else {
		if (r.cfa_reg < 0 || r.cfa_reg >= NREG || !g->known[r.cfa_reg])
			return -1;
		cfa = g->v[r.cfa_reg] + (unsigned long)r.cfa_off;
	}
	hk_memset(&up, 0, sizeof(up));
	for (i = 0; i < NREG; i++) {
		unsigned long v = 0;

		switch (r.kind[i]) {
		case R_UNDEF:
		case R_SAME:
			/* callee-saved registers no rule mentions keep their value */
			up.v[i] = g->v[i];
			up.known[i] = g->known[i] && i != c.ra;
			continue;
		case R_OFF:
			if (rd(&v, cfa + (unsigned long)r.off[i], 8))
				continue;
			break;
		case R_VALOFF:
			v = cfa + (unsigned long)r.off[i];
			break;
		case R_REG:
			if (r.off[i] >= NREG || !g->known[r.off[i]])
				continue;
			v = g->v[r.off[i]];
			break;
		case R_EXPR:
			if (eval(r.expr[i], g, 1, cfa, &v) || rd(&v, v, 8))
				continue;
			break;
		case R_VALEXPR:
			if (eval(r.expr[i], g, 1, cfa, &v))
				continue;
			break;
		}
		up.v[i] = v;
		up.known[i] = 1;
	}
	if (c.ra >= NREG || !up.known[c.ra] || !up.v[c.ra])
		return -1;
	if (sp >= 0 && sp < NREG && r.kind[sp] == R_UNDEF) {
		up.v[sp] = cfa;
		up.known[sp] = 1;
	}
	*pc = up.v[c.ra];
	*g = up;
	return 0;
}

static __attribute__((noinline)) unsigned long here(void)
{
	return (unsigned long)__builtin_return_address(0);
}

/*
 * The return addresses of the program's frames, innermost first, from
 * the one just after the system call instruction at (any frame outside
 * sysgate's own image when at is 0: a signal's): how many.
 */
static __attribute__((noinline)) int backtrace(unsigned long at,
					       const char *maps,
					       unsigned long *pcs)
{
	struct regs g;
	unsigned char cbuf[BLOB_MAX], fbuf[BLOB_MAX];
	struct rules r;
	struct cie c;
	struct obj self, o;
	unsigned long pc = here();
	int n = 0, i, found = 0;

	/* this function's own frame: its CFA comes from the frame pointer */
	hk_memset(&g, 0, sizeof(g));
	if (rules_at(maps, pc, &r, &c, cbuf, fbuf) || r.cfa_expr ||
	    r.cfa_reg < 0 || r.cfa_reg >= NREG)
		return 0;
	g.v[r.cfa_reg] = (unsigned long)__builtin_frame_address(0);
	g.known[r.cfa_reg] = 1;
	if (find_obj(maps, pc, &self))
		return 0;
	/* A call from sysgate's own text (a handler's return through
	 * sysgate's restorer, under syscall user dispatch): the program's
	 * frames begin at the first one that is not sysgate's. */
	if (at && !find_obj(maps, at, &o) && o.base == self.base)
		at = 0;
	for (i = 0; i < 4 * MAX_FRAMES && n < MAX_FRAMES; i++) {
		if (step(maps, &g, &pc, i == 0))
			break;
		/* sysgate's frames (its signal handling among the program's
		 * frames too) are not the program's */
		if (!find_obj(maps, pc, &o) && o.base == self.base)
			continue;
		/* the first frame of the program's: just after its call */
		if (!found && (!at || (pc > at && pc <= at + 16)))
			found = 1;
		/* nor is a signal trampoline: a signal's stack starts where
		 * it came, rt_sigreturn's where it returns to, as strace
		 * shows them */
		if (found && !(!rules_at(maps, pc - 1, &r, &c, cbuf, fbuf) &&
			       c.signal))
			pcs[n++] = pc;
	}
	return n;
}

/* --- symbols -------------------------------------------------------------- */

struct shdr {
	unsigned int name, type;
	unsigned long flags, addr, offset, size;
	unsigned int link, info;
	unsigned long align, entsize;
};

struct sym {
	unsigned int name;
	unsigned char info, other;
	unsigned short shndx;
	unsigned long value, size;
};

static long pread_(long fd, void *buf, unsigned long n, unsigned long off)
{
	return sysgate_syscall(nr("pread64"), fd, (long)buf, (long)n, (long)off,
			       0, 0);
}

/* The function symbol at or before vaddr in the file at path (.symtab,
 * else .dynsym; of names for one address the first in the table, as
 * strace's libdw picks them: lseek64 before llseek): its name into name
 * and its value. */
static int symbol(const char *path, unsigned long vaddr, char *name,
		  size_t size, unsigned long *value)
{
	unsigned char eh[64];
	struct shdr sh[128], *tab = 0;
	struct sym syms[128];
	unsigned long shoff, i, best = 0, best_name = 0, k;
	unsigned int shnum;
	int found = 0;
	long fd = sysgate_syscall(nr("openat"), -100, (long)path, 0x80000, 0, 0,
				  0);
	long n;

	if (fd < 0)
		return -1;
	if (pread_(fd, eh, sizeof(eh), 0) != sizeof(eh))
		goto fail;
	hk_memcpy(&shoff, eh + 40, 8);
	shnum = (unsigned int)(eh[60] | eh[61] << 8);
	if (shnum > 128 || pread_(fd, sh, shnum * sizeof(sh[0]), shoff) !=
			(long)(shnum * sizeof(sh[0])))
		goto fail;
	for (i = 0; i < shnum; i++)
		if (sh[i].type == 2 || (sh[i].type == 11 && !tab))
			tab = &sh[i];
	if (!tab || tab->link >= shnum)
		goto fail;
	for (k = 0; k < tab->size / sizeof(struct sym); k += 128) {
		n = pread_(fd, syms, sizeof(syms), tab->offset + k * sizeof(struct sym));
		if (n <= 0)
			break;
		for (i = 0; i < (unsigned long)n / sizeof(struct sym); i++) {
			struct sym *y = &syms[i];

			if ((y->info & 15) != 2 || !y->shndx || !y->value ||
			    y->value > vaddr || (found && y->value <= best))
				continue;
			best = y->value;
			best_name = y->name;
			found = 1;
		}
	}
	if (!found || size < 2)
		goto fail;
	n = pread_(fd, name, size - 1, sh[tab->link].offset + best_name);
	if (n <= 0)
		goto fail;
	name[n] = 0;
	name[size - 1] = 0;
	*value = best;
	sysgate_syscall(nr("close"), fd, 0, 0, 0, 0, 0);
	return 0;
fail:
	sysgate_syscall(nr("close"), fd, 0, 0, 0, 0, 0);
	return -1;
}

void trace_stack(struct fmt *f, const struct sysgate_sys *s,
		 void (*out)(struct fmt *))
{
	/* (once the main thread has exited, /proc/self has no memory: its
	 * maps read empty, this thread's do not) */
	static const char *const maps_of[2] = { "/proc/self/maps",
						"/proc/thread-self/maps" };
	char maps[MAPS_MAX];
	unsigned long pcs[MAX_FRAMES];
	long got = 0;
	int n, i;

	/* only in the traced process itself (not a tracer's) */
	if (s && s->pid != (int)sysgate_syscall(nr("getpid"), 0, 0, 0, 0, 0, 0))
		return;
	for (i = 0; i < 2 && got <= 0; i++)
		got = trace_read_file(maps_of[i], maps, MAPS_MAX - 1);
	if (got < 0)
		got = 0;
	maps[got] = 0;
	n = got > 0 ? backtrace(s ? (unsigned long)s->pc : 0, maps, pcs) : 0;
	for (i = 0; i < n; i++) {
		struct obj o;
		unsigned long h, vaddr, value;
		char name[256];

		if (find_obj(maps, pcs[i], &o) || obj_layout(&o, &h))
			break;
		vaddr = pcs[i] - o.bias;
		fmt_str(f, " > ");
		fmt_str(f, o.path);
		fmt_chr(f, '(');
		if (o.path[0] == '/' &&
		    !symbol(o.path, vaddr, name, sizeof(name), &value)) {
			fmt_str(f, name);
			fmt_str(f, "+");
			fmt_hex(f, vaddr - value);
		}
		fmt_str(f, ") [");
		fmt_hex(f, vaddr);
		fmt_str(f, "]\n");
		if (out)
			out(f);
	}
}
