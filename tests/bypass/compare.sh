#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh CASE DIR [SYSGATE-OPTIONS...]: run tests/bypass/files CASE on a
# file in DIR natively and under sysgate --bypass (with the calls traced to
# a log); stdout and exit status must be identical, and the log must show
# calls answered by the bypass (so the test cannot pass by passing through).
set -u
case=$1 dir=$2
shift 2
prog=$BUILD/tests/bypass/files
[ -d "$dir" ] && [ -w "$dir" ] || { echo "$dir is not a writable directory"; exit 77; }
work=$(mktemp -d "$dir/sysgate-bypass.XXXXXX")
log=$(mktemp /tmp/sysgate-bypass-log.XXXXXX)
trap 'rm -rf "$work" "$log"' EXIT
native=$("$prog" "$work" "$case" 2>/dev/null)
nrc=$?
hooked=$("$BUILD/sysgate" -f -o "$log" \
	-e trace=pread64,read,lseek,getpid,gettid,getppid,uname,write,pwrite64 "$@" -- \
	"$prog" "$work" "$case" 2>/dev/null)
hrc=$?
if [ "$native" != "$hooked" ] || [ $nrc != $hrc ]; then
	echo "native exit $nrc, under sysgate $* exit $hrc"
	diff <(echo "$native") <(echo "$hooked") | head -20
	exit 1
fi
n=$(grep -c '(BYPASS)' "$log")
echo "$native" | tail -1
echo "$n calls answered by the bypass"
# badbuf: every call faults, so all go to the kernel
[ "$case" = badbuf ] || [ "$n" -gt 0 ] || { echo "no call was bypassed"; exit 1; }
