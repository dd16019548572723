#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Guest instructions per hooked system call under qemu-user, where times
# mean nothing: bench/port/loop runs with 0 and N getppid calls, qemu logs
# every executed instruction (-singlestep -d exec,nochain), and the
# difference over N is the cost of one call, natively and under sysgate
# with a few hook set-ups.  Run by `make bench-insns ARCH=riscv64`.
set -eu
n=${N:-2000}
lib=$(cd "$BUILD" && pwd)/libsysgate.so
prog=$BUILD/bench/port/loop
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {	# count ARGS...: instructions executed by one run
	rm -f "$log"
	$RUN -singlestep -d exec,nochain -D "$log" "$@" >/dev/null 2>&1
	grep -c '^Trace' "$log"
}

per_call() {	# per_call QEMU-ARGS...: instructions per getppid call
	local a b
	a=$(count "$@" "$prog" 0)
	b=$(count "$@" "$prog" "$n")
	echo $(((b - a) / n))
}

native=$(per_call)
printf '%-50s %6s %8s\n' "set-up ($ARCH, $n calls)" insns "vs native"
printf '%-50s %6d %8s\n' native "$native" -
for opts in "-e trace=none --patch-all" "-c -o /dev/null" \
	"-e inject=getppid:retval=7 -e trace=none" "-o /dev/null"; do
	# a first run so that both counted runs start alike (page cache)
	count -E LD_PRELOAD="$lib" -E SYSGATE_OPTIONS="$opts" "$prog" 0 >/dev/null
	v=$(per_call -E LD_PRELOAD="$lib" -E SYSGATE_OPTIONS="$opts")
	printf '%-50s %6d %+8d\n' "sysgate $opts" "$v" $((v - native))
done
