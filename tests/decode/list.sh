#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The x86-64 decoder: a table of encodings, and every instruction objdump
# finds in real binaries (lengths, syscalls, branch and rip-relative
# targets must agree).
[ "$ARCH" = x86_64 ] || exit 0
printf 'table\t%s/tests/decode/table\n' "$BUILD"
printf 'fuzz\t%s/tests/decode/fuzz\n' "$BUILD"
printf 'redzone\t%s/tests/decode/redzone\n' "$BUILD"
for f in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
	/usr/lib/x86_64-linux-gnu/libm.so.6 /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
	/usr/bin/python3 /bin/bash "$BUILD/libsysgate.so"; do
	printf 'objdump/%s\tbash tests/decode/objdump.sh %s\n' "$(basename "$f")" "$f"
done
