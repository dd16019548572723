#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CPython's own regression tests natively and under each sysgate mode
# (run.sh).  Long (minutes per mode), so not part of `make check`'s run of
# every tests/*/ suite: `make check-real` runs this one.
[ "$ARCH" = x86_64 ] || exit 0
for mode in native default loader seccomp sud; do
	printf '%s\tbash tests/real/cpython/run.sh %s\n' "$mode" "$mode"
done
