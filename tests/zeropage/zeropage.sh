#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# -m zeropage end to end.  Needs root (skips otherwise): sets
# vm.mmap_min_addr=0 for the length of this script and puts the original
# value back on every way out.  Checks:
#   - without the sysctl at 0, -m zeropage refuses in one line and the
#     program never starts;
#   - every behaviour program (tests/behave) counted, traced and started
#     by the loader under -m zeropage matches its native run: redzone
#     (unsafe sites keep stubs), nullfault and badcall (NULL reads and
#     calls fault), vfork, threads, signals...; real programs with -f too;
#   - trace, count and inject work, in threads and forks (tests/mech,
#     which skips zeropage outside this window); a hook with __thread state in 32
#     threads; code loaded later (dlopen) is rewritten, JIT code caught;
#     a static program; --stats shows zero-page sites in libc.
set -u
SG=$BUILD/sysgate
SYSCTL=/proc/sys/vm/mmap_min_addr
[ "$(id -u)" = 0 ] || { echo "needs root to set vm.mmap_min_addr"; exit 77; }
old=$(cat "$SYSCTL") || { echo "cannot read $SYSCTL"; exit 77; }
TMP=$(mktemp -d /tmp/sysgate-zeropage.XXXXXX)
restore() {
	echo "$old" >"$SYSCTL"
	rm -rf "$TMP"
}
trap restore EXIT
trap 'exit 1' HUP INT TERM

fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Refused, in one line, before the program runs.
echo 65536 >"$SYSCTL" || { echo "cannot write $SYSCTL"; exit 77; }
out=$("$SG" -m zeropage -c -- sh -c 'echo started' 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "ran with vm.mmap_min_addr=65536"
case $out in
*started*) fail "the program started: $out" ;;
esac
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "refusal is not one line: $out"
printf '%s\n' "$out" | grep -q 'mmap_min_addr' || fail "refusal does not say why: $out"
"$SG" --list-mechanisms | grep -q '^zeropage *no ' || fail "listed as available"

echo 0 >"$SYSCTL"
line=$("$SG" --list-mechanisms | grep '^zeropage ')
case $line in
"zeropage   available"*)
	ZP="-m zeropage" ;;
*execute-only*)
	# No protection keys: page 0 stays readable.  Refused without the
	# opt-in; with it, a NULL read does not fault as natively.
	out=$("$SG" -m zeropage -c -- sh -c 'echo started' 2>&1) &&
		fail "ran with a readable page 0"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] ||
		fail "readable page 0: refusal is not one line: $out"
	ZP="-m zeropage --zeropage-readable-null"
	echo "page 0 cannot be execute-only here: NULL reads are not checked" ;;
*)
	echo "zeropage cannot work here: $line"
	exit 77 ;;
esac

