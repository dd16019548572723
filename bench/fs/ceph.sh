#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/ceph.sh [N [ROUNDS [MIB]]]: small-file create/stat/read/unlink
# rates on a one-node CephFS cluster started here (tests/ceph/cluster.sh;
# root), in one run: through a ceph-fuse mount, through sysgate --fs on
# CephFS, and libcephfs called directly (the floor), the best of ROUNDS
# (3) each; then real tools through the mount and through --fs: a
# sequential write and read of MIB (256) MiB with dd, `tar x` of this
# source tree, `find` over 10,000 entries.  JSON Lines.
set -eu
BUILD=${BUILD:-build}
N=${1:-2000}
ROUNDS=${2:-3}
MIB=${3:-256}
. tests/ceph/cluster.sh
ceph_need
D=$(mktemp -d /tmp/sysgate-bench-ceph.XXXXXX)
trap 'ceph_down "$D"' EXIT
ceph_up "$D" > "$D/up.log" 2>&1 || { cat "$D/up.log"; exit 1; }
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > /dev/null 2>&1
prog=$BUILD/bench-fs-smallfiles
# Rounds of the three, in turn, each on new directories; the best rate
# of each: the cluster's state drifts over a run (the MDS's journal and
# caches grow), which would favour whichever came last.
for r in $(seq "$ROUNDS"); do
	"$prog" "$D/fuse/fuse$r" "$N" | sed 's/^/ceph-fuse /'
	"$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF -- "$prog" \
		/sysgate-bench-$$/fs$r "$N" | sed 's/^/fs /'
	"$BUILD/bench-fs-smallfiles-ceph" "$CONF" /direct$r "$N" |
		sed 's/^/libcephfs /'
done > "$D/runs"
# The issue's targets as ratios: --fs over ceph-fuse (at least 5 on stat
# and reads) and libcephfs over --fs (at most 1.5).
python3 - "$D/runs" <<'P'
import json, sys
best = {}
for line in open(sys.argv[1]):
    who, res = line.split(" ", 1)
    for k, v in json.loads(res).items():
        b = best.setdefault(who, {})
        b[k] = max(b.get(k, 0), v)
names = {"ceph-fuse": "ceph-fuse", "fs": "sysgate --fs ceph",
         "libcephfs": "libcephfs"}
for who, name in names.items():
    print(json.dumps({"target": name, "result": best[who]}))
fuse, fs, direct = best["ceph-fuse"], best["fs"], best["libcephfs"]
keys = [k for k in fs if k.endswith("_per_s")]
for name, num, den in (("--fs / ceph-fuse", fs, fuse),
                       ("libcephfs / --fs", direct, fs)):
    print(json.dumps({"target": name, "result":
                      {k: round(num[k] / den[k], 2) for k in keys}}))
P
# Real tools: the same command lines on the mount and on the prefix,
# best of ROUNDS, seconds each; --fs / ceph-fuse as a rate ratio.
tar cf "$D/src.tar" --exclude=./build --exclude=./.git -C "$(pwd)" .
tools() {	# ROOT RUNNER...: one round of each tool under ROOT
	local root=$1 t0
	shift
	t() { t0=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( $(date +%s%N) - t0 ))"; }
	# (what starting a program costs: under --fs, its own client)
	echo "start $(t "$@" true)"
	echo "seq_write $(t "$@" dd if=/dev/zero of="$root/seq" bs=4M count=$((MIB / 4)) conv=fsync)"
	echo "seq_read $(t "$@" dd if="$root/seq" of=/dev/null bs=4M)"
	"$@" rm -f "$root/seq"
	"$@" mkdir -p "$root/tar"
	echo "tar_x $(t "$@" tar xf "$D/src.tar" -C "$root/tar")"
	"$@" mkdir -p "$root/find"
	"$@" python3 -c 'import os, sys
for i in range(100):
    d = os.path.join(sys.argv[1], "d%d" % i); os.mkdir(d)
    for j in range(99): open(os.path.join(d, "f%d" % j), "w").close()' "$root/find"
	echo "find_10k $(t "$@" find "$root/find")"
}
fsrun() { "$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF -- "$@"; }
for r in $(seq "$ROUNDS"); do
	mkdir -p "$D/fuse/tools-fuse$r"
	tools "$D/fuse/tools-fuse$r" env | sed 's/^/ceph-fuse /'
	fsrun mkdir -p /sysgate-bench-$$/tools-fs$r
	tools /sysgate-bench-$$/tools-fs$r fsrun | sed 's/^/fs /'
done > "$D/tools"
python3 - "$D/tools" "$MIB" <<'P'
import json, sys
best = {}
for line in open(sys.argv[1]):
    who, key, ns = line.split()
    b = best.setdefault(who, {})
    b[key] = min(b.get(key, 1e30), int(ns) / 1e9)
mib = int(sys.argv[2])
for who, name in (("ceph-fuse", "ceph-fuse"), ("fs", "sysgate --fs ceph")):
    r = {k + "_s": round(v, 3) for k, v in best[who].items()}
    for k in ("seq_write", "seq_read"):
        r[k + "_mib_per_s"] = round(mib / best[who][k], 1)
    print(json.dumps({"target": name + " tools", "result": r}))
print(json.dumps({"target": "--fs / ceph-fuse tools (rate)", "result":
                  {k: round(best["ceph-fuse"][k] / best["fs"][k], 2)
                   for k in best["fs"]}}))
P
