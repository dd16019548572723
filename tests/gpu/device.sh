#!/bin/sh
# SPDX-License-Identifier: MIT
# device.sh BUILD examples|bench - run the CUDA programs on a real GPU.
b=$1/gpu/sysgate-gpu-$2
if [ ! -x "$b" ]; then
	echo "skip: $b not built (needs nvcc: make gpu)"
	exit 77
fi
if [ ! -e /dev/nvidia0 ] && ! command -v nvidia-smi >/dev/null; then
	echo "skip: no NVIDIA GPU on this machine (/dev/nvidia0 missing)"
	exit 77
fi
if [ "$2" = bench ]; then
	"$b" --json --quick
else
	"$b"
fi
