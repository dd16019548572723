#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README.md and the doc/ pages it links to: every block marked runnable
# runs as written (tests/readme/run.py says how blocks are marked).
[ "$ARCH" = x86_64 ] || exit 0
for p in $(python3 tests/readme/run.py --pages); do
	printf '%s\tpython3 tests/readme/run.py %s\n' "${p//\//-}" "$p"
done
