/* SPDX-License-Identifier: MIT */
/*
 * The patch mechanism, generic part (see patch.h).
 *
 * Order of work for each object (an ELF file or the vDSO):
 *   0. where trapped sites get patched, an object is left to traps
 *      instead: syscall user dispatch catches each site on its first
 *      run, and that one site goes through 2-5 below alone
 *      (leave_to_traps, sg_patch_first_trap);
 *   1. candidates: the arch's byte pre-filter over the executable bytes,
 *      read where they are mapped;
 *   2. planning: the arch decodes from the containing function's start
 *      (unwind info) and chooses a patch, or rejects the candidate;
 *   3. outside branches: every direct branch the object's bytes could
 *      encode is checked against the interiors of planned regions; a hit
 *      sends that site to the arch's fallback (padding trampoline or trap);
 *   4. stubs are written into a region within reach, made read+exec;
 *   5. sites are written while the pages are read+write (never write and
 *      exec at once), with signals blocked, then made read+exec again.
 *
 * This runs at start-up, single-threaded, with raw system calls only,
 * and again for each object loaded later.  Nothing is kept between runs:
 * planning costs about what the sites cost (see README, "Start-up").
 */
#include "patch.h"
#include "options.h"
#include "mech.h"
#include "traps.h"
#include "dispatch.h"
#include "signal_arch.h"
#include "zeropage.h"

#define O_RDONLY_ 0
#define O_CLOEXEC_ 02000000
#define SCAN_CHUNK (64 * 1024)
#define MAX_OBJS 256
#define SIGTRAP_ 5

struct region {
	unsigned long base, size, used;
};

static struct sg_obj *objs;
static int nobjs;
static struct region regions[64];
static int nregions;
static unsigned char *scan_buf;
static const struct sg_options *opts;

/* SIGTRAP is claimed once the first breakpoint is written (core/traps.c
 * keeps their table). */
static int trap_claimed;

static int has_stub(const struct sg_site *s)
{
	return s->kind != SG_PATCH_LEFT && s->kind != SG_PATCH_NONE;
}

struct total {
	int objects, candidates, sites;
	int kind[SG_PATCH_KINDS];
	int why[SG_WHY_COUNT];
	int data, unverified;
	int anon_exec;		/* executable memory with no ELF object */
	int anon_clean;		/* ... holding no system call instruction */
	int lazy;		/* objects left to traps (leave_to_traps) */
	unsigned long lazy_bytes;	/* their text */
	unsigned long read_bytes;	/* text read to find sites */
	int shared;		/* objects planned by another process */
	int zwhy[SG_ZWHY_COUNT];	/* -m zeropage: why sites kept stubs */
	unsigned long stub_bytes;
	unsigned long long ns;
	unsigned long long cpu_ns;	/* planning and patching, this thread's
					   CPU time: what a loaded machine
					   does not inflate */
} total;

static unsigned long long thread_cpu_ns(void)
{
	long ts[2] = { 0, 0 };

	sg_sc2(SG_NR_clock_gettime, 3 /* CLOCK_THREAD_CPUTIME_ID */, (long)ts);
	return ts[0] * 1000000000ULL + ts[1];
}

unsigned long sg_obj_view(const struct sg_obj *o, unsigned long addr,
			  unsigned long len)
{
	unsigned long end;
	int i;

	/* An object planned one site at a time is read from its file: the
	 * sites patched before must not change what the next one sees. */
	if (o->lazy)
		return 0;
	for (i = 0; i < o->ntext; i++) {
		if (addr < o->text[i].lo || addr >= o->text[i].hi)
			continue;
		if (!o->text[i].readable)
			return 0;
		end = o->text[i].hi;
		/* A page wholly past the file's end faults (SIGBUS); the vDSO
		 * has no file and is all there. */
		if (!o->is_vdso) {
			if (o->fd < 0 || o->file_size <= o->text[i].off)
				return 0;
			if (o->file_size - o->text[i].off < end - o->text[i].lo)
				end = o->text[i].lo +
				      ((o->file_size - o->text[i].off + PAGE - 1) &
				       ~(PAGE - 1));
		}
		if (addr >= end)
			return 0;
		return end - addr < len ? end - addr : len;
	}
	return 0;
}

/* Code is read where it is mapped: no copy, no system call, and what is
 * planned on is what runs (the file is the fallback). */
long sg_obj_read(struct sg_obj *o, unsigned long addr, void *buf,
		 unsigned long len)
{
	int i;

	if (sg_obj_view(o, addr, len) == len) {
		memcpy(buf, (const void *)addr, len);
		return len;
	}
	if (o->fd >= 0) {
		for (i = 0; i < o->ntext; i++)
			if (addr >= o->text[i].lo && addr + len <= o->text[i].hi)
				return sg_sc4(SG_NR_pread64, o->fd, (long)buf, len,
					      o->text[i].off + (addr - o->text[i].lo));
	}
	if (!sg_obj_readable(o, addr, len))
		return -14;
	memcpy(buf, (const void *)addr, len);
	return len;
}

/*
 * Call fn on all of o's text: each mapping in one piece where it can be
 * read in place, else in chunks read into scan_buf that overlap by
 * `overlap` bytes (so that a pattern split by a chunk's end is seen whole
 * in the next).  fn gets the bytes, their count and their address.
 */
static void for_each_text(struct sg_obj *o, unsigned long overlap,
			  void (*fn)(struct sg_obj *o, const unsigned char *p,
				     unsigned long n, unsigned long addr,
				     void *arg),
			  void *arg)
{
	int i;

	for (i = 0; i < o->ntext; i++) {
		unsigned long a = o->text[i].lo, n;

		while (a < o->text[i].hi) {
			unsigned long len = o->text[i].hi - a;
			long got;

			n = sg_obj_view(o, a, len);
			if (n) {
				/* (what follows, if anything, is past the
				 * file's end: no bytes to read there) */
				fn(o, (const unsigned char *)a, n, a, arg);
				a += n;
				continue;
			}
			if (len > SCAN_CHUNK)
				len = SCAN_CHUNK;
			got = sg_obj_read(o, a, scan_buf, len);
			if (got <= 0)
				break;
			fn(o, scan_buf, got, a, arg);
			a += (unsigned long)got > overlap ? (unsigned long)got - overlap :
							   (unsigned long)got;
		}
	}
}

/* --- /proc/self/maps ------------------------------------------------ */

struct mapping {
	unsigned long lo, hi, off, dev_ino[2];
	int prot;
	int shared;		/* MAP_SHARED: another view may write it */
	const char *path;
};

static unsigned long hex(const char **p)
{
	unsigned long v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + c - '0';
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + c - 'a' + 10;
		else
			return v;
	}
}

static int parse_line(const char *p, struct mapping *m)
{
	unsigned long maj, min;

	m->lo = hex(&p);
	if (*p++ != '-')
		return -1;
	m->hi = hex(&p);
	p++;
	m->prot = (p[0] == 'r' ? PROT_R : 0) | (p[1] == 'w' ? PROT_W : 0) |
		  (p[2] == 'x' ? PROT_X : 0);
	m->shared = p[3] == 's';
	p += 5;
	m->off = hex(&p);
	p++;
	maj = hex(&p);
	p++;
	min = hex(&p);
	p++;
	m->dev_ino[0] = maj << 32 | min;
	m->dev_ino[1] = 0;
	while (*p >= '0' && *p <= '9')
		m->dev_ino[1] = m->dev_ino[1] * 10 + *p++ - '0';
	while (*p == ' ')
		p++;
	m->path = p;
	return 0;
}

static char *read_maps(unsigned long *len)
{
	unsigned long cap = 1 << 20, n = 0;
	char *buf = sg_mmap(cap);
	long fd, r;

	if (!buf)
		return 0;
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)"/proc/self/maps",
		    O_RDONLY_ | O_CLOEXEC_, 0);
	if (fd < 0) {
		sg_munmap(buf, cap);
		return 0;
	}
	while (n < cap - 1 &&
	       (r = sg_sc3(SG_NR_read, fd, (long)(buf + n), cap - 1 - n)) > 0)
		n += r;
	sg_sc1(SG_NR_close, fd);
	buf[n] = 0;
	*len = cap;
	return buf;
}

/* The line of maps (NUL-terminated in place) that holds a, parsed. */
static int find_mapping(char *maps, unsigned long a, struct mapping *m)
{
	char *line = maps;

	while (*line) {
		char *nl = sg_strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (parse_line(line, m) == 0 && a >= m->lo && a < m->hi)
			return 0;
		if (!nl)
			break;
		line = nl + 1;
	}
	return -1;
}

/* sysgate_locate() (include/sysgate.h): what is mapped at addr. */
long sysgate_locate(const void *addr, char *path, size_t size,
		    unsigned long *file_off)
{
	unsigned long len, a = (unsigned long)addr;
	char *maps = read_maps(&len);
	struct mapping m;
	long ret = -2;	/* ENOENT */

	if (!maps)
		return -12;	/* ENOMEM */
	if (find_mapping(maps, a, &m) == 0) {
		sg_strlcpy(path, m.path, size);
		*file_off = a - m.lo + m.off;
		ret = 0;
	}
	sg_munmap(maps, len);
	return ret;
}

