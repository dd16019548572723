#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh PROGRAM MODE: a real program (one nobody here wrote) runs
# natively and under sysgate; its stdout and exit status must be the
# same.  Each run gets a fresh scratch directory as its cwd and $HOME.
# MODE is one of the modes below (sysgate options), PROGRAM one of the
# programs below.  Skips (77) only when the program is not
# installed or the mechanism is not available here.
set -u
SG=$TOP/$BUILD/sysgate
export T=$TOP/tests/real
DIR=$(mktemp -d /tmp/sysgate-real.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
prog=$1 mode=$2

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
# need TOOL PACKAGE: skip unless TOOL is installed
need() { command -v "$1" >/dev/null || skip "$1 not installed (Debian package $2)"; }
need_mechanism() {
	"$SG" --list-mechanisms | grep -q "^$1 *available" ||
		skip "mechanism $1 is not available here"
}
# build OUT COMPILER ARGS...: a helper program, built natively
build() {
	local out=$DIR/bin/$1
	shift
	mkdir -p "$DIR/bin"
	"$@" -o "$out" >"$DIR/build.log" 2>&1 || { cat "$DIR/build.log"; fail "cannot build: $*"; }
}

case $mode in
default) opts=(-f -c -o "$DIR/log") ;;
loader)  opts=(--loader -f -c -o "$DIR/log") ;;
seccomp) need_mechanism seccomp; opts=(-m seccomp -f -c -o "$DIR/log") ;;
sud)     need_mechanism sud; opts=(-m sud -f -c -o "$DIR/log") ;;
ptrace)  opts=(-m ptrace -f -c -o "$DIR/log") ;;
*) fail "no mode $mode" ;;
esac

# Per program: cmd (the program), and optionally pre (a tool run in
# front of both runs: the hooked run is pre + sysgate + cmd), norm (a
# sed script for what legitimately differs between runs, such as pids),
# check (what else must hold after the hooked run) and refusal_ok
# (sysgate may refuse the program with one line instead of running it).
pre=() norm= check=true refusal_ok=
# the nesting cases' program: a distinctive call (mknodat) the outer tool
# must see
nested=(sh -c 'mkfifo fifo && echo nested && rm fifo')
saw_mknod() { grep -q mknod "$1" || { cat "$1"; fail "the outer tool did not see the inner program's mknodat"; }; }
case $prog in
python)	need python3 python3; cmd=(python3 "$T/mix.py") ;;
luajit)	need luajit luajit; cmd=(luajit "$T/mix.lua") ;;
node)	need node nodejs; cmd=(node "$T/mix.js") ;;
java)
	need javac default-jdk-headless
	mkdir -p "$DIR/bin"
	javac -d "$DIR/bin" "$T/Mix.java" || fail "javac"
	cmd=(java -XX:-UsePerfData -cp "$DIR/bin" Mix)
	;;
perl)	need perl perl; cmd=(perl "$T/mix.pl") ;;
git)
	need git git
	# the user's view: no cache location chosen for sysgate
	unset SYSGATE_CACHE XDG_CACHE_HOME
	cmd=(bash "$T/git.sh")
	;;
sqlite3) need sqlite3 sqlite3; cmd=(bash "$T/sqlite.sh") ;;
tar-xz)	need xz xz-utils; need tar tar; cmd=(bash "$T/archive.sh") ;;
make)	need gcc gcc; need make make; cmd=(bash "$T/build.sh") ;;
curl)	need curl curl; need python3 python3; cmd=(bash "$T/curl.sh") ;;
valgrind-none | valgrind-memcheck)
	need valgrind valgrind
	cmd=(valgrind -q --log-fd=1 --error-exitcode=9 --tool="${prog#valgrind-}" /bin/true)
	;;
gdb)
	need gdb gdb
	cmd=(gdb -batch -nx -ex run --args /bin/true)
	norm='s/process [0-9]*/process N/'
	;;
gdb-over)
	# sysgate under gdb
	need gdb gdb
	pre=(gdb -batch -nx -ex run --args)
	cmd=("${nested[@]}")
	# gdb follows its inferior, sysgate, not sysgate's child: the lines
	# on the forks and execs it sees differ with the tree, legitimately,
	# and so does thread debugging, which gdb turns on for the dynamic
	# program natively but not for the static sysgate command
	norm='s/process [0-9]*/process N/; /^\[Detaching after/d; /is executing new program/d; /^\[Thread debugging using libthread_db/d; /^Using host libthread_db/d'
	;;
