/* SPDX-License-Identifier: MIT */
/*
 * Per-thread state for hooks without __thread: a thread that a program
 * starts with a TLS base of its own (raw clone with CLONE_SETTLS, as Go's
 * runtime does) has no block for libsysgate's thread-local variables, so
 * state that must live from a call's entry to its exit is kept in arrays
 * indexed by a slot that the thread's id finds.
 *
 * A child that shares the memory (vfork, posix_spawn) takes slots in the
 * same arrays, and a fork child inherits its parent's: slots are never
 * reset in a child, and one whose thread is not of this process is taken
 * again when no slot is free.
 */
#ifndef SG_HOOK_SLOTS_H
#define SG_HOOK_SLOTS_H

#define TID_SLOTS 256

struct tid_slots {
	int tid[TID_SLOTS];
};

/* The slot of thread tid, taken if it has none (*fresh set then); -1
 * when none is free. */
int tid_slot(struct tid_slots *t, int tid, int *fresh);
/* The slot of thread tid, or -1. */
int tid_slot_find(const struct tid_slots *t, int tid);
void tid_slot_free(struct tid_slots *t, int slot);
/* This thread's id (gettid). */
int tid_self(void);
/* Is thread tid one of process pid's (and alive)?  (-m ptrace runs the
 * hooks in the tracer, for every process of the tree.) */
int tid_of(int pid, int tid);
/* ... of this process's? */
int tid_ours(int tid);

#endif