int sg_patch_mapping(unsigned long addr, struct sg_mapping_info *info)
{
	unsigned long len;
	char *maps = read_maps(&len);
	struct mapping m;
	int ret = -1;

	if (!maps)
		return -1;
	if (find_mapping(maps, addr, &m) == 0) {
		info->lo = m.lo;
		info->hi = m.hi;
		info->prot = m.prot;
		info->shared = m.shared;
		info->special = m.path[0] == '[';
		info->anon = !m.path[0];
		ret = 0;
	}
	sg_munmap(maps, len);
	return ret;
}

/* --- objects --------------------------------------------------------- */

static int same_file(const struct mapping *m, const struct sg_obj *o)
{
	return m->dev_ino[1] && m->dev_ino[0] == o->dev_ino[0] &&
	       m->dev_ino[1] == o->dev_ino[1];
}

/*
 * Group mappings into objects: a file's mapping at offset 0 starts one,
 * its later mappings join it (a file mapped twice makes two objects).
 */
static int collect_objects(char *maps, struct sg_obj *list, int max)
{
	char *line = maps;
	unsigned long self = (unsigned long)&collect_objects;
	int n = 0;

	while (*line) {
		char *nl = sg_strchr(line, '\n');
		struct mapping m;
		struct sg_obj *o = 0;
		int i, vdso;

		if (nl)
			*nl = 0;
		if (parse_line(line, &m) == 0) {
			vdso = !m.dev_ino[1] && !sg_strcmp(m.path, "[vdso]");
			for (i = n - 1; i >= 0 && !o; i--)
				if ((same_file(&m, &list[i]) && m.off) ||
				    (vdso && list[i].is_vdso))
					o = &list[i];
			if (!o && (m.dev_ino[1] || vdso) && n < max) {
				o = &list[n++];
				memset(o, 0, sizeof(*o));
				o->fd = -1;
				o->lo = m.lo;
				o->dev_ino[0] = m.dev_ino[0];
				o->dev_ino[1] = m.dev_ino[1];
				o->is_vdso = vdso;
				sg_strlcpy(o->path, m.path, sizeof(o->path));
			}
			if (o) {
				if (m.lo < o->lo)
					o->lo = m.lo;
				if (m.hi > o->hi)
					o->hi = m.hi;
				if ((m.prot & PROT_R) && o->nrd &&
				    o->rd[o->nrd - 1].hi == m.lo)
					o->rd[o->nrd - 1].hi = m.hi;
				else if ((m.prot & PROT_R) &&
					 o->nrd < SG_MAX_READABLE) {
					o->rd[o->nrd].lo = m.lo;
					o->rd[o->nrd].hi = m.hi;
					o->nrd++;
				}
				if ((m.prot & PROT_X) && o->ntext < SG_MAX_TEXT) {
					o->text[o->ntext].lo = m.lo;
					o->text[o->ntext].hi = m.hi;
					o->text[o->ntext].off = m.off;
					o->text[o->ntext].readable =
						(m.prot & PROT_R) != 0;
					o->text[o->ntext].fixed =
						!m.shared && !(m.prot & PROT_W);
					o->ntext++;
				}
				if (self >= m.lo && self < m.hi) {
					sg.self_text_lo = m.lo;
					sg.self_text_hi = m.hi;
					sg.self_lo = o->lo;
					o->ntext = 0;	/* never patch ourselves */
					o->path[0] = 0;
				}
			}
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return n;
}

static void open_object(struct sg_obj *o)
{
	struct {
		unsigned long dev, ino;
		unsigned long nlink;
		unsigned int mode, uid, gid, pad;
		unsigned long rdev;
		long size, blksize, blocks;
		unsigned long rest[9];
	} st;
	long fd;

	if (o->is_vdso || o->path[0] != '/')
		return;
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)o->path,
		    O_RDONLY_ | O_CLOEXEC_, 0);
	if (fd < 0)
		return;
	/* The file on disk must be the one mapped (not replaced since). */
	if (sg_sc2(SG_NR_fstat, fd, (long)&st) < 0 ||
	    st.ino != o->dev_ino[1]) {
		sg_sc1(SG_NR_close, fd);
		return;
	}
	o->fd = fd;
	o->file_size = st.size;
}

static struct sg_site *new_site(struct sg_obj *o)
{
	if (o->nsites == o->cap) {
		int cap = o->cap ? 2 * o->cap : 256;
		struct sg_site *n = sg_mmap(cap * sizeof(*n));

		if (!n)
			return 0;
		if (o->sites) {
			memcpy(n, o->sites, o->nsites * sizeof(*n));
			sg_munmap(o->sites, o->cap * sizeof(*n));
		}
		o->sites = n;
		o->cap = cap;
	}
	memset(&o->sites[o->nsites], 0, sizeof(*o->sites));
	return &o->sites[o->nsites];
}

/* Set while a site is planned at its first trap: under SUD an unpatched
 * site of a call no hook wants would trap at every call. */
static int want_all;

static int wanted(int nr)
{
	if (nr < 0 || opts->patch_all || want_all)
		return 1;
	return nr < SYSGATE_NR_MAX && sg_bit(sg.wanted, nr);
}

int sg_patch_wanted(int nr)
{
	return wanted(nr);
}

void sg_patch_selection(unsigned long sel[SG_SEL_WORDS])
{
	int i;

	for (i = 0; i < (int)SG_SEL_WORDS; i++)
		sel[i] = opts->patch_all ? ~0UL : sg.wanted[i];
}

static void plan_candidate(struct sg_obj *o, unsigned long addr)
{
	struct sg_site *s = new_site(o);
	int r;

	if (!s)
		return;
	total.candidates++;
	r = sg_patch_arch_plan(o, addr, s);
	if (r == 0) {
		o->n_data++;
		return;
	}
	if (r < 0) {
		o->n_unverified++;
		sg_watch_site(addr);	/* it may be a call: SUD catches it */
		return;
	}
	o->nsites++;
}

/* Room for n sites, for a plan another process made (plans.c). */
static struct sg_site *alloc_sites(struct sg_obj *o, unsigned long n)
{
	o->sites = sg_mmap((n + 1) * sizeof(*o->sites));
	o->cap = o->sites ? n + 1 : 0;
	return o->sites;
}

/* Sites whose call no hook selects stay as they are (the arch planner
 * already leaves those whose number it knows: see sg_patch_wanted). */
/* -m int3: every site a breakpoint, for comparing mechanisms.
 * -m sud and -m seccomp: every call is caught by syscall user dispatch or
 * the seccomp filter; where the arch cannot make a caught clone or vfork
 * at the program's own stack (SG_ARCH_TRAP_RAW), the sites of calls that
 * must run there (clone, vfork, rt_sigreturn) are patched.
 * -m zeropage: every site with a stub whose red zone is proven unused
 * becomes `call *%rax` (mechanisms/zeropage); the others keep theirs. */
static int all_traps, sud_mode, zero_mode;
static const char *mode_name = "patch";

/* Rewrite only the system call instruction itself, as `kind`. */
static void in_place(struct sg_site *s, int kind)
{
	memmove(s->orig, s->orig + (s->addr - s->lo), s->insn_len);
	s->kind = kind;
	s->lo = s->addr;
	s->hi = s->addr + s->insn_len;
	s->interior = 0;
}

static void as_trap(struct sg_site *s)
{
	in_place(s, SG_PATCH_TRAP);
}

static void apply_selection(struct sg_obj *o)
{
	int i;

	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];

		if (has_stub(s) && sg_attach_busy(s->lo, s->hi)) {
			s->kind = SG_PATCH_NONE;
			s->why = SG_WHY_BUSY;
		} else if (s->kind != SG_PATCH_NONE &&
		    (!wanted(s->nr) ||
		     (sud_mode && !(!SG_ARCH_TRAP_RAW && s->nr >= 0 &&
				    sg_raw_only(s->nr)))))
			s->kind = SG_PATCH_LEFT;
		else if (all_traps && has_stub(s) && s->kind != SG_PATCH_TRAP)
			as_trap(s);
		else if (zero_mode && has_stub(s) && s->zwhy == SG_ZWHY_OK)
			in_place(s, SG_PATCH_ZERO);
	}
	sg_patch_arch_finish(o);
}

static void scan_text(struct sg_obj *o, const unsigned char *p,
		      unsigned long n, unsigned long addr, void *arg)
{
	unsigned long done = 0;

	(void)arg;
	while (done + SG_CANDIDATE_LEN <= n) {
		long k = sg_patch_arch_scan(p + done, n - done);

		if (k < 0)
			break;
		plan_candidate(o, addr + done + k);
		done += k + SG_INSN_ALIGN;
	}
}

static void scan_object(struct sg_obj *o)
{
	/* (a candidate split across chunks is seen once, on the arch's code
	 * alignment) */
	for_each_text(o, SG_CANDIDATE_LEN - SG_INSN_ALIGN, scan_text, 0);
}

/* --- linear sweep of a text mapping (rv64, aarch64) -------------------- */

#define SWEEP_MAX (64UL << 20)
#define SWEEP_BITS (SWEEP_MAX / SG_INSN_ALIGN / 8)

static int sweep_bit(const unsigned char *m, unsigned long i)
{
	return (m[i >> 3] >> (i & 7)) & 1;
}

static void sweep_set(unsigned char *m, unsigned long i)
{
	m[i >> 3] |= 1 << (i & 7);
}

