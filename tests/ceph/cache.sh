#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cache.sh: --fs's data cache (CACHE, the seventh field): what one --fs
# process wrote, the next reads from CACHE, with no OSD read (the OSD's
# op_r counter), the same bytes as ceph-fuse reads; and never what
# another client changed since: a file rewritten on ceph-fuse (same
# size) and one rewritten there while an --fs reader holds it open (read
# again through the same descriptor, as a ceph-fuse reader does: cache.py)
# are read as ceph-fuse reads them; appending through --fs and removing
# the file leave nothing stale.  (Only files of 64 KiB or more, begun by a
# write that large, are cached.)
. tests/ceph/oracle.sh
mkdir "$D/cache"
F=$D/fuse
sg() { "$BUILD/sysgate" --fs=$P:ceph:$CONF:::10:$D/cache -- "$@"; }
reads() { ceph --admin-daemon "$D/osd.0.asok" perf dump osd |
	"$PY" -c 'import json, sys; print(json.load(sys.stdin)["osd"]["op_r"])'; }
check() { [ "$2" = "$3" ] && echo "$1: ok" || { echo "$1: '$3', expected '$2'"; fail=1; }; }

head -c 9000000 /dev/urandom > "$D/data"
for c in one two x; do head -c 131072 /dev/zero | tr '\0' ${c:0:1} > "$D/$c"; done
sg dd if="$D/data" of=$P/a bs=1M 2> /dev/null || fail=1
check "a cached after the write" 1 "$(ls "$D/cache" | wc -l)"
r0=$(reads)
sg cp $P/a "$D/a.fs" || fail=1
r1=$(reads)
check "OSD reads for the second process's read" 0 $((r1 - r0))
cmp "$D/data" "$D/a.fs" && cmp "$D/data" "$F/a" && echo "a: same bytes" || fail=1

# another client rewrites it, same size
head -c 9000000 /dev/urandom > "$D/data2"
cp "$D/data2" "$F/a"
sg cat $P/a | cmp - "$D/data2" && echo "a rewritten on ceph-fuse: read so" || fail=1

# ... while an --fs reader holds it (cached) open: what it reads again
# through the same descriptor once the other closed, as on ceph-fuse
for who in fuse fs; do
	sg dd if="$D/one" of=$P/b bs=128K 2> /dev/null &&
		sg cat $P/b > /dev/null
	rm -f "$D/flag"
	if [ $who = fs ]; then
		sg "$PY" tests/ceph/cache.py $P/b "$D/flag" > "$D/$who.out" &
	else
		"$PY" tests/ceph/cache.py "$F/b" "$D/flag" > "$D/$who.out" &
	fi
	while [ ! -e "$D/flag" ]; do sleep 0.05; done
	cp "$D/two" "$F/b"
	rm "$D/flag"
	wait
done
check "held open, rewritten by another client" "$(cat "$D/fuse.out")" \
	"$(cat "$D/fs.out")"

# appended to through --fs: the cached copy is not used for it
sg dd if="$D/x" of=$P/c bs=128K 2> /dev/null && sg cat $P/c > /dev/null
sg sh -c "printf y >> $P/c"
check "appended" "131073 xy" "$(echo $(sg sh -c "wc -c < $P/c; tail -c 2 $P/c"))"
check "appended, on ceph-fuse" "131073 xy" "$(echo $(wc -c < "$F/c"; tail -c 2 "$F/c"))"
sg rm $P/a $P/b $P/c
check "nothing cached once removed" 0 "$(ls "$D/cache" | wc -l)"
# a CACHE that is not an absolute path to a writable directory of the
# user's own that no one else can write (whoever can put a file there
# chooses what is read): one line and exit status 1
mkdir -m 777 "$D/open" && ln -s cache "$D/link" && mkdir "$D/theirs" &&
	chown nobody "$D/theirs" || fail=1
for c in relative /nonexistent "$D/open" "$D/link" "$D/theirs"; do
	out=$("$BUILD/sysgate" --fs=$P:ceph:$CONF:::10:$c -- true 2>&1)
	check "CACHE $c refused" "1 1" "$? $(echo "$out" | wc -l)"
done
exit $fail
