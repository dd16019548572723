#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh NAME [OPTION...] [--quiet]: run corpus program NAME under
# strace -f OPTION... and sysgate -f OPTION... (the same options), each
# in a fresh scratch directory, and compare (compare.py).  Exit 0 when
# every line from the program's first own call is identical, 77 without
# strace.  SG_RUN_OPTS: options for sysgate alone (a mechanism: -m ptrace).
set -u
command -v strace >/dev/null || { echo "strace not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
name=$1
shift
opts=()
while [ $# -gt 0 ] && [ "$1" != --quiet ]; do
	opts+=("$1")
	shift
done
prog=$BUILD/tests/strace/$name
TMP=$(mktemp -d /tmp/sysgate-strace.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# The same scratch directory, fresh, for both runs.
mkdir "$TMP/w"
strace -f "${opts[@]}" -o "$TMP/st.log" -- "$prog" "$TMP/w" >/dev/null ||
	{ echo "FAIL: $name under strace: exit $?"; exit 1; }
rm -rf "$TMP/w" && mkdir "$TMP/w"
"$BUILD/sysgate" ${SG_RUN_OPTS:-} -f "${opts[@]}" -o "$TMP/sg.log" -- "$prog" "$TMP/w" \
	>/dev/null ||
	{ echo "FAIL: $name under sysgate: exit $?"; exit 1; }
case " ${opts[*]} " in
*" -P "*) set -- "$@" --whole ;;
esac
python3 tests/strace/compare.py "$TMP/st.log" "$TMP/sg.log" "$@"
