#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools.sh ROOT SRC OUT: real programs on ROOT (a directory on CephFS:
# coreutils, tar, python3, git, make -j2, rsync, sqlite3, exec),
# printing what they did and never a time, inode number or ROOT itself;
# compare.sh runs it on the ceph-fuse mount and under --fs.  SRC is a
# small source tree to copy in, OUT a local directory for archives.
set -u
R=$1 S=$2 O=$3
PY=${PY:-python3}
say() { echo "$*: $?"; }
cp -r "$S" "$R/src"; say cp -r
cd "$R" || exit 1
# (A directory's size on CephFS is the bytes below it, which the MDS
# adds up lazily: not compared, nor the blocks of "total".)
ls -lR --time-style=+ src |
	awk '/^total/ {$2 = "N"} /^d/ {$5 = "N"} {$1 = $1; print}'
say ls -lR
find src | sort; say find
du -s --inodes src; say du --inodes
mv src moved; say mv
ls; say ls
tar cf "$O/tree.tar" moved; say tar c
tar tf "$O/tree.tar" | sort; say tar t
mkdir x && tar xf "$O/tree.tar" -C x; say tar x
diff -r "$S" x/moved; say diff
"$PY" - <<'P'
import os
with open("py.txt", "w") as f:
    for i in range(1000):
        f.write("line %d\n" % i)
with open("py.txt") as f:
    lines = f.readlines()
print(len(lines), lines[-1].strip(), os.path.getsize("py.txt"))
os.rename("py.txt", "py2.txt")
print(sorted(os.listdir(".")))
P
say python3
# sqlite3, where installed: its journal and fcntl record locks, and
# its write-ahead log.
if command -v sqlite3 > /dev/null; then
	sqlite3 db "create table t(a, b); begin; insert into t values (1, 'x'), (2, 'y'); commit; select sum(a), group_concat(b) from t;"
	say sqlite3
	rm db
	# write-ahead log: its index is a MAP_SHARED of the -shm file
	sqlite3 wal.db "pragma journal_mode=wal; create table t(a); insert into t values (1), (2); select sum(a) from t;"
	say sqlite3 wal
	sqlite3 wal.db "insert into t values (3); select sum(a) from t; pragma integrity_check;"
	say sqlite3 wal again
	rm -f wal.db wal.db-wal wal.db-shm
fi
# git: a local repository cloned in, a commit, its log and a check
# (names and dates fixed, so both runs make the same hashes).
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@t GIT_AUTHOR_DATE=2000-01-01T00:00:00Z \
	GIT_COMMITTER_DATE=2000-01-01T00:00:00Z
git init -q "$O/repo" && cp "$S/rw.c" "$O/repo" &&
	git -C "$O/repo" add . && git -C "$O/repo" commit -qm one
git clone -q --no-local "$O/repo" g; say git clone
echo "/* two */" >> g/rw.c && git -C g commit -qam two; say git commit
git -C g log --format='%H %s'; say git log
git -C g fsck --no-progress 2>&1; say git fsck
# make -j2 of a C program that lives here, then again (nothing to do).
mkdir m && printf 'int two(void);\nint main(void) { return two() - 2; }\n' > m/main.c &&
	printf 'int two(void) { return 2; }\n' > m/two.c &&
	printf 'p: main.o two.o\n\t$(CC) -o $@ main.o two.o\n' > m/Makefile
make -s -j2 -C m && ./m/p; say make -j2
make -C m --no-print-directory; say make again
# rsync -a in and out.
rsync -a "$S/" r/; say rsync in
rsync -a r/ "$O/r/"; say rsync out
diff -r "$S" "$O/r"; say diff
rm -rf g m r; say rm -rf
# Programs stored on CephFS: a binary, a script, one without x.
cp /bin/echo e && ./e run from CephFS; say exec
printf '#!/bin/sh\necho script "$1"\n' > s.sh && chmod +x s.sh && ./s.sh arg
say script
chmod -x e && ./e no; say exec -x
rm e s.sh
rm -r moved x py2.txt; say rm -r
ls -a; say ls -a
