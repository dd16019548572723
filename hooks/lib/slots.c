/* SPDX-License-Identifier: MIT */
#include "sysgate.h"
#include "slots.h"

__attribute__((hot))
int tid_slot_find(const struct tid_slots *t, int tid)
{
	unsigned int h = (unsigned int)tid % TID_SLOTS, i;

	for (i = 0; i < TID_SLOTS; i++) {
		unsigned int k = (h + i) % TID_SLOTS;

		if (__atomic_load_n(&t->tid[k], __ATOMIC_RELAXED) == tid)
			return (int)k;
	}
	return -1;
}

static long nr_of(long *cache, const char *name)
{
	if (*cache == -2)
		*cache = sysgate_syscall_number(name);
	return *cache;
}

int tid_of(int pid, int tid)
{
	static long nr_tgkill = -2;

	return sysgate_syscall(nr_of(&nr_tgkill, "tgkill"), pid, tid, 0, 0,
			       0, 0) == 0;
}

int tid_ours(int tid)
{
	static long nr_getpid = -2;

	return tid_of((int)sysgate_syscall(nr_of(&nr_getpid, "getpid"), 0, 0,
					   0, 0, 0, 0), tid);
}

/* Takes slot k from `from` (0: free) for tid. */
static int take(struct tid_slots *t, int k, int from, int tid)
{
	return __atomic_compare_exchange_n(&t->tid[k], &from, tid, 0,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

__attribute__((hot))
int tid_slot(struct tid_slots *t, int tid, int *fresh)
{
	unsigned int h = (unsigned int)tid % TID_SLOTS, i;
	int k = tid_slot_find(t, tid);

	if (k >= 0 || tid <= 0)
		return k;
	*fresh = 1;
	for (i = 0; i < TID_SLOTS; i++) {
		k = (int)((h + i) % TID_SLOTS);
		if (take(t, k, 0, tid))
			return k;
	}
	/* none free: one whose thread has ended, or belongs to a process
	 * that shared or copied this memory */
	for (i = 0; i < TID_SLOTS; i++) {
		int old = __atomic_load_n(&t->tid[i], __ATOMIC_RELAXED);

		if (old && !tid_ours(old) && take(t, i, old, tid))
			return (int)i;
	}
	return -1;
}

void tid_slot_free(struct tid_slots *t, int slot)
{
	if (slot >= 0 && slot < TID_SLOTS)
		__atomic_store_n(&t->tid[slot], 0, __ATOMIC_RELAXED);
}

int tid_self(void)
{
	return sysgate_task_tid(0);	/* (-m ptrace: the traced thread) */
}
