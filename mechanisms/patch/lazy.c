/* SPDX-License-Identifier: MIT */
/*
 * Lazy patching: a system call that no plan covered (code a JIT wrote,
 * code without unwind info, an object left to traps) is caught by
 * syscall user dispatch, a signal per call.  After its first trap a site
 * of an ELF object is planned alone where no other thread can run it
 * (patch.c, sg_patch_first_trap); else it gets a stub and is rewritten
 * in place here, so its later calls cost what a planned site costs.
 *
 * Only rewrites that are safe while other threads run the code:
 *   - the arch's site bytes never leave a half-written instruction and
 *     touch no other instruction's bytes (x86-64: one byte, 0f -> e9, see
 *     patch-x86_64.c), so no branch target in code we cannot see breaks;
 *   - private, read+exec memory only: writable code (RWX) may be
 *     rewritten without a call we see, shared code through another view;
 *   - every mprotect, munmap, mremap, mmap over it and madvise that drops
 *     pages goes through the core, which puts the original bytes back
 *     first and holds the lock across the call (sg_patch_lazy_begin/end),
 *     so a JIT that makes its code writable again finds what it wrote and
 *     no site is written into a page that is changing.
 * Stubs are never freed or reused: a thread may still be inside one
 * (blocked in its call) when its site goes away.
 *
 * Runs from the SIGSYS handler: raw calls only, under a lock that blocks
 * every signal (lock.c).
 */
#include "patch.h"
#include "dispatch.h"

#define LAZY_MAX 4096		/* sites, live or retired */
#define PAGES_MAX 8192
#define DECLINED_SLOTS 1024	/* power of two */
#define LOOK_MAX 16
#define STUB_MAX 256

/* Why a trapped site was left to its trap. */
enum lazy_why {
	LAZY_OK,
	LAZY_NOT_SITE,		/* no syscall instruction there (int $0x80) */
	LAZY_UNMAPPED,		/* gone by the time it was looked at */
	LAZY_WRITABLE,		/* write+exec: may change without a call */
	LAZY_SHARED,		/* shared: another view may write it */
	LAZY_SPECIAL,		/* [vdso] and the like */
	LAZY_EDGE,		/* the bytes it needs cross its mapping's end */
	LAZY_NO_ROOM,		/* the stub's address is taken or invalid */
	LAZY_FULL,		/* LAZY_MAX sites already */
	LAZY_WRITE,		/* /proc/self/mem refused the write */
	LAZY_WHY_COUNT
};

static const char *const why_names[LAZY_WHY_COUNT] = {
	[LAZY_NOT_SITE] = "not a syscall instruction",
	[LAZY_UNMAPPED] = "unmapped meanwhile",
	[LAZY_WRITABLE] = "in writable code",
	[LAZY_SHARED] = "in shared memory",
	[LAZY_SPECIAL] = "in a special mapping",
	[LAZY_EDGE] = "at the end of its mapping",
	[LAZY_NO_ROOM] = "no room for a stub where the jump lands",
	[LAZY_FULL] = "too many lazy sites",
	[LAZY_WRITE] = "code could not be written",
};

struct lazy_site {
	unsigned long addr, stub, stub_end;
	unsigned char orig[LOOK_MAX];	/* the bytes before patching */
	unsigned char now[LOOK_MAX];	/* and after */
	unsigned char nbytes;		/* how many the patch changed */
	unsigned char live;
};

static struct {
	int enabled;
	int any;		/* a site was (about to be) patched */
	int changing;		/* calls in flight that saw !any, or saw
				   nothing of ours where they change */
	unsigned int gen;	/* bumped by each holder of the lock that
				   changes the tables below */
	struct sg_patch_lock lock;
	struct lazy_site *sites;
	int nsites, live;
	unsigned long *pages;	/* stub pages, never unmapped */
	int npages;
	unsigned long declined[DECLINED_SLOTS];
	int ndeclined;
	int patched, restored, why[LAZY_WHY_COUNT];
} lz;

/* --- declined sites: not tried again until some code changes ---------- */

static unsigned long slot_of(unsigned long addr)
{
	return (addr * 0x9e3779b97f4a7c15UL) >> 54;	/* 10 bits */
}

static int declined(unsigned long addr)
{
	unsigned long i, k;

	for (i = slot_of(addr), k = 0; k < DECLINED_SLOTS;
	     i = (i + 1) % DECLINED_SLOTS, k++) {
		unsigned long a = __atomic_load_n(&lz.declined[i],
						  __ATOMIC_RELAXED);

		if (a == addr)
			return 1;
		if (!a)
			return 0;
	}
	return 0;
}

