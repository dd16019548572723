#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# objdump.sh FILE: the rv64gc decoder against riscv64 objdump over FILE's
# code (a linear walk of each executable section).
f=$1
od=${RV_OBJDUMP:-riscv64-linux-gnu-objdump}
[ -e "$f" ] || { echo "$f not on this machine"; exit 77; }
command -v "$od" >/dev/null || { echo "$od not installed"; exit 77; }
set -o pipefail
"$od" -d -z -M no-aliases "$f" | "$BUILD/tests/decode/riscv64/objdump-check" "$f"
