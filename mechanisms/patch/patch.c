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
 *   3. outside branches (sweep.c): every direct branch the object's
 *      bytes could encode is checked against the interiors of planned
 *      regions; a hit sends that site to the arch's fallback (padding
 *      trampoline or trap);
 *   4. stubs are written into a region within reach (region.c, write.c),
 *      made read+exec;
 *   5. sites are written while the pages are read+write (never write and
 *      exec at once), with signals blocked, then made read+exec again
 *      (write.c).
 *
 * This runs at start-up, single-threaded, with raw system calls only,
 * and again for each object loaded later.  Nothing is kept between runs:
 * planning costs about what the sites cost (see README, "Start-up").
 */
#include "engine.h"
#include "options.h"
#include "mech.h"
#include "dispatch.h"
#include "signal_arch.h"
#include "zeropage.h"
#include "traps.h"

#define O_RDONLY_ 0
#define SCAN_CHUNK (64 * 1024)
#define MAX_OBJS 256

static struct sg_obj *objs;
static int nobjs;
static unsigned char *scan_buf;
static const struct sg_options *opts;
static struct sg_patch_total total;

static const struct sg_patch_report *report(void);

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

/* The bytes of an object left to traps that its first-trap patches and
 * lazy.c's in-place ones replaced in buf ([addr, addr + len)), put back:
 * what its file has (under lazy.c's lock). */
static void originals(const struct sg_obj *o, unsigned long addr,
		      unsigned char *buf, unsigned long len)
{
	int i;

	for (i = 0; i < o->nwrote; i++)
		sg_patch_put_back(o->wrote[i].addr, o->wrote[i].orig,
				  o->wrote[i].len, addr, buf, len);
	sg_patch_lazy_originals(addr, buf, len);
}

/* Code is read where it is mapped: no copy, no system call, and what is
 * planned on is what runs (the file is the fallback).  An object left
 * to traps is read there too, as it was before sysgate's patches. */
long sg_obj_read(struct sg_obj *o, unsigned long addr, void *buf,
		 unsigned long len)
{
	int i;

	if (sg_obj_view(o, addr, len) == len) {
		memcpy(buf, (const void *)addr, len);
		return len;
	}
	/* (mapped, and its file not cut short: a copy with what sysgate
	 * wrote put back is the file's bytes, without a pread's page-cache
	 * walk, which cost libc's whole planning 1.5-2 ms) */
	if (o->lazy && o->nwrote >= 0 && sg_obj_readable(o, addr, len)) {
		memcpy(buf, (const void *)addr, len);
		originals(o, addr, buf, len);
		return len;
	}
	if (o->lazy && o->fd < 0 && o->nwrote >= 0)
		return -14;
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

/* A chunk of a lazy object that no patch of sysgate's lies in: what is
 * mapped there is the file's bytes, read in place (a copy of the whole
 * text was a fifth of planning libc whole at a first thread). */
static int unwritten(const struct sg_obj *o, unsigned long addr,
		     unsigned long len)
{
	int i;

	if (!o->lazy || o->nwrote < 0 || !sg_obj_readable(o, addr, len))
		return 0;
	for (i = 0; i < o->nwrote; i++)
		if (o->wrote[i].addr < addr + len &&
		    addr < o->wrote[i].addr + o->wrote[i].len)
			return 0;
	return !sg_patch_lazy_wrote_in(addr, len);
}

/*
 * Call fn on all of o's text: each mapping in one piece where it can be
 * read in place, else in chunks read into scan_buf that overlap by
 * `overlap` bytes (so that a pattern split by a chunk's end is seen whole
 * in the next).  fn gets the bytes, their count and their address.
 */
void sg_patch_each_text(struct sg_obj *o, unsigned long overlap,
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
			if (unwritten(o, a, len)) {
				fn(o, (const unsigned char *)a, len, a, arg);
				got = len;
			} else {
				got = sg_obj_read(o, a, scan_buf, len);
				if (got <= 0)
					break;
				fn(o, scan_buf, got, a, arg);
			}
			a += (unsigned long)got > overlap ? (unsigned long)got - overlap :
							   (unsigned long)got;
		}
	}
}

/* --- objects --------------------------------------------------------- */

static int same_file(const struct sg_mapping *m, const struct sg_obj *o)
{
	return m->dev_ino[1] && m->dev_ino[0] == o->dev_ino[0] &&
	       m->dev_ino[1] == o->dev_ino[1];
}

struct collect {
	struct sg_obj *list;
	int n, max;
};

/* The object m belongs to: a file's mapping at offset 0 starts one, its
 * later mappings join it (a file mapped twice makes two objects). */
static struct sg_obj *object_of(const struct sg_mapping *m, struct collect *c)
{
	int vdso = !m->dev_ino[1] && !sg_strcmp(m->path, "[vdso]"), i;
	struct sg_obj *o;

	for (i = c->n - 1; i >= 0; i--)
		if ((same_file(m, &c->list[i]) && m->off) ||
		    (vdso && c->list[i].is_vdso))
			return &c->list[i];
	if ((!m->dev_ino[1] && !vdso) || c->n == c->max)
		return 0;
	o = &c->list[c->n++];
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->lo = m->lo;
	o->dev_ino[0] = m->dev_ino[0];
	o->dev_ino[1] = m->dev_ino[1];
	o->is_vdso = vdso;
	sg_strlcpy(o->path, m->path, sizeof(o->path));
	return o;
}

/* m's part of o: its bounds, readable ranges, text. */
static void add_mapping(struct sg_obj *o, const struct sg_mapping *m)
{
	unsigned long self = (unsigned long)&add_mapping;

	if (m->lo < o->lo)
		o->lo = m->lo;
	if (m->hi > o->hi)
		o->hi = m->hi;
	if ((m->prot & PROT_R) && o->nrd && o->rd[o->nrd - 1].hi == m->lo)
		o->rd[o->nrd - 1].hi = m->hi;
	else if ((m->prot & PROT_R) && o->nrd < SG_MAX_READABLE) {
		o->rd[o->nrd].lo = m->lo;
		o->rd[o->nrd].hi = m->hi;
		o->nrd++;
	}
	if ((m->prot & PROT_X) && o->ntext < SG_MAX_TEXT) {
		o->text[o->ntext].lo = m->lo;
		o->text[o->ntext].hi = m->hi;
		o->text[o->ntext].off = m->off;
		o->text[o->ntext].readable = (m->prot & PROT_R) != 0;
		o->text[o->ntext].fixed = !m->shared && !(m->prot & PROT_W);
		o->ntext++;
	}
	if (self >= m->lo && self < m->hi) {
		sg.self_text_lo = m->lo;
		sg.self_text_hi = m->hi;
		sg.self_lo = o->lo;
		o->ntext = 0;	/* never patch ourselves */
		o->path[0] = 0;
	}
}

