/* SPDX-License-Identifier: MIT */
/* Lines in time order across threads and processes (order.c). */
#ifndef SG_TRACE_ORDER_H
#define SG_TRACE_ORDER_H

struct fmt;
struct sysgate_ctx;

/* Under -f: the lock and the calls in the kernel are the tree's (its
 * shared memory; the process's own without one).  relative: -r's field
 * for unfinished lines. */
void order_init(struct sysgate_ctx *ctx,
		void (*relative)(struct fmt *f, unsigned long long ns));
/* At a call's entry: the start of its line, head (written by head(),
 * with the time) then rest (name, arguments known at entry), should
 * another line come first.  Returns the time its line is stamped with
 * (taken in the lock's order), 0 if not kept.  cache: the thread's slot
 * hint (1-based; 0 unknown). */
unsigned long long order_pending(int tid, int *cache, const struct fmt *rest,
				 void (*head)(struct fmt *f, int tid,
					      unsigned long long ns));
/* Before an event's lines (thread tid): takes the lock, writes the
 * unfinished starts of other calls older than *ts (0: now; with call,
 * the time order_pending gave it; set to the time used).  call: the event is the line
 * of tid's call in the kernel; 1 if its start was shown: the line then
 * continues "<... name resumed>" and is stamped now.  *held: for
 * order_end (the lock may be given up on: see order.c). */
int order_begin(struct sysgate_ctx *self, int tid, int call, int *cache,
		unsigned long long *ts, int *held);
void order_end(int held);
/* Was tid's call in the kernel shown unfinished? */
int order_shown(int tid, int *cache);
/* tid's call gets no line after all (filtered at its exit). */
void order_drop(int tid, int *cache);
/* tid is gone (exit, exit_group): its slot is free.  self: the calling
 * thread (exit_group forgets the others). */
void order_forget(int self, int tid, int *cache);

#endif
