/* SPDX-License-Identifier: MIT */
#include "sysgate.h"
#include "slots.h"

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

int tid_slot(struct tid_slots *t, int tid)
{
	unsigned int h = (unsigned int)tid % TID_SLOTS, i;
	int k = tid_slot_find(t, tid);

	if (k >= 0 || tid <= 0)
		return k;
	for (i = 0; i < TID_SLOTS; i++) {
		int free_ = 0;

		k = (int)((h + i) % TID_SLOTS);
		if (__atomic_compare_exchange_n(&t->tid[k], &free_, tid, 0,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return k;
	}
	return -1;
}

void tid_slot_free(struct tid_slots *t, int slot)
{
	if (slot >= 0 && slot < TID_SLOTS)
		__atomic_store_n(&t->tid[slot], 0, __ATOMIC_RELAXED);
}

void tid_slots_reset(struct tid_slots *t)
{
	int i;

	for (i = 0; i < TID_SLOTS; i++)
		t->tid[i] = 0;
}

int tid_self(void)
{
	static long nr_gettid = -2;

	if (nr_gettid == -2)
		nr_gettid = sysgate_syscall_number("gettid");
	return (int)sysgate_syscall(nr_gettid, 0, 0, 0, 0, 0, 0);
}
