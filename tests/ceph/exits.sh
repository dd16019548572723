#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# exits.sh: each process ends its client's session at once and whole.
# - A shell that opened a file (a redirection) and vforked the command
#   that writes it: the child's execve ends the child's client only; the
#   shell's own is ended when the shell exits.  Before, the child's
#   execve forgot the shell's client (they share memory), whose session
#   stayed open until the MDS timed it out: the next client to open the
#   file waited ~60 s.  Checked with the MDS's list of sessions.
# - libcephfs 16's unmount waits for its next tick (1 s) when its own
#   threads drop the last inode references after it began (a readahead
#   after the program's last read; the reply to its last MDS request):
#   the client's log (CEPH_ARGS) must not show that wait, for a program
#   that reads part of a file, for one that makes no call, for one that
#   writes, or for the probe at start.
set -u
BUILD=$(cd "$BUILD" && pwd)
. tests/ceph/cluster.sh
ceph_need
ceph_start
P=/sysgate-ceph-$$
sg() { "$BUILD/sysgate" --fs=$P:ceph:$CONF -- "$@"; }
fail=0

sg sh -c "cat /dev/null > $P/f; echo one > $P/g; true" || fail=1
n=$(ceph -c "$CONF" daemon "$D/mds.a.asok" session ls |
	python3 -c 'import json, sys
print(sum(s["state"] != "closed" for s in json.load(sys.stdin)))')
echo "sessions left after a shell's redirections: $n"
[ "$n" = 0 ] || fail=1

sg dd if=/dev/zero of=$P/big bs=1M count=8 2> /dev/null || fail=1
export CEPH_ARGS="--debug_client=2 --log_file=$D/client.log"
for i in 1 2 3; do
	sg head -c 100 $P/big > /dev/null &&
	sg cat $P/g > /dev/null &&
	sg true &&
	sg sh -c "echo two > $P/h$i" || fail=1
done
unset CEPH_ARGS
n=$(grep -c 'waiting (for caps to release' "$D/client.log")
echo "unmounts that waited for the client's tick: $n of $(grep -c 'unmounted\.' "$D/client.log")"
[ "$n" = 0 ] || fail=1
exit $fail
