#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-errno-signals.sh ARCH: syscalls/errno.csv and signals.csv agree
# with ARCH's <asm/errno.h> and <asm/signal.h>.  The CSVs have no arch
# column, so this is also the check that the three arches share numbers.
# Every header name must be in the CSV with its number; CSV names the
# headers lack are allowed only where the table says why (kernel-internal
# errnos >= 512, libc's ENOTSUP, strace's SIGRT_n names).  Skips (77) only
# when ARCH's headers are not installed.
set -u
arch=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

scripts/uapi-macros "$arch" asm/errno.h '^E[A-Z0-9]+$' >"$tmp/e.raw"
rc=$?
if [ $rc -eq 77 ]; then
	tail -n 1 "$tmp/e.raw"
	exit 77
fi
[ $rc -eq 0 ] || exit 1
scripts/uapi-macros "$arch" asm/signal.h '^SIG[A-Z0-9]+$' >"$tmp/s.raw" ||
	exit 1

# errno: header -> csv, then csv -> header.
awk '{ print $1, $2 }' "$tmp/e.raw" | sort >"$tmp/e.hdr"
awk -F, '/^#/ || $1 == "name" { next } { print $1, $2 }' \
	syscalls/errno.csv | sort >"$tmp/e.csv"
missing=$(comm -23 "$tmp/e.hdr" "$tmp/e.csv")
if [ -n "$missing" ]; then
	echo "errno.csv lacks or misnumbers (name number from headers):"
	echo "$missing"
	fail=1
fi
extra=$(comm -13 "$tmp/e.hdr" "$tmp/e.csv" |
	awk '!($2 >= 512 || $1 == "ENOTSUP")')
if [ -n "$extra" ]; then
	echo "errno.csv rows the $arch headers do not have:"
	echo "$extra"
	fail=1
fi

# signals: SIGSTKSZ is no signal; SIGRTMAX may be unresolved (x86 leaves
# _NSIG to libc), and is checked against the CSV only when present.
awk '$1 != "SIGSTKSZ" { print $1, $2 }' "$tmp/s.raw" | sort >"$tmp/s.hdr"
awk -F, '/^#/ || $1 == "name" { next } { print $1, $2 }' \
	syscalls/signals.csv | sort >"$tmp/s.csv"
missing=$(comm -23 "$tmp/s.hdr" "$tmp/s.csv")
if [ -n "$missing" ]; then
	echo "signals.csv lacks or misnumbers (from headers):"
	echo "$missing"
	fail=1
fi
rtmin=$(awk '$1 == "SIGRTMIN" { print $2 }' "$tmp/s.hdr")
extra=$(comm -13 "$tmp/s.hdr" "$tmp/s.csv" | awk -v rtmin="$rtmin" '
	$1 == "SIGRTMAX" && $2 == 64 { next }
	$1 ~ /^SIGRT_[0-9]+$/ { n = substr($1, 7); if ($2 == rtmin + n) next }
	{ print }')
if [ -n "$extra" ]; then
	echo "signals.csv rows the $arch headers do not explain:"
	echo "$extra"
	fail=1
fi
[ $fail -eq 0 ] || exit 1
echo "$arch: errno.csv and signals.csv match the headers"