/* Without section headers (vDSO, memfd code) all of the mapping counts. */
static int in_code(unsigned long a, unsigned long code[][2], int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a >= code[i][0] && a < code[i][1])
			return 1;
	return n == 0;
}

void sg_text_sweep_release(struct sg_text_sweep *f)
{
	if (f->code) {
		sg_munmap(f->code, SWEEP_MAX);
		sg_munmap(f->starts, SWEEP_BITS);
		sg_munmap(f->targets, SWEEP_BITS);
	}
	memset(f, 0, sizeof(*f));
}

int sg_text_sweep(struct sg_text_sweep *f, struct sg_obj *o,
		  unsigned long addr, sg_sweep_step step)
{
	unsigned long start = 0, end = 0, len, off = 0, code[8][2];
	long got;
	int t, nr;

	for (t = 0; t < o->ntext; t++)
		if (addr >= o->text[t].lo && addr < o->text[t].hi) {
			start = o->text[t].lo;
			end = o->text[t].hi;
		}
	if (f->obj == o && f->start == start && f->end == end)
		return f->ok;
	f->obj = o;
	f->start = start;
	f->end = end;
	f->ok = 0;
	len = end - start;
	if (!len || len > SWEEP_MAX || (start & (SG_INSN_ALIGN - 1)))
		return 0;
	if (!f->code) {
		f->code = sg_mmap(SWEEP_MAX);
		f->starts = sg_mmap(SWEEP_BITS);
		f->targets = sg_mmap(SWEEP_BITS);
		if (!f->code || !f->starts || !f->targets)
			return 0;
	}
	/* A text mapping may run past the end of its file: sweep what the
	 * file holds. */
	got = sg_obj_read(o, start, f->code, len);
	if (got <= 0)
		return 0;
	len = f->len = (unsigned long)got;
	memset(f->starts, 0, (len / SG_INSN_ALIGN + 7) / 8);
	memset(f->targets, 0, (len / SG_INSN_ALIGN + 7) / 8);
	nr = sg_obj_code_ranges(o, code, 8);
	while (off < len) {
		long tg = SG_NO_TARGET;
		int n = in_code(start + off, code, nr) ?
				step(f->code + off, len - off, &tg) : 0;

		if (!n) {
			off += SG_INSN_ALIGN;
			continue;
		}
		sweep_set(f->starts, off / SG_INSN_ALIGN);
		if (tg != SG_NO_TARGET) {
			tg += (long)off;
			if (tg >= 0 && (unsigned long)tg < len)
				sweep_set(f->targets, tg / SG_INSN_ALIGN);
		}
		off += n;
	}
	f->ok = 1;
	return 1;
}

const unsigned char *sg_text_sweep_insn(const struct sg_text_sweep *f,
					unsigned long addr)
{
	unsigned long off = addr - f->start;

	if (!f->ok || addr < f->start || off >= f->len ||
	    (off & (SG_INSN_ALIGN - 1)) ||
	    !sweep_bit(f->starts, off / SG_INSN_ALIGN))
		return 0;
	return f->code + off;
}

int sg_text_sweep_is_target(const struct sg_text_sweep *f, unsigned long addr)
{
	return f->ok && addr >= f->start && addr - f->start < f->len &&
	       sweep_bit(f->targets, (addr - f->start) / SG_INSN_ALIGN);
}

/* --- branches from elsewhere in the object ----------------------------- */

/*
 * A jump over several instructions breaks any branch into its interior.
 * The arch checks branches in the site's own function and its rel8
 * neighbours; a rel32 branch may come from anywhere in the object (a
 * function's .cold part jumping back into it, hand-written assembly), so
 * every byte pattern that could encode one is checked here.  Patterns
 * are common (every call), interiors few: a bitmap of the BLOCK-byte
 * blocks that hold an interior rejects nearly all of them at once.
 */
#define BLOCK_SHIFT 6

struct interior_check {
	struct sg_obj *o;
	int *idx;		/* interior sites, sorted by region start */
	int n;
	struct sg_target_filter f;	/* the blocks that hold an interior */
};

static void check_target(unsigned long target, void *arg)
{
	struct interior_check *c = arg;
	int lo = 0, hi = c->n - 1;

	/* Find the last region starting before target. */
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		struct sg_site *s = &c->o->sites[c->idx[mid]];

		if (s->lo < target) {
			if (target < s->hi) {
				sg_patch_arch_fallback(c->o, s);
				return;
			}
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
}

static void check_text(struct sg_obj *o, const unsigned char *p,
		       unsigned long n, unsigned long addr, void *arg)
{
	struct interior_check *c = arg;

	(void)o;
	sg_patch_arch_targets(p, n, addr, &c->f, check_target, arg);
}

static void check_outside_branches(struct sg_obj *o)
{
	struct interior_check c = { o, 0, 0, { o->lo, 0, 0, BLOCK_SHIFT } };
	unsigned char *blocks;
	unsigned long bsize, a;
	int i, j;

	c.f.nblocks = ((o->hi - o->lo) >> BLOCK_SHIFT) + 1;
	bsize = c.f.nblocks / 8 + 1;
	c.idx = sg_mmap((o->nsites + 1) * sizeof(int));
	c.f.blocks = blocks = sg_mmap(bsize);
	if (!c.idx || !blocks)
		goto out;
	for (i = 0; i < o->nsites; i++)
		if (o->sites[i].interior && has_stub(&o->sites[i]) &&
		    o->sites[i].kind != SG_PATCH_TRAP)
			c.idx[c.n++] = i;
	/* Insertion sort by region start (sites are mostly in order). */
	for (i = 1; i < c.n; i++)
		for (j = i; j > 0 && o->sites[c.idx[j - 1]].lo >
					     o->sites[c.idx[j]].lo; j--) {
			int t = c.idx[j];

			c.idx[j] = c.idx[j - 1];
			c.idx[j - 1] = t;
		}
	for (i = 0; i < c.n; i++) {
		struct sg_site *s = &o->sites[c.idx[i]];

		for (a = s->lo; a < s->hi; a += 1UL << BLOCK_SHIFT)
			sweep_set(blocks, (a - o->lo) >> BLOCK_SHIFT);
		sweep_set(blocks, (s->hi - 1 - o->lo) >> BLOCK_SHIFT);
	}
	/* (the longest pattern is 6 bytes) */
	if (c.n)
		for_each_text(o, 16, check_text, &c);
out:
	if (c.idx)
		sg_munmap(c.idx, (o->nsites + 1) * sizeof(int));
	if (blocks)
		sg_munmap(blocks, bsize);
}

/* Find and plan every site of o from its code alone (no shared plan):
 * what tests/rewrite golden-tests, with options of its own. */
void sg_patch_plan(struct sg_obj *o, const struct sg_options *with)
{
	if (with)
		opts = with;
	scan_object(o);
	check_outside_branches(o);
}

/* --- stub regions ------------------------------------------------------ */

static unsigned long distance(unsigned long a, unsigned long b)
{
	return a > b ? a - b : b - a;
}

/* How far a site's jump reaches: the ISA's, or less (--stub-reach, for
 * testing what happens when no memory is free in reach). */
static unsigned long reach(void)
{
	return opts->stub_reach >= 0 ? (unsigned long)opts->stub_reach << 20 :
				       SG_STUB_REACH;
}

/* a and b are within reach, with margin to spare. */
static int in_reach(unsigned long a, unsigned long b, unsigned long margin)
{
	return distance(a, b) + margin < reach();
}

static int region_reaches(const struct region *r, const struct sg_obj *o)
{
	return in_reach(r->base, o->lo, 1UL << 24) &&
	       in_reach(r->base + r->size, o->hi, 1UL << 24);
}

static struct region *map_region(long p, unsigned long size)
{
	struct region *r = &regions[nregions++];
	unsigned long *hdr = (unsigned long *)p;

	r->base = p;
	r->size = size;
	r->used = 64;
	hdr[0] = sg_patch_arch_entry;
	hdr[1] = sg_patch_arch_after;
	hdr[2] = sg_patch_arch_relay;
	return r;
}

static struct region *new_region(const struct sg_obj *o, unsigned long size)
{
	long step;

	size = (size + 0xffff) & ~0xffffUL;
	if (nregions == (int)ARRAY_SIZE(regions))
		return 0;
	/* Try just after the object, then before it, in 1 MiB steps (the
	 * hint is only tried where it could still be in reach). */
	for (step = 0; step < 1024 && (unsigned long)step << 20 < reach();
	     step++) {
		unsigned long hint[2] = {
			((o->hi + 0xfffff) & ~0xfffffUL) + step * 0x100000UL,
			((o->lo & ~0xfffffUL) - size) - step * 0x100000UL,
		};
		int k;

		for (k = 0; k < 2; k++) {
			long p = sg_sc6(SG_NR_mmap, hint[k], size, PROT_R | PROT_W,
					MAP_PRIVATE_ANON | MAP_FIXED_NOREPLACE,
					-1, 0);

			if (sysgate_is_error(p))
				continue;
			if (in_reach(p, o->lo, size) &&
			    in_reach(p + size, o->hi, size))
				return map_region(p, size);
			sg_munmap((void *)p, size);
		}
	}
	return 0;
}

static struct region *region_for(const struct sg_obj *o, unsigned long need)
{
	unsigned long size;
	int i;

	for (i = 0; i < nregions; i++)
		if (region_reaches(&regions[i], o) &&
		    regions[i].size - regions[i].used >= need)
			return &regions[i];
	/* (smaller under a tight RLIMIT_AS: see sg_mem_fit) */
	size = sg_mem_fit(1UL << 20, 64UL << 10);
	return new_region(o, need > size ? need : size);
}

/* --- writing ----------------------------------------------------------- */

static int writable(unsigned long lo, unsigned long hi, int on)
{
	lo &= ~(PAGE - 1);
	hi = (hi + PAGE - 1) & ~(PAGE - 1);
	return sg_sc3(SG_NR_mprotect, lo, hi - lo,
		      on ? (PROT_R | PROT_W) : (PROT_R | PROT_X)) < 0 ? -1 : 0;
}

/* Write through /proc/self/mem: works on read+exec pages unchanged.
 * Start-up and new-code scans keep one descriptor for all their sites. */
static long memfd = -1;

static long open_mem(void)
{
	return sg_sc4(SG_NR_openat, AT_FDCWD_, (long)"/proc/self/mem",
		      02 | O_CLOEXEC_, 0);
}

static int write_mem(long fd, unsigned long addr, const void *buf,
		     unsigned long len)
{
	return sg_sc4(SG_NR_pwrite64, fd, (long)buf, len, addr) ==
		       (long)len ? 0 : -1;
}

static int poke(unsigned long addr, const void *buf, unsigned long len)
{
	if (memfd < 0)
		memfd = open_mem();
	return memfd < 0 ? -1 : write_mem(memfd, addr, buf, len);
}


static int text_of(const struct sg_obj *o, unsigned long a)
{
	int i;

	for (i = 0; i < o->ntext; i++)
		if (a >= o->text[i].lo && a < o->text[i].hi)
			return i;
	return -1;
}

/* The site's trap, and the one its stub may return through. */
static int add_trap(const struct sg_site *s)
{
	if (sg_patch_arch_trap_back &&
	    sg_traps_add(s->stub + sg_patch_arch_trap_back,
			 s->addr + s->insn_len) < 0)
		return -1;
	return sg_traps_add(s->addr, s->stub);
}

/* SIGTRAP claim: a trapped site resumes in its stub, which makes the
 * system call through sysgate and jumps back after the instruction. */
static int on_trap(int sig, struct sg_siginfo *info, void *uc)
{
	unsigned long *pc = sg_arch_uc_pc(uc);
	unsigned long resume;

	(void)sig;
	if (info->si_code != SG_TRAP_SI_CODE)
		return 0;
	resume = sg_traps_find(*pc - SG_TRAP_PC_BACK);
	if (!resume)
		return 0;
	*pc = resume;
	return 1;
}

static int write_sites(struct sg_obj *o)
{
	int i, t, direct[SG_MAX_TEXT] = { 0 };

	/* Make each text mapping that has sites writable (not executable). */
	for (t = 0; t < o->ntext; t++) {
		for (i = 0; i < o->nsites; i++)
			if (has_stub(&o->sites[i]) &&
			    text_of(o, o->sites[i].addr) == t)
				break;
		if (i < o->nsites && !o->is_vdso)
			direct[t] = writable(o->text[t].lo, o->text[t].hi, 1) == 0;
	}
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		unsigned char bytes[SG_SITE_MAX_REGION], pad[16];
		int plen, ti;

		unsigned long lo = s->lo, len = s->hi - s->lo;

		if (!has_stub(s))
			continue;
		/* The bytes must still be what was planned on. */
		if (memcmp((const void *)s->lo, s->orig, s->hi - s->lo)) {
			s->kind = SG_PATCH_NONE;
			continue;
		}
		plen = 0;
		if (s->kind == SG_PATCH_TRAP) {
			/* Record first: a thread may hit the trap at once. */
			if (add_trap(s) < 0) {
				s->kind = SG_PATCH_NONE;
				continue;
			}
			lo = s->addr;
			len = sg_patch_arch_trap_bytes(s, bytes);
		} else {
			sg_patch_arch_site_bytes(s, bytes);
			if (s->kind == SG_PATCH_PAD)
				plen = sg_patch_arch_pad_bytes(s, pad);
		}
		ti = text_of(o, lo);
		if (ti >= 0 && direct[ti] && text_of(o, lo + len - 1) == ti &&
		    (!plen || text_of(o, s->pad) == ti)) {
			if (plen && sg_attach_note(s->pad, pad, plen) == 0)
				memcpy((void *)s->pad, pad, plen);
			if (sg_attach_note(lo, bytes, len) == 0)
				memcpy((void *)lo, bytes, len);
		} else if ((plen && (sg_attach_note(s->pad, pad, plen) < 0 ||
				     poke(s->pad, pad, plen))) ||
			   sg_attach_note(lo, bytes, len) < 0 ||
			   poke(lo, bytes, len)) {
			s->kind = SG_PATCH_NONE;
		}
	}
	for (t = 0; t < o->ntext; t++) {
		if (direct[t])
			writable(o->text[t].lo, o->text[t].hi, 0);
		sg_arch_flush_code(o->text[t].lo, o->text[t].hi);
	}
	return 0;
}

