#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The portable suite for cross builds (make check ARCH=riscv64 or
# ARCH=aarch64), run under
# qemu-user: behaviour programs natively and with libsysgate.so preloaded
# (counting every call, and with every site patched), register
# preservation, injection, and a census of patched sites against objdump.
[ "$ARCH" = x86_64 ] && exit 0
d=$BUILD/tests/port
for p in "$d"/behave-*; do
	t=${p##*/behave-}
	printf 'behave/%s/count\tbash tests/port/compare.sh %s "-c -o /dev/null"\n' "$t" "$p"
	printf 'behave/%s/trace\tbash tests/port/compare.sh %s "-f -o /dev/null"\n' "$t" "$p"
done
printf 'regs/count\tbash tests/port/compare.sh %s/regs "-c -o /dev/null --patch-all"\n' "$d"
inj=-e\ inject=getppid:retval=4242
printf 'regs/inject\tbash tests/port/inject.sh %s/regs %s\n' "$d" "$inj"
# The trap path (every site a breakpoint) must keep registers too.
printf 'regs/int3\tbash tests/port/compare.sh %s/regs "-m int3 -c -o /dev/null --patch-all"\n' "$d"
printf 'regs/int3-inject\tbash tests/port/inject.sh %s/regs -m int3 %s\n' "$d" "$inj"
# The result a hook's exit() leaves, after a call the entry stub made.
printf 'regs/exit-hook\tbash tests/port/inject.sh %s/regs --hook=%s/tests/hooks/exitret.so\n' \
	"$d" "$(cd "$BUILD" && pwd)"
printf 'sites/libc\tbash tests/port/sites.sh\n'
printf 'hooks/after\tbash tests/port/hooks.sh after\n'
printf 'hooks/before\tbash tests/port/hooks.sh before\n'
printf 'layout/near\tbash tests/port/far.sh near\n'
printf 'layout/far\tbash tests/port/far.sh far\n'
# A hook that unwinds reaches the program's function: through a patched
# site's stub, a breakpoint site's, and SIGSYS where qemu-user has it.
printf 'unwind/patch\tbash tests/port/unwind.sh --patch-all\n'
printf 'unwind/int3\tbash tests/port/unwind.sh -m int3 --patch-all\n'
printf 'unwind/sud\tbash tests/port/unwind.sh -m sud\n'
# A profiler's SIGPROF handler unwinds from anywhere: every walk ends.
printf 'unwind/signals-patch\tbash tests/port/compare.sh %s/sigunwind "--patch-all -c -o /dev/null"\n' "$d"
if [ "$ARCH" = riscv64 ]; then
	printf 'funcentry\tbash tests/port/compare.sh %s/funcentry "-c -o /dev/null --patch-all"\n' "$d"
fi
if [ "$ARCH" = aarch64 ]; then
	printf 'fartraps/stats\tbash tests/port/fartraps.sh\n'
	printf 'fartraps/regs\tbash tests/port/compare.sh %s/regs "-c -o /dev/null --patch-all --stub-reach=0"\n' "$d"
	printf 'fartraps/inject\tbash tests/port/inject.sh %s/regs --stub-reach=0 %s\n' "$d" "$inj"
	printf 'unwind/fartraps\tbash tests/port/unwind.sh --patch-all --stub-reach=0\n'
	# SIGPROF on sysgate's SIGTRAP restorer too.  (Not on rv64: there the
	# restorer is the kernel's or qemu-user's, which has no unwind info,
	# and libgcc's guess at it faults when a signal lands on it.)
	printf 'unwind/signals-int3\tbash tests/port/compare.sh %s/sigunwind "-m int3 --patch-all -c -o /dev/null"\n' "$d"
fi
