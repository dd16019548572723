#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clients.sh: one cluster with cephx, its key for client.u given to --fs
# by CONF and ID, and several clients at once:
# - two children forked (without exec) from one process, each with a
#   session of its own;
# - two programs, each under its own --fs (two clients, as on two
#   machines), taking turns on the same files (pair.py): what each sees
#   is what it sees on two ceph-fuse mounts, and with one side on --fs and
#   the other on ceph-fuse; the same with --fs's data cache on;
# - faults: the MDS killed and started again, the OSD stopped and
#   continued, while a program makes calls (pair.py f): same as on
#   ceph-fuse, nothing lost;
# - a client name the cluster has no key for: one line, non-zero exit.
# Everything started is stopped and unmounted at the end.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "needs python3"; exit 77; }
ceph_start cephx
U=$D/u.conf S=$D/sync P=/sysgate-ceph-$$
ceph -c "$CONF" auth get-or-create client.u mon 'allow r' mds 'allow rw' \
	osd 'allow rw pool=cephfs_data' -o "$D/u.keyring" || exit 1
sed "s#^keyring = .*#keyring = $D/u.keyring#" "$CONF" > "$U"
mkdir -p "$D/fuse" "$D/fuse2" "$S"
for m in fuse fuse2; do
	ceph-fuse -c "$U" --id u --pid-file "$D/$m.pid" \
		--admin-socket "$D/$m.asok" "$D/$m" > "$D/$m.log" 2>&1 ||
		{ cat "$D/$m.log"; echo "ceph-fuse did not mount"; exit 1; }
done
sg() { "$BUILD/sysgate" --fs=$P:ceph:$U::u -- "$@"; }
fail=0

# Siblings: libcephfs draws a client's address from a random engine that
# the parent's client seeded and its forked children inherit; two with
# the same address reset each other's sessions without end.
mkdir "$D/fuse/sib"
sg bash -c '[ -d "$0" ] && for i in 1 2; do
	( [ -d "$0/sib" ] && echo $BASHPID >> "$1/pids"
	  until [ -e "$1/go" ]; do sleep 0.1; done ) &
done; wait' "$P" "$S" &
until [ "$(cat "$S/pids" 2>/dev/null | wc -l)" = 2 ]; do sleep 0.2; done
n=$(ceph -c "$CONF" daemon "$D/mds.a.asok" session ls | "$PY" -c '
import json, sys
pids = open(sys.argv[1]).read().split()
print(sum(s["state"] == "open" and s["client_metadata"].get("pid") in pids
	  for s in json.load(sys.stdin)))' "$S/pids")
touch "$S/go"
wait
echo "sessions of two forked children: $n"
[ "$n" = 2 ] || fail=1

mkdir "$D/fuse/p1" "$D/fuse/p2" "$D/fuse/p3"
a=$(pair env "$D/fuse/p1" env "$D/fuse2/p1")
echo "$a" | sed 's/^/  ceph-fuse: /'
same "two clients" "$a" "$(pair sg $P/p2 sg $P/p2)"
same "--fs and ceph-fuse" "$a" "$(pair sg $P/p3 env "$D/fuse2/p3")"
# the same with --fs's data cache on (CACHE, the seventh field)
mkdir "$D/fuse/p4" "$D/fuse/p5" "$D/cache"
sgc() { "$BUILD/sysgate" --fs=$P:ceph:$U::u::$D/cache -- "$@"; }
same "two clients, CACHE" "$a" "$(pair sgc $P/p4 sgc $P/p4)"
same "--fs with CACHE and ceph-fuse" "$a" "$(pair sgc $P/p5 env "$D/fuse2/p5")"

# fault RUN DIR: pair.py f, the daemons stopped between its turns.
fault() {
	rm -f "$S/a2b" "$S/b2a"
	mkfifo "$S/a2b" "$S/b2a"
	$1 "$PY" tests/ceph/pair.py f "$2" "$S" > "$S/f.out" 2>&1 &
	exec 4> "$S/a2b" 3< "$S/b2a"
	read -r _ <&3
	kill -9 "$(cat "$D/mds.a.pid")"
	echo turn >&4
	sleep 3
	ceph-mds -c "$CONF" -i a > /dev/null 2>&1
	read -r _ <&3
	kill -STOP "$(cat "$D/osd.0.pid")"
	echo turn >&4
	sleep 3
	kill -CONT "$(cat "$D/osd.0.pid")"
	wait
	exec 3<&- 4>&-
	cat "$S/f.out"
}
mkdir "$D/fuse/f1" "$D/fuse/f2"
a=$(fault env "$D/fuse/f1")
echo "$a" | sed 's/^/  ceph-fuse: /'
same "MDS and OSD faults" "$a" "$(fault sg $P/f2)"

out=$("$BUILD/sysgate" --fs=$P:ceph:$U::nobody -- touch "$D/ran" 2>&1)
rc=$?
echo "client.nobody: exit $rc, $out"
[ $rc != 0 ] && [ ! -e "$D/ran" ] && [ "$(echo "$out" | wc -l)" = 1 ] || fail=1
exit $fail