static int collect_one(const struct sg_mapping *m, void *arg)
{
	struct sg_obj *o = object_of(m, arg);

	if (o)
		add_mapping(o, m);
	return 0;
}

/* Group the mappings of maps into objects, at most max of them. */
static int collect_objects(char *maps, struct sg_obj *list, int max)
{
	struct collect c = { list, 0, max };

	sg_maps_each(maps, collect_one, &c);
	return c.n;
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

int sg_patch_wants_all(void)
{
	return want_all;
}

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
	r = sg_patch_arch.plan(o, addr, s);
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
static int resolving;	/* pending mappings: they may have run (below) */
static void resolve_overlapping(unsigned long lo, unsigned long hi, int wait);
static const char *mode_name = "patch";

static void apply_selection(struct sg_obj *o)
{
	int i;

	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		int stub = sg_site_has_stub(s);

		if (stub && sg_attach_busy(s->lo, s->hi)) {
			s->kind = SG_PATCH_NONE;
			s->why = SG_WHY_BUSY;
		} else if (s->kind != SG_PATCH_NONE &&
		    (!wanted(s->nr) ||
		     (sud_mode && !(!SG_ARCH_TRAP_RAW && s->nr >= 0 &&
				    sg_raw_only(s->nr)))))
			s->kind = SG_PATCH_LEFT;
		else if (all_traps && stub && s->kind != SG_PATCH_TRAP)
			sg_site_in_place(s, SG_PATCH_TRAP);
		else if (zero_mode && stub && s->zwhy == SG_ZWHY_OK)
			sg_site_in_place(s, SG_PATCH_ZERO);
	}
	sg_patch_arch.finish(o);
}

