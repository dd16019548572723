#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# decode.c runs inside the preloaded library: it must build freestanding
# and warning-free for riscv64, and call nothing (no memcpy from gcc).
cc=${RV_CC:-riscv64-linux-gnu-gcc}
command -v "$cc" >/dev/null || { echo "$cc not installed"; exit 77; }
set -e
o=$BUILD/tests/decode/riscv64/decode-riscv64.o
"$cc" -std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
	-fno-stack-protector -fPIC -Iarch/riscv64 -c arch/riscv64/decode.c -o "$o"
undef=$("${cc%gcc}nm" -u "$o")
[ -z "$undef" ] || { echo "decode.c calls out: $undef"; exit 1; }
echo "decode.c: freestanding riscv64 build, no undefined symbols"
