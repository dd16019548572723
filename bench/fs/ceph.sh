#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fs/ceph.sh [N [ROUNDS [MIB]]]: small-file create/stat/read/unlink
# rates on a one-node CephFS cluster started here (tests/ceph/cluster.sh;
# root), in one run: through a ceph-fuse mount, through sysgate --fs on
# CephFS, and libcephfs called directly (the floor), the best of ROUNDS
# (3) each; then real tools through the mount and through --fs: a
# sequential write and read of MIB (1024) MiB with dd (and libcephfs
# directly), `tar x` of this source tree, `find` over 10,000 entries
# (and libcephfs directly).
# JSON Lines; PLOT=FILE.png draws the tools' rows (python3 + matplotlib).
# --fs runs with its data cache (CACHE) in a directory under CACHE_DIR
# (CACHE_DIR=none: without it).
set -eu
BUILD=${BUILD:-build}
N=${1:-2000}
ROUNDS=${2:-3}
MIB=${3:-1024}
# Room in the OSD (memstore, in RAM) for the mount's, --fs's and the
# direct file, while deleted ones are purged.
export CEPH_MEMSTORE_BYTES=${CEPH_MEMSTORE_BYTES:-$(( (3 * MIB + 1024) << 20 ))}
. tests/ceph/cluster.sh
ceph_need
D=$(mktemp -d /tmp/sysgate-bench-ceph.XXXXXX)
# --fs's data cache (CACHE): in CACHE_DIR, by default on the disk of $D,
# read from the page cache as the mount's is (tmpfs, without large folios
# here, copied 1 GiB out in twice the time; writing 1 GiB to this VM's
# disk took 3-4 s, to tmpfs 0.6 s)
K=
[ "${CACHE_DIR:-}" = none ] || K=$(mktemp -d "${CACHE_DIR:-$D}/cache.XXXXXX")
trap 'ceph_down "$D"; [ -z "$K" ] || rm -rf "$K"' EXIT
ceph_up "$D" > "$D/up.log" 2>&1 || { cat "$D/up.log"; exit 1; }
mkdir -p "$D/fuse"
ceph-fuse -c "$CONF" "$D/fuse" > /dev/null 2>&1
prog=$BUILD/bench-fs-smallfiles
# Rounds of the three, in turn, each on new directories; the best rate
# of each: the cluster's state drifts over a run (the MDS's journal and
# caches grow), which would favour whichever came last.
for r in $(seq "$ROUNDS"); do
	"$prog" "$D/fuse/fuse$r" "$N" | sed 's/^/ceph-fuse /'
	"$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF:::10:$K -- "$prog" \
		/sysgate-bench-$$/fs$r "$N" | sed 's/^/fs /'
	"$BUILD/bench-fs-smallfiles-ceph" "$CONF" /direct$r "$N" |
		sed 's/^/libcephfs /'
done > "$D/runs"
# The issue's targets as ratios: --fs over ceph-fuse (at least 5 on stat
# and reads) and libcephfs over --fs (at most 1.5).
python3 - "$D/runs" <<'P'
import json, sys
best = {}
for line in open(sys.argv[1]):
    who, res = line.split(" ", 1)
    for k, v in json.loads(res).items():
        b = best.setdefault(who, {})
        b[k] = max(b.get(k, 0), v)
names = {"ceph-fuse": "ceph-fuse", "fs": "sysgate --fs ceph",
         "libcephfs": "libcephfs"}
for who, name in names.items():
    print(json.dumps({"target": name, "result": best[who]}))
fuse, fs, direct = best["ceph-fuse"], best["fs"], best["libcephfs"]
keys = [k for k in fs if k.endswith("_per_s")]
for name, num, den in (("--fs / ceph-fuse", fs, fuse),
                       ("libcephfs / --fs", direct, fs)):
    print(json.dumps({"target": name, "result":
                      {k: round(num[k] / den[k], 2) for k in keys}}))
