#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# objdump.sh FILE: the aarch64 word classifier against aarch64 objdump
# over FILE's code.
f=$1
od=${A64_OBJDUMP:-aarch64-linux-gnu-objdump}
[ -e "$f" ] || { echo "$f not on this machine"; exit 77; }
command -v "$od" >/dev/null || { echo "$od not installed"; exit 77; }
set -o pipefail
"$od" -d "$f" | "$BUILD/tests/decode/aarch64/table" -
