#!/bin/sh
# SPDX-License-Identifier: MIT
# tsan.sh BUILD CASE - a CPU-lane case under ThreadSanitizer; any report
# fails the test.
t=$1/tests/gpu/lanes-tsan
if [ ! -x "$t" ]; then
	echo "skip: the compiler here does not support -fsanitize=thread"
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$t" "$2" >"$log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "unexpected memory mapping" "$log"; then
	# Some kernels' address-space layouts break TSan's shadow mapping;
	# that is not a finding, so rerun without randomisation.
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" setarch -R "$t" "$2" \
		>"$log" 2>&1
	rc=$?
fi
cat "$log"
exit $rc
