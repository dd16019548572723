/* SPDX-License-Identifier: MIT */
/*
 * Per-thread state for hooks without __thread: a thread that a program
 * starts with a TLS base of its own (raw clone with CLONE_SETTLS, as Go's
 * runtime does) has no block for libsysgate's thread-local variables, so
 * state that must live from a call's entry to its exit is kept in arrays
 * indexed by a slot that the thread's id finds.
 */
#ifndef SG_HOOK_SLOTS_H
#define SG_HOOK_SLOTS_H

#define TID_SLOTS 256

struct tid_slots {
	int tid[TID_SLOTS];
};

/* The slot of thread tid, taken if it has none; -1 when all are taken. */
int tid_slot(struct tid_slots *t, int tid);
/* The slot of thread tid, or -1. */
int tid_slot_find(const struct tid_slots *t, int tid);
void tid_slot_free(struct tid_slots *t, int slot);
/* In a new child: every slot free. */
void tid_slots_reset(struct tid_slots *t);
/* This thread's id (gettid). */
int tid_self(void);

#endif
