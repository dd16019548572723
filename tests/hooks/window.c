/* SPDX-License-Identifier: MIT */
/*
 * A hook whose callback, as a library a hook uses may (libcephfs), makes
 * calls from code no patch covers (write+exec memory of its own) while
 * syscall user dispatch is on -- CALLS of getpid, which need not trap
 * (sysgate --stats counts the calls SIGSYS caught) -- and starts a
 * thread there with a raw clone, which must be a hook's own thread: its
 * getppid from a patched site of libc must not reach this hook, nor that
 * of the thread it starts the same way (a hook's thread is never
 * trapped).  Counts the getppid calls it sees (tests/cli/window-prog
 * makes 5).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysgate.h"

#define CALLS 1000

static long seen, done;
static unsigned char *code;
/* Each new thread's stack and TLS (a TCB that points to itself is all
 * it uses). */
static char stacks[2][65536] __attribute__((aligned(16)));
static void *tls[2][64] __attribute__((aligned(64)));

/* mov %rdi,%rax; syscall; ret */
static const unsigned char call0[] = { 0x48, 0x89, 0xf8, 0x0f, 0x05, 0xc3 };

/*
 * clone(flags = rdi, stack = rsi, ptid = rdx, ctid = rcx, tls = r8); the
 * child pops a function and its argument from its stack, calls it and
 * exits:
 *     mov %rcx,%r10; mov $56,%eax; syscall; test %rax,%rax; jnz 1f;
 *     pop %rax; pop %rdi; call *%rax; mov $60,%eax; xor %edi,%edi;
 *     syscall; 1: ret
 */
static const unsigned char clone_code[] = {
	0x49, 0x89, 0xca, 0xb8, 56, 0, 0, 0, 0x0f, 0x05, 0x48, 0x85, 0xc0,
	0x75, 0x0d, 0x58, 0x5f, 0xff, 0xd0, 0xb8, 60, 0, 0, 0, 0x31, 0xff,
	0x0f, 0x05, 0xc3
};

/* A thread on stacks[i] that calls fn(i + 1); waits for done > i. */
static int start(int i, void (*fn)(void *))
{
	long (*clone_)(long, void *, void *, void *, void *) =
		(long (*)(long, void *, void *, void *, void *))(code + 64);
	void **sp = (void **)(stacks[i] + sizeof(stacks[i])) - 2;

	sp[0] = (void *)fn;
	sp[1] = (void *)(long)(i + 1);
	tls[i][0] = tls[i];
	if (clone_(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		   CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS, sp, 0, 0,
		   tls[i]) < 0)
		return -1;
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < i + 1)
		sched_yield();
	return 0;
}

/* The first thread starts the second, which ends the wait of both. */
static void thread(void *arg)
{
	getppid();
	if ((long)arg == 1 && start(1, thread) == 0)
		return;
	__atomic_store_n(&done, 2, __ATOMIC_RELEASE);
}

static void in_callback(void)
{
	long (*call)(long) = (long (*)(long))code;
	int i;

	for (i = 0; i < CALLS; i++)
		call(SYS_getpid);
	if (start(0, thread) < 0)
		fprintf(stderr, "window: clone failed\n");
}

static int window_init(struct sysgate_ctx *ctx, const char *args)
{
	(void)args;
	code = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return -1;
	memcpy(code, call0, sizeof(call0));
	memcpy(code + 64, clone_code, sizeof(clone_code));
	return sysgate_select_name(ctx, "getppid");
}

static enum sysgate_verdict window_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	(void)s;
	if (__atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED) == 1)
		in_callback();
	return SYSGATE_RUN;
}

static void window_fini(void *data)
{
	(void)data;
	fprintf(stderr, "window: %ld getppid\n", seen);
}

static const struct sysgate_hook window_hook = {
	.abi = SYSGATE_HOOK_ABI,
	.name = "window",
	.init = window_init,
	.enter = window_enter,
	.fini = window_fini,
};

SYSGATE_HOOK_DEFINE(window_hook);
