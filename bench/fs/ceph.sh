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
echo "{\"target\":\"ceph-fuse\",\"result\":$("$prog" "$D/fuse/fuse" "$N")}"
echo "{\"target\":\"sysgate --fs ceph\",\"result\":$("$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF -- "$prog" /sysgate-bench-$$/fs "$N")}"
echo "{\"target\":\"libcephfs\",\"result\":$("$BUILD/bench-fs-smallfiles-ceph" "$CONF" /direct "$N")}"
