#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad --bypass lists and --hot thresholds stop sysgate before PROG starts,
# with one line on stderr and status 1.
set -u
mark=$(mktemp -u /tmp/sysgate-badopts.XXXXXX)
for args in "bypass --bypass=nope" "bypass --bypass=pread,," \
	    "hot --hot=calls=0" "hot --hot=short-ns=x" "hot --hot=bogus=1"; do
	# shellcheck disable=SC2086
	err=$("$BUILD/sysgate" $args -- touch "$mark" 2>&1 >/dev/null)
	rc=$?
	if [ $rc != 1 ] || [ -e "$mark" ] || [ "$(echo "$err" | wc -l)" != 1 ]; then
		echo "sysgate $args: exit $rc, stderr: $err"
		rm -f "$mark"
		exit 1
	fi
	echo "sysgate $args: $err"
done
