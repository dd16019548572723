#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz.sh: every 16-bit encoding and 400000 pseudo-random 32-bit ones,
# wrapped in an ELF marked rv64gc, judged by objdump and the decoder.
pre=${RV_CROSS:-riscv64-linux-gnu-}
for t in as strip objdump; do
	command -v "$pre$t" >/dev/null || { echo "$pre$t not installed"; exit 77; }
done
set -e -o pipefail
d=$BUILD/tests/decode/riscv64/fuzz.tmp
mkdir -p "$d"
"$BUILD/tests/decode/riscv64/objdump-check" --gen 400000 >"$d/blob.bin"
printf '.text\n.incbin "%s"\n' "$d/blob.bin" >"$d/blob.S"
"${pre}as" -march=rv64gc -o "$d/blob.o" "$d/blob.S"
# no symbols: without its $d mapping symbol objdump reads it all as code
"${pre}strip" -o "$d/blob" "$d/blob.o"
"${pre}objdump" -d -z -M no-aliases "$d/blob" |
	"$BUILD/tests/decode/riscv64/objdump-check" "$d/blob"
rm -rf "$d"
