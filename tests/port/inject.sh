#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -e inject=getppid:retval=4242 through SYSGATE_OPTIONS under qemu-user:
# the program's own patched system call returns 4242, registers kept.
# Further arguments go before the injection (e.g. -m int3).
set -u
prog=$1
shift
lib=$(cd "$BUILD" && pwd)/libsysgate.so
out=$($RUN -E LD_PRELOAD="$lib" \
	-E SYSGATE_OPTIONS="$* -e inject=getppid:retval=4242 -e trace=none" \
	"$prog" 2>&1)
echo "$out"
[ "$out" = "result 4242
registers kept" ]
