#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# nginx serving a 4 KiB file on loopback, measured with wrk, natively and
# under `sysgate bypass` (rounds interleaved), then sysgate hot's report
# for nginx under the same load.  Not run by CI.
# usage: bench/bypass/nginx.sh [SECONDS]   (ROUNDS=3 by default)
set -u
. "$(dirname "$0")/lib.sh"
SECS=${1:-10}
PORT=${PORT:-8099}
need nginx nginx || { echo "no nginx"; exit 77; }
need wrk wrk || { echo "no wrk (not packaged here?)"; exit 77; }

chmod 755 "$WORK"
mkdir -p "$WORK/www" "$WORK/tmp"
head -c 4096 /dev/urandom >"$WORK/www/4k.html"
chmod -R a+rX "$WORK/www"
cat >"$WORK/nginx.conf" <<CONF
$([ "$(id -u)" = 0 ] && echo "user root;")
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/error.log;
events { worker_connections 1024; }
http {
	access_log off;
	sendfile on;
	client_body_temp_path $WORK/tmp/body;
	proxy_temp_path $WORK/tmp/proxy;
	fastcgi_temp_path $WORK/tmp/fastcgi;
	uwsgi_temp_path $WORK/tmp/uwsgi;
	scgi_temp_path $WORK/tmp/scgi;
	server { listen 127.0.0.1:$PORT; root $WORK/www; }
}
CONF

server() {
	start_server "$1" nginx -c "$WORK/nginx.conf"
	wait_until curl -sf -o /dev/null "http://127.0.0.1:$PORT/4k.html"
}

load() {
	wrk -t2 -c50 -d"${SECS}s" "http://127.0.0.1:$PORT/4k.html" |
		awk '/^Requests\/sec/ { print $2 }'
}

machine
echo "$(nginx -v 2>&1), wrk -t2 -c50 -d${SECS}s, 4 KiB file"
for r in $(seq "$ROUNDS"); do
	for mode in native bypass; do
		server "$mode" || exit 1
		rps=$(load)
		stop_server
		echo "$mode $rps" >>"$WORK/results"
		printf 'round %d %-7s %10s requests/s\n' "$r" "$mode" "$rps"
	done
done
nat=$(awk '$1 == "native" { print $2 }' "$WORK/results" | median)
byp=$(awk '$1 == "bypass" { print $2 }' "$WORK/results" | median)
echo "median: native $nat, bypass $byp ($(echo "$byp / $nat" | bc -l | cut -c1-5)x)"
server hot || exit 1
load >/dev/null
stop_server
echo "sysgate hot, nginx under the same load:"
head -12 "$WORK/hot.txt"
