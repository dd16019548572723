#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every mechanism sysgate lists (--list-mechanisms: those added later are
# picked up here without a change) with each built-in hook, trace, count
# and inject, in one thread, in four threads at once and in a forked child
# (-f).  A mechanism that cannot work on this machine skips, saying why.
[ "$ARCH" = x86_64 ] || exit 0
mechs=$("$BUILD/sysgate" --list-mechanisms | awk '{ print $1 }') || exit 1
[ -n "$mechs" ] || exit 1
for m in $mechs; do
	for where in one threads fork; do
		for hook in trace count inject; do
			printf '%s/%s/%s\tbash tests/mech/check.sh %s %s %s\n' \
				"$m" "$where" "$hook" "$m" "$where" "$hook"
		done
	done
done
