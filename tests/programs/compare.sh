#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh 'SHELL COMMAND' SYSGATE-OPTIONS...: run the command natively
# and under sysgate (through sh, so the shell is hooked too).
set -u
cmd=$1
shift
# (checked: an empty TMPD would have the programs write at /)
TMPD=$(mktemp -d /tmp/sysgate-prog.XXXXXX) && [ -d "$TMPD" ] ||
	{ echo "compare.sh: mktemp failed"; exit 1; }
export TMPD
trap 'rm -rf "$TMPD"' EXIT
command -v "${cmd%% *}" >/dev/null || { echo "${cmd%% *} not installed"; exit 77; }
native=$(sh -c "$cmd" 2>&1)
nrc=$?
hooked=$("$BUILD/sysgate" "$@" -- sh -c "$cmd" 2>&1)
hrc=$?
if [ "$native" != "$hooked" ] || [ $nrc != $hrc ]; then
	echo "native exit $nrc, under sysgate $* exit $hrc"
	diff <(echo "$native") <(echo "$hooked") | head -20
	exit 1
fi
echo "$native" | tail -1
