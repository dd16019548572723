#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Real programs nobody here wrote, natively and under each sysgate mode:
# the same stdout and exit status (run.sh).  CPython's own regression
# tests are the suite real/cpython (`make check-real`).
[ "$ARCH" = x86_64 ] || exit 0
modes="default loader seccomp sud"
# Combinations that still fail, each an open gap, skipped with the reason
# (SYSGATE_KNOWN_GAPS=1 runs them anyway).
known_gap() {
	case $1/$2 in
	esac
}
for prog in python luajit node java perl git sqlite3 tar-xz make curl \
	valgrind-none valgrind-memcheck gdb gdb-over musl-dynamic musl-static \
	asan tsan ubsan msan i386 sysgate-in strace-in strace-over; do
	for mode in $modes $([ $prog = i386 ] && echo ptrace); do
		why=$(known_gap "$prog" "$mode")
		if [ -n "$why" ] && [ -z "${SYSGATE_KNOWN_GAPS:-}" ]; then
			printf '%s/%s\techo %q; exit 77\n' "$prog" "$mode" "known gap: $why"
			continue
		fi
		printf '%s/%s\tbash tests/real/run.sh %s %s\n' "$prog" "$mode" "$prog" "$mode"
	done
done
