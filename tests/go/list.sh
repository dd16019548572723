#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Go programs (tests/go/prog, built once by build.sh), statically linked
# and with cgo, natively and under sysgate with every in-process
# mechanism that follows children: output and exit status must be
# identical.  Go's runtime makes its own threads with raw clone, sets a
# signal stack in each, preempts goroutines with SIGURG and reads the
# time through the vDSO on small stacks.
[ "$ARCH" = x86_64 ] || exit 0
for kind in static cgo; do
	for c in goroutines http exec signal timers timeloop; do
		for o in count:"" loader:--loader seccomp:"-m seccomp" \
			 sud:"-m sud" int3:"-m int3"; do
			printf '%s-%s/%s\tbash tests/go/build.sh && bash tests/programs/compare.sh "$BUILD/tests/go/goprog-%s %s" %s -f -c -o /dev/null\n' \
				"$kind" "$c" "${o%%:*}" "$kind" "$c" "${o#*:}"
		done
	done
done