static void place_stubs(struct sg_obj *o)
{
	unsigned long need = 0;
	struct region *r;
	int i;

	for (i = 0; i < o->nsites; i++)
		if (has_stub(&o->sites[i]))
			need += (sg_patch_arch_stub_size(&o->sites[i]) + 15) & ~15UL;
	if (!need)
		return;
	r = region_for(o, need);
	if (!r && sg_patch_arch_trap_far && nregions < (int)ARRAY_SIZE(regions)) {
		/* Nothing in reach: every site traps, its stub anywhere. */
		long p;

		need = (need + 0xffff) & ~0xffffUL;
		p = sg_sc6(SG_NR_mmap, 0, need, PROT_R | PROT_W,
			   MAP_PRIVATE_ANON, -1, 0);
		if (!sysgate_is_error(p)) {
			r = map_region(p, need);
			for (i = 0; i < o->nsites; i++)
				if (has_stub(&o->sites[i]) &&
				    o->sites[i].kind != SG_PATCH_TRAP) {
					as_trap(&o->sites[i]);
					o->sites[i].why = SG_WHY_NO_REGION;
				}
		}
	}
	if (!r) {
		for (i = 0; i < o->nsites; i++)
			if (has_stub(&o->sites[i]))
				o->sites[i].kind = SG_PATCH_NONE;
		return;
	}
	/* The region may already be read+exec from an earlier object. */
	sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_W);
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		unsigned long size;

		if (!has_stub(s))
			continue;
		size = (sg_patch_arch_stub_size(s) + 15) & ~15UL;
		s->stub = r->base + r->used;
		/* A site whose jump cannot reach its stub traps instead. */
		if (s->kind != SG_PATCH_TRAP &&
		    !in_reach(s->stub, s->addr, size + PAGE)) {
			if (!sg_patch_arch_trap_far) {
				s->kind = SG_PATCH_NONE;
				continue;
			}
			as_trap(s);
			s->why = SG_WHY_NO_REGION;
		}
		sg_patch_arch_emit(s, (unsigned char *)s->stub, s->stub,
				   r->base, r->base + 8);
		r->used += size;
		total.stub_bytes += size;
	}
	sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_X);
	sg_arch_flush_code(r->base, r->base + r->size);
	sg_zeropage_commit();	/* page 0 finds the new stubs */
}

/*
 * Finding sites costs what the text costs to read (3 ms of CPU for
 * libc, tens of ms for the 100 MB of a libLLVM), and a program runs few
 * of them: /bin/true 16 of libc's and ld.so's 570, python3 -c pass about
 * 120.  So where trapped sites get patched no object is read at start:
 * syscall user dispatch catches each site the first time it runs (the
 * call is hooked from the trap), and sg_patch_first_trap plans that one
 * site and patches it.  Memory follows: only the code pages of sites
 * that ran are copied on write.  The vDSO (a few sites, no file) is
 * planned at once, and every object with --eager (or where SUD is
 * missing: qemu-user, kernels before 5.11).
 */

#define BIG_TEXT (8UL << 20)	/* read at start: tens of ms (libLLVM) */

/* 1 where trapped sites get patched and SUD can trap (probed once). */
static int traps_patch(void)
{
	static int sud = -1;

	if (sud_mode || all_traps || !sg_patch_arch_lazy_look)
		return 0;
	if (sud < 0)
		sud = sg_sc5(SG_NR_prctl, 59 /* PR_SET_SYSCALL_USER_DISPATCH */,
			     0 /* OFF */, 0, 0, 0) == 0;
	return sud;
}

static int deleted(const char *path)
{
	size_t n = sg_strlen(path);

	return n > 10 && !sg_strcmp(path + n - 10, " (deleted)");
}

