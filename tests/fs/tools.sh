#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools.sh CASE: real programs on the --fs prefix (tar, cp -r, find,
# Python, sqlite3), durability of BACKING across kill -9, and bad input.
# Each case checks that the prefix never appears on disk.
set -u
BUILD=$(cd "$BUILD" && pwd)
SG=$BUILD/sysgate
P=/sysgate-fs-tools-$$
T=$(mktemp -d /tmp/sysgate-fs-tools.XXXXXX)
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
need() { command -v "$1" >/dev/null || { echo "$1 not installed"; exit 77; }; }
fs() { "$SG" --fs=$P "$@"; }
ondisk() { [ ! -e $P ] || fail "$P exists on disk"; }

t_shell() {
	out=$(fs -- sh -c "echo hi > $P/f; cat $P/f; mkdir $P/d; cd $P/d && echo x > y && cat ../f y && ls -la $P | wc -l") ||
		fail "exit $?"
	[ "$out" = "$(printf 'hi\nhi\nx\n5')" ] || fail "got: $out"
	ondisk
}

t_tar() {
	need tar
	mkdir -p "$T/src/a/b" && seq 1 20000 > "$T/src/a/b/n" &&
		echo top > "$T/src/t" && tar cf "$T/in.tar" -C "$T" src
	fs -- sh -c "mkdir $P/x && tar xf $T/in.tar -C $P/x && \
		tar cf $P/out.tar -C $P/x src && tar tvf $P/out.tar > $T/list && \
		mkdir $T/back && tar xf $P/out.tar -C $T/back" || fail "tar under --fs"
	diff -r "$T/src" "$T/back/src" || fail "round trip differs"
	grep -q 'src/a/b/n' "$T/list" || fail "listing: $(cat "$T/list")"
	ondisk
}

t_cp_find() {
	need find
	fs -- sh -c "cp -r /usr/include/linux $P/l && diff -r /usr/include/linux $P/l && \
		find $P/l -name '*.h' | sed s,$P/l,, | sort > $T/mine && \
		cp -r $P/l $T/copy" || fail "cp -r / diff -r under --fs"
	(cd /usr/include/linux && find . -name '*.h' | sed 's,^\.,,' | sort) > "$T/theirs"
	diff "$T/theirs" "$T/mine" || fail "find differs"
	diff -r /usr/include/linux "$T/copy" || fail "copy back differs"
	ondisk
}

t_python() {
	need python3
	out=$(fs -- python3 -c "
import os, shutil
d = '$P/py'
os.makedirs(d + '/a/b')
with open(d + '/a/b/f.txt', 'w') as f:
    f.write('x' * 100000)
shutil.copy(d + '/a/b/f.txt', d + '/g.txt')
os.rename(d + '/g.txt', d + '/h.txt')
print(sorted(os.listdir(d)), os.path.getsize(d + '/h.txt'))
print(open(d + '/h.txt').read() == 'x' * 100000)
print(sorted(r for r, _, _ in os.walk(d)))
shutil.rmtree(d + '/a')
print(os.listdir(d))
") || fail "python exit $?"
	want="['a', 'h.txt'] 100000
True
['$P/py', '$P/py/a', '$P/py/a/b']
['h.txt']"
	[ "$out" = "$want" ] || fail "got: $out"
	ondisk
}

t_sqlite() {
	need sqlite3
	out=$(fs -- sh -c "sqlite3 $P/db 'create table t(a, b); \
		insert into t values (1, \"one\"); insert into t select a + 1, b from t; \
		insert into t select a + 2, b from t; select count(*), sum(a) from t;' && \
		sqlite3 $P/db 'select count(*) from t;'") || fail "sqlite3 exit $?"
	[ "$out" = "$(printf '4|10\n4')" ] || fail "got: $out"
	ondisk
}

t_backing_kill9() {
	mkdir "$T/b"
	# Write, acknowledge, then die by SIGKILL before any clean exit.
	("$SG" --fs=$P:"$T/b" -- sh -c "mkdir $P/k; seq 1 1000 > $P/k/n; \
		echo ack > $T/ack; kill -9 \$\$"; :) >/dev/null 2>&1
	[ -s "$T/ack" ] || fail "writer did not run"
	out=$("$SG" --fs=$P:"$T/b" -- sh -c "tail -1 $P/k/n; ls $P") ||
		fail "reload exit $?"
	[ "$out" = "$(printf '1000\nk')" ] || fail "after kill -9: $out"
	ondisk
}

t_kill9_space() {
	# An unlinked file that only a killed process held open is freed:
	# the second 40K fits in 64K again.
	out=$("$SG" --fs=$P --fs-size=64K -- sh -c "sh -c 'exec 3>$P/big; \
		head -c 40000 /dev/zero >&3; rm $P/big; kill -9 \$\$'; \
		head -c 40000 /dev/zero > $P/b2; wc -c < $P/b2" 2>&1)
	[ "$(echo "$out" | tail -1)" = 40000 ] || fail "got: $out"
	ondisk
}

t_enospc() {
	out=$("$SG" --fs=$P --fs-size=64K -- sh -c \
		"head -c 100000 /dev/zero > $P/z; echo rc=\$?; wc -c < $P/z" 2>&1)
	echo "$out" | grep -q "No space left on device" || fail "no ENOSPC: $out"
	size=$(echo "$out" | tail -1)
	[ "$size" -gt 32768 ] && [ "$size" -le 65536 ] || fail "size: $out"
	ondisk
}

t_bad_input() {
	for a in --fs=relative/p --fs=/ --fs=/a/../b "--fs=$P:$T/missing" \
		"--fs=$P --fs-size=12Q" "--fs-size=1M"; do
		# shellcheck disable=SC2086
		out=$("$SG" $a -- sh -c 'echo ran' 2>&1)
		rc=$?
		[ $rc != 0 ] || fail "$a: exit 0"
		[ "$(echo "$out" | wc -l)" = 1 ] || fail "$a: not one line: $out"
		case $out in *ran*) fail "$a: the program ran" ;; esac
	done
}

"t_$1"
