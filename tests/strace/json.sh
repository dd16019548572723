#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# json.sh NAME: corpus program NAME under sysgate -f --json.  Every line
# must be JSON (python3 -m json.tool --json-lines); when
# tests/strace/golden/NAME.json exists, the records from the program's
# begin() marker on must equal it once what differs between runs is
# normalised (times, pids, addresses, select's time left).
set -u
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
name=$1
prog=$BUILD/tests/strace/$name
TMP=$(mktemp -d /tmp/sysgate-json.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/w"
"$BUILD/sysgate" -f --json -o "$TMP/sg.json" -- "$prog" "$TMP/w" >/dev/null ||
	{ echo "FAIL: $name under sysgate: exit $?"; exit 1; }
python3 -m json.tool --json-lines "$TMP/sg.json" >/dev/null ||
	{ echo "FAIL: not JSON Lines"; exit 1; }
golden=tests/strace/golden/$name.json
[ -f "$golden" ] || { echo "valid JSON: $(wc -l <"$TMP/sg.json") records"; exit 0; }
python3 - "$TMP/sg.json" >"$TMP/norm.json" <<'EOT'
import json, re, sys
pids = {}
def norm(v):
    if isinstance(v, str):
        v = re.sub(r"0x[0-9a-f]{8,}", "0xADDR", v)
        return re.sub(r"left \{tv_sec=\d+, tv_(n|u)sec=\d+\}",
                      r"left {tv_sec=N, tv_\1sec=N}", v)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v
started = False
for line in open(sys.argv[1]):
    r = json.loads(line)
    # the corpus programs' begin() marker
    started = started or (r.get("name") == "close" and r["args"] == [-1000])
    if not started:
        continue
    for k in ("ts", "dur_ns"):
        r.pop(k, None)
    for k in ("pid", "tid"):
        if k in r:
            r[k] = pids.setdefault(r[k], "P%d" % (len(pids) + 1))
    print(json.dumps(norm(r)))
EOT
if ! diff -u "$golden" "$TMP/norm.json"; then
	echo "FAIL: $name's records differ from $golden"
	exit 1
fi
echo "identical to $golden: $(wc -l <"$golden") records"
