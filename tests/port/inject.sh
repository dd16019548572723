#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -e inject=getppid:retval=4242 through SYSGATE_OPTIONS under qemu-user:
# the program's own patched system call returns 4242, registers kept.
set -u
lib=$(cd "$BUILD" && pwd)/libsysgate.so
out=$($RUN -E LD_PRELOAD="$lib" \
	-E SYSGATE_OPTIONS='-e inject=getppid:retval=4242 -e trace=none' "$1" 2>&1)
echo "$out"
[ "$out" = "result 4242
registers kept" ]
