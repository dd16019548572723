/* SPDX-License-Identifier: MIT */
/*
 * A hook whose callback forks the process (as a checkpointing or
 * fault-exploring hook does): the first getppid is answered with fork's
 * result, so the program goes on in two processes, each of which must
 * be a hooked process of its own -- its pid in call records, its memory
 * read by the tracer, its signals, threads and later forks -- exactly
 * as after a fork the program made itself.  Later getppid calls run.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sysgate.h"

static int forked;
/* With "wx": fork from write+exec memory, which no patch covers, after
 * two calls there (syscall user dispatch lets a callback's calls through
 * untrapped once a site of it traps twice: core/sud.c). */
static long (*wx_call)(long);

static int forkcb_init(struct sysgate_ctx *ctx, const char *args)
{
	/* mov %rdi,%rax; syscall; ret */
	static const unsigned char call0[] = { 0x48, 0x89, 0xf8, 0x0f, 0x05,
					       0xc3 };
	void *p;

	if (args && !strcmp(args, "wx")) {
		p = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		memcpy(p, call0, sizeof(call0));
		wx_call = (long (*)(long))p;
	}
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict forkcb_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	if (__atomic_exchange_n(&forked, 1, __ATOMIC_RELAXED))
		return SYSGATE_RUN;
	if (wx_call) {
		wx_call(39 /* getpid */);
		wx_call(39);
		s->ret = wx_call(57 /* fork */);
	} else {
		s->ret = fork();
	}
	return SYSGATE_SKIP;
}

static const struct sysgate_hook forkcb_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "forkcb",
	.init = forkcb_init,
	.enter = forkcb_enter,
};

SYSGATE_HOOK_DEFINE(forkcb_hook);
