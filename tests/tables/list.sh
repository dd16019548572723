#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Suite "tables": the syscall, errno and signal tables (syscalls/).
# The header and CSV checks run on the build machine for all three arches
# whatever ARCH is (they only read files); the unit test runs the table
# compiled for ARCH, under $RUN when cross-testing.
t=tests/tables
for a in x86_64 aarch64 riscv64; do
	printf 'numbers-%s\tsh %s/check-numbers.sh %s\n' "$a" "$t" "$a"
	printf 'errno-signals-%s\tsh %s/check-errno-signals.sh %s\n' "$a" "$t" "$a"
done
# The 32-bit calls of x86-64 kernels (int $0x80, 32-bit programs).
printf 'numbers-i386\tsh %s/check-numbers.sh i386\n' "$t"
printf 'structure\tsh %s/check-structure.sh\n' "$t"
printf 'spot-checks\tsh %s/check-spot.sh\n' "$t"
printf 'gpu\tsh %s/check-gpu.sh\n' "$t"
native=
[ "$ARCH" = "$(uname -m)" ] && native=--native
printf 'unit\t%s %s/tests/tables/table-test . %s\n' "$RUN" "$BUILD" "$native"
# strace cannot trace through qemu-user: native only.
if [ -n "$native" ]; then
	printf 'strace-classes\tsh %s/check-strace-classes.sh %s\n' "$t" \
		"$BUILD/tests/tables/strace-harness"
fi