/* Under the lock.  A full table only means more tries. */
static void decline(unsigned long addr)
{
	unsigned long i, k;

	for (i = slot_of(addr), k = 0; k < DECLINED_SLOTS / 2;
	     i = (i + 1) % DECLINED_SLOTS, k++)
		if (!lz.declined[i]) {
			__atomic_store_n(&lz.declined[i], addr,
					 __ATOMIC_RELAXED);
			lz.ndeclined++;
			return;
		}
}

/* --- sites planned at their third trap ---------------------------------- */

/*
 * A trap costs a few microseconds, planning and writing a site four to
 * six times that: a site that runs once or twice (most of a program's
 * start: brk, access, read, arch_prctl, rseq...) costs less left to its
 * traps, and the object it is in need not even be looked at.  A site is
 * planned at its SG_TRAPS_BEFORE_PLAN-th trap; counts are kept without
 * the lock.  A full table plans at once.
 */
#define SEEN_SLOTS 1024		/* power of two; 8 KiB: two pages touched */
#define SEEN_ADDR(e) ((e) >> 8)	/* an entry: the address, then the count */
#define SEEN_MAX 255UL

static unsigned long seen[SEEN_SLOTS];
/* bit (addr >> 21) % 64 of each counted site: most calls that unmap
 * need not look through the table */
static unsigned long seen_regions;

static unsigned long regions_of(unsigned long lo, unsigned long hi)
{
	unsigned long r, m = 0;

	if (hi <= lo)
		return 0;
	if (hi - lo >= 64UL << 21)
		return ~0UL;
	for (r = lo >> 21; r <= (hi - 1) >> 21; r++)
		m |= 1UL << (r & 63);
	return m;
}

/* [lo, hi) is unmapped or mapped over: code there later counts anew. */
static void seen_forget(unsigned long lo, unsigned long hi)
{
	int i;

	if (!(__atomic_load_n(&seen_regions, __ATOMIC_RELAXED) &
	      regions_of(lo, hi)))
		return;
	for (i = 0; i < SEEN_SLOTS; i++) {
		unsigned long e = __atomic_load_n(&seen[i], __ATOMIC_RELAXED);

		if (SEEN_ADDR(e) >= lo && SEEN_ADDR(e) < hi)
			__atomic_store_n(&seen[i], SEEN_ADDR(e) << 8,
					 __ATOMIC_RELAXED);
	}
}

/* addr's traps so far, this one included (user addresses have 47 bits:
 * the count fits below one) */
