/* SPDX-License-Identifier: MIT */
/*
 * Sites caught by a breakpoint (the trap patches of the patch family):
 * address -> where the site resumes, an open-addressing hash that SIGTRAP
 * handlers in other threads read while new code is patched, so entries
 * are only ever added, the address published last.  A header page
 * before the table lets a tracer run under sysgate find it in this
 * process's memory and tell sysgate's breakpoints from its own
 * (core/tracer.c).
 */
#include "sg.h"
#include "traps.h"
#include "signal_arch.h"

#define TRAP_SLOTS (1UL << 15)
struct trap_site {
	unsigned long addr, resume;
};
_Static_assert(TRAP_SLOTS == 1UL << 15 && sizeof(struct trap_site) << 8 == 4096,
	       "trap_slot: 128 pages of 256 slots");
static struct trap_site *traps;
static unsigned long ntraps;

/* A page of the table (256 slots) per MiB of code, by hash, and the slot
 * in it by hash of the address: each new site touched a page of its own
 * (a fault and a copy of a shared memory page, ~40 in java -version);
 * now an object's sites share a few.  Probes run on into the next page. */
static unsigned long trap_slot(unsigned long addr)
{
	unsigned long page = ((addr >> 20) * 0x9e3779b97f4a7c15UL) >> 57;

	return page << 8 | (addr * 0x9e3779b97f4a7c15UL) >> 56;
}

/*
 * Anonymous memory: a memfd's private copy, which once named the table in
 * the maps, cost three more calls and, for each page written, a page of
 * shared memory besides its copy.  A read-only page before the table,
 * its own mapping in the maps, says whose it is.
 */
static struct trap_site *new_traps(void)
{
	unsigned long len = SG_TRAPS_HEAD + TRAP_SLOTS * sizeof(*traps);
	struct sg_traps_head *h = sg_mmap(len);

	if (!h)
		return 0;
	memcpy(h->mark, SG_TRAPS_NAME, sizeof(SG_TRAPS_NAME));
	h->self = (unsigned long)h;
	sg_sc3(SG_NR_mprotect, (long)h, SG_TRAPS_HEAD, 1 /* PROT_READ */);
	return (struct trap_site *)((char *)h + SG_TRAPS_HEAD);
}

int sg_traps_add(unsigned long addr, unsigned long resume)
{
	unsigned long i;

	if (!traps && !(traps = new_traps()))
		return -1;
	if (ntraps >= TRAP_SLOTS / 2)
		return -1;	/* keep probes short: leave the site alone */
	for (i = trap_slot(addr);; i = (i + 1) % TRAP_SLOTS) {
		unsigned long a = __atomic_load_n(&traps[i].addr,
						  __ATOMIC_ACQUIRE);

		if (a == addr || !a) {
			/* Code mapped again at an old address: new stub. */
			__atomic_store_n(&traps[i].resume, resume,
					 __ATOMIC_RELEASE);
			if (!a) {
				__atomic_store_n(&traps[i].addr, addr,
						 __ATOMIC_RELEASE);
				ntraps++;
			}
			return 0;
		}
	}
}

unsigned long sg_traps_count(void)
{
	return ntraps;
}

unsigned long sg_traps_find(unsigned long site)
{
	unsigned long i;

	if (!traps)
		return 0;
	for (i = trap_slot(site);; i = (i + 1) % TRAP_SLOTS) {
		unsigned long a = __atomic_load_n(&traps[i].addr,
						  __ATOMIC_ACQUIRE);

		if (!a)
			return 0;
		if (a == site)
			return __atomic_load_n(&traps[i].resume,
					       __ATOMIC_ACQUIRE);
	}
}

/* len bytes at addr in process pid: 0, or -1 where they cannot be read */
static int read_remote(int pid, unsigned long addr, void *buf,
		       unsigned long len)
{
	struct {
		void *base;
		unsigned long len;
	} here = { buf, len }, there = { (void *)addr, len };

	return sg_sc6(SG_NR_process_vm_readv, pid, (long)&here, 1,
		      (long)&there, 1, 0) == (long)len ? 0 : -1;
}

int sg_traps_of(int pid, unsigned long table, unsigned long site)
{
	unsigned long i = trap_slot(site), n;
	struct trap_site e;

	for (n = 0; n < TRAP_SLOTS / 2 + 1; n++, i = (i + 1) % TRAP_SLOTS) {
		if (read_remote(pid, table + i * sizeof(e), &e, sizeof(e)) < 0 ||
		    !e.addr)
			return 0;
		if (e.addr == site)
			return 1;
	}
	return 0;
}

unsigned long sg_traps_at(int pid, unsigned long head)
{
	struct sg_traps_head h;

	if (read_remote(pid, head, &h, sizeof(h)) < 0 || h.self != head ||
	    memcmp(h.mark, SG_TRAPS_NAME, sizeof(SG_TRAPS_NAME)))
		return 0;
	return head + SG_TRAPS_HEAD;
}

/*
 * A program single-stepping itself (the trap flag: anti-debugging, an
 * in-process tracer) steps into a patched site's stub and on through
 * sysgate: a trap per instruction, and one inside a hook callback ended
 * the process (a synchronous signal there is taken for a crash).  The
 * traps in a stub are taken here, the flag kept; in sysgate's code,
 * after its first instruction, which saves the flags (the trap flag
 * with them), the flag is taken off, and entry.S's return puts it back
 * last (RESTORE_RFLAGS): the traps of that way out are taken too, and
 * the first one after it: the kernel gives none for a system call
 * instruction, so the program's next trap is the one after the
 * instruction that follows the call, as natively.
 */
enum { STEP_NONE, STEP_STUB, STEP_SYSGATE };

int sg_step_trap(void *uc, int in_stub)
{
	unsigned long pc = *sg_arch_uc_pc(uc);
	struct sg_thread *t = sg_self();
	int in_text = pc >= sg.self_text_lo && pc < sg.self_text_hi;

	if (!t)
		return 0;
	if (t->step_reblock) {
		/* (core/sud.c: a uretprobe's trampoline call let through) */
		t->step_reblock = 0;
		sg_arch_uc_step_off(uc);
		t->sud_selector = SG_SUD_BLOCK;
		return 1;
	}
	if (in_stub) {
		t->stepping = STEP_STUB;
		return 1;
	}
	if (!in_text) {
		if (t->stepping == STEP_NONE)
			return 0;
		t->stepping = STEP_NONE;
		return 1;
	}
	if (!sg_arch_saves_flags_at(pc) && t->stepping != STEP_SYSGATE) {
		sg_arch_uc_step_off(uc);
		t->stepping = STEP_SYSGATE;
	}
	return 1;
}
