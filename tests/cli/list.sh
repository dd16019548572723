#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CLI as a user meets it: trace format (golden and against strace),
# -c, inject, -f/-ff/-o, --json, exit status, bad input, user hooks.
[ "$ARCH" = x86_64 ] || exit 0
for t in $(sed -n 's/^t_\([a-z0-9_]*\)().*/\1/p' tests/cli/cases.sh); do
	printf '%s\tbash tests/cli/cases.sh %s\n' "${t//_/-}" "$t"
done
