/* SPDX-License-Identifier: MIT */
/* The SIGCHLD of a parent without a handler (chld.c). */
#ifndef SG_TRACE_CHLD_H
#define SG_TRACE_CHLD_H

struct sysgate_ctx;

/* A process's end: the fields of the SIGCHLD it sends its parent. */
struct chld_end {
	int code, pid, uid, status;
	long utime, stime;
};

#define CHLD_ENDS 128

/* The tree's ends not yet delivered (shared memory). */
struct chld_area {
	unsigned int posted;	/* ends posted so far */
	unsigned int next;
	int root;		/* the tree's first process: its parent is
				   not traced (0: not yet known) */
	struct chld_slot {
		unsigned int tag;	/* 0 free, 1 being written, else its post */
		int parent;		/* the process it is for */
		int was_pending;	/* seen pending while the parent blocks it */
		struct chld_end end;
	} slot[CHLD_ENDS];
};

/* NULL but under -f in process; the last look of process seen_pid;
 * the process that waits to unblock a SIGCHLD, 0 if none. */
extern struct chld_area *chld_area;
extern unsigned int chld_seen;
extern int chld_seen_pid, chld_waiting_pid;

void chld_init(struct sysgate_ctx *ctx);
/* This process, pid, ends (its last thread's line printed): code
 * CLD_EXITED (1) with its exit status, CLD_KILLED (2) or CLD_DUMPED (3)
 * with the signal. */
void chld_post(int pid, int code, int status);
/* The same for a child of process parent that could not post its own
 * (SIGKILL ended it): its parent's wait tells it. */
void chld_post_end(int parent, const struct chld_end *e);
/* At a call boundary of process pid: the children's ends whose SIGCHLD
 * the kernel would have delivered to it by now, one call of line each. */
void chld_deliver(int pid, void (*line)(const struct chld_end *e, void *arg),
		  void *arg);

/* A call that may unblock a waiting SIGCHLD or take it. */
int chld_rechecks(long nr);

/* Worth calling chld_deliver at a boundary of call nr (-1: a call's
 * entry): a process ended since this one's last look, or a SIGCHLD waits
 * for the program to unblock it and call nr has returned. */
static inline int chld_due(int pid, long nr)
{
	return chld_area &&
	       (__atomic_load_n(&chld_area->posted, __ATOMIC_RELAXED) !=
			chld_seen ||
		pid != chld_seen_pid ||
		(chld_waiting_pid && chld_rechecks(nr)));
}

#endif