static void scan_text(struct sg_obj *o, const unsigned char *p,
		      unsigned long n, unsigned long addr, void *arg)
{
	unsigned long done = 0;

	(void)arg;
	while (done + SG_CANDIDATE_LEN <= n) {
		long k = sg_patch_arch.scan(p + done, n - done);

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
	sg_patch_each_text(o, SG_CANDIDATE_LEN - SG_INSN_ALIGN, scan_text, 0);
}

/* Find and plan every site of o from its code alone (no shared plan):
 * what tests/rewrite golden-tests, with options of its own. */
void sg_patch_plan(struct sg_obj *o, const struct sg_options *with)
{
	if (with)
		opts = with;
	scan_object(o);
	sg_patch_check_branches(o);
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

	if (sud_mode || all_traps || !sg_patch_arch.lazy_look)
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
	 * none, a memfd's or a deleted file's, is planned at once; but the
	 * vDSO, which nothing changes, is read where it is mapped, and its
	 * few sites, fallbacks for clocks it cannot read, rarely run:
	 * planning it at every start was ~10 % of a small program's) */
	if (!traps_patch() || (o->path[0] != '/' && !o->is_vdso) ||
	    !sg_strncmp(o->path, "/memfd:", 7) || deleted(o->path))
		return 0;
	/* Only big objects (a libLLVM: reading it costs more than its few
	 * sites' traps) wait for traps: by default (--eager), under
	 * -m zeropage, which wants its proven sites as `call *%rax` (only
	 * planning at start makes them), and once threads run (a site could
	 * only get a one-store patch then: an object mapped now is planned
	 * before it can run). */
	if ((opts->eager || zero_mode ||
	     (__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) &&
	      !resolving)) &&
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
		if (objs[i].lazy && (*t = sg_obj_text_of(&objs[i], addr)) >= 0)
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

#define WROTE_MAX 1024

/* The len bytes at addr of o's text, before a first-trap patch changes
 * them (sg_obj_read puts them back); -1 if there is no room to. */
static int remember(struct sg_obj *o, unsigned long addr, unsigned long len)
{
	struct sg_wrote *w;

	if (!o->wrote && o->nwrote >= 0)
		o->wrote = sg_mmap(WROTE_MAX * sizeof(*o->wrote));
	if (!o->wrote || o->nwrote < 0 || o->nwrote == WROTE_MAX ||
	    len > sizeof(w->orig)) {
		o->nwrote = -1;	/* (later sites are read from the file) */
		return -1;
	}
	w = &o->wrote[o->nwrote];
	memcpy(w->orig, (const void *)addr, len);
	w->addr = addr;
	w->len = len;
	o->nwrote++;
	return 0;
}

/*
 * A padding jump and its site a few bytes apart, written with one write
 * of the bytes from one to the other (those between as they are): a
 * first-trap patch runs with no other thread and no interrupted code
 * (sg_patch_first_trap), so the order of the stores matters to no one.
 * 1 if done, -1 if that failed, 0 if they are not near.
 */
static int poke_near(struct sg_obj *o, const struct sg_site *s,
		     const unsigned char *pad, int plen,
		     const unsigned char *bytes)
{
	unsigned char buf[256];
	unsigned long lo = s->pad < s->lo ? s->pad : s->lo;
	unsigned long hi = s->pad + plen > s->hi ? s->pad + plen : s->hi;
	int t = sg_obj_text_of(o, lo);

	if (hi - lo > sizeof(buf) || t < 0 || !o->text[t].readable ||
	    sg_obj_text_of(o, hi - 1) != t ||
	    (s->pad < s->hi && s->pad + plen > s->lo))
		return 0;
	memcpy(buf, (const void *)lo, hi - lo);
	memcpy(buf + (s->pad - lo), pad, plen);
	memcpy(buf + (s->lo - lo), bytes, s->hi - s->lo);
	return sg_attach_note(s->pad, pad, plen) == 0 &&
	       sg_attach_note(s->lo, bytes, s->hi - s->lo) == 0 &&
	       sg_patch_poke(lo, buf, hi - lo) == 0 ? 1 : -1;
}

/* s's stub written into a region in reach, and for PAD its padding
 * jump made (*plen bytes of pad, else 0); what the patch replaces is
 * remembered.  1 if done. */
static int put_stub(struct sg_obj *o, struct sg_site *s, unsigned char *pad,
		    int *plen)
{
	static unsigned char stub[512];	/* (under lazy.c's lock) */
	unsigned long size = (sg_patch_arch.stub_size(s) + 15) & ~15UL;
	struct sg_region *r;
	int ok;

	*plen = 0;
	if (size > sizeof(stub) || memcmp((const void *)s->lo, s->orig,
					  s->hi - s->lo))
		return 0;
	r = sg_region_for(o, size);
	if (!r)
		return 0;
	if (r->used == 64)	/* new: made read+exec before any stub */
		sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_X);
	s->stub = r->base + r->used;
	if (!sg_region_in_reach(s->stub, s->addr, size + PAGE))
		return 0;
	sg_patch_arch.emit(s, stub, s->stub, r->base, r->base + 8);
	if (s->kind == SG_PATCH_PAD)
		*plen = sg_patch_arch.pad_bytes(s, pad);
	if (o->lazy && (remember(o, s->lo, s->hi - s->lo) < 0 ||
			(*plen && remember(o, s->pad, *plen) < 0)))
		return 0;
	ok = sg_attach_note(s->stub, stub, size) == 0 &&
	     sg_patch_poke(s->stub, stub, size) == 0;
	r->used += size;	/* (a stub, even unused, is never reused) */
	total.stub_bytes += size;
	return ok;
}

/* Write s's stub, its padding jump and its bytes; 1 if done. */
static int write_one(struct sg_obj *o, struct sg_site *s)
{
	unsigned char bytes[SG_SITE_MAX_REGION], pad[16];
	int plen, ok, near;

	if (!put_stub(o, s, pad, &plen) || sg_patch_catch_tail(s) < 0)
		return 0;
	sg_patch_arch.site_bytes(s, bytes);
	/* the stub, then the padding jump to it, then the site */
	near = plen ? poke_near(o, s, pad, plen, bytes) : 0;
	if (near)
		ok = near > 0;
	else
		ok = (!plen || (sg_attach_note(s->pad, pad, plen) == 0 &&
				sg_patch_poke(s->pad, pad, plen) == 0)) &&
		     sg_attach_note(s->lo, bytes, s->hi - s->lo) == 0 &&
		     sg_patch_poke(s->lo, bytes, s->hi - s->lo) == 0;
	sg_arch_flush_code(s->lo, s->hi);
	return ok;
}

/*
 * A site other threads may be running, written as the kernel writes its
 * own text (text_poke_bp): a breakpoint on the first byte that changes
 * (a thread that meets it resumes in the stub, core/traps.c), every
 * thread made to drop what it fetched, the other bytes, again, then the
 * first byte.  Only a LIVE site's one instruction, or a PAD site's
 * syscall after its padding jump (padding never runs), changes.  No
 * third membarrier after the last step (the kernel's third IPI lets it
 * free the breakpoint's entry): this table keeps its entry, so a thread
 * that still runs the breakpoint resumes in the stub, which the jump
 * reaches too, and the trap itself makes it fetch the code again.  Each
 * membarrier costs ~10 us while another thread runs (java -version
 * patched ~40 sites live).
 */
static int write_live(struct sg_obj *o, struct sg_site *s)
{
	unsigned char bytes[SG_SITE_MAX_REGION], pad[16], brk[16];
	unsigned long n = s->hi - s->lo;
	int plen;

	if (!put_stub(o, s, pad, &plen) ||
	    sg_patch_arch.trap_bytes(s, brk) != 1)
		return 0;
	sg_patch_arch.site_bytes(s, bytes);
	while (n > 1 && bytes[n - 1] == s->orig[n - 1])
		n--;	/* (what stays is not written) */
	if ((plen && (sg_attach_note(s->pad, pad, plen) < 0 ||
		      sg_patch_poke(s->pad, pad, plen) < 0)) ||
	    sg_traps_add(s->lo, s->stub) < 0)
		return 0;
	sg_patch_claim_traps(0);
	/* (a step that fails leaves the breakpoint: slower, still right) */
	return sg_attach_note(s->lo, bytes, n) == 0 &&
	       sg_patch_poke(s->lo, brk, 1) == 0 && sg_patch_sync() == 0 &&
	       sg_patch_poke(s->lo + 1, bytes + 1, n - 1) == 0 &&
	       sg_patch_sync() == 0 && sg_patch_poke(s->lo, bytes, 1) == 0;
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
	       (k = sg_patch_arch.scan(p + done, n - done)) >= 0) {
		c = addr + done + k;
		if (c - NEAR_BEFORE >= o->lo)
			sg_bitmap_set(blocks, (c - NEAR_BEFORE - o->lo) >> SG_BLOCK_SHIFT);
		sg_bitmap_set(blocks, (c - o->lo) >> SG_BLOCK_SHIFT);
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
	sg_patch_arch.targets(p, n, addr, arg, keep_near, o);
}

/* Every rel32 branch pattern of o's file that lands just before or on
 * a syscall pair, found in one read of its text (the first jump window
 * planned there asks): 0, or -1 if there are too many to keep. */
static long near_targets(struct sg_obj *o)
{
	struct sg_target_filter f = { o->lo, 0, 0, SG_BLOCK_SHIFT };
	unsigned char *blocks, *buf = scan_buf;	/* (see below) */
	unsigned long bsize;
	int opened;

	if (o->near)
		return o->nnear > NEAR_MAX ? -1 : 0;
	o->near = sg_mmap((NEAR_MAX + 1) * sizeof(*o->near));
	/* (one read for the tree: its processes share what it found) */
	if (o->near && sg_plans_near_find(o, o->near, &o->nnear, NEAR_MAX) == 0)
		return o->nnear > NEAR_MAX ? -1 : 0;
	f.nblocks = ((o->hi - o->lo) >> SG_BLOCK_SHIFT) + 1;
	bsize = f.nblocks / 8 + 1;
	blocks = sg_mmap(bsize);
	/* A handler may have interrupted sg_patch_new_code, which reads
	 * through scan_buf too: a buffer of our own meanwhile. */
	scan_buf = sg_mmap(SCAN_CHUNK);
	o->nnear = NEAR_MAX + 1;
	/* (its file says how much of the text may be read in place) */
	opened = o->fd < 0;
	if (opened)
		open_object(o);
	if (o->near && blocks && scan_buf && (o->fd >= 0 || o->is_vdso)) {
		/* Read where it is mapped: what earlier sites changed holds
		 * no branch of the file's (their windows end at the syscall
		 * and displace no jump), only jumps out of the object. */
		o->lazy = 0;
		o->nnear = 0;
		sg_patch_each_text(o, 16, mark_pairs, blocks);
		f.blocks = blocks;
		sg_patch_each_text(o, 16, near_text, &f);
		o->lazy = 1;
		sg_plans_near_add(o, o->near, o->nnear, NEAR_MAX);
	}
	if (opened && o->fd >= 0) {
		sg_sc1(SG_NR_close, o->fd);
		o->fd = -1;
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

/*
 * Reading an object whole for one site's jump window costs about 1 ns a
 * byte; a trap of the site left as it is, about 3 us here.  The object's
 * sites that need it wait (trapped) until their traps have cost about
 * what the read would: one trap per 4 KiB of text (ski rental: never
 * more than twice the better of the two).  Small objects wait first, big
 * ones once lazy.c's in-place patch had no room.
 */
static int waiting(struct sg_obj *o)
{
	unsigned long n = o->waited;

	/* The tree's processes wait as one: a shell's children each
	 * trapped a few dozen times at the same two libc sites. */
	if (!o->tree_looked) {
		o->tree_looked = 1;
		o->tree_waited = sg_plans_waited(o);
	}
	if (o->tree_waited)
		n = __atomic_load_n(o->tree_waited, __ATOMIC_RELAXED);
	return n < text_bytes(o) >> 12;
}

/* plan_one declined a jump window for lack of that read */
static int deferred;

/* The site at addr, planned alone.  A jump over neighbours needs every
 * rel32 branch of the object checked against its interior (a read of
 * the whole text): a padding jump, which has none, is taken first, then
 * with SG_FIRST_TAIL a window whose only interior is its syscall, and
 * that read is made for a big object only with SG_FIRST_SCAN. */
static int plan_one(struct sg_obj *o, unsigned long addr, struct sg_site *s,
		    int flags)
{
	int scan = flags & SG_FIRST_SCAN;
	struct sg_site alt;

	memset(s, 0, sizeof(*s));
	if (sg_patch_arch.plan(o, addr, s) != 1)
		return 0;
	/* The trapped thread resumes after the syscall: that must stay an
	 * instruction (a jump ending there, or a padding jump). */
	if (s->kind == SG_PATCH_JMP && s->hi != addr + s->insn_len) {
		sg_patch_arch.fallback(o, s);
		return s->kind == SG_PATCH_PAD;
	}
	if (s->kind == SG_PATCH_JMP && s->interior) {
		alt = *s;
		sg_patch_arch.fallback(o, &alt);
		if (alt.kind == SG_PATCH_PAD) {
			*s = alt;
		} else if (s->interior == SG_INTERIOR_SYSCALL &&
			   (flags & SG_FIRST_TAIL) && sg_patch_arch.call_at) {
			s->interior = SG_INTERIOR_CAUGHT;
		} else if (!scan && !o->near &&
			   (text_bytes(o) > SCAN_FREE || waiting(o))) {
			deferred = 1;
			return 0;
		} else if (near_targets(o) < 0) {
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

/* Was the site at addr patched after its first trap? */
static int ours(const struct sg_obj *o, unsigned long addr)
{
	int i;

	for (i = 0; i < o->nfirsts; i++)
		if (o->firsts[i] == addr)
			return 1;
	return sg_patch_lazy_live(addr);
}

/* Set once a first thread starts where sites can be patched while
 * threads run them (sg_patch_threads). */
static int live_patches;

/* The site at addr, planned to be written while other threads run: a
 * jump over one instruction before it, or a padding jump; never over
 * bytes that hold instruction starts, where a thread may be stopped. */
static int plan_live(struct sg_obj *o, unsigned long addr, struct sg_site *s)
{
	memset(s, 0, sizeof(*s));
	if (sg_patch_arch.plan(o, addr, s) != 1)
		return 0;
	if (sg_patch_arch.live(o, s))
		return 1;
	if (s->kind == SG_PATCH_JMP)
		sg_patch_arch.fallback(o, s);
	return s->kind == SG_PATCH_PAD;
}

/* 1 while addr's site, whose jump window needs its object read whole, is
 * to trap again (counted; see waiting()). */
int sg_patch_first_trap_wait(unsigned long addr)
{
	struct sg_obj *o;
	int t;

	o = lazy_object(addr, &t);
	/* (once threads run no jump window is planned: nothing to wait for) */
	if (!o || o->near || !waiting(o) ||
	    __atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST))
		return 0;
	o->waited++;
	if (o->tree_waited)
		__atomic_add_fetch(o->tree_waited, 1, __ATOMIC_RELAXED);
	return 1;
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

/* s, of o, patched after its first trap (or before, as the tree's
 * earlier processes planned it: from_tree): remembered, and counted. */
static void count_first(struct sg_obj *o, const struct sg_site *s,
			int from_tree)
{
	if (!o->firsts && o->nfirsts >= 0)
		o->firsts = sg_mmap(FIRSTS_MAX * sizeof(*o->firsts));
	if (o->firsts && o->nfirsts >= 0 && o->nfirsts < FIRSTS_MAX)
		o->firsts[o->nfirsts++] = s->addr;
	else
		o->nfirsts = -1;	/* (never planned whole) */
	if (s->interior == SG_INTERIOR_CAUGHT && !from_tree)
		total.caught++;
	if (from_tree)
		total.from_tree++;
	else
		o->n_first[s->kind]++;
	o->n_kind[s->kind]++;
	total.kind[s->kind]++;
	total.sites++;
}

/* May s, from the tree, be written here as a first trap would write
 * it: in a text mapping that only a call changes, of an object whose
 * first-trap sites are all remembered, and with padding that no site
 * of this process took (the two would share one trampoline: another
 * process may have chosen the same gap), which s then takes. */
static int tree_site_fits(struct sg_obj *o, const struct sg_site *s)
{
	int t = sg_obj_text_of(o, s->addr);

	if (t < 0 || !o->text[t].fixed || !o->text[t].readable ||
	    o->nfirsts < 0)
		return 0;
	if (s->kind != SG_PATCH_PAD)
		return 1;
	if (sg_obj_pad_taken(o, s->pad, s->pad + 8))
		return 0;
	sg_obj_pad_take(o, s->pad);
	return 1;
}

/*
 * The site of o a thread trapped at, as another process of the tree
 * planned it after its first trap: a fork child of a process that
 * mapped o before the tree had the plan (take_tree_sites) makes no
 * second read of a whole libc for a jump window the tree already
 * checked.  Only where a first trap would have written it: no other
 * thread (tree_site_fits).
 */
static int take_tree_site(struct sg_obj *o, struct sg_site *s)
{
	/* (the trapped thread resumes after the syscall: see plan_one) */
	if ((s->kind == SG_PATCH_JMP && s->hi != s->addr + s->insn_len) ||
	    !tree_site_fits(o, s) || !write_one(o, s))
		return 0;
	count_first(o, s, 1);
	return 1;
}

int sg_patch_first_trap(unsigned long addr, int flags)
{
	/* (--stats only: two system calls a trap otherwise) */
	int timed = opts && opts->stats;
	unsigned long long cpu = timed ? thread_cpu_ns() : 0;
	struct sg_obj *o;
	struct sg_site s;
	struct sg_thread *self = sg_self();
	int t, done = 0, threads = __atomic_load_n(&sg.vm_shared,
						  __ATOMIC_SEQ_CST);

	/* Several bytes change: no other thread may be running them (but
	 * for a live patch), and no code a handler interrupted may wait
	 * inside them.  (Never in a vfork child: lazy.c leaves its traps
	 * alone.) */
	if (!self || (threads && !live_patches) ||
	    __atomic_load_n(&sg.handlers_running, __ATOMIC_SEQ_CST) ||
	    sg_attach_starting())
		return 0;
	o = lazy_object(addr, &t);
	if (!o || !o->text[t].fixed || !o->text[t].readable)
		return 0;
	/* (a thread that trapped before another patched the site live gets
	 * here once its call is done; so does one whose trap made the look
	 * that took the site from the tree: take_tree_sites) */
	if (ours(o, addr))
		return 1;
	if (!threads) {
		done = sg_plans_take_sites(o, addr, take_tree_site);
		if (done) {
			sg_patch_poke_done();
			return 1;
		}
	}
	/* Read where it is mapped, as it was before our patches
	 * (sg_obj_read); from the file where more were written than are
	 * remembered, and for unwind info that only the section headers
	 * find (a static program's). */
	if (o->nwrote < 0 || (!sg_obj_eh_frame_hdr(o) && !o->is_vdso)) {
		open_object(o);
		if (o->fd < 0)
			return 0;
	}
	sg_obj_index_eh_frame(o);
	want_all = 1;
	deferred = 0;
	if (threads ? plan_live(o, addr, &s) && write_live(o, &s) :
		      plan_one(o, addr, &s, flags) && write_one(o, &s)) {
		count_first(o, &s, 0);
		if (!threads)
			sg_plans_add_site(o, &s);
		done = 1;
	}
	want_all = 0;
	if (o->fd >= 0)
		sg_sc1(SG_NR_close, o->fd);
	o->fd = -1;
	sg_patch_poke_done();
	if (timed)
		first_trap_ns += thread_cpu_ns() - cpu;
	/* (a small object's site waits before lazy.c's in-place patch: a
	 * planned one costs no page of its own) */
	return !done && deferred && text_bytes(o) <= SCAN_FREE ? -1 : done;
}

static void free_sites(struct sg_obj *o);

/* (sg_plans_take_sites) one of o's sites from the tree, kept in
 * o->sites to be written with the others */
static int keep_tree_site(struct sg_obj *o, struct sg_site *s)
{
	struct sg_site *n;

	if (!tree_site_fits(o, s) || !(n = new_site(o)))
		return 0;
	*n = *s;
	o->nsites++;
	return 1;
}

/*
 * The sites of o, just mapped and left to traps, that earlier processes
 * of the tree patched after their first traps, written before o runs
 * (bash's children trapped some hundred times each at sites their
 * parents and siblings had already planned).  All at once, as a planned
 * object's: a few mprotect calls, not two writes through /proc/self/mem
 * a site.  No other thread runs (patch_object), and the object has not.
 */
static void take_tree_sites(struct sg_obj *o)
{
	struct sg_thread *self = sg_self();
	unsigned char pad[16];
	int i;

	/* A mapping looked at late (pending, see resolving) may have run:
	 * as at a first trap, no code a handler interrupted may wait in a
	 * window.  (Windows end at their syscall, where a trapped thread
	 * resumes: plan_one.) */
	if (!self || self->vfork_child ||
	    __atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&sg.handlers_running, __ATOMIC_SEQ_CST) ||
	    !sg_plans_take_sites(o, 0, keep_tree_site))
		return;
	/* what they replace, for plans made here later (sg_obj_read) */
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		int plen = s->kind == SG_PATCH_PAD ?
				   sg_patch_arch.pad_bytes(s, pad) : 0;

		if (remember(o, s->lo, s->hi - s->lo) < 0 ||
		    (plen && remember(o, s->pad, plen) < 0))
			s->kind = SG_PATCH_NONE;
	}
	total.stub_bytes += sg_patch_place_stubs(o);
	sg_patch_write_sites(o);
	for (i = 0; i < o->nsites; i++)
		if (sg_site_has_stub(&o->sites[i]))
			count_first(o, &o->sites[i], 1);
	free_sites(o);
	o->nsites = 0;
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
	if (leave_to_traps(o)) {
		take_tree_sites(o);
		return;
	}
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

	total.stub_bytes += sg_patch_place_stubs(o);
	sg_patch_write_sites(o);
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
		if (zero_mode && sg_site_has_stub(s) && s->kind != SG_PATCH_ZERO)
			total.zwhy[s->zwhy]++;
	}
	if (o->n_why[SG_WHY_SYSENTER])
		sg_warn_compat();
	total.sites += o->nsites;
	total.data += o->n_data;
	total.unverified += o->n_unverified;
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
	sg_patch_poke_done();	/* the program must not see the descriptor */
	sg_patch_claim_traps(0);
	sg_sc4(SG_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)&old_mask, 0, 8);
}

/* sysgate -p: code a JIT wrote before sysgate came was never seen being
 * made; syscall user dispatch watches it. */
static int watch_anonymous(const struct sg_mapping *m, void *arg)
{
	(void)arg;
	if ((m->prot & PROT_X) && !m->dev_ino[1] && *m->path != '[')
		sg_watch_range(m->lo, m->hi);
	return 0;
}

static int patch_start(const struct sg_options *o)
{
	unsigned long long t0 = sysgate_now_ns();
	unsigned long len;
	char *maps;
	long got;
	int i;

	opts = o;
	sg_region_reach(o->stub_reach);
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
	/* The maps into the scan buffer, free until the objects are
	 * collected from them, where they fit (not a 1 MiB mapping made
	 * and unmapped for a few KiB). */
	len = 0;
	got = scan_buf ? sg_maps_read_into((char *)scan_buf, SCAN_CHUNK) : -1;
	maps = (char *)scan_buf;
	if (got < 0 || got >= (long)SCAN_CHUNK - 1)
		maps = sg_maps_read(&len);
	if (!objs || !scan_buf || !maps)
		return -12;
	if (sg_attach_starting()) {
		sg_maps_each(maps, watch_anonymous, 0);
		/* threads may run that sysgate never saw made: code is
		 * patched one store at a time, as after the first thread */
		sg.vm_shared = 1;
	}
	nobjs = collect_objects(maps, objs, MAX_OBJS);
	if (len)
		sg_munmap(maps, len);
	patch_objects(objs, nobjs);
	/* Objects left to traps may get live patches once threads run,
	 * whose breakpoints a thread may meet: SIGTRAP is claimed before
	 * the program can block it (glibc's pthread_create blocks every
	 * signal around the clone, and the new thread starts so). */
	if (total.lazy && sg_patch_arch.live)
		sg_patch_claim_traps(1);
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

/* An object left to traps keeps the padding its sites took: a site
 * planned at a later trap must not take it again. */
static void free_sites(struct sg_obj *o)
{
	if (o->sites)
		sg_munmap(o->sites, o->cap * sizeof(*o->sites));
	o->sites = 0;
	o->cap = 0;
	if (o->lazy)
		return;
	if (o->pads)
		sg_munmap(o->pads, o->pads_cap * sizeof(*o->pads));
	o->pads = 0;
	o->pads_cap = o->npads = 0;
}

/*
 * A process that keeps making calls alone while SUD is on, which taxes
 * each (site 0, core/dispatch.c), and the first thread where no site
 * can be patched while threads run it (write_live: an arch without
 * one, a kernel without membarrier's SYNC_CORE): from then on such a
 * site is only patched one store at a time (lazy.c), which has no room
 * for a stub near many of them, and such a site traps at every call.
 * While this one still runs alone, each object left to traps (but the
 * big ones, see BIG_TEXT) is planned whole, as --eager would have done
 * at start, keeping the sites already patched and the one making the
 * clone; SUD goes off if nothing is left for it.
 */

static void plan_whole(struct sg_obj *o, unsigned long busy)
{
	int i, t;

	for (t = 0; t < o->ntext; t++)
		if (!o->text[t].fixed || !o->text[t].readable)
			return;
	if (o->nfirsts < 0 || text_bytes(o) > BIG_TEXT)
		return;
	/* (the vDSO has no file: it is read where it is mapped, with what
	 * its first-trap patches replaced put back; left to traps, its
	 * watched text would keep syscall user dispatch on for good) */
	open_object(o);
	if (o->fd < 0 && !o->is_vdso)
		return;
	/* (still lazy while planned: read from the file, not from code
	 * that earlier sites changed) */
	/* SUD stops watching it whole; what planning cannot verify, and
	 * what stays unpatched, is watched site by site */
	for (t = 0; t < o->ntext; t++)
		sg_watch_forget(o->text[t].lo, o->text[t].hi);
	want_all = 1;	/* (SUD may stay on: an unpatched site would trap) */
	/* (another process of the tree may have planned this file whole:
	 * each of a test suite's Python processes starts threads) */
	if (sg_plans_find(o, alloc_sites) == 0) {
		total.shared++;
		for (t = 0; o->n_unverified && t < o->ntext; t++)
			sg_watch_range(o->text[t].lo, o->text[t].hi);
		/* (that process's padding choices may differ from the ones
		 * this one's first traps made) */
		for (t = 0; t < o->nsites; t++)
			if (o->sites[t].kind == SG_PATCH_PAD &&
			    !ours(o, o->sites[t].addr) &&
			    sg_obj_pad_taken(o, o->sites[t].pad,
					     o->sites[t].pad + 8))
				o->sites[t].kind = SG_PATCH_NONE;
	} else {
		sg_patch_plan(o, 0);
		total.read_bytes += text_bytes(o);
		sg_plans_add(o);
	}
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
	int i, any = 0, shared = total.shared;

	/* (no traps_patch() here: its probe turns SUD off in this thread;
	 * an object left to traps says it was probed; never in a vfork
	 * child, on its small stack: see sg_patch_lazy_trapped) */
	if (!objs || __atomic_load_n(&sg.handlers_running, __ATOMIC_SEQ_CST) ||
	    sg_attach_starting() || (self && self->vfork_child))
		return;
	resolve_overlapping(0, ~0UL, 1);	/* (planned whole below) */
	for (i = 0; i < nobjs && !any; i++)
		any = objs[i].lazy;
	if (!any)
		return;
	/* Where sites can be patched while threads run them, objects stay
	 * left to traps (SUD still watches their text): reading libc whole
	 * cost a first thread 4-6 ms of CPU.  (The registration for that
	 * is made here, alone: with threads it waits for an RCU grace
	 * period.  SIGTRAP was claimed at start, patch_start.) */
	if (site && sg_patch_arch.live && sg_patch_sync() == 0) {
		live_patches = 1;
		sg_patch_claim_traps(1);
		return;
	}
	sg_sc4(SG_NR_rt_sigprocmask, 0, (long)&all, (long)&old_mask, 8);
	scan_buf = sg_mmap(SCAN_CHUNK);
	for (i = 0; scan_buf && i < nobjs; i++)
		if (objs[i].lazy) {
			plan_whole(&objs[i], site);
			if (!objs[i].lazy && opts->stats)
				sg_patch_object_line(buf, &n, &objs[i], report());
		}
	if (scan_buf)
		sg_munmap(scan_buf, SCAN_CHUNK);
	scan_buf = keep;
	sg_patch_poke_done();
	sg_patch_arch.release();
	sg_patch_claim_traps(0);
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
		sg_patch_put(head, &k, " us of CPU");
		if (total.shared > shared) {
			sg_patch_put(head, &k, ", ");
			sg_patch_put_num(head, &k, total.shared - shared);
			sg_patch_put(head, &k, " as another process planned");
		}
		sg_patch_put(head, &k, "):\n");
		sg_write_all(sg.out_fd, head, k);
		sg_write_all(sg.out_fd, buf, n);
	}
}

/* f, mapped since start-up: patched as one of objs, with its --stats
 * lines. */
static void patch_later(const struct sg_obj *f)
{
	static char buf[4096];	/* under sg_patch_new_code's lock */
	struct sg_obj *o = &objs[nobjs];
	unsigned long long cpu = total.cpu_ns;
	size_t k = 0;

	*o = *f;
	nobjs++;
	patch_objects(o, 1);
	if (opts->stats) {
		sg_patch_put(buf, &k, "sysgate: patch: loaded later (");
		sg_patch_put_num(buf, &k, (total.cpu_ns - cpu) / 1000);
		sg_patch_put(buf, &k, " us of CPU):\n");
		sg_patch_object_line(buf, &k, o, report());
		sg_write_all(sg.out_fd, buf, k);
	}
	free_sites(o);
}

/*
 * The objects of the files mapped in [lo, hi), asked of the kernel one
 * mapping at a time (sg_maps_query): each from its mapping at offset 0,
 * where the mapping in [lo, hi) says it starts, up to the first mapping
 * of another file, grouped as collect_objects groups them.  -1 where
 * the kernel cannot say or an object is laid out otherwise: the maps
 * are read whole then (java: ~300 lines, 95 us to make and 75 to
 * parse, against a few queries).
 */
static int query_objects(long fd, unsigned long lo, unsigned long hi,
			 struct sg_obj *list, int max)
{
	static char name[2][sizeof(list->path)];
	struct collect c = { list, 0, max };
	struct sg_mapping m, o;
	unsigned long a = lo, b;

	while (a < hi) {
		if (sg_maps_query(fd, a, &m, name[0], sizeof(name[0])) < 0)
			return -1;
		if (m.lo >= hi)
			break;
		a = m.hi;
		if (!m.dev_ino[1])
			continue;	/* (anonymous: no object) */
		/* (an object is a file's mapping at offset 0 and those of
		 * the same file after it, as ld.so maps a library) */
		if (m.off > m.lo ||
		    sg_maps_query(fd, m.lo - m.off, &o, name[1],
				  sizeof(name[1])) < 0 ||
		    o.lo != m.lo - m.off || o.off ||
		    o.dev_ino[0] != m.dev_ino[0] || o.dev_ino[1] != m.dev_ino[1])
			return -1;
		for (b = o.lo;;) {
			collect_one(&o, &c);
			b = o.hi;
			if (sg_maps_query(fd, b, &o, name[1],
					  sizeof(name[1])) < 0 ||
			    o.lo != b || !o.off ||
			    o.dev_ino[0] != m.dev_ino[0] ||
			    o.dev_ino[1] != m.dev_ino[1])
				break;
		}
		if (b < m.hi)
			return -1;	/* (a gap before [lo, hi): read them) */
		a = b;
	}
	return c.n;
}

/* The objects of fresh (n of them, from the maps or query_objects) with
 * text in [lo, hi) that are not known yet, patched; 1 if any object has
 * text there. */
static int patch_new_objects(struct sg_obj *fresh, int n, unsigned long lo,
			     unsigned long hi)
{
	int i, found = 0;

	for (i = 0; i < n && nobjs < MAX_OBJS; i++) {
		if (!overlaps_text(&fresh[i], lo, hi))
			continue;
		if (sg.own_loader)
			break;	/* maybe another program's: watched */
		found = 1;
		if (!known_object(&fresh[i]))
			patch_later(&fresh[i]);
	}
	return found;
}

/*
 * File mappings made executable while the process runs alone and SUD
 * can catch their calls, not looked at yet: each look reads
 * /proc/self/maps (35-70 us, java's 14 libraries 2.5 ms in all), and
 * most of them (libm, java's libjava) never make a call themselves.
 * SUD watches each whole meanwhile; its first trap, a call that changes
 * one, or the first thread looks at all of them with one read.
 */
#define PENDING_MAX 64

static struct {
	unsigned long lo, hi;
} pending[PENDING_MAX];
static int npending;
static int new_code_lock;	/* (pending, and the reads below) */

static int new_code_take(int wait)
{
	while (__atomic_exchange_n(&new_code_lock, 1, __ATOMIC_ACQUIRE)) {
		if (!wait)
			return 0;
		sg_sud_answer(sg_self());	/* (as lock.c's spin) */
		sg_sc0(SG_NR_sched_yield);
	}
	return 1;
}

static void new_code_drop(void)
{
	__atomic_store_n(&new_code_lock, 0, __ATOMIC_RELEASE);
}

/* Planning's buffers are kept for the process and emptied after each
 * use, except for their first page: emptied every time, the pages a
 * small look or a small function's planning writes came back as faults
 * (~3 us each) at the next first trap, more than that planning costs. */
void sg_patch_drop_tail(void *b, unsigned long used)
{
	if (used > PAGE)
		sg_sc3(SG_NR_madvise, (long)b + PAGE,
		       ((used + PAGE - 1) & ~(PAGE - 1)) - PAGE,
		       4 /* MADV_DONTNEED */);
}

/*
 * The ELF objects in each of the n ranges of r patched (or left to
 * traps) as sg_patch_new_code says, with one read of the maps; code
 * that is no object is watched (under the lock).
 */
static void look_at(const unsigned long (*r)[2], int n)
{
	/* (kept: a mapping made and unmapped at each look cost more than
	 * the look; emptied after it, see below) */
	static struct sg_obj *fresh;
	unsigned long len = 0;
	char *maps = 0;
	long fd = sg_maps_open();
	int i, k, found, most = 0;

	fresh = fresh ? fresh : sg_mmap(MAX_OBJS * sizeof(*fresh));
	scan_buf = scan_buf ? scan_buf : sg_mmap(SCAN_CHUNK);
	for (i = 0; i < n; i++) {
		k = fresh && fd >= 0 ?
			    query_objects(fd, r[i][0], r[i][1], fresh, MAX_OBJS) :
			    -1;
		if (k < 0 && !maps) {
			maps = sg_maps_read(&len);
			total.maps_reads++;
		}
		if (k < 0 && maps && fresh)
			k = collect_objects(maps, fresh, MAX_OBJS);
		most = k > most ? k : most;
		found = fresh && scan_buf && k > 0 &&
			patch_new_objects(fresh, k, r[i][0], r[i][1]);
		/* No object to patch (JIT code): SUD catches what may be
		 * a call.  Run-time code without any (most JIT output)
		 * cannot make one until it changes, which comes back
		 * here: SUD stays off. */
		if (!found && sg_watch_code(r[i][0], r[i][1], scan_buf,
					    SCAN_CHUNK))
			total.anon_exec++;
		else if (!found)
			total.anon_clean++;
	}
	sg_watch_settle(0);
	if (fd >= 0)
		sg_sc1(SG_NR_close, fd);
	if (maps)
		sg_munmap(maps, len);
	/* (object_of clears each object it fills) */
	if (fresh)
		sg_patch_drop_tail(fresh, most * sizeof(*fresh));
	sg_patch_arch.release();
}

/* Look at the pending mappings now (under the lock). */
static void resolve_pending(void)
{
	unsigned long r[PENDING_MAX][2];
	int i, n = npending;

	for (i = 0; i < n; i++) {
		r[i][0] = pending[i].lo;
		r[i][1] = pending[i].hi;
		sg_watch_forget(r[i][0], r[i][1]);
	}
	npending = 0;
	if (!n)
		return;	/* (another thread looked first) */
	resolving = 1;
	look_at((const unsigned long (*)[2])r, n);
	resolving = 0;
}

static int pending_overlaps(unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; i < __atomic_load_n(&npending, __ATOMIC_ACQUIRE); i++)
		if (pending[i].lo < hi && pending[i].hi > lo)
			return 1;
	return 0;
}

/* Before [lo, hi) changes, or threads start: what is pending there has
 * to be known first (wait: 0 in a signal handler, which may have
 * interrupted this thread's own look). */
static void resolve_overlapping(unsigned long lo, unsigned long hi, int wait)
{
	if (!pending_overlaps(lo, hi) || !new_code_take(wait))
		return;
	resolve_pending();
	new_code_drop();
}

/* addr trapped (lazy.c, under its lock): in a pending mapping, its
 * object becomes known, so that the site is planned as any other. */
void sg_patch_pending(unsigned long addr)
{
	resolve_overlapping(addr, addr + 1, 0);
}

/*
 * [lo, hi) just became executable (dlopen, mmap or mprotect with
 * PROT_EXEC): patch the ELF objects there before the caller can run them.
 * Anonymous code (JIT) has no unwind info to decode from and is counted.
 * A program with no interpreter that maps code itself is a loader or an
 * emulator (valgrind maps its guest's ELF files, and runs them only
 * translated): that code is watched like run-time code, and patched only
 * once it traps by running natively.  A file's mapping, where it would
 * be left to traps anyway, waits in pending (above).
 */
void sg_patch_new_code(unsigned long lo, unsigned long hi, int file)
{
	const unsigned long r[1][2] = { { lo, hi } };

	if (!objs)
		return;		/* not started: nothing is hooked */
	new_code_take(1);
	total.mapped_later++;
	if (file && npending < PENDING_MAX && !opts->eager && !zero_mode &&
	    !sg.own_loader && traps_patch() &&
	    !__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST)) {
		pending[npending].lo = lo;
		pending[npending].hi = hi;
		__atomic_store_n(&npending, npending + 1, __ATOMIC_RELEASE);
		sg_watch_range(lo, hi);
		sg_watch_settle(0);
	} else {
		look_at(r, 1);
	}
	new_code_drop();
}

