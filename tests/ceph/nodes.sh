#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# nodes.sh: two "nodes" -- two network namespaces, each on a veth pair
# bridged to the host, where the cluster listens -- each running a
# program under its own --fs: they take turns on the same files
# (pair.py: writes, appends, renames, deletions, record locks and flock
# held on one node blocking the other, a lock that goes with a close),
# and see what two ceph-fuse mounts of the same cluster see.  While both
# run, the MDS lists one session from each node's address.  The bridge,
# veths and namespaces are made here and removed at the end.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
command -v ip > /dev/null || { echo "needs ip (iproute2)"; exit 77; }
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "needs python3"; exit 77; }
# Names and a /24 of this run's own, so parallel runs do not meet.
n=$(($$ % 200 + 20)) br=sgbr$$ net=10.199.$(($$ % 250)) fail=0
A=sg-node-a-$$ B=sg-node-b-$$
D=$(mktemp -d /tmp/sysgate-ceph.XXXXXX)
down() {
	ceph_down "$D"
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	ip link del "$br" 2>/dev/null
}
trap down EXIT
ip netns add "$A" && ip netns add "$B" &&
ip link add "$br" type bridge && ip addr add $net.1/24 dev "$br" &&
ip link set "$br" up || { echo "cannot make network namespaces and a bridge here"; exit 77; }
i=2
for ns in $A $B; do
	ip link add sgv$i-$$ type veth peer name eth0 netns "$ns" &&
	ip link set sgv$i-$$ master "$br" up &&
	ip -n "$ns" addr add $net.$i/24 dev eth0 &&
	ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up ||
		{ echo "cannot connect namespace $ns"; exit 1; }
	i=$((i + 1))
done
ceph_up "$D" none $net.1 > "$D/up.log" 2>&1 ||
	{ cat "$D/up.log"; echo "cluster did not start"; exit 1; }
# The nodes' clients bind where they are, not to the daemons' address.
N=$D/node.conf S=$D/sync P=/sysgate-ceph-$$
grep -v '^public addr' "$CONF" > "$N"
mkdir -p "$D/fuse" "$D/fuse2" "$S"
for m in fuse fuse2; do
	ceph-fuse -c "$N" --pid-file "$D/$m.pid" --admin-socket "$D/$m.asok" \
		"$D/$m" > "$D/$m.log" 2>&1 ||
		{ cat "$D/$m.log"; echo "ceph-fuse did not mount"; exit 1; }
done
nodeA() { ip netns exec "$A" "$BUILD/sysgate" --fs=$P:ceph:$N -- "$@"; }
nodeB() { ip netns exec "$B" "$BUILD/sysgate" --fs=$P:ceph:$N -- "$@"; }

# Each node's client (a shell's: its working directory is on CephFS)
# has a session from that node's address.
mkdir "$D/fuse/s"
for node in nodeA nodeB; do
	$node sh -c 'cd "$0" && touch "$1/$2" &&
		until [ -e "$1/go" ]; do sleep 0.1; done' "$P/s" "$S" $node &
done
until [ -e "$S/nodeA" ] && [ -e "$S/nodeB" ]; do sleep 0.2; done
addrs=$(ceph -c "$CONF" daemon "$D/mds.a.asok" session ls | "$PY" -c '
import json, sys
print(" ".join(sorted(s["inst"].split()[1].split(":")[0].rsplit("/", 1)[-1]
		      for s in json.load(sys.stdin) if s["state"] == "open")))')
touch "$S/go"
wait
echo "sessions from: $addrs"
for i in 2 3; do
	case " $addrs " in
	*" $net.$i "*) ;;
	*) echo "want a session from $net.$i"; fail=1 ;;
	esac
done

mkdir "$D/fuse/p1" "$D/fuse/p2"
a=$(pair env "$D/fuse/p1" env "$D/fuse2/p1")
echo "$a" | sed 's/^/  ceph-fuse: /'
same "two nodes" "$a" "$(pair nodeA $P/p2 nodeB $P/p2)"
exit $fail
