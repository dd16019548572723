#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Structural checks of syscalls/syscalls.csv: the header, sorted unique
# names, and that syscalls/gen.awk accepts the table for every arch (it
# rejects a wrong field count, nargs that differs from the length of args,
# unknown kind letters and classes, unknown gpu values, a buffer kind with
# no length argument after it, duplicate names and a number used twice on
# one arch).  Then feed gen.awk broken tables
# to make sure each of those is really rejected.
set -u
AWK=${AWK:-awk}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
csv=syscalls/syscalls.csv
others="syscalls/errno.csv syscalls/signals.csv"

gen() { # csv arch
	$AWK -v arch="$2" -v out=c -f syscalls/gen.awk "$1" $others
}

hdr=$(grep -v '^#' $csv | head -n 1)
if [ "$hdr" != "name,x86_64,aarch64,riscv64,i386,nargs,args,classes,gpu" ]; then
	echo "unexpected header: $hdr"
	fail=1
fi
grep -v '^#' $csv | tail -n +2 | cut -d, -f1 >"$tmp/names"
if ! sort -c "$tmp/names" 2>/dev/null; then
	echo "rows are not sorted by name (scripts/update-syscalls sorts)"
	fail=1
fi
dup=$(sort "$tmp/names" | uniq -d)
[ -z "$dup" ] || { echo "duplicate names: $dup"; fail=1; }

for a in x86_64 aarch64 riscv64 i386; do
	if ! gen $csv $a >/dev/null 2>"$tmp/err"; then
		echo "gen.awk rejects the table for $a:"
		cat "$tmp/err"
		fail=1
	fi
done

# Each broken table must be rejected with a message about it.
reject() { # description sed-expression expected-message
	sed "$2" $csv >"$tmp/bad.csv"
	if cmp -s $csv "$tmp/bad.csv"; then
		echo "test bug: '$2' changed nothing"
		fail=1
	elif gen "$tmp/bad.csv" x86_64 >/dev/null 2>"$tmp/err"; then
		echo "gen.awk accepted a table with $1"
		fail=1
	elif ! grep -q "$3" "$tmp/err"; then
		echo "gen.awk rejected $1 but said: $(cat "$tmp/err")"
		fail=1
	fi
}
reject "an unknown kind" 's/^read,0,63,63,3,3,fBu,/read,0,63,63,3,3,fBz,/' \
	"unknown argument kind 'z'"
reject "an unknown class" 's/^close,\(.*\),desc,/close,\1,desk,/' \
	"unknown class 'desk'"
reject "nargs != length(args)" 's/^read,0,63,63,3,3,/read,0,63,63,3,4,/' \
	"nargs 4 but args"
reject "nargs > 6" 's/^read,0,63,63,3,3,fBu,/read,0,63,63,3,7,fBuxxxx,/' \
	"bad nargs"
reject "an unknown gpu value" 's/^read,\(.*\),yes$/read,\1,maybe/' \
	"unknown gpu value"
reject "a buffer without a length" 's/^write,1,64,64,4,3,fbu,/write,1,64,64,4,2,fb,/' \
	"needs a length argument"
reject "a duplicate name" 's/^readv,/read,/' "duplicate name read"
reject "a duplicate number" 's/^write,1,/write,0,/' "number 0 already used"
reject "a bad number" 's/^write,1,/write,x1,/' "bad x86_64 number"
reject "a missing field" 's/^write,1,64,64,4,3,fbu,desc,yes/write,1,64,64,4,3,fbu,desc/' \
	"fields, expected"
reject "a class given twice" 's/^close,\(.*\),desc,/close,\1,desc|desc,/' \
	"class desc twice"

[ $fail -eq 0 ] || exit 1
echo "syscalls.csv: $(wc -l <"$tmp/names") rows, structure ok"
