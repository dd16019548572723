#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# objdump.sh FILE: the decoder against objdump over FILE's code.
f=$1
[ -e "$f" ] || { echo "$f not on this machine"; exit 77; }
command -v "${OBJDUMP:-objdump}" >/dev/null || { echo "objdump not installed"; exit 77; }
set -o pipefail
"${OBJDUMP:-objdump}" -d -w "$f" | "$BUILD/tests/decode/x86_64/objdump-check" "$(basename "$f")"
