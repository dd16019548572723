/* SPDX-License-Identifier: MIT */
/*
 * Sites caught by a breakpoint (the trap patches of the patch family):
 * address -> where the site resumes, an open-addressing hash that SIGTRAP
 * handlers in other threads read while new code is patched, so entries
 * are only ever added, the address published last.  The table is a
 * private copy of a memfd named SG_TRAPS_NAME, so that a tracer run under
 * sysgate finds it in this process's maps and tells sysgate's
 * breakpoints from its own (core/tracer.c).
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

static struct trap_site *new_traps(void)
{
	unsigned long len = TRAP_SLOTS * sizeof(*traps);
	long fd = sg_sc2(SG_NR_memfd_create, (long)SG_TRAPS_NAME,
			 1 /* MFD_CLOEXEC */);
	void *p = 0;

	if (fd >= 0 && sg_sc2(SG_NR_ftruncate, fd, len) == 0)
		p = sg_mmap_fd(len, (int)fd);
	if (fd >= 0)
		sg_sc1(SG_NR_close, fd);
	return p ? p : sg_mmap(len);
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

int sg_traps_of(int pid, unsigned long table, unsigned long site)
{
	unsigned long i = trap_slot(site), n;
	struct trap_site e;

	for (n = 0; n < TRAP_SLOTS / 2 + 1; n++, i = (i + 1) % TRAP_SLOTS) {
		struct {
			void *base;
			unsigned long len;
		} here = { &e, sizeof(e) },
		  there = { (void *)(table + i * sizeof(e)), sizeof(e) };

		if (sg_sc6(SG_NR_process_vm_readv, pid, (long)&here, 1,
			   (long)&there, 1, 0) != sizeof(e) || !e.addr)
			return 0;
		if (e.addr == site)
			return 1;
	}
	return 0;
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
