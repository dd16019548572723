#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# With --stub-reach=0 no stub region is within branch reach of any site:
# every patched site must fall back to a trap, counted in --stats with its
# reason, and the program's output must not change (aarch64, whose trap
# stubs may lie anywhere).
set -u
lib=$(cd "$BUILD" && pwd)/libsysgate.so
stats=$($RUN -E LD_PRELOAD="$lib" \
	-E SYSGATE_OPTIONS='--stub-reach=0 --stats --patch-all -e trace=none -qq -e signal=none' \
	"$BUILD/tests/port/regs" 2>&1 >/dev/null)
echo "$stats"
traps=$(echo "$stats" | sed -n 's/^sysgate:   trap: //p')
why=$(echo "$stats" | sed -n 's/^sysgate:   reason: no stub region in branch reach: //p')
[ -n "$traps" ] && [ "$traps" -gt 0 ] && [ "$traps" = "$why" ] || exit 1
! echo "$stats" | grep -q 'branch='
