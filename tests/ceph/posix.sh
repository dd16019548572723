#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# posix.sh: posix.py natively on a ceph-fuse mount (the oracle) and under
# --fs; the outputs must be the same (extended attributes, copies between
# descriptors, renameat2's flags, O_TMPFILE, MAP_SHARED).
. tests/ceph/oracle.sh
mkdir "$D/fuse/n" "$D/fuse/h"
a=$("$PY" tests/ceph/posix.py "$D/fuse/n" 2>&1)
b=$("$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$PY" tests/ceph/posix.py $P/h 2>&1)
same posix "$a" "$b"
# A file's pages under --fs are one process's at a time on a machine
# (doc/fs.md): a second process's writable MAP_SHARED waits its turn.
a=$("$PY" tests/ceph/posix.py "$D/fuse/n" claim 2>&1)
b=$("$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$PY" tests/ceph/posix.py $P/h claim 2>&1)
same "claim, ceph-fuse" "$a" "-- claim
other process maps it: b'first'
other process maps it: b'first'
file b'firstother'"
same "claim, --fs" "$b" "-- claim
other process maps it: EAGAIN
other process maps it: b'first'
file b'firstother'"
exit $fail
