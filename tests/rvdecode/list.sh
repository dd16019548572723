#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rv64gc decoder (arch/riscv64/decode.c).  It is portable C, so its
# tests are host programs and run whatever ARCH is: a table of encodings
# and encoders, the decoder against riscv64 objdump over the cross
# toolchain's libraries and over every 16-bit and many 32-bit encodings,
# and a freestanding build of decode.c for riscv64.
printf 'table\t%s/tests/rvdecode/table\n' "$BUILD"
printf 'freestanding\tbash tests/rvdecode/freestanding.sh\n'
printf 'fuzz\tbash tests/rvdecode/fuzz.sh\n'
for f in libc.so.6 ld-linux-riscv64-lp64d.so.1 libm.so.6 libstdc++.so.6; do
	printf 'objdump/%s\tbash tests/rvdecode/objdump.sh /usr/riscv64-linux-gnu/lib/%s\n' \
		"$f" "$f"
done
