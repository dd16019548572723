#!/bin/sh
# SPDX-License-Identifier: MIT
# ptx.sh BUILD - the device code's memory ordering, asserted on nvcc's PTX:
# mailbox stores are st.release.sys, mailbox loads ld.acquire.sys, the one
# system-scope membar of a publish is that release (no fence.sc.sys or
# membar: __syncwarp orders the lanes' slot writes before the leader's
# cumulative release), lanes are %laneid, and the port-lock atomics are
# device (.gpu) scope, never .sys.  The examples' error counters live in
# host memory and must be system scope.
p=$1/gpu/examples.ptx
if [ ! -f "$p" ]; then
	# mk/gpu.mk makes `make check` build the PTX whenever nvcc exists, so
	# a missing file means no nvcc at build time.
	echo "skip: no PTX built (nvcc not found at build time)"
	exit 77
fi
fail=0
need() {
	n=$(grep -cE "$1" "$p")
	if [ "$n" -lt 1 ]; then
		echo "FAIL: no '$1' in $p"; fail=1
	else
		echo "ok: $n x $1"
	fi
}
none() {
	if grep -qE "$1" "$p"; then
		echo "FAIL: '$1' in $p ($2)"; fail=1
	else
		echo "ok: no $1"
	fi
}
need '^[[:space:]]*st\.release\.sys\.u32'
need '^[[:space:]]*ld\.acquire\.sys\.u32'
need '^[[:space:]]*atom\.acquire\.gpu\.or\.b32'
need '^[[:space:]]*red\.release\.gpu\.and\.b32'
need '^[[:space:]]*nanosleep'
need '^[[:space:]]*activemask'
need 'shfl\.sync\.idx'
need '^[[:space:]]*bar\.warp\.sync'
need '%laneid'
need '^[[:space:]]*atom\.global\.sys\.add'
none '^[[:space:]]*(fence\.sc|membar)' "a full fence on the publish path"
none '^[[:space:]]*(atom|red)\.[a-z.]*sys[a-z.]*\.(or|and)' \
	"system-scope lock RMW across the bus"
exit $fail
