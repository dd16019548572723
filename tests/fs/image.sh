#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# image.sh CASE: a BACKING image is input another user (or a disk error)
# may have written.
#   owner:  an image that is not the user's own, that others may write,
#           or that is a symbolic link is refused in one line;
#   fuzz:   random bytes and 32-bit words flipped in the header and the
#           tables of a real image: every run either works or refuses the
#           image in one line (exit 1) -- never a crash or a hang.
set -u
SG=$BUILD/sysgate
TMP=$(mktemp -d /tmp/sysgate-fsimg.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# a real image: directories, small files, one big enough for the double
# indirect map, a symbolic link, a removed file
make_image() {
	mkdir -p "$TMP/good"
	"$SG" --fs=/sgx:"$TMP/good" --fs-size=64M -- sh -c '
		mkdir -p /sgx/a/b /sgx/c &&
		for i in 1 2 3 4 5 6 7 8; do echo "file $i" >/sgx/a/b/f$i; done &&
		head -c 6000000 /dev/zero | tr "\0" x >/sgx/c/big &&
		ln -s a/b /sgx/link && echo gone >/sgx/gone && rm /sgx/gone' ||
		fail "cannot make an image"
}

# run the tools on an image; 0 = fine or refused in one line
use_image() {
	timeout -k 5 120 "$SG" --fs=/sgx:"$1" -- sh -c '
		ls -lR /sgx >/dev/null 2>&1; cat /sgx/a/b/f1 /sgx/link/f2 >/dev/null 2>&1
		mv /sgx/a/b/f3 /sgx/c/f3 2>/dev/null; rm -f /sgx/a/b/f4 2>/dev/null
		echo new >/sgx/new 2>/dev/null; exit 0' >/dev/null 2>"$TMP/err"
	rc=$?
	case $rc in
	0) return 0 ;;
	1) [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'refused' "$TMP/err" &&
		return 0
	   echo "exit 1 without one refusal line: $(head -3 "$TMP/err")"; return 1 ;;
	124|137) echo "hung"; return 1 ;;
	*) echo "exit $rc: $(head -3 "$TMP/err")"; return 1 ;;
	esac
}

t_owner() {
	make_image
	use_image "$TMP/good" || fail "a good image"
	cp -a "$TMP/good" "$TMP/open"
	chmod 0666 "$TMP/open/sysgate-fs.img"
	"$SG" --fs=/sgx:"$TMP/open" -- true 2>"$TMP/err" && fail "world-writable image used"
	grep -q "only they can write; refused" "$TMP/err" || fail "$(cat "$TMP/err")"
	mkdir "$TMP/link"
	ln -s "$TMP/good/sysgate-fs.img" "$TMP/link/sysgate-fs.img"
	"$SG" --fs=/sgx:"$TMP/link" -- true 2>"$TMP/err" && fail "symlinked image used"
	grep -q "symbolic link; refused" "$TMP/err" || fail "$(cat "$TMP/err")"
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		cp -a "$TMP/good" "$TMP/theirs"
		chown nobody "$TMP/theirs/sysgate-fs.img"
		"$SG" --fs=/sgx:"$TMP/theirs" -- true 2>"$TMP/err" &&
			fail "another user's image used"
		grep -q "refused" "$TMP/err" || fail "$(cat "$TMP/err")"
	fi
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$(cat "$TMP/err")"
}

t_fuzz() {
	make_image
	local i bad=0
	for i in $(seq 1 60); do
		rm -rf "$TMP/case"
		mkdir "$TMP/case"
		cp --sparse=always "$TMP/good/sysgate-fs.img" "$TMP/case/" ||
			fail "copy"
		python3 - "$TMP/case/sysgate-fs.img" "$i" <<'EOT' >"$TMP/what"
import random, struct, sys
path, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
f = open(path, 'r+b')
head = f.read(512)
(off_inodes, off_dents, off_ofds, off_hash, off_blocks) = struct.unpack_from('<5Q', head, 24)
ninodes, ndents = struct.unpack_from('<II', head, 64)
inode_size = (off_dents - off_inodes) // ninodes
dent_size = (off_ofds - off_dents) // ndents
# where the live objects are: the header, the first inodes and entries,
# the hash table, the first data blocks (block maps)
regions = [(0, 256), (off_inodes, 32 * inode_size),
           (off_dents, 32 * dent_size), (off_hash, (1 << 17) * 4),
           (off_blocks, 64 * 4096)]
for _ in range(rnd.randint(1, 4)):
    base, size = rnd.choice(regions)
    at = base + rnd.randrange(size) & ~3
    f.seek(at)
    if rnd.random() < 0.5:
        word = rnd.choice([0, 1, 0xffffffff, 0x7fffffff, rnd.getrandbits(32),
                           rnd.randrange(1, 64)])
        f.write(struct.pack('<I', word))
    else:
        old = f.read(1)[0]
        f.seek(at)
        f.write(bytes([old ^ (1 << rnd.randrange(8))]))
    print(hex(at), end=' ')
EOT
		use_image "$TMP/case" || { echo "case $i (at $(cat "$TMP/what"))"; bad=1; }
	done
	[ $bad = 0 ] || fail "some corrupt images crashed or hung a program"
}

"t_$1"
