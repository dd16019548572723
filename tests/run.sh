#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One-command test runner (in the manner of liburing's runtests.sh).
#
# Every suite is a directory tests/<suite>/ with an executable list.sh that
# prints one test per line: "<name><TAB><shell command>".  list.sh sees BUILD,
# ARCH, RUN (qemu prefix when cross-testing) and TOP, and lists only what
# applies to ARCH.  A command exits 0 for pass, 77 for skip (its last output
# line says why), anything else for failure.  Each test gets a timeout so a
# hang is reported as a failure instead of stalling CI.
#
# usage: tests/run.sh [--suite NAME]... [--filter REGEX] [--keep-going]
# Output ends with "N passed, M failed"; exit status 1 if anything failed.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
export TOP
export BUILD=${BUILD:-build}
export ARCH=${ARCH:-$(uname -m)}
export RUN=${RUN:-}
TEST_TIMEOUT=${TEST_TIMEOUT:-300}

suites=()
filter=
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suites+=("$2"); shift 2 ;;
	--filter) filter=$2; shift 2 ;;
	--keep-going) shift ;;	# the default: every test runs
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ ${#suites[@]} -eq 0 ]; then
	for d in tests/*/; do
		[ -x "$d/list.sh" ] && suites+=("$(basename "$d")")
	done
fi

LOGDIR=$BUILD/test-logs
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"

pass=0 fail=0 skip=0
failed=() skipped=()
for s in "${suites[@]}"; do
	if [ ! -x "tests/$s/list.sh" ]; then
		echo "run.sh: no suite '$s'" >&2
		fail=$((fail + 1)); failed+=("suite:$s")
		continue
	fi
	list=$(tests/"$s"/list.sh) || {
		echo "FAIL $s/list.sh (could not list tests)"
		fail=$((fail + 1)); failed+=("$s/list.sh")
		continue
	}
	while IFS=$'\t' read -r name cmd; do
		[ -n "$name" ] || continue
		full="$s/$name"
		if [ -n "$filter" ] && ! [[ $full =~ $filter ]]; then
			continue
		fi
		log="$LOGDIR/${full//\//_}.log"
		start=$(date +%s.%N)
		timeout -k 10 "$TEST_TIMEOUT" bash -c "$cmd" </dev/null >"$log" 2>&1
		rc=$?
		secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
		case $rc in
		0)  echo "PASS $full (${secs}s)"; pass=$((pass + 1)) ;;
		77) why=$(tail -n 1 "$log")
		    echo "SKIP $full: $why"; skip=$((skip + 1))
		    skipped+=("$full: $why") ;;
		*)
			if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
				echo "FAIL $full (timed out after ${TEST_TIMEOUT}s)"
			else
				echo "FAIL $full (exit $rc, ${secs}s)"
			fi
			tail -n 25 "$log" | sed 's/^/    | /'
			fail=$((fail + 1)); failed+=("$full")
			;;
		esac
	done <<<"$list"
done

echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
if [ $skip -gt 0 ]; then
	echo "skipped, and why:"
	printf '  %s\n' "${skipped[@]}"
fi
echo "logs in $LOGDIR"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
