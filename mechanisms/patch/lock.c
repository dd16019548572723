/* SPDX-License-Identifier: MIT */
/*
 * The patch mechanism's locks (lazy.c, watch.c): taken from signal
 * handlers and from calls the program makes, in any thread, so every
 * signal is blocked while one is held (a handler in the holder's thread
 * would otherwise wait on it for ever), and a fork child that inherits
 * one held by another thread takes it over.
 */
#include "patch.h"

#define ESRCH_ 3

/* Every signal the kernel lets be blocked (not SIGKILL, SIGSTOP). */
#define ALL_BLOCKED (~0UL & ~(1UL << (9 - 1)) & ~(1UL << (19 - 1)))

/* Back to the mask before the lock, unless that blocked all already (one
 * taken inside another: the watch's inside lazy.c's, at every trap). */
static void mask_back(unsigned long mask)
{
	if ((mask | ~ALL_BLOCKED) != ~0UL)
		sg_sc4(SG_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)&mask,
		       0, 8);
}

int sg_patch_lock_take(struct sg_patch_lock *l, int wait)
{
	struct sg_thread *t = sg_self();
	/* (a thread's state knows its id: a fork child's is set before it
	 * runs anything that patches) */
	int me = t ? t->tid : (int)sg_sc0(SG_NR_gettid), owner;
	static const unsigned long all = ~0UL;
	unsigned long mask = ~0UL;

	/* (inside another of these, every signal is blocked already) */
	if (!t || !t->patch_locks)
		sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&all,
		       (long)&mask, 8);
	for (;;) {
		owner = 0;
		/* (sequentially consistent: lazy.c's untouched() reads the
		 * owner without taking it) */
		if (__atomic_compare_exchange_n(&l->owner, &owner, me, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			break;
		/* A child forked while another thread held it: the owner
		 * is not in this process. */
		if (sg_sc3(SG_NR_tgkill, sg_sc0(SG_NR_getpid), owner, 0) ==
			    -ESRCH_ &&
		    __atomic_compare_exchange_n(&l->owner, &owner, me, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			break;
		if (!wait) {
			mask_back(mask);
			return 0;
		}
		/* (the owner may be turning SUD on, waiting for this thread
		 * to arm) */
		sg_sud_answer(t);
		sg_sc0(SG_NR_sched_yield);
	}
	l->mask = mask;
	if (t)
		t->patch_locks++;
	return 1;
}

void sg_patch_lock_drop(struct sg_patch_lock *l)
{
	struct sg_thread *t = sg_self();
	unsigned long mask = l->mask;

	if (t)
		t->patch_locks--;
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
	mask_back(mask);
}
