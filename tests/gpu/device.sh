#!/bin/sh
# SPDX-License-Identifier: MIT
# device.sh [BUILD [REPORT]] - everything that needs a real NVIDIA GPU, in one
# run: build the CUDA side with nvcc for the GPU present, run the examples
# (per-thread calls, wordcount, UDP echo, madvise, warp/grid granularity,
# non-blocking calls, a 2-D block, lanes of one warp on both ends of a pipe,
# a bulk pread into device memory), the benchmark (round trip p50/p99 from
# %globaltimer, throughput against warps, coalescing, ordering modes, bulk
# pread GB/s against pread+cudaMemcpy) and compute-sanitizer synccheck and
# racecheck over the examples.  Writes a JSON report (default
# BUILD/gpu/device-report.json).  Exits 77 when there is no GPU or no nvcc.
B=${1:-build}
report=${2:-$B/gpu/device-report.json}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip: no NVIDIA GPU on this machine (nvidia-smi finds none)"
	exit 77
fi
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
	echo "skip: nvcc not found (set NVCC)"
	exit 77
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)
arch=sm_${cap:-90}
mkdir -p "$B/gpu"
log=$B/gpu/device-log
: >"$log"
steps=
fail=0
# step NAME CMD...: run, log, record rc and seconds.
step() {
	name=$1
	shift
	t0=$(date +%s.%N)
	echo "== $name: $*" >>"$log"
	"$@" >"$B/gpu/device-$name.out" 2>&1
	rc=$?
	cat "$B/gpu/device-$name.out" >>"$log"
	t1=$(date +%s.%N)
	secs=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")
	[ $rc -eq 0 ] || fail=1
	echo "$name: rc=$rc (${secs}s)"
	steps="$steps${steps:+,}{\"name\":\"$name\",\"rc\":$rc,\"seconds\":${secs:-0}}"
}
step build make -j"$(nproc)" BUILD="$B" NVCC="$NVCC" NVCC_ARCH="$arch" \
	"$B/libsysgate-gpu.a" gpu
step examples "$B/gpu/sysgate-gpu-examples"
step bench "$B/gpu/sysgate-gpu-bench" --json
step cpu-lanes "$B/tests/gpu/lanes" pipe-partner
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$CS" ]; then
	step synccheck "$CS" --tool synccheck --error-exitcode 9 \
		"$B/gpu/sysgate-gpu-examples"
	step racecheck "$CS" --tool racecheck --error-exitcode 9 \
		"$B/gpu/sysgate-gpu-examples"
else
	echo "compute-sanitizer not found: synccheck/racecheck not run"
	steps="$steps,{\"name\":\"sanitizer\",\"rc\":77,\"seconds\":0}"
fi
bench=$(grep -E '^\{"schema"' -A100000 "$B/gpu/device-bench.out" 2>/dev/null)
[ -n "$bench" ] || bench=null
{
	printf '{"schema":1,"tool":"tests/gpu/device.sh","gpu":"%s","arch":"%s",' \
		"$gpu" "$arch"
	printf '"date":"%s","steps":[%s],"bench":%s}\n' \
		"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$steps" "$bench"
} >"$report"
echo "report: $report (log: $log)"
exit $fail
