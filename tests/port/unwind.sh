#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unwind.sh OPTIONS...: under qemu-user, with libsysgate.so preloaded and
# OPTIONS, a hook that unwinds at each getppid (tests/hooks/unwind.c) must
# walk from sysgate's frames into the program's function that made the
# call (tests/cli/unwind-prog.c), and the program must run as natively.
set -u
d=$(cd "$BUILD" && pwd)
prog=$d/tests/cli/unwind-prog
out=$($RUN -E LD_PRELOAD="$d/libsysgate.so" \
	-E SYSGATE_OPTIONS="$* -e trace=none -qq -e signal=none --hook=$d/tests/hooks/unwind.so" \
	"$prog" 2>&1)
rc=$?
echo "$out"
# qemu-user has no syscall user dispatch: say so as the skip's reason.
if echo "$out" | grep -q 'syscall user dispatch is not available'; then
	echo "no syscall user dispatch here (qemu-user has none)"
	exit 77
fi
[ $rc -eq 0 ] && echo "$out" | grep -qx 1 &&
	echo "$out" | grep -qx 'unwind: reached unwind_marker'
