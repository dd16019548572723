# SPDX-License-Identifier: MIT
# Sourced by the ceph tests that compare --fs with a ceph-fuse mount of
# the same cluster: exit 77 where that cannot run, else a cluster
# (ceph_start), mounted with ceph-fuse at $D/fuse, the oracle (exit 1
# with its log if it does not mount); sets BUILD absolute, PY (python3),
# P (the --fs prefix) and fail=0.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "needs python3"; exit 77; }
ceph_start
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > "$D/fuse.log" 2>&1 ||
	{ cat "$D/fuse.log"; echo "ceph-fuse did not mount"; exit 1; }
P=/sysgate-ceph-$$
fail=0
