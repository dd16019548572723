/* SPDX-License-Identifier: MIT */
/*
 * The site writer: stubs emitted into a region in reach, then the sites
 * written while their pages are read+write (never write and exec at
 * once), or through /proc/self/mem where a page cannot be made so; a
 * trap site's breakpoint is entered in core/traps.c's table first, and
 * SIGTRAP claimed once one is written.
 */
#include "engine.h"
#include "traps.h"
#include "signal_arch.h"
#include "zeropage.h"

#define SIGTRAP_ 5

/* Stubs are 16-byte aligned. */
#define STUB_ROUND(n) (((n) + 15) & ~15UL)

void sg_site_in_place(struct sg_site *s, int kind)
{
	memmove(s->orig, s->orig + (s->addr - s->lo), s->insn_len);
	s->kind = kind;
	s->lo = s->addr;
	s->hi = s->addr + s->insn_len;
	s->interior = 0;
}

int sg_obj_text_of(const struct sg_obj *o, unsigned long a)
{
	int i;

	for (i = 0; i < o->ntext; i++)
		if (a >= o->text[i].lo && a < o->text[i].hi)
			return i;
	return -1;
}

/* --- writing code ------------------------------------------------------ */

static int writable(unsigned long lo, unsigned long hi, int on)
{
	lo &= ~(PAGE - 1);
	hi = (hi + PAGE - 1) & ~(PAGE - 1);
	return sg_sc3(SG_NR_mprotect, lo, hi - lo,
		      on ? (PROT_R | PROT_W) : (PROT_R | PROT_X)) < 0 ? -1 : 0;
}

/* Start-up and new-code scans use one descriptor for all their sites:
 * the process's kept one, or one closed before the program could see
 * it. */
static long memfd = -1;
static int memfd_own;

int sg_patch_poke(unsigned long addr, const void *buf, unsigned long len)
{
	if (memfd < 0)
		memfd = sg_mem_open(&memfd_own);
	if (memfd < 0)
		return -1;
	return sg_sc4(SG_NR_pwrite64, memfd, (long)buf, len, addr) ==
		       (long)len ? 0 : -1;
}

void sg_patch_poke_done(void)
{
	if (memfd >= 0 && memfd_own)
		sg_sc1(SG_NR_close, memfd);
	memfd = -1;
}

/*
 * What the kernel's text_poke_bp does with an interrupt to every CPU
 * between the steps of patching code other CPUs may run: membarrier's
 * SYNC_CORE has each running thread of the process execute a
 * serialising instruction before it goes on.  Registered on first use
 * in a process (sg_patch_threads does it while the process runs alone,
 * where registering costs no RCU grace period).
 */
#define MEMBARRIER_SYNC_CORE 32		/* PRIVATE_EXPEDITED_SYNC_CORE */
#define MEMBARRIER_REGISTER_SYNC_CORE 64

int sg_patch_sync(void)
{
	if (sg_sc3(SG_NR_membarrier, MEMBARRIER_SYNC_CORE, 0, 0) == 0)
		return 0;
	if (sg_sc3(SG_NR_membarrier, MEMBARRIER_REGISTER_SYNC_CORE, 0, 0) < 0)
		return -1;
	return sg_sc3(SG_NR_membarrier, MEMBARRIER_SYNC_CORE, 0, 0) == 0 ?
		       0 : -1;
}

/* --- traps ------------------------------------------------------------- */

/* SIGTRAP is claimed once the first breakpoint is written (core/traps.c
 * keeps their table). */
static int trap_claimed;

