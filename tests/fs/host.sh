#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# host.sh CASE MODE: a tool copies a tree of odd modes, owners, times and
# links into --fs (from an archive extracted there first); the tree it
# makes under the prefix must equal the one it makes natively, and host
# /, the working directory and BACKING must be as they were: no call on a
# path or descriptor of ours may reach a host object (a descriptor of ours
# once held one of / as its placeholder, and tar's chmod of
# /proc/self/fd/N changed /).
#
# MODE root: the tool runs as root in a user namespace whose root is
# nobody outside, so that a build that still reaches / fails with EPERM
# instead of changing it; the native run is real root.  MODE user: both
# run as nobody (started by root), or as the user running the test.
# KEEP=1 keeps the scratch directory.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
BUILD=$(cd "$BUILD" && pwd)
SG=$BUILD/sysgate
case=$1 mode=$2
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

fail() { echo "FAIL: $*"; exit 1; }
need() { command -v "$1" >/dev/null || { echo "$1 not installed"; exit 77; }; }
need tar
AS='' NATIVE=''
own() { :; }	# a user cannot give files away
if [ "$(id -u)" != 0 ]; then
	[ "$mode" = user ] ||
		{ echo "needs root (files of other owners, switching users)"; exit 77; }
	NOBODY=
elif [ "$mode" = root ]; then
	need setpriv
	need unshare
	$NOBODY unshare --user --map-root-user true 2>/dev/null ||
		{ echo "no user namespaces for nobody: the root case needs one"; exit 77; }
	AS="$NOBODY unshare --user --map-root-user --"
	own() { chown "$@"; }
else
	need setpriv
	AS=$NOBODY
	NATIVE=$NOBODY
fi
# chown to whoever runs the tool (a no-op when not root)
give() { [ -z "$NOBODY" ] || chown 65534:65534 "$@"; }

T=$(mktemp -d /tmp/sysgate-fs-host.XXXXXX)
P=/sysgate-fs-host-$$
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir "$T/work" "$T/back" "$T/native" "$T/out"
give "$T/work" "$T/back" "$T/out"
[ "$mode" = user ] && give "$T/native"

# The archive: directories 0700, 0755, 2775; files of odd modes, owners
# and times; a hard link and a symbolic link.
S=$T/src
mkdir -m 0755 "$S" "$S/pub" && mkdir -m 0700 "$S/private" &&
	mkdir -m 2775 "$S/shared" && mkdir -m 0755 "$S/shared/sub" || exit 1
printf 'plain\n' > "$S/pub/plain" && chmod 0644 "$S/pub/plain"
printf 'secret\n' > "$S/private/secret" && chmod 0600 "$S/private/secret"
printf '#!/bin/sh\necho run\n' > "$S/pub/run" && chmod 4751 "$S/pub/run"
printf 'ro\n' > "$S/shared/ro" && chmod 0444 "$S/shared/ro"
printf 'grp\n' > "$S/shared/sub/grp" && chmod 2640 "$S/shared/sub/grp"
printf 'x' > "$S/private/odd" && chmod 0407 "$S/private/odd"
ln "$S/pub/plain" "$S/shared/hard"
ln -s ../pub/plain "$S/private/sym"
own 1234:5678 "$S/pub/plain" "$S/private" "$S/shared/ro"
own 4321:5678 "$S/shared" "$S/pub/run"
own -h 1234:8765 "$S/private/sym"
touch -d @1000000000 "$S/pub/plain" "$S/private/secret"
touch -d @1234567890 "$S/pub/run" "$S/shared/ro" "$S/shared/sub/grp"
touch -h -d @1111111111 "$S/private/sym"
touch -d @1300000000 "$S/pub" "$S/private" "$S/shared/sub" "$S/shared"
tar --numeric-owner -C "$S" -cf "$T/in.tar" . && chmod 644 "$T/in.tar" ||
	exit 1

# What a tool does with SRC (the extracted archive) into DST.
tool() {
	local src=$1 dst=$2
	case $case in
	tar) ;;
	cp) cp -a "$src/." "$dst/" ;;
	rsync) rsync -a --numeric-ids "$src/" "$dst/" ;;
	install)
		local o=()
		[ "$mode" = root ] && o=(-o 1234 -g 5678)
		install -d -m 2775 "${o[@]}" "$dst/d" && install -d "$dst/d/in" &&
			install -p -m 0640 "${o[@]}" "$src/pub/plain" "$dst/d/a" &&
			install -p -m 4755 "$src/pub/run" "$dst/d/in/b" &&
			install -p -m 0400 "$src/private/secret" "$dst/c" &&
			touch -d @1400000000 "$dst/d/in" "$dst/d" ;;
	copytree)
		python3 -c 'import shutil, sys
shutil.copytree(sys.argv[1], sys.argv[2], symlinks=True, dirs_exist_ok=True)' \
			"$src" "$dst" ;;
	chmod)
		local who=4321:8765
		[ "$mode" = root ] || who=$(id -u):$(id -g)
		cp -a "$src/." "$dst/" && chmod -R u+rwX,g-w,o+rX "$dst" &&
			chmod -R g+s "$dst/shared" && chown -R "$who" "$dst/pub" ;;
	*) echo "unknown case $case"; return 2 ;;
	esac
}
case $case in
rsync) need rsync ;;
copytree) need python3 ;;
esac

# Everything but directory sizes and link counts, which differ between
# file systems; the contents of every file that may be read.
list() {
	(cd "$1" && find . -mindepth 1 \
		\( -type d -printf '%P d %M %U %G %T@\n' \) -o \
		\( -type l -printf '%P l %U %G %T@ %l\n' \) -o \
		-printf '%P %y %M %U %G %T@ %s %n\n' | LC_ALL=C sort &&
		find . -type f -readable -print0 | LC_ALL=C sort -z |
		xargs -0r md5sum)
}
# One tool run: extract the archive into $1/src, then the tool to $1/dst.
run() {
	mkdir "$1/src" "$1/dst" &&
		tar --numeric-owner -xpf "$T/in.tar" -C "$1/src" &&
		tool "$1/src" "$1/dst" &&
		list "$1/$([ "$case" = tar ] && echo src || echo dst)" > "$2"
}
host() {
	stat -c '%n %f %u %g %Y %Z' / "$T/work" "$T/back"
	ls -A "$T/back" "$T/work"
}
export -f tool list run
export case mode T

$NATIVE bash -c 'run "$0" "$1"' "$T/native" "$T/out/native.list" 2>&1 ||
	fail "native $case exit $?"
# BACKING gets its image before the picture of the host is taken.
(cd "$T/work" && $AS "$SG" --fs=$P:"$T/back" -e trace=none -o /dev/null -- true) ||
	fail "sysgate --fs exit $?"
host > "$T/before"
(cd "$T/work" && $AS "$SG" --fs=$P:"$T/back" -e trace=none -o /dev/null -- \
	bash -c 'run "$0" "$1"' "$P" "$T/out/fs.list" 2>&1) ||
	fail "$case under --fs exit $?"
host > "$T/after"
[ ! -e $P ] || fail "$P exists on disk"
diff "$T/before" "$T/after" || fail "a host object changed"
diff "$T/out/native.list" "$T/out/fs.list" || fail "the tree under --fs differs"
wc -l < "$T/out/fs.list"
