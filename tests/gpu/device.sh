#!/bin/sh
# SPDX-License-Identifier: MIT
# device.sh [BUILD [REPORT]] - everything that needs a real NVIDIA GPU, in one
# run: build the CUDA side with nvcc for the GPU present; run each example
# on its own, with a time limit (per-thread calls, wordcount, UDP echo,
# warp/grid granularity and non-blocking calls, madvise, a 2-D block, lanes
# of one warp on both ends of a pipe, a getppid behind two blocked reads, a
# timed-out read cancelled, a bulk pread into device memory, wordcount over
# 128 MiB read into device memory); the PTX assertions on the build; the
# CPU-lane blocking cases; the benchmark, quick then full (round trip
# p50/p99 from %globaltimer per granularity, throughput against warps,
# coalescing, ordering modes, bulk pread GB/s against pread+cudaMemcpy),
# with compute-sanitizer memcheck, synccheck and racecheck over the small
# examples before the full benchmark; the benchmark again with 32 ports.
# Writes a JSON report (default BUILD/gpu/device-report.json) and, beside
# it, device-log with every step's output.  Exits 77 when there is no GPU
# or no nvcc, 1 when a step failed.
# SG_GPU_NOBUILD=1: use the binaries already in BUILD (built elsewhere).
B=${1:-build}
report=${2:-$B/gpu/device-report.json}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip: no NVIDIA GPU on this machine (nvidia-smi finds none)"
	exit 77
fi
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ] && [ -z "$SG_GPU_NOBUILD" ]; then
	echo "skip: nvcc not found (set NVCC)"
	exit 77
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)
arch=sm_${cap:-90}
mkdir -p "$B/gpu" "$(dirname "$report")"
log=$(dirname "$report")/device-log
: >"$log"
steps=
fail=0
# step NAME LIMIT CMD...: run with a time limit, log, record rc and seconds.
step() {
	name=$1 limit=$2
	shift 2
	t0=$(date +%s.%N)
	echo "== $name (limit ${limit}s): $*" >>"$log"
	timeout -k 5 "$limit" "$@" >"$B/gpu/device-$name.out" 2>&1
	rc=$?
	cat "$B/gpu/device-$name.out" >>"$log"
	t1=$(date +%s.%N)
	secs=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")
	[ $rc -eq 0 ] || fail=1
	echo "$name: rc=$rc (${secs}s)" | tee -a "$log"
	steps="$steps${steps:+,}{\"name\":\"$name\",\"rc\":$rc,\"seconds\":${secs:-0}}"
}
{
	echo "== machine"
	uname -a
	nproc
	nvidia-smi
	"$NVCC" --version 2>&1 | tail -2
	${CXX:-g++} --version 2>&1 | head -1
} >>"$log" 2>&1
# WERROR= : another compiler's new warnings must not stop the GPU checks.
if [ -z "$SG_GPU_NOBUILD" ]; then
	step build 300 make -j"$(nproc)" BUILD="$B" NVCC="$NVCC" WERROR= \
		NVCC_ARCH="$arch" "$B/libsysgate-gpu.a" "$B/tests/gpu/lanes" gpu
fi
step ptx 30 tests/gpu/ptx.sh "$B"
ex=$B/gpu/sysgate-gpu-examples
for e in $("$ex" --list); do
	step "ex-$e" 30 "$ex" "$e"
done
for c in pipe-partner starve stop-inflight timeout-cancel shape diverge; do
	step "lanes-$c" 60 "$B/tests/gpu/lanes" "$c"
done
step bench-quick 90 "$B/gpu/sysgate-gpu-bench" --json --quick
# 32 ports against one per resident warp: the host's scan of idle ports.
step bench-32ports 90 "$B/gpu/sysgate-gpu-bench" --json --ports 32
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$CS" ]; then
	for tool in memcheck synccheck racecheck; do
		step "$tool" 120 "$CS" --tool "$tool" --error-exitcode 9 \
			"$ex" rw misc madvise 2d pipe
	done
else
	echo "compute-sanitizer not found: synccheck/racecheck not run" | tee -a "$log"
	steps="$steps,{\"name\":\"sanitizer\",\"rc\":77,\"seconds\":0}"
fi
step bench 240 "$B/gpu/sysgate-gpu-bench" --json
json_of() {
	j=$(sed -n '/^{"schema"/,$p' "$B/gpu/device-$1.out" 2>/dev/null)
	echo "${j:-null}"
}
{
	printf '{"schema":1,"tool":"tests/gpu/device.sh","gpu":"%s","arch":"%s",' \
		"$gpu" "$arch"
	printf '"date":"%s","steps":[%s],"bench_quick":%s,"bench":%s,' \
		"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$steps" "$(json_of bench-quick)" \
		"$(json_of bench)"
	printf '"bench_32ports":%s}\n' "$(json_of bench-32ports)"
} >"$report"
echo "report: $report (log: $log)"
exit $fail
