#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A cluster nobody answers for: --fs on it is one line and a non-zero exit
# once the TIMEOUT of the --fs option has passed, never a hang, and the
# program does not start.
set -u
BUILD=$(cd "$BUILD" && pwd)
ldconfig -p | grep -q 'libcephfs\.so\.2 ' ||
	{ echo "needs libcephfs.so.2 (apt-get install libcephfs2)"; exit 77; }
D=$(mktemp -d /tmp/sysgate-ceph-u.XXXXXX)
trap 'rm -rf "$D"' EXIT
# A port nothing listens on.
cat > "$D/ceph.conf" <<C
[global]
mon host = 127.0.0.1:1
auth cluster required = none
auth service required = none
auth client required = none
C
out=$("$BUILD/sysgate" --fs=/sysgate-ceph:ceph:$D/ceph.conf:::2 -- \
	touch "$D/ran" 2>&1)
rc=$?
if [ $rc = 0 ] || [ -e "$D/ran" ] || [ "$(echo "$out" | wc -l)" != 1 ] ||
   ! echo "$out" | grep -q 'cannot mount CephFS'; then
	echo "exit $rc, output: $out"
	exit 1
fi
# Bad option text: one line too.
out=$("$BUILD/sysgate" --fs=/sysgate-ceph:ceph: -- true 2>&1)
rc=$?
[ $rc != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] ||
	{ echo "empty CONF: exit $rc, output: $out"; exit 1; }
echo "$out"
