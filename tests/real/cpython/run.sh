#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh MODE: CPython's own regression tests (Debian's
# libpython3.11-testsuite, `python3 -m test`), natively (MODE native) or
# under a sysgate mode; every module that passes natively must pass under
# sysgate.  The native result is kept in $LOGDIR/cpython-native for the
# modes run after it (tests/run.sh clears that directory for each run); a mode
# run alone runs the native tests first.
#
# Excluded: ThreadedVSOCKSocketStreamTest, which hangs natively where a
# vsock device exists but nothing answers on it (Firecracker VMs).
set -u
SG=$TOP/$BUILD/sysgate
LOGDIR=$TOP/$BUILD/test-logs
mode=$1
# Debian's interpreter, whose test package is installed (not one from
# $PATH such as pyenv's)
PY=/usr/bin/python3
DIR=$(mktemp -d /tmp/sysgate-cpython.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
[ -x $PY ] || skip "$PY not installed (Debian package python3)"
$PY -c 'import test.test_subprocess' 2>/dev/null ||
	skip "CPython's tests not installed (Debian package libpython3.$($PY -c 'import sys; print(sys.version_info[1])')-testsuite)"

# test_asyncio, the longest by far, as its modules: the workers share
# them out, and a failure names the module (SYSGATE_CPYTHON_MODULES: a
# few of them only, to check one fix)
MODULES=${SYSGATE_CPYTHON_MODULES:-"test_subprocess test_signal test_posix test_faulthandler test_os
test_threading test_socket test_select test_selectors test_mmap test_pty
$(cd "$($PY -c 'import os, test.test_asyncio as t; print(os.path.dirname(t.__file__))')" &&
	ls test_*.py | sed 's/^/test_asyncio./; s/\.py$//')"}

case $mode in
native)  opts=() ;;
default) opts=(-f -c -o "$DIR/log") ;;
loader)  opts=(--loader -f -c -o "$DIR/log") ;;
seccomp | sud)
	"$SG" --list-mechanisms | grep -q "^$mode *available" ||
		skip "mechanism $mode is not available here"
	opts=(-m "$mode" -f -c -o "$DIR/log")
	;;
*) fail "no mode $mode" ;;
esac

# regrtest OUT [SYSGATE OPTIONS]: run the modules (in parallel workers,
# which sysgate -f follows), the log in OUT.log, then outcomes OUT
regrtest() {
	local out=$1 start=$SECONDS
	shift
	mkdir -p "$DIR/cwd"
	# (a session of its own: on a hang, the runner's kill of its process
	# group would orphan the workers; stopped ends the tree in order)
	(cd "$DIR/cwd" && HOME=$DIR/cwd exec setsid ${1:+"$SG" "$@" --} $PY -m test -j0 \
		--ignore '*ThreadedVSOCKSocketStreamTest*' \
		$MODULES) >"$out.log" 2>&1 &
	running=$!
	wait $running
	rc=$?
	running=
	echo "${*:-native}: exit $rc after $((SECONDS - start)) s"
	outcomes "$out"
}

# outcomes OUT: "module outcome" per module from OUT.log's progress lines
# ("0:00:12 load avg: 1.1 [ 3/12] test_os passed ..."), in the order
# given, "missing" for one never reported ("failed (env changed)":
# threads, processes or files left behind)
outcomes() {
	sed -n -e 's/ failed (env changed)/ env-changed/' \
		-e 's/^.*\[ *[0-9]*\/[0-9]*\(\/[0-9]*\)\?\] \(test_[a-z0-9_.]*\) \([a-z-]*\).*$/\2 \3/p' \
		"$1.log" >"$1.seen"
	for m in $MODULES; do
		echo "$m $(awk -v m="$m" '$1 == m { print $2; exit }' "$1.seen" | grep . || echo missing)"
	done >"$1"
}

# The runner's timeout (a hang): say which modules were still running,
# what had finished, and end the tree (regrtest's workers run in sessions
# of their own, which the runner's kill of its process group misses).
descendants() {
	local p
	for p in $(ps -o pid= --ppid "$1"); do
		echo "$p"
		descendants "$p"
	done
}
stopped() {
	local now m
	now=$(grep -o 'running: .*' "$DIR/$1.log" | tail -1)
	echo "stopped by the runner's timeout; $now"
	[ -n "$running" ] && kill -9 $running $(descendants $running) 2>/dev/null
	outcomes "$DIR/$1"
	for m in $(echo "$now" | grep -o 'test_[a-z0-9_.]*'); do
		sed -i "s/^$m missing\$/$m hung/" "$DIR/$1"
	done
}
running=

if [ "$mode" = native ]; then
	trap 'stopped native; cat "$DIR/native"; fail "native run hung"' TERM
	regrtest "$DIR/native"
	cp "$DIR/native" "$LOGDIR/cpython-native"
	cat "$DIR/native"
	grep -q ' passed$' "$DIR/native" || { tail -30 "$DIR/native.log"; fail "nothing passed natively"; }
	exit 0
fi

if [ -s "$LOGDIR/cpython-native" ]; then
	cp "$LOGDIR/cpython-native" "$DIR/native"
else
	regrtest "$DIR/native"
fi

# compare: each module's outcome natively and under sysgate; fails
# unless every module that passes natively passes under sysgate
compare() {
	local bad= m native hooked
	cp "$DIR/hooked.log" "$LOGDIR/cpython-$mode.log"
	while read -r m native; do
		hooked=$(awk -v m="$m" '$1 == m { print $2 }' "$DIR/hooked")
		printf '%-36s native %-8s under sysgate %s\n' "$m" "$native" "$hooked"
		[ "$native" != passed ] || [ "$hooked" = passed ] || bad+=" $m ($hooked)"
	done <"$DIR/native"
	[ -z "$bad" ] || fail "passed natively, not under sysgate ${opts[*]}:$bad"
}
trap 'stopped hooked; compare; fail "hung under sysgate ${opts[*]}"' TERM
regrtest "$DIR/hooked" "${opts[@]}"
compare
grep -q ' total$' "$DIR/log" || { cat "$DIR/log"; fail "no count table in the log"; }
echo "every module that passes natively passes under sysgate ${opts[*]}"
