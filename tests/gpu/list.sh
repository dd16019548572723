#!/bin/sh
# SPDX-License-Identifier: MIT
# GPU system calls: CPU-lane protocol tests (plain and ThreadSanitizer),
# PTX assertions (need nvcc), and runs on a real GPU (need a device).
# The host runtime is built for x86-64 only (mk/gpu.mk).
[ "${ARCH:-x86_64}" = x86_64 ] || exit 0
B=${BUILD:-build}
for c in $("$B/tests/gpu/lanes" 2>/dev/null); do
	printf '%s\t%s\n' "lanes-$c" "$RUN $B/tests/gpu/lanes $c"
	if [ -z "$RUN" ]; then
		printf '%s\t%s\n' "tsan-$c" "tests/gpu/tsan.sh $B $c"
	fi
done
printf '%s\t%s\n' "ptx-ordering" "tests/gpu/ptx.sh $B"
printf '%s\t%s\n' "bench-json" "tests/gpu/bench.sh $B"
printf '%s\t%s\n' "device" "tests/gpu/device.sh $B"
