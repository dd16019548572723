#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh RUNTIME MODE: a real JIT runtime (luajit, node, java) runs a
# program that compiles hot code to machine code, does file and pipe I/O
# and starts children (hot.lua, hot.js, Hot.java), natively and under
# sysgate; the output must be the same and the code must really have been
# compiled, in both runs.  MODE:
#   count   -f -c: every call of the tree dispatched and counted
#   trace   -f -o FILE: the probe's unlink and a child's execve are traced
#   inject  -f -e inject=unlink:error=ENOENT:when=1 (the program's only
#           unlink, in a thread of Java's: -f, as strace needs): the
#           program sees it fail and the file stay, and nothing else
#           changes
#   loader  --loader -f -c: hooked from the first instruction, children too
#   sud     -m sud -f -c
# Skips (77) when the runtime is not installed.
set -u
SG=$BUILD/sysgate
rt=$1 mode=$2
DIR=$(mktemp -d /tmp/sysgate-jit.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
need() { command -v "$1" >/dev/null || skip "$1 not installed ($2)"; }

# cmd: the program; jitted LOG OUTPUT: did this run compile mix to
# machine code?  (log: the runtime's own compilation log, java only)
case $rt in
luajit)
	need luajit "Debian package luajit"
	cmd=(luajit tests/jit/hot.lua "$DIR")
	jitted() { grep -qx 'jit compiled	true' "$2"; }
	;;
node)
	need node "Debian package nodejs"
	cmd=(node --allow-natives-syntax tests/jit/hot.js "$DIR")
	jitted() { grep -qx 'jit compiled true' "$2"; }
	;;
java)
	need java "Debian package default-jdk-headless"
	need javac "Debian package default-jdk-headless"
	javac -d "$DIR" tests/jit/Hot.java || fail "javac"
	# the log names each method compiled (tiers 1-3 C1, 4 C2)
	# (no hsperfdata file, whose unlink would come before the probe's)
	cmd=(java -XX:-UsePerfData -Xlog:jit+compilation=debug:file="$DIR/jit.log"
	     -cp "$DIR" Hot "$DIR")
	jitted() { grep -q ' Hot::mix ' "$1"; }
	;;
*) fail "no runtime $rt" ;;
esac

# run OUT [SYSGATE OPTIONS...]: natively without options; stdout to OUT
run() {
	local out=$1
	shift
	rm -f "$DIR/jit.log"
	echo probe >"$DIR/probe"
	if [ $# -eq 0 ]; then
		"${cmd[@]}" >"$out"
	else
		"$SG" "$@" -- "${cmd[@]}" >"$out"
	fi
	rc=$?
	jitted "$DIR/jit.log" "$out" || { cat "$out"; fail "${*:-native}: nothing was compiled"; }
}

run "$DIR/native"
[ $rc = 0 ] || fail "native run: exit $rc"
grep -qx 'remove.ok' "$DIR/native" || fail "native run: $(cat "$DIR/native")"
want=$DIR/native

case $mode in
count)  opts=(-f -c -o "$DIR/log") ;;
trace)  opts=(-f -o "$DIR/log") ;;
loader) opts=(--loader -f -c -o "$DIR/log") ;;
sud)
	"$SG" --list-mechanisms | grep -q '^sud *available' ||
		skip "mechanism sud is not available here"
	opts=(-m sud -f -c -o "$DIR/log")
	;;
seccomp)
	# every call, the JIT's own included, trapped by the filter
	"$SG" --list-mechanisms | grep -q '^seccomp *available' ||
		skip "mechanism seccomp is not available here"
	opts=(-m seccomp -f -c -o "$DIR/log")
	;;
inject)
	opts=(-f -e trace=none -e inject=unlink:error=ENOENT:when=1)
	sed 's/^remove\(.\)ok$/remove\1ENOENT/; s/^probe\(.\)gone$/probe\1still there/' \
		"$DIR/native" >"$DIR/want"
	want=$DIR/want
	;;
*) fail "no mode $mode" ;;
esac

run "$DIR/hooked" "${opts[@]}"
[ $rc = 0 ] || { cat "$DIR/hooked"; fail "under sysgate ${opts[*]}: exit $rc"; }
diff -u "$want" "$DIR/hooked" || fail "under sysgate ${opts[*]}: output differs"

case $mode in
count | loader | sud | seccomp)
	# the children were followed: their execve calls were counted
	grep -qE ' execve$' "$DIR/log" || { cat "$DIR/log"; fail "no execve counted"; }
	;;
trace)
	# (whole, or, as strace prints it when another thread's line comes
	# between, begun "<unfinished ...>" and ended "<... unlink resumed>"
	# by the same thread)
	awk -v p="unlink(\"$DIR/probe\"" '
		index($0, p ")") && $NF == "0" && $(NF - 1) == "=" { ok = 1 }
		index($0, p " <unfinished ...>") { open[$1] = 1 }
		open[$1] && /<\.\.\. unlink resumed>\) += 0$/ { ok = 1 }
		END { exit !ok }' "$DIR/log" ||
		fail "the probe's unlink is not traced"
	grep -qE '^[0-9]+ +execve\("/(usr/)?bin/sh", ' "$DIR/log" ||
		fail "no child's execve traced"
	;;
esac
tail -1 "$DIR/hooked"
