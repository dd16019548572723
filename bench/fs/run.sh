#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/run.sh [N]: small-file create/stat/read/unlink rates on tmpfs
# (native, in /dev/shm) and on the --fs prefix, in one run; JSON Lines.
set -eu
BUILD=${BUILD:-build}
N=${1:-20000}
prog=$BUILD/bench-fs-smallfiles
d=$(mktemp -d /dev/shm/sysgate-bench-fs.XXXXXX)
trap 'rm -rf "$d"' EXIT
echo "{\"target\":\"tmpfs\",\"result\":$("$prog" "$d" "$N")}"
echo "{\"target\":\"sysgate --fs\",\"result\":$("$BUILD/sysgate" --fs=/sysgate-bench-$$ -- "$prog" /sysgate-bench-$$ "$N")}"
