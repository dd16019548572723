#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Redis GET/SET requests per second natively and under `sysgate bypass`
# (redis-server on loopback, redis-benchmark), rounds interleaved, then
# sysgate hot's report for the server under the same load.  Not run by
# CI.  usage: bench/bypass/redis.sh [REQUESTS]   (ROUNDS=3 by default)
set -u
. "$(dirname "$0")/lib.sh"
N=${1:-200000}
PORT=${PORT:-6399}
need redis-server redis-server redis-tools || { echo "no redis-server"; exit 77; }
need redis-benchmark redis-tools || { echo "no redis-benchmark"; exit 77; }

server() {
	start_server "$1" redis-server --port "$PORT" --bind 127.0.0.1 \
		--save '' --appendonly no --protected-mode no
	wait_until redis-cli -p "$PORT" ping
}

# load: "SET GET" requests per second, 50 clients, 3-byte values.
load() {
	redis-benchmark -p "$PORT" -t set,get -n "$N" -c 50 -d 3 -q 2>/dev/null |
		tr '\r' '\n' | awk '/requests per second/ {
			sub(":", "", $1); v[$1] = $2 } END { print v["SET"], v["GET"] }'
}

machine
echo "redis-server $(redis-server --version | awk '{print $3}'), $N requests per test, 50 clients, 3-byte values"
for r in $(seq "$ROUNDS"); do
	for mode in native bypass; do
		server "$mode" || exit 1
		read -r set get < <(load)
		stop_server
		echo "$mode $set $get" >>"$WORK/results"
		printf 'round %d %-7s SET %10s  GET %10s requests/s\n' "$r" "$mode" "$set" "$get"
	done
done
for mode in native bypass; do
	for col in 2 3; do
		awk -v m=$mode -v c=$col '$1 == m { print $c }' "$WORK/results" | median >"$WORK/$mode.$col"
	done
done
echo "median SET: native $(cat "$WORK/native.2"), bypass $(cat "$WORK/bypass.2")" \
	"($(echo "$(cat "$WORK/bypass.2") / $(cat "$WORK/native.2")" | bc -l | cut -c1-5)x)"
echo "median GET: native $(cat "$WORK/native.3"), bypass $(cat "$WORK/bypass.3")" \
	"($(echo "$(cat "$WORK/bypass.3") / $(cat "$WORK/native.3")" | bc -l | cut -c1-5)x)"
server hot || exit 1
load >/dev/null
stop_server
echo "sysgate hot, redis-server under the same load:"
head -12 "$WORK/hot.txt"