static int leave_to_traps(struct sg_obj *o)
{
	unsigned long bytes = 0;
	int i;

	for (i = 0; i < o->ntext; i++)
		bytes += o->text[i].hi - o->text[i].lo;
	/* (planned alone, a site is read from its file: an object with
	 * none, a memfd's or a deleted file's, is planned at once) */
	if (o->is_vdso || !traps_patch() || o->path[0] != '/' ||
	    !sg_strncmp(o->path, "/memfd:", 7) || deleted(o->path))
		return 0;
	/* Only big objects (a libLLVM: reading it costs more than its few
	 * sites' traps) wait for traps: by default (--eager), under
	 * -m zeropage, which wants its proven sites as `call *%rax` (only
	 * planning at start makes them), and once threads run (a site could
	 * only get a one-store patch then: an object mapped now is planned
	 * before it can run). */
	if ((opts->eager || zero_mode ||
	     __atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST)) &&
	    bytes <= BIG_TEXT)
		return 0;
	for (i = 0; i < o->ntext; i++)
		sg_watch_range(o->text[i].lo, o->text[i].hi);
	o->lazy = 1;
	total.lazy++;
	total.lazy_bytes += bytes;
	return 1;
}

/* --- objects left to traps: each site planned at its first trap ------ */

static unsigned long long first_trap_ns;	/* this thread's CPU there */

static int overlaps_text(const struct sg_obj *o, unsigned long lo,
			 unsigned long hi);

/* The object left to traps whose unchanged text holds addr, or 0. */
static struct sg_obj *lazy_object(unsigned long addr, int *t)
{
	int i;

	for (i = 0; objs && i < nobjs; i++)
		if (objs[i].lazy && (*t = text_of(&objs[i], addr)) >= 0)
			return &objs[i];
	return 0;
}

int sg_patch_known_text(unsigned long addr, struct sg_mapping_info *m)
{
	struct sg_obj *o;
	int t;

	o = lazy_object(addr, &t);
	if (!o || !o->text[t].fixed)
		return -1;
	memset(m, 0, sizeof(*m));
	m->lo = o->text[t].lo;
	m->hi = o->text[t].hi;
	m->prot = PROT_X | (o->text[t].readable ? PROT_R : 0);
	return 0;
}

/* [lo, hi) changes (mprotect, munmap, mmap over it): an object left to
 * traps there is forgotten, so that what is mapped again is an object
 * of its own (sg_patch_new_code), and its sites meanwhile get lazy.c's
 * in-place patch, which looks at the mapping. */
static void lazy_forget(unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; objs && i < nobjs; i++)
		if (objs[i].lazy && overlaps_text(&objs[i], lo, hi)) {
			objs[i].lazy = 0;
			objs[i].ntext = 0;
			objs[i].dev_ino[1] = 0;
		}
}

/* Write s's stub, its padding jump and its bytes; 1 if done. */
static int write_one(struct sg_obj *o, struct sg_site *s)
{
	static unsigned char stub[512];	/* (under lazy.c's lock) */
	unsigned char bytes[SG_SITE_MAX_REGION], pad[16];
	unsigned long size = (sg_patch_arch_stub_size(s) + 15) & ~15UL;
	struct region *r;
	int plen = 0, ok;

	if (size > sizeof(stub) || memcmp((const void *)s->lo, s->orig,
					  s->hi - s->lo))
		return 0;
	r = region_for(o, size);
	if (!r)
		return 0;
	if (r->used == 64)	/* new: made read+exec before any stub */
		sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_X);
	s->stub = r->base + r->used;
	if (!in_reach(s->stub, s->addr, size + PAGE))
		return 0;
	sg_patch_arch_emit(s, stub, s->stub, r->base, r->base + 8);
	sg_patch_arch_site_bytes(s, bytes);
	if (s->kind == SG_PATCH_PAD)
		plen = sg_patch_arch_pad_bytes(s, pad);
	/* the stub, then the padding jump to it, then the site */
	ok = sg_attach_note(s->stub, stub, size) == 0 &&
	     poke(s->stub, stub, size) == 0 &&
	     (!plen || (sg_attach_note(s->pad, pad, plen) == 0 &&
			poke(s->pad, pad, plen) == 0)) &&
	     sg_attach_note(s->lo, bytes, s->hi - s->lo) == 0 &&
	     poke(s->lo, bytes, s->hi - s->lo) == 0;
	r->used += size;	/* (a stub, even unused, is never reused) */
	total.stub_bytes += size;
	sg_arch_flush_code(s->lo, s->hi);
	return ok;
}

#define NEAR_MAX 8192
#define NEAR_BEFORE 16	/* a jump window starts at most this far before */

static void mark_pairs(struct sg_obj *o, const unsigned char *p,
		       unsigned long n, unsigned long addr, void *arg)
{
	unsigned char *blocks = arg;
	unsigned long done = 0, c;
	long k;

	while (done + SG_CANDIDATE_LEN <= n &&
	       (k = sg_patch_arch_scan(p + done, n - done)) >= 0) {
		c = addr + done + k;
		if (c - NEAR_BEFORE >= o->lo)
			sweep_set(blocks, (c - NEAR_BEFORE - o->lo) >> BLOCK_SHIFT);
		sweep_set(blocks, (c - o->lo) >> BLOCK_SHIFT);
		done += k + SG_INSN_ALIGN;
	}
}

static void keep_near(unsigned long target, void *arg)
{
	struct sg_obj *o = arg;

	if (o->nnear < NEAR_MAX)
		o->near[o->nnear++] = target;
	else
		o->nnear = NEAR_MAX + 1;
}

static void near_text(struct sg_obj *o, const unsigned char *p,
		      unsigned long n, unsigned long addr, void *arg)
{
	sg_patch_arch_targets(p, n, addr, arg, keep_near, o);
}

/* Every rel32 branch pattern of o's file that lands just before or on
 * a syscall pair, found in one read of its text (the first jump window
 * planned there asks): 0, or -1 if there are too many to keep. */
static long near_targets(struct sg_obj *o)
{
	struct sg_target_filter f = { o->lo, 0, 0, BLOCK_SHIFT };
	unsigned char *blocks, *buf = scan_buf;	/* (see below) */
	unsigned long bsize;

	if (o->near)
		return o->nnear > NEAR_MAX ? -1 : 0;
	f.nblocks = ((o->hi - o->lo) >> BLOCK_SHIFT) + 1;
	bsize = f.nblocks / 8 + 1;
	o->near = sg_mmap((NEAR_MAX + 1) * sizeof(*o->near));
	blocks = sg_mmap(bsize);
	/* A handler may have interrupted sg_patch_new_code, which reads
	 * through scan_buf too: a buffer of our own meanwhile. */
	scan_buf = sg_mmap(SCAN_CHUNK);
	o->nnear = NEAR_MAX + 1;
	if (o->near && blocks && scan_buf) {
		/* Read where it is mapped: what earlier sites changed holds
		 * no branch of the file's (their windows end at the syscall
		 * and displace no jump), only jumps out of the object. */
		o->lazy = 0;
		o->nnear = 0;
		for_each_text(o, 16, mark_pairs, blocks);
		f.blocks = blocks;
		for_each_text(o, 16, near_text, &f);
		o->lazy = 1;
	}
	if (scan_buf)
		sg_munmap(scan_buf, SCAN_CHUNK);
	scan_buf = buf;
	if (blocks)
		sg_munmap(blocks, bsize);
	return o->nnear > NEAR_MAX ? -1 : 0;
}

static unsigned long text_bytes(const struct sg_obj *o)
{
	unsigned long bytes = 0;
	int i;

	for (i = 0; i < o->ntext; i++)
		bytes += o->text[i].hi - o->text[i].lo;
	return bytes;
}

/* Text read for rel32 branches without asking (about 1 ns a byte):
 * beyond it lazy.c's one-store patch is tried first (libc's 1.4 MiB cost
 * 1.5 ms for the one jump window /bin/true needed there). */
#define SCAN_FREE (512UL << 10)

/* The site at addr, planned alone.  A jump over neighbours needs every
 * rel32 branch of the object checked against its interior (a read of
 * the whole text): a padding jump, which has none, is taken first,
 * and that read is made for a big object only when scan is set. */
static int plan_one(struct sg_obj *o, unsigned long addr, struct sg_site *s,
		    int scan)
{
	struct sg_site alt;

	memset(s, 0, sizeof(*s));
	if (sg_patch_arch_plan(o, addr, s) != 1)
		return 0;
	/* The trapped thread resumes after the syscall: that must stay an
	 * instruction (a jump ending there, or a padding jump). */
	if (s->kind == SG_PATCH_JMP && s->hi != addr + s->insn_len) {
		sg_patch_arch_fallback(o, s);
		return s->kind == SG_PATCH_PAD;
	}
	if (s->kind == SG_PATCH_JMP && s->interior) {
		alt = *s;
		sg_patch_arch_fallback(o, &alt);
		if (alt.kind == SG_PATCH_PAD) {
			*s = alt;
		} else if ((!scan && text_bytes(o) > SCAN_FREE) ||
			   near_targets(o) < 0) {
			return 0;
		} else {
			long i;

			for (i = 0; i < o->nnear; i++)
				if (o->near[i] > s->lo && o->near[i] < s->hi)
					return 0;
		}
	}
	return s->kind == SG_PATCH_JMP || s->kind == SG_PATCH_PAD;
}

/* A fork child's --stats count what it plans itself. */
void sg_patch_first_trap_forked(void)
{
	int i;

	for (i = 0; objs && i < nobjs; i++)
		memset(objs[i].n_first, 0, sizeof(objs[i].n_first));
	first_trap_ns = 0;
}

#define FIRSTS_MAX 512

