/* SPDX-License-Identifier: MIT */
/*
 * x86-64 calls the core handles itself: sysgate keeps its per-thread state
 * behind the GS base, so a program's arch_prctl(ARCH_SET_GS) is refused
 * with EPERM (and ARCH_GET_GS reports 0, the value the program would see
 * natively without having set it) instead of breaking sysgate.  A new
 * FS base (TLS) moves the thread's state along with it.
 */
#include "sg.h"
#include "process.h"
#include "context.h"
#include "dispatch.h"
#include "decode.h"
#include "fpu_arch.h"

/* Code bytes for x86_fpu_free: this process's own memory through
 * process_vm_readv, which fails where nothing is mapped, not faults. */
static long read_self(void *dst, const void *src, unsigned long len)
{
	struct {
		const void *base;
		unsigned long len;
	} l = { dst, len }, r = { src, len };

	return sg_sc6(SG_NR_process_vm_readv, sg_sc0(SG_NR_getpid), (long)&l,
		      1, (long)&r, 1, 0);
}

int sg_fpu_free_code(const void *fn)
{
	return x86_fpu_free((unsigned long)fn, read_self);
}

int sg_arch_core_call(struct sg_thread *t, struct sysgate_sys *s)
{
	if (s->nr != SG_NR_arch_prctl)
		return 0;
	if (s->args[0] == SG_ARCH_SET_FS) {
		/* The state follows its thread to the new TLS (see sg_self). */
		s->ret = sg_sc2(SG_NR_arch_prctl, s->args[0], s->args[1]);
		if (s->ret == 0)
			t->owner = sg_thread_owner();
		return 1;
	}
	if (s->args[0] == SG_ARCH_SET_GS) {
		s->ret = -1;	/* EPERM */
		return 1;
	}
	if (s->args[0] == SG_ARCH_GET_GS) {
		unsigned long zero = 0;

		s->ret = sg_write_safe((void *)s->args[1], &zero,
				       sizeof(zero)) < 0 ? -14 : 0;
		return 1;
	}
	return 0;
}

/*
 * After sg_x86_trap_raw (entry.S), in the caller and in a child: back to
 * next, the word below the info word; a vfork caller's may have been
 * overwritten by its child, which shared the stack, so it kept a copy.
 */
void sg_after_trapped_raw(struct sg_frame *f, unsigned long info,
			  unsigned long next)
{
	/* (a new child looks at no state before sg_after_raw_at) */
	struct sg_thread *t = sg_raw_info_valid(info) &&
					      (info & SG_RAW_NEWCHILD) &&
					      sg_frame_result(f) == 0 ?
				      0 : sg_self();

	if (t && t->vfork_next) {
		next = t->vfork_next;
		t->vfork_next = 0;
	}
	sg_frame_resume_at(f, next);
	sg_after_raw_at(f, info, (const void *)(next - SG_SYSCALL_INSN_LEN));
}

/* Code written through /proc/self/mem or a store is fetched as written:
 * x86 keeps instruction fetch coherent. */
void sg_arch_flush_code(unsigned long lo, unsigned long hi)
{
	(void)lo;
	(void)hi;
}