static unsigned int traps_at(unsigned long addr)
{
	unsigned long i, k;

	__atomic_or_fetch(&seen_regions, regions_of(addr, addr + 1),
			  __ATOMIC_RELAXED);
	for (i = (addr * 0x9e3779b97f4a7c15UL) >> 54, k = 0; k < SEEN_SLOTS / 2;
	     i = (i + 1) % SEEN_SLOTS, k++) {
		unsigned long e = __atomic_load_n(&seen[i], __ATOMIC_RELAXED);

		while (!e || SEEN_ADDR(e) == addr) {
			unsigned long n = e ? (e & SEEN_MAX) + ((e & SEEN_MAX) <
							      SEEN_MAX) : 1;

			if (__atomic_compare_exchange_n(&seen[i], &e,
							addr << 8 | n, 1,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
				return (unsigned int)n;
		}
	}
	return SG_TRAPS_BEFORE_PLAN;
}

/* --- sites waiting for a whole-object read ----------------------------- */

/*
 * A site that needs a jump window (of a big object: where the in-place
 * patch found no room) needs every rel32 branch of its object checked,
 * one read of its whole text (1.5 ms for libc's 1.4 MiB here, 160 us
 * for ld.so).  Until its object's waiting sites have trapped about as
 * much (patch.c, sg_patch_first_trap_wait) such a site stays trapped,
 * and its later traps skip planning: python3 -c pass has three in libc,
 * which trap about 80 times in all.  A full table pays at once.
 */
#define WAITING_SLOTS 256	/* power of two */

static unsigned long waiting[WAITING_SLOTS];

/* Under the lock (or alone: still_waiting): is the site at addr waiting
 * (add: now)? */
static int waits(unsigned long addr, int add)
{
	unsigned long i = (addr * 0x9e3779b97f4a7c15UL) >> 56, k;

	for (k = 0; k < WAITING_SLOTS; i = (i + 1) % WAITING_SLOTS, k++) {
		if (waiting[i] == addr)
			return 1;
		if (!waiting[i]) {
			if (add)
				waiting[i] = addr;
			return add;
		}
	}
	return 0;
}

/* --- writing ----------------------------------------------------------- */


/* One store per byte, in the arch's order: each leaves valid code.
 * Through /proc/self/mem, which writes read+exec pages as they are: no
 * protection change that the program's own mprotect calls could race. */
static int poke_bytes(unsigned long addr, const unsigned char *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (sg_poke_code(addr + i, b + i, 1) < 0)
			return -1;
	return 0;
}

static int own_page(unsigned long p)
{
	int i;

	for (i = 0; i < lz.npages; i++)
		if (lz.pages[i] == p)
			return 1;
	return 0;
}

/* [lo, hi) becomes stub space: free of other stubs, on pages we own. */
static int reserve(unsigned long lo, unsigned long hi)
{
	unsigned long p;
	int i, added = 0;

	if (hi <= lo || lo < 0x10000)
		return -1;
	for (i = 0; i < lz.nsites; i++)
		if (lz.sites[i].stub < hi && lz.sites[i].stub_end > lo)
			return -1;
	for (p = lo & ~(PAGE - 1); p < hi; p += PAGE) {
		long r;

		if (own_page(p))
			continue;
		if (lz.npages == PAGES_MAX)
			goto undo;
		r = sg_sc6(SG_NR_mmap, p, PAGE, PROT_R | PROT_X,
			   MAP_PRIVATE_ANON | MAP_FIXED_NOREPLACE, -1, 0);
		if (sysgate_is_error(r))
			goto undo;
		if ((unsigned long)r != p) {	/* (kernels before 4.17) */
			sg_munmap((void *)r, PAGE);
			goto undo;
		}
		lz.pages[lz.npages++] = p;
		added++;
	}
	return 0;
undo:
	while (added--)
		sg_munmap((void *)lz.pages[--lz.npages], PAGE);
	return -1;
}

/* The program takes [lo, hi) over: stub pages there are no longer ours. */
static void drop_pages(unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; i < lz.npages; i++)
		if (lz.pages[i] < hi && lz.pages[i] + PAGE > lo)
			lz.pages[i--] = lz.pages[--lz.npages];
}

/* The stub, with the two pointers it calls through just after it. */
static int write_stub(unsigned long addr, const unsigned char *code,
		      unsigned long at, unsigned long *end)
{
	unsigned char buf[STUB_MAX];
	struct sg_site s;
	unsigned long size, ptrs[2] = { sg_patch_arch.entry,
					sg_patch_arch.after };

	memset(&s, 0, sizeof(s));
	s.addr = s.lo = addr;
	s.hi = addr + SG_SYSCALL_INSN_LEN;
	s.insn_len = SG_SYSCALL_INSN_LEN;
	s.nr = -1;
	s.kind = SG_PATCH_JMP;
	memcpy(s.orig, code, SG_SYSCALL_INSN_LEN);
	size = (sg_patch_arch.stub_size(&s) + 7) & ~7UL;
	if (size + sizeof(ptrs) > sizeof(buf))
		return LAZY_NO_ROOM;
	memset(buf, 0, sizeof(buf));
	sg_patch_arch.emit(&s, buf, at, at + size, at + size + 8);
	memcpy(buf + size, ptrs, sizeof(ptrs));
	*end = at + size + sizeof(ptrs);
	if (reserve(at, *end) < 0)
		return LAZY_NO_ROOM;
	return sg_poke_code(at, buf, *end - at) < 0 ? LAZY_WRITE : LAZY_OK;
}

static struct lazy_site *live_site(unsigned long addr)
{
	int i;

	for (i = 0; i < lz.nsites; i++)
		if (lz.sites[i].live && lz.sites[i].addr == addr)
			return &lz.sites[i];
	return 0;
}

/* Code written again as it was (a JIT that re-protects or re-maps it):
 * the site's old stub is the one it needs, still there. */
static struct lazy_site *retired_site(unsigned long addr, unsigned long stub)
{
	int i;

	for (i = 0; i < lz.nsites; i++)
		if (!lz.sites[i].live && lz.sites[i].addr == addr &&
		    lz.sites[i].stub == stub)
			return &lz.sites[i];
	return 0;
}

/* Under the lock: patch the site at addr, or say why not. */
static int patch_site(unsigned long addr)
{
	unsigned long look = sg_patch_arch.lazy_look, stub, end;
	struct sg_mapping_info m;
	struct lazy_site *ls;
	unsigned char code[LOOK_MAX];
	int why;

	if (live_site(addr))
		return LAZY_OK;	/* (another thread's trap came first) */
	if (own_page(addr & ~(PAGE - 1)))
		return LAZY_SPECIAL;	/* (a stub's own raw call) */
	if (sg_read_safe(code, (const void *)addr, look) < 0)
		return LAZY_UNMAPPED;
	stub = sg_patch_arch.lazy_stub(addr, code);
	if (!stub)
		return LAZY_NOT_SITE;
	if ((sg_patch_known_text(addr, &m) < 0 &&
	     sg_maps_info(addr, &m) < 0) || !(m.prot & PROT_X))
		return LAZY_UNMAPPED;
	if (m.special)
		return LAZY_SPECIAL;
	if (m.shared)
		return LAZY_SHARED;
	if (m.prot & PROT_W)
		return LAZY_WRITABLE;
	if (addr + look > m.hi)
		return LAZY_EDGE;
	ls = retired_site(addr, stub);
	if (!ls) {
		if (lz.nsites == LAZY_MAX)
			return LAZY_FULL;
		why = write_stub(addr, code, stub, &end);
		if (why != LAZY_OK)
			return why;
		ls = &lz.sites[lz.nsites++];
		ls->addr = addr;
		ls->stub = stub;
		ls->stub_end = end;
	}
	memcpy(ls->orig, code, look);
	memcpy(ls->now, code, look);
	ls->nbytes = sg_patch_arch.lazy_bytes(addr, stub, ls->now);
	if (poke_bytes(addr, ls->now, ls->nbytes) < 0) {
		/* Nothing was changed, or the site's first store did not
		 * happen: put back what may have been written. */
		poke_bytes(addr, ls->orig, ls->nbytes);
		return LAZY_WRITE;
	}
	ls->live = 1;
	lz.live++;
	lz.patched++;
	return LAZY_OK;
}

/* A stub page in [lo, hi)?  (Read without the lock: pages are only
 * added.) */
static int stub_pages_in(unsigned long lo, unsigned long hi)
{
	int i, n = __atomic_load_n(&lz.npages, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (lz.pages[i] < hi && lz.pages[i] + PAGE > lo)
			return 1;
	return 0;
}

int sg_patch_lazy_has(unsigned long pc)
{
	return stub_pages_in(pc, pc + 1);
}

int sg_patch_lazy_live(unsigned long addr)
{
	return lz.sites && live_site(addr) != 0;
}

void sg_patch_put_back(unsigned long a, const unsigned char *orig,
		       unsigned long n, unsigned long addr, unsigned char *buf,
		       unsigned long len)
{
	unsigned long lo = a > addr ? a : addr;
	unsigned long hi = a + n < addr + len ? a + n : addr + len;

	if (lo < hi)
		memcpy(buf + (lo - addr), orig + (lo - a), hi - lo);
}

void sg_patch_lazy_originals(unsigned long addr, unsigned char *buf,
			     unsigned long len)
{
	int i;

	for (i = 0; lz.sites && i < lz.nsites; i++)
		if (lz.sites[i].live)
			sg_patch_put_back(lz.sites[i].addr, lz.sites[i].orig,
					  lz.sites[i].nbytes, addr, buf, len);
}

int sg_patch_lazy_wrote_in(unsigned long addr, unsigned long len)
{
	int i;

	for (i = 0; lz.sites && i < lz.nsites; i++)
		if (lz.sites[i].live && lz.sites[i].addr < addr + len &&
		    addr < lz.sites[i].addr + lz.sites[i].nbytes)
			return 1;
	return 0;
}

void sg_patch_lazy_enable(void)
{
	if (sg_patch_arch.lazy_look)
		lz.enabled = 1;
}

/*
 * A site waiting for its object's whole read traps on and on (libc's a
 * few hundred times).  While the process has one thread, only a handler
 * that takes the lock can change the tables meanwhile, and it bumps
 * lz.gen first: seen without the lock's two rt_sigprocmask.
 */
static int still_waiting(unsigned long addr)
{
	unsigned long gen = __atomic_load_n(&lz.gen, __ATOMIC_SEQ_CST);

	return !__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) &&
	       waits(addr, 0) &&
	       __atomic_load_n(&lz.gen, __ATOMIC_SEQ_CST) == gen &&
	       sg_patch_first_trap_wait(addr);
}

void sg_patch_lazy_trapped(unsigned long addr)
{
	struct sg_thread *self = sg_self();
	unsigned int n = 0;
	int why, tail;

	/* Not in a child on its parent's memory (vfork): it runs on a
	 * stack its parent sized (musl's posix_spawn: 5 KiB), which the
	 * frames of a patch overflow, and is about to exec; its calls stay
	 * trapped, as under -m sud, and the parent patches the sites it
	 * runs itself.
	 * (Nor once a hook's library made threads: sg_hook_thread_seen.)
	 */
	if (!lz.enabled || (self && self->vfork_child) || declined(addr) ||
	    sg_attach_detached() ||
	    __atomic_load_n(&sg.hook_threads, __ATOMIC_SEQ_CST) ||
	    (n = traps_at(addr)) < SG_TRAPS_BEFORE_PLAN ||
	    (n != SG_TRAPS_BEFORE_TAIL && still_waiting(addr)) ||
	    !sg_patch_lock_take(&lz.lock, 0))
		return;
	/* (a site still waiting for its object's read tries, once, a window
	 * whose only interior is its syscall: patch.h) */
	tail = n == SG_TRAPS_BEFORE_TAIL ? SG_FIRST_TAIL : 0;
	/* Tell calls that change memory to take the lock from now on, and
	 * give way to one that started before it knew. */
	__atomic_store_n(&lz.any, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&lz.changing, __ATOMIC_SEQ_CST))
		goto out;	/* (its next trap tries again) */
	__atomic_add_fetch(&lz.gen, 1, __ATOMIC_SEQ_CST);
	if (!lz.sites) {
		lz.sites = sg_mmap(LAZY_MAX * sizeof(*lz.sites));
		lz.pages = sg_mmap(PAGES_MAX * sizeof(*lz.pages));
		if (!lz.sites || !lz.pages) {
			lz.enabled = 0;
			goto out;
		}
	}
	sg_patch_pending(addr);
	if (!tail && waits(addr, 0) && sg_patch_first_trap_wait(addr))
		goto out;
	why = sg_patch_first_trap(addr, tail);
	if (why < 0 && sg_patch_first_trap_wait(addr) && waits(addr, 1))
		goto out;	/* (not declined: it traps again) */
	if (why < 0)
		why = sg_patch_first_trap(addr, SG_FIRST_SCAN | tail);
	why = why > 0 ? LAZY_OK : patch_site(addr);
	if (why == LAZY_NO_ROOM && sg_patch_first_trap_wait(addr) &&
	    waits(addr, 1))
		goto out;
	if (why == LAZY_NO_ROOM &&
	    sg_patch_first_trap(addr, SG_FIRST_SCAN | tail))
		why = LAZY_OK;
	if (why != LAZY_OK) {
		lz.why[why]++;
		decline(addr);
	} else {
		sg_watch_patched(addr);
		sg_patch_lazy_settle();	/* the last one: SUD off */
	}
out:
	sg_patch_lock_drop(&lz.lock);
}