int sg_patch_first_trap(unsigned long addr, int scan)
{
	unsigned long long cpu = thread_cpu_ns();
	struct sg_obj *o;
	struct sg_site s;
	struct sg_thread *self = sg_self();
	int t, done = 0;

	/* Several bytes change: no other thread may be running them, and
	 * no code a handler interrupted may wait inside them.  (Never in a
	 * vfork child: lazy.c leaves its traps alone.) */
	if (!self ||
	    __atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&sg.handlers_running, __ATOMIC_SEQ_CST) ||
	    sg_attach_starting())
		return 0;
	o = lazy_object(addr, &t);
	if (!o || !o->text[t].fixed || !o->text[t].readable)
		return 0;
	open_object(o);
	if (o->fd < 0)
		return 0;	/* (what is planned must be the file's bytes) */
	sg_obj_index_eh_frame(o);
	want_all = 1;
	if (plan_one(o, addr, &s, scan) && write_one(o, &s)) {
		if (!o->firsts && o->nfirsts >= 0)
			o->firsts = sg_mmap(FIRSTS_MAX * sizeof(*o->firsts));
		if (o->firsts && o->nfirsts >= 0 && o->nfirsts < FIRSTS_MAX)
			o->firsts[o->nfirsts++] = addr;
		else
			o->nfirsts = -1;	/* (never planned whole) */
		o->n_first[s.kind]++;
		o->n_kind[s.kind]++;
		total.kind[s.kind]++;
		total.sites++;
		done = 1;
	}
	want_all = 0;
	sg_sc1(SG_NR_close, o->fd);
	o->fd = -1;
	if (memfd >= 0)
		sg_sc1(SG_NR_close, memfd);
	memfd = -1;
	first_trap_ns += thread_cpu_ns() - cpu;
	return done;
}

static void write_planned(struct sg_obj *o);

static void patch_object(struct sg_obj *o)
{
	unsigned long ehdr = 0;
	int i;

	if (!o->ntext)
		return;
	/* The ELF header is at the start of the mapping of file offset 0. */
	ehdr = o->lo;
	if (sg_obj_parse(o, ehdr) < 0)
		return;
	total.objects++;
	if (leave_to_traps(o))
		return;
	open_object(o);
	sg_obj_index_eh_frame(o);
	o->want_zwhy = zero_mode;
	if (sg_plans_find(o, alloc_sites) == 0) {
		total.shared++;
		/* The plan counts unverified candidates, not where they are. */
		for (i = 0; o->n_unverified && i < o->ntext; i++)
			sg_watch_range(o->text[i].lo, o->text[i].hi);
	} else {
		for (i = 0; i < o->ntext; i++)
			total.read_bytes += o->text[i].hi - o->text[i].lo;
		sg_patch_plan(o, 0);
		sg_plans_add(o);
	}
	apply_selection(o);
	write_planned(o);
}

/* o's sites, planned and selected: stubs, code, what is left to SUD, and
 * the counts. */
static void write_planned(struct sg_obj *o)
{
	int i;

	place_stubs(o);
	write_sites(o);
	if (o->fd >= 0)
		sg_sc1(SG_NR_close, o->fd);
	o->fd = -1;
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];

		o->n_kind[s->kind]++;
		total.kind[s->kind]++;
		o->n_why[s->why]++;
		total.why[s->why]++;
		if (s->kind == SG_PATCH_NONE)
			sg_watch_site(s->addr);
		if (zero_mode && has_stub(s) && s->kind != SG_PATCH_ZERO)
			total.zwhy[s->zwhy]++;
	}
	if (o->n_why[SG_WHY_SYSENTER])
		sg_warn_compat();
	total.sites += o->nsites;
	total.data += o->n_data;
	total.unverified += o->n_unverified;
}

static const char *const kind_names[SG_PATCH_KINDS] = {
	"jump", "padding-jump", "trap", "left (unselected)", "unpatched",
	"gateway", "middle", "small", "branch", "zero-page call",
};

static const char *const zwhy_names[SG_ZWHY_COUNT] = {
	"not checked", "", "stack pointer copied or changed in the function",
	"red zone in use", "function not decodable",
	"no function bounds in unwind info",
};

static const char *const why_names[SG_WHY_COUNT] = {
	"", "branch into neighbours", "neighbours not relocatable",
	"indirect jumps in function", "no padding in reach",
	"32-bit ABI (sysenter, int $0x80)", "no gateway in jal reach",
	"no stub region in branch reach",
	"a thread was inside it when sysgate attached",
};

void sg_patch_put(char *buf, size_t *n, const char *s)
{
	*n += sg_strlcpy(buf + *n, s, 4096 - *n);
	if (*n > 4095)
		*n = 4095;
}

void sg_patch_put_num(char *buf, size_t *n, unsigned long v)
{
	char num[24];

	sg_patch_put(buf, n, sg_utoa(num + sizeof(num), v));
}

