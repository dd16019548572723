#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The gpu column of syscalls/syscalls.csv is the GENESYS appendix
# (syscalls/genesys.tsv) mapped by the rule stated in that file: every
# appendix row names a call of the CSV (or "-"), no call appears twice,
# and each call's token follows from the verbatim "viable" text; calls the
# appendix does not list have "-".
set -u
export LC_ALL=C
awk -F'\t' '
function token(v) {
	if (v ~ /^no/)
		return "no"
	if (v ~ /^depends/)
		return "limited"
	if (v ~ /^yes[ *]*$/)
		return "yes"
	if (v ~ /^yes, /)
		return "limited"
	return "?"
}
FNR == 1 { file++ }
/^#/ { next }
file == 1 && $1 == "appendix" { next }
file == 1 {
	rows++
	if (NF != 3) { print "genesys.tsv:" FNR ": " NF " fields"; bad = 1 }
	if (token($2) == "?") {
		print "genesys.tsv:" FNR ": cannot map \"" $2 "\""; bad = 1
	}
	if ($3 == "-") { unmapped++; next }
	if ($3 in want) {
		print "genesys.tsv: " $3 " listed twice"; bad = 1
	}
	want[$3] = token($2)
	next
}
file == 2 {
	split($0, f, ",")
	if (f[1] == "name") {
		for (i = 1; i in f; i++)
			if (f[i] == "gpu")
				g = i
		next
	}
	have[f[1]] = f[g]
	expect = (f[1] in want) ? want[f[1]] : "-"
	if (f[g] != expect) {
		print f[1] ": gpu is " f[g] ", the appendix says " expect; bad = 1
	}
	count[f[g]]++
}
END {
	for (n in want)
		if (!(n in have)) {
			print "genesys.tsv names " n ", which syscalls.csv lacks"
			bad = 1
		}
	if (bad)
		exit 1
	printf "genesys: %d appendix rows (%d with no system call here);", \
		rows, unmapped
	printf " yes %d, limited %d, no %d, unlisted %d\n", count["yes"], \
		count["limited"], count["no"], count["-"]
}' syscalls/genesys.tsv syscalls/syscalls.csv