static void retire(struct lazy_site *ls)
{
	ls->live = 0;
	lz.live--;
}

/* Put a site's bytes back if they are still ours. */
static void restore(struct lazy_site *ls)
{
	unsigned char cur[LOOK_MAX];
	unsigned long look = sg_patch_arch.lazy_look;
	int i;

	/* A call again until its next trap: SUD must be on first. */
	sg_watch_site(ls->addr);
	sg_watch_settle(0);
	if (sg_read_safe(cur, (const void *)ls->addr, look) >= 0 &&
	    !memcmp(cur, ls->now, look))
		for (i = ls->nbytes - 1; i >= 0; i--)
			sg_poke_code(ls->addr + i, ls->orig + i, 1);
	retire(ls);
	lz.restored++;
}

/* A site, stub or stub page of ours in [lo, hi)?  Read without the lock:
 * the caller checks that no holder changed the tables meanwhile. */
static int ours_in(unsigned long lo, unsigned long hi)
{
	unsigned long look = sg_patch_arch.lazy_look;
	int i, n = __atomic_load_n(&lz.nsites, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		const struct lazy_site *ls = &lz.sites[i];

		if ((ls->live && ls->addr < hi && ls->addr + look > lo) ||
		    (ls->stub < hi && ls->stub_end > lo))
			return 1;
	}
	return stub_pages_in(lo, hi);
}

