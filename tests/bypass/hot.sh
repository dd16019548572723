#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hot.sh DIR [text]: sysgate hot finds the tight pread loop of
# `files DIR hot` (named pread64 in libc, served by --bypass=pread on a
# mappable file system) and leaves the getppid calls made after 50 us of user-space work
# cold; the text report says the same in its columns.
set -u
dir=$1 mode=${2:-json}
prog=$BUILD/tests/bypass/files
work=$(mktemp -d "$dir/sysgate-hot.XXXXXX")
out=$(mktemp /tmp/sysgate-hot.XXXXXX)
trap 'rm -rf "$work" "$out"' EXIT
if [ "$mode" = text ]; then
	"$BUILD/sysgate" hot -o "$out" -- "$prog" "$work" hot || exit 1
	cat "$out"
	grep -Eq '^0x[0-9a-f]+ +[0-9]+ +pread64 +100000 .* HOT pread64\+0x[0-9a-f]+ \(libc[^)]*\) yes: --bypass=pread' "$out" ||
		{ echo "no hot pread64 row"; exit 1; }
	grep -Eq '^0x[0-9a-f]+ +[0-9]+ +getppid +2000 .* - getppid\+0x[0-9a-f]+ \(libc[^)]*\) yes' "$out" ||
		{ echo "getppid row missing or hot"; exit 1; }
	exit 0
fi
"$BUILD/sysgate" hot --json -o "$out" -- "$prog" "$work" hot || exit 1
python3 - "$out" "$dir" <<'PY'
import json, sys
rep = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
assert rep["type"] == "hot" and rep["short_ns"] == 1300, rep
site = {s["syscall"]: s for s in rep["sites"] if s["calls"] >= 2000}
p, g = site["pread64"], site["getppid"]
print("pread64:", p)
print("getppid:", g)
assert p["hot"] and p["calls"] == 100000 and p["hot_windows"] >= 1, p
assert p["symbol"].startswith("pread64") and "libc" in p["library"], p
assert p["median_gap_ns"] < 1300, p
assert p["bypass"] == "yes", p
assert not g["hot"] and g["calls"] == 2000 and g["short"] == 0, g
assert g["median_gap_ns"] >= 40000, g
assert rep["hot_sites"] >= 1
PY
