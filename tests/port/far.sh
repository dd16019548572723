#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# far.sh near|far: a library with a getppid site of its own, loaded with
# dlopen where the loader puts it (usually near libc) or beyond any
# pc-relative reach of libc and libsysgate.so (tests/port/far.c reserves
# 16 GiB first), is patched after it loads: its call returns 4242 under
# -e inject=getppid:retval=4242.
set -u
d=$(cd "$BUILD" && pwd)
out=$($RUN -E LD_PRELOAD="$d/libsysgate.so" \
	-E SYSGATE_OPTIONS='-e inject=getppid:retval=4242 -e trace=none -qq -e signal=none' \
	"$d/tests/port/far" "$d/tests/port/farsite.so" "$1" 2>&1)
echo "$out"
case $1 in
near)	[ "${out#* from libc
}" = "far_getppid 4242" ] ;;
*)	[ "$out" = "far from libc
far_getppid 4242" ] ;;
esac
