#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/ceph.sh [N [ROUNDS]]: small-file create/stat/read/unlink rates
# on a one-node CephFS cluster started here (tests/ceph/cluster.sh;
# root), in one run: through a ceph-fuse mount, through sysgate --fs on
# CephFS, and libcephfs called directly (the floor), the best of ROUNDS
# (3) each.  JSON Lines.
set -eu
BUILD=${BUILD:-build}
N=${1:-2000}
ROUNDS=${2:-3}
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
