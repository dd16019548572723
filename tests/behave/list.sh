#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Each behaviour program runs natively and under sysgate with every hook
# active (count, so every site is patched and every call dispatched; and
# trace to a file; started by the loader; every site patched with no hook;
# with the int3, sud, seccomp, zeropage, preload and ptrace mechanisms); stdout
# and exit status must be identical.
[ "$ARCH" = x86_64 ] || exit 0
for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	printf '%s/count\tbash tests/behave/compare.sh %s -c -o /dev/null\n' "$t" "$t"
	printf '%s/trace\tbash tests/behave/compare.sh %s -f -o %s/test-logs/%s.trace\n' \
		"$t" "$t" "$BUILD" "$t"
	printf '%s/loader\tbash tests/behave/compare.sh %s --loader -f -c -o /dev/null\n' \
		"$t" "$t"
	# Every site patched with no hook at all: the stubs' bare path.
	printf '%s/patch-all\tbash tests/behave/compare.sh %s --patch-all -e trace=none\n' \
		"$t" "$t"
	for m in int3 sud seccomp zeropage preload ptrace; do
		# preload cannot see a raw clone: a thread made that way without
		# TLS of its own is indistinguishable from its creator (README).
		[ "$m/$t" = preload/clone3 ] && continue
		printf '%s/%s\tbash tests/behave/compare.sh %s -m %s -c -o /dev/null\n' \
			"$t" "$m" "$t" "$m"
	done
done
