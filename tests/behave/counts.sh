#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# counts.sh TEST CALLS SYSGATE-OPTIONS...: the number of each of CALLS
# (comma-separated) that build/tests/behave/TEST makes, under sysgate -f -c
# and under strace -f -c, must be the same: every thread and child is
# followed, however it was created.
set -u
t=$1 calls=$2
shift 2
prog=$BUILD/tests/behave/$t
command -v strace >/dev/null || { echo "strace is not installed"; exit 77; }
case " $* " in
*" -m "*)
	m=$(echo " $* " | sed -E 's/.* -m ([a-z0-9]+) .*/\1/')
	"$BUILD/sysgate" "$@" --list-mechanisms | grep -q "^$m *available" ||
		{ echo "mechanism $m is not available here"; exit 77; }
	;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strace -f -c -o "$tmp/strace" "$prog" >/dev/null 2>&1 ||
	{ echo "strace cannot run $prog here"; exit 77; }
"$BUILD/sysgate" "$@" -f -c -o "$tmp/sysgate" -- "$prog" >/dev/null ||
	{ echo "$prog failed under sysgate $*"; exit 1; }
# "% time seconds usecs/call calls [errors] syscall": calls is field 4
count() { awk -v c="$2" '$NF == c { print $4 }' "$1"; }
fail=0
for c in ${calls//,/ }; do
	s=$(count "$tmp/strace" "$c") g=$(count "$tmp/sysgate" "$c")
	[ "${s:-0}" = "${g:-0}" ] ||
		{ echo "$c: ${g:-0} calls under sysgate $*, ${s:-0} under strace"; fail=1; }
done
[ $fail -eq 0 ] && echo "same counts of $calls as strace -f"
exit $fail