static void put_hex(char *buf, size_t *n, unsigned long v)
{
	char num[24];
	int i = sizeof(num) - 1;

	num[i] = 0;
	do {
		num[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	sg_patch_put(buf, n, "0x");
	sg_patch_put(buf, n, num + i);
}

/* One object's line of --stats, and with -d its unpatched sites. */
static void object_line(char *buf, size_t *n, const struct sg_obj *o)
{
	unsigned long bytes = 0;
	int k;

	if (o->lazy) {
		for (k = 0; k < o->ntext; k++)
			bytes += o->text[k].hi - o->text[k].lo;
		sg_patch_put(buf, n, "sysgate:   ");
		sg_patch_put(buf, n, o->path);
		sg_patch_put(buf, n, ": not read, its sites patched at their "
				     "first trap (");
		sg_patch_put_num(buf, n, bytes >> 20);
		sg_patch_put(buf, n, " MiB of text)\n");
		return;
	}
	if (!o->nsites && !o->n_unverified)
		return;
	sg_patch_put(buf, n, "sysgate:   ");
	sg_patch_put(buf, n, o->path);
	sg_patch_put(buf, n, ":");
	for (k = 0; k < SG_PATCH_KINDS; k++) {
		if (!o->n_kind[k])
			continue;
		sg_patch_put(buf, n, " ");
		sg_patch_put(buf, n, kind_names[k]);
		sg_patch_put(buf, n, "=");
		sg_patch_put_num(buf, n, o->n_kind[k]);
	}
	if (o->n_unverified) {
		sg_patch_put(buf, n, " unverified=");
		sg_patch_put_num(buf, n, o->n_unverified);
	}
	sg_patch_put(buf, n, "\n");
	for (k = 0; opts->debug && o->sites && k < o->nsites && *n < 3900; k++) {
		struct sg_site *s = &o->sites[k];
		/* -m zeropage: a site that kept its jump, and why */
		int kept = zero_mode && has_stub(s) &&
			   s->kind != SG_PATCH_ZERO && s->kind != SG_PATCH_TRAP;

		if (!kept && s->kind != SG_PATCH_NONE && s->kind != SG_PATCH_TRAP)
			continue;
		sg_patch_put(buf, n, "sysgate:     +");
		put_hex(buf, n, s->addr - o->bias);
		sg_patch_put(buf, n, kept ? " kept a stub: " :
			    s->kind == SG_PATCH_TRAP ? " trap: " : " unpatched: ");
		sg_patch_put(buf, n, kept ? zwhy_names[s->zwhy] : why_names[s->why]);
		sg_patch_put(buf, n, "\n");
	}
}

/* SIGTRAP, once the first breakpoint is written. */
static void claim_traps(void)
{
	if (sg_traps_count() && !trap_claimed) {
		if (sg_signal_claim(SIGTRAP_, on_trap) < 0)
			sg_warn("cannot catch SIGTRAP: trapped sites will crash");
		trap_claimed = 1;
	}
}

/* Patch list[0..n) with signals blocked in this thread: no handler may
 * run while text pages are writable. */
static void patch_objects(struct sg_obj *list, int n)
{
	static const unsigned long all = ~0UL;
	unsigned long old_mask;
	int i;

	unsigned long long cpu = opts->stats ? thread_cpu_ns() : 0;

	sg_sc4(SG_NR_rt_sigprocmask, 0, (long)&all, (long)&old_mask, 8);
	for (i = 0; i < n; i++)
		patch_object(&list[i]);
	if (opts->stats)
		total.cpu_ns += thread_cpu_ns() - cpu;
	if (memfd >= 0)
		sg_sc1(SG_NR_close, memfd);	/* the program must not see it */
	memfd = -1;
	claim_traps();
	sg_sc4(SG_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)&old_mask, 0, 8);
}

/* sysgate -p: code a JIT wrote before sysgate came was never seen being
 * made; syscall user dispatch watches it. */
static void watch_anonymous_code(const char *maps)
{
	const char *line = maps;

	while (*line) {
		const char *nl = sg_strchr(line, '\n');
		struct mapping m;

		if (parse_line(line, &m) == 0 && (m.prot & PROT_X) &&
		    !m.dev_ino[1] && *m.path != '[')
			sg_watch_range(m.lo, m.hi);
		if (!nl)
			break;
		line = nl + 1;
	}
}

static int patch_start(const struct sg_options *o)
{
	unsigned long long t0 = sysgate_now_ns();
	unsigned long len;
	char *maps;
	int i;

	opts = o;
	for (i = 0; i < (int)SG_SEL_WORDS && !sg.wanted[i]; i++)
		;
	/* No hook wants anything: touch nothing (but -m seccomp needs to
	 * know our own text, the range its filter allows). */
	if (i == (int)SG_SEL_WORDS && !o->patch_all && !sg.seccomp_on)
		return 0;
	/* Sites found by their first trap get patched too, except where
	 * each call is meant to trap (-m sud, -m seccomp, -m int3). */
	if (!sud_mode && !all_traps)
		sg_patch_lazy_enable();
	if (zero_mode) {
		const char *why;

		if (sg_zeropage_setup(o->zeropage_readable_null, &why) < 0)
			sg_die(why);
	}
	objs = sg_mmap(MAX_OBJS * sizeof(*objs));
	scan_buf = sg_mmap(SCAN_CHUNK);
	maps = read_maps(&len);
	if (!objs || !scan_buf || !maps)
		return -12;
	if (sg_attach_starting()) {
		watch_anonymous_code(maps);
		/* threads may run that sysgate never saw made: code is
		 * patched one store at a time, as after the first thread */
		sg.vm_shared = 1;
	}
	nobjs = collect_objects(maps, objs, MAX_OBJS);
	patch_objects(objs, nobjs);
	sg_munmap(maps, len);
	/* Sites left unpatched are still caught, more slowly. */
	sg_watch_settle(0);
	total.ns = sysgate_now_ns() - t0;
	return 0;
}

static int known_object(const struct sg_obj *f)
{
	int i;

	for (i = 0; i < nobjs; i++)
		if (objs[i].lo == f->lo && objs[i].dev_ino[0] == f->dev_ino[0] &&
		    objs[i].dev_ino[1] == f->dev_ino[1])
			return 1;
	return 0;
}

static int overlaps_text(const struct sg_obj *o, unsigned long lo,
			 unsigned long hi)
{
	int i;

	for (i = 0; i < o->ntext; i++)
		if (o->text[i].lo < hi && o->text[i].hi > lo)
			return 1;
	return 0;
}

static void free_sites(struct sg_obj *o)
{
	if (o->sites)
		sg_munmap(o->sites, o->cap * sizeof(*o->sites));
	if (o->pads)
		sg_munmap(o->pads, o->pads_cap * sizeof(*o->pads));
	o->sites = 0;
	o->pads = 0;
	o->cap = o->pads_cap = 0;
}

/*
 * The first thread (and, site 0, a process that keeps making calls
 * alone while SUD is on, which taxes each: core/dispatch.c): from then
 * on a site another thread may run is only
 * patched one store at a time (lazy.c), which has no room for a stub
 * near many of them, and such a site traps at every call.  A process
 * that starts threads runs long, mostly: while this one still runs
 * alone, each object left to traps (but the big ones, see
 * BIG_TEXT) is planned whole, as --eager would have done at start,
 * keeping the sites already patched and the one making the clone; SUD
 * goes off if nothing is left for it.
 */

static int ours(const struct sg_obj *o, unsigned long addr)
{
	int i;

	for (i = 0; i < o->nfirsts; i++)
		if (o->firsts[i] == addr)
			return 1;
	return sg_patch_lazy_live(addr);
}

static void plan_whole(struct sg_obj *o, unsigned long busy)
{
	int i, t;

	for (t = 0; t < o->ntext; t++)
		if (!o->text[t].fixed || !o->text[t].readable)
			return;
	if (o->nfirsts < 0 || text_bytes(o) > BIG_TEXT)
		return;
	open_object(o);
	if (o->fd < 0)
		return;
	/* (still lazy while planned: read from the file, not from code
	 * that earlier sites changed) */
	/* SUD stops watching it whole; what planning cannot verify, and
	 * what stays unpatched, is watched site by site */
	for (t = 0; t < o->ntext; t++)
		sg_watch_forget(o->text[t].lo, o->text[t].hi);
	want_all = 1;	/* (SUD may stay on: an unpatched site would trap) */
	sg_patch_plan(o, 0);
	total.read_bytes += text_bytes(o);
	apply_selection(o);
	want_all = 0;
	/* (the clone's own site stays caught: it runs again, and a clone
	 * that SUD let by would go unseen) */
	for (i = 0; i < o->nsites; i++)
		if (o->sites[i].addr == busy)
			o->sites[i].kind = SG_PATCH_NONE;
		else if (ours(o, o->sites[i].addr))
			o->sites[i].kind = SG_PATCH_LEFT;
	o->lazy = 0;
	total.lazy--;
	write_planned(o);
	free_sites(o);
}

void sg_patch_threads(unsigned long site)
{
	static const unsigned long all = ~0UL;
	static char buf[4096];
	unsigned long old_mask, long_cpu = thread_cpu_ns();
	unsigned char *keep = scan_buf;
	struct sg_thread *self = sg_self();
	size_t n = 0;
	int i, any = 0;

	/* (no traps_patch() here: its probe turns SUD off in this thread;
	 * an object left to traps says it was probed; never in a vfork
	 * child, on its small stack: see sg_patch_lazy_trapped) */
	if (!objs || __atomic_load_n(&sg.handlers_running, __ATOMIC_SEQ_CST) ||
	    sg_attach_starting() || (self && self->vfork_child))
		return;
	for (i = 0; i < nobjs && !any; i++)
		any = objs[i].lazy;
	if (!any)
		return;
	sg_sc4(SG_NR_rt_sigprocmask, 0, (long)&all, (long)&old_mask, 8);
	scan_buf = sg_mmap(SCAN_CHUNK);
	for (i = 0; scan_buf && i < nobjs; i++)
		if (objs[i].lazy) {
			plan_whole(&objs[i], site);
			if (!objs[i].lazy && opts->stats)
				object_line(buf, &n, &objs[i]);
		}
	if (scan_buf)
		sg_munmap(scan_buf, SCAN_CHUNK);
	scan_buf = keep;
	if (memfd >= 0)
		sg_sc1(SG_NR_close, memfd);
	memfd = -1;
	sg_patch_arch_release();
	claim_traps();
	sg_sc4(SG_NR_rt_sigprocmask, 2, (long)&old_mask, 0, 8);
	sg_patch_lazy_settle();
	if (opts->stats && n) {
		static char head[128];
		size_t k = 0;

		sg_patch_put(head, &k, site ? "sysgate: patch: planned at the "
					      "first thread (" :
				      "sysgate: patch: planned whole, calls "
				      "kept coming (");
		sg_patch_put_num(head, &k, (thread_cpu_ns() - long_cpu) / 1000);
		sg_patch_put(head, &k, " us of CPU):\n");
		sg_write_all(sg.out_fd, head, k);
		sg_write_all(sg.out_fd, buf, n);
	}
}

/*
 * [lo, hi) just became executable (dlopen, mmap or mprotect with
 * PROT_EXEC): patch the ELF objects there before the caller can run them.
 * Anonymous code (JIT) has no unwind info to decode from and is counted.
 * A program with no interpreter that maps code itself is a loader or an
 * emulator (valgrind maps its guest's ELF files, and runs them only
 * translated): that code is watched like run-time code, and patched only
 * once it traps by running natively.
 */
void sg_patch_new_code(unsigned long lo, unsigned long hi)
{
	static int lock;
	struct sg_obj *fresh;
	unsigned long len;
	char *maps;
	unsigned long long cpu;
	int i, n, found = 0;

	if (!objs)
		return;		/* not started: nothing is hooked */
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		sg_sc0(SG_NR_sched_yield);
	fresh = sg_mmap(MAX_OBJS * sizeof(*fresh));
	scan_buf = scan_buf ? scan_buf : sg_mmap(SCAN_CHUNK);
	maps = read_maps(&len);
	if (fresh && scan_buf && maps) {
		n = collect_objects(maps, fresh, MAX_OBJS);
		for (i = 0; i < n && nobjs < MAX_OBJS; i++) {
			struct sg_obj *o = &objs[nobjs];
			static char buf[4096];	/* under the lock */
			size_t k = 0;

			if (!overlaps_text(&fresh[i], lo, hi))
				continue;
			if (sg.own_loader)
				break;	/* maybe another program's: watched */
			found = 1;
			if (known_object(&fresh[i]))
				continue;
			*o = fresh[i];
			nobjs++;
			cpu = total.cpu_ns;
			patch_objects(o, 1);
			if (opts->stats) {
				sg_patch_put(buf, &k, "sysgate: patch: loaded "
						      "later (");
				sg_patch_put_num(buf, &k,
						 (total.cpu_ns - cpu) / 1000);
				sg_patch_put(buf, &k, " us of CPU):\n");
				object_line(buf, &k, o);
				sg_write_all(sg.out_fd, buf, k);
			}
			free_sites(o);
		}
	}
	/* No object to patch (JIT code): SUD catches what may be a call.
	 * Run-time code without any (most JIT output) cannot make one
	 * until it changes, which comes back here: SUD stays off. */
	if (!found && sg_watch_code(lo, hi, scan_buf, SCAN_CHUNK))
		total.anon_exec++;
	else if (!found)
		total.anon_clean++;
	sg_watch_settle(0);
	if (maps)
		sg_munmap(maps, len);
	if (fresh)
		sg_munmap(fresh, MAX_OBJS * sizeof(*fresh));
	sg_patch_arch_release();
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

#define WATCHED_GONE 4		/* in a code_begin token */

/* [lo, hi) is about to change: lazily patched sites there get their
 * bytes back (lazy.c), and SUD stops watching what was there. */
int sg_patch_code_begin(const struct sysgate_sys *s, unsigned long lo,
			    unsigned long hi)
{
	/* (munmap and mmap over it take the bytes with them) */
	int drops = s->nr == SG_NR_munmap || s->nr == SG_NR_mmap;
	int token = sg_patch_lazy_begin(lo, hi, drops);

	lazy_forget(lo, hi);

	/* (what madvise drops may come back from a file) */
	if (s->nr != SG_NR_madvise && sg_watch_forget(lo, hi))
		token |= WATCHED_GONE;
	return token;
}

void sg_patch_code_end(int token, const struct sysgate_sys *s,
			   unsigned long lo, unsigned long hi)
{
	sg_patch_lazy_end(token & ~WATCHED_GONE);
	if (!(token & WATCHED_GONE))
		return;
	/* The call failed and the code may be there still; or it moved
	 * (mremap): watch it where it is now. */
	if (sysgate_is_error(s->ret))
		sg_patch_new_code(lo, hi);
	else if (s->nr == SG_NR_mremap)
		sg_patch_new_code(s->ret, s->ret + s->args[2]);
	sg_patch_lazy_settle();	/* maybe nothing is left */
}

/* "<prefix><what>: <count>" if count is not 0. */
static void put_count(char *buf, size_t *n, const char *prefix,
		      const char *what, int count)
{
	if (!count)
		return;
	sg_patch_put(buf, n, prefix);
	sg_patch_put(buf, n, what);
	sg_patch_put(buf, n, ": ");
	sg_patch_put_num(buf, n, count);
	sg_patch_put(buf, n, "\n");
}

void sg_patch_stats(void)
{
	static char buf[4096];
	size_t n = 0;
	int i, k;

	sg_patch_put(buf, &n, "sysgate: mechanism ");
	sg_patch_put(buf, &n, mode_name);
	sg_patch_put(buf, &n, ": ");
	sg_patch_put_num(buf, &n, total.sites);
	sg_patch_put(buf, &n, " syscall sites in ");
	sg_patch_put_num(buf, &n, total.objects);
	sg_patch_put(buf, &n, " objects (");
	sg_patch_put_num(buf, &n, total.lazy);
	sg_patch_put(buf, &n, " left to traps, ");
	sg_patch_put_num(buf, &n, total.shared);
	sg_patch_put(buf, &n, " planned by another process), ");
	sg_patch_put_num(buf, &n, total.read_bytes >> 10);
	sg_patch_put(buf, &n, " KiB of text read, ");
	sg_patch_put_num(buf, &n, total.ns / 1000);
	sg_patch_put(buf, &n, " us (");
	sg_patch_put_num(buf, &n, total.cpu_ns / 1000);
	sg_patch_put(buf, &n, " of CPU), stubs ");
	sg_patch_put_num(buf, &n, total.stub_bytes);
	sg_patch_put(buf, &n, " bytes\n");
	for (k = 0; k < SG_PATCH_KINDS; k++)
		put_count(buf, &n, "sysgate:   ", kind_names[k], total.kind[k]);
	for (k = 1; k < SG_WHY_COUNT; k++)
		put_count(buf, &n, "sysgate:   reason: ", why_names[k],
			  total.why[k]);
	for (k = 0; zero_mode && k < SG_ZWHY_COUNT; k++)
		if (k != SG_ZWHY_OK)
			put_count(buf, &n, "sysgate:   kept a stub, not zero-page: ",
				  zwhy_names[k], total.zwhy[k]);
	if (zero_mode && objs && sg_zeropage_readable())
		sg_patch_put(buf, &n, "sysgate:   page 0 is READABLE "
			     "(--zeropage-readable-null): reads through NULL "
			     "return sled bytes instead of faulting\n");
	else if (zero_mode && objs)
		sg_patch_put(buf, &n, "sysgate:   page 0 is execute-only: reads through "
			     "NULL fault\n");
	sg_patch_put(buf, &n, "sysgate:   byte pairs rejected as data: ");
	sg_patch_put_num(buf, &n, total.data);
	sg_patch_put(buf, &n, ", without unwind info (left): ");
	sg_patch_put_num(buf, &n, total.unverified);
	sg_patch_put(buf, &n, "\n");
	if (sg.seccomp_on)
		sg_patch_put(buf, &n, "sysgate:   every other call is caught by a "
			     "seccomp filter (SIGSYS)\n");
	else if (sg.sud_on)
		sg_patch_put(buf, &n, "sysgate:   unpatched code is caught by syscall "
			     "user dispatch (SIGSYS)\n");
	else if (total.unverified || total.kind[SG_PATCH_NONE])
		sg_patch_put(buf, &n, "sysgate:   unpatched sites are NOT caught: no "
			     "syscall user dispatch here\n");
	for (i = 0; i < nobjs; i++)
		object_line(buf, &n, &objs[i]);
	sg_write_all(sg.out_fd, buf, n);
}

/* Once sites are written only the trap table, the stubs and the list
 * of objects (to tell new code from known code) are needed. */
void sg_patch_release(void)
{
	int i;

	sg_patch_arch_release();
	for (i = 0; i < nobjs; i++)
		free_sites(&objs[i]);
	if (scan_buf)
		sg_munmap(scan_buf, SCAN_CHUNK);
	scan_buf = 0;
}

/* --stats at exit: what objects left to traps had planned, site by
 * site, at their first trap (the start-up line says what was planned
 * eagerly). */
static void first_trap_stats(char *buf, size_t *n)
{
	int i, k, sum = 0;

	for (i = 0; i < nobjs; i++)
		for (k = 0; k < SG_PATCH_KINDS; k++)
			sum += objs[i].n_first[k];
	if (!sum)
		return;
	sg_patch_put(buf, n, "sysgate: planned at their first trap: ");
	sg_patch_put_num(buf, n, sum);
	sg_patch_put(buf, n, " sites, ");
	sg_patch_put_num(buf, n, first_trap_ns / 1000);
	sg_patch_put(buf, n, " us of CPU\n");
	for (i = 0; i < nobjs; i++) {
		for (k = 0; k < SG_PATCH_KINDS && !objs[i].n_first[k]; k++)
			;
		if (k == SG_PATCH_KINDS)
			continue;
		sg_patch_put(buf, n, "sysgate:   ");
		sg_patch_put(buf, n, objs[i].path);
		sg_patch_put(buf, n, ":");
		for (k = 0; k < SG_PATCH_KINDS; k++)
			if (objs[i].n_first[k]) {
				sg_patch_put(buf, n, " ");
				sg_patch_put(buf, n, kind_names[k]);
				sg_patch_put(buf, n, "=");
				sg_patch_put_num(buf, n, objs[i].n_first[k]);
			}
		sg_patch_put(buf, n, "\n");
	}
}

/* --stats at exit: the calls signals caught, the sites patched late. */
void sg_patch_exit_stats(void)
{
	static char buf[4096];
	size_t n = 0;
	unsigned long caught = __atomic_load_n(&sg.sigsys_calls,
					       __ATOMIC_RELAXED);

	if (!objs)
		return;
	if (caught || sg.sud_on || sg.seccomp_on) {
		sg_patch_put(buf, &n, "sysgate: calls caught by SIGSYS: ");
		sg_patch_put_num(buf, &n, caught);
		sg_patch_put(buf, &n, "\n");
	}
	if (total.anon_clean) {
		sg_patch_put(buf, &n, "sysgate: executable memory without an "
				      "ELF object and without a system call "
				      "instruction: ");
		sg_patch_put_num(buf, &n, total.anon_clean);
		sg_patch_put(buf, &n, " mappings, nothing to catch\n");
	}
	if (total.anon_exec) {
		sg_patch_put(buf, &n, "sysgate: executable memory without an ELF "
				      "object (JIT): ");
		sg_patch_put_num(buf, &n, total.anon_exec);
		sg_patch_put(buf, &n, " mappings, caught by syscall user dispatch\n");
	}
	if (sg.sud_offs) {
		sg_patch_put(buf, &n, "sysgate: syscall user dispatch: turned on ");
		sg_patch_put_num(buf, &n, sg.sud_ons);
		sg_patch_put(buf, &n, " times, off ");
		sg_patch_put_num(buf, &n, sg.sud_offs);
		sg_patch_put(buf, &n, " times (nothing left for it to catch)\n");
	}
	first_trap_stats(buf, &n);
	sg_write_all(sg.out_fd, buf, n);
	sg_patch_lazy_stats();
}

int sg_patch_start(const struct sg_options *o, const struct sg_patch_mode *m)
{
	int r;

	all_traps = m->all_traps;
	sud_mode = m->sud;
	zero_mode = m->zero;
	mode_name = m->name;
	r = patch_start(o);
	if (r == 0 && m->sud_on && objs)
		sg_sud_enable();
	return r;
}

static int start_patch(const struct sg_options *o)
{
	static const struct sg_patch_mode mode = { .name = "patch" };

	return sg_patch_start(o, &mode);
}

const struct sg_mechanism sg_mech_patch = {
	.name = "patch",
	.summary = "rewrite each syscall site into a jump to a per-site stub",
	.probe = sg_mech_always,
	.start = start_patch,
	SG_PATCH_FAMILY_OPS,
};
