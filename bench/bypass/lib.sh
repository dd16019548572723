# SPDX-License-Identifier: MIT
# Shared by bench/bypass/*.sh: the sysgate to use, package installs, and
# a server started natively, under sysgate bypass or under sysgate hot.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SYSGATE=${SYSGATE:-$TOP/build/sysgate}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d /tmp/sysgate-appbench.XXXXXX)
trap 'stop_server; rm -rf "$WORK"' EXIT
server_pid=

[ -x "$SYSGATE" ] || { echo "build sysgate first (make): $SYSGATE" >&2; exit 1; }

# need CMD PACKAGE...: install the packages with apt-get if CMD is missing.
need() {
	local cmd=$1
	shift
	command -v "$cmd" >/dev/null && return 0
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get install -y "$@" >/dev/null || return 1
	command -v "$cmd" >/dev/null
}

# start_server MODE CMD...: MODE native, bypass or hot (the report goes to
# $WORK/hot.txt when the server ends).
start_server() {
	local mode=$1
	shift
	case $mode in
	native) "$@" >"$WORK/server.log" 2>&1 & ;;
	bypass) "$SYSGATE" bypass -f -- "$@" >"$WORK/server.log" 2>&1 & ;;
	hot) "$SYSGATE" hot -f -o "$WORK/hot.txt" -- "$@" \
		>"$WORK/server.log" 2>&1 & ;;
	esac
	server_pid=$!
}

stop_server() {
	[ -n "$server_pid" ] || return 0
	kill -TERM "$server_pid" 2>/dev/null
	wait "$server_pid" 2>/dev/null
	server_pid=
}

# wait_until CMD...: up to 10 s for CMD to succeed.
wait_until() {
	local i
	for i in $(seq 100); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "server did not start:" >&2
	cat "$WORK/server.log" >&2
	return 1
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

machine() {
	echo "machine: $(uname -m) $(uname -r), $(nproc) cpus," \
		"$(. /etc/os-release; echo "$PRETTY_NAME")"
}
