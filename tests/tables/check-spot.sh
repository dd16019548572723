#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Spot checks of classes and argument kinds of well-known system calls
# (tests/tables/spot.txt) against syscalls/syscalls.csv.
set -u
export LC_ALL=C
awk -F, '
function canon(s,    n, a, i, j, t) {
	if (s == "-")
		return "-"
	n = split(s, a, "|")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	s = a[1]
	for (i = 2; i <= n; i++)
		s = s "|" a[i]
	return s
}
FNR == 1 { file++ }
/^#/ || /^[ \t]*$/ { next }
file == 1 {
	split($0, f, " ")
	want_cls[f[1]] = canon(f[2])
	want_args[f[1]] = f[3] == "-" ? "" : f[3]
	order[++n] = f[1]
	next
}
$1 == "name" {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	next
}
{
	cls[$1] = canon($col["classes"])
	args[$1] = $col["args"]
}
END {
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (!(s in cls)) {
			print s ": not in syscalls.csv"; bad++; continue
		}
		if (cls[s] != want_cls[s]) {
			print s ": classes " cls[s] ", expected " want_cls[s]
			bad++
		}
		if (args[s] != want_args[s]) {
			print s ": args \"" args[s] "\", expected \"" \
				want_args[s] "\""
			bad++
		}
	}
	if (bad)
		exit 1
	print n " spot checks passed"
}' tests/tables/spot.txt syscalls/syscalls.csv
