#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# calls.sh: calls.py natively on a ceph-fuse mount (the oracle) and under
# --fs; the outputs must be the same.  A forked child's statfs used to
# never return: the run under --fs is bounded (120 s, far above its
# usual second) only to report that hang as a failure.
. tests/ceph/oracle.sh
mkdir "$D/fuse/n" "$D/fuse/h"
a=$("$PY" tests/ceph/calls.py "$D/fuse/n" 2>&1)
b=$(timeout 120 "$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$PY" tests/ceph/calls.py $P/h 2>&1)
[ $? = 124 ] && { echo "hung (killed after 120 s)"; fail=1; }
same calls "$a" "$b"
exit $fail