/*
 * Most calls that change memory (ld.so's RELRO, an allocator's
 * mprotects) touch nothing patched here: they need not take the lock,
 * whose two signal-mask calls were most of their cost.  Safe to skip
 * when, with this call counted in `changing` (which makes a trapper that
 * has not yet looked give way), no holder was in or got through the lock
 * while the tables were read, and nothing declined waits for a change.
 * Only while the process has one thread: with others, a trapper gives
 * way to every call in flight, and calls that run side by side instead
 * of one after the other under the lock kept it giving way
 * (tests/behave/jit-churn: 300-600 traps became 8,000-30,000).
 */
static int untouched(unsigned long lo, unsigned long hi)
{
	unsigned int gen = __atomic_load_n(&lz.gen, __ATOMIC_SEQ_CST);

	if (__atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&lz.lock.owner, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&lz.ndeclined, __ATOMIC_RELAXED) ||
	    ours_in(lo, hi))
		return 0;
	return __atomic_load_n(&lz.gen, __ATOMIC_SEQ_CST) == gen &&
	       !__atomic_load_n(&lz.lock.owner, __ATOMIC_SEQ_CST);
}

int sg_patch_lazy_begin(unsigned long lo, unsigned long hi, int drops)
{
	unsigned long look = sg_patch_arch.lazy_look;
	int i;

	if (!lz.enabled)
		return 0;
	if (drops)
		seen_forget(lo, hi);
	__atomic_add_fetch(&lz.changing, 1, __ATOMIC_SEQ_CST);
	/* (sg_patch_lazy_end drops it) */
	if (!__atomic_load_n(&lz.any, __ATOMIC_SEQ_CST) || untouched(lo, hi))
		return 1;
	__atomic_sub_fetch(&lz.changing, 1, __ATOMIC_SEQ_CST);
	sg_patch_lock_take(&lz.lock, 1);
	__atomic_add_fetch(&lz.gen, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < lz.nsites; i++) {
		struct lazy_site *ls = &lz.sites[i];

		if (ls->live && drops && ls->addr >= lo && ls->addr + look <= hi)
			retire(ls);	/* its bytes go with the call */
		else if (ls->live && ls->addr < hi && ls->addr + look > lo)
			restore(ls);
		if (ls->stub < hi && ls->stub_end > lo) {
			/* The program maps over (or unmaps) a stub page, which
			 * was free space when taken: that stub is gone. */
			if (ls->live)
				restore(ls);
			ls->stub = ls->stub_end = 0;
		}
	}
	drop_pages(lo, hi);
	/* What was declined may be patchable once this is done. */
	if (lz.ndeclined)
		memset(lz.declined, 0, sizeof(lz.declined));
	lz.ndeclined = 0;
	return 2;
}

