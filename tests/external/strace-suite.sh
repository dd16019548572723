#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# strace's own test suite with sysgate as $STRACE: the broadest judge of
# what a tracer prints (each test program prints the lines strace must
# print, and the suite compares).  Nothing of strace is kept in this
# repository: the source is fetched (or named) at run time, built in a
# scratch directory, and only the summary comes back.
#
# usage: tests/external/strace-suite.sh [--src DIR] [--work DIR]
#                                       [--only REGEX] [--json FILE]
#   --src DIR   an strace source tree (a git checkout or release tarball
#               unpacked); default: fetched with git at the tag of the
#               installed strace (or v6.1) into the work directory
#   --work DIR  scratch directory (default: a new one under /tmp)
#   --only RE   run only the tests whose name matches (e.g. '^mlock')
#   --json FILE write {"pass":N,"fail":N,"skip":N,"failed":[...]} there
# Needs autoconf, automake, gawk, git (for fetching) and a C compiler.
# Prints the failure causes (first differing line or sysgate's one-line
# refusal) grouped and counted, then "N passed, M failed, K skipped".
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
SYSGATE=$TOP/$BUILD/sysgate
src= work= only= json=
while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--json) json=$2; shift 2 ;;
	*) echo "strace-suite: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
die() { echo "strace-suite: $*" >&2; exit 1; }
[ -x "$SYSGATE" ] || die "no $SYSGATE: run make first"
for t in autoreconf automake gawk make cc; do
	command -v $t >/dev/null || die "needs $t (apt-get install autoconf automake gawk)"
done
[ -n "$work" ] || work=$(mktemp -d /tmp/sysgate-strace-suite.XXXXXX)
mkdir -p "$work" || die "cannot make $work"
if [ -z "$src" ]; then
	ver=$(strace -V 2>/dev/null | sed -n '1s/.*version \([0-9.]*\).*/\1/p')
	tag=v${ver:-6.1}
	src=$work/strace
	if [ ! -d "$src" ]; then
		git clone -q --depth 1 --branch "$tag" \
			https://github.com/strace/strace "$src" ||
			die "cannot fetch strace $tag (give --src DIR)"
	fi
fi
[ -f "$src/tests/init.sh" ] || die "$src is not an strace source tree"
cd "$src" || exit 1
log=$work/build.log
if [ ! -f Makefile ]; then
	{ [ -x configure ] || ./bootstrap; } >"$log" 2>&1 || die "bootstrap failed: $log"
	# (strace's own copy of the kernel's uapi headers: a distribution's
	# newer ones rename fields strace 6.1 prints, nexthop_grp's resvd1)
	./configure --enable-mpers=no --disable-gcc-Werror \
		--enable-bundled=yes >>"$log" 2>&1 ||
		die "configure failed: $log"
fi
make -j"$(nproc)" >>"$log" 2>&1 || die "building strace failed: $log"
make -C tests -j"$(nproc)" check TESTS= >>"$log" 2>&1 ||
	die "building the test programs failed: $log"

tests=
if [ -n "$only" ]; then
	tests=$(sed -n 's/^\([A-Za-z0-9_.+-]*\.gen\.test\|[A-Za-z0-9_.+-]*\.test\)$/\1/p' \
		<(cd tests && ls) | grep -E "$only" | tr '\n' ' ')
	[ -n "$tests" ] || die "no test matches '$only'"
fi
# (tests that retry a racy case do so for half of TIMEOUT_DURATION)
make -C tests -k -j"$(nproc)" check STRACE="$SYSGATE" \
	TIMEOUT_DURATION="${TIMEOUT_DURATION:-120}" \
	${tests:+TESTS="$tests"} >"$work/check.log" 2>&1

# Programs an attach test started and a failed or timed-out run left
# behind (strace's tests stop them once strace has attached: attach-f-p
# spins until then): none may outlive the run.
tdir=$(pwd -P)/tests
for p in /proc/[0-9]*; do
	exe=$(readlink "$p/exe" 2>/dev/null) || continue
	case $exe in "$tdir"/*) kill -9 "${p#/proc/}" 2>/dev/null ;; esac
done

cd tests || exit 1
pass=0 fail=0 skip=0 failed=()
while read -r res name; do
	case $res in
	PASS:|XFAIL:) pass=$((pass + 1)) ;;
	SKIP:) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed+=("${name%.test}") ;;
	esac
done < <(grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): ' "$work/check.log")

# Why each failed: sysgate's refusal, or the first line it printed
# differently (numbers folded so that alike causes group).
echo "failure causes (count, first cause):"
for n in "${failed[@]}"; do
	f=$n.log
	[ -f "$f" ] || continue
	why=$(grep -m1 '^sysgate: ' "$f" ||
	      grep -m1 '^+[^+]' "$f" | cut -c1-110)
	echo "${why:-other}"
done | sed 's/0x[0-9a-f]\{4,\}/0xN/g; s/[0-9]\{2,\}/N/g' | sort | uniq -c |
	sort -rn | head -60
if [ -n "$json" ]; then
	{
		printf '{"pass":%d,"fail":%d,"skip":%d,"failed":[' \
			$pass $fail $skip
		sep=
		for n in "${failed[@]}"; do
			printf '%s"%s"' "$sep" "$n"
			sep=,
		done
		printf ']}\n'
	} >"$json"
fi
echo "logs in $src/tests/*.log, $work/check.log"
echo "$pass passed, $fail failed, $skip skipped"
