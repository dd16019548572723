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
#include "maps.h"
#include "shared.h"
#include "clock_arch.h"

typedef long (*clock_fn)(long, void *);
static clock_fn vdso_clock_gettime;
/* The vDSO's text and the data pages the kernel maps right below it
 * ([vvar], [vvar_vclock]: a few pages, more with time namespaces), which
 * its code reads. */
static unsigned long vdso_lo, vdso_hi;
#define VVAR_ROOM (64UL << 10)	/* without /proc: at most this much */
/* sysgate_ticks' counter in this process: 0 not asked yet, 1 usable,
 * 2 not (or no longer: PR_SET_TSC). */
static int counter_state;

static unsigned long hex_at(const char *p, const char **end)
{
	unsigned long v = 0;

	for (;; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0)
			break;
		v = v * 16 + d;
	}
	*end = p;
	return v;
}

/*
 * Where the data pages below the vDSO at base begin, as /proc/self/maps
 * names them.  Only they and the vDSO count: a program mapped right below
 * them (the loader puts a PIE program there) changes its own pages, which
 * must not turn the clock into a system call.
 */
/* The same asked of the kernel (PROCMAP_QUERY, Linux 6.11): a few
 * queries instead of reading the maps whole, which cost more than the
 * rest of start-up's look at the process; 0 where it cannot say. */
static unsigned long vvar_query(unsigned long base, long maps_fd)
{
	char name[16];
	struct sg_mapping m;
	unsigned long lo = base;
	long fd = maps_fd >= 0 ? maps_fd : sg_maps_open();
	int k;

	if (fd < 0)
		return 0;
	for (k = 0; k < 8; k++) {
		long r = sg_maps_query(fd, lo - 1, &m, name, sizeof(name));

		if (r == -36 /* ENAMETOOLONG: a file's, no [vvar] */)
			break;
		if (r < 0) {
			lo = 0;	/* (no PROCMAP_QUERY) */
			break;
		}
		if (m.hi != lo || m.lo >= lo || sg_strncmp(name, "[vvar", 5))
			break;
		lo = m.lo;
	}
	if (fd != maps_fd)
		sg_sc1(SG_NR_close, fd);
	return lo;
}

static unsigned long vvar_start(unsigned long base, long maps_fd)
{
	char buf[1024], line[256];
	unsigned long lo = base, n = 0, vv[8][2];
	int nvv = 0, k, moved;
	long fd, got, i;

	if ((lo = vvar_query(base, maps_fd)))
		return lo;
	lo = base;
	fd = sg_sc4(SG_NR_openat, -100, (long)"/proc/self/maps",
		    02000000 /* O_RDONLY|O_CLOEXEC */, 0);
	if (fd < 0)
		return base > VVAR_ROOM ? base - VVAR_ROOM : 0;
	while ((got = sg_sc3(SG_NR_read, fd, (long)buf, sizeof(buf))) > 0)
		for (i = 0; i < got; i++) {
			const char *p, *name;

			if (buf[i] != '\n') {
				if (n < sizeof(line) - 1)
					line[n++] = buf[i];
				continue;
			}
			line[n] = 0;
			n = 0;
			name = sg_strchr(line, '[');
			if (!name || sg_strncmp(name, "[vvar", 5) || nvv == 8)
				continue;
			vv[nvv][0] = hex_at(line, &p);
			vv[nvv][1] = *p == '-' ? hex_at(p + 1, &p) : 0;
			nvv++;
		}
	sg_sc1(SG_NR_close, fd);
	/* the [vvar*] mappings that end where the next one begins */
	do {
		moved = 0;
		for (k = 0; k < nvv; k++)
			if (vv[k][1] == lo && vv[k][0] < lo) {
				lo = vv[k][0];
				moved = 1;
			}
	} while (moved);
	return lo;
}

void sg_vdso_init(unsigned long base, long maps_fd)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = 0;
	const Elf64_Sym *sym = 0;
	const char *str = 0;
	const Elf64_Word *hash = 0;
	unsigned long load = 0;
	int i, found_load = 0;

	/* A thread whose RDTSC faults (PR_SET_TSC, kept across execve) must
	 * not read the vDSO's clock either: it reads the TSC. */
	if (sg_arch_counter_faults() == 1) {
		counter_state = 2;
		return;
	}
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
	vdso_lo = vvar_start(base, maps_fd);
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

__attribute__((hot))
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

__attribute__((hot))
unsigned long long sysgate_now_ns(void)
{
	return clock_ns(1 /* CLOCK_MONOTONIC */);
}

unsigned long long sysgate_realtime_ns(void)
{
	return clock_ns(0 /* CLOCK_REALTIME */);
}

/* Does the counter run at one rate?  Asked of the CPU once per tree,
 * whose processes keep the answer in their shared state: CPUID exits to
 * the hypervisor in a VM, microseconds each. */
static int counter_steady(void)
{
	struct sg_shared_hdr *h = (struct sg_shared_hdr *)sg.shared_base;
	unsigned int v = h ? __atomic_load_n(&h->counter_steady,
					     __ATOMIC_RELAXED) : 0;

	if (v != 1 && v != 2) {
		v = sg_arch_counter_steady() ? 1 : 2;
		if (h)
			__atomic_store_n(&h->counter_steady, v,
					 __ATOMIC_RELAXED);
	}
	return v == 1;
}

/* Steadiness is asked only when a hook wants the counter; whether it
 * faults, at start (below). */
int sg_ticks_usable(void)
{
	int st = __atomic_load_n(&counter_state, __ATOMIC_RELAXED);

	if (!st) {
		st = counter_steady() && !sg_arch_counter_faults() ? 1 : 2;
		__atomic_store_n(&counter_state, st, __ATOMIC_RELAXED);
	}
	return st == 1;
}

__attribute__((hot))
unsigned long long sysgate_ticks(void)
{
	return sg_ticks_usable() ? sg_arch_counter() : 0;
}

/*
 * PR_SET_TSC, PR_TSC_SIGSEGV: RDTSC faults in the calling thread (and
 * the threads and children it makes).  The vDSO's clock reads the TSC as
 * well, so from then on the process times calls with the clock's system
 * call (the vDSO is the program's, and faults there as natively).
 */
int sg_ticks_call(struct sysgate_sys *s)
{
	if (!sg_arch_counter_call(s->nr, s->args))
		return 0;
	sg_raw_call(s);
	/* (the calling thread, and the threads it makes, now fault on the
	 * counter; the others would not, but one rule for the process is
	 * simpler and only costs precision) */
	if (sysgate_is_error(s->ret))
		return 1;
	/* the vDSO's clock reads the TSC too: the system call instead */
	__atomic_store_n(&vdso_clock_gettime, 0, __ATOMIC_RELEASE);
	if (__atomic_exchange_n(&counter_state, 2, __ATOMIC_RELAXED) != 2)
		sg_hooks_recompute();
	return 1;
}