void sg_patch_lazy_end(int token)
{
	if (token == 1)
		__atomic_sub_fetch(&lz.changing, 1, __ATOMIC_SEQ_CST);
	else if (token == 2)
		sg_patch_lock_drop(&lz.lock);
}

void sg_patch_lazy_forked(void)
{
	/* (else its sites would never be patched: see sg_patch_lazy_trapped) */
	__atomic_store_n(&lz.changing, 0, __ATOMIC_SEQ_CST);
	sg_patch_first_trap_forked();
}

void sg_patch_lazy_settle(void)
{
	sg_watch_settle(lz.enabled);
}

void sg_patch_lazy_stats(void)
{
	static char buf[4096];
	size_t n = 0;
	int k;

	if (!lz.enabled || !lz.any)
		return;
	if (__atomic_load_n(&sg.hook_threads, __ATOMIC_SEQ_CST))
		sg_patch_put(buf, &n, "sysgate: none patched since a hook's "
				      "library made threads (their signal "
				      "masks are not sysgate's)\n");
	sg_patch_put(buf, &n, "sysgate: patched after their third trap: ");
	sg_patch_put_num(buf, &n, lz.patched);
	sg_patch_put(buf, &n, " sites (");
	sg_patch_put_num(buf, &n, lz.restored);
	sg_patch_put(buf, &n, " put back when their code changed)\n");
	for (k = 1; k < LAZY_WHY_COUNT; k++)
		if (lz.why[k]) {
			sg_patch_put(buf, &n, "sysgate:   left to their trap: ");
			sg_patch_put(buf, &n, why_names[k]);
			sg_patch_put(buf, &n, ": ");
			sg_patch_put_num(buf, &n, lz.why[k]);
			sg_patch_put(buf, &n, "\n");
		}
	sg_write_all(sg.out_fd, buf, n);
}
