#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh MECHANISM WHERE HOOK: build/tests/cli/prog makes getppid calls
# and prints what they returned ("N x getppid = R"):
#   WHERE  one: 1000 calls; threads: 4 threads x 250 at once;
#          fork: 500 in a child, then 500 in the parent (with -f)
#   HOOK   trace: one "getppid() = R" line per call, R the value the
#            program got, in each thread and process;
#          count: -c counts every call, no more;
#          inject: -e inject=getppid:retval=4242: every call returns 4242.
set -u
m=$1 where=$2 hook=$3
SG=$BUILD/sysgate
PROG=$BUILD/tests/cli/prog
TMP=$(mktemp -d /tmp/sysgate-mech.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

line=$("$SG" --list-mechanisms | awk -v m="$m" '$1 == m')
[ -n "$line" ] || fail "$m is not listed"
if [ "$(echo "$line" | awk '{ print $2 }')" != available ]; then
	echo "mechanism $m: $(echo "$line" | cut -d' ' -f2- | sed 's/^ *//')"
	exit 77
fi

follow=()
case $where in
one)     args=(ppid 1000) ;;
threads) args=(ppid-threads 4 250); follow=(-f) ;;	# (threads: -f, as strace)
fork)    args=(ppid-fork 500); follow=(-f) ;;
*)       fail "no case $where" ;;
esac

"$PROG" "${args[@]}" >"$TMP/native" || fail "native run: $(cat "$TMP/native")"
# the program's lines with the values left out: the same in every run
shape() { sed -E 's/= -?[0-9]+$/= R/' "$1"; }

run() {
	"$SG" -m "$m" "${follow[@]}" "$@" -- "$PROG" "${args[@]}" >"$TMP/out" ||
		fail "under sysgate -m $m ${follow[*]} $*: exit $?: $(cat "$TMP/out")"
	diff -u <(shape "$TMP/native") <(shape "$TMP/out") ||
		fail "-m $m $*: the program's output differs"
}

case $hook in
trace)
	run -e trace=getppid -o "$TMP/log"
	# "N x getppid = R" -> N lines "getppid() = R", in any order
	awk '{ for (i = 0; i < $1; i++) print "getppid() = " $NF }' "$TMP/out" |
		sort >"$TMP/want"
	# (process events: -m ptrace, as strace, also shows the parent's
	# SIGCHLD, which in-process sysgate cannot see; a call another
	# thread's line cut in two, as strace cuts it, counts once)
	sed -E 's/^([0-9]+ +|\[pid +[0-9]+\] )//; s/ +=/ =/
		s/^<\.\.\. getppid resumed>\) =/getppid() =/' "$TMP/log" |
		grep -v -e '^+++ ' -e '^--- ' -e '^getppid( <unfinished \.\.\.>$' |
		sort >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || {
		diff "$TMP/want" "$TMP/got" | head -20
		fail "-m $m: trace lines"
	}
	;;
count)
	run -c -e trace=getppid -o "$TMP/log"
	want=$(awk '{ n += $1 } END { print n }' "$TMP/out")
	got=$(awk '$NF == "getppid" && NF == 5 { print $4 }' "$TMP/log")
	[ "$got" = "$want" ] || { cat "$TMP/log"; fail "-m $m: $got getppid counted, want $want"; }
	;;
inject)
	run -e trace=none -e inject=getppid:retval=4242
	sed -E 's/= -?[0-9]+$/= 4242/' "$TMP/native" | diff -u - "$TMP/out" ||
		fail "-m $m: injection not seen by every call"
	;;
*) fail "no hook $hook" ;;
esac
cat "$TMP/out"
