#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh TEST SYSGATE-OPTIONS...: run build/tests/behave/TEST natively
# and under sysgate; stdout and exit status must match, and the native run
# must succeed (otherwise the test itself is broken).
set -u
t=$1
shift
prog=$BUILD/tests/behave/$t
case $t in
musl*/*) command -v musl-gcc >/dev/null ||
		{ echo "musl-gcc not installed (musl-tools)"; exit 77; } ;;
esac
[ -x "$prog" ] || { echo "missing $prog"; exit 1; }
# -m NAME on a machine where the mechanism cannot work (with these
# options): skip, saying why.
case " $* " in
*" -m "*)
	m=$(echo " $* " | sed -E 's/.* -m ([a-z0-9]+) .*/\1/')
	"$BUILD/sysgate" "$@" --list-mechanisms | grep -q "^$m *available" ||
		{ echo "mechanism $m is not available here"; exit 77; }
	;;
esac
# (stderr in a directory of its own: a name in /tmp made from the pid
# could be another user's symlink; and removed even when the runner's
# timeout ends this script)
err=$(mktemp -d /tmp/sysgate-behave.XXXXXX) || exit 1
trap 'rm -rf "$err"' EXIT
trap 'exit 143' TERM
native=$("$prog" 2>"$err/native")
nrc=$?
hooked=$("$BUILD/sysgate" "$@" -- "$prog" 2>"$err/hooked")
hrc=$?
if [ $nrc -eq 77 ]; then
	echo "$native"
	exit 77
fi
fail=0
if [ $nrc -ne 0 ]; then
	echo "native run failed (exit $nrc):"; cat "$err/native"; fail=1
fi
if [ "$native" != "$hooked" ] || [ $nrc -ne $hrc ]; then
	echo "under sysgate $*: exit $hrc (native $nrc)"
	diff <(echo "$native") <(echo "$hooked")
	tail -20 "$err/hooked"
	fail=1
fi
[ $fail -eq 0 ] && echo "$native" | tail -1
exit $fail
