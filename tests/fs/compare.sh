#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare.sh PROG [SYSGATE-OPTIONS...]: run a tests/fs program against a
# real directory, then under sysgate --fs against the prefix; the outputs
# must be identical and the prefix must not exist on disk afterwards.
set -u
BUILD=$(cd "$BUILD" && pwd)
prog=$BUILD/tests/fs/$1
shift
# -m NAME where that mechanism cannot work: skip, saying why.
if [ "${1:-}" = -m ]; then
	"$BUILD/sysgate" --list-mechanisms | grep -q "^$2 *available" ||
		{ echo "mechanism $2 is not available here"; exit 77; }
fi
# A program that says "in a sandbox" in its first lines changes files
# through paths that a broken build would send to host objects (/ itself):
# under --fs it runs as root of a user namespace whose root is nobody
# outside, where such a call fails instead.
sandbox=
if head -n 3 "tests/fs/$(basename "$prog").c" | grep -q 'in a sandbox'; then
	[ "$(id -u)" = 0 ] || { echo "needs root (files of other owners)"; exit 77; }
	sandbox="setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --"
	$sandbox true 2>/dev/null ||
		{ echo "no user namespaces for nobody: the sandbox needs one"; exit 77; }
fi
real=$(mktemp -d /tmp/sysgate-fs-real.XXXXXX)
prefix=/sysgate-fs-test-$$
trap 'rm -rf "$real"' EXIT
native=$(cd / && "$prog" "$real" 2>&1)
nrc=$?
host() { stat -c '%n %f %u %g %Y %Z' /; }
before=$(host)
hooked=$(cd / && $sandbox "$BUILD/sysgate" "$@" --fs=$prefix -- "$prog" $prefix 2>&1)
hrc=$?
if [ "$before" != "$(host)" ]; then
	echo "/ changed: $before -> $(host)"
	exit 1
fi
if [ -e $prefix ]; then
	echo "$prefix exists on disk after the run"
	exit 1
fi
if [ "$native" != "$hooked" ] || [ $nrc != $hrc ]; then
	echo "native exit $nrc, under --fs exit $hrc"
	diff <(echo "$native") <(echo "$hooked")
	exit 1
fi
echo "$native" | wc -l
