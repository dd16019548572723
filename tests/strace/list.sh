#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The golden corpus: one small program per area that strace decodes,
# traced by strace and by sysgate; each test passes only when every line
# from the program's first own call is identical (tests/strace/run.sh).
[ "$ARCH" = x86_64 ] || exit 0
for c in tests/strace/*.c; do
	n=$(basename "$c" .c)
	printf '%s\tbash tests/strace/run.sh %s\n' "$n" "$n"
done
