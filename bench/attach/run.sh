#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-attach: the getppid call rate of a running program, alone,
# while sysgate -p -c is attached (the program is hooked in-process),
# while sysgate -m ptrace -p -c is (the CLI traces every call), and
# while strace -f -c -p is attached (where strace is installed), for the
# issue's target: attached with -c keeps >= 40 % of the rate.
#
# One program (tests/attach/loop 2: one thread calls getppid in a loop,
# the other prints its call count every 10 ms), sampled for SECONDS (1)
# in each state in turn, twice: figures are the better of the two
# rounds, as ratios against the same program unattached in that round.
set -u
BUILD=${BUILD:-build}
SECS=${SECONDS_PER_STATE:-1}
OUT=$(mktemp -d /tmp/sysgate-bench-attach.XXXXXX)
trap 'kill -9 $P 2>/dev/null; rm -rf "$OUT"' EXIT

"$BUILD/tests/attach/loop" 2 >"$OUT/ticks" &
P=$!
until grep -q '^tick 1 ' "$OUT/ticks"; do sleep 0.02; done

# rate: calls per second over SECS, from the program's own counter
rate() {
	local t0 c0 t1 c1
	t0=$(date +%s%N); c0=$(tail -1 "$OUT/ticks" | sed 's/.*calls=//')
	sleep "$SECS"
	t1=$(date +%s%N); c1=$(tail -1 "$OUT/ticks" | sed 's/.*calls=//')
	echo $(((c1 - c0) * 1000000000 / (t1 - t0)))
}

# while_attached CMD...: the rate while CMD (attached to P) runs, in
# tenths of a percent of the unattached rate $native
while_attached() {
	"$@" 2>/dev/null &
	local s=$! r
	sleep 0.5	# (attached by then; the first samples would mix)
	r=$(rate)
	kill -INT $s
	wait $s
	echo $((r * 1000 / native))
}

best_sg=0 best_st=0 best_pt=0 base=0
for round in 1 2; do
	native=$(rate)
	pct=$(while_attached "$BUILD/sysgate" -c -p $P -o "$OUT/sg.c")
	[ $pct -gt $best_sg ] && best_sg=$pct && base=$native
	pct=$(while_attached "$BUILD/sysgate" -m ptrace -c -p $P -o "$OUT/pt.c")
	[ $pct -gt $best_pt ] && best_pt=$pct
	if command -v strace >/dev/null; then
		pct=$(while_attached strace -f -c -p $P -o "$OUT/st.c")
		[ $pct -gt $best_st ] && best_st=$pct
	fi
done
tenths() { echo "$(($1 / 10)).$(($1 % 10)) % of that"; }
echo "getppid loop, unattached:            $base calls/s"
echo "attached, sysgate -p -c:             $(tenths $best_sg)"
echo "attached, sysgate -m ptrace -p -c:   $(tenths $best_pt)"
command -v strace >/dev/null &&
	echo "attached, strace -f -p -c:           $(tenths $best_st)"
exit 0
