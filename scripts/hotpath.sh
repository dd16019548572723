#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The hot path's figures (issue 22) for two builds side by side:
#
#     scripts/hotpath.sh OLD_BUILD NEW_BUILD [ROUNDS]
#
# getppid natively, answered by the null hook and by inject, passed on by
# the null hook, the same two with null-fpu.so (no SYSGATE_HOOK_NOFPU)
# and with NEW's hooks/null-save.so (no flag either, and not shown
# FPU-free: the save of the FPU state), under -c and traced, all to
# /dev/null.  Each run is
# `sysgate-bench-loop getppid 20000 100` (100 windows of 20000 calls)
# pinned to CPU 1; configurations are interleaved round by round
# (default 5).  Per configuration: the minimum and the median over rounds
# of each run's fastest window (which a shared machine's load moves
# least), the median of each run's median window, and the first as a
# ratio to native's.  doc/benchmarks.md ("The lean path") shows its use.
set -u
[ $# -ge 2 ] || { sed -n 4,15p "$0"; exit 2; }
OLD=$1 NEW=$2 R=${3:-5}
LOOP="$NEW/sysgate-bench-loop getppid 20000 100"
declare -A mins meds
keys=(native)

run() {
	local k=$1 o
	shift
	o=$(taskset -c 1 "$@" $LOOP) || { echo "$k: failed" >&2; exit 1; }
	meds[$k]+="${o%% *} "
	o=${o#* }
	mins[$k]+="${o%% *} "
}

for b in "$OLD" "$NEW"; do
	for c in emulate inject pass fpu-emulate fpu-pass save-emulate \
		save-pass -c trace; do
		keys+=("$b $c")
	done
done
for r in $(seq "$R"); do
	run native
	for b in "$OLD" "$NEW"; do
		q="-e trace=none -qq -e signal=none"
		run "$b emulate" "$b/sysgate" -o /dev/null $q \
			--hook="$b/hooks/null.so:getppid=4242" --
		run "$b inject" "$b/sysgate" $q -e inject=getppid:retval=4242 --
		run "$b pass" "$b/sysgate" -o /dev/null $q \
			--hook="$b/hooks/null.so:getppid" --
		run "$b fpu-emulate" "$b/sysgate" -o /dev/null $q \
			--hook="$b/hooks/null-fpu.so:getppid=4242" --
		run "$b fpu-pass" "$b/sysgate" -o /dev/null $q \
			--hook="$b/hooks/null-fpu.so:getppid" --
		run "$b save-emulate" "$b/sysgate" -o /dev/null $q \
			--hook="$NEW/hooks/null-save.so:getppid=4242" --
		run "$b save-pass" "$b/sysgate" -o /dev/null $q \
			--hook="$NEW/hooks/null-save.so:getppid" --
		run "$b -c" "$b/sysgate" -c -o /dev/null --
		run "$b trace" "$b/sysgate" -o /dev/null --
	done
done

pick() {	# min | median of a list
	tr ' ' '\n' | sed '/^$/d' | sort -n |
		awk -v w="$1" '{a[NR] = $1} END {print w == "min" ? a[1] : a[int((NR + 1) / 2)]}'
}
nat=$(echo "${mins[native]}" | pick min)
printf '%-36s %9s %9s %9s %7s\n' configuration min median "med(med)" ratio
for k in "${keys[@]}"; do
	m=$(echo "${mins[$k]}" | pick min)
	printf '%-36s %9.2f %9.2f %9.2f %7.3f\n' "$k" "$m" \
		"$(echo "${mins[$k]}" | pick med)" "$(echo "${meds[$k]}" | pick med)" \
		"$(awk -v a="$m" -v b="$nat" 'BEGIN {print a / b}')"
done