for src in tests/behave/*.c; do
	t=$(basename "$src" .c)
	[ "$ZP" != "-m zeropage" ] && [ "$t" = nullfault ] && continue
	bash tests/behave/compare.sh "$t" $ZP -c -o /dev/null >"$TMP/log" 2>&1 ||
		fail "behave/$t count: $(tail -5 "$TMP/log")"
	bash tests/behave/compare.sh "$t" $ZP -f -o "$TMP/$t.trace" >"$TMP/log" 2>&1 ||
		fail "behave/$t trace: $(tail -5 "$TMP/log")"
	if ! bash tests/behave/compare.sh "$t" $ZP --loader -f -c -o /dev/null \
		>"$TMP/log" 2>&1; then
		# Only what zeropage changes counts here: tests/behave reports
		# a program that fails under the loader anyway.
		if bash tests/behave/compare.sh "$t" --loader -f -c -o /dev/null \
			>/dev/null 2>&1; then
			fail "behave/$t loader: $(tail -5 "$TMP/log")"
		else
			echo "behave/$t fails under --loader without zeropage too: not counted"
		fi
	fi
done
while IFS='|' read -r name cmd; do
	bash tests/programs/compare.sh "$cmd" $ZP -f -c -o /dev/null >"$TMP/log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "$name: $(tail -5 "$TMP/log")"
done <<'EOT'
pipeline|seq 1 5000 | sort -rn | head -3; echo done
python-threads|python3 tests/programs/threads_subprocess.py
EOT

# Trace, count, inject: tests/mech's checks, in one thread, four and a fork.
if [ "$ZP" = "-m zeropage" ]; then
	for where in one threads fork; do
		for hook in trace count inject; do
			bash tests/mech/check.sh zeropage $where $hook >"$TMP/log" 2>&1 ||
				fail "mech $where $hook: $(tail -3 "$TMP/log")"
		done
	done
fi
# Trace, count, inject.
"$SG" $ZP -e trace=getppid -o "$TMP/trace" -- bash -c 'echo $PPID' >/dev/null ||
	fail "trace: exit $?"
grep -q '^getppid() *= [0-9]' "$TMP/trace" || fail "trace: $(cat "$TMP/trace")"
"$SG" $ZP -c -o "$TMP/count" -- bash -c 'echo $PPID' >/dev/null || fail "count: exit $?"
grep -q ' getppid$' "$TMP/count" || fail "count: $(cat "$TMP/count")"
out=$("$SG" $ZP -e trace=none -e inject=getppid:retval=4242 -- bash -c 'echo $PPID' 2>/dev/null)
[ "$out" = 4242 ] || fail "inject: '$out'"

# A hook with __thread state calling libc, 32 threads at once.
"$SG" $ZP -e trace=none --hook="$BUILD/tests/hooks/counter.so" -o "$TMP/out" \
	-- "$BUILD/tests/cli/prog" threads 32 500 >"$TMP/stdout" || fail "hook: exit $?"
[ "$(cat "$TMP/stdout")" = "16000 calls" ] || fail "hook program: $(cat "$TMP/stdout")"
grep -qx 'counter: 16000 calls in 32 threads, libc ok 160' "$TMP/out" ||
	fail "hook: $(cat "$TMP/out")"

# Code loaded later is rewritten too; JIT code is caught by SUD.
PROG=$BUILD/tests/cli/prog
"$SG" $ZP --stats -e trace=lseek -o "$TMP/dl" -- "$PROG" dlopen \
	"$BUILD/tests/cli/rawlib.so" >"$TMP/stdout" || fail "dlopen: exit $?"
[ "$(cat "$TMP/stdout")" = -9 ] || fail "dlopen: $(cat "$TMP/stdout")"
grep -q 'lseek(-42, 7, SEEK_SET) *= -1 EBADF' "$TMP/dl" || fail "dlopen: $(cat "$TMP/dl")"
grep -Eq 'rawlib\.so:.* zero-page call=[1-9]' "$TMP/dl" ||
	fail "dlopen: no zero-page site in rawlib.so: $(grep rawlib "$TMP/dl")"
if "$SG" --list-mechanisms | grep -q '^sud *available'; then
	# (-f: two of the calls are threads', as strace -f traces them)
	"$SG" $ZP -f -e trace=lseek -o "$TMP/jit" -- "$PROG" jit >"$TMP/stdout" ||
		fail "jit: exit $?"
	[ "$(cat "$TMP/stdout")" = "$(printf -- '-9\n-9 -9')" ] ||
		fail "jit: $(cat "$TMP/stdout")"
	for fd in -43 -44 -45; do
		grep -Eq "^([0-9]+ +)?lseek\\($fd, 7, SEEK_SET\\) *= -1 EBADF" \
			"$TMP/jit" ||
			fail "jit: lseek($fd) not traced: $(cat "$TMP/jit")"
	done
fi
"$SG" $ZP --stats -c -o "$TMP/static" -- "$BUILD/tests/cli/prog-static" basic \
	>"$TMP/stdout" || fail "static: exit $?"
[ "$(cat "$TMP/stdout")" = hello ] || fail "static: $(cat "$TMP/stdout")"
grep -Eq 'prog-static:.* zero-page call=[1-9]' "$TMP/static" ||
	fail "static: $(grep -E 'mechanism|prog-static' "$TMP/static")"

# libc's sites go to page 0; those whose red zone is in use keep stubs.
"$SG" $ZP --stats -c -o "$TMP/stats" -- /bin/true || fail "stats: exit $?"
grep -Eq 'libc\.so\.6:.* zero-page call=[1-9]' "$TMP/stats" ||
	fail "no zero-page sites in libc: $(grep -E 'mechanism|libc' "$TMP/stats")"
grep -q 'mechanism zeropage' "$TMP/stats" || fail "stats: $(head -3 "$TMP/stats")"
"$SG" $ZP --stats -c -o "$TMP/stats" -- "$BUILD/tests/behave/redzone" >/dev/null ||
	fail "redzone: exit $?"
grep -Eq 'behave/redzone: jump=1$' "$TMP/stats" ||
	fail "redzone's site is not a jump: $(grep redzone "$TMP/stats")"

[ $fails -eq 0 ] || exit 1
echo "zeropage: behaviour, programs, hooks and refusal all as expected"
