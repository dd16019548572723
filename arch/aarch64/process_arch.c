/* SPDX-License-Identifier: MIT */
/* aarch64 has no calls the core must handle for itself (TPIDR_EL0 belongs
 * to the program; sysgate keys its thread states by it, see
 * thread_arch.h). */
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
