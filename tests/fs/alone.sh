#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# alone.sh PROG: a tests/fs program with no native run to compare with
# (its header says "under --fs only" and lists what it checks): it runs
# under sysgate --fs against the prefix and must exit 0; the prefix must
# not exist on disk afterwards.
set -u
BUILD=$(cd "$BUILD" && pwd)
prefix=/sysgate-fs-test-$$
(cd / && "$BUILD/sysgate" --fs=$prefix -- "$BUILD/tests/fs/$1" $prefix)
rc=$?
if [ -e $prefix ]; then
	echo "$prefix exists on disk after the run"
	exit 1
fi
exit $rc
