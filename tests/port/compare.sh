#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh PROG SYSGATE_OPTIONS: run a cross-built program under $RUN
# (qemu-user) natively and with libsysgate.so preloaded; stdout and exit
# status must match and the native run must succeed.
set -u
prog=$1
opts=$2
[ -x "$prog" ] || { echo "missing $prog"; exit 1; }
lib=$(cd "$BUILD" && pwd)/libsysgate.so
native=$($RUN "$prog" 2>/dev/null)
nrc=$?
# stdout only: under -f, children that exec host programs (qemu-user
# cannot run guest ones) print ld.so's complaint about LD_PRELOAD.
hooked=$($RUN -E LD_PRELOAD="$lib" -E SYSGATE_OPTIONS="$opts" "$prog" 2>/dev/null)
hrc=$?
if [ $nrc -ne 0 ]; then
	echo "native run failed (exit $nrc): $native"
	exit 1
fi
if [ "$native" != "$hooked" ] || [ $nrc -ne $hrc ]; then
	echo "with SYSGATE_OPTIONS='$opts': exit $hrc (native $nrc)"
	diff <(echo "$native") <(echo "$hooked")
	exit 1
fi
echo "$native" | tail -1
