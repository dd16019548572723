#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# inject.sh PROG OPTIONS...: OPTIONS, through SYSGATE_OPTIONS under
# qemu-user, make getppid return 4242 (-e inject=getppid:retval=4242, or a
# hook's exit()): the program's own patched system call returns 4242,
# registers kept.
set -u
prog=$1
shift
lib=$(cd "$BUILD" && pwd)/libsysgate.so
out=$($RUN -E LD_PRELOAD="$lib" \
	-E SYSGATE_OPTIONS="$* -e trace=none -qq -e signal=none" \
	"$prog" 2>&1)
echo "$out"
[ "$out" = "result 4242
registers kept" ]
