#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stripes.sh: a cluster with three OSDs; a 64 MiB file written under
# --fs is cut into CephFS's 4 MiB objects, which the data pool holds on
# more than one OSD (rados ls, ceph osd map), and reads back the same
# through --fs and through a ceph-fuse mount.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
ceph_start none 127.0.0.1 3
P=/sysgate-ceph-$$ fail=0
sg() { "$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$@"; }
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > "$D/fuse.log" 2>&1 ||
	{ cat "$D/fuse.log"; echo "ceph-fuse did not mount"; exit 1; }
ceph -c "$CONF" osd stat | grep -q '3 up' ||
	{ ceph -c "$CONF" osd stat; echo "want 3 OSDs up"; exit 1; }
head -c $((64 << 20)) /dev/urandom > "$D/big"
sg cp "$D/big" $P/big || { echo "cp under --fs: exit $?"; fail=1; }
sg cmp "$D/big" $P/big || { echo "--fs reads back something else"; fail=1; }
cmp "$D/big" "$D/fuse/big" || { echo "ceph-fuse reads something else"; fail=1; }
# Objects "<inode in hex>.<index>", each placed by CRUSH.
ino=$(printf %x "$(stat -c %i "$D/fuse/big")")
objs=$(rados -c "$CONF" -p cephfs_data ls 2>/dev/null | grep "^$ino\." | sort)
osds=$(for o in $objs; do
	ceph -c "$CONF" osd map cephfs_data "$o" -f json 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["acting_primary"])'
done | sort -u | tr '\n' ' ')
echo "objects: $(echo "$objs" | wc -w), on OSDs: $osds"
[ "$(echo "$objs" | wc -w)" = 16 ] || { echo "want 16 objects of 4 MiB"; fail=1; }
[ "$(echo $osds | wc -w)" -ge 2 ] || { echo "want objects on several OSDs"; fail=1; }
exit $fail
