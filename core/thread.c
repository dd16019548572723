/* SPDX-License-Identifier: MIT */
/*
 * Per-thread state: created for the first thread at start-up and for every
 * thread sysgate sees created (in the child, right after clone returns),
 * freed when the thread exits.  The hook stack is mapped lazily, the first
 * time a hook callback runs in the thread, so threads that never reach a
 * hook cost only the state page(s).
 */
#include "sg.h"

#define SG_PROT_NONE 0
#define SG_PAGE 4096UL

int sg_have_fsgsbase;

static unsigned long round_page(unsigned long n)
{
	return (n + SG_PAGE - 1) & ~(SG_PAGE - 1);
}

struct sg_thread *sg_thread_new(int tid)
{
	struct sg_thread *t = sg_mmap(round_page(sizeof(*t)));

	if (!t)
		return 0;
	t->self = t;
	t->tid = tid;
	return t;
}

void sg_thread_free(struct sg_thread *t)
{
	if (t->vfork_spare)
		sg_thread_free(t->vfork_spare);
	if (t->hook_stack)
		sg_munmap(t->hook_stack, t->hook_stack_len);
	sg_munmap(t, round_page(sizeof(*t)));
}

/*
 * Map the hook stack: a guard page, the stack, and at its top the area
 * where the FPU state is saved for hooks that need it.
 */
int sg_thread_hook_stack(struct sg_thread *t)
{
	unsigned long fpu = round_page(sg.fpu_size + 64);
	unsigned long len = SG_PAGE + SYSGATE_HOOK_STACK + fpu;
	char *base = sg_mmap(len);

	if (!base)
		return -12;
	sg_sc3(SG_NR_mprotect, (long)base, SG_PAGE, SG_PROT_NONE);
	t->hook_stack = base;
	t->hook_stack_len = len;
	t->fpu_area = base + SG_PAGE + SYSGATE_HOOK_STACK;
	t->hook_sp = (unsigned long)t->fpu_area - 64;
	return 0;
}

/*
 * State for a thread that reached sysgate without one: a thread created
 * before sysgate started, or through a path sysgate did not see.
 */
struct sg_thread *sg_thread_current(void)
{
	struct sg_thread *t = sg_thread_new(sg_sc0(SG_NR_gettid));

	if (!t)
		sg_die("cannot allocate thread state");
	sg_set_self(t);
	__atomic_add_fetch(&sg.live_threads, 1, __ATOMIC_RELAXED);
	return t;
}
