#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The smallest clone() child stack that works, natively and under sysgate,
# found by bisection (run by hand; doc/internals.md quotes its figures):
#
#     scripts/clone-stack-min.sh [FLAGS [build/sysgate OPTIONS... --]]
#
# FLAGS: clone flags (default 0x11, SIGCHLD: a copy of the process; 0x4100
# CLONE_VM|CLONE_VFORK, 0x100 CLONE_VM, 0x10d00 a thread).  The child
# calls write and getpid through libc and getppid with an inline
# `syscall`, then exits; its stack lies above a page that cannot be
# written.  Built with -z now: lazy binding's own stack use is not ours.
set -u
flags=${1:-0x11}
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/child.c" <<'C'
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static int child(void *arg)
{
	long r;

	(void)arg;
	if (write(1, "", 0) != 0 || getpid() <= 0)
		_exit(4);
	__asm__ volatile("syscall" : "=a"(r) : "0"(110L) : "rcx", "r11", "memory");
	return r > 0 ? 0 : 3;
}

int main(int argc, char **argv)
{
	long size = atol(argv[1]);
	int flags = strtol(argv[2], 0, 0), st;
	char *m = mmap(0, 4096 + size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t p;

	if (m == MAP_FAILED || mprotect(m, 4096, PROT_NONE))
		return 1;
	p = clone(child, m + 4096 + size, flags, 0);
	if (p < 0)
		return 1;
	if (flags & CLONE_THREAD) {
		sleep(1);
		return 0;
	}
	if (waitpid(p, &st, __WALL) != p)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
C
${CC:-cc} -O2 -Wl,-z,now -o "$dir/child" "$dir/child.c" || exit 1
ok() { "$@" "$dir/child" "$size" "$flags" >/dev/null 2>&1; }
lo=16 hi=65536
size=$hi
ok "$@" || { echo "fails with $hi bytes"; exit 1; }
while [ $((hi - lo)) -gt 16 ]; do
	size=$(((lo + hi) / 2 / 16 * 16))
	if ok "$@"; then hi=$size; else lo=$size; fi
done
echo "$hi"