/* The site's trap, and the one its stub may return through. */
static int add_trap(const struct sg_site *s)
{
	if (sg_patch_arch.trap_back &&
	    sg_traps_add(s->stub + sg_patch_arch.trap_back,
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
	if (info->si_code == SG_STEP_SI_CODE) {
		unsigned long at = *pc;

		return sg_step_trap(uc, sg_region_has(at) ||
					sg_patch_lazy_has(at));
	}
	if (info->si_code != SG_TRAP_SI_CODE)
		return 0;
	if (sg_psud_trap(info, uc))
		return SG_CLAIM_AS;	/* the program's SIGSYS (core/psud.c) */
	resume = sg_traps_find(*pc - SG_TRAP_PC_BACK);
	if (!resume)
		return 0;
	*pc = resume;
	return 1;
}

void sg_patch_claim_traps(int now)
{
	struct sg_thread *t = sg_self();
	unsigned long mask;

	if (!(now || sg_traps_count()) || trap_claimed)
		return;
	if (sg_signal_claim(SIGTRAP_, on_trap) < 0)
		sg_warn("cannot catch SIGTRAP: trapped sites will crash");
	trap_claimed = 1;
	/* A breakpoint met with SIGTRAP blocked kills: the mask this
	 * thread has (threads inherit it) is set again, which takes the
	 * claimed signals out of it (the program still reads them). */
	if (now && t && sg_sc4(SG_NR_rt_sigprocmask, 0, 0, (long)&mask, 8) == 0) {
		mask |= t->claimed_blocked;
		sg_signal_rt_sigprocmask(t, 2 /* SIG_SETMASK */, &mask, 0, 8);
	}
}

int sg_patch_catch_tail(const struct sg_site *s)
{
	if (s->kind != SG_PATCH_JMP || s->interior != SG_INTERIOR_CAUGHT)
		return 0;
	if (!sg_patch_arch.call_at ||
	    sg_traps_add(s->addr, s->stub + sg_patch_arch.call_at(s)) < 0)
		return -1;
	sg_patch_claim_traps(0);
	return 0;
}

/* A call the program's own syscall user dispatch takes, at a patched
 * site, becomes a breakpoint (core/psud.c): SIGTRAP is needed now. */
void sg_patch_psud(void)
{
	sg_patch_claim_traps(1);
}

/* --- sites ------------------------------------------------------------- */

/* Make each text mapping of o that has sites writable (not executable):
 * direct[t] says which became so. */
static void open_text(struct sg_obj *o, int direct[SG_MAX_TEXT])
{
	int i, t;

	for (t = 0; t < o->ntext; t++) {
		for (i = 0; i < o->nsites; i++)
			if (sg_site_has_stub(&o->sites[i]) &&
			    sg_obj_text_of(o, o->sites[i].addr) == t)
				break;
		if (i < o->nsites && !o->is_vdso)
			direct[t] = writable(o->text[t].lo, o->text[t].hi, 1) == 0;
	}
}

/* Write one site (its trap, or its bytes and padding jump); -1 if it
 * could not be. */
static int write_site(struct sg_obj *o, struct sg_site *s,
		      const int direct[SG_MAX_TEXT])
{
	unsigned char bytes[SG_SITE_MAX_REGION], pad[16];
	unsigned long lo = s->lo, len = s->hi - s->lo;
	int plen = 0, ti;

	if (s->kind == SG_PATCH_TRAP) {
		/* Record first: a thread may hit the trap at once. */
		if (add_trap(s) < 0)
			return -1;
		lo = s->addr;
		len = sg_patch_arch.trap_bytes(s, bytes);
	} else {
		if (sg_patch_catch_tail(s) < 0)
			return -1;
		sg_patch_arch.site_bytes(s, bytes);
		if (s->kind == SG_PATCH_PAD)
			plen = sg_patch_arch.pad_bytes(s, pad);
	}
	ti = sg_obj_text_of(o, lo);
	if (ti >= 0 && direct[ti] && sg_obj_text_of(o, lo + len - 1) == ti &&
	    (!plen || sg_obj_text_of(o, s->pad) == ti)) {
		if (plen && sg_attach_note(s->pad, pad, plen) == 0)
			memcpy((void *)s->pad, pad, plen);
		if (sg_attach_note(lo, bytes, len) == 0)
			memcpy((void *)lo, bytes, len);
		return 0;
	}
	if ((plen && (sg_attach_note(s->pad, pad, plen) < 0 ||
		      sg_patch_poke(s->pad, pad, plen))) ||
	    sg_attach_note(lo, bytes, len) < 0 || sg_patch_poke(lo, bytes, len))
		return -1;
	return 0;
}

void sg_patch_write_sites(struct sg_obj *o)
{
	int i, t, direct[SG_MAX_TEXT] = { 0 };

	open_text(o, direct);
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];

		if (!sg_site_has_stub(s))
			continue;
		/* The bytes must still be what was planned on. */
		if (memcmp((const void *)s->lo, s->orig, s->hi - s->lo) ||
		    write_site(o, s, direct) < 0)
			s->kind = SG_PATCH_NONE;
	}
	for (t = 0; t < o->ntext; t++) {
		if (direct[t])
			writable(o->text[t].lo, o->text[t].hi, 0);
		sg_arch_flush_code(o->text[t].lo, o->text[t].hi);
	}
}

