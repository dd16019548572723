/* SPDX-License-Identifier: MIT */
/*
 * Thread states keyed by the thread pointer (the program's TLS base), for
 * ISAs with no register to spare for sysgate (rv64's tp, aarch64's
 * TPIDR_EL0).  The pointer is
 * unique per live thread, so it keys a lock-free open-addressing table
 * (sg_threads, in .bss: untouched slots cost nothing); each thread only
 * ever inserts or removes its own key.
 *
 * Threads made with CLONE_VM but without CLONE_SETTLS share their
 * creator's thread pointer.  For such a key the slot holds SG_TSHARED and
 * the states sharing it are found by thread id in a second table: one
 * gettid per lookup, only for those threads.  A vfork child shares its
 * parent's pointer too, but the parent sleeps meanwhile: sg_after_raw
 * gives it its state back (vfork_parent).
 */
#ifndef SG_THREAD_TABLE_H
#define SG_THREAD_TABLE_H

#define SG_TSLOTS 16384UL
#define SG_TPROBE 64
#define SG_TDEAD 1UL		/* a removed key: probes go on past it */
#define SG_TSHARED ((struct sg_thread *)1)

struct sg_tslot {
	unsigned long key;
	struct sg_thread *t;
};
extern struct sg_tslot sg_threads[SG_TSLOTS] SG_HIDDEN;
extern struct sg_tslot sg_threads_by_tid[SG_TSLOTS] SG_HIDDEN;

static inline unsigned long sg_tslot_of(unsigned long key)
{
	return (key * 0x9e3779b97f4a7c15UL) >> 50;	/* 14 bits */
}

/* key's slot in tab, or NULL. */
static inline struct sg_tslot *sg_tslot_find(struct sg_tslot *tab,
					     unsigned long key)
{
	unsigned long i = sg_tslot_of(key);
	int n;

	for (n = 0; n < SG_TPROBE; n++, i = (i + 1) & (SG_TSLOTS - 1)) {
		unsigned long k = __atomic_load_n(&tab[i].key,
						  __ATOMIC_ACQUIRE);

		if (k == key)
			return &tab[i];
		if (!k)
			return 0;
	}
	return 0;
}

/* Map key to t in tab (t == NULL: remove key). */
static inline void sg_tslot_put(struct sg_tslot *tab, unsigned long key,
				struct sg_thread *t)
{
	struct sg_tslot *s = sg_tslot_find(tab, key);
	unsigned long i = sg_tslot_of(key);
	int n;

	if (s) {
		if (t)
			__atomic_store_n(&s->t, t, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&s->key, SG_TDEAD, __ATOMIC_RELEASE);
		return;
	}
	for (n = 0; t && n < SG_TPROBE; n++, i = (i + 1) & (SG_TSLOTS - 1)) {
		unsigned long k = __atomic_load_n(&tab[i].key,
						  __ATOMIC_ACQUIRE);

		if ((k == 0 || k == SG_TDEAD) &&
		    __atomic_compare_exchange_n(&tab[i].key, &k, key, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			__atomic_store_n(&tab[i].t, t, __ATOMIC_RELEASE);
			return;
		}
	}
}

/* Does stopped tracee tid run sysgate?  Nothing in its registers says
 * so here (x86-64: its GS base): the caller reads its maps. */
static inline int sg_tracee_runs_sysgate(int tid)
{
	(void)tid;
	return 0;
}

/* Does another sysgate's runtime hold this process?  No register says
 * so here (-1): the caller reads its maps. */
static inline int sg_self_runs_sysgate(unsigned long hwcap2)
{
	(void)hwcap2;
	return -1;
}

static inline struct sg_thread *sg_self(void)
{
	struct sg_tslot *s = sg_tslot_find(sg_threads, sg_thread_owner());
	struct sg_thread *t = s ? __atomic_load_n(&s->t, __ATOMIC_ACQUIRE) : 0;

	if (unlikely(t == SG_TSHARED)) {
		s = sg_tslot_find(sg_threads_by_tid, sg_sc0(SG_NR_gettid));
		t = s ? __atomic_load_n(&s->t, __ATOMIC_ACQUIRE) : 0;
	}
	return t;
}

/* Nothing a new thread inherits from its creator can carry a mark (the
 * thread pointer is the program's): a hook callback's calls stay
 * trapped while syscall user dispatch is on (core/sud.c). */
static inline int sg_thread_hooks_markable(void)
{
	return 0;
}

static inline void sg_thread_hooks_mark(struct sg_thread *t, int on)
{
	(void)t;
	(void)on;
}

static inline int sg_thread_hooks_inherited(void)
{
	return 0;
}

/* t == NULL removes the calling thread's entry.  t->tid must be set. */
static inline void sg_set_self(struct sg_thread *t)
{
	unsigned long key = sg_thread_owner();
	struct sg_tslot *s = sg_tslot_find(sg_threads, key);

	if (t)
		t->owner = key;
	if (s && __atomic_load_n(&s->t, __ATOMIC_ACQUIRE) == SG_TSHARED) {
		sg_tslot_put(sg_threads_by_tid, t ? (unsigned long)t->tid :
				    (unsigned long)sg_sc0(SG_NR_gettid), t);
		return;
	}
	sg_tslot_put(sg_threads, key, t);
}

/* A new thread (child) that kept its creator's (parent's) thread pointer:
 * from now on both are found by thread id. */
static inline void sg_thread_share_owner(struct sg_thread *parent,
					 struct sg_thread *child)
{
	struct sg_tslot *s = sg_tslot_find(sg_threads, sg_thread_owner());

	child->owner = sg_thread_owner();
	sg_tslot_put(sg_threads_by_tid, (unsigned long)parent->tid, parent);
	sg_tslot_put(sg_threads_by_tid, (unsigned long)child->tid, child);
	if (s)
		__atomic_store_n(&s->t, SG_TSHARED, __ATOMIC_RELEASE);
	else
		sg_tslot_put(sg_threads, sg_thread_owner(), SG_TSHARED);
}

#endif