#define WATCHED_GONE 4		/* in a code_begin token */

/* [lo, hi) is about to change: lazily patched sites there get their
 * bytes back (lazy.c), and SUD stops watching what was there. */
int sg_patch_code_begin(const struct sysgate_sys *s, unsigned long lo,
			    unsigned long hi)
{
	/* (munmap and mmap over it take the bytes with them) */
	int drops = s->nr == SG_NR_munmap || s->nr == SG_NR_mmap;
	int token;

	resolve_overlapping(lo, hi, 1);
	token = sg_patch_lazy_begin(lo, hi, drops);

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
		sg_patch_new_code(lo, hi, 0);
	else if (s->nr == SG_NR_mremap)
		sg_patch_new_code(s->ret, s->ret + s->args[2], 0);
	sg_patch_lazy_settle();	/* maybe nothing is left */
}

/* patch.c's state, as --stats reports it (stats.c). */
static const struct sg_patch_report *report(void)
{
	static struct sg_patch_report r;

	r.mode = mode_name;
	r.zero = zero_mode;
	r.debug = opts && opts->debug;
	r.objs = objs;
	r.nobjs = nobjs;
	r.total = &total;
	r.first_trap_ns = first_trap_ns;
	return &r;
}

void sg_patch_stats(void)
{
	sg_patch_report_start(report());
}

