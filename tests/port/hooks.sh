#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hooks.sh ORDER: a user hook (tests/hooks/starts.c) under qemu-user, with
# libsysgate.so preloaded and the hook loaded by --hook ("after"), or the
# hook preloaded and libsysgate.so.1 pulled in as its dependency
# ("before").  Every thread of tests/port/clones (pthread_create, clone
# with its own stack) must be announced by thread_start, every getppid
# counted, and fork_child run in the followed child; the program's output
# must match its native run.
set -u
d=$(cd "$BUILD" && pwd)
prog=$d/tests/port/clones
case $1 in
after)	pre=$d/libsysgate.so hook=$d/tests/hooks/starts.so ;;
before)	pre=$d/tests/port/starts-needs.so hook=$pre ;;
*)	echo "usage: hooks.sh after|before"; exit 2 ;;
esac
native=$($RUN "$prog")
err=$(mktemp)
hooked=$($RUN -E LD_PRELOAD="$pre" \
	-E SYSGATE_OPTIONS="-f -e trace=none -qq -e signal=none --hook=$hook" "$prog" 2>"$err")
rc=$?
cat "$err"
fail=0
[ $rc -eq 0 ] && [ "$native" = "$hooked" ] ||
	{ echo "output differs (exit $rc):"; diff <(echo "$native") <(echo "$hooked"); fail=1; }
grep -qx 'starts: 6 threads, 60 getppid' "$err" ||
	{ echo "want: starts: 6 threads, 60 getppid"; fail=1; }
grep -qx 'starts: fork_child ran' "$err" ||
	{ echo "want: starts: fork_child ran"; fail=1; }
rm -f "$err"
exit $fail