P
# Real tools: the same command lines on the mount and on the prefix,
# best of ROUNDS, seconds each; --fs / ceph-fuse as a rate ratio.  The
# sequential rows and find also with libcephfs called directly (a
# process of its own each, as each dd and find under --fs has, so always
# with a new client: the floor of both find rows), and the read twice
# on the mount:
# right after the write (from the kernel's page cache, which outlives the
# process; under --fs from its data cache, CACHE) and after mounting it
# again, and emptying CACHE (from the cluster); find likewise.
tar cf "$D/src.tar" --exclude=./build --exclude=./.git -C "$(pwd)" .
t() { local t0=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( $(date +%s%N) - t0 ))"; }
remount() {	# (the old ceph-fuse gone first: a new one would not mount)
	local pid
	pid=$(pgrep -f "^ceph-fuse -c $CONF")
	umount "$D/fuse" || return 1
	while kill -0 $pid 2> /dev/null; do sleep 0.1; done
	ceph-fuse -c "$CONF" "$D/fuse" > /dev/null 2>&1
}
tools() {	# ROOT COLD RUNNER...: one round of each tool under ROOT
	local root=$1 cold=$2
	shift 2
	# (what starting a program costs: under --fs, its own client)
	echo "start $(t "$@" true)"
	echo "seq_write $(t "$@" dd if=/dev/zero of="$root/seq" bs=4M count=$((MIB / 4)) conv=fsync)"
	echo "seq_read $(t "$@" dd if="$root/seq" of=/dev/null bs=4M)"
	$cold
	echo "seq_read_cold $(t "$@" dd if="$root/seq" of=/dev/null bs=4M)"
	"$@" rm -f "$root/seq"
	"$@" mkdir -p "$root/tar"
	echo "tar_x $(t "$@" tar xf "$D/src.tar" -C "$root/tar")"
	"$@" mkdir -p "$root/find"
	"$@" python3 -c 'import os, sys
for i in range(100):
    d = os.path.join(sys.argv[1], "d%d" % i); os.mkdir(d)
    for j in range(99): open(os.path.join(d, "f%d" % j), "w").close()' "$root/find"
	echo "find_10k $(t "$@" find "$root/find")"
	$cold
	echo "find_10k_cold $(t "$@" find "$root/find")"
}
fsrun() { "$BUILD/sysgate" --fs=/sysgate-bench-$$:ceph:$CONF:::10:$K -- "$@"; }
fscold() { [ -z "$K" ] || rm -f "$K"/*; }	# (as the remount drops the page cache)
seq=$BUILD/bench-fs-seq-ceph
for r in $(seq "$ROUNDS"); do
	mkdir -p "$D/fuse/tools-fuse$r"
	tools "$D/fuse/tools-fuse$r" remount env | sed 's/^/ceph-fuse /'
	mountpoint -q "$D/fuse" || { echo "ceph-fuse is not mounted" >&2; exit 1; }
	fsrun mkdir -p /sysgate-bench-$$/tools-fs$r
	tools /sysgate-bench-$$/tools-fs$r fscold fsrun | sed 's/^/fs /'
	echo "libcephfs seq_write $(t "$seq" "$CONF" /direct-seq$r "$MIB" write)"
	echo "libcephfs seq_read_cold $(t "$seq" "$CONF" /direct-seq$r "$MIB" read)"
	echo "libcephfs find_10k $(t "$BUILD/bench-fs-find-ceph" "$CONF" /tools-fs$r/find)"
	fsrun rm -f /sysgate-bench-$$/direct-seq$r
done > "$D/tools"
# (the first python3 with matplotlib, as sysgate bench --plot takes)
PY=python3
if [ -n "${PLOT:-}" ]; then
	for p in python3 /usr/bin/python3; do
		$p -c 'import matplotlib' 2> /dev/null && { PY=$p; break; }
	done
fi
PLOT=${PLOT:-} $PY - "$D/tools" "$MIB" <<'P'
import json, os, sys
best = {}
for line in open(sys.argv[1]):
    who, key, ns = line.split()
    b = best.setdefault(who, {})
    b[key] = min(b.get(key, 1e30), int(ns) / 1e9)
mib = int(sys.argv[2])
seq = ("seq_write", "seq_read", "seq_read_cold")
names = (("ceph-fuse", "ceph-fuse"), ("fs", "sysgate --fs ceph"),
         ("libcephfs", "libcephfs"))
for who, name in names:
    r = {k + "_s": round(v, 3) for k, v in best[who].items()}
    for k in seq:
        if k in best[who]:
            r[k + "_mib_per_s"] = round(mib / best[who][k], 1)
    print(json.dumps({"target": name + " tools", "result": r}))
fuse, fs, direct = best["ceph-fuse"], best["fs"], best["libcephfs"]
print(json.dumps({"target": "--fs / ceph-fuse tools (rate)", "result":
                  {k: round(fuse[k] / fs[k], 2) for k in fs}}))
print(json.dumps({"target": "libcephfs / --fs tools (rate)", "result":
                  {k: round(fs[k] / direct[k], 2) for k in direct}}))
png = os.environ.get("PLOT")
if png:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        sys.exit("bench/fs/ceph.sh: PLOT needs python3 with matplotlib")
    import platform
    rows = [("dd write %d MiB" % mib, "seq_write"),
            ("dd read, right after", "seq_read"),
            ("dd read, from the cluster", "seq_read_cold"),
            ("tar x", "tar_x"), ("find, 10,000 entries", "find_10k"),
            ("find, from the cluster", "find_10k_cold")]
    fig, ax = plt.subplots(figsize=(8, 4))
    h = 0.27
    for i, (who, name) in enumerate(names):
        ys = [j + (i - 1) * h for j in range(len(rows))]
        vals = [fuse[k] / best[who][k] if k in best[who] else 0
                for _, k in rows]
        bars = ax.barh(ys, vals, h, label=name)
        for b, v in zip(bars, vals):
            if v:
                ax.text(v, b.get_y() + h / 2, " %.2f" % v, va="center",
                        fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r for r, _ in rows])
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xticks([0.1, 0.2, 0.5, 1, 2, 5, 10])
    ax.set_xlabel("speed relative to the ceph-fuse mount (log scale, "
                  "higher is faster)")
    ax.axvline(1, color="grey", lw=0.8)
    ax.invert_yaxis()
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("bench/fs/ceph.sh: one-node CephFS, %s %s, %d cpus"
                 % (platform.machine(), platform.release(), os.cpu_count()),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
P
