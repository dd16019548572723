#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The instruction decoders, one directory per arch (host programs, see
# mk/decode.mk): plain `make check` runs all three, a cross check its own.
# Each is judged by a table of encodings and by that arch's objdump over
# real code (lengths, system calls, branch targets must agree).
if [ "$ARCH" = x86_64 ]; then arches="x86_64 riscv64 aarch64"; else arches=$ARCH; fi
d=$BUILD/tests/decode
for a in $arches; do
	printf '%s/table\t%s/%s/table\n' "$a" "$d" "$a"
	case $a in
	x86_64)
		printf 'x86_64/fuzz\t%s/x86_64/fuzz\n' "$d"
		printf 'x86_64/redzone\t%s/x86_64/redzone\n' "$d"
		for f in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
			/usr/lib/x86_64-linux-gnu/libm.so.6 /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
			/usr/bin/python3 /bin/bash "$BUILD/libsysgate.so"; do
			printf 'x86_64/objdump/%s\tbash tests/decode/x86_64/objdump.sh %s\n' \
				"$(basename "$f")" "$f"
		done ;;
	riscv64)
		printf 'riscv64/freestanding\tbash tests/decode/riscv64/freestanding.sh\n'
		printf 'riscv64/fuzz\tbash tests/decode/riscv64/fuzz.sh\n'
		for f in libc.so.6 ld-linux-riscv64-lp64d.so.1 libm.so.6 libstdc++.so.6; do
			printf 'riscv64/objdump/%s\tbash tests/decode/riscv64/objdump.sh /usr/riscv64-linux-gnu/lib/%s\n' \
				"$f" "$f"
		done ;;
	aarch64)
		for f in libc.so.6 ld-linux-aarch64.so.1; do
			printf 'aarch64/objdump/%s\tbash tests/decode/aarch64/objdump.sh /usr/aarch64-linux-gnu/lib/%s\n' \
				"$f" "$f"
		done ;;
	esac
done
