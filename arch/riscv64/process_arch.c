/* SPDX-License-Identifier: MIT */
/* rv64 has no calls the core must handle for itself (tp belongs to the
 * program; sysgate keys its thread states by it, see thread_arch.h). */
#include "sg.h"
#include "process.h"

struct sg_tslot sg_threads[SG_TSLOTS];
struct sg_tslot sg_threads_by_tid[SG_TSLOTS];

int sg_arch_core_call(struct sg_thread *t, struct sysgate_sys *s)
{
	(void)t;
	(void)s;
	return 0;
}

/* Make written code visible to instruction fetch. */
void sg_arch_flush_code(unsigned long lo, unsigned long hi)
{
	/* riscv_flush_icache(start, end, 0): every hart, not only ours. */
	sg_sc3(SG_NR_riscv_flush_icache, lo, hi, 0);
}
