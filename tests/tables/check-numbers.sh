#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-numbers.sh ARCH: the ARCH column of syscalls/syscalls.csv equals
# the __NR_* numbers of ARCH's <asm/unistd.h>, in both directions: every
# system call of the headers is in the CSV with its number, and every
# number in the CSV is one the headers give that name.  Skips (77) only
# when ARCH's headers are not installed.  On failure, run
# scripts/update-syscalls.
set -u
arch=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scripts/uapi-macros "$arch" asm/unistd.h '^__NR_' >"$tmp/raw"
rc=$?
if [ $rc -eq 77 ]; then
	tail -n 1 "$tmp/raw"
	exit 77
fi
[ $rc -eq 0 ] || exit 1

# name number, both sides; __NR_syscalls and __NR_arch_specific_syscall
# are markers, not calls.
awk '$1 != "__NR_syscalls" && $1 != "__NR_arch_specific_syscall" {
	sub(/^__NR_/, "", $1); print $1, $2 }' "$tmp/raw" | sort >"$tmp/hdr"
awk -F, -v arch="$arch" '
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) if ($i == arch) c = i; hdr = 1; next }
c && $c != "-" { print $1, $c }
END { if (!c) { print "no column " arch > "/dev/stderr"; exit 1 } }
' syscalls/syscalls.csv | sort >"$tmp/csv" || exit 1

if ! cmp -s "$tmp/hdr" "$tmp/csv"; then
	echo "syscalls.csv and $arch <asm/unistd.h> differ" \
		"(< headers, > csv):"
	diff "$tmp/hdr" "$tmp/csv"
	exit 1
fi
echo "$arch: $(wc -l <"$tmp/csv") system calls match <asm/unistd.h>"
