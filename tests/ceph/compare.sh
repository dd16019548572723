#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh: start a one-node cluster, mount it with ceph-fuse (the
# oracle), then run the same programs natively on the mount and under
# sysgate --fs=/PREFIX:ceph:CONF on the prefix: the tests/fs programs (one
# per POSIX area) and real tools (tools.sh).  Outputs must be the same.
# Everything started is stopped and unmounted at the end.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
# (tools.sh's programs: missing, both sides would fail alike and agree)
for c in git make gcc rsync tar sqlite3; do
	command -v $c >/dev/null || { echo "needs $c for tools.sh"; exit 77; }
done
ceph_start
mkdir -p "$D/fuse" "$D/out"
ceph-fuse -c "$CONF" "$D/fuse" > "$D/fuse.log" 2>&1 ||
	{ cat "$D/fuse.log"; echo "ceph-fuse did not mount"; exit 1; }
prefix=/sysgate-ceph-$$
sg() { "$BUILD/sysgate" --fs=$prefix:ceph:$CONF -- "$@"; }
fail=0
# Descriptor numbers differ (libcephfs's own sockets hold low numbers
# under --fs): the one known difference, masked.
fds() { sed -E 's/^(fd2? = .*= )[0-9]+ $/\1N/'; }
for t in rw dirs errors procs copies; do
	mkdir -p "$D/fuse/n-$t" "$D/fuse/h-$t"
	a=$(cd / && "$BUILD/tests/fs/$t" "$D/fuse/n-$t" 2>&1 | fds)
	b=$(cd / && sg "$BUILD/tests/fs/$t" "$prefix/h-$t" 2>&1 | fds)
	same "$t" "$a" "$b"
done
mkdir -p "$D/fuse/n-tools" "$D/fuse/h-tools" "$D/out/n" "$D/out/h"
src=$PWD/tests/fs
# The interpreter itself: a wrapper script (pyenv's shims) may start it
# with an environment that no longer carries --fs's state.
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "needs python3"; exit 77; }
export PY
a=$(bash tests/ceph/tools.sh "$D/fuse/n-tools" "$src" "$D/out/n" 2>&1)
b=$(sg bash tests/ceph/tools.sh "$prefix/h-tools" "$src" "$D/out/h" 2>&1)
same tools "$a" "$b"
cmp -s "$D/out/n/tree.tar" "$D/out/h/tree.tar" ||
	tar tvf "$D/out/h/tree.tar" > /dev/null || { echo "tar from --fs unreadable"; fail=1; }
# What --fs wrote is what the oracle reads.
echo "written under --fs" > "$D/out/w"
sg cp "$D/out/w" $prefix/w
cmp "$D/out/w" "$D/fuse/w" || { echo "ceph-fuse does not see --fs's write"; fail=1; }
[ -e $prefix ] && { echo "$prefix exists on disk after the runs"; fail=1; }
exit $fail
