#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-strace-classes.sh HARNESS: the classes column of syscalls.csv
# against strace's own %class sets on this machine's arch.  HARNESS
# (strace-harness.c) makes every call of the table once, and strace
# -e trace=%CLASS shows which ones strace puts in CLASS.
#
# Our stat class is strace's %%stat (see syscalls/README.md).  Names in
# KNOWN below are where we differ on purpose, or where strace versions
# disagree; they are not compared.  Skips (77) without strace or ptrace.
set -u
harness=$1
arch=$(uname -m)
KNOWN="close_range"
command -v strace >/dev/null 2>&1 || { echo "strace not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! strace -qq -e trace=none "$harness" >"$tmp/out" 2>&1; then
	cat "$tmp/out"
	echo "cannot run the harness under strace (ptrace or seccomp refused)"
	exit 77
fi

fail=0
for c in file process network signal ipc desc memory creds stat clock pure; do
	sc=%$c
	[ $c = stat ] && sc=%%stat
	strace -qq -e signal=none -e trace="$sc" "$harness" 2>&1 >/dev/null |
		sed -n 's/^\([a-z_0-9]*\)(.*/\1/p' | sort -u >"$tmp/strace"
	awk -F, -v arch="$arch" -v c="$c" -v known=" $KNOWN " '
	/^#/ { next }
	$1 == "name" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col[arch] != "-" && index(known, " " $1 " ") == 0 {
		n = split($col["classes"], a, "|")
		for (i = 1; i <= n; i++)
			if (a[i] == c)
				print $1
	}' syscalls/syscalls.csv | sort >"$tmp/ours"
	# strace may also show names we do not compare.
	for k in $KNOWN; do
		grep -vx "$k" "$tmp/strace" >"$tmp/s2"
		mv "$tmp/s2" "$tmp/strace"
	done
	if ! cmp -s "$tmp/strace" "$tmp/ours"; then
		echo "%$c differs (< strace $(strace -V | head -n 1 |
			awk '{ print $NF }'), > syscalls.csv):"
		diff "$tmp/strace" "$tmp/ours"
		fail=1
	fi
done
[ $fail -eq 0 ] || exit 1
echo "$arch: classes agree with $(strace -V | head -n 1)"
