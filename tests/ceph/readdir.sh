#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readdir.sh: a directory listing under --fs is what ceph-fuse lists
# ("." and ".." with their inode numbers included, `ls -aiR`, and a
# rewind, small buffers and a seek back: dents.py), and reading a
# directory costs the MDS one readdir, not also a getattr for "." and
# one for ".." (libcephfs's readdir from offset 0 asks for their
# recursive statistics) nor one per subdirectory entry (libcephfs's
# readdir, an entry a call, asks for that entry's recursive statistics
# when the call starts in entries it holds already): `find` over D
# directories makes at most D + 5 MDS requests (the readdirs, the
# mount's), where it made 4 D, then 2 D.
. tests/ceph/oracle.sh
mkdir -p "$D/fuse/t"
for i in $(seq 20); do mkdir "$D/fuse/t/d$i"; touch "$D/fuse/t/d$i/a" "$D/fuse/t/d$i/b"; done
# (a listing, then the same stream rewound: "." and ".." again)
lsr='import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
for r in range(2):
    os.lseek(fd, 0, 0)
    print(sorted(os.listdir(fd)) == sorted(os.listdir(sys.argv[1])))'
a=$(cd "$D/fuse" && ls -aiR t && "$PY" -c "$lsr" t)
b=$("$BUILD/sysgate" --fs=$P:ceph:$CONF -- sh -c "cd $P && ls -aiR t && $PY -c '$lsr' t" 2>&1)
same "ls -aiR" "$a" "$b"
# (a directory of 120 entries: several calls of a small buffer each)
mkdir "$D/fuse/m"
for i in $(seq 120); do touch "$D/fuse/m/file-with-a-longer-name-$i"; done
a=$("$PY" tests/ceph/dents.py "$D/fuse/m" 2>&1)
b=$("$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$PY" tests/ceph/dents.py $P/m 2>&1)
same "small buffers" "$a" "$b"
n() { ceph -c "$CONF" --admin-daemon "$D/mds.a.asok" perf dump mds_server |
	"$PY" -c 'import json, sys; print(json.load(sys.stdin)["mds_server"]["handle_client_request"])'; }
n0=$(n)
"$BUILD/sysgate" --fs=$P:ceph:$CONF -- find $P/t > /dev/null
n1=$(n)
echo "find over 21 directories: $((n1 - n0)) MDS requests"
[ $((n1 - n0)) -le $((21 + 5)) ] || { echo "more than $((21 + 5))"; fail=1; }
exit $fail
