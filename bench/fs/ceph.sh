#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/ceph.sh [N]: small-file create/stat/read/unlink rates on a
# one-node CephFS cluster started here (tests/ceph/cluster.sh; root),
# in one run: through a ceph-fuse mount, through sysgate --fs on CephFS,
# and libcephfs called directly (the floor).  JSON Lines.
set -eu
BUILD=${BUILD:-build}
N=${1:-2000}
. tests/ceph/cluster.sh
ceph_need
D=$(mktemp -d /tmp/sysgate-bench-ceph.XXXXXX)
trap 'ceph_down "$D"' EXIT
ceph_up "$D" > "$D/up.log" 2>&1 || { cat "$D/up.log"; exit 1; }
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > /dev/null 2>&1
mkdir "$D/fuse/fuse" "$D/fuse/fs"
prog=$BUILD/bench-fs-smallfiles
fuse=$("$prog" "$D/fuse/fuse" "$N")
fs=$("$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF -- "$prog" /sysgate-bench-$$/fs "$N")
direct=$("$BUILD/bench-fs-smallfiles-ceph" "$CONF" /direct "$N")
echo "{\"target\":\"ceph-fuse\",\"result\":$fuse}"
echo "{\"target\":\"sysgate --fs ceph\",\"result\":$fs}"
echo "{\"target\":\"libcephfs\",\"result\":$direct}"
# The issue's targets as ratios of the same run: --fs over ceph-fuse (at
# least 5 on stat and reads) and libcephfs over --fs (at most 1.5).
python3 - "$fuse" "$fs" "$direct" <<'P'
import json, sys
fuse, fs, direct = (json.loads(a) for a in sys.argv[1:])
keys = [k for k in fs if k.endswith("_per_s")]
for name, num, den in (("--fs / ceph-fuse", fs, fuse),
                       ("libcephfs / --fs", direct, fs)):
    print(json.dumps({"target": name, "result":
                      {k: round(num[k] / den[k], 2) for k in keys}}))
P
