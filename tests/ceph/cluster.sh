# SPDX-License-Identifier: MIT
# Sourced by the ceph tests: a one-machine CephFS cluster under a
# directory (one monitor, one OSD on memstore, one MDS, no
# authentication), after ../shared/recipes/ceph-single-node.sh, and its
# teardown.  Needs root and Debian's ceph-mon ceph-osd ceph-mds
# ceph-common ceph-fuse.

# ceph_need: exit 77 with the reason when this machine cannot run one.
ceph_need() {
	[ "$(id -u)" = 0 ] || { echo "needs root (starts a Ceph cluster)"; exit 77; }
	local c
	for c in ceph-mon ceph-osd ceph-mds ceph monmaptool ceph-fuse; do
		command -v $c >/dev/null || {
			echo "needs $c (apt-get install ceph-mon ceph-osd ceph-mds ceph-common ceph-fuse libcephfs2)"
			exit 77
		}
	done
	ldconfig -p | grep -q 'libcephfs\.so\.2 ' ||
		{ echo "needs libcephfs.so.2 (apt-get install libcephfs2)"; exit 77; }
	[ -c /dev/fuse ] || { echo "needs /dev/fuse (for the ceph-fuse oracle)"; exit 77; }
}

# ceph_up DIR [cephx|none [ADDR [OSDS]]]: start the cluster; sets CONF.
# Ports from the pid, so parallel runs do not meet.  With cephx, every
# daemon and client.admin have a key in DIR/keyring, which CONF names
# (one OSD only).  Every daemon listens on ADDR (127.0.0.1); OSDS (1)
# OSDs, each on memstore.
ceph_up() {
	local D=$1 auth=${2:-none} a=${3:-127.0.0.1} osds=${4:-1} p1 p2 fsid osd i
	# (below the ephemeral range: a port in it may be any connection's
	# local end, a previous test's clients' among them, in TIME_WAIT)
	local eph
	eph=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	[ "${eph:-0}" -gt 12000 ] 2>/dev/null || eph=32768
	p1=$((10000 + $$ % ((eph - 10000) / 2) * 2)); p2=$((p1 + 1))
	mkdir -p "$D/mon" "$D/osd0" "$D/mds"
	fsid=$(cat /proc/sys/kernel/random/uuid)
	CONF=$D/ceph.conf
	cat > "$CONF" <<C
[global]
fsid = $fsid
mon host = [v2:$a:$p2,v1:$a:$p1]
mon initial members = a
$([ "$a" = 127.0.0.1 ] || echo "public addr = $a")
auth cluster required = $auth
auth service required = $auth
auth client required = $auth
keyring = $D/keyring
osd objectstore = memstore
memstore device bytes = ${CEPH_MEMSTORE_BYTES:-1073741824}
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd crush chooseleaf type = 0
run dir = $D
pid file = $D/\$name.pid
log file = $D/\$name.log
admin socket = $D/\$name.asok
[mon.a]
mon data = $D/mon
public addr = $a
[osd]
osd data = $D/osd\$id
[mds.a]
mds data = $D/mds
C
	local C="-c $CONF" k="ceph-authtool $D/keyring --gen-key -n"
	if [ "$auth" = cephx ]; then
		$k mon. --create-keyring --cap mon 'allow *' &&
		$k client.admin --cap mon 'allow *' --cap osd 'allow *' \
			--cap mds 'allow *' --cap mgr 'allow *' &&
		$k osd.0 --cap mon 'allow profile osd' --cap osd 'allow *' &&
		$k mds.a --cap mon 'allow profile mds' --cap osd 'allow *' \
			--cap mds 'allow *' || return 1
	fi > /dev/null
	monmaptool --create --fsid "$fsid" --addv a \
		"[v2:$a:$p2,v1:$a:$p1]" "$D/monmap" >/dev/null &&
	ceph-mon $C -i a --mkfs --monmap "$D/monmap" \
		$([ "$auth" = cephx ] && echo --keyring "$D/keyring") &&
	ceph-mon $C -i a || return 1
	for i in $(seq "$osds"); do
		osd=$(ceph $C --connect-timeout 60 osd create) &&
		mkdir -p "$D/osd$osd" &&
		ceph-osd $C -i "$osd" --mkfs 2>/dev/null &&
		ceph-osd $C -i "$osd" 2>/dev/null || return 1
		ceph $C osd crush add "osd.$osd" 1.0 host=localhost \
			root=default >/dev/null 2>&1
	done
	ceph $C osd pool create cephfs_data 8 >/dev/null 2>&1 &&
	ceph $C osd pool create cephfs_meta 8 >/dev/null 2>&1 &&
	ceph $C fs new cephfs cephfs_meta cephfs_data >/dev/null 2>&1 &&
	ceph-mds $C -i a 2>/dev/null || return 1
	for i in $(seq 120); do
		ceph $C mds stat 2>/dev/null | grep -q 'up:active' && return 0
		sleep 1
	done
	echo "the MDS did not become active"
	return 1
}

# ceph_start [AUTH [ADDR [OSDS]]]: a test's cluster in a new directory D,
# torn down when the test exits; exit 1 with its log if it does not start.
ceph_start() {
	D=$(mktemp -d /tmp/sysgate-ceph.XXXXXX)
	trap 'ceph_down "$D"' EXIT
	ceph_up "$D" "$@" > "$D/up.log" 2>&1 ||
		{ cat "$D/up.log"; echo "cluster did not start"; exit 1; }
}

# ceph_down DIR: unmount what is mounted under DIR, stop the daemons
# (MDS, OSD, monitor), wait until they are gone, remove DIR.  Also
# under set -e (bench/fs/ceph.sh): a daemon gone already is no error.
ceph_down() {
	local D=$1 m f pid i
	for m in $(awk -v d="$D" 'index($2, d) == 1 {print $2}' /proc/mounts); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	# The daemons of this cluster, by pid file and by their own
	# configuration's path (a daemon may not have written its pid file).
	# ceph-fuse too: one unmounted lazily while busy stays.
	for f in mds.a osd.0 osd.1 osd.2 mon.a; do
		pid=$(cat "$D/$f.pid" 2>/dev/null || true)
		for pid in $pid $(pgrep -f -- "-c $D/[a-z.]*conf -i") \
			   $(pgrep -f -- "^ceph-fuse -c $D/"); do
			kill "$pid" 2>/dev/null || continue
			for i in $(seq 100); do
				[ -d /proc/$pid ] || break
				sleep 0.1
			done
			kill -9 "$pid" 2>/dev/null || true
		done
	done
	rm -rf "$D"
}

# pair RUN-A DIR-A RUN-B DIR-B: pair.py's two sides, each started by its
# runner ("sg", "env", a node's), with the fifos in $S and python $PY;
# what a printed, then b.
pair() {
	rm -f "$S/a2b" "$S/b2a"
	mkfifo "$S/a2b" "$S/b2a"
	$1 "$PY" tests/ceph/pair.py a "$2" "$S" > "$S/a.out" 2>&1 &
	$3 "$PY" tests/ceph/pair.py b "$4" "$S" > "$S/b.out" 2>&1
	wait
	cat "$S/a.out" "$S/b.out"
}

# same NAME EXPECTED GOT: whether a run printed what the oracle did;
# fail=1 when not.
same() {
	if [ "$2" = "$3" ]; then
		echo "$1: same ($(echo "$2" | wc -l) lines)"
	else
		echo "$1: differs (< ceph-fuse, > --fs)"
		diff <(echo "$2") <(echo "$3") | head -40
		fail=1
	fi
}