/* Code mapped later and never looked at: none of its sites trapped
 * often enough to be planned (lazy.c), so its object was not read. */
static void pending_lines(void)
{
	char buf[2048], path[256];
	unsigned long off;
	size_t n = 0;
	int i;

	for (i = 0; i < npending && n + sizeof(path) + 100 < sizeof(buf);
	     i++) {
		if (sysgate_locate((const void *)pending[i].lo, path,
				   sizeof(path), &off) < 0)
			continue;
		sg_patch_put(buf, &n, "sysgate:   ");
		sg_patch_put(buf, &n, path);
		sg_patch_put(buf, &n, ": mapped later, not looked at (no site "
				      "of it trapped three times)\n");
	}
	sg_write_all(sg.out_fd, buf, n);
}

/* --stats at exit: the calls signals caught, the sites patched late. */
void sg_patch_exit_stats(void)
{
	if (!objs)
		return;
	pending_lines();
	sg_patch_report_exit(report());
	sg_patch_lazy_stats();
}

/* Once sites are written only the trap table, the stubs and the list
 * of objects (to tell new code from known code) are needed. */
void sg_patch_release(void)
{
	int i;

	sg_patch_arch.release();
	for (i = 0; i < nobjs; i++)
		free_sites(&objs[i]);
	/* (kept for the next look at new code: emptied, not unmapped) */
	if (scan_buf)
		sg_sc3(SG_NR_madvise, (long)scan_buf, SCAN_CHUNK,
		       4 /* MADV_DONTNEED */);
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
