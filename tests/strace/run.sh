#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh NAME [--quiet]: run corpus program NAME under strace -f and
# sysgate -f (same options), each in a fresh scratch directory, and
# compare (compare.py).  Exit 0 when every line from the program's first
# own call is identical, 77 without strace.
set -u
command -v strace >/dev/null || { echo "strace not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
name=$1
shift
prog=$BUILD/tests/strace/$name
TMP=$(mktemp -d /tmp/sysgate-strace.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/st" "$TMP/sg"
strace -f -o "$TMP/st.log" -- "$prog" "$TMP/st" >/dev/null ||
	{ echo "FAIL: $name under strace: exit $?"; exit 1; }
"$BUILD/sysgate" -f -o "$TMP/sg.log" -- "$prog" "$TMP/sg" >/dev/null ||
	{ echo "FAIL: $name under sysgate: exit $?"; exit 1; }
# The scratch directories differ only by name.
sed -i "s|$TMP/st|SCRATCH|g" "$TMP/st.log"
sed -i "s|$TMP/sg|SCRATCH|g" "$TMP/sg.log"
python3 tests/strace/compare.py "$TMP/st.log" "$TMP/sg.log" "$@"
