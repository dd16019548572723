#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/procs-ceph.sh [DIRS [ROUNDS]]: where a tree of programs on
# CephFS spends its time under --fs, against a ceph-fuse mount of the
# same one-node cluster (tests/ceph/cluster.sh; root): a tree of DIRS (50)
# directories of 99 files of 4 KiB made through --fs, then, ROUNDS (3)
# times, `find` (and libcephfs called directly, bench-fs-find-ceph: a
# new client, the floor), `ls -lR`, `tar c` of the tree into a file (each
# file read, no data cache), and 50 processes in turn: `/bin/true` (what
# --fs costs a program that never touches the prefix), `stat` and `cat`
# of one file (a client each).  Milliseconds, one line per row and round.
set -eu
BUILD=$(cd "${BUILD:-build}" && pwd)
DIRS=${1:-50}
ROUNDS=${2:-3}
. tests/ceph/cluster.sh
ceph_need
D=$(mktemp -d /tmp/sysgate-bench-procs.XXXXXX)
trap 'ceph_down "$D"' EXIT
ceph_up "$D" > "$D/up.log" 2>&1 || { cat "$D/up.log"; exit 1; }
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > /dev/null 2>&1
P=/sysgate-bench-$$
sg() { "$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$@"; }
ms() { local t0=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - t0) / 1000000 )); }
loop() { echo "for i in \$(seq 50); do $1; done"; }	# (a sh -c script)
cd /tmp
sg python3 -c 'import os, sys
for i in range(int(sys.argv[2])):
    d = os.path.join(sys.argv[1], "d%d" % i); os.makedirs(d)
    for j in range(99):
        with open(os.path.join(d, "f%d" % j), "w") as f: f.write("x" * 4096)' $P/t "$DIRS"
echo "entries $(find "$D/fuse/t" | wc -l)"
F=$D/fuse/t
for r in $(seq "$ROUNDS"); do
	echo "find ceph-fuse $(ms find "$F") --fs $(ms sg find $P/t) libcephfs $(ms "$BUILD/bench-fs-find-ceph" "$CONF" /t)"
	echo "ls-lR ceph-fuse $(ms ls -lR "$F") --fs $(ms sg ls -lR $P/t)"
	echo "tar-c ceph-fuse $(ms tar cf "$D/x.tar" "$F") --fs $(ms sg tar cf "$D/x.tar" $P/t)"
	echo "50-true native $(ms sh -c "$(loop /bin/true)") --fs $(ms sg sh -c "$(loop /bin/true)")"
	echo "50-stat ceph-fuse $(ms sh -c "$(loop "stat $F/d1/f1")") --fs $(ms sg sh -c "$(loop "stat $P/t/d1/f1")")"
	echo "50-cat ceph-fuse $(ms sh -c "$(loop "cat $F/d1/f1")") --fs $(ms sg sh -c "$(loop "cat $P/t/d1/f1")")"
done
