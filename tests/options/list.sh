#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
[ "$ARCH" = x86_64 ] || exit 0
printf 'parser-table\t%s/tests/options/table\n' "$BUILD"
