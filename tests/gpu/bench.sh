#!/bin/sh
# SPDX-License-Identifier: MIT
# bench.sh BUILD - sysgate-gpu-bench --json --quick emits valid, labelled JSON.
out=$("$1/sysgate-gpu-bench" --json --quick) || exit 1
echo "$out" | grep -q '"mode":"cpu-lanes"' || { echo "no mode label"; exit 1; }
for b in latency ports bulk throughput coalescing ordering; do
	echo "$out" | grep -q "\"bench\":\"$b\"" || { echo "missing $b"; exit 1; }
done
if command -v python3 >/dev/null; then
	echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["results"]), "results")' || exit 1
fi
