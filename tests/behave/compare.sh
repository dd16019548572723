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
native=$("$prog" 2>/tmp/sg-native-err.$$)
nrc=$?
hooked=$("$BUILD/sysgate" "$@" -- "$prog" 2>/tmp/sg-hooked-err.$$)
hrc=$?
if [ $nrc -eq 77 ]; then
	echo "$native"
	rm -f /tmp/sg-native-err.$$ /tmp/sg-hooked-err.$$
	exit 77
fi
fail=0
if [ $nrc -ne 0 ]; then
	echo "native run failed (exit $nrc):"; cat /tmp/sg-native-err.$$; fail=1
fi
if [ "$native" != "$hooked" ] || [ $nrc -ne $hrc ]; then
	echo "under sysgate $*: exit $hrc (native $nrc)"
	diff <(echo "$native") <(echo "$hooked")
	cat /tmp/sg-hooked-err.$$ | tail -20
	fail=1
fi
rm -f /tmp/sg-native-err.$$ /tmp/sg-hooked-err.$$
[ $fail -eq 0 ] && echo "$native" | tail -1
exit $fail
