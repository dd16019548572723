/* SPDX-License-Identifier: MIT */
/*
 * Thread states keyed by the program's own thread pointer, for arches
 * with no spare thread register (rv64's tp, aarch64's TPIDR_EL0).  The
 * key is unique per live thread, so it keys a lock-free open-addressing
 * table of thread states (sg_threads, in .bss: untouched slots cost
 * nothing).  Each thread only ever inserts or removes its own key.  A
 * vfork child shares its parent's key; sg_after_raw gives the parent its
 * state back (sg_thread_vfork_return).
 *
 * The including thread_arch.h defines sg_thread_owner() first; the arch's
 * process_arch.c defines the table.
 */
#ifndef SG_THREAD_KEYED_H
#define SG_THREAD_KEYED_H

#define SG_TSLOTS 16384UL
#define SG_TPROBE 64
#define SG_TDEAD 1UL		/* a removed key: probes go on past it */

struct sg_tslot {
	unsigned long key;
	struct sg_thread *t;
};
extern struct sg_tslot sg_threads[SG_TSLOTS] SG_HIDDEN;

static inline unsigned long sg_tslot_of(unsigned long key)
{
	return (key * 0x9e3779b97f4a7c15UL) >> 50;	/* 14 bits */
}

static inline struct sg_thread *sg_self(void)
{
	unsigned long key = sg_thread_owner(), i = sg_tslot_of(key);
	int n;

	for (n = 0; n < SG_TPROBE; n++, i = (i + 1) & (SG_TSLOTS - 1)) {
		unsigned long k = __atomic_load_n(&sg_threads[i].key,
						  __ATOMIC_ACQUIRE);

		if (k == key)
			return sg_threads[i].t;
		if (!k)
			return 0;
	}
	return 0;
}

/* t == NULL removes the calling thread's entry. */
static inline void sg_set_self(struct sg_thread *t)
{
	unsigned long key = sg_thread_owner(), i = sg_tslot_of(key);
	int n;

	if (t)
		t->owner = key;
	for (n = 0; n < SG_TPROBE; n++, i = (i + 1) & (SG_TSLOTS - 1)) {
		unsigned long k = __atomic_load_n(&sg_threads[i].key,
						  __ATOMIC_ACQUIRE);

		if (k == key) {
			if (t) {
				__atomic_store_n(&sg_threads[i].t, t,
						 __ATOMIC_RELEASE);
			} else {
				__atomic_store_n(&sg_threads[i].key, SG_TDEAD,
						 __ATOMIC_RELEASE);
			}
			return;
		}
		if (!t)
			continue;
		if ((k == 0 || k == SG_TDEAD) &&
		    __atomic_compare_exchange_n(&sg_threads[i].key, &k, key, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			__atomic_store_n(&sg_threads[i].t, t, __ATOMIC_RELEASE);
			return;
		}
	}
}

#endif