musl-dynamic | musl-static)
	need musl-gcc musl-tools
	build mix musl-gcc -O2 $([ "$prog" = musl-static ] && echo -static) "$T/libc_mix.c"
	cmd=("$DIR/bin/mix")
	;;
asan | tsan | ubsan | msan)
	need clang clang
	declare -A san=([asan]=address [tsan]=thread [ubsan]=undefined [msan]=memory)
	build mix clang -O1 -g -pthread -fsanitize="${san[$prog]}" "$T/libc_mix.c"
	cmd=("$DIR/bin/mix")
	;;
i386)
	need as binutils
	as --32 -o "$DIR/i386.o" "$T/i386.S" || fail "as --32"
	build i386 ld -m elf_i386 "$DIR/i386.o"
	cmd=("$DIR/bin/i386")
	# the in-process mechanisms cannot run 32-bit code and say so
	[ "$mode" = ptrace ] || refusal_ok=1
	;;
sysgate-in)
	# sysgate under sysgate: the outer one counts the inner's program,
	# and so does the inner one (from outside it: one runtime per
	# process)
	cmd=("$SG" -f -c -o "$DIR/inner.log" -- "${nested[@]}")
	check() { saw_mknod "$DIR/log" && saw_mknod "$DIR/inner.log"; }
	check=check
	;;
strace-in)
	# strace -f under sysgate
	need strace strace
	cmd=(strace -f -qq -o "$DIR/strace.log" -- "${nested[@]}")
	# once, as natively (under -m seccomp the filter's trapped attempt
	# showed too)
	check() {
		saw_mknod "$DIR/strace.log"
		[ "$(grep -c mknod "$DIR/strace.log")" = 1 ] ||
			{ grep mknod "$DIR/strace.log"; fail "strace saw mknodat more than once"; }
	}
	check=check
	;;
strace-over)
	# sysgate under strace -f
	need strace strace
	pre=(strace -f -qq -o "$DIR/strace.log" --)
	cmd=("${nested[@]}")
	check() { saw_mknod "$DIR/strace.log"; }
	check=check
	;;
*) fail "no program $prog" ;;
esac

# run NAME COMMAND...: in a fresh $DIR/NAME as cwd and $HOME; stdout to
# $DIR/NAME.out (normalised), stderr to $DIR/NAME.err, status in rc
run() {
	local name=$1
	shift
	mkdir "$DIR/$name"
	(cd "$DIR/$name" && HOME=$DIR/$name exec "$@") >"$DIR/$name.raw" 2>"$DIR/$name.err"
	rc=$?
	sed -e "${norm:-}" "$DIR/$name.raw" >"$DIR/$name.out"
}

run native "${pre[@]}" "${cmd[@]}"
nrc=$rc
run hooked "${pre[@]}" "$SG" "${opts[@]}" -- "${cmd[@]}"
hrc=$rc

explain() {
	echo "native exit $nrc, under sysgate ${opts[*]}: exit $hrc$([ $hrc -gt 128 ] &&
		echo " ($(kill -l $((hrc - 128)) 2>/dev/null || echo signal))")"
	diff -u "$DIR/native.out" "$DIR/hooked.out" | head -30
	echo "--- stderr under sysgate (first and last lines):"
	if [ "$(wc -l <"$DIR/hooked.err")" -gt 16 ]; then
		head -n 6 "$DIR/hooked.err"
		echo ...
		tail -n 10 "$DIR/hooked.err"
	else
		cat "$DIR/hooked.err"
	fi
}

if [ -n "$refusal_ok" ] && [ $hrc != 0 ] && [ ! -s "$DIR/hooked.out" ] &&
	[ "$(wc -l <"$DIR/hooked.err")" = 1 ] && grep -q '^sysgate: ' "$DIR/hooked.err"; then
	echo "refused in one line: $(cat "$DIR/hooked.err")"
	exit 0
fi
if [ $nrc != $hrc ] || ! cmp -s "$DIR/native.out" "$DIR/hooked.out"; then
	explain
	fail "$prog differs under sysgate ${opts[*]}"
fi
# the program was hooked: sysgate wrote its count table
grep -q ' total$' "$DIR/log" || { explain; cat "$DIR/log"; fail "no count table in the log"; }
$check
echo "same output and exit status ($nrc) under sysgate ${opts[*]}"
