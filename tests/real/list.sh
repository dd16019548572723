#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Real programs nobody here wrote, natively and under each sysgate mode:
# the same stdout and exit status (run.sh).  CPython's own regression
# tests are the suite real/cpython (`make check-real`).
[ "$ARCH" = x86_64 ] || exit 0
modes="default loader seccomp sud"
for prog in python luajit node java perl git sqlite3 tar-xz make curl \
	valgrind-none valgrind-memcheck gdb gdb-over musl-dynamic musl-static \
	asan tsan ubsan msan i386 sysgate-in strace-in strace-over; do
	for mode in $modes $([ $prog = i386 ] && echo ptrace); do
		printf '%s/%s\tbash tests/real/run.sh %s %s\n' "$prog" "$mode" "$prog" "$mode"
	done
done
