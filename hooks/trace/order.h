/* SPDX-License-Identifier: MIT */
/* Lines in time order across threads and processes (order.c). */
#ifndef SG_TRACE_ORDER_H
#define SG_TRACE_ORDER_H

struct fmt;
struct sysgate_ctx;

/* Under -f: the lock and the calls in the kernel are the tree's (its
 * shared memory; the process's own without one).  relative: -r's field
 * for unfinished lines.  whole_lines: no line is split (-e status=),
 * the calls are only kept for order_exec_leader. */
#define ORDER_TEXT 480

void order_init(struct sysgate_ctx *ctx, int whole_lines,
		void (*relative)(struct fmt *f, unsigned long long ns));
/* At a call's entry: the start of its line, head (written by head(),
 * with the time) then rest (name, arguments known at entry), should
 * another line come first.  Returns the time its line is stamped with
 * (taken in the lock's order), 0 if not kept.  cache: the thread's slot
 * hint (1-based; 0 unknown). */
unsigned long long order_pending(int tid, int *cache, long nr, int exit_args,
				 const struct fmt *rest,
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
/* Under the lock, in the first line of the program a thread of process
 * pid started with execve: the call its leader (thread pid) was in, which
 * the execve ended, shown unfinished if it was not yet and split asks
 * (another line comes first; lines not held whole); 1 and the call in c
 * if there was one. */
struct order_cut {
	long nr;
	int exit_args;		/* some of its arguments print at exit */
	int shown;		/* its start was shown "<unfinished ...>" */
	int len;
	char text[ORDER_TEXT];	/* its line's start: prefix, name(args */
};
int order_exec_leader(struct sysgate_ctx *self, int pid, int split,
		      struct order_cut *c);
/* Thread tid has started (its slot taken, so that order_gone knows it). */
void order_thread(int tid);
/* Process pid is gone, killed where it could not say so (SIGKILL):
 * takes the lock for thread tid, as order_begin, and takes out up to max
 * of pid's threads, each with the call it was in (in_call, cut).
 * Returns how many.  Before its lines, order_gone_shows writes the
 * calls of others in the kernel unfinished (none when there are none:
 * strace's -e signal= left out the death and no cut call prints). */
struct order_gone {
	int tid;
	int in_call;
	struct order_cut cut;
};
int order_gone(int tid, int pid, struct order_gone *g, int max, int *held);
void order_gone_shows(struct sysgate_ctx *self);
/* Process pid's threads but keep are gone (its new program's start). */
void order_forget_process(int self, int pid, int keep);
/* Was tid's call in the kernel shown unfinished? */
int order_shown(int tid, int *cache);
/* Under the lock, in the line that ends tid's call shown unfinished: the
 * arguments its start showed (*len bytes), or NULL if not known whole. */
const char *order_shown_args(int tid, int *cache, int *len);
/* tid's call gets no line after all (filtered at its exit). */
void order_drop(int tid, int *cache);
/* tid is gone (exit, exit_group): its slot is free.  self: the calling
 * thread (exit_group forgets the others). */
void order_forget(int self, int tid, int *cache);

#endif