/* --- stubs ------------------------------------------------------------- */

static unsigned long stubs_size(const struct sg_obj *o)
{
	unsigned long need = 0;
	int i;

	for (i = 0; i < o->nsites; i++)
		if (sg_site_has_stub(&o->sites[i]))
			need += STUB_ROUND(sg_patch_arch.stub_size(&o->sites[i]));
	return need;
}

/* A region for need bytes of o's stubs: in reach, or, where trap stubs
 * may be far (the arch's trap_far), anywhere with every site a trap.
 * None: no site of o is patched. */
static struct sg_region *stub_region(struct sg_obj *o, unsigned long need)
{
	struct sg_region *r = sg_region_for(o, need);
	int i;

	if (!r && sg_patch_arch.trap_far) {
		r = sg_region_anywhere(need);
		for (i = 0; r && i < o->nsites; i++)
			if (sg_site_has_stub(&o->sites[i]) &&
			    o->sites[i].kind != SG_PATCH_TRAP) {
				sg_site_in_place(&o->sites[i], SG_PATCH_TRAP);
				o->sites[i].why = SG_WHY_NO_REGION;
			}
	}
	if (!r)
		for (i = 0; i < o->nsites; i++)
			if (sg_site_has_stub(&o->sites[i]))
				o->sites[i].kind = SG_PATCH_NONE;
	return r;
}

unsigned long sg_patch_place_stubs(struct sg_obj *o)
{
	static unsigned char buf[512];	/* (planning runs under a lock) */
	unsigned long need = stubs_size(o), placed = 0;
	struct sg_region *r;
	int i, live;

	if (!need || !(r = stub_region(o, need)))
		return 0;
	/* The region may already be read+exec from an earlier object; where
	 * threads may be running its stubs it is not made writable (they
	 * would fault): each new stub goes through /proc/self/mem. */
	live = r->used > 64 && __atomic_load_n(&sg.vm_shared, __ATOMIC_SEQ_CST);
	if (!live)
		sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_W);
	for (i = 0; i < o->nsites; i++) {
		struct sg_site *s = &o->sites[i];
		unsigned long size;

		if (!sg_site_has_stub(s))
			continue;
		size = STUB_ROUND(sg_patch_arch.stub_size(s));
		if (live && size > sizeof(buf)) {
			s->kind = SG_PATCH_NONE;
			continue;
		}
		s->stub = r->base + r->used;
		/* A site whose jump cannot reach its stub traps instead. */
		if (s->kind != SG_PATCH_TRAP &&
		    !sg_region_in_reach(s->stub, s->addr, size + PAGE)) {
			if (!sg_patch_arch.trap_far) {
				s->kind = SG_PATCH_NONE;
				continue;
			}
			sg_site_in_place(s, SG_PATCH_TRAP);
			s->why = SG_WHY_NO_REGION;
		}
		sg_patch_arch.emit(s, live ? buf : (unsigned char *)s->stub,
				   s->stub, r->base, r->base + 8);
		if (live && sg_patch_poke(s->stub, buf, size) < 0)
			s->kind = SG_PATCH_NONE;
		r->used += size;
		placed += size;
	}
	if (!live)
		sg_sc3(SG_NR_mprotect, r->base, r->size, PROT_R | PROT_X);
	sg_arch_flush_code(r->base, r->base + r->size);
	sg_zeropage_commit();	/* page 0 finds the new stubs */
	return placed;
}
