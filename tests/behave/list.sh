#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Each behaviour program runs natively and under sysgate with every hook
# active (count, so every site is patched and every call dispatched; and
# trace to a file; started by the loader; with the int3 mechanism); stdout
# and exit status must be identical.
[ "$ARCH" = x86_64 ] || exit 0
for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	printf '%s/count\tbash tests/behave/compare.sh %s -c -o /dev/null\n' "$t" "$t"
	printf '%s/trace\tbash tests/behave/compare.sh %s -f -o %s/test-logs/%s.trace\n' \
		"$t" "$t" "$BUILD" "$t"
	printf '%s/loader\tbash tests/behave/compare.sh %s --loader -f -c -o /dev/null\n' \
		"$t" "$t"
	printf '%s/int3\tbash tests/behave/compare.sh %s -m int3 -c -o /dev/null\n' \
		"$t" "$t"
done
