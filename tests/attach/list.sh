#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sysgate -p: attach to running programs, hook them in-process, detach and
# leave them as they were (doc/attach.md).
[ "$ARCH" = x86_64 ] || exit 0
for t in $(sed -n 's/^t_\([a-z0-9_]*\)().*/\1/p' tests/attach/cases.sh); do
	printf '%s\tbash tests/attach/cases.sh %s\n' "${t//_/-}" "$t"
done
