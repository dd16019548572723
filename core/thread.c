/* SPDX-License-Identifier: MIT */
/*
 * Per-thread state: created for the first thread at start-up and for every
 * thread sysgate sees created (in the child, right after clone returns),
 * freed when the thread exits.  The hook stack is mapped lazily, the first
 * time a hook callback runs in the thread, so threads that never reach a
 * hook cost only the state page(s).
 */
#include <elf.h>
#include "sg.h"

#define SG_PROT_NONE 0
#define SG_PAGE 4096UL

int sg_have_fsgsbase;
const unsigned long sg_no_self;

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
	if (t->hook_tls)
		sg_munmap(t->hook_tls, t->hook_tls_len);
	sg_signal_free(t);
	sg_signal_own_altstack_free(t);
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
 * Loader mode: a TLS block for sysgate's own thread-local variables, laid
 * out as x86-64's static TLS (the image right below the thread pointer,
 * rounded up to its alignment; at the pointer a TCB whose first and third
 * words point to itself).
 */
#define SG_TCB_SIZE 256

static unsigned long tls_size(void)
{
	unsigned long align = sg.tls.align ? sg.tls.align : 1;

	return (sg.tls.memsz + align - 1) & ~(align - 1);
}

/* Such a block, mapped fresh: its thread pointer, or 0. */
unsigned long sg_tls_block(void **block, unsigned long *block_len)
{
	unsigned long size = tls_size();
	unsigned long len = round_page(size + SG_TCB_SIZE);
	char *base = sg.tls.align <= SG_PAGE ? sg_mmap(len) : 0;
	unsigned long *tcb;

	if (!base)
		return 0;
	memcpy(base, sg.tls.init, sg.tls.filesz);
	tcb = (unsigned long *)(base + size);
	tcb[0] = tcb[2] = (unsigned long)tcb;
	*block = base;
	*block_len = len;
	return (unsigned long)tcb;
}

/*
 * A static program of sysgate's own (the loader, the CLI's front): its
 * PT_TLS, found from its ELF header (linked at its address, not PIE),
 * gets such a block, which the thread register points at from now on.
 * Its thread pointer; 0 without PT_TLS; dies if it cannot be mapped.
 */
unsigned long sg_tls_start_static(const void *ehdr)
{
	const Elf64_Ehdr *eh = ehdr;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh +
						    eh->e_phoff);
	unsigned long tp;
	void *block;
	unsigned long len;
	int i;

	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_TLS || !ph[i].p_memsz)
			continue;
		sg.tls.init = (const void *)ph[i].p_vaddr;
		sg.tls.filesz = ph[i].p_filesz;
		sg.tls.memsz = ph[i].p_memsz;
		sg.tls.align = ph[i].p_align;
	}
	if (!sg.tls.memsz)
		return 0;
	tp = sg_tls_block(&block, &len);
	if (!tp)
		sg_die("cannot map its TLS block");
	sg_arch_swap_tls(tp);
	return tp;
}

int sg_thread_hook_tls(struct sg_thread *t)
{
	t->hook_tp = sg_tls_block(&t->hook_tls, &t->hook_tls_len);
	return t->hook_tp ? 0 : -12;
}

void sg_hook_thread_seen(void)
{
	__atomic_store_n(&sg.vm_shared, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sg.hook_threads, 1, __ATOMIC_SEQ_CST);
}

/*
 * State for a thread that reached sysgate without one: a thread created
 * before sysgate started, or through a path sysgate did not see.
 */
struct sg_thread *sg_thread_current(void)
{
	/* (read before sg_set_self writes the thread register) */
	int hooks = sg_thread_hooks_inherited();
	struct sg_thread *t = sg_thread_new(sg_sc0(SG_NR_gettid));

	if (!t)
		sg_die("cannot allocate thread state");
	/* Without it, sysgate's own reads of the program's memory (by
	 * process id) fail with EFAULT in this thread. */
	t->pid = sg_sc0(SG_NR_getpid);
	sg_set_self(t);
	sg_signal_own_altstack(t);
	/* Made, unseen, by a hook's thread or inside a callback (core/sud.c,
	 * sg_sud_window_open): a hook's own, as sg_raw_child_setup would
	 * have marked it. */
	if (hooks) {
		t->hook_own = 1;
		t->depth = 1;
		sg_thread_hooks_mark(t, 1);
		sg_hook_thread_seen();
	}
	__atomic_add_fetch(&sg.live_threads, 1, __ATOMIC_RELAXED);
	return t;
}
